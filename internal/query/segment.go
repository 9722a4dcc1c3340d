package query

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/go-ego/gse"
)

// gseDict is the gse embedded dictionary Segment loads: simplified Chinese
// only ("zh_s"). The full "zh" (simplified + traditional) takes ~1.8 s and
// ~195 MB of heap against ~1.0 s and ~130 MB for "zh_s"; traditional text
// still segments sensibly through gse's HMM. Changing it changes IndexText
// output, so an index built with one dictionary must be rebuilt after a
// change.
const gseDict = "zh_s"

var (
	segOnce sync.Once
	seg     gse.Segmenter
	segErr  error
	// segLoaded records that the dictionary load ran (for tests).
	segLoaded atomic.Bool
)

func loadSegmenter() {
	segLoaded.Store(true)
	seg.SkipLog = true
	// LoadDictEmbed reads the dictionary compiled into the gse package; it
	// never touches the file system (unlike LoadDict).
	segErr = seg.LoadDictEmbed(gseDict)
}

// Segment splits Chinese text into words with gse in precise mode (search
// mode off: no overlapping sub-words), using the dictionary plus gse's HMM
// for unknown words. The embedded dictionary is loaded lazily, once per
// process, on the first call (about 1 s); never at init. Whitespace and
// punctuation-only pieces are dropped. Letters are lower-cased by gse.
// If the dictionary cannot be loaded, each Han character becomes a word.
// It is safe for concurrent use.
func Segment(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	segOnce.Do(loadSegmenter)
	if segErr != nil {
		return fallbackSegment(s)
	}
	words := seg.Cut(s, true)
	out := words[:0]
	for _, w := range words {
		if w = strings.TrimSpace(w); w != "" && strings.IndexFunc(w, isWordChar) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// fallbackSegment cuts s into single Han characters and runs of other
// letters/digits; used only if gse's dictionary fails to load.
func fallbackSegment(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		switch {
		case isHan(r):
			if start >= 0 {
				out, start = append(out, s[start:i]), -1
			}
			out = append(out, string(r))
		case isWordChar(r):
			if start < 0 {
				start = i
			}
		default:
			if start >= 0 {
				out, start = append(out, s[start:i]), -1
			}
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
