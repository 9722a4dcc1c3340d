#!/usr/bin/env bash
# Retrieval on projects the ranker was not tuned on (docs/EVAL.md, "Unseen
# projects", "Eleventh session" and later): every testdata/eval/unseen-*,
# heldout*-*, kw-* (short keyword queries) and mid-* (agent-style queries)
# golden set, in one fresh
# database, with its -zh-en companion when it has one (the zh questions' own
# English translations).
# Prints one line per set: file and symbol MRR@10, symbol MRR@10 per
# language, and the symbol MRR@10 of the translations.
#
# Usage: SCRATCH=DIR scripts/eval-unseen.sh [CODECTX_BINARY] [SET_PREFIX]
#   SCRATCH        receives the unpacked JDK packages, a copy of npm and
#                  the database (kept between runs; the database is fresh)
#   CODECTX_BINARY defaults to a build of this checkout
#   SET_PREFIX     only sets whose name starts with it (e.g. heldout2-)
# Sets whose root is missing on this machine are skipped with a message.
# Run on demand, never by the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SCRATCH:?set SCRATCH to a scratch directory}"
export SCRATCH
export GOROOT=${GOROOT:-$(go env GOROOT)}
bin=${1:-}
prefix=${2:-}
if [ -z "$bin" ]; then
  bin="$SCRATCH/codectx"
  go build -o "$bin" ./cmd/codectx
fi

# Roots that are not already on the machine: JDK packages from lib/src.zip
# and a copy of the globally installed npm.
srczip=""
for z in ${JAVA_HOME:+$JAVA_HOME/lib/src.zip} /usr/lib/jvm/*/lib/src.zip; do
  if [ -f "$z" ]; then srczip=$z; break; fi
done
unpack() { # dir module/package-path
  if [ -n "$srczip" ] && [ ! -d "$SCRATCH/$1/$2" ]; then
    mkdir -p "$SCRATCH/$1" && (cd "$SCRATCH/$1" && unzip -q -o "$srczip" "$2/*")
  fi
}
unpack jdk java.base/java/util/concurrent
unpack jdk2 java.base/java/time
unpack jdk3 java.base/java/util/stream
unpack jdk4 java.base/java/nio/file
unpack jdk5 java.base/java/util/regex
unpack jdk6 java.logging/java/util/logging
unpack jdk7 java.base/java/util/zip
unpack jdk8 java.base/java/text
unpack jdk9 java.base/java/math
unpack jdk10 java.base/java/util/jar
unpack jdk11 java.net.http
unpack jdk12 jdk.jshell
unpack jdk13 jdk.zipfs
unpack jdk14 java.prefs
unpack jdk15 java.sql/java/sql
unpack jdk16 jdk.httpserver
unpack jdk17 java.base/java/net
unpack jdk18 java.base/java/security
unpack jdk19 java.base/java/nio/channels
unpack jdk20 java.base/java/nio/charset
unpack jdk21 java.base/javax/crypto
if [ ! -d "$SCRATCH/npm" ] && command -v npm > /dev/null; then
  cp -a "$(npm root -g)/npm" "$SCRATCH/npm"
fi

db="$SCRATCH/unseen-eval/index.db"
rm -rf "$SCRATCH/unseen-eval"
mkdir -p "$SCRATCH/unseen-eval"

sets=()
for f in testdata/eval/unseen-*.jsonl testdata/eval/heldout*-*.jsonl testdata/eval/kw-*.jsonl testdata/eval/mid-*.jsonl; do
  name=$(basename "$f" .jsonl)
  case "$name" in *-zh-en) continue ;; esac
  case "$name" in "$prefix"*) ;; *) continue ;; esac
  root=$(head -1 "$f" | python3 -c 'import json, os, sys; print(os.path.expandvars(json.load(sys.stdin)["root"]))')
  if [ ! -d "$root" ]; then
    echo "skip $name: root $root is missing" >&2
    continue
  fi
  sets+=("$name")
done

# Index every root first: a database-wide FTS5 statistic moves the figures
# while projects are added.
for name in "${sets[@]}"; do
  "$bin" eval "testdata/eval/$name.jsonl" --db "$db" > /dev/null 2>&1
done

report() { # set file → "file/symbol en zh mixed"
  "$bin" eval "$1" --db "$db" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
def sym(g): return "%.3f" % g["symbol"]["mrr@10"] if g else "-"
o, by = d["overall"], d.get("by_lang") or {}
print("%.3f/%.3f" % (o["file"]["mrr@10"], o["symbol"]["mrr@10"]), sym(by.get("en")), sym(by.get("zh")), sym(by.get("mixed")))'
}
printf '%-22s %-13s %-6s %-6s %-6s %s\n' set file/symbol en zh mixed zh-own-en
for name in "${sets[@]}"; do
  read -r fs en zh mixed < <(report "testdata/eval/$name.jsonl")
  own=-
  if [ -f "testdata/eval/$name-zh-en.jsonl" ]; then
    own=$(report "testdata/eval/$name-zh-en.jsonl" | awk '{print $2}')
  fi
  printf '%-22s %-13s %-6s %-6s %-6s %s\n' "$name" "$fs" "$en" "$zh" "$mixed" "$own"
done
