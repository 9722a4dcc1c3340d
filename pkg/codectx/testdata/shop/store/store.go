// Package store keeps the shop's items in memory.
package store

// Store holds items by id.
type Store struct {
	items map[string]Item
}

// New returns an empty store.
func New() *Store {
	return &Store{items: map[string]Item{}}
}

// Lookup returns the item with the given id.
func (s *Store) Lookup(id string) (Item, bool) {
	it, ok := s.items[id]
	return it, ok
}

// Save stores an item under its id.
func (s *Store) Save(it Item) {
	s.items[it.ID] = it
}

// Count is the number of items.
func (s *Store) Count() int {
	return len(s.items)
}
