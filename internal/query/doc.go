// Package query turns text into search terms for codectx. It is shared by
// both sides of full-text search so that they tokenize in exactly the same
// way:
//
//   - the index side calls IndexText on every chunk field to build the text
//     stored in the FTS table;
//   - the query side calls Parse to turn a user's question (English, Chinese
//     or a mix of both) into weighted Terms, display Keywords, code
//     Identifiers and English Expanded words for the semantic channel.
//
// The shared rules are: identifiers are kept whole (lower-cased) and also
// split into lower-case sub-words (SplitIdentifier: camelCase, PascalCase,
// snake_case, kebab-case, dotted paths, letter/digit boundaries), and runs of
// Han characters are segmented into words (Segment: jieba's maximum-
// probability DAG over a dictionary plus its HMM for unknown words, the same
// words as gse's precise mode gives).
//
// What the package must not do: it is pure, in-memory computation. It never
// opens a database, never uses the network and never reads the file system at
// run time. Its data files (lexicon_zh_en.tsv, synonyms_en.tsv, the Chinese
// dictionary dict_zh.bin, generated from gse's by the gendict tool, and the
// general Chinese→English dictionary cedict_zh_en.tsv, generated from
// CC-CEDICT by the gengloss tool) are embedded with //go:embed. Nothing heavy
// happens at init or on first use: both dictionaries are read in place
// (sorted tables searched by binary search, no per-word allocation), so the
// first Chinese text of a process costs a header check, not a load; the
// small TSV tables are parsed on first use. It reads no environment variable
// and holds no process-wide setting:
// the one switch of the index side (leave Chinese runs whole,
// CODECTX_CJK_SEGMENT=off) is a value, IndexOptions.WholeCJK, that the index
// pipeline passes from its own options. A value rather than a process
// setting, so that two projects opened in one process cannot change each
// other's tokenization, and tests need no global state.
package query
