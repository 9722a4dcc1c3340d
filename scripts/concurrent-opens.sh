#!/usr/bin/env bash
# Concurrent first opens, as issue 11 reproduced them: each round starts N
# `codectx index PROJECT --db NEW.db` at once on a fresh database, then checks
# that every run succeeded and that `codectx stats` works afterwards.
# Usage: scripts/concurrent-opens.sh PROJECT [ROUNDS=100] [N=3]
set -euo pipefail
project=${1:?usage: $0 PROJECT [ROUNDS] [N]}
rounds=${2:-100}
n=${3:-3}
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/codectx" ./cmd/codectx
export EMBEDDING_PROVIDER=local
survived=0
for r in $(seq 1 "$rounds"); do
  db="$work/r$r/index.db"
  mkdir -p "$work/r$r"
  pids=()
  for i in $(seq 1 "$n"); do
    "$work/codectx" index "$project" --db "$db" >"$work/r$r/out$i" 2>&1 &
    pids+=($!)
  done
  ok=1
  for p in "${pids[@]}"; do wait "$p" || ok=0; done
  "$work/codectx" stats "$project" --db "$db" >"$work/r$r/stats" 2>&1 || ok=0
  if [ "$ok" = 1 ]; then
    survived=$((survived + 1))
  else
    echo "round $r failed:" >&2
    grep -h "^codectx:" "$work/r$r"/out* "$work/r$r/stats" | grep -v "is indexing" | sort | uniq -c >&2 || true
  fi
  rm -rf "$work/r$r"
done
echo "rounds of $n concurrent first opens survived: $survived of $rounds"
