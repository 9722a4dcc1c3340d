package search

import "slices"

// Explain is how the default ranker arrived at a hit's score: its parts add
// up to Hit.Score (before rounding). It answers "why is this first?" for a
// user, and lets an evaluation see which signal put a chunk where it is.
type Explain struct {
	// Keyword is the normalised BM25 share (WBM25 × BM25 / best BM25).
	Keyword float64 `json:"keyword"`
	// Coverage is the idf-weighted share of the query's keywords the chunk
	// matches (× WCover).
	Coverage float64 `json:"coverage"`
	// Semantic is the min-max normalised cosine (× WCos).
	Semantic float64 `json:"semantic"`
	// Kind is the prior of the chunk's kind (functions and methods up,
	// file and text chunks down).
	Kind float64 `json:"kind"`
	// Name is the short-query match of the query's words in the chunk's
	// own name.
	Name float64 `json:"name,omitempty"`
	// Length is the prior on the chunk's code lines.
	Length float64 `json:"length"`
	// File is the aggregate of the best chunks of the chunk's file.
	File float64 `json:"file"`
	// Direct is what the query names outright: a symbol, a path or a
	// stack-trace frame (change requests), or the callers of a named
	// function (lookup questions).
	Direct float64 `json:"direct,omitempty"`
	// Area is a change request's area prefix ("store: …") matching the
	// chunk's directory.
	Area float64 `json:"area,omitempty"`
	// Demotion is the sum of the demotions (≤ 0) and Demotions names them:
	// test, dependency, stub, constructor, non-source, example, changelog,
	// below-subject (a test kept below the file it tests).
	Demotion  float64  `json:"demotion,omitempty"`
	Demotions []string `json:"demotions,omitempty"`
}

// Total is the sum of the parts: the score they explain.
func (e *Explain) Total() float64 {
	return e.Keyword + e.Coverage + e.Semantic + e.Kind + e.Name + e.Length + e.File + e.Direct + e.Area + e.Demotion
}

// demote records a demotion by v (> 0) named why.
func (e *Explain) demote(why string, v float64) {
	e.Demotion -= v
	if !slices.Contains(e.Demotions, why) {
		e.Demotions = append(e.Demotions, why)
	}
}

// explainer collects the parts of every candidate's score while the
// default ranker runs; a nil explainer (explanations not asked for)
// records nothing and costs one nil check per part.
type explainer map[int32]*Explain

// of returns idx's explanation, nil when e is nil.
func (e explainer) of(idx int32) *Explain {
	if e == nil {
		return nil
	}
	x := e[idx]
	if x == nil {
		x = &Explain{}
		e[idx] = x
	}
	return x
}

// rounded is a copy of e with every part rounded as Hit.Score is.
func (e *Explain) rounded() *Explain {
	r := *e
	for _, v := range []*float64{&r.Keyword, &r.Coverage, &r.Semantic, &r.Kind, &r.Name, &r.Length, &r.File, &r.Direct, &r.Area, &r.Demotion} {
		*v = round3(*v)
	}
	r.Demotions = slices.Clone(e.Demotions)
	return &r
}
