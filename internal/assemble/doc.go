// Package assemble builds the context a model reads to answer a question
// about a repository (`codectx context`, MCP get_context): seeds (search
// hits handed in by the caller) → expansion along the relation graph's
// resolved edges, planned per question intent → relevance filter → merge
// per file and type → packing into a hard token budget (cl100k_base).
//
// It reads the database only through internal/store's indexed queries, so
// every step costs the degree of the chunks involved (or, for a hub's
// container, the relations of its file), never a scan of the project;
// caller counts are remembered per project generation for the
// process (degree.go), and vectors the caller holds in memory are taken
// from it (ContextOptions.Dots). It must not write to the database, run searches itself (the
// caller hands it the seeds), embed text, print, or download anything: the
// token counter uses the tokenizer tables compiled into the binary. The
// relation graph itself (`codectx graph`) lives in internal/graph.
package assemble
