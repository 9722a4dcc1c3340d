package eval

import (
	"context"
	"fmt"
)

// This file scores assembled contexts rather than ranked lists: a task is
// found when one of its targets is inside the context at all (file level:
// a chunk of the target's file; symbol level: a chunk of that file whose
// name matches the target's symbol, as FORMAT.md defines matching). Like
// the rest of the package it runs nothing itself: the caller supplies the
// function that assembles a context for a query.

// ContextChunk is one chunk of an assembled context as the metric sees it.
type ContextChunk struct {
	File string // path relative to the root, forward slashes
	Name string // chunk name, possibly with a parameter list
}

// Assembled is what the caller's context function returns for one query.
type Assembled struct {
	Chunks     []ContextChunk
	Tokens     int // tokens the rendered context used
	WireTokens int // tokens of the context in a JSON answer (0: not measured)
}

// ContextGroup is the share of tasks whose target is in the context.
type ContextGroup struct {
	Tasks int `json:"tasks"`
	// Found is the share of tasks with a target inside the context at the
	// finest level the task allows (symbol when it names one, else file).
	Found float64 `json:"found"`
	// FileFound is the share of tasks with a chunk of a target file inside.
	FileFound float64 `json:"file_found"`
	// SymbolFound is over the tasks that name a symbol.
	SymbolFound float64 `json:"symbol_found"`
	SymbolTasks int     `json:"symbol_tasks"`
	// AllFound is the share of tasks with every target inside (at the
	// target's own level: symbol when it names one, else file); MeanShare
	// the mean share of a task's targets inside.
	AllFound   float64 `json:"all_found"`
	MeanShare  float64 `json:"mean_share"`
	MeanTokens float64 `json:"mean_tokens"`
	// MeanWireTokens is the mean tokens of the context as it travels in a
	// JSON answer (escaped), when the caller measured it.
	MeanWireTokens float64 `json:"mean_wire_tokens,omitempty"`
	MeanChunks     float64 `json:"mean_chunks"`
}

// ContextTask is one task's outcome.
type ContextTask struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Lang        string `json:"lang"`
	FileFound   bool   `json:"file_found"`
	SymbolFound bool   `json:"symbol_found"`
	Found       bool   `json:"found"`
	// TargetsIn of Targets targets are inside.
	TargetsIn  int `json:"targets_in"`
	Targets    int `json:"targets"`
	Tokens     int `json:"tokens"`
	WireTokens int `json:"wire_tokens,omitempty"`
	Chunks     int `json:"chunks"`
	// Missed are the targets not inside: a file, or "file:symbol" for a
	// symbol target.
	Missed []string `json:"missed,omitempty"`
}

// ContextReport aggregates context outcomes overall, per language and per kind.
type ContextReport struct {
	Overall ContextGroup            `json:"overall"`
	ByLang  map[string]ContextGroup `json:"by_lang"`
	ByKind  map[string]ContextGroup `json:"by_kind"`
	Tasks   []ContextTask           `json:"tasks"`
}

// InContext reports whether a target of t is inside the chunks, at file
// and at symbol level.
func InContext(t Task, chunks []ContextChunk) (file, symbol bool) {
	for _, c := range chunks {
		for _, tg := range t.Targets {
			if c.File != tg.File {
				continue
			}
			file = true
			if SymbolMatches(c.Name, tg.Symbol) {
				symbol = true
			}
		}
	}
	return file, symbol
}

// JudgeContext scores one task's assembled context.
func JudgeContext(t Task, a Assembled) ContextTask {
	f, s := InContext(t, a.Chunks)
	found := f
	if HasSymbols(t) {
		found = s
	}
	in := 0
	var missed []string
	for _, tg := range t.Targets {
		switch {
		case targetInside(tg, a.Chunks):
			in++
		case tg.Symbol != "":
			missed = append(missed, tg.File+":"+tg.Symbol)
		default:
			missed = append(missed, tg.File)
		}
	}
	return ContextTask{ID: t.ID, Kind: t.Kind, Lang: t.Lang, FileFound: f, SymbolFound: s, Found: found,
		TargetsIn: in, Targets: len(t.Targets), Tokens: a.Tokens, WireTokens: a.WireTokens, Chunks: len(a.Chunks), Missed: missed}
}

// targetInside reports whether one target is inside the chunks: a chunk of
// its file, with a matching name when the target names a symbol.
func targetInside(tg Target, chunks []ContextChunk) bool {
	for _, c := range chunks {
		if c.File == tg.File && (tg.Symbol == "" || SymbolMatches(c.Name, tg.Symbol)) {
			return true
		}
	}
	return false
}

// EvaluateContext assembles a context for every task with assemble and
// reports how often a target is inside it.
func EvaluateContext(ctx context.Context, tasks []Task, assemble func(ctx context.Context, query string) (Assembled, error)) (*ContextReport, error) {
	var outs []ContextTask
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		a, err := assemble(ctx, t.Query)
		if err != nil {
			return nil, fmt.Errorf("task %s: %w", t.ID, err)
		}
		outs = append(outs, JudgeContext(t, a))
	}
	return SummarizeContext(tasks, outs), nil
}

// SummarizeContext aggregates per-task outcomes (tasks and outs in the
// same order).
func SummarizeContext(tasks []Task, outs []ContextTask) *ContextReport {
	r := &ContextReport{ByLang: map[string]ContextGroup{}, ByKind: map[string]ContextGroup{}, Tasks: outs}
	group := func(sel func(int) bool) ContextGroup {
		var g ContextGroup
		var found, file, sym, tokens, chunks, all, share, wire float64
		for i, o := range outs {
			if !sel(i) {
				continue
			}
			g.Tasks++
			if o.Found {
				found++
			}
			if o.FileFound {
				file++
			}
			if HasSymbols(tasks[i]) {
				g.SymbolTasks++
				if o.SymbolFound {
					sym++
				}
			}
			tokens += float64(o.Tokens)
			wire += float64(o.WireTokens)
			chunks += float64(o.Chunks)
			if o.Targets > 0 {
				if o.TargetsIn == o.Targets {
					all++
				}
				share += float64(o.TargetsIn) / float64(o.Targets)
			}
		}
		if g.Tasks > 0 {
			n := float64(g.Tasks)
			g.Found, g.FileFound, g.MeanTokens, g.MeanChunks = found/n, file/n, tokens/n, chunks/n
			g.AllFound, g.MeanShare, g.MeanWireTokens = all/n, share/n, wire/n
		}
		if g.SymbolTasks > 0 {
			g.SymbolFound = sym / float64(g.SymbolTasks)
		}
		return g
	}
	r.Overall = group(func(int) bool { return true })
	for _, o := range outs {
		lang, kind := o.Lang, o.Kind
		if _, ok := r.ByLang[lang]; !ok {
			r.ByLang[lang] = group(func(i int) bool { return outs[i].Lang == lang })
		}
		if _, ok := r.ByKind[kind]; !ok {
			r.ByKind[kind] = group(func(i int) bool { return outs[i].Kind == kind })
		}
	}
	return r
}
