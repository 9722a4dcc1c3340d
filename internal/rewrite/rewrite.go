// Package rewrite asks a chat model (an OpenAI-compatible /chat/completions
// endpoint) to turn a developer's question into likely code identifiers,
// English keywords and an intent, with a strict JSON answer.
//
// It must not rank, touch the database, read environment variables (the
// caller builds Config) or fail a search: callers fall back to the offline
// path on any error it returns.
package rewrite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Config points at an OpenAI-compatible chat endpoint.
type Config struct {
	BaseURL    string // e.g. https://api.openai.com/v1
	Model      string
	APIKey     string // sent as a bearer token; never printed
	Timeout    time.Duration
	HTTPClient *http.Client
}

// DefaultTimeout bounds one rewrite: a slow model is worse than none.
const DefaultTimeout = 5 * time.Second

// Intents a rewrite may name.
const (
	IntentImplementation = "implementation"
	IntentUsage          = "usage"
	IntentLocation       = "location"
)

// Result is the model's reading of a question.
type Result struct {
	Identifiers []string `json:"identifiers"`
	Keywords    []string `json:"keywords"`
	Intent      string   `json:"intent"`
}

// Example is a past judgement that helps the model: a query and names of
// results a user marked good or bad.
type Example struct {
	Query string
	Good  []string
	Bad   []string
}

const systemPrompt = `You help a code search engine. Given a developer's question (English, Chinese or mixed), answer with ONE JSON object and nothing else:
{"identifiers": [likely code identifiers: function, method, type or variable names as they would appear in source, e.g. "tryPutIdleConn", "Client.Do", "parse_header"],
 "keywords": [plain lower-case English words a programmer would use in code or comments for this topic],
 "intent": "implementation" | "usage" | "location"}
implementation = how or where something is done; usage = who calls or uses something; location = where something is defined or configured.
At most 8 identifiers and 10 keywords. No prose, no markdown.`

var (
	identRe   = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_.$:]*$`)
	keywordRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]*$`)
)

// Rewrite asks the model. Any failure — transport, status, timeout, or an
// answer that is not the strict JSON shape — is an error; the caller falls back.
func Rewrite(ctx context.Context, cfg Config, query string, examples []Example) (*Result, error) {
	if cfg.BaseURL == "" || cfg.Model == "" {
		return nil, errors.New("rewrite: no model configured (set LLM_BASE_URL and LLM_MODEL)")
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	user := "Question: " + query
	if len(examples) > 0 {
		var b strings.Builder
		b.WriteString("Past judgements on similar questions (use them as hints):\n")
		for _, e := range examples {
			fmt.Fprintf(&b, "- %q: good results %v; bad results %v\n", e.Query, e.Good, e.Bad)
		}
		user = b.String() + "\n" + user
	}
	body, _ := json.Marshal(map[string]any{
		"model":       cfg.Model,
		"temperature": 0,
		"messages": []map[string]string{
			{"role": "system", "content": systemPrompt},
			{"role": "user", "content": user},
		},
		"response_format": map[string]string{"type": "json_object"},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("rewrite: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	client := cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("rewrite: %s", redact(err.Error(), cfg.APIKey))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("rewrite: read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("rewrite: model answered %d: %s", resp.StatusCode, excerpt(redact(string(raw), cfg.APIKey)))
	}
	var chat struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &chat); err != nil || len(chat.Choices) == 0 {
		return nil, fmt.Errorf("rewrite: malformed chat answer: %s", excerpt(string(raw)))
	}
	return Parse(chat.Choices[0].Message.Content)
}

// Parse checks the model's content against the strict shape and cleans it.
func Parse(content string) (*Result, error) {
	content = strings.TrimSpace(content)
	content = strings.TrimPrefix(content, "```json")
	content = strings.TrimPrefix(content, "```")
	content = strings.TrimSuffix(content, "```")
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("rewrite: answer is not the expected JSON: %s", excerpt(content))
	}
	if dec.More() {
		return nil, fmt.Errorf("rewrite: trailing text after the JSON answer: %s", excerpt(content))
	}
	switch r.Intent {
	case IntentImplementation, IntentUsage, IntentLocation:
	default:
		return nil, fmt.Errorf("rewrite: unknown intent %q", r.Intent)
	}
	out := &Result{Intent: r.Intent}
	seen := map[string]bool{}
	for _, id := range r.Identifiers {
		id = strings.TrimSpace(id)
		if identRe.MatchString(id) && !seen[id] && len(out.Identifiers) < 8 {
			seen[id] = true
			out.Identifiers = append(out.Identifiers, id)
		}
	}
	for _, k := range r.Keywords {
		for _, w := range strings.Fields(strings.ToLower(k)) {
			if keywordRe.MatchString(w) && !seen[w] && len(out.Keywords) < 10 {
				seen[w] = true
				out.Keywords = append(out.Keywords, w)
			}
		}
	}
	if len(out.Identifiers)+len(out.Keywords) == 0 {
		return nil, errors.New("rewrite: the model gave no identifiers or keywords")
	}
	return out, nil
}

func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func redact(s, key string) string {
	if key == "" {
		return s
	}
	return strings.ReplaceAll(s, key, "[redacted]")
}
