package embed

import (
	"context"
	"net/http"
	"strings"
)

// openaiAPI speaks the OpenAI embeddings API (POST {base}/embeddings), also
// offered by Zhipu (glm/zhipu aliases) and many self-hosted servers.
// Vectors are put back in their input slot by data[i].index, since the
// answer's order is not guaranteed.
type openaiAPI struct{}

type openaiRequest struct {
	Model      string   `json:"model"`
	Input      []string `json:"input"`
	Dimensions int      `json:"dimensions,omitempty"` // only when Config.Dims is set
}

type openaiResponse struct {
	Data []struct {
		Index     *int      `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

func (openaiAPI) embedBatch(ctx context.Context, h *httpEmbedder, texts []string) ([][]float32, [][]byte, error) {
	rep, err := h.post(ctx, "/embeddings", openaiRequest{Model: h.model, Input: texts, Dimensions: h.fixDims})
	if err != nil {
		return nil, nil, err
	}
	bodies := [][]byte{rep.body}
	if !rep.ok() {
		if rep.status == http.StatusNotFound && strings.Contains(strings.ToLower(string(rep.body)), "model") {
			return nil, nil, h.kindErr(ErrModelNotFound, nil, "%s: model %q not found: check EMBEDDING_MODEL: %s",
				h.name, h.model, h.excerpt(rep.body))
		}
		return nil, nil, h.statusError(rep)
	}
	var r openaiResponse
	if err := h.decode(rep.body, &r); err != nil {
		return nil, nil, err
	}
	if len(r.Data) != len(texts) {
		return nil, nil, h.badResponse(rep.body, "got %d vectors for %d texts", len(r.Data), len(texts))
	}
	// Servers that omit every index answer in input order.
	indexed := false
	for _, d := range r.Data {
		if d.Index != nil {
			indexed = true
			break
		}
	}
	vecs := make([][]float32, len(texts))
	for i, d := range r.Data {
		slot := i
		if indexed {
			if d.Index == nil {
				return nil, nil, h.badResponse(rep.body, "data[%d] has no index", i)
			}
			slot = *d.Index
		}
		if slot < 0 || slot >= len(texts) {
			return nil, nil, h.badResponse(rep.body, "data[%d].index %d out of range for %d texts", i, slot, len(texts))
		}
		if vecs[slot] != nil {
			return nil, nil, h.badResponse(rep.body, "index %d appears twice", slot)
		}
		if len(d.Embedding) == 0 {
			return nil, nil, h.badResponse(rep.body, "data[%d] has an empty embedding", i)
		}
		vecs[slot] = d.Embedding
	}
	return vecs, bodies, nil
}
