#!/usr/bin/env bash
# Change requests on projects the ranker was not tuned on (docs/EVAL.md,
# "Change requests from release notes"): every testdata/eval/chg-* set,
# mined by scripts/mine-releases from a project's release notes, in one
# fresh database. Fetches each set's root first (the Go module cache, or
# npm packages unpacked under $SCRATCH/npm-src), as its header's "fetch"
# says.
# Prints one line per set: tasks, file MRR@10 and R@1 of the clean tasks
# (the query names no target file or symbol), of the leaky ones and of all;
# then the same pooled over every task of the sets run.
#
# Usage: SCRATCH=DIR scripts/eval-changes.sh [CODECTX_BINARY] [SET_PREFIX]
#   SCRATCH        receives the npm packages and the database (fresh each run)
#   CODECTX_BINARY defaults to a build of this checkout
#   SET_PREFIX     only sets whose name starts with it (e.g. chg-dev-)
#   EVAL_ARGS      extra flags for codectx eval (e.g. "--mode keyword")
#   BASELINE=1     also print the lexical reference, BM25 over whole files
#                  (scripts/bm25-files.py), on the same tasks
# Run on demand, never by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SCRATCH:?set SCRATCH to a scratch directory}"
mkdir -p "$SCRATCH"
export SCRATCH
bin=${1:-}
prefix=${2:-chg-}
if [ -z "$bin" ]; then
  bin="$SCRATCH/codectx"
  go build -o "$bin" ./cmd/codectx
fi

header() { # set file, field
  head -1 "$1" | python3 -c 'import json, os, sys; print(os.path.expandvars(json.load(sys.stdin).get(sys.argv[1], "")))' "$2"
}

sets=()
for f in testdata/eval/chg-*.jsonl; do
  name=$(basename "$f" .jsonl)
  case "$name" in "$prefix"*) ;; *) continue ;; esac
  root=$(header "$f" root)
  fetch=$(header "$f" fetch)
  if [ ! -d "$root" ]; then
    case "$fetch" in
    "go "*) go mod download "${fetch#go }" ;;
    "npm "*)
      spec=${fetch#npm }
      dest="$SCRATCH/npm-src/$spec"
      mkdir -p "$dest"
      tgz=$(cd "$dest" && npm pack --silent "$spec" | tail -1)
      tar -xzf "$dest/$tgz" -C "$dest" && rm -f "$dest/$tgz"
      ;;
    esac
  fi
  if [ ! -d "$root" ]; then
    echo "skip $name: root $root is missing and could not be fetched ($fetch)" >&2
    continue
  fi
  sets+=("$name")
done

db="$SCRATCH/changes-eval/index.db"
rm -rf "$SCRATCH/changes-eval"
mkdir -p "$SCRATCH/changes-eval"
# Index every root first: a database-wide FTS5 statistic moves the figures
# while projects are added.
for name in "${sets[@]}"; do
  "$bin" eval "testdata/eval/$name.jsonl" --db "$db" > /dev/null 2>&1
done

out="$SCRATCH/changes-eval/reports"
mkdir -p "$out"
for name in "${sets[@]}"; do
  # shellcheck disable=SC2086 # EVAL_ARGS is a list of flags
  "$bin" eval "testdata/eval/$name.jsonl" --db "$db" --json ${EVAL_ARGS:-} > "$out/$name.json"
done
summarize() { # reports directory, set names…
python3 - "$@" <<'EOF'
import json, os, sys
out, names = sys.argv[1], sys.argv[2:]
pool = {"change": [0, 0.0, 0.0], "change-leaky": [0, 0.0, 0.0]}
def cell(g):
    return "-" if not g or not g["tasks"] else "%2d %.3f %.3f" % (g["tasks"], g["file"]["mrr@10"], g["file"]["recall@1"])
print("%-28s %-18s %-18s %-18s" % ("set", "clean: n MRR R@1", "leaky: n MRR R@1", "all: n MRR R@1"))
for n in names:
    d = json.load(open(os.path.join(out, n + ".json")))
    by = d.get("by_kind") or {}
    for k in pool:
        g = by.get(k)
        if g:
            pool[k][0] += g["tasks"]
            pool[k][1] += g["tasks"] * g["file"]["mrr@10"]
            pool[k][2] += g["tasks"] * g["file"]["recall@1"]
    print("%-28s %-18s %-18s %-18s" % (n, cell(by.get("change")), cell(by.get("change-leaky")), cell(d["overall"] | {"tasks": d["tasks"]})))
def pooled(ks):
    t = sum(pool[k][0] for k in ks)
    return "-" if not t else "%2d %.3f %.3f" % (t, sum(pool[k][1] for k in ks) / t, sum(pool[k][2] for k in ks) / t)
print("%-28s %-18s %-18s %-18s" % ("pooled over tasks", pooled(["change"]), pooled(["change-leaky"]), pooled(list(pool))))
def mean(k):
    xs = []
    for n in names:
        d = json.load(open(os.path.join(out, n + ".json")))
        g = d["overall"] if k is None else (d.get("by_kind") or {}).get(k)
        if g and (k is not None or d["tasks"]):
            xs.append(g["file"]["mrr@10"])
    return "-" if not xs else "%2d %.3f" % (len(xs), sum(xs) / len(xs))
print("%-28s %-18s %-18s %-18s" % ("mean over sets (n = sets)", mean("change"), mean("change-leaky"), mean(None)))
EOF
}
summarize "$out" "${sets[@]}"

if [ "${BASELINE:-}" = 1 ]; then
  # The same table for BM25 over whole files, written in codectx's report
  # shape (by_kind and overall file metrics) so the summary reads it.
  base="$SCRATCH/changes-eval/bm25"
  mkdir -p "$base"
  for name in "${sets[@]}"; do
    f="testdata/eval/$name.jsonl"
    python3 scripts/bm25-files.py "$f" "$(header "$f" root)" "$out/$name.json" | python3 -c '
import json, sys
d = json.load(sys.stdin)
def g(x): return {"tasks": x["tasks"], "file": {"mrr@10": x["mrr@10"], "recall@1": x["recall@1"]}} if x else None
by = {k: g(d[v]) for k, v in (("change", "clean"), ("change-leaky", "leaky")) if d[v]}
print(json.dumps({"tasks": d["all"]["tasks"], "overall": g(d["all"]), "by_kind": by}))' > "$base/$name.json"
  done
  echo
  echo "BM25 over whole files (scripts/bm25-files.py):"
  summarize "$base" "${sets[@]}"
fi
