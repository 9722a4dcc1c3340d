package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// params are a request's arguments: the query string of a GET, or a JSON
// object (or a form) in the body of a POST, with the names of the MCP
// tools' arguments. Reading a parameter of the wrong type records an error;
// err reports it, or an unknown parameter.
type params struct {
	q    url.Values
	js   map[string]any
	used map[string]bool
	err  error
}

// errBadParams marks an error in the request's parameters (400).
var errBadParams = errors.New("bad parameters")

type paramError struct{ msg string }

func (e *paramError) Error() string { return e.msg }
func (e *paramError) Unwrap() error { return errBadParams }

func paramErrorf(format string, a ...any) error { return &paramError{fmt.Sprintf(format, a...)} }

func readParams(r *http.Request) (*params, error) {
	p := &params{q: r.URL.Query(), used: map[string]bool{}}
	if r.Method != http.MethodPost {
		return p, nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/x-www-form-urlencoded" {
		if err := r.ParseForm(); err != nil {
			return nil, bodyError(err)
		}
		for k, v := range r.PostForm {
			p.q[k] = append(p.q[k], v...)
		}
		return p, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, bodyError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return p, nil
	}
	if ct != "" && ct != "application/json" {
		return nil, paramErrorf("a POST body must be JSON (Content-Type: application/json), got %q", ct)
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&p.js); err != nil || p.js == nil {
		return nil, paramErrorf("the body must be a JSON object of parameters")
	}
	if d.More() {
		return nil, paramErrorf("the body must be one JSON object")
	}
	return p, nil
}

// bodyError reports a body that could not be read (413 when too big).
func bodyError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &tooLarge{limit: mb.Limit}
	}
	return paramErrorf("read the request body: %v", err)
}

type tooLarge struct{ limit int64 }

func (e *tooLarge) Error() string {
	return fmt.Sprintf("the request body is larger than %d bytes", e.limit)
}

func (p *params) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// raw returns the parameter's value: a string for the query string, the
// decoded JSON value for a body.
func (p *params) raw(name string) (any, bool) {
	p.used[name] = true
	if p.js != nil {
		v, ok := p.js[name]
		if v == nil {
			return nil, false
		}
		return v, ok
	}
	vs, ok := p.q[name]
	if !ok || len(vs) == 0 {
		return nil, false
	}
	if len(vs) > 1 {
		p.fail(paramErrorf("parameter %s is given %d times", name, len(vs)))
	}
	return vs[0], true
}

func (p *params) str(name string) string {
	v, ok := p.raw(name)
	if !ok {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	}
	p.fail(paramErrorf("parameter %s must be a string", name))
	return ""
}

func (p *params) int(name string) int {
	v, ok := p.raw(name)
	if !ok {
		return 0
	}
	var s string
	switch x := v.(type) {
	case string:
		s = strings.TrimSpace(x)
	case json.Number:
		s = x.String()
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		p.fail(paramErrorf("parameter %s must be an integer, got %v", name, v))
	}
	return n
}

func (p *params) bool(name string) bool {
	v, ok := p.raw(name)
	if !ok {
		return false
	}
	switch x := v.(type) {
	case bool:
		return x
	case string:
		switch x {
		case "true", "1", "yes":
			return true
		case "false", "0", "no":
			return false
		case "":
			// ?fixed (no value) in a query string is a flag.
			if p.js == nil {
				return true
			}
		}
	}
	p.fail(paramErrorf("parameter %s must be true or false, got %q", name, fmt.Sprint(v)))
	return false
}

// list is a repeated query parameter, or a JSON array of strings.
func (p *params) list(name string) []string {
	p.used[name] = true
	if p.js == nil {
		return p.q[name]
	}
	v, ok := p.js[name]
	if !ok || v == nil {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		if s, ok := v.(string); ok {
			return []string{s}
		}
		p.fail(paramErrorf("parameter %s must be an array of strings", name))
		return nil
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			p.fail(paramErrorf("parameter %s must be an array of strings", name))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// check returns the first type error, or an error naming a parameter the
// handler did not read ("project" and "token" are read by the router).
func (p *params) check() error {
	if p.err != nil {
		return p.err
	}
	var names []string
	if p.js != nil {
		for k := range p.js {
			names = append(names, k)
		}
	} else {
		for k := range p.q {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if !p.used[n] && n != "project" {
			var known []string
			for k := range p.used {
				if k != "project" {
					known = append(known, k)
				}
			}
			slices.Sort(known)
			return paramErrorf("unknown parameter %q (known: %s)", n, strings.Join(known, ", "))
		}
	}
	return nil
}
