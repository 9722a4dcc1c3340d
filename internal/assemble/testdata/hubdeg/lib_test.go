package lib

import "testing"

func TestParseA(t *testing.T) { Parse("a") }
func TestParseB(t *testing.T) { Parse("b") }
func TestParseC(t *testing.T) { Parse("c") }
