package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The shared wrapper for the HTTP providers. httpEmbedder owns everything
// that does not depend on the wire format: skipping blank texts, cutting
// texts to MaxTextRunes, splitting into batches, retries with backoff,
// timeouts, validating and L2-normalising vectors, and keeping the API key
// out of errors and logs. A provider (api) only encodes one batch request
// and decodes its answer.

// api is one provider's wire format.
type api interface {
	// embedBatch sends texts (non-blank, already cut; at most the batch
	// size) and returns their vectors in input order, unvalidated, with the
	// raw body each vector came from (one body for all, or one per text) for
	// error excerpts. Errors must come from h's helpers so they name the
	// provider and carry no key.
	embedBatch(ctx context.Context, h *httpEmbedder, texts []string) (vecs [][]float32, bodies [][]byte, err error)
}

// httpEmbedder implements Embedder for the HTTP providers. It is safe for
// concurrent use.
type httpEmbedder struct {
	name    string // provider as in ModelID and error messages
	model   string
	base    string // no trailing slash
	key     string
	batch   int
	fixDims int // Config.Dims: strict when > 0
	client  *http.Client
	tune    tuning
	api     api

	mu        sync.Mutex
	dims      int  // expected dimension: Config.Dims, a known default, or learned
	confirmed bool // dims is strict (configured or seen in a response)
}

func newHTTPEmbedder(c Config, a api) *httpEmbedder {
	h := &httpEmbedder{
		name:    c.Provider,
		model:   c.Model,
		base:    c.BaseURL,
		key:     c.APIKey,
		batch:   c.BatchSize,
		fixDims: c.Dims,
		client:  c.HTTPClient,
		tune:    c.tune.withDefaults(),
		api:     a,
	}
	if h.client == nil {
		h.client = defaultClient()
	}
	if c.Dims > 0 {
		h.dims, h.confirmed = c.Dims, true
	} else {
		h.dims = knownDims[c.Provider+":"+c.Model]
	}
	return h
}

// knownDims are default sizes of common models, used as Dims() before the
// first response; the first response may still correct them.
var knownDims = map[string]int{
	"ollama:nomic-embed-text:latest":       768,
	"ollama:mxbai-embed-large:latest":      1024,
	"ollama:all-minilm:latest":             384,
	"ollama:bge-m3:latest":                 1024,
	"ollama:snowflake-arctic-embed:latest": 1024,
	"openai:text-embedding-3-small":        1536,
	"openai:text-embedding-3-large":        3072,
	"openai:text-embedding-ada-002":        1536,
	"zhipu:embedding-3":                    2048,
	"zhipu:embedding-2":                    1024,
}

// defaultClient connects within 30 s and waits at most 120 s for response
// headers; the whole attempt is further bounded by the request context.
func defaultClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: defaultConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: defaultRequestTimeout,
		ExpectContinueTimeout: time.Second,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}}
}

func (h *httpEmbedder) ModelID() string { return h.name + ":" + h.model }
func (h *httpEmbedder) BatchSize() int  { return h.batch }

// Dims is Config.Dims if set, else the size seen in the first response, else
// a known default for the model, else 0 until the first successful Embed.
func (h *httpEmbedder) Dims() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dims
}

// Embed embeds texts in batches of at most BatchSize, in order. Blank texts
// are not sent and get an empty vector; every other slot gets an
// L2-normalised vector. On any error no vectors are returned.
func (h *httpEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, h.ctxErr(err)
	}
	out := make([][]float32, len(texts))
	slots := make([]int, 0, len(texts))
	send := make([]string, 0, len(texts))
	for i, t := range texts {
		if isBlank(t) {
			continue
		}
		slots = append(slots, i)
		send = append(send, cutRunes(t, MaxTextRunes))
	}
	for start := 0; start < len(send); start += h.batch {
		end := min(start+h.batch, len(send))
		vecs, err := h.embedChunk(ctx, send[start:end])
		if err != nil {
			return nil, h.scrub(err)
		}
		for j, v := range vecs {
			out[slots[start+j]] = v
		}
	}
	return out, nil
}

