#!/usr/bin/env bash
# Graph accuracy against language servers (run on demand, not part of go test).
# Installs gopls at an exact version from the Go module proxy, pyright and
# typescript-language-server with typescript at exact versions from npm (all
# into a cache directory), builds codectx and the
# oracle (build tag "oracle"), indexes each tree into a fresh database and
# prints caller/callee/implements precision and recall and the share of
# in-project call edges left unresolved or at name level (Python: also the
# share of the call sites pyright resolves into the project).
# Usage: scripts/graph-oracle.sh [ROOT...]   (Go trees)
#   default: $GOROOT/src/net/http $GOROOT/src/encoding and this repository,
#   then Python's standard library packages email, http, json and logging;
#   TypeScript (only when ORACLE_LANGS names it): zod's src and ajv's lib
# Environment: GOPLS_VERSION (default v0.21.1), PYRIGHT_VERSION (1.1.414),
#   TSLS_VERSION (typescript-language-server, 5.3.0), TYPESCRIPT_VERSION
#   (5.9.3), ORACLE_LANGS ("go python"; "typescript" too or alone),
#   ORACLE_N (40), ORACLE_SEED (1),
#   ORACLE_PYTHON (python3: whose standard library is measured),
#   ORACLE_PY_PACKAGES ("email http json logging"), ORACLE_PY_SRC (the
#   directory the packages are copied from; default the standard library,
#   e.g. a site-packages directory for third-party packages such as click),
#   ORACLE_VERBOSE=1 prints every mismatch; ORACLE_RESIDUE=1 (Python)
#   instead asks pyright where each call left unresolved or name goes
#   (graphoracle -residue; ORACLE_RESIDUE_ALL=1: every such call, not only
#   names the project defines; ORACLE_RESIDUE_FIELDS=1: calls of local
#   function values and function-typed fields too) — for development
#   packages only.
#   ORACLE_TS_SRC (a node_modules directory; default test/mcp-node's, filled
#   by "npm ci" there), ORACLE_TS_TREES ("zod/src ajv/lib": folders below
#   it, each copied alone into a root of its own with a tsconfig.json)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
langs=${ORACLE_LANGS:-go python}
cachedir=${XDG_CACHE_HOME:-$HOME/.cache}/codectx-oracle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/codectx" ./cmd/codectx
go build -tags oracle -o "$work/graphoracle" ./internal/tools/graphoracle
v=()
[ "${ORACLE_VERBOSE:-}" = 1 ] && v=(-v)
res=()
[ "${ORACLE_RESIDUE:-}" = 1 ] && res=(-residue)
n=${ORACLE_N:-40}
seed=${ORACLE_SEED:-1}

