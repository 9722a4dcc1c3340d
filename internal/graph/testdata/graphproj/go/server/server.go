// Package server accepts connections.
package server

import "github.com/acme/log"

// Handler serves one connection.
type Handler interface {
	Serve(c string) error
}

// Server accepts connections.
type Server struct {
	handler Handler
}

// ListenAndServe starts serving.
func (s *Server) ListenAndServe() error {
	return s.serve()
}

func (s *Server) serve() error {
	s.handle("conn")
	logf("served")
	return nil
}

func (s *Server) handle(c string) {
	logf("handle %s", c)
	log.Println(c)
}

func logf(format string, args ...any) {}
