// Package embed turns texts into vectors: the Embedder interface, the built-in
// local provider, and the Ollama and OpenAI-compatible HTTP providers behind
// one shared wrapper (batching rules, validation, retries).
//
// Every vector handed out is L2-normalised, so callers may score by plain
// dot product. A blank text gets an empty (len 0) vector in its slot.
//
// It must not touch the database, the file system or environment variables
// (the caller builds Config: pkg/codectx reads EMBEDDING_*); caching of vectors by
// content hash is the index pipeline's job. It must never reveal an API key:
// not in errors, logs, or Config's String/Describe output.
package embed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Embedder turns texts into vectors.
type Embedder interface {
	// Embed returns one vector per input text, in input order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// ModelID is "provider:model", recorded with every indexed file.
	ModelID() string
	// Dims is the vector dimension.
	Dims() int
	// BatchSize is the preferred number of texts per Embed call.
	BatchSize() int
}

// Provider names accepted in Config.Provider (case-insensitive).
const (
	ProviderLocal  = "local"
	ProviderOllama = "ollama"
	ProviderOpenAI = "openai"
	// ProviderZhipu and ProviderGLM are aliases of the OpenAI-compatible
	// provider with Zhipu's (open.bigmodel.cn) base URL and model as defaults.
	ProviderZhipu = "zhipu"
	ProviderGLM   = "glm"
)

// validProviders is listed in the error for an unknown provider.
var validProviders = []string{ProviderLocal, ProviderOllama, ProviderOpenAI, ProviderGLM, ProviderZhipu}

const (
	// DefaultBatchSize is the number of texts per request unless configured.
	DefaultBatchSize = 32
	// MaxTextRunes is where the HTTP providers cut each text before sending.
	MaxTextRunes = 2000

	defaultOllamaBase  = "http://localhost:11434"
	defaultOllamaModel = "nomic-embed-text:latest"
	defaultOpenAIBase  = "https://api.openai.com/v1"
	defaultOpenAIModel = "text-embedding-3-small"
	defaultZhipuBase   = "https://open.bigmodel.cn/api/paas/v4"
	defaultZhipuModel  = "embedding-3"
)

// Error kinds; test with errors.Is. Check turns them into advice.
var (
	// ErrUnavailable: the service could not be reached or did not answer in
	// time, after retries.
	ErrUnavailable = errors.New("embedding service unavailable")
	// ErrModelNotFound: the service does not have the configured model.
	ErrModelNotFound = errors.New("embedding model not found")
	// ErrAuth: the service rejected the request's credentials (HTTP 401/403).
	ErrAuth = errors.New("embedding service rejected the API key")
	// ErrBadResponse: the service answered 2xx with something unusable
	// (malformed JSON, wrong vector count or dimension, NaN/Inf values).
	ErrBadResponse = errors.New("invalid embedding response")
)

// Config selects and configures a provider. pkg/codectx fills it from the
// environment (EMBEDDING_*) and the CLI's flags. Blank Model and BaseURL
// mean the provider's default.
type Config struct {
	Provider  string // local (default), ollama, openai; glm and zhipu are aliases of openai
	Model     string
	BaseURL   string
	APIKey    string // sent as "Authorization: Bearer"; never printed
	BatchSize int    // texts per request; 0 = DefaultBatchSize
	// Dims is the expected vector size; 0 = the provider's default for a
	// known model, else learned from the first response. When set for the
	// openai provider it is also sent as the "dimensions" request field.
	Dims int
	// Timeout bounds one request attempt, reading the answer included;
	// 0 = 120 s. A server that does not answer in time is retried twice,
	// then the texts fail with ErrUnavailable.
	Timeout    time.Duration
	HTTPClient *http.Client // nil = a client with the package's timeouts; tests set it

	tune tuning // unexported knobs, set by this package's tests
}

// tuning holds knobs for the HTTP wrapper; zero values mean the defaults.
type tuning struct {
	requestTimeout time.Duration // per attempt, including reading the body
	retryBase      time.Duration // first backoff step
	maxRetryWait   time.Duration // cap on one wait, Retry-After included
}

const (
	defaultConnectTimeout = 30 * time.Second
	defaultRequestTimeout = 120 * time.Second
	defaultRetryBase      = 500 * time.Millisecond
	defaultMaxRetryWait   = 30 * time.Second
	maxAttempts           = 3
)

func (t tuning) withDefaults() tuning {
	if t.requestTimeout <= 0 {
		t.requestTimeout = defaultRequestTimeout
	}
	if t.retryBase <= 0 {
		t.retryBase = defaultRetryBase
	}
	if t.maxRetryWait <= 0 {
		t.maxRetryWait = defaultMaxRetryWait
	}
	return t
}

