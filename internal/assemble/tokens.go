package assemble

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// TokenEncoding is the tokenizer budgets are counted in.
const TokenEncoding = "cl100k_base"

// maxTokenBytes is the length in bytes of the longest cl100k_base token
// (tokens_test.go checks it against the tables): a text of n bytes has at
// least n/maxTokenBytes tokens.
const maxTokenBytes = 128

// tokenRun bounds the tokenizer's quadratic step. The byte-pair merge costs
// the square of the length of one pre-token, and a run of bytes without a
// change between white space and other bytes can be one pre-token (a file of
// 400,000 "(" took minutes to count). Such a run is counted in pieces of
// tokenRun bytes, which can only split tokens (a slight overcount for
// pathological text); ordinary text has no such run and is counted exactly.
const tokenRun = 128

var (
	// tokenizedBytes and longestTokenizedRun measure the tokenizer's work
	// (bytes handed to it past the memo, and the longest run counted, which bounds its
	// quadratic step); tests check that context assembly keeps them bounded.
	tokenizedBytes      atomic.Int64
	longestTokenizedRun atomic.Int64
)

// mergeRanks loads the cl100k_base merge table once per process, from the
// copy compiled into the binary (the offline loader): nothing is
// downloaded.
var mergeRanks = sync.OnceValues(func() (map[string]int, error) {
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(cl100kRanksURL)
	if err != nil {
		return nil, fmt.Errorf("load %s tokenizer: %w", TokenEncoding, err)
	}
	return ranks, nil
})

// CountTokens returns the number of cl100k_base tokens in s. Special-token
// text such as "<|endoftext|>" is counted as ordinary text. The work is
// linear in len(s): see tokenRun.
func CountTokens(s string) (int, error) {
	return countTokensMax(s, -1)
}

// countTokensMax is CountTokens for a text that only matters up to limit
// tokens (limit < 0: no limit). A text certainly longer (more than
// limit×maxTokenBytes bytes) returns limit+1 without being tokenized, and
// counting stops once limit is passed, so the work is bounded by the limit
// rather than by the size of the text.
func countTokensMax(s string, limit int) (int, error) {
	if s == "" {
		return 0, nil
	}
	if limit >= 0 && len(s) > limit*maxTokenBytes {
		return limit + 1, nil
	}
	e, err := mergeRanks()
	if err != nil {
		return 0, err
	}
	n := 0
	tokenSegments(s, func(seg string, run int) bool {
		for {
			old := longestTokenizedRun.Load()
			if int64(run) <= old || longestTokenizedRun.CompareAndSwap(old, int64(run)) {
				break
			}
		}
		n += segmentTokens(e, seg)
		return limit < 0 || n <= limit
	})
	if limit >= 0 && n > limit {
		return limit + 1, nil
	}
	return n, nil
}

// segMemo remembers the token counts of segments (see tokenSegments) a
// process has counted: packing counts each candidate chunk, then the
// rendered answer made of the same chunks, and a long-lived process sees
// the same chunks in many answers. Counts add up exactly over segments, so
// the memo changes no count. It is emptied when full.
var segMemo = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

// segMemoMax bounds the memo's entries (segments are a line or a few).
const segMemoMax = 1 << 16

// segmentTokens counts one segment through the memo.
func segmentTokens(ranks map[string]int, seg string) int {
	segMemo.Lock()
	n, ok := segMemo.m[seg]
	segMemo.Unlock()
	if ok {
		return n
	}
	tokenizedBytes.Add(int64(len(seg)))
	n = cl100kCount(ranks, seg)
	segMemo.Lock()
	if len(segMemo.m) >= segMemoMax {
		clear(segMemo.m)
	}
	segMemo.m[strings.Clone(seg)] = n // not a view into the caller's text
	segMemo.Unlock()
	return n
}

// tokenSegments cuts s into parts that the tokenizer counts independently
// and calls fn with each and its longest run of same-class bytes, while fn
// returns true. A part ends after a newline followed by a byte other than
// white space (no cl100k_base pre-token crosses that point, so the counts
// add up exactly), or after tokenRun bytes of one run (see tokenRun).
func tokenSegments(s string, fn func(seg string, run int) bool) {
	start, run, longest := 0, 0, 0
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		space := c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
		cut := false
		switch {
		case i > 0 && s[i-1] == '\n' && !space:
			cut = true
		case i > 0 && space == prevSpace && run >= tokenRun && utf8.RuneStart(c):
			cut = true
		}
		if cut && i > start {
			if !fn(s[start:i], longest) {
				return
			}
			start, longest, run = i, 0, 0
		}
		if i > 0 && space != prevSpace {
			run = 0
		}
		prevSpace = space
		run++
		longest = max(longest, run)
	}
	if start < len(s) {
		fn(s[start:], longest)
	}
}
