// Package eval scores code retrieval against a golden set: it parses the
// golden-set JSON Lines format (docs in the eval sets' FORMAT.md), matches
// ranked results against each task's targets at file and symbol level, and
// computes Recall@1/5/10 and MRR@10 overall, per query language and per task
// kind. It also mines file-level tasks from a project's git history (the
// text of `git log`, parsed here; the caller runs git), parses changelogs
// into release notes for tasks mined from releases (the caller fetches and
// compares the releases), and flags queries that give their answer away.
//
// Its functions are pure: it must not open databases, run searches or
// processes, read environment variables or know anything about a particular golden set
// beyond the format. The caller supplies the results and the variable lookup.
package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Target is one acceptable answer of a task.
type Target struct {
	File   string `json:"file"`
	Symbol string `json:"symbol,omitempty"`
}

// String is "file:symbol", or the file alone.
func (t Target) String() string {
	if t.Symbol == "" {
		return t.File
	}
	return t.File + ":" + t.Symbol
}

// Task is one retrieval task.
type Task struct {
	ID      string   `json:"id"`
	Query   string   `json:"query"`
	Lang    string   `json:"lang"`
	Kind    string   `json:"kind"`
	Targets []Target `json:"targets"`
	// Rev, for a task mined from a commit, is the revision before it (the
	// commit's parent): what the project's history said when the change
	// was asked for.
	Rev string `json:"rev,omitempty"`
}

// Set is a parsed golden set.
type Set struct {
	Root  string // header root with variables expanded; "" without a header
	Note  string
	Tasks []Task
}

// Parse reads a golden set. The optional first-line header's root has its
// $VAR / ${VAR} references expanded through lookup (nil: no expansion).
// Blank lines are skipped; ids must be unique and every task needs a query
// and at least one target with a file.
func Parse(r io.Reader, lookup func(string) string) (*Set, error) {
	s := &Set{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	seen := map[string]bool{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(text), &raw); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if _, isTask := raw["query"]; !isTask {
			if _, isHeader := raw["root"]; isHeader && len(s.Tasks) == 0 && s.Root == "" {
				var h struct {
					Root string `json:"root"`
					Note string `json:"note"`
				}
				if err := json.Unmarshal([]byte(text), &h); err != nil {
					return nil, fmt.Errorf("line %d: header: %w", line, err)
				}
				s.Root, s.Note = h.Root, h.Note
				if lookup != nil {
					s.Root = os.Expand(s.Root, lookup)
				}
				continue
			}
			return nil, fmt.Errorf("line %d: neither a task (no \"query\") nor the header", line)
		}
		var t Task
		if err := json.Unmarshal([]byte(text), &t); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		switch {
		case t.ID == "":
			return nil, fmt.Errorf("line %d: task without an id", line)
		case seen[t.ID]:
			return nil, fmt.Errorf("line %d: duplicate id %q", line, t.ID)
		case strings.TrimSpace(t.Query) == "":
			return nil, fmt.Errorf("line %d: task %s has an empty query", line, t.ID)
		case len(t.Targets) == 0:
			return nil, fmt.Errorf("line %d: task %s has no targets", line, t.ID)
		}
		for _, tg := range t.Targets {
			if tg.File == "" {
				return nil, fmt.Errorf("line %d: task %s has a target without a file", line, t.ID)
			}
		}
		seen[t.ID] = true
		s.Tasks = append(s.Tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read golden set: %w", err)
	}
	if len(s.Tasks) == 0 {
		return nil, errors.New("golden set has no tasks")
	}
	return s, nil
}

// Hit is one ranked result as the metrics see it.
type Hit struct {
	File string // path relative to the root, forward slashes
	Name string // chunk name, possibly with a parameter list
}

// StripParams removes a parameter list: "A.b(x int) error" → "A.b".
func StripParams(name string) string {
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i]
	}
	return strings.TrimSpace(name)
}

// SymbolMatches reports whether a chunk name denotes symbol: equal after
// removing the parameter list, or ending with "." + symbol.
func SymbolMatches(name, symbol string) bool {
	if symbol == "" {
		return false
	}
	n := StripParams(name)
	return n == symbol || strings.HasSuffix(n, "."+symbol)
}

// FileRank is the 1-based rank of the first hit whose file is a target's
// file, 0 when none is.
func FileRank(t Task, hits []Hit) int {
	for i, h := range hits {
		for _, tg := range t.Targets {
			if h.File == tg.File {
				return i + 1
			}
		}
	}
	return 0
}

// HasSymbols reports whether any target names a symbol.
func HasSymbols(t Task) bool {
	for _, tg := range t.Targets {
		if tg.Symbol != "" {
			return true
		}
	}
	return false
}

// SymbolRank is the 1-based rank of the first hit in a target's file whose
// name matches that target's symbol, 0 when none does (targets without a
// symbol never match at this level).
func SymbolRank(t Task, hits []Hit) int {
	for i, h := range hits {
		for _, tg := range t.Targets {
			if h.File == tg.File && SymbolMatches(h.Name, tg.Symbol) {
				return i + 1
			}
		}
	}
	return 0
}

