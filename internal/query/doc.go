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
// Han characters are segmented into words with gse (Segment).
//
// What the package must not do: it is pure, in-memory computation. It never
// opens a database, never uses the network and never reads the file system at
// run time. Its data files (lexicon_zh_en.tsv, synonyms_en.tsv) are embedded
// with //go:embed, and the Chinese dictionary is the one embedded in the gse
// module (LoadDictEmbed, never LoadDict, which reads gse's module directory
// that users do not have). Nothing heavy happens at init: the gse dictionary
// (about 1 s, ~130 MB of heap) is loaded lazily, once per process, the first
// time Chinese text is segmented, and the small TSV tables are parsed on first
// use. It reads no environment variable and holds no process-wide setting:
// the one switch of the index side (leave Chinese runs whole,
// CODECTX_CJK_SEGMENT=off) is a value, IndexOptions.WholeCJK, that the index
// pipeline passes from its own options. A value rather than a process
// setting, so that two projects opened in one process cannot change each
// other's tokenization, and tests need no global state.
package query
