package exact

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

type goldenTask struct {
	Pattern    string `json:"pattern"`
	TargetFile string `json:"target_file"`
	TargetLine int    `json:"target_line"`
	IgnoreCase bool   `json:"ignore_case"`
	Fixed      bool   `json:"fixed"`
}

// TestGolden runs, for both engines, grep then a read of the first suggested
// read on a small agent repository: the target must show up as "file:line:"
// within the first 6000 characters of the grep text, and the suggested read
// must include the target line.
func TestGolden(t *testing.T) {
	f, err := os.Open("testdata/golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tasks []goldenTask
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var task goldenTask
		if err := json.Unmarshal(sc.Bytes(), &task); err != nil {
			t.Fatalf("golden.jsonl: %v", err)
		}
		tasks = append(tasks, task)
	}
	if len(tasks) < 5 {
		t.Fatalf("only %d golden tasks", len(tasks))
	}
	const root = "testdata/agentrepo"
	ctx := context.Background()
	for _, engine := range []string{EngineNative, EngineRG} {
		if engine == EngineRG && !hasRG() {
			t.Log("rg not installed: golden set checked with the native engine only")
			continue
		}
		for _, task := range tasks {
			t.Run(engine+"/"+task.Pattern, func(t *testing.T) {
				res, err := Grep(ctx, GrepOptions{Root: root, Pattern: task.Pattern, IgnoreCase: task.IgnoreCase, Fixed: task.Fixed, Engine: engine})
				if err != nil {
					t.Fatal(err)
				}
				text := res.Text()
				if len(text) > 6000 {
					text = text[:6000]
				}
				want := fmt.Sprintf("%s:%d:", task.TargetFile, task.TargetLine)
				if !strings.Contains(text, want) {
					t.Fatalf("%q not in the grep text:\n%s", want, text)
				}
				if len(res.SuggestedReads) == 0 {
					t.Fatal("no suggested read")
				}
				s := res.SuggestedReads[0]
				if s.Path != task.TargetFile {
					t.Fatalf("first suggestion %+v, want %s", s, task.TargetFile)
				}
				if !strings.Contains(text, Location(s)) {
					t.Errorf("suggestion not rendered:\n%s", text)
				}
				page, err := Read(ctx, ReadOptions{Root: root, File: s.Path, Offset: s.Offset, Limit: s.Limit})
				if err != nil {
					t.Fatal(err)
				}
				if task.TargetLine < page.Offset || task.TargetLine > page.End {
					t.Errorf("read lines %d-%d miss line %d", page.Offset, page.End, task.TargetLine)
				}
				if !strings.Contains(page.Text(), fmt.Sprintf("%6d→", task.TargetLine)) {
					t.Errorf("read text lacks line %d", task.TargetLine)
				}
			})
		}
	}
}
