package main

import "testing"

// TestMemoryLimitByPhase: the index command's soft heap limit is lowered
// when resolution starts (the run's largest live heap) and not before.
func TestMemoryLimitByPhase(t *testing.T) {
	for _, tc := range []struct {
		phase string
		want  int64
	}{
		{"wait", indexMemoryLimit},
		{"scan", indexMemoryLimit},
		{"index", indexMemoryLimit},
		{"resolve", resolveMemoryLimit},
		{"done", resolveMemoryLimit},
	} {
		if got := memoryLimit(tc.phase); got != tc.want {
			t.Errorf("memoryLimit(%q) = %d, want %d", tc.phase, got, tc.want)
		}
	}
	if resolveMemoryLimit >= indexMemoryLimit {
		t.Errorf("resolution's limit %d is not below the writing phase's %d", resolveMemoryLimit, indexMemoryLimit)
	}
}
