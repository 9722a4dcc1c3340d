package graph

import (
	"fmt"
	"sync"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// TokenEncoding is the tokenizer budgets are counted in.
const TokenEncoding = "cl100k_base"

var (
	encOnce sync.Once
	enc     *tiktoken.Tiktoken
	encErr  error
)

// encoder loads the cl100k_base tables once per process, from the copy
// compiled into the binary (the offline loader): nothing is downloaded.
func encoder() (*tiktoken.Tiktoken, error) {
	encOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		enc, encErr = tiktoken.GetEncoding(TokenEncoding)
		if encErr != nil {
			encErr = fmt.Errorf("load %s tokenizer: %w", TokenEncoding, encErr)
		}
	})
	return enc, encErr
}

// CountTokens returns the number of cl100k_base tokens in s. Special-token
// text such as "<|endoftext|>" is counted as ordinary text.
func CountTokens(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	e, err := encoder()
	if err != nil {
		return 0, err
	}
	return len(e.EncodeOrdinary(s)), nil
}
