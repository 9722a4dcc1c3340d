package codectx

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"codectx/internal/embed"
	"codectx/internal/exact"
	"codectx/internal/rewrite"
	"codectx/internal/store"
)

// Config is codectx's configuration: everything the environment may set.
// This file is the one place that reads environment variables
// (ConfigFromEnv); the internal packages take these values, never
// variables. The zero Config means the defaults with no environment.
type Config struct {
	// Home is the directory of the default database (index.db);
	// "" means ~/.codectx. CODECTX_HOME.
	Home string
	// DB is the database used when none is given: a SQLite file or a
	// PostgreSQL URL (postgres://user@host/db); "" means Home/index.db.
	// CODECTX_DB.
	DB string
	// Threads is the number of parse workers of Index; 0 means
	// min(4, NumCPU). CODECTX_INDEX_THREADS.
	Threads int
	// GrepEngine is the engine of a Grep that names none: "" or "auto"
	// (rg when on PATH, else native), "rg" or "native".
	// CODECTX_GREP_ENGINE.
	GrepEngine string
	// WholeCJK leaves each run of Han characters of indexed text whole
	// instead of segmenting it into words (an evaluation switch: an index
	// built with one setting must be updated with the same one).
	// CODECTX_CJK_SEGMENT=off.
	WholeCJK bool
	// Embed selects the embedding provider; the zero value is the
	// built-in local one. EMBEDDING_*.
	Embed EmbedConfig
	// Rewrite is the chat model of query rewriting (SearchOptions.Rewrite,
	// ContextOptions.Rewrite). LLM_*.
	Rewrite RewriteConfig
	// Token is the bearer token of the HTTP server (codectx serve).
	// CODECTX_TOKEN.
	Token string
	// SearchVectorsFile makes every search score vectors from the quantised
	// side file, as a one-shot process does (an evaluation switch: by
	// default a long-lived process loads the float matrix from its second
	// search on). CODECTX_SEARCH_VECTORS=file.
	SearchVectorsFile bool
}

// RewriteConfig points at an OpenAI-compatible chat endpoint for query
// rewriting. Rewriting is configured when BaseURL and Model are both set.
type RewriteConfig struct {
	BaseURL string // e.g. https://api.openai.com/v1; /chat/completions is appended
	Model   string
	APIKey  string // sent as a bearer token; never printed
	// Timeout bounds one rewrite; 0 means 5 s.
	Timeout time.Duration
}

// Configured reports whether a model is named.
func (c RewriteConfig) Configured() bool { return c.BaseURL != "" && c.Model != "" }

// String shows the endpoint and model, never the key.
func (c RewriteConfig) String() string {
	key := "not set"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("base URL: %s, model: %s, api key: %s, timeout: %s", c.BaseURL, c.Model, key, c.Timeout)
}

// GoString is String, so %#v never shows the key either.
func (c RewriteConfig) GoString() string { return c.String() }

// DBPath is the database used when no path is given: DB, else Home/index.db.
func (c Config) DBPath() (string, error) {
	if c.DB != "" {
		return c.DB, nil
	}
	home := c.Home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("locate home directory (set CODECTX_HOME): %w", err)
		}
		home = filepath.Join(h, ".codectx")
	}
	return store.DefaultPath(home), nil
}

// Variable is one environment variable codectx reads.
type Variable struct {
	Name    string
	Meaning string
	Default string
}

// Variables lists every environment variable ConfigFromEnv reads, in the
// order of the README's table.
func Variables() []Variable { return slices.Clone(variables) }

var variables = []Variable{
	{"CODECTX_HOME", "directory of the default database (index.db)", "~/.codectx"},
	{"CODECTX_DB", "database when --db is not given: a SQLite file or a PostgreSQL URL (postgres://user@host/db)", "$CODECTX_HOME/index.db"},
	{"CODECTX_INDEX_THREADS", "parse workers of index (a positive whole number)", "min(4, NumCPU)"},
	{"CODECTX_GREP_ENGINE", "auto, rg or native: the engine of grep when --engine is not given", "auto"},
	{"CODECTX_CJK_SEGMENT", "off leaves runs of Chinese characters of indexed text whole (on segments them into words)", "on"},
	{"CODECTX_TOKEN", "bearer token of serve when --token is not given", "unset"},
	{"CODECTX_SEARCH_VECTORS", "file makes every search score the quantised side file, as a one-shot search does (evaluation)", "memory from the second search on"},
	{"EMBEDDING_PROVIDER", "local, ollama, openai (glm and zhipu are aliases for OpenAI-compatible endpoints)", "local"},
	{"EMBEDDING_MODEL", "embedding model name", "the provider's default"},
	{"EMBEDDING_BASE_URL", "embedding API base URL", "the provider's default"},
	{"EMBEDDING_API_KEY", "embedding API key (never printed)", "unset"},
	{"EMBEDDING_BATCH_SIZE", "texts per embedding request (a positive whole number)", "32"},
	{"EMBEDDING_TIMEOUT", "how long one embedding request may take before it is retried: seconds or a duration such as 45s", "120s"},
	{"LLM_BASE_URL", "base URL (…/v1) of the OpenAI-compatible chat model of --rewrite", "unset"},
	{"LLM_MODEL", "chat model of --rewrite", "unset"},
	{"LLM_API_KEY", "API key of the chat model (never printed)", "unset"},
	{"LLM_TIMEOUT_MS", "how long one rewrite may take, in milliseconds", "5000"},
}

