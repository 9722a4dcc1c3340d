// Command gendict writes dict_zh.bin, the Chinese word dictionary and HMM
// model that package query segments Chinese text with, and compares that
// segmentation with gse's.
//
// It is a separate module (this directory has its own go.mod) so that gse is
// a dependency of the generator only, never of codectx itself.
//
//	go run . -out ../dict_zh.bin      # regenerate (what `go generate` in internal/query runs)
//	go run . -golden ../testdata/segment_gse.tsv   # the fixture of TestSegmentMatchesGSE
//	go run . -compare FILE...         # segment every Han run of the files with both, report agreement
//
// The source is the gse module (github.com/go-ego/gse v0.80.3, Apache-2.0;
// its dictionary and HMM model come from jieba, MIT): the words and
// frequencies are read from a gse Segmenter loaded with LoadDictEmbed("zh_s"),
// exactly as codectx used it, so that frequencies, duplicates and the
// minimum-frequency filter are gse's own; the HMM emission probabilities
// are parsed from gse's hmm/prob_emit.go. Every word is kept, including the
// few that mix in Latin letters (卡拉ok): package query segments runs of Han
// characters only, so such a word never matches, but it makes its Han prefix
// a known prefix, as in gse's trie, which the scoring of single characters
// depends on.
//
// Format (little-endian), read in place by package query (zhdict.go):
//
//	magic    "cxzhdic1"
//	u32      number of words N
//	u32      number of HMM runes R
//	f64      total frequency of the dictionary (IEEE-754 bits)
//	u32      byte length P of the word pool
//	u32[F+1] first-character index: entry k is the first word whose first
//	         character is at least firstLo+k, for the F = firstHi−firstLo
//	         characters of CJK Unified Ideographs and extension A
//	u32[N+1] word offsets into the pool
//	u32[N]   word frequencies
//	[P]byte  word pool: the words in UTF-8, sorted bytewise, concatenated
//	u32[R]   HMM runes, ascending
//	f64[4R]  emission log probabilities per rune, states B, E, M, S
//	         (-3.14e100, the model's minimum, where a state has none)
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-ego/gse"
)

const magic = "cxzhdic2"

// The first-character index covers CJK extension A and CJK Unified
// Ideographs, U+3400..U+9FFF (package query: zhFirstLo, zhFirstHi).
const firstLo, firstHi = 0x3400, 0xA000

// minFloat is the HMM's log probability of an unseen emission (gse hmm).
const minFloat = -3.14e100

func main() {
	out := flag.String("out", "", "write the dictionary to this file")
	compare := flag.Bool("compare", false, "compare query.Segment with gse on the Han runs of the files named as arguments")
	golden := flag.String("golden", "", "write the segment test fixture (gse's words for the runs of -golden-in) to this file")
	goldenIn := flag.String("golden-in", "../testdata/segment_input.txt", "input of -golden")
	flag.Parse()
	var err error
	switch {
	case *out != "":
		err = generate(*out)
	case *golden != "":
		err = writeGolden(*goldenIn, *golden)
	case *compare:
		err = compareFiles(flag.Args())
	default:
		flag.Usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gendict:", err)
		os.Exit(1)
	}
}

func isHan(r rune) bool { return r >= 0x2E80 && unicode.Is(unicode.Han, r) }

func loadGSE() (*gse.Segmenter, error) {
	seg := &gse.Segmenter{SkipLog: true}
	if err := seg.LoadDictEmbed("zh_s"); err != nil {
		return nil, fmt.Errorf("load gse dictionary: %w", err)
	}
	return seg, nil
}

