package lang

import (
	"os"
	"path/filepath"
	"testing"
)

// stdlibFiles loads $GOROOT/src/net/http/*.go (nil when absent).
func stdlibFiles(tb testing.TB) [][]byte {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(goroot(), "src", "net", "http", "*.go"))
	var srcs [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			srcs = append(srcs, b)
		}
	}
	return srcs
}

// BenchmarkParseGoStdlib parses every file of net/http per iteration and
// reports files/s and MB/s on one goroutine.
func BenchmarkParseGoStdlib(b *testing.B) {
	srcs := stdlibFiles(b)
	if len(srcs) == 0 {
		b.Skip("GOROOT sources not found")
	}
	total := 0
	for _, s := range srcs {
		total += len(s)
	}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			Parse("net/http/x.go", "go", s)
		}
	}
	b.ReportMetric(float64(len(srcs)*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkTreeSitterOnly measures the bare tree-sitter parse of the same
// files, the floor under BenchmarkParseGoStdlib.
func BenchmarkTreeSitterOnly(b *testing.B) {
	srcs := stdlibFiles(b)
	if len(srcs) == 0 {
		b.Skip("GOROOT sources not found")
	}
	g := grammarFor("go")
	b.ResetTimer()
	for b.Loop() {
		for _, s := range srcs {
			if tr := g.parse(s); tr != nil {
				tr.Close()
			}
		}
	}
	b.ReportMetric(float64(len(srcs)*b.N)/b.Elapsed().Seconds(), "files/s")
}