// ConfigFromEnv reads the variables of Variables() through getenv (os.Getenv,
// or a map's lookup in tests). Values are trimmed; an unset or empty
// variable keeps the default. A value that cannot be used is an error
// naming the variable, the value and what is wanted (every bad variable,
// separated by "; "); the Config returned with it holds the defaults for
// those.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(name string) string { return strings.TrimSpace(getenv(name)) }
	var bad []string
	refuse := func(name, v, want string) { bad = append(bad, fmt.Sprintf("%s=%q: want %s", name, v, want)) }
	positive := func(name string) int {
		v := get(name)
		if v == "" {
			return 0
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			refuse(name, v, "a positive whole number")
			return 0
		}
		return n
	}

	c := Config{Home: get("CODECTX_HOME"), DB: get("CODECTX_DB"), Token: get("CODECTX_TOKEN")}
	c.Threads = positive("CODECTX_INDEX_THREADS")
	switch v := get("CODECTX_GREP_ENGINE"); strings.ToLower(v) {
	case "", exact.EngineAuto:
	case exact.EngineRG, exact.EngineNative:
		c.GrepEngine = strings.ToLower(v)
	default:
		refuse("CODECTX_GREP_ENGINE", v, "auto, rg or native")
	}
	switch v := get("CODECTX_SEARCH_VECTORS"); strings.ToLower(v) {
	case "", "memory":
	case "file":
		c.SearchVectorsFile = true
	default:
		refuse("CODECTX_SEARCH_VECTORS", v, "file or memory")
	}
	switch v := get("CODECTX_CJK_SEGMENT"); strings.ToLower(v) {
	case "", "on":
	case "off":
		c.WholeCJK = true
	default:
		refuse("CODECTX_CJK_SEGMENT", v, "on or off")
	}

	c.Embed = EmbedConfig{
		Provider: strings.ToLower(get("EMBEDDING_PROVIDER")),
		Model:    get("EMBEDDING_MODEL"),
		BaseURL:  get("EMBEDDING_BASE_URL"),
		APIKey:   get("EMBEDDING_API_KEY"),
	}
	if c.Embed.Provider == "" {
		c.Embed.Provider = embed.ProviderLocal
	}
	c.Embed.BatchSize = positive("EMBEDDING_BATCH_SIZE")
	if v := get("EMBEDDING_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if n, nerr := strconv.Atoi(v); nerr == nil {
			d, err = time.Duration(n)*time.Second, nil
		}
		if err != nil || d <= 0 {
			refuse("EMBEDDING_TIMEOUT", v, "a positive number of seconds or a duration such as 45s")
		} else {
			c.Embed.Timeout = d
		}
	}

	c.Rewrite = RewriteConfig{
		BaseURL: strings.TrimRight(get("LLM_BASE_URL"), "/"),
		Model:   get("LLM_MODEL"),
		APIKey:  get("LLM_API_KEY"),
	}
	if ms := positive("LLM_TIMEOUT_MS"); ms > 0 {
		c.Rewrite.Timeout = time.Duration(ms) * time.Millisecond
	}

	if len(bad) > 0 {
		return c, fmt.Errorf("environment: %s", strings.Join(bad, "; "))
	}
	return c, nil
}

// envConfig is the configuration of a caller that gave none: the process
// environment's.
func envConfig() (Config, error) { return ConfigFromEnv(os.Getenv) }

// embedConfig is the embedding configuration handed to internal/embed.
func (c Config) embedConfig() embed.Config {
	e := c.Embed.internal()
	if e.BatchSize == 0 {
		e.BatchSize = embed.DefaultBatchSize
	}
	return e
}

// rewriteConfig is the chat configuration handed to internal/rewrite.
func (c Config) rewriteConfig() rewrite.Config {
	return rewrite.Config{BaseURL: c.Rewrite.BaseURL, Model: c.Rewrite.Model, APIKey: c.Rewrite.APIKey, Timeout: c.Rewrite.Timeout}
}
