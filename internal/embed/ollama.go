package embed

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
)

// ollamaAPI speaks Ollama's batch endpoint POST /api/embed, and falls back
// for the rest of this Embedder's life to the older one-text-per-request
// POST /api/embeddings when the server answers the batch endpoint with a
// bare "404 page not found" (an Ollama that predates it).
type ollamaAPI struct {
	legacy atomic.Bool
}

type ollamaEmbedRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type ollamaEmbedResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
}

type ollamaLegacyRequest struct {
	Model  string `json:"model"`
	Prompt string `json:"prompt"`
}

type ollamaLegacyResponse struct {
	Embedding []float32 `json:"embedding"`
}

func (o *ollamaAPI) embedBatch(ctx context.Context, h *httpEmbedder, texts []string) ([][]float32, [][]byte, error) {
	if !o.legacy.Load() {
		rep, err := h.post(ctx, "/api/embed", ollamaEmbedRequest{Model: h.model, Input: texts})
		if err != nil {
			return nil, nil, err
		}
		switch {
		case rep.ok():
			var r ollamaEmbedResponse
			if err := h.decode(rep.body, &r); err != nil {
				return nil, nil, err
			}
			return r.Embeddings, [][]byte{rep.body}, nil
		case rep.status == http.StatusNotFound && isBareNotFound(rep.body):
			if o.legacy.CompareAndSwap(false, true) {
				slog.Info("embed: ollama has no /api/embed (older server); using /api/embeddings, one text per request",
					"base_url", redactURL(h.base))
			}
		default:
			return nil, nil, o.statusError(h, rep)
		}
	}
	vecs := make([][]float32, len(texts))
	bodies := make([][]byte, len(texts))
	for i, t := range texts {
		rep, err := h.post(ctx, "/api/embeddings", ollamaLegacyRequest{Model: h.model, Prompt: t})
		if err != nil {
			return nil, nil, err
		}
		if !rep.ok() {
			if rep.status == http.StatusNotFound && isBareNotFound(rep.body) {
				return nil, nil, h.kindErr(ErrUnavailable, nil,
					"%s: %s answers neither /api/embed nor /api/embeddings: is it an Ollama server?", h.name, redactURL(h.base))
			}
			return nil, nil, o.statusError(h, rep)
		}
		var r ollamaLegacyResponse
		if err := h.decode(rep.body, &r); err != nil {
			return nil, nil, err
		}
		vecs[i], bodies[i] = r.Embedding, rep.body
	}
	return vecs, bodies, nil
}

// statusError recognises Ollama's model-not-found answer.
func (o *ollamaAPI) statusError(h *httpEmbedder, rep *reply) error {
	if rep.status == http.StatusNotFound {
		low := strings.ToLower(string(rep.body))
		if strings.Contains(low, "model") && strings.Contains(low, "not found") {
			return h.kindErr(ErrModelNotFound, nil, "%s: model %q not found: run 'ollama pull %s'", h.name, h.model, h.model)
		}
	}
	return h.statusError(rep)
}

// isBareNotFound reports the router's own 404 body, as opposed to a JSON
// error from a handler that exists.
func isBareNotFound(body []byte) bool {
	return string(bytes.TrimSpace(body)) == "404 page not found"
}
