package main

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"codectx/internal/query"
)

// compareFiles segments every run of Han characters in the files with gse
// (as codectx used it: Cut in precise mode with the HMM, whitespace and
// punctuation-only pieces dropped) and with query.Segment, and reports how
// many runs and word boundaries agree. Differences are printed.
func compareFiles(files []string) error {
	seg, err := loadGSE()
	if err != nil {
		return err
	}
	runs, same, chars, gseWords, qWords, common := 0, 0, 0, 0, 0, 0
	seen := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, run := range hanRuns(string(data)) {
			if seen[run] {
				continue
			}
			seen[run] = true
			g := gseSegment(seg, run)
			q := query.Segment(run)
			runs++
			chars += utf8.RuneCountInString(run)
			gseWords += len(g)
			qWords += len(q)
			common += commonSpans(g, q)
			if strings.Join(g, "|") == strings.Join(q, "|") {
				same++
			} else if len(seen) <= 100000 {
				fmt.Printf("differ: gse %s\n        new %s\n", strings.Join(g, "|"), strings.Join(q, "|"))
			}
		}
	}
	// Speed: CPU time of segmenting every distinct run 5 times with each.
	var all []string
	for r := range seen {
		all = append(all, r)
	}
	gseCPU := cpuTime(func() {
		for range 5 {
			for _, r := range all {
				seg.Cut(r, true)
			}
		}
	})
	newCPU := cpuTime(func() {
		for range 5 {
			for _, r := range all {
				query.Segment(r)
			}
		}
	})
	mb := 5 * float64(chars*3) / 1e6
	fmt.Printf("CPU time, 5 passes over %.1f MB: gse %v (%.1f MB/s), new %v (%.1f MB/s)\n",
		mb, gseCPU, mb/gseCPU.Seconds(), newCPU, mb/newCPU.Seconds())
	fmt.Printf("distinct Han runs %d (%d characters): identical %d (%.2f%%); words gse %d, new %d, same span %d (%.2f%%)\n",
		runs, chars, same, pct(same, runs), gseWords, qWords, common, pct(common, max(gseWords, qWords)))
	return nil
}

// cpuTime returns the user+system CPU time that f takes.
func cpuTime(f func()) time.Duration {
	var a, b syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &a)
	f()
	syscall.Getrusage(syscall.RUSAGE_SELF, &b)
	tv := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	return tv(b) - tv(a)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

func gseSegment(seg interface {
	Cut(string, ...bool) []string
}, s string) []string {
	var out []string
	for _, w := range seg.Cut(s, true) {
		if w = strings.TrimSpace(w); w != "" && strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			out = append(out, w)
		}
	}
	return out
}

// commonSpans counts the words that both segmentations cut at the same
// character offsets.
func commonSpans(a, b []string) int {
	spans := func(ws []string) map[[2]int]bool {
		m, pos := map[[2]int]bool{}, 0
		for _, w := range ws {
			n := utf8.RuneCountInString(w)
			m[[2]int{pos, pos + n}] = true
			pos += n
		}
		return m
	}
	sb, n := spans(b), 0
	for s := range spans(a) {
		if sb[s] {
			n++
		}
	}
	return n
}

func hanRuns(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if isHan(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out, start = append(out, s[start:i]), -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}
