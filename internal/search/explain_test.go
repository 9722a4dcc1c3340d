package search

import (
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestExplainAddsUpToScore(t *testing.T) {
	ix := buildIndex(t, redirectFixture)
	ctx := context.Background()
	for _, tc := range []struct{ mode, query string }{
		{ModeHybrid, "redirect status code"},
		{ModeKeyword, "redirect behavior client"},
		{ModeSemantic, "redirect"},
		{ModeHybrid, "status"}, // a short query: the name match takes part
	} {
		t.Run(tc.mode+"/"+tc.query, func(t *testing.T) {
			plain, err := Search(ctx, ix, Options{Query: tc.query, K: 4, Mode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Search(ctx, ix, Options{Query: tc.query, K: 4, Mode: tc.mode, Explain: true})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(names(plain), names(res)) {
				t.Fatalf("explaining changed the order: %v, without %v", names(res), names(plain))
			}
			if len(res.Results) == 0 {
				t.Fatal("no results")
			}
			for i, h := range res.Results {
				if plain.Results[i].Explain != nil {
					t.Errorf("%s: explained without being asked", h.Name)
				}
				x := h.Explain
				if x == nil {
					t.Fatalf("%s: no explanation", h.Name)
				}
				// Ten parts, each rounded to 0.001 like the score.
				if d := math.Abs(x.Total() - h.Score); d > 0.0055 {
					t.Errorf("%s: parts %+v add up to %.4f, score %.3f", h.Name, *x, x.Total(), h.Score)
				}
				isTest := h.File == "b/other_test.go"
				if got := slices.Contains(x.Demotions, "test"); got != isTest {
					t.Errorf("%s: demotions %v, test demotion expected %v", h.Name, x.Demotions, isTest)
				}
				if isTest && x.Demotion >= 0 {
					t.Errorf("%s: demotion %v, want < 0", h.Name, x.Demotion)
				}
				if tc.mode == ModeKeyword && x.Semantic != 0 {
					t.Errorf("%s: keyword mode with a semantic part %v", h.Name, x.Semantic)
				}
				if tc.mode == ModeSemantic && (x.Keyword != 0 || x.Coverage != 0) {
					t.Errorf("%s: semantic mode with keyword parts %+v", h.Name, *x)
				}
			}
		})
	}
	if _, err := Search(ctx, ix, Options{Query: "redirect status code", K: 4, Ranker: RankerSeed, Explain: true}); err == nil || !strings.Contains(err.Error(), "explain needs the default ranker") {
		t.Fatalf("explain with the seed ranker: err %v, want one naming the default ranker", err)
	}
}
