package search

import (
	"fmt"
	"sort"
	"strings"
)

// Summarize writes the three-sentence summary of a result: the best entry
// point and its location; which files the results concentrate in; which
// keywords and signals the ranking used, and the command to read result 1.
func Summarize(r *Result) string {
	if len(r.Results) == 0 {
		kw := "nothing to match"
		if len(r.Keywords) > 0 {
			kw = "the keywords " + quoteList(r.Keywords, 8)
		}
		return fmt.Sprintf("No indexed chunk matched %q. The search used %s. Try other words, an identifier from the code, or the keyword mode.", r.Query, kw)
	}
	top := r.Results[0]
	var b strings.Builder
	if r.NoConfidentMatch {
		fmt.Fprintf(&b, "No confident match: the best results account for only %.0f%% of the query's keywords (searched: %s), so the project may have no code for this; the closest %d are listed. ",
			100*r.Confidence, quoteList(r.Keywords, 8), len(r.Results))
	}
	if len(r.Unread) > 0 {
		what := "Not searched for"
		if len(r.Unread) == len(r.Keywords) {
			what = "No keyword could be searched for, so the results rest on semantic similarity alone"
		}
		fmt.Fprintf(&b, "%s: %s (no English is known for these Chinese words, and the project's text does not contain them). ", what, quoteList(r.Unread, 8))
	}
	fmt.Fprintf(&b, "The best entry point is %s (%s) at %s:%d-%d.", top.Name, top.Kind, top.File, top.StartLine, top.EndLine)

	counts := map[string]int{}
	var order []string
	for _, h := range r.Results {
		if counts[h.File] == 0 {
			order = append(order, h.File)
		}
		counts[h.File]++
	}
	sort.SliceStable(order, func(i, j int) bool { return counts[order[i]] > counts[order[j]] })
	switch {
	case len(r.Results) == 1:
		fmt.Fprintf(&b, " It is the only result, in %s.", order[0])
	case len(order) == 1:
		fmt.Fprintf(&b, " All %d results are in %s.", len(r.Results), order[0])
	default:
		parts := make([]string, 0, 3)
		for _, f := range order[:min(3, len(order))] {
			parts = append(parts, fmt.Sprintf("%s (%d)", f, counts[f]))
		}
		more := ""
		if len(order) > 3 {
			more = fmt.Sprintf(" and %d more file(s)", len(order)-3)
		}
		fmt.Fprintf(&b, " The %d results concentrate in %s%s.", len(r.Results), strings.Join(parts, ", "), more)
	}

	if r.Route == RouteChange {
		b.WriteString(" The query reads as a change request or bug report, so each result is a file, shown by its best-matching chunk.")
	}
	used := "no keywords"
	if len(r.Keywords) > 0 {
		used = "the keywords " + quoteList(r.Keywords, 8)
	}
	if len(r.Expanded) > 0 {
		used += " (expanded with " + quoteList(r.Expanded, 6) + ")"
	}
	signals := "its signals"
	if len(r.Signals) > 0 {
		signals = joinAnd(r.Signals)
	}
	lines := top.EndLine - top.StartLine + 1
	fmt.Fprintf(&b, " Ranking used %s with %s; next, read result 1: %s lines %d-%d.",
		used, signals, top.File, top.StartLine, top.StartLine+max(lines, 1)-1)
	return b.String()
}

func quoteList(s []string, n int) string {
	q := make([]string, 0, n)
	for i, k := range s {
		if i == n {
			q = append(q, fmt.Sprintf("and %d more", len(s)-n))
			break
		}
		q = append(q, fmt.Sprintf("%q", k))
	}
	return strings.Join(q, ", ")
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
