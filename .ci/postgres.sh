#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster listening only on a private unix socket (no TCP port, so no
# clashes), runs the given command with TEST_DATABASE_URL pointing at it, then removes the cluster.
# Installs Debian's postgresql when it is missing.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "[postgres] installing Debian postgresql"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
BIN=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")

RUNAS=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home /var/lib/postgresql postgres
  RUNAS=(runuser -u postgres --)
fi

WORK=$(mktemp -d /tmp/portal-pg.XXXXXX)
chmod 0755 "$WORK"
mkdir -p "$WORK/data" "$WORK/sock"
chmod 0700 "$WORK/data" "$WORK/sock"
[ "$(id -u)" = 0 ] && chown -R postgres "$WORK/data" "$WORK/sock"

cleanup() {
  "${RUNAS[@]}" "$BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"${RUNAS[@]}" "$BIN/initdb" -D "$WORK/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
"${RUNAS[@]}" "$BIN/pg_ctl" -D "$WORK/data" -l "$WORK/data/postgres.log" -w -t 60 \
  -o "-c listen_addresses='' -k $WORK/sock -c fsync=off -c max_connections=200" start >/dev/null
echo "[postgres] $("$BIN/postgres" --version) on unix socket $WORK/sock"

export TEST_DATABASE_URL="postgresql://postgres@localhost/postgres?host=$WORK/sock"
"$@"
