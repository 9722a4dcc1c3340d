package kv

// Getter reads a value by key.
type Getter interface{ Get(k string) string }

// Store is a map of values.
type Store struct{ m map[string]string }

// Get is called from many places: a hub.
func (s *Store) Get(k string) string { return s.m[k] }

// Cache wraps a Store.
type Cache struct {
	Store
}

// Lookup reads through the cache.
func Lookup(c *Cache, k string) string { return c.Get(k) }

func use01(s *Store) string { return s.Get("k1") }

func use02(s *Store) string { return s.Get("k2") }

func use03(s *Store) string { return s.Get("k3") }

func use04(s *Store) string { return s.Get("k4") }

func use05(s *Store) string { return s.Get("k5") }

func use06(s *Store) string { return s.Get("k6") }

func use07(s *Store) string { return s.Get("k7") }

func use08(s *Store) string { return s.Get("k8") }

func use09(s *Store) string { return s.Get("k9") }

func use10(s *Store) string { return s.Get("k10") }

func use11(s *Store) string { return s.Get("k11") }

func use12(s *Store) string { return s.Get("k12") }
