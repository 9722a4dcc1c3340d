// Package payment charges customers and retries failed payments.
package payment

import (
	"errors"
	"time"
)

// ErrGiveUp is returned when every attempt failed.
var ErrGiveUp = errors.New("payment failed after retries")

// Gateway charges a card (支付网关).
type Gateway interface {
	Charge(amount int) error
}

// CardGateway sends charges to the card network.
type CardGateway struct {
	attempts int
}

// Charge sends one charge to the card network.
func (g *CardGateway) Charge(amount int) error {
	g.attempts++
	if amount <= 0 {
		return errors.New("amount must be positive")
	}
	return nil
}

// RetryPayment charges again with exponential backoff when the gateway
// fails (失败重试：支付失败后指数退避重试).
func RetryPayment(g Gateway, amount, tries int) error {
	for i := 0; i < tries; i++ {
		if err := g.Charge(amount); err == nil {
			return nil
		}
		backoff(i)
	}
	return ErrGiveUp
}

// backoff waits longer after each failed attempt.
func backoff(attempt int) {
	time.Sleep(time.Duration(1<<attempt) * time.Millisecond)
}
