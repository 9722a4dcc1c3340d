// Package checkout turns a cart into a paid order.
package checkout

import "shop/payment"

// Item is one line of a cart.
type Item struct {
	Price, Quantity int
}

// Cart holds the items a customer is buying.
type Cart struct {
	Items []Item
}

// Total is the sum of the cart's lines.
func (c *Cart) Total() int {
	sum := 0
	for _, it := range c.Items {
		sum += it.Price * it.Quantity
	}
	return sum
}

// Checkout charges the cart's total, retrying failed payments.
func Checkout(c *Cart) error {
	total := c.Total()
	return payment.RetryPayment(&payment.CardGateway{}, total, 3)
}
