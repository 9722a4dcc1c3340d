package embed

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestConfigValues: a Config as pkg/codectx builds it from the environment
// (trimmed, provider lower-cased, a trailing slash on the base URL) makes
// the provider it names; the zero Config is the local one.
func TestConfigValues(t *testing.T) {
	c := Config{Provider: "ollama", Model: "mxbai-embed-large", BaseURL: "http://gpu-box:11434/", APIKey: "k", BatchSize: 64}
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	h := e.(*httpEmbedder)
	if e.ModelID() != "ollama:mxbai-embed-large:latest" || e.Dims() != 1024 || e.BatchSize() != 64 || h.base != "http://gpu-box:11434" {
		t.Fatalf("ModelID %q Dims %d BatchSize %d base %q", e.ModelID(), e.Dims(), e.BatchSize(), h.base)
	}
	e, err = New(Config{})
	if err != nil || e.ModelID() != "local:hash-v1" || e.BatchSize() != DefaultBatchSize {
		t.Fatalf("%v %v", e, err)
	}
}

func TestProviderDefaultsAndAliases(t *testing.T) {
	cases := []struct {
		provider, model, modelID, base string
		dims                           int
	}{
		{"", "", "local:hash-v1", "", 512},
		{"local", "", "local:hash-v1", "", 512},
		{"ollama", "", "ollama:nomic-embed-text:latest", "http://localhost:11434", 768},
		{"ollama", "registry.local:5000/team/embedder", "ollama:registry.local:5000/team/embedder:latest", "http://localhost:11434", 0},
		{"ollama", "bge-m3:567m", "ollama:bge-m3:567m", "http://localhost:11434", 0},
		{"openai", "", "openai:text-embedding-3-small", "https://api.openai.com/v1", 1536},
		{"OpenAI", "text-embedding-3-large", "openai:text-embedding-3-large", "https://api.openai.com/v1", 3072},
		{"glm", "", "zhipu:embedding-3", "https://open.bigmodel.cn/api/paas/v4", 2048},
		{"zhipu", "", "zhipu:embedding-3", "https://open.bigmodel.cn/api/paas/v4", 2048},
	}
	for _, tc := range cases {
		e, err := New(Config{Provider: tc.provider, Model: tc.model})
		if err != nil {
			t.Fatalf("%s: %v", tc.provider, err)
		}
		if e.ModelID() != tc.modelID || e.Dims() != tc.dims || e.BatchSize() != DefaultBatchSize {
			t.Errorf("%s/%s: ModelID %q Dims %d BatchSize %d", tc.provider, tc.model, e.ModelID(), e.Dims(), e.BatchSize())
		}
		if h, ok := e.(*httpEmbedder); ok && h.base != tc.base {
			t.Errorf("%s: base %q", tc.provider, h.base)
		}
	}
}

func TestNewRejects(t *testing.T) {
	cases := map[string]struct {
		c    Config
		want string
	}{
		"unknown provider": {Config{Provider: "cohere"}, `unknown provider "cohere" (valid: local, ollama, openai, glm, zhipu)`},
		"bad base":         {Config{Provider: "ollama", BaseURL: "localhost:11434"}, "invalid base URL"},
		"ftp base":         {Config{Provider: "openai", BaseURL: "ftp://x/v1"}, "invalid base URL"},
		"local model":      {Config{Model: "bert"}, "local provider has only model"},
		"local dims":       {Config{Dims: 768}, "local provider has 512 dims"},
		"negative batch":   {Config{Provider: "ollama", BatchSize: -1}, "batch size"},
		"negative dims":    {Config{Provider: "ollama", Dims: -1}, "dims"},
	}
	for name, tc := range cases {
		_, err := New(tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestDescribeNeverShowsKey(t *testing.T) {
	const key = "sk-live-VERYSECRET"
	c := Config{Provider: "openai", APIKey: key, BaseURL: "https://user:hunter2@proxy.example/v1"}
	d := c.Describe()
	for _, want := range []string{"provider: openai", "model: text-embedding-3-small", "proxy.example/v1", "api key: set"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe %q lacks %q", d, want)
		}
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("config", "cfg", c)
	for _, s := range []string{d, fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), logs.String()} {
		if strings.Contains(s, "VERYSECRET") || strings.Contains(s, "hunter2") {
			t.Fatalf("secret shown: %s", s)
		}
	}
	if d := (Config{Provider: "ollama"}).Describe(); !strings.Contains(d, "api key: not set") || !strings.Contains(d, "http://localhost:11434") {
		t.Fatalf("Describe %q", d)
	}
	if d := (Config{Provider: "nope", APIKey: key}).Describe(); strings.Contains(d, "VERYSECRET") || !strings.Contains(d, "nope") {
		t.Fatalf("Describe of a bad config %q", d)
	}
}
