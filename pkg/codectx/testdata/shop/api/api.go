// Package api answers requests over a store.
package api

import (
	"fmt"

	"shop/store"
	"shop/util"
)

// Show describes one item.
func Show(s *store.Store, id string) string {
	it, ok := s.Lookup(id)
	if !ok {
		return util.Missing(id)
	}
	return fmt.Sprintf("%s costs %d", it.ID, it.Price)
}

// Price returns an item's discounted price.
func Price(s *store.Store, id string, pct int) int {
	it, ok := s.Lookup(id)
	if !ok {
		return 0
	}
	return it.Discounted(pct)
}

// Stock reports how many items there are.
func Stock(s *store.Store) int {
	return s.Count()
}
