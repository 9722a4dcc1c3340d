package serve

import (
	"embed"
	"io/fs"
	"net/http"
)

// The web page: plain HTML, CSS and JavaScript written for codectx, embedded
// in the binary; it only talks to this server's /api routes.
//
//go:embed web
var webFS embed.FS

// pagePolicy forbids the page from loading anything from elsewhere.
const pagePolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

func (s *Server) pageRoutes(mux *http.ServeMux) {
	sub, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree is part of the binary
	}
	files := http.FileServerFS(sub)
	secure := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Security-Policy", pagePolicy)
			w.Header().Set("X-Content-Type-Options", "nosniff")
			w.Header().Set("Referrer-Policy", "no-referrer")
			w.Header().Set("Cache-Control", "no-cache")
			h.ServeHTTP(w, r)
		})
	}
	mux.Handle("GET /{$}", secure(files))
	mux.Handle("GET /assets/", secure(files))
}
