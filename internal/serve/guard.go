package serve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"
)

// tokenCookie carries the token for the web page after it was given once
// as ?token=.
const tokenCookie = "codectx_token"

// guard wraps every route: panics become 500s, the token is checked, the
// Host header must name the loopback interface when there is no token (DNS
// rebinding), cross-origin writes are refused, and the body size and the
// request time are bounded.
func (s *Server) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	var want [32]byte
	if s.opt.Token != "" {
		want = sha256.Sum256([]byte(s.opt.Token))
	}
	inner := cop.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxBody)
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.Timeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("request panicked", "path", r.URL.Path, "panic", v, "stack", string(debug.Stack()))
				writeError(w, http.StatusInternalServerError, "internal error", nil)
			}
			s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "ms", time.Since(start).Milliseconds())
		}()
		if s.opt.Token == "" {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			if !IsLoopback(host) {
				writeError(w, http.StatusForbidden, "the Host header must name the loopback interface (this server has no token)", nil)
				return
			}
		} else {
			if tok := r.URL.Query().Get("token"); tok != "" && r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") && r.URL.Path != "/mcp" {
				// The page's first visit: keep the token in a cookie and
				// drop it from the address bar.
				if !tokenMatches(want, tok) {
					writeError(w, http.StatusUnauthorized, "wrong token", nil)
					return
				}
				http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
				u := *r.URL
				q := u.Query()
				q.Del("token")
				u.RawQuery = q.Encode()
				dest := url.URL{Path: "/" + strings.TrimLeft(u.Path, "/"), RawQuery: u.RawQuery}
				http.Redirect(w, r, dest.String(), http.StatusSeeOther)
				return
			}
			if !tokenMatches(want, requestToken(r)) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="codectx"`)
				writeError(w, http.StatusUnauthorized, "missing or wrong token: send Authorization: Bearer TOKEN", nil)
				return
			}
		}
		inner.ServeHTTP(w, r)
	})
}

// requestToken is the bearer token of the Authorization header, or the
// page's cookie.
func requestToken(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		if tok, ok := strings.CutPrefix(h, "Bearer "); ok {
			return strings.TrimSpace(tok)
		}
		return ""
	}
	if c, err := r.Cookie(tokenCookie); err == nil {
		return c.Value
	}
	return ""
}

// tokenMatches compares in constant time (hashes, so the length does not
// leak either).
func tokenMatches(want [32]byte, got string) bool {
	if got == "" {
		return false
	}
	h := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(want[:], h[:]) == 1
}
