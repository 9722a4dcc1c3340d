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
)

// Benchmarks over $GOROOT/src (skipped when absent). Run them together so
// the ratios are comparable:
//
//	go test -run '^$' -bench 'Grep|PlainRG' -benchtime=3x ./internal/exact/
//
// BenchmarkPlainRG is ripgrep alone with its defaults (parallel, output to
// io.Discard): the yardstick for BenchmarkGrepRG (target: within 1.3×) and
// BenchmarkGrepNative (target: within 4×).

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

func BenchmarkGrepRG(b *testing.B)     { benchGrep(b, EngineRG) }
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