// embedChunk runs one batch through the provider, then validates and
// normalises the vectors.
func (h *httpEmbedder) embedChunk(ctx context.Context, texts []string) ([][]float32, error) {
	vecs, bodies, err := h.api.embedBatch(ctx, h, texts)
	if err != nil {
		return nil, err
	}
	body := func(i int) []byte {
		switch {
		case len(bodies) == 0:
			return nil
		case i < len(bodies):
			return bodies[i]
		default:
			return bodies[len(bodies)-1]
		}
	}
	if len(vecs) != len(texts) {
		return nil, h.badResponse(body(0), "got %d vectors for %d texts", len(vecs), len(texts))
	}
	h.mu.Lock()
	want, confirmed := h.dims, h.confirmed
	h.mu.Unlock()
	for i, v := range vecs {
		switch {
		case len(v) == 0:
			return nil, h.badResponse(body(i), "vector %d of %d is empty", i, len(vecs))
		case !confirmed:
			if want != 0 && len(v) != want {
				slog.Warn("embed: model returned a different dimension than its usual default",
					"provider", h.name, "model", h.model, "default", want, "got", len(v))
			}
			want, confirmed = len(v), true
		case len(v) != want:
			return nil, h.badResponse(body(i), "vector %d has %d dimensions, want %d", i, len(v), want)
		}
		for j, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, h.badResponse(body(i), "vector %d has a non-finite value at %d", i, j)
			}
		}
	}
	h.mu.Lock()
	if !h.confirmed {
		h.dims, h.confirmed = want, true
	} else if h.dims != want {
		// Another call learned a different size first.
		d := h.dims
		h.mu.Unlock()
		return nil, h.badResponse(body(0), "vectors have %d dimensions, want %d", want, d)
	}
	h.mu.Unlock()
	for _, v := range vecs {
		normalize(v)
	}
	return vecs, nil
}

// normalize scales v to unit L2 norm in place; a zero vector stays zero.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
}

// reply is a completed HTTP exchange.
type reply struct {
	status   int
	header   http.Header
	body     []byte
	attempts int
}

func (r *reply) ok() bool { return r.status >= 200 && r.status < 300 }

// maxBody bounds a response body; a batch of 2048 × 3072-dim vectors in
// JSON is ~130 MB.
const maxBody = 256 << 20

// post sends payload as JSON to base+path. It retries (at most maxAttempts
// tries in all) on connection errors, timeouts, 429 and 5xx, waiting with
// exponential backoff plus jitter, or Retry-After when given, capped at
// tune.maxRetryWait. Any other status is returned for the caller to
// interpret, as is the last retryable one when tries run out. A cancelled
// ctx stops at once with ctx.Err() wrapped.
func (h *httpEmbedder) post(ctx context.Context, path string, payload any) (*reply, error) {
	body, err := json.Marshal(payload)
	if err != nil {
		return nil, fmt.Errorf("%s: encode request: %w", h.name, err)
	}
	endpoint := h.base + path
	for attempt := 1; ; attempt++ {
		rep, retryable, err := h.once(ctx, endpoint, body)
		if cerr := ctx.Err(); cerr != nil {
			return nil, h.ctxErr(cerr)
		}
		if err == nil {
			rep.attempts = attempt
			if rep.status != http.StatusTooManyRequests && rep.status < 500 {
				return rep, nil
			}
		} else if !retryable {
			return nil, err
		}
		if attempt >= maxAttempts {
			if err != nil {
				return nil, h.kindErr(ErrUnavailable, err, "%s (gave up after %d attempts)", err.Error(), attempt)
			}
			return rep, nil
		}
		wait, fromHeader := time.Duration(0), false
		if rep != nil {
			wait, fromHeader = retryAfter(rep.header, time.Now(), h.tune.maxRetryWait)
		}
		if !fromHeader {
			wait = h.backoff(attempt)
		}
		attrs := []any{"provider", h.name, "attempt", attempt, "wait", wait}
		if err != nil {
			attrs = append(attrs, "err", h.redact(err.Error()))
		} else {
			attrs = append(attrs, "status", rep.status)
		}
		slog.Warn("embed: request failed; retrying", attrs...)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, h.ctxErr(ctx.Err())
		case <-t.C:
		}
	}
}

