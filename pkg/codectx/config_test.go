package codectx

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestConfigFromEnv(t *testing.T) {
	c, err := ConfigFromEnv(mapEnv(map[string]string{
		"CODECTX_HOME":          " /srv/codectx ",
		"CODECTX_INDEX_THREADS": "3",
		"CODECTX_GREP_ENGINE":   "Native",
		"CODECTX_CJK_SEGMENT":   "OFF",
		"CODECTX_TOKEN":         "tok",
		"EMBEDDING_PROVIDER":    " Ollama ",
		"EMBEDDING_MODEL":       "mxbai-embed-large",
		"EMBEDDING_BASE_URL":    "http://gpu-box:11434/",
		"EMBEDDING_API_KEY":     "k",
		"EMBEDDING_BATCH_SIZE":  "64",
		"EMBEDDING_TIMEOUT":     "45",
		"LLM_BASE_URL":          "http://x/v1/",
		"LLM_MODEL":             "m",
		"LLM_API_KEY":           "secret",
		"LLM_TIMEOUT_MS":        "750",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Home: "/srv/codectx", Threads: 3, GrepEngine: "native", WholeCJK: true, Token: "tok",
		Embed: EmbedConfig{Provider: "ollama", Model: "mxbai-embed-large", BaseURL: "http://gpu-box:11434/",
			APIKey: "k", BatchSize: 64, Timeout: 45 * time.Second},
		Rewrite: RewriteConfig{BaseURL: "http://x/v1", Model: "m", APIKey: "secret", Timeout: 750 * time.Millisecond},
	}
	if c.Home != want.Home || c.Threads != want.Threads || c.GrepEngine != want.GrepEngine || c.WholeCJK != want.WholeCJK ||
		c.Token != want.Token || c.Embed.Provider != want.Embed.Provider || c.Embed.Model != want.Embed.Model ||
		c.Embed.BaseURL != want.Embed.BaseURL || c.Embed.APIKey != want.Embed.APIKey || c.Embed.BatchSize != 64 ||
		c.Embed.Timeout != want.Embed.Timeout || c.Rewrite != want.Rewrite || !c.Rewrite.Configured() {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	if p, err := c.DBPath(); err != nil || p != filepath.Join("/srv/codectx", "index.db") {
		t.Errorf("DBPath = %q, %v", p, err)
	}
	if s := c.Rewrite.String() + c.Rewrite.GoString(); strings.Contains(s, "secret") {
		t.Errorf("RewriteConfig shows its key: %s", s)
	}

	// Nothing set: the defaults, the zero Config but for the named provider.
	c, err = ConfigFromEnv(mapEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Embed.Provider != "local" || c.Threads != 0 || c.GrepEngine != "" || c.WholeCJK || c.Rewrite.Configured() {
		t.Fatalf("defaults: %+v", c)
	}
	if e := c.embedConfig(); e.BatchSize != 32 {
		t.Errorf("default batch size %d", e.BatchSize)
	}
	for _, v := range []string{"auto", "AUTO", " "} {
		if c, err := ConfigFromEnv(mapEnv(map[string]string{"CODECTX_GREP_ENGINE": v, "CODECTX_CJK_SEGMENT": "on"})); err != nil || c.GrepEngine != "" || c.WholeCJK {
			t.Errorf("CODECTX_GREP_ENGINE=%q: %+v %v", v, c, err)
		}
	}
	if c, err := ConfigFromEnv(mapEnv(map[string]string{"EMBEDDING_TIMEOUT": "1m30s"})); err != nil || c.Embed.Timeout != 90*time.Second {
		t.Errorf("duration timeout: %v %v", c.Embed.Timeout, err)
	}
}

// TestConfigFromEnvRefuses: a value that cannot be used is an error naming
// the variable, the value and what is wanted; never ignored.
func TestConfigFromEnvRefuses(t *testing.T) {
	cases := []struct{ name, value, want string }{
		{"CODECTX_INDEX_THREADS", "many", "a positive whole number"},
		{"CODECTX_INDEX_THREADS", "0", "a positive whole number"},
		{"CODECTX_GREP_ENGINE", "grep", "auto, rg or native"},
		{"CODECTX_CJK_SEGMENT", "no", "on or off"},
		{"EMBEDDING_BATCH_SIZE", "lots", "a positive whole number"},
		{"EMBEDDING_BATCH_SIZE", "-4", "a positive whole number"},
		{"EMBEDDING_TIMEOUT", "soon", "a positive number of seconds or a duration"},
		{"EMBEDDING_TIMEOUT", "-5s", "a positive number of seconds or a duration"},
		{"LLM_TIMEOUT_MS", "soon", "a positive whole number"},
	}
	for _, tc := range cases {
		_, err := ConfigFromEnv(mapEnv(map[string]string{tc.name: tc.value}))
		if err == nil {
			t.Errorf("%s=%q accepted", tc.name, tc.value)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.name+"=") || !strings.Contains(msg, tc.value) || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s=%q: error %q, want one line naming the variable, the value and %q", tc.name, tc.value, msg, tc.want)
		}
	}
	_, err := ConfigFromEnv(mapEnv(map[string]string{"CODECTX_INDEX_THREADS": "x", "LLM_TIMEOUT_MS": "y"}))
	if err == nil || !strings.Contains(err.Error(), "CODECTX_INDEX_THREADS") || !strings.Contains(err.Error(), "LLM_TIMEOUT_MS") {
		t.Errorf("two bad variables: %v", err)
	}
}

// readmeEdgeVariables are read by cmd/codectx itself (terminal, profiling)
// or by the Go runtime, not by ConfigFromEnv.
var readmeEdgeVariables = []string{"CODECTX_CPUPROFILE", "GOMEMLIMIT", "NO_COLOR", "TERM"}

// TestVariablesDocumented: the variables ConfigFromEnv reads are exactly
// Variables, and the README's "Environment variables" table lists exactly
// those plus the edge ones.
func TestVariablesDocumented(t *testing.T) {
	var read []string
	ConfigFromEnv(func(k string) string {
		if !slices.Contains(read, k) {
			read = append(read, k)
		}
		return ""
	})
	var listed []string
	for _, v := range Variables() {
		listed = append(listed, v.Name)
	}
	slices.Sort(read)
	slices.Sort(listed)
	if !slices.Equal(read, listed) {
		t.Errorf("ConfigFromEnv reads %v, Variables lists %v", read, listed)
	}

	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## Environment variables")
	if start < 0 {
		t.Fatal(`README has no "## Environment variables" section`)
	}
	section := text[start+3:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	var documented []string
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\|")
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	want := append(listed, readmeEdgeVariables...)
	slices.Sort(documented)
	slices.Sort(want)
	if !slices.Equal(documented, want) {
		t.Errorf("README table rows %v\nwant one row per variable %v", documented, want)
	}
}

// TestOpenConfig: Options.Config is used as given (no environment), and a
// nil Config reads the environment, refusing a bad variable.
func TestOpenConfig(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("CODECTX_HOME", filepath.Join(t.TempDir(), "from-env"))
	p, err := Open(root, Options{Config: &Config{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if p.DB() != filepath.Join(home, "index.db") {
		t.Errorf("DB %q, want it in Config.Home %q", p.DB(), home)
	}

	envHome := t.TempDir()
	t.Setenv("CODECTX_HOME", envHome)
	t.Setenv("EMBEDDING_PROVIDER", "")
	t.Setenv("CODECTX_GREP_ENGINE", "native")
	p, err = Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.DB() != filepath.Join(envHome, "index.db") {
		t.Errorf("DB %q, want it in $CODECTX_HOME %q", p.DB(), envHome)
	}
	ctx := context.Background()
	res, err := p.Grep(ctx, GrepOptions{Pattern: "needle"})
	if err != nil || res.Engine != "native" {
		t.Errorf("grep with CODECTX_GREP_ENGINE=native: %v %+v", err, res)
	}

	t.Setenv("EMBEDDING_BATCH_SIZE", "lots")
	if _, err := Open(root, Options{}); err == nil || !strings.Contains(err.Error(), "EMBEDDING_BATCH_SIZE") {
		t.Errorf("Open with a bad EMBEDDING_BATCH_SIZE: %v", err)
	}
}

// TestGrepEngineConfig: Project.Grep's default engine is Config.GrepEngine;
// an engine in the options wins.
func TestGrepEngineConfig(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{GrepEngine: "native"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	if res, err := p.Grep(ctx, GrepOptions{Pattern: "needle"}); err != nil || res.Engine != "native" {
		t.Errorf("Config native: %v %+v", err, res)
	}
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("rg is not installed: an explicit rg engine cannot be checked")
	}
	if res, err := p.Grep(ctx, GrepOptions{Pattern: "needle", Engine: "rg"}); err != nil || res.Engine != "rg" {
		t.Errorf("explicit rg over Config native: %v %+v", err, res)
	}
}

// TestWholeCJKConfig: Config.WholeCJK reaches the index. With Chinese runs
// segmented a keyword search for one word of a run finds the file; with
// them left whole it does not (the run is one token).
func TestWholeCJKConfig(t *testing.T) {
	ctx := context.Background()
	for _, whole := range []bool{false, true} {
		root := t.TempDir()
		src := "package a\n\n// 处理登录超时的重试\nfunc Retry() {}\n"
		if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := Open(root, Options{DBPath: filepath.Join(t.TempDir(), "index.db"), Config: &Config{WholeCJK: whole, Threads: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Index(ctx, IndexOptions{}); err != nil {
			t.Fatal(err)
		}
		res, err := p.Search(ctx, SearchOptions{Query: "登录", Mode: ModeKeyword})
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		if found := len(res.Results) > 0; found == whole {
			t.Errorf("WholeCJK %v: keyword search for 登录 found %d results", whole, len(res.Results))
		}
	}
}
