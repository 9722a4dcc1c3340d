#!/usr/bin/env bash
# Graph accuracy against gopls (run on demand, not part of go test).
# Installs gopls at an exact version from the Go module proxy, builds codectx
# and the oracle (build tag "oracle"), indexes each tree into a fresh
# database and prints caller/callee/implements precision and recall and the
# share of in-project call edges left unresolved or at name level.
# Usage: scripts/graph-oracle.sh [ROOT...]
#   default roots: $GOROOT/src/net/http $GOROOT/src/encoding and this repository
# Environment: GOPLS_VERSION (default v0.21.1), ORACLE_N (40), ORACLE_SEED (1),
#   ORACLE_VERBOSE=1 prints every mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
version=${GOPLS_VERSION:-v0.21.1}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/codectx-oracle/gopls-$version
if [ ! -x "$cache/gopls" ]; then
  echo "installing gopls $version into $cache" >&2
  mkdir -p "$cache"
  (cd /tmp && GOFLAGS= GOBIN="$cache" go install "golang.org/x/tools/gopls@$version")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/codectx" ./cmd/codectx
go build -tags oracle -o "$work/graphoracle" ./internal/tools/graphoracle
if [ $# -eq 0 ]; then
  goroot=$(go env GOROOT)
  set -- "$goroot/src/net/http" "$goroot/src/encoding" "$repo"
fi
v=()
[ "${ORACLE_VERBOSE:-}" = 1 ] && v=(-v)
for root in "$@"; do
  root=$(cd "$root" && pwd)
  db="$work/$(basename "$root").db"
  "$work/codectx" index "$root" --db "$db" >/dev/null
  "$work/graphoracle" -root "$root" -db "$db" -gopls "$cache/gopls" \
    -n "${ORACLE_N:-40}" -seed "${ORACLE_SEED:-1}" "${v[@]}"
  echo
done
