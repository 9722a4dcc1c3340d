package index

import (
	"encoding/json"
	"slices"
	"testing"
)

// Imports through the path aliases and baseUrl of the nearest tsconfig.json
// (comments and trailing commas allowed), a compiled ".js" standing for
// ".ts", index files; a package name stays external.
func TestTypeScriptPathAliases(t *testing.T) {
	tree := map[string]string{
		"web/tsconfig.json": `{
  // aliases of the web app
  "compilerOptions": {
    "baseUrl": ".",
    "paths": {
      "@app/*": ["src/app/*"], /* the application */
      "@lib": ["src/lib/index.ts"],
    },
  },
}
`,
		"web/src/main.ts": `import { guard } from "@app/policy/Guard.js";
import { util } from "@lib";
import { other } from "src/other";
import { thing } from "left-pad";
export function main() { return guard(util() + other() + thing()); }
`,
		"web/src/app/policy/Guard.ts": `export function guard(x: number) { return x; }
`,
		"web/src/lib/index.ts": `export function util() { return 1; }
`,
		"web/src/other.ts": `export function other() { return 2; }
`,
	}
	root := t.TempDir()
	writeFiles(t, root, tree)
	db := openDB(t)
	run(t, db, root, &fakeEmbedder{model: "fake:a"})
	got := querySet(t, db, `SELECT f.path, r.target, COALESCE(df.path, ''), r.resolution, r.detail
		FROM relations r JOIN files f ON f.id = r.file_id LEFT JOIN chunks dc ON dc.id = r.dst_chunk
		LEFT JOIN files df ON df.id = dc.file_id WHERE r.kind = 'imports'`, 5)
	for _, want := range []string{
		"web/src/main.ts | @app/policy/Guard.js | web/src/app/policy/Guard.ts | exact | path alias",
		"web/src/main.ts | @lib | web/src/lib/index.ts | exact | path alias",
		"web/src/main.ts | src/other | web/src/other.ts | exact | path alias",
		"web/src/main.ts | left-pad |  | external | left-pad",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in %v", want, got)
		}
	}
}

func TestJSONC(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": 1, // c` + "\n" + `}`:         `{"a":1}`,
		`{"a": "x // y", /* z */ "b": [1,]}`: `{"a":"x // y","b":[1]}`,
		`{"a": "q\"/*"}`:                     `{"a":"q\"/*"}`,
	} {
		var v any
		if err := json.Unmarshal(jsonc([]byte(in)), &v); err != nil {
			t.Errorf("jsonc(%q): %v", in, err)
			continue
		}
		b, _ := json.Marshal(v)
		if string(b) != want {
			t.Errorf("jsonc(%q) = %s, want %s", in, b, want)
		}
	}
}