// resolved returns c with the provider canonicalised (lower case, "" →
// local), defaults filled in and values checked.
func (c Config) resolved() (Config, error) {
	c.Provider = strings.ToLower(strings.TrimSpace(c.Provider))
	c.Model = strings.TrimSpace(c.Model)
	c.BaseURL = strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	if c.Provider == "" {
		c.Provider = ProviderLocal
	}
	if c.BatchSize == 0 {
		c.BatchSize = DefaultBatchSize
	}
	if c.BatchSize < 0 {
		return c, fmt.Errorf("embed: batch size must be positive, got %d", c.BatchSize)
	}
	if c.Dims < 0 {
		return c, fmt.Errorf("embed: dims must be positive, got %d", c.Dims)
	}
	if c.Timeout < 0 {
		return c, fmt.Errorf("embed: timeout must be positive, got %s", c.Timeout)
	}
	if c.Timeout > 0 && c.tune.requestTimeout == 0 {
		c.tune.requestTimeout = c.Timeout
	}
	switch c.Provider {
	case ProviderLocal:
		if c.Model == "" {
			c.Model = localModel
		}
		if c.Model != localModel {
			return c, fmt.Errorf("embed: local provider has only model %q, got %q", localModel, c.Model)
		}
		if c.Dims != 0 && c.Dims != localDims {
			return c, fmt.Errorf("embed: local provider has %d dims, got %d", localDims, c.Dims)
		}
		return c, nil
	case ProviderOllama:
		if c.Model == "" {
			c.Model = defaultOllamaModel
		}
		c.Model = ollamaTagged(c.Model)
		if c.BaseURL == "" {
			c.BaseURL = defaultOllamaBase
		}
	case ProviderOpenAI:
		if c.Model == "" {
			c.Model = defaultOpenAIModel
		}
		if c.BaseURL == "" {
			c.BaseURL = defaultOpenAIBase
		}
	case ProviderGLM, ProviderZhipu:
		c.Provider = ProviderZhipu
		if c.Model == "" {
			c.Model = defaultZhipuModel
		}
		if c.BaseURL == "" {
			c.BaseURL = defaultZhipuBase
		}
	default:
		return c, fmt.Errorf("embed: unknown provider %q (valid: %s)", c.Provider, strings.Join(validProviders, ", "))
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("embed: invalid base URL %q for %s: want http(s)://host[:port][/path]", redactURL(c.BaseURL), c.Provider)
	}
	return c, nil
}

// ollamaTagged appends ":latest" to an Ollama model name without a tag, so
// "nomic-embed-text" and "nomic-embed-text:latest" share one ModelID.
func ollamaTagged(model string) string {
	name := model[strings.LastIndexByte(model, '/')+1:]
	if strings.Contains(name, ":") {
		return model
	}
	return model + ":latest"
}

// New builds the configured Embedder. Config values are resolved first
// (defaults filled, provider aliases glm/zhipu canonicalised to "zhipu").
//
// ModelIDs: "local:hash-v1", "ollama:<model>" (untagged names get ":latest"),
// "openai:<model>", and "zhipu:<model>" for both the glm and zhipu aliases.
func New(cfg Config) (Embedder, error) {
	c, err := cfg.resolved()
	if err != nil {
		return nil, err
	}
	switch c.Provider {
	case ProviderLocal:
		return &localEmbedder{batch: c.BatchSize}, nil
	case ProviderOllama:
		return newHTTPEmbedder(c, &ollamaAPI{}), nil
	default: // openai, zhipu
		return newHTTPEmbedder(c, &openaiAPI{}), nil
	}
}

// Describe summarises the configuration for humans: provider, model, base
// URL and whether an API key is set. It never includes the key (nor a
// password embedded in the base URL).
func (c Config) Describe() string {
	r, err := c.resolved()
	if err != nil {
		r = c // show what was given; the key is still never printed
	}
	key := "api key: not set"
	if c.APIKey != "" {
		key = "api key: set"
	}
	base := redactURL(r.BaseURL)
	if r.Provider == ProviderLocal {
		base = "(in-process, no network)"
	}
	return fmt.Sprintf("provider: %s, model: %s, base URL: %s, %s, batch size: %d",
		r.Provider, r.Model, base, key, r.BatchSize)
}

// String is Describe, so printing a Config with %v cannot leak the key.
func (c Config) String() string { return c.Describe() }

// GoString is Describe, so printing a Config with %#v cannot leak the key.
func (c Config) GoString() string { return "embed.Config{" + c.Describe() + "}" }

// LogValue is Describe, so logging a Config with slog cannot leak the key.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.Describe()) }

// redactURL hides a password embedded in a URL.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if strings.Contains(s, "@") {
			return "(unparseable URL)"
		}
		return s
	}
	if u.User == nil {
		return s
	}
	return u.Redacted()
}
