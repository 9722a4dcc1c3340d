package exact

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"codectx/internal/grepindex"
)

// Benchmarks over $GOROOT/src (skipped when absent). Run them together so
// the ratios are comparable:
//
//	go test -run '^$' -bench 'Grep|PlainRG' -benchtime=3x ./internal/exact/
//
// BenchmarkPlainRG is ripgrep alone with its defaults (parallel, output to
// io.Discard): the yardstick for BenchmarkGrepRG (target: within 1.3×),
// BenchmarkGrepNative (target: within 4×) and BenchmarkGrepIndexed (a
// trigram index built first, see internal/grepindex; target for a rare
// literal: 0.3×). BenchmarkGrepIndexBuild is the build of that index,
// BenchmarkGrepIndexRebuild a rebuild from the previous one.

type benchPattern struct {
	name       string
	pattern    string
	ignoreCase bool
}

var benchPatterns = []benchPattern{
	{"rare", "mustLinkExternal", false},
	{"common", "func .*Context", false},
	{"nocase", "deadline exceeded", true},
}

func goSrc(b *testing.B) string {
	b.Helper()
	goroot := os.Getenv("GOROOT")
	if goroot == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip("no go env GOROOT:", err)
		}
		goroot = strings.TrimSpace(string(out))
	}
	src := filepath.Join(goroot, "src")
	if fi, err := os.Stat(src); err != nil || !fi.IsDir() {
		b.Skip("no $GOROOT/src")
	}
	return src
}

func benchGrep(b *testing.B, engine string) {
	src := goSrc(b)
	if engine == EngineRG && !hasRG() {
		b.Skip("rg not installed")
	}
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			matches := 0
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				res, err := Grep(context.Background(), GrepOptions{Root: src, Pattern: p.pattern, IgnoreCase: p.ignoreCase, Engine: engine})
				if err != nil {
					b.Fatal(err)
				}
				if res.Engine != engine {
					b.Fatalf("engine %s ran, want %s", res.Engine, engine)
				}
				matches = res.Matches
			}
			cpu.report(b)
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

func BenchmarkGrepRG(b *testing.B) { benchGrep(b, EngineRG) }

func BenchmarkGrepIndexed(b *testing.B) {
	src := goSrc(b)
	path := filepath.Join(b.TempDir(), "grep.tri")
	if err := grepindex.WriteFile(context.Background(), src, path, grepindex.BuildOptions{MaxFileSize: MaxGrepFileSize}); err != nil {
		b.Fatal(err)
	}
	ix, err := grepindex.Open(path, src)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			matches := 0
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				res, err := Grep(context.Background(), GrepOptions{Root: src, Pattern: p.pattern, IgnoreCase: p.ignoreCase, Index: ix})
				if err != nil {
					b.Fatal(err)
				}
				if res.Engine != EngineIndex {
					b.Fatalf("engine %s ran, want %s", res.Engine, EngineIndex)
				}
				matches = res.Matches
			}
			cpu.report(b)
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

func BenchmarkGrepIndexBuild(b *testing.B) {
	src := goSrc(b)
	path := filepath.Join(b.TempDir(), "grep.tri")
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		if err := grepindex.WriteFile(context.Background(), src, path, grepindex.BuildOptions{MaxFileSize: MaxGrepFileSize}); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
	if fi, err := os.Stat(path); err == nil {
		b.ReportMetric(float64(fi.Size())/(1<<20), "MiB")
	}
}
func BenchmarkGrepNative(b *testing.B) { benchGrep(b, EngineNative) }

func BenchmarkPlainRG(b *testing.B) {
	src := goSrc(b)
	bin := rgPath()
	if bin == "" {
		b.Skip("rg not installed")
	}
	for _, p := range benchPatterns {
		b.Run(p.name, func(b *testing.B) {
			cpu := startCPU()
			for i := 0; i < b.N; i++ {
				args := []string{"--no-config", "--line-number"}
				if p.ignoreCase {
					args = append(args, "--ignore-case")
				}
				cmd := exec.Command(bin, append(args, "--regexp", p.pattern)...)
				cmd.Dir = src
				cmd.Stdout = io.Discard
				if err := cmd.Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
						b.Fatal(err)
					}
				}
			}
			cpu.report(b)
		})
	}
}

// cpuClock measures user+system CPU time of this process and its waited-for
// children: on a shared machine it varies far less than wall time.
type cpuClock struct{ start time.Duration }

func cpuNow() time.Duration {
	var self, kids syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

func startCPU() cpuClock { return cpuClock{start: cpuNow()} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(cpuNow()-c.start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkGrepIndexRebuild is a rebuild that takes every file's trigrams
// from the previous index (what an index run pays when the listing changed
// but the files did not).
func BenchmarkGrepIndexRebuild(b *testing.B) {
	src := goSrc(b)
	dir := b.TempDir()
	prevPath, path := filepath.Join(dir, "prev.tri"), filepath.Join(dir, "grep.tri")
	opt := grepindex.BuildOptions{MaxFileSize: MaxGrepFileSize}
	if err := grepindex.WriteFile(context.Background(), src, prevPath, opt); err != nil {
		b.Fatal(err)
	}
	prev, err := grepindex.Open(prevPath, src)
	if err != nil {
		b.Fatal(err)
	}
	defer prev.Close()
	opt.Prev = prev
	b.ResetTimer()
	cpu := startCPU()
	for i := 0; i < b.N; i++ {
		if err := grepindex.WriteFile(context.Background(), src, path, opt); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}
