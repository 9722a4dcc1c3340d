package store

// Item is one thing for sale.
type Item struct {
	ID    string
	Price int
}

// Discounted returns the item's price after a discount in percent.
func (it Item) Discounted(pct int) int {
	return it.Price * (100 - pct) / 100
}
