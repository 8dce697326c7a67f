# SPDX-License-Identifier: MIT
# Sourced by tests/suite/87-fleet-postgres.sh and tools/fleet-bench.sh: a
# throw-away PostgreSQL 15 server (Debian's postgresql-15) in a temporary
# folder, run by an unprivileged user (nobody when called as root: the
# server refuses to run as root), listening on a unix socket in that folder
# only (listen_addresses = ''). The caller stops it (pg_temp_stop) from its
# EXIT trap, so it goes away on every exit path.
#   pg_temp_start [SERVER OPTIONS]   sets PG_DIR; 1 with PG_ERR on failure
#   pg_temp_uri DB                   the libpq URI of database DB
#   pg_temp_psql ARGS...             psql as the server's superuser "fleet"
#   pg_temp_stop                     stops the server, removes PG_DIR
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}   # another server build: PG_BIN=... (the checks use 15)
PG_DIR=
PG_AS=()

pg_temp_available() { [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] && [ -x /usr/bin/psql ]; }

pg_temp_start() {
  PG_DIR=$(mktemp -d) || return 1
  PG_AS=()
  if [ "$(id -u)" -eq 0 ]; then
    chown nobody "$PG_DIR" && PG_AS=(runuser -u nobody --)
  fi
  # --no-locale -E UTF8: initdb takes its locale from LANG/LC_* otherwise and
  # refuses one the machine lacks (a fresh root has no locales; ssh forwards
  # the client's LANG); C also orders text bytewise, as SQLite does.
  "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U fleet -A trust -N --no-locale -E UTF8 >"$PG_DIR/initdb.log" 2>&1 ||
    { PG_ERR="initdb: $(tail -3 "$PG_DIR/initdb.log")"; return 1; }
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses='' -k $PG_DIR $*" start >/dev/null 2>&1 ||
    { PG_ERR="server start: $(tail -3 "$PG_DIR/server.log" 2>/dev/null)"; return 1; }
}

pg_temp_uri() { echo "postgresql://fleet@/$1?host=$PG_DIR"; }

pg_temp_psql() { /usr/bin/psql -X -q -h "$PG_DIR" -U fleet "$@"; }

pg_temp_stop() {
  [ -n "$PG_DIR" ] || return 0
  [ -f "$PG_DIR/data/postmaster.pid" ] &&
    "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$PG_DIR"
  PG_DIR=
}
