#!/usr/bin/env bash
# The project's one test command: installs what the tests need when missing,
# then runs go vet and the whole test suite (unit, integration, MCP clients,
# the web page in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v rg >/dev/null 2>&1 || need_apt+=(ripgrep)
command -v git >/dev/null 2>&1 || need_apt+=(git)
command -v gcc >/dev/null 2>&1 || need_apt+=(gcc)
# Headless Chromium for the web page's browser test (internal/serve).
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing: ${need_apt[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "warning: missing ${need_apt[*]} (not root, cannot install); dependent tests will skip" >&2
  fi
fi

# The Node.js MCP client test uses the official SDK from the npm registry.
if [ -f test/mcp-node/package.json ] && command -v npm >/dev/null 2>&1; then
  if [ ! -d test/mcp-node/node_modules/@modelcontextprotocol/sdk ]; then
    (cd test/mcp-node && npm install --no-audit --no-fund --silent)
  fi
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt needed on:" >&2
  echo "$unformatted" >&2
  exit 1
fi
go vet ./...
# staticcheck at a pinned version (from the Go module proxy, built once into
# GOPATH/bin); when it cannot be installed the check is skipped, said so.
staticcheck_bin="$(go env GOPATH)/bin/staticcheck"
if [ ! -x "$staticcheck_bin" ] || ! "$staticcheck_bin" -version 2>/dev/null | grep -qF '(0.8.2)'; then
  GOFLAGS= go install honnef.co/go/tools/cmd/staticcheck@v0.8.2 >/dev/null 2>&1 || true
fi
if [ -x "$staticcheck_bin" ]; then
  "$staticcheck_bin" ./...
else
  echo "warning: staticcheck could not be installed; skipping it" >&2
fi
# A throw-away PostgreSQL server for the store's contract suite and the
# end-to-end comparison with SQLite (scripts/pg-cluster.sh): installed when
# missing (as root), stopped and removed on exit. Without it those tests skip.
if [ -z "${CODECTX_TEST_PG:-}" ]; then
  pgdir=$(mktemp -d "${TMPDIR:-/tmp}/codectx-pg.XXXXXX")
  chmod 755 "$pgdir"
  trap 'scripts/pg-cluster.sh stop "$pgdir"' EXIT
  if pgenv=$(scripts/pg-cluster.sh start "$pgdir"); then
    eval "$pgenv"
    export CODECTX_TEST_PG
  else
    echo "warning: no PostgreSQL server; the PostgreSQL store tests will skip" >&2
  fi
fi
go test -count=1 -timeout 20m ./... "$@"
