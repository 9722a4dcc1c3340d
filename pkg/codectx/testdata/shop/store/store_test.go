package store

import "testing"

func TestNew(t *testing.T) {
	if New().Count() != 0 {
		t.Fatal("not empty")
	}
}
