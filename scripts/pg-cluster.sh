#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and measurements.
#
#   eval "$(scripts/pg-cluster.sh start DIR)"   # prints: export CODECTX_TEST_PG=...
#   scripts/pg-cluster.sh stop DIR              # stops it and removes DIR
#
# start installs Debian's postgresql package when initdb is missing (as
# root), creates a cluster in DIR (initdb refuses to run as root: it then
# runs as the postgres user), listens on a Unix socket in DIR and on a free
# loopback port, and creates the database codectx. It prints nothing on
# stdout but the export line; when PostgreSQL cannot be had it prints a
# warning on stderr and exits 3.
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [ -z "$cmd" ] || [ -z "$dir" ]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

pgbin() {
  if command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v initdb)")"
    return
  fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
start)
  bin=$(pgbin)
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "installing: postgresql" >&2
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
      bin=$(pgbin)
    fi
  fi
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "warning: PostgreSQL is not installed (and not root to install it); PostgreSQL tests will skip" >&2
    exit 3
  fi
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$dir"
  fi
  user=$(as_owner id -un)
  as_owner "$bin/initdb" -D "$dir/data" -U "$user" --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || {
    cat "$dir/initdb.log" >&2
    exit 1
  }
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 54329)
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null || {
    cat "$dir/server.log" >&2
    exit 1
  }
  as_owner "$bin/createdb" -h "$dir" -p "$port" -U "$user" codectx
  echo "export CODECTX_TEST_PG='postgres://$user@127.0.0.1:$port/codectx?sslmode=disable'"
  ;;
stop)
  bin=$(pgbin)
  if [ -d "$dir/data" ] && [ -n "$bin" ]; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
  ;;
*)
  echo "usage: $0 start|stop DIR" >&2
  exit 2
  ;;
esac
