package store

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// fts5Tokens returns the tokens FTS5 itself produces for each text, with
// their positions, read back through an fts5vocab instance table.
func fts5Tokens(t testing.TB, texts []string) [][]string {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "tok.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	for _, q := range []string{
		"CREATE VIRTUAL TABLE tok USING fts5(body, tokenize='unicode61 remove_diacritics 0')",
		"CREATE VIRTUAL TABLE tokv USING fts5vocab(tok, instance)",
	} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if _, err := tx.ExecContext(ctx, "INSERT INTO tok(rowid, body) VALUES (?, ?)", i+1, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(texts))
	rows, err := db.sql.QueryContext(ctx, "SELECT doc, term, offset FROM tokv")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc, off int
		var term string
		if err := rows.Scan(&doc, &term, &off); err != nil {
			t.Fatal(err)
		}
		out[doc-1] = append(out[doc-1], fmt.Sprintf("%d:%s", off, term))
	}
	for i := range out {
		slices.Sort(out[i])
	}
	return out
}

func goTokens(s string) []string {
	var out []string
	ftsTokenize(s, func(tok string, pos int) { out = append(out, fmt.Sprintf("%d:%s", pos, tok)) })
	slices.Sort(out)
	return out
}

// TestTokenizeMatchesFTS5 compares ftsTokenize with FTS5's unicode61 on
// code-like text and on every character of the Basic Multilingual Plane
// (each between ASCII letters, upper and lower case).
func TestTokenizeMatchesFTS5(t *testing.T) {
	texts := []string{
		"func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) error",
		"snake_case_name kebab-case-name CamelCase 12abc 0x1F 3.14 a1b2",
		"ÜBER straße İstanbul ΣΊΣΥΦΟΣ σίσυφος Kelvin K ǅ ﬁ 東京タワー 한국어",
		"  leading and trailing  ",
		"",
	}
	for r := rune(0x80); r < 0x10000; r++ {
		if r >= 0xD800 && r < 0xE000 || !utf8.ValidRune(r) {
			continue
		}
		texts = append(texts, "x"+string(r)+"Y "+string(r))
	}
	want := fts5Tokens(t, texts)
	bad := 0
	for i, s := range texts {
		if got := goTokens(s); !slices.Equal(got, want[i]) {
			if bad++; bad <= 20 {
				t.Errorf("%q (%U…): ftsTokenize %v, FTS5 %v", s, []rune(strings.TrimPrefix(s, "x"))[0], got, want[i])
			}
		}
	}
	if bad > 20 {
		t.Errorf("… %d texts differ in all", bad)
	}
}

// FuzzTokenize checks ftsTokenize against FTS5 on arbitrary text.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Server.Serve", "a_b-c", "ΣΊΣΥΦΟΣ", "x\x00y", "東京"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
			return // the indexer hands valid text without NULs
		}
		want := fts5Tokens(t, []string{s})[0]
		if got := goTokens(s); !slices.Equal(got, want) {
			t.Errorf("%q: ftsTokenize %v, FTS5 %v", s, got, want)
		}
	})
}

var updateFTSTables = flag.Bool("update-fts-tables", false, "regenerate ftstables.go from the linked SQLite's FTS5")

// probeRunes are the characters the tables cover: planes 0–3 and 14
// (planes 4–13 are unassigned and 15–16 private use, where Go's tables and
// FTS5's agree by rule).
func probeRunes() []rune {
	var out []rune
	for r := rune(0x80); r < 0x40000; r++ {
		if r >= 0xD800 && r < 0xE000 {
			continue
		}
		out = append(out, r)
	}
	for r := rune(0xE0000); r < 0xE1000; r++ {
		out = append(out, r)
	}
	return out
}

// TestGenerateFTSTables writes ftstables.go: the ranges of characters
// where FTS5's unicode61 (from its older Unicode tables) classifies or
// folds differently than ftsTokenize's rule over Go's tables. Run with
// -update-fts-tables after upgrading modernc.org/sqlite or Go.
func TestGenerateFTSTables(t *testing.T) {
	if !*updateFTSTables {
		t.Skip("run with -update-fts-tables to regenerate ftstables.go")
	}
	saved := ftsExceptions
	ftsExceptions = nil
	defer func() { ftsExceptions = saved }()
	runes := probeRunes()
	texts := make([]string, len(runes))
	for i, r := range runes {
		texts[i] = "x" + string(r) + "Y " + string(r)
	}
	want := fts5Tokens(t, texts)
	var exc []ftsExc
	for i, r := range runes {
		if ftsDiacritic(r) {
			continue
		}
		tok, delta := false, rune(0)
		if len(want[i]) == 2 && strings.HasPrefix(want[i][1], "1:") && !strings.HasPrefix(want[i][1], "1:y") {
			tok = true
			f := []rune(strings.TrimPrefix(want[i][1], "1:"))
			delta = f[0] - r
		}
		gotTok := ftsTokenChar(r)
		gotDelta := rune(0)
		if gotTok {
			gotDelta = ftsFold(r) - r
		}
		if tok == gotTok && delta == gotDelta {
			continue
		}
		if n := len(exc); n > 0 && exc[n-1].hi == r-1 && exc[n-1].tok == tok && exc[n-1].delta == delta {
			exc[n-1].hi = r
			continue
		}
		exc = append(exc, ftsExc{lo: r, hi: r, tok: tok, delta: delta})
	}
	var b strings.Builder
	b.WriteString("// Code generated by TestGenerateFTSTables -update-fts-tables; DO NOT EDIT.\n\npackage store\n\n")
	b.WriteString("// ftsExceptions lists, in order, the characters FTS5's unicode61 treats\n// otherwise than ftsTokenize's rule over Go's Unicode tables.\nvar ftsExceptions = []ftsExc{\n")
	for _, e := range exc {
		fmt.Fprintf(&b, "\t{0x%X, 0x%X, %t, %d},\n", e.lo, e.hi, e.tok, e.delta)
	}
	b.WriteString("}\n")
	if err := os.WriteFile("ftstables.go", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d exception ranges", len(exc))
}
