// Package server is a sample used by the lang tests.
package server

import (
	"fmt"
	"net"
	"sync"

	"github.com/acme/log"
	util "golang.org/x/tools/util"
)

import "example.com/single"

// ErrClosed is returned after Close.
var ErrClosed = fmt.Errorf("closed")

const (
	defaultPort = 8080
	defaultHost = "localhost"
)

var sniffSignatures = []sniffSig{
	{"a", 1},
	{"b", 2},
}

// Handler handles one connection.
type Handler interface {
	Serve(c net.Conn) error
}

// Server accepts connections.
// It embeds a mutex.
type Server struct {
	sync.Mutex
	*log.Logger
	Addr    string
	handler Handler
	conns   map[net.Conn]bool
	extra   int
}

type (
	// Option configures a Server.
	Option func(*Server)
	pair   struct{ a, b int }
)

// ReadWriter combines reader and writer.
type ReadWriter interface {
	Reader
	io.Writer
	Flush() error
}

// Serve accepts connections on l.
func (s *Server) Serve(l net.Listener) error {
	defer l.Close()
	for {
		c, err := l.Accept()
		if err != nil {
			return fmt.Errorf("accept: %w", err)
		}
		go func() {
			s.handle(c)
			log.Printf("done")
		}()
	}
}

func (s *Server) handle(c net.Conn) {
	s.handler.Serve(c)
	s.handler.Serve(c)
	helper(c)
}

// Stack is generic.
type Stack[T any] struct{ items []T }

// Push adds v.
func (st *Stack[T]) Push(v T) { st.items = append(st.items, v) }

// parsePattern parses s.
func parsePattern(s string,
	strict bool) (string, error) {
	return util.Clean(s), nil
}

func helper(c net.Conn) {}