// once performs a single attempt bounded by tune.requestTimeout. The error,
// if any, says whether another attempt may help.
func (h *httpEmbedder) once(ctx context.Context, endpoint string, body []byte) (*reply, bool, error) {
	actx, cancel := context.WithTimeout(ctx, h.tune.requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, false, fmt.Errorf("%s: build request: %w", h.name, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "codectx")
	if h.key != "" {
		req.Header.Set("Authorization", "Bearer "+h.key)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, true, h.transportErr(ctx, actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, true, h.transportErr(ctx, actx, fmt.Errorf("read response: %w", err))
	}
	if len(data) > maxBody {
		return nil, false, h.kindErr(ErrBadResponse, nil, "%s: response body larger than %d MiB", h.name, maxBody>>20)
	}
	return &reply{status: resp.StatusCode, header: resp.Header, body: data}, false, nil
}

// transportErr classifies a failed attempt: the caller's cancellation is
// checked by post; the attempt's own deadline is a timeout (not reported as
// context.DeadlineExceeded, which would look like the caller's); anything
// else is a connection error.
func (h *httpEmbedder) transportErr(ctx, actx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(actx.Err(), context.DeadlineExceeded) {
		return h.kindErr(ErrUnavailable, nil, "%s: no response from %s within %s", h.name, redactURL(h.base), h.tune.requestTimeout)
	}
	msg := err
	var ue *url.Error
	if errors.As(err, &ue) {
		msg = ue.Err // the URL is already in our message
	}
	return h.kindErr(ErrUnavailable, err, "%s: cannot reach %s: %v", h.name, redactURL(h.base), msg)
}

// backoff is base·2^(attempt-1), half of it random, capped.
func (h *httpEmbedder) backoff(attempt int) time.Duration {
	d := h.tune.retryBase << (attempt - 1)
	d = min(d, h.tune.maxRetryWait)
	half := d / 2
	return half + rand.N(half+1)
}

// retryAfter reads Retry-After (seconds or an HTTP date) or the
// non-standard Retry-After-Ms, capped at limit.
func retryAfter(hd http.Header, now time.Time, limit time.Duration) (time.Duration, bool) {
	if v := strings.TrimSpace(hd.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return min(time.Duration(ms*float64(time.Millisecond)), limit), true
		}
	}
	v := strings.TrimSpace(hd.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(limit/time.Second) {
			return limit, true
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(t.Sub(now), 0), limit), true
	}
	return 0, false
}

// statusError turns a non-2xx reply into an error: ErrAuth for 401/403,
// else an *HTTPError. Providers handle their own special cases first.
func (h *httpEmbedder) statusError(rep *reply) error {
	he := &HTTPError{Provider: h.name, StatusCode: rep.status, Body: h.excerpt(rep.body), Attempts: rep.attempts}
	if rep.status == http.StatusUnauthorized || rep.status == http.StatusForbidden {
		hint := "check EMBEDDING_API_KEY"
		if h.key == "" {
			hint = "no API key is set: set EMBEDDING_API_KEY"
		}
		return h.kindErr(ErrAuth, he, "%s: request rejected (HTTP %d): %s: %s", h.name, rep.status, hint, he.Body)
	}
	return he
}

// HTTPError is a non-2xx answer that is not otherwise classified.
type HTTPError struct {
	Provider   string
	StatusCode int
	Body       string // excerpt, at most 200 characters, key redacted
	Attempts   int    // tries made (>1 when retried)
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("%s: HTTP %d %s: %s", e.Provider, e.StatusCode, http.StatusText(e.StatusCode), e.Body)
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

// kindError carries a fixed message and answers errors.Is for its kind and
// its cause.
type kindError struct {
	kind  error
	cause error
	msg   string
}

func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

func (h *httpEmbedder) kindErr(kind, cause error, format string, args ...any) error {
	return &kindError{kind: kind, cause: cause, msg: h.redact(fmt.Sprintf(format, args...))}
}

// badResponse is an ErrBadResponse naming the provider with a body excerpt.
func (h *httpEmbedder) badResponse(body []byte, format string, args ...any) error {
	return h.kindErr(ErrBadResponse, nil, "%s: invalid response: %s; body: %s", h.name, fmt.Sprintf(format, args...), h.excerpt(body))
}

func (h *httpEmbedder) ctxErr(err error) error {
	return fmt.Errorf("%s: embedding stopped: %w", h.name, err)
}

// excerpt is at most 200 characters of body on one line, key redacted
// (before cutting, so no part of the key survives the cut).
func (h *httpEmbedder) excerpt(body []byte) string {
	const limit = 200
	if len(body) > 4096 {
		body = body[:4096]
	}
	s := h.redact(strings.ToValidUTF8(string(body), ""))
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(empty body)"
	}
	if c := cutRunes(s, limit); len(c) < len(s) {
		return c + "…"
	}
	return s
}

// redact removes the API key from s.
func (h *httpEmbedder) redact(s string) string {
	if h.key == "" {
		return s
	}
	return strings.ReplaceAll(s, h.key, "[REDACTED]")
}

// scrub makes sure err's text does not contain the API key, keeping
// errors.Is working.
func (h *httpEmbedder) scrub(err error) error {
	if err == nil || h.key == "" || !strings.Contains(err.Error(), h.key) {
		return err
	}
	return &scrubbedError{msg: h.redact(err.Error()), orig: err}
}

type scrubbedError struct {
	msg  string
	orig error
}

func (e *scrubbedError) Error() string        { return e.msg }
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.orig, target) }

// decode unmarshals a 2xx body, turning failure into ErrBadResponse.
func (h *httpEmbedder) decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return h.badResponse(body, "malformed JSON (%v)", err)
	}
	return nil
}

func isBlank(s string) bool {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// cutRunes returns s cut to at most n runes.
func cutRunes(s string, n int) string {
	if len(s) <= n { // bytes ≥ runes
		return s
	}
	count := 0
	for i := range s {
		if count == n {
			return s[:i]
		}
		count++
	}
	return s
}
