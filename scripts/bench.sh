#!/usr/bin/env bash
# Indexing benchmark on real trees present on these machines: $GOROOT/src (Go)
# and the JDK sources (lib/src.zip unzipped to a temporary folder: Java).
# Prints one JSON line per run: tree, files, chunks, relations, cold-index
# seconds, files/s, no-change re-index seconds, peak RSS (MB) of each pass,
# and the median wall seconds and peak RSS (MB) of 5 one-shot `codectx
# search` processes (a fixed English question).
# Usage: scripts/bench.sh [go|java|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:-all}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/codectx" ./cmd/codectx

measure() { # name root
  local name=$1 root=$2 db="$work/$1.db"
  local t0 t1 t2 cold warm rss_cold rss_warm
  t0=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/rss1" "$work/codectx" index "$root" --db "$db" --json > "$work/cold.json"
  t1=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$work/rss2" "$work/codectx" index "$root" --db "$db" --json > "$work/warm.json"
  t2=$(date +%s.%N)
  cold=$(echo "$t1 - $t0" | bc -l); warm=$(echo "$t2 - $t1" | bc -l)
  rss_cold=$(( $(tail -1 "$work/rss1") / 1024 )); rss_warm=$(( $(tail -1 "$work/rss2") / 1024 ))
  : > "$work/search"
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f '%e %M' -a -o "$work/search" "$work/codectx" search "where is the configuration read from the environment" \
      --root "$root" --db "$db" > /dev/null
  done
  python3 - "$name" "$cold" "$warm" "$rss_cold" "$rss_warm" "$work/cold.json" "$work/search" <<'PY'
import json, os, statistics, sys
name, cold, warm, rc, rw, path, search = sys.argv[1:]
runs = [l.split() for l in open(search) if l.strip() and l[0].isdigit()]
s = json.load(open(path))
cold, warm = float(cold), float(warm)
print(json.dumps({"tree": name, "files": s["scanned"], "chunks": s["total_chunks"], "relations": s["relations"],
  "cold_seconds": round(cold, 2), "files_per_second": round(s["scanned"] / cold, 1),
  "nochange_seconds": round(warm, 3), "peak_rss_mb_cold": int(rc), "peak_rss_mb_nochange": int(rw),
  "search_seconds": statistics.median(float(r[0]) for r in runs),
  "search_peak_rss_mb": int(statistics.median(int(r[1]) for r in runs)) // 1024,
  "threads": os.environ.get("CODECTX_INDEX_THREADS", "default")}))
PY
}

command -v bc >/dev/null || { echo "bench.sh needs bc (apt-get install -y bc)" >&2; exit 1; }
if [ "$which" = go ] || [ "$which" = all ]; then
  measure goroot "$(go env GOROOT)/src"
fi
if [ "$which" = java ] || [ "$which" = all ]; then
  # The JDK on PATH first, then any installed JDK whose src.zip is a real file.
  srczip=""
  for z in "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/src.zip" /usr/lib/jvm/*/lib/src.zip; do
    if [ -f "$z" ]; then srczip=$z; break; fi
  done
  if [ -n "$srczip" ]; then
    echo "java sources: $srczip" >&2
    mkdir -p "$work/jdk" && unzip -q "$srczip" -d "$work/jdk"
    measure jdk "$work/jdk"
  else
    echo "no JDK src.zip found; skipping java" >&2
  fi
fi
