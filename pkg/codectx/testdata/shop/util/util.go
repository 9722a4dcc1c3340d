// Package util holds small helpers.
package util

// Missing is the message for an unknown id.
func Missing(id string) string {
	return "no item " + quote(id)
}

func quote(s string) string {
	return "\"" + s + "\""
}