if [[ " $langs " == *" go "* ]]; then
  version=${GOPLS_VERSION:-v0.21.1}
  gopls=$cachedir/gopls-$version/gopls
  if [ ! -x "$gopls" ]; then
    echo "installing gopls $version into $(dirname "$gopls")" >&2
    mkdir -p "$(dirname "$gopls")"
    (cd /tmp && GOFLAGS= GOBIN="$(dirname "$gopls")" go install "golang.org/x/tools/gopls@$version")
  fi
  if [ $# -eq 0 ]; then
    goroot=$(go env GOROOT)
    set -- "$goroot/src/net/http" "$goroot/src/encoding" "$repo"
  fi
  for root in "$@"; do
    root=$(cd "$root" && pwd)
    db="$work/$(basename "$root").db"
    "$work/codectx" index "$root" --db "$db" >/dev/null 2>"$work/index.log" || { cat "$work/index.log" >&2; exit 1; }
    "$work/graphoracle" -root "$root" -db "$db" -gopls "$gopls" -n "$n" -seed "$seed" "${v[@]}"
    echo
  done
fi

if [[ " $langs " == *" python "* ]]; then
  version=${PYRIGHT_VERSION:-1.1.414}
  pdir=$cachedir/pyright-$version
  if [ ! -x "$pdir/node_modules/.bin/pyright-langserver" ]; then
    echo "installing pyright $version into $pdir" >&2
    mkdir -p "$pdir"
    npm install --no-save --no-audit --no-fund --prefix "$pdir" "pyright@$version" >&2
  fi
  python=${ORACLE_PYTHON:-python3}
  stdlib=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
  pyver=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  packages=${ORACLE_PY_PACKAGES:-email http json logging}
  src=${ORACLE_PY_SRC:-$stdlib}
  # pyright reads the standard library from its bundled typeshed stubs: a
  # copy without the measured packages' stubs makes it read their source
  typeshed=$work/typeshed
  cp -r "$pdir/node_modules/pyright/dist/typeshed-fallback" "$typeshed"
  for p in $packages; do
    rm -rf "$typeshed/stdlib/$p" "$typeshed/stdlib/$p.pyi"
  done
  echo "python $pyver standard library at $stdlib, packages from $src, pyright $version"
  for p in $packages; do
    # each package alone in a root of its own, so that its absolute
    # imports ("from email import utils") are project imports
    root=$work/py-$p
    mkdir -p "$root"
    cp -r "$src/$p" "$root/"
    find "$root" -name __pycache__ -prune -exec rm -rf {} +
    db="$work/py-$p.db"
    "$work/codectx" index "$root" --db "$db" >/dev/null 2>"$work/index.log" || { cat "$work/index.log" >&2; exit 1; }
    printf '{"typeshedPath": "%s"}\n' "$typeshed" >"$root/pyrightconfig.json"
    echo "package $p"
    "$work/graphoracle" -lang python -root "$root" -db "$db" -pyright "$pdir/node_modules/.bin/pyright-langserver" \
      -n "$n" -seed "$seed" "${v[@]}" "${res[@]}"
    echo
  done
fi

if [[ " $langs " == *" typescript "* ]]; then
  version=${TSLS_VERSION:-5.3.0}
  tsversion=${TYPESCRIPT_VERSION:-5.9.3}
  tdir=$cachedir/typescript-language-server-$version-ts-$tsversion
  if [ ! -x "$tdir/node_modules/.bin/typescript-language-server" ] || [ ! -f "$tdir/node_modules/typescript/lib/tsserver.js" ]; then
    echo "installing typescript-language-server $version and typescript $tsversion into $tdir" >&2
    mkdir -p "$tdir"
    npm install --no-save --no-audit --no-fund --prefix "$tdir" "typescript-language-server@$version" "typescript@$tsversion" >&2
  fi
  src=${ORACLE_TS_SRC:-$repo/test/mcp-node/node_modules}
  trees=${ORACLE_TS_TREES:-zod/src ajv/lib}
  echo "typescript-language-server $version, typescript $tsversion, trees from $src"
  for t in $trees; do
    if [ ! -d "$src/$t" ]; then
      echo "graph-oracle: no $src/$t (run npm ci in test/mcp-node, or set ORACLE_TS_SRC)" >&2
      exit 1
    fi
    # the tree alone in a root of its own: tsserver's project is every .ts
    # file below it (a tsconfig.json written after indexing unless the
    # tree brings one; without one each open file is a project of its own
    # imports, and callers in the files that do not import it are missed)
    root=$work/ts-${t%%/*}
    mkdir -p "$root/$(dirname "$t")"
    cp -r "$src/$t" "$root/$(dirname "$t")/"
    db="$work/ts-${t%%/*}.db"
    "$work/codectx" index "$root" --db "$db" >/dev/null 2>"$work/index.log" || { cat "$work/index.log" >&2; exit 1; }
    if [ ! -f "$root/tsconfig.json" ]; then
      # moduleResolution bundler: zod imports "./x.js" for x.ts, ajv "./x"
      cat >"$root/tsconfig.json" <<'JSON'
{"compilerOptions": {"target": "es2022", "module": "esnext", "moduleResolution": "bundler", "strict": true, "resolveJsonModule": true, "skipLibCheck": true, "noEmit": true}, "include": ["**/*.ts"]}
JSON
    fi
    echo "tree $t"
    "$work/graphoracle" -lang typescript -root "$root" -db "$db" -tsls "$tdir/node_modules/.bin/typescript-language-server" \
      -tsdk "$tdir/node_modules/typescript/lib" -n "$n" -seed "$seed" "${v[@]}"
    echo
  done
fi
