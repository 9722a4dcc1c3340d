package codectx

import (
	"errors"
	"fmt"

	"codectx/internal/exact"
)

// inputError marks an error caused by the caller's input; its message is
// the wrapped error's, unchanged.
type inputError struct{ err error }

func (e *inputError) Error() string   { return e.err.Error() }
func (e *inputError) Unwrap() []error { return []error{e.err, ErrBadOption} }

// badInput marks err (nil stays nil) so that errors.Is(err, ErrBadOption)
// and IsBadInput hold.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

// IsBadInput reports whether err was caused by the caller's input — a bad
// option, an empty query, an unusable pattern, a path outside the root, a
// file or symbol that does not exist — rather than by the index, the
// database or the system. Servers answer such errors as client errors.
func IsBadInput(err error) bool {
	if err == nil {
		return false
	}
	var xe *exact.Error
	if errors.As(err, &xe) {
		return !errors.Is(xe.Kind, exact.ErrNoRoot)
	}
	return errors.Is(err, ErrBadOption) || errors.Is(err, ErrEmptyQuery) || errors.Is(err, ErrSymbolNotFound)
}

// Votes accepted by ParseVote.
const (
	VoteUp   = "up"
	VoteDown = "down"
)

// ParseVote turns "up" or "down" into the vote Feedback takes (1 or -1).
func ParseVote(s string) (int, error) {
	switch s {
	case VoteUp:
		return 1, nil
	case VoteDown:
		return -1, nil
	}
	return 0, badInput(fmt.Errorf("vote must be up or down, got %q", s))
}