// Metrics are the scores of a group of tasks at one level.
type Metrics struct {
	Recall1  float64 `json:"recall@1"`
	Recall5  float64 `json:"recall@5"`
	Recall10 float64 `json:"recall@10"`
	MRR10    float64 `json:"mrr@10"`
}

// Score computes Metrics from 1-based ranks (0 = not found).
func Score(ranks []int) Metrics {
	var m Metrics
	if len(ranks) == 0 {
		return m
	}
	for _, r := range ranks {
		if r <= 0 {
			continue
		}
		if r <= 1 {
			m.Recall1++
		}
		if r <= 5 {
			m.Recall5++
		}
		if r <= 10 {
			m.Recall10++
			m.MRR10 += 1 / float64(r)
		}
	}
	n := float64(len(ranks))
	m.Recall1 /= n
	m.Recall5 /= n
	m.Recall10 /= n
	m.MRR10 /= n
	return m
}

// Group holds the metrics of a set of tasks.
type Group struct {
	Tasks  int     `json:"tasks"`
	File   Metrics `json:"file"`
	Symbol Metrics `json:"symbol"`
}

// Miss is a task whose targets were not found at symbol level within the
// first 10 results (at file level for tasks without symbols).
type Miss struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Got      string   `json:"got"`       // the first result, "file:name", "" when none
	FileRank int      `json:"file_rank"` // rank of the first file hit, 0 when none
}

// Outcome is one task's ranks.
type Outcome struct {
	Task       Task
	FileRank   int
	SymbolRank int
	First      *Hit
	// Confidence and NoConfidentMatch are copied from the search result.
	Confidence       float64
	NoConfidentMatch bool
}

// Report is the full evaluation.
type Report struct {
	Tasks   int              `json:"tasks"`
	Overall Group            `json:"overall"`
	ByLang  map[string]Group `json:"by_lang"`
	ByKind  map[string]Group `json:"by_kind"`
	Misses  []Miss           `json:"misses"`
	// Ranks are every task's ranks, in the set's order, for comparing runs.
	Ranks []TaskRanks `json:"ranks"`
}

// TaskRanks are one task's ranks (0 = not in the results).
type TaskRanks struct {
	ID string `json:"id"`
	// Kind is the task's kind as scored (a change request whose query
	// names a target is "change-leaky" whatever the set says).
	Kind       string `json:"kind,omitempty"`
	FileRank   int    `json:"file_rank"`
	SymbolRank int    `json:"symbol_rank"`
	// Confidence and NoConfidentMatch are the search's own judgement of its
	// answer (for calibrating that signal).
	Confidence       float64 `json:"confidence"`
	NoConfidentMatch bool    `json:"no_confident_match,omitempty"`
}

// Judge ranks one task's results.
func Judge(t Task, hits []Hit) Outcome {
	o := Outcome{Task: t, FileRank: FileRank(t, hits), SymbolRank: SymbolRank(t, hits)}
	if len(hits) > 0 {
		h := hits[0]
		o.First = &h
	}
	return o
}

// Evaluate aggregates outcomes into a report. Tasks without a symbol
// target only score at file level: symbol-level metrics are over the tasks
// that name a symbol.
func Evaluate(outcomes []Outcome) Report {
	r := Report{Tasks: len(outcomes), ByLang: map[string]Group{}, ByKind: map[string]Group{}, Misses: []Miss{}, Ranks: []TaskRanks{}}
	for _, o := range outcomes {
		r.Ranks = append(r.Ranks, TaskRanks{ID: o.Task.ID, Kind: o.Task.Kind, FileRank: o.FileRank, SymbolRank: o.SymbolRank,
			Confidence: o.Confidence, NoConfidentMatch: o.NoConfidentMatch})
	}
	group := func(sel func(Outcome) bool) Group {
		var fr, sr []int
		for _, o := range outcomes {
			if !sel(o) {
				continue
			}
			fr = append(fr, o.FileRank)
			if HasSymbols(o.Task) {
				sr = append(sr, o.SymbolRank)
			}
		}
		return Group{Tasks: len(fr), File: Score(fr), Symbol: Score(sr)}
	}
	r.Overall = group(func(Outcome) bool { return true })
	langs, kinds := map[string]bool{}, map[string]bool{}
	for _, o := range outcomes {
		langs[o.Task.Lang] = true
		kinds[o.Task.Kind] = true
	}
	for l := range langs {
		r.ByLang[l] = group(func(o Outcome) bool { return o.Task.Lang == l })
	}
	for k := range kinds {
		r.ByKind[k] = group(func(o Outcome) bool { return o.Task.Kind == k })
	}
	for _, o := range outcomes {
		if r := symbolLevelRank(o); r > 0 && r <= 10 {
			continue
		}
		m := Miss{ID: o.Task.ID, Query: o.Task.Query, FileRank: o.FileRank}
		for _, tg := range o.Task.Targets {
			m.Expected = append(m.Expected, tg.String())
		}
		if o.First != nil {
			m.Got = o.First.File + ":" + o.First.Name
		}
		r.Misses = append(r.Misses, m)
	}
	return r
}

func symbolLevelRank(o Outcome) int {
	if HasSymbols(o.Task) {
		return o.SymbolRank
	}
	return o.FileRank
}

// Keys returns a map's keys sorted, for stable printing.
func Keys(m map[string]Group) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
