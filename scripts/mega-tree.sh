#!/usr/bin/env bash
# The 1M-chunk tree of docs/BENCHMARKS.md ("A 1M-chunk tree"), assembled
# from sources present on these machines, then indexed and measured (run on
# demand; ~15 minutes and ~5 GB of disk on a 2-core machine):
#   go/      $GOROOT/src
#   gomod/   the Go module cache's sources ($(go env GOMODCACHE), not cache/)
#   jdk/     a JDK's lib/src.zip (JDK_SRC_ZIP, default the first one found)
#   py311/ py310/ py312/   CPython standard libraries (PY_LIBS: directories;
#            3.11's with its site-packages)
#   node/    global node_modules (NODE_MODULES, default /usr/lib/node_modules)
#   node-mcp/  the test MCP client's node_modules, when installed
# Prints the cold index's summary line and time, then the warm-search
# benchmark on the tree (BenchmarkWarmSearch with CODECTX_BENCH_ROOT; the
# tree is past the file layer's threshold, so it measures the layer), and
# the file layer's pruned scan against the flat scan for the same 30
# questions (BenchmarkFileLayerScan: share of the flat scan's best hits
# found, time per question).
# Usage: scripts/mega-tree.sh DIR   (DIR is created; its index is DIR.db)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: scripts/mega-tree.sh DIR" >&2; exit 2; }
dir=$1
[ -e "$dir" ] && { echo "mega-tree: $dir exists; give a new directory" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
repo=$(pwd)

cp -r "$(go env GOROOT)/src" "$dir/go"
mkdir "$dir/gomod"
shopt -s nullglob
for d in "$(go env GOMODCACHE)"/*/; do
  [ "$(basename "$d")" = cache ] || cp -r "$d" "$dir/gomod/"
done
chmod -R u+w "$dir/gomod"
zip=${JDK_SRC_ZIP:-$(find /usr/lib/jvm -name src.zip -size +1M 2>/dev/null | head -1)}
if [ -n "$zip" ] && [ -f "$zip" ]; then
  mkdir "$dir/jdk" && (cd "$dir/jdk" && unzip -q "$zip")
fi
for lib in ${PY_LIBS:-$HOME/.pyenv/versions/3.11.7/lib/python3.11 $HOME/.pyenv/versions/3.10.13/lib/python3.10 $HOME/.pyenv/versions/3.12.1/lib/python3.12}; do
  [ -d "$lib" ] || continue
  name=py$(basename "$lib" | sed 's/^python//; s/\.//g')
  cp -r "$lib" "$dir/$name"
done
nm=${NODE_MODULES:-/usr/lib/node_modules}
if [ -d "$nm" ]; then cp -r "$nm" "$dir/node"; fi
# the test MCP client's packages, when scripts/test.sh has installed them
if [ -d test/mcp-node/node_modules ]; then cp -r test/mcp-node/node_modules "$dir/node-mcp"; fi

go build -o "$dir.codectx" ./cmd/codectx
(cd "$dir" && /usr/bin/time -f 'cold index: %e s wall, %U s user, %S s sys, %M KB peak' "$dir.codectx" index . --db "$dir.db" | tail -3)
(cd "$dir" && /usr/bin/time -f 'no-change index: %e s wall, %M KB peak' "$dir.codectx" index . --db "$dir.db" > /dev/null)
cd "$repo"
CODECTX_BENCH_ROOT=$dir CODECTX_BENCH_DB=$dir.db go test -run '^$' -bench 'BenchmarkWarmSearch$' -benchtime=1x ./pkg/codectx
sed -n '/^var warmQueries = \[\]string{/,/^}/p' pkg/codectx/bench_test.go | grep '^\s*"' | sed 's/^\s*"//; s/",$//' > "$dir.questions"
CODECTX_BENCH_ROOT=$dir CODECTX_BENCH_DB=$dir.db CODECTX_BENCH_QUERIES=$dir.questions go test -run '^$' -bench 'BenchmarkFileLayerScan$' -benchtime=1x ./internal/search
