package search

import (
	"fmt"
	"os"
	"time"
)

// TEMPORARY timing instrumentation.
func dbgTime(what string, t0 time.Time) {
	if os.Getenv("CODECTX_SEARCH_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "debug: %s %v\n", what, time.Since(t0))
	}
}
