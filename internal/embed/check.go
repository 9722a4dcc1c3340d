package embed

import (
	"context"
	"errors"
	"fmt"
)

// Check sends one tiny text through e and verifies the answer, for
// `codectx doctor`. Its error says what to do: start Ollama, pull the
// model, check the API key or base URL.
func Check(ctx context.Context, e Embedder) error {
	if e == nil {
		return errors.New("embed: no embedder configured")
	}
	vecs, err := e.Embed(ctx, []string{"func checkEmbedding() // codectx doctor"})
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		if hint := checkHint(e, err); hint != "" {
			return fmt.Errorf("embedding check failed: %w; %s", err, hint)
		}
		return fmt.Errorf("embedding check failed: %w", err)
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return fmt.Errorf("embedding check failed: %s returned no vector for a test text", e.ModelID())
	}
	if d := e.Dims(); d != len(vecs[0]) {
		return fmt.Errorf("embedding check failed: %s returned %d dimensions, expected %d", e.ModelID(), len(vecs[0]), d)
	}
	return nil
}

// checkHint is advice for a failed Check, or "" when the error already says
// what to do.
func checkHint(e Embedder, err error) string {
	h, ok := e.(*httpEmbedder)
	if !ok {
		return ""
	}
	var he *HTTPError
	switch {
	case errors.Is(err, ErrModelNotFound), errors.Is(err, ErrAuth):
		return "" // the message names the fix
	case errors.Is(err, ErrUnavailable) && h.name == ProviderOllama:
		return fmt.Sprintf("is Ollama running? start it with 'ollama serve' (or the Ollama app), or set EMBEDDING_BASE_URL (now %s)", redactURL(h.base))
	case errors.Is(err, ErrUnavailable):
		return fmt.Sprintf("check EMBEDDING_BASE_URL (now %s) and the network", redactURL(h.base))
	case errors.As(err, &he) && he.StatusCode == 404:
		return fmt.Sprintf("the server has no embeddings endpoint at %s: check EMBEDDING_BASE_URL", redactURL(h.base))
	case errors.As(err, &he) && he.StatusCode == 400:
		return fmt.Sprintf("the server rejected the request: check EMBEDDING_MODEL (now %q)", h.model)
	case errors.Is(err, ErrBadResponse):
		return "the server's answer is not an embeddings response: check EMBEDDING_PROVIDER and EMBEDDING_BASE_URL"
	}
	return ""
}