func generate(out string) error {
	seg, err := loadGSE()
	if err != nil {
		return err
	}
	type word struct {
		text string
		freq uint32
	}
	var words []word
	seen := map[string]bool{}
	for i := range seg.Dict.Tokens {
		t := &seg.Dict.Tokens[i]
		text, f := t.Text(), t.Freq()
		if seen[text] {
			return fmt.Errorf("duplicate word %q", text)
		}
		seen[text] = true
		if f != math.Trunc(f) || f < 1 || f > math.MaxUint32 {
			return fmt.Errorf("word %q: frequency %v is not a 32-bit integer", text, f)
		}
		words = append(words, word{text, uint32(f)})
	}
	sort.Slice(words, func(i, j int) bool { return words[i].text < words[j].text })

	emit, err := parseEmit()
	if err != nil {
		return err
	}
	runes := make([]rune, 0, len(emit))
	for r := range emit {
		runes = append(runes, r)
	}
	sort.Slice(runes, func(i, j int) bool { return runes[i] < runes[j] })

	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString(magic)
	b.Write(le.AppendUint32(nil, uint32(len(words))))
	b.Write(le.AppendUint32(nil, uint32(len(runes))))
	b.Write(le.AppendUint64(nil, math.Float64bits(seg.Dict.TotalFreq())))
	pool := 0
	for _, w := range words {
		pool += len(w.text)
	}
	b.Write(le.AppendUint32(nil, uint32(pool)))
	i := 0
	for r := rune(firstLo); r <= firstHi; r++ {
		for i < len(words) && []rune(words[i].text)[0] < r {
			i++
		}
		b.Write(le.AppendUint32(nil, uint32(i)))
	}
	off := 0
	for _, w := range words {
		b.Write(le.AppendUint32(nil, uint32(off)))
		off += len(w.text)
	}
	b.Write(le.AppendUint32(nil, uint32(off)))
	for _, w := range words {
		b.Write(le.AppendUint32(nil, w.freq))
	}
	for _, w := range words {
		b.WriteString(w.text)
	}
	for _, r := range runes {
		b.Write(le.AppendUint32(nil, uint32(r)))
	}
	for _, r := range runes {
		for _, p := range emit[r] {
			b.Write(le.AppendUint64(nil, math.Float64bits(p)))
		}
	}
	if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gendict: %d words, %d HMM runes, total frequency %v, %d bytes\n",
		len(words), len(runes), seg.Dict.TotalFreq(), b.Len())
	return nil
}

// parseEmit reads the emission tables of gse's hmm/prob_emit.go
// (probEmit['B'] = map[rune]float64{'\u4e00': -3.65, ...}) with go/parser.
func parseEmit() (map[rune]*[4]float64, error) {
	dir, err := gseDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "hmm", "prob_emit.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		return nil, err
	}
	state := map[string]int{"'B'": 0, "'E'": 1, "'M'": 2, "'S'": 3}
	emit := map[rune]*[4]float64{}
	var perr error
	found := 0
	ast.Inspect(f, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		ix, ok1 := as.Lhs[0].(*ast.IndexExpr)
		lit, ok2 := as.Rhs[0].(*ast.CompositeLit)
		key, ok3 := ix.Index.(*ast.BasicLit)
		if !ok1 || !ok2 || !ok3 {
			return true
		}
		st, ok := state[key.Value]
		if !ok {
			return true
		}
		found++
		for _, e := range lit.Elts {
			kv := e.(*ast.KeyValueExpr)
			k, _ := kv.Key.(*ast.BasicLit)
			v, neg := kv.Value.(ast.Expr), false
			if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.SUB {
				v, neg = u.X, true
			}
			vl, _ := v.(*ast.BasicLit)
			if k == nil || vl == nil {
				perr = fmt.Errorf("%s: unexpected entry", path)
				return false
			}
			r, _, _, err := strconv.UnquoteChar(strings.Trim(k.Value, "'"), '\'')
			if err != nil {
				perr = err
				return false
			}
			p, err := strconv.ParseFloat(vl.Value, 64)
			if err != nil {
				perr = err
				return false
			}
			if neg {
				p = -p
			}
			if emit[r] == nil {
				emit[r] = &[4]float64{minFloat, minFloat, minFloat, minFloat}
			}
			emit[r][st] = p
		}
		return true
	})
	if perr != nil {
		return nil, perr
	}
	if found != 4 {
		return nil, fmt.Errorf("%s: found %d of the 4 emission tables", path, found)
	}
	return emit, nil
}

// gseDir returns the directory of the gse module this program is built with.
func gseDir() (string, error) {
	// The gse package's own source file locates the module directory.
	out, err := goList("github.com/go-ego/gse")
	if err != nil {
		return "", err
	}
	return out, nil
}
