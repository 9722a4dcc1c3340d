package api

import (
	"testing"

	"shop/store"
)

func TestShow(t *testing.T) {
	s := store.New()
	s.Save(store.Item{ID: "a", Price: 10})
	if got := Show(s, "a"); got != "a costs 10" {
		t.Fatal(got)
	}
}

func TestStock(t *testing.T) {
	if Stock(store.New()) != 0 {
		t.Fatal("not empty")
	}
}
