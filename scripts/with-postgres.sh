#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster:
#   bash scripts/with-postgres.sh vitest run tests/server
# initdb's a cluster in a temporary directory, starts it on a free port of 127.0.0.1 only (trust
# authentication, no other address listened on), exports TEST_DATABASE_URL (the cluster's `postgres`
# database, superuser `postgres`) and TEST_POSTGRES_CTL (`$TEST_POSTGRES_CTL stop|start`) for the
# command, and always stops the cluster and removes the
# directory afterwards. Installs Debian's `postgresql` package when no PostgreSQL is installed.
# PostgreSQL refuses to run as root: as root the cluster runs as the `postgres` user.
#
# WITH_POSTGRES_DATA=<dir> keeps the cluster's data directory there instead: initdb'd only when it
# holds none, stopped but not removed afterwards. The million-row bench database (BENCH_DATABASE_URL)
# is then seeded once, as .data/bench is for PGlite: seeding it takes minutes.
# WITH_POSTGRES_SETTINGS adds server options (e.g. "-c shared_buffers=640MB" for the benches).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 command [args...]" >&2
  exit 2
fi

find_bin() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
  elif command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  fi
}

bin=$(find_bin)
if [ -z "$bin" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "with-postgres: PostgreSQL is not installed (apt-get install postgresql, as root)." >&2
    exit 1
  fi
  echo "with-postgres: installing Debian's postgresql package" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin=$(find_bin)
  if [ -z "$bin" ]; then
    echo "with-postgres: postgresql installed, but no initdb/pg_ctl found." >&2
    exit 1
  fi
fi

# As root, the cluster's files and processes belong to the postgres user (created by the package).
if [ "$(id -u)" -eq 0 ]; then
  owner=postgres
  as_owner() { runuser -u "$owner" -- "$@"; }
else
  owner=$(id -un)
  as_owner() { "$@"; }
fi

base=$(mktemp -d "${TMPDIR:-/tmp}/with-postgres.XXXXXX")
data="$base/data"
kept="${WITH_POSTGRES_DATA:-}"
if [ -n "$kept" ]; then
  mkdir -p "$kept"
  data=$(cd "$kept" && pwd)
  chown "$owner" "$data"
  chmod 700 "$data"
fi
log="$base/postgres.log"
chown "$owner" "$base"
chmod 700 "$base"

stop_cluster() {
  if [ -f "$data/postmaster.pid" ]; then
    (cd "$base" && as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null 2>&1) ||
      (cd "$base" && as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1) || true
  fi
  rm -rf "$base"
}
trap stop_cluster EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  node -e "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });"
}

# C.UTF-8, as PGlite's (C collation): the PGlite suite and this one sort text alike.
if [ -f "$data/PG_VERSION" ]; then
  echo "with-postgres: keeping the cluster in $data (WITH_POSTGRES_DATA)" >&2
elif ! init_output=$(cd "$base" && as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync 2>&1); then
  echo "$init_output" >&2
  exit 1
fi

# A throwaway cluster: durability is of no use, speed is (CREATE DATABASE per test server).
started=
for attempt in 1 2 3 4 5; do
  port=$(free_port)
  options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$base"
  options+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
  options+=" ${WITH_POSTGRES_SETTINGS:-}"
  if (cd "$base" && as_owner "$bin/pg_ctl" -D "$data" -l "$log" -o "$options" -w -t 60 start >/dev/null); then
    started=1
    break
  fi
  echo "with-postgres: start on port $port failed (attempt $attempt)" >&2
done
if [ -z "$started" ]; then
  cat "$log" >&2 || true
  exit 1
fi

export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"

# TEST_POSTGRES_CTL: a script taking `stop` (fast shutdown) or `start`, with this cluster's pg_ctl,
# data directory, options and owner, so the command can restart PostgreSQL under load (the soak's
# PostgreSQL mode, issue 40 point 2). The cluster keeps its port across the restart.
ctl="$base/ctl.sh"
runner=""
if [ "$(id -u)" -eq 0 ]; then runner="runuser -u $owner --"; fi
{
  echo '#!/usr/bin/env bash'
  echo 'set -euo pipefail'
  printf 'cd %q\n' "$base"
  echo 'case "${1:-}" in'
  printf '  stop) exec %s %q -D %q -m fast -w -t 60 stop ;;\n' "$runner" "$bin/pg_ctl" "$data"
  printf '  start) exec %s %q -D %q -l %q -o %q -w -t 60 start ;;\n' "$runner" "$bin/pg_ctl" "$data" "$log" "$options"
  echo '  *) echo "usage: $0 stop|start" >&2; exit 2 ;;'
  echo 'esac'
} >"$ctl"
chmod 755 "$ctl"
export TEST_POSTGRES_CTL="$ctl"
echo "with-postgres: $("$bin/postgres" --version | sed "s/^postgres (PostgreSQL) /PostgreSQL /") on 127.0.0.1:$port (TEST_DATABASE_URL)" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
