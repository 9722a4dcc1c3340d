package codectx

import "codectx/internal/eval"

// The reports of Evaluate, EvaluateGit and EvaluateContext (printed by
// `codectx eval --json`), converted once each from internal/eval.

// EvalMetrics are retrieval scores over a group of tasks, each 0..1.
type EvalMetrics struct {
	Recall1  float64 `json:"recall@1"`
	Recall5  float64 `json:"recall@5"`
	Recall10 float64 `json:"recall@10"`
	MRR10    float64 `json:"mrr@10"`
}

// EvalGroup is the metrics of one group of tasks, at file and symbol level.
type EvalGroup struct {
	Tasks  int         `json:"tasks"`
	File   EvalMetrics `json:"file"`
	Symbol EvalMetrics `json:"symbol"`
}

// EvalMiss is a task whose targets were not found at symbol level within
// the first 10 results (at file level for tasks without symbols).
type EvalMiss struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Expected []string `json:"expected"`
	Got      string   `json:"got"`       // the first result, "file:name", "" when none
	FileRank int      `json:"file_rank"` // rank of the first file hit, 0 when none
}

// EvalTaskRanks are one task's ranks (0 = not in the results).
type EvalTaskRanks struct {
	ID string `json:"id"`
	// Kind is the task's kind as scored (a change request whose query
	// names a target is "change-leaky" whatever the set says).
	Kind       string `json:"kind,omitempty"`
	FileRank   int    `json:"file_rank"`
	SymbolRank int    `json:"symbol_rank"`
	// Confidence and NoConfidentMatch are the search's own judgement of
	// its answer (for calibrating that signal).
	Confidence       float64 `json:"confidence"`
	NoConfidentMatch bool    `json:"no_confident_match,omitempty"`
}

// EvalReport is the outcome of Evaluate: overall, per query language and
// per task kind.
type EvalReport struct {
	Tasks   int                  `json:"tasks"`
	Overall EvalGroup            `json:"overall"`
	ByLang  map[string]EvalGroup `json:"by_lang"`
	ByKind  map[string]EvalGroup `json:"by_kind"`
	Misses  []EvalMiss           `json:"misses"`
	// Ranks are every task's ranks, in the set's order, for comparing runs.
	Ranks []EvalTaskRanks `json:"ranks"`
}

func newEvalReport(r *eval.Report) *EvalReport {
	return &EvalReport{Tasks: r.Tasks, Overall: newEvalGroup(r.Overall),
		ByLang: convertMap(r.ByLang, newEvalGroup), ByKind: convertMap(r.ByKind, newEvalGroup),
		Misses: convertSlice(r.Misses, func(m eval.Miss) EvalMiss { return EvalMiss(m) }),
		Ranks:  convertSlice(r.Ranks, func(t eval.TaskRanks) EvalTaskRanks { return EvalTaskRanks(t) })}
}

func newEvalGroup(g eval.Group) EvalGroup {
	return EvalGroup{Tasks: g.Tasks, File: EvalMetrics(g.File), Symbol: EvalMetrics(g.Symbol)}
}

// GitMineStats count what EvaluateGit read of the history and why commits
// did not become tasks.
type GitMineStats struct {
	Commits    int `json:"commits"`                      // commits read
	NoSource   int `json:"no_source_files"`              // changed no non-test source file
	TooMany    int `json:"too_many_files"`               // changed more than MaxFiles non-test source files
	TooFew     int `json:"too_few_files,omitempty"`      // changed fewer than MinFiles non-test source files
	Vague      int `json:"vague_subject"`                // subject not descriptive
	Gone       int `json:"targets_gone"`                 // no changed file still exists
	Candidates int `json:"candidates"`                   // commits that qualified
	Sampled    int `json:"sampled_out,omitempty"`        // candidates left out by GitEvalOptions.Max
	Later      int `json:"at_or_after_before,omitempty"` // made at or after GitEvalOptions.Before
}

// GitFileGroup is the file-level score of a group of mined tasks.
type GitFileGroup struct {
	Tasks int         `json:"tasks"`
	File  EvalMetrics `json:"file"`
}

// GitOutcome is one mined task's result.
type GitOutcome struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"` // the commit message
	Targets  []string `json:"targets"`
	Leaky    bool     `json:"leaky"`     // the query names a target file or one of its symbols
	FileRank int      `json:"file_rank"` // among distinct files, 0 = not in the first 10
	Got      []string `json:"got"`       // the first three distinct files
}

// GitEvalReport is the outcome of EvaluateGit.
type GitEvalReport struct {
	Mine     GitMineStats `json:"mine"`
	All      GitFileGroup `json:"all"`
	Clean    GitFileGroup `json:"clean"` // queries that do not name a target
	Leaky    GitFileGroup `json:"leaky"` // queries that name a target file or one of its symbols
	Outcomes []GitOutcome `json:"outcomes"`
}

func newGitEvalReport(r *eval.GitReport) *GitEvalReport {
	group := func(g eval.FileGroup) GitFileGroup { return GitFileGroup{Tasks: g.Tasks, File: EvalMetrics(g.File)} }
	return &GitEvalReport{Mine: GitMineStats(r.Mine), All: group(r.All), Clean: group(r.Clean), Leaky: group(r.Leaky),
		Outcomes: convertSlice(r.Outcomes, func(o eval.GitOutcome) GitOutcome { return GitOutcome(o) })}
}

// ContextEvalGroup scores the contexts of a group of tasks.
type ContextEvalGroup struct {
	Tasks int `json:"tasks"`
	// Found is the share of tasks with a target inside the context at the
	// finest level the task allows (symbol when it names one, else file).
	Found float64 `json:"found"`
	// FileFound is the share of tasks with a chunk of a target file inside.
	FileFound float64 `json:"file_found"`
	// SymbolFound is over the SymbolTasks tasks that name a symbol.
	SymbolFound float64 `json:"symbol_found"`
	SymbolTasks int     `json:"symbol_tasks"`
	// AllFound is the share of tasks with every target inside; MeanShare
	// the mean share of a task's targets inside.
	AllFound   float64 `json:"all_found"`
	MeanShare  float64 `json:"mean_share"`
	MeanTokens float64 `json:"mean_tokens"`
	// MeanWireTokens is the mean tokens of the context as it travels in a
	// JSON answer (escaped).
	MeanWireTokens float64 `json:"mean_wire_tokens,omitempty"`
	MeanChunks     float64 `json:"mean_chunks"`
}

// ContextEvalTask is one task's context score.
type ContextEvalTask struct {
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

// ContextEvalScores are the scores of one run of EvaluateContext: overall,
// per query language, per task kind and per task.
type ContextEvalScores struct {
	Overall ContextEvalGroup            `json:"overall"`
	ByLang  map[string]ContextEvalGroup `json:"by_lang"`
	ByKind  map[string]ContextEvalGroup `json:"by_kind"`
	Tasks   []ContextEvalTask           `json:"tasks"`
}

func newContextEvalScores(r *eval.ContextReport) *ContextEvalScores {
	group := func(g eval.ContextGroup) ContextEvalGroup { return ContextEvalGroup(g) }
	return &ContextEvalScores{Overall: group(r.Overall), ByLang: convertMap(r.ByLang, group), ByKind: convertMap(r.ByKind, group),
		Tasks: convertSlice(r.Tasks, func(t eval.ContextTask) ContextEvalTask { return ContextEvalTask(t) })}
}
