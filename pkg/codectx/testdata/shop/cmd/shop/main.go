// Command shop prints one item.
package main

import (
	"fmt"

	"shop/api"
	"shop/store"
)

func main() {
	s := store.New()
	s.Save(store.Item{ID: "a", Price: 10})
	fmt.Println(api.Show(s, "a"), api.Price(s, "a", 10), api.Stock(s))
}
