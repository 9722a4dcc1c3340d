// Package commands parses and dispatches slash commands ("/help", "/model x").
package commands

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Handler runs one command with its arguments.
type Handler func(args []string) (string, error)

type command struct {
	help    string
	handler Handler
}

// Dispatcher maps command names to handlers.
type Dispatcher struct {
	commands map[string]command
}

// ErrNotACommand is returned for input that does not start with "/".
var ErrNotACommand = errors.New("not a slash command")

// NewDispatcher returns an empty dispatcher.
func NewDispatcher() *Dispatcher {
	return &Dispatcher{commands: map[string]command{}}
}

// Register adds a command; a second registration of a name replaces the first.
func (d *Dispatcher) Register(name, help string, h Handler) {
	d.commands[strings.ToLower(name)] = command{help: help, handler: h}
}

// Names lists the registered commands in order.
func (d *Dispatcher) Names() []string {
	names := make([]string, 0, len(d.commands))
	for n := range d.commands {
		names = append(names, "/"+n)
	}
	sort.Strings(names)
	return names
}

// Dispatch runs the command in line ("/name arg1 arg2"). Unknown commands are
// rejected with the list of known ones, never passed to the model.
func (d *Dispatcher) Dispatch(line string) (string, error) {
	if !strings.HasPrefix(line, "/") {
		return "", ErrNotACommand
	}
	fields := strings.Fields(line[1:])
	if len(fields) == 0 {
		return "", fmt.Errorf("empty command: try /help")
	}
	name := strings.ToLower(fields[0])
	cmd, ok := d.commands[name]
	if !ok {
		return "", fmt.Errorf("unknown command /%s (known: %s)", name, strings.Join(d.Names(), ", "))
	}
	return cmd.handler(fields[1:])
}
