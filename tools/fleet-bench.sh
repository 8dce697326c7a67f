#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fleet store's benchmark (issue 35), beside `make bench`: one run
# reports, for SQLite and PostgreSQL,
#   - import rate (files/s, MB/s) with 1 importer and with 2 at once (two
#     halves of the fleet; SQLite's second importer waits for the first's
#     transaction: its file has one writer),
#   - bytes per run (SQLite: the file; PostgreSQL: pg_database_size after
#     VACUUM, minus the empty database),
#   - the summary's time over those runs,
#   - PostgreSQL only: the summary's time over RUNS runs made in the
#     database with generate_series (SIMULATED values: per machine a fixed
#     offset and per run noise, a few planted outliers that must be found).
# A temporary PostgreSQL 15 server (tools/pg-temp.sh) with its default
# durability (fsync on; SQLite syncs once per import).
#   tools/fleet-bench.sh RESULTS_FILE [FILES] [RUNS]
# RESULTS_FILE: one results file (e.g. `run --sim=skl --level 3` of the
# default suite), copied to FILES machines (default 1000) by
# tests/suite/lib/clone-fleet.py (new identities, node values spread +-2 %,
# one planted outlier). RUNS default 1000000. Timings are wall clock on
# whatever else the machine is doing: say so when quoting them.
set -uo pipefail
cd "$(dirname "$0")/.."
src=${1:?usage: tools/fleet-bench.sh RESULTS_FILE [FILES] [RUNS]}
files=${2:-1000}
runs=${3:-1000000}
. tools/pg-temp.sh
pg_temp_available || { echo "fleet-bench: no PostgreSQL 15 server ($PG_BIN): tools/setup.sh installs it"; exit 77; }
make -s -j2 host >/dev/null || exit 1
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'pg_temp_stop; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
pg_temp_start || { echo "fleet-bench: PostgreSQL: $PG_ERR"; exit 1; }
for db in one two; do pg_temp_psql -d postgres -c "CREATE DATABASE $db" >/dev/null; done
mkdir -p "$work/src/esp-0000/baretop/results"
cp "$src" "$work/src/esp-0000/baretop/results/000001.json"
python3 tests/suite/lib/clone-fleet.py "$work/src" "$work/fleet" "$files" 35 >"$work/desc.json" || exit 1
mb=$(du -sb "$work/fleet" | awk '{printf "%.1f", $1 / 1e6}')
half=$((files / 2))
ls -d "$work/fleet/esp-"* | sort | head -n "$half" >"$work/h1"
ls -d "$work/fleet/esp-"* | sort | tail -n +"$((half + 1))" >"$work/h2"
now() { date +%s.%N; }
rate() { awk -v n="$files" -v mb="$mb" -v t="$1" 'BEGIN { printf "%6.1f files/s %7.1f MB/s (%.1f s)", n / t, mb / t, t }'; }
echo "fleet-bench: $files results files of $(stat -c %s "$src") bytes ($mb MB in all), $(nproc) CPUs; timings are wall clock under whatever load the machine has (load average at the start: $(cut -d' ' -f1-3 /proc/loadavg))"

t0=$(now); "$bin" fleet "$work/fleet" --db "$work/one.db" --import-only >/dev/null 2>"$work/e1"; t1=$(now)
sq1=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
t0=$(now)
"$bin" fleet $(cat "$work/h1") --db "$work/two.db" --import-only >/dev/null 2>>"$work/e2" &
p=$!
"$bin" fleet $(cat "$work/h2") --db "$work/two.db" --import-only >/dev/null 2>>"$work/e2"
wait $p; t1=$(now)
sq2=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
base=$(pg_temp_psql -d one -At -c "SELECT pg_database_size('one')")
t0=$(now); "$bin" fleet "$work/fleet" --db "$(pg_temp_uri one)" --import-only >/dev/null 2>"$work/e3"; t1=$(now)
pg1=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
t0=$(now)
"$bin" fleet $(cat "$work/h1") --db "$(pg_temp_uri two)" --import-only >/dev/null 2>>"$work/e4" &
p=$!
"$bin" fleet $(cat "$work/h2") --db "$(pg_temp_uri two)" --import-only >/dev/null 2>>"$work/e4"
wait $p; t1=$(now)
pg2=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
for e in e1 e2 e3 e4; do [ -s "$work/$e" ] && { echo "fleet-bench: errors ($e):"; head -5 "$work/$e"; }; done
pg_temp_psql -d one -c "VACUUM ANALYZE" >/dev/null
pgbytes=$(( $(pg_temp_psql -d one -At -c "SELECT pg_database_size('one')") - base ))
sqbytes=$(stat -c %s "$work/one.db")
# CPU seconds of the server: the postmaster, its live children and the
# children it reaped (backends, parallel workers): proc(5) fields 14-17
pg_cpu() {
  local pm c
  pm=$(head -1 "$PG_DIR/data/postmaster.pid")
  { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pm/stat"
    for c in $(cat /proc/"$pm"/task/*/children); do awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null; done
  } | awk -v hz="$(getconf CLK_TCK)" '{ s += $1 } END { printf "%.1f", s / hz }'
}
summary() {  # DB -> "seconds (CPU: client c s, server s s)" of `fleet --db DB` (summary only), CSV in $work/$2.csv
  local t0 t1 s0 s1 cl
  s0=$(pg_cpu); t0=$(now)
  /usr/bin/time -o "$work/$2.time" -f '%U %S' "$bin" fleet --db "$1" --quiet --csv "$work/$2.csv" >/dev/null 2>"$work/$2.err"
  cl=$(tail -1 "$work/$2.time")
  t1=$(now)
  sleep 1   # the backend's CPU counts once the postmaster has reaped it
  s1=$(pg_cpu)
  awk -v a="$t0" -v b="$t1" -v c="$cl" -v s0="$s0" -v s1="$s1" \
    'BEGIN { split(c, u, " "); printf "%.1f s (CPU: client %.1f s, server %.1f s)", b - a, u[1] + u[2], s1 - s0 }'
}
sqs=$(summary "$work/one.db" sq)
pgs=$(summary "$(pg_temp_uri one)" pg)
same=$(cmp -s "$work/sq.csv" "$work/pg.csv" && echo "the same CSV from both" || echo "CSVs DIFFER")
n=$(python3 -c "import json; print(len(json.load(open('$work/desc.json'))['machines']))")
printf '%-44s %-40s %s\n' "" "SQLite" "PostgreSQL"
printf '%-44s %-40s %s\n' "import, 1 importer" "$(rate "$sq1")" "$(rate "$pg1")"
printf '%-44s %-40s %s\n' "import, 2 importers at once (halves)" "$(rate "$sq2")" "$(rate "$pg2")"
printf '%-44s %-40s %s\n' "bytes per run" "$((sqbytes / n)) ($sqbytes for $n runs)" "$((pgbytes / n)) ($pgbytes for $n runs)"
printf '%-44s %-40s %s\n' "summary, $n runs (real files)" "$sqs" "$pgs ($same)"

# RUNS runs made by the server: 1 workload (multiply1, SKL) per run, the
# level-1 nodes and DRAM_Bound; RUNS / 10 machines, 3 firmware versions, 2
# microcodes; a value is the node's base x (1 + machine offset, uniform
# +-2 %) x (1 + run noise, uniform +-0.5 %); machines 4242 and 77777 (when
# there are that many) have DRAM_Bound x 1.4: the planted outliers.
machines=$((runs / 10))
pg_temp_psql -d postgres -c "CREATE DATABASE big" >/dev/null
"$bin" fleet --db "$(pg_temp_uri big)" --import-only >/dev/null 2>&1   # the schema
t0=$(now)
pg_temp_psql -d big -v ON_ERROR_STOP=1 >/dev/null <<SQL || { echo "fleet-bench: generate_series fleet failed"; exit 1; }
SET synchronous_commit = off;
INSERT INTO firmware (firmware_key, vendor, version, release_date, source)
  SELECT 'SIMULATED|SIM-FW ' || v || '|', 'SIMULATED', 'SIM-FW ' || v, NULL, 'SMBIOS type 0'
    FROM unnest(ARRAY['1.10', '1.20', '2.00']) AS v;
INSERT INTO machines (machine_key, identity, serial)
  SELECT 'serial:SIMULATED/SIM/' || lpad(i::text, 7, '0'), 'SMBIOS system serial', lpad(i::text, 7, '0')
    FROM generate_series(0, $machines - 1) AS i;
CREATE TEMP TABLE moff AS
  SELECT machine_id, (machine_id % 3) AS fw, 1 + 0.04 * (random() - 0.5) AS off FROM machines;
INSERT INTO runs (run_id, run_id_source, machine_id, firmware_id, microcode, sequence, simulated, source_file)
  SELECT 'gen-' || r, 'results file', m.machine_id, f.firmware_id,
         CASE WHEN m.machine_id % 2 = 0 THEN '0x000000f0' ELSE '0x000000f4' END, r / $machines, 1, 'generate_series'
    FROM generate_series(0, $runs - 1) AS r
    JOIN machines m ON m.machine_id = r % $machines + (SELECT min(machine_id) FROM machines)
    JOIN firmware f ON f.version = 'SIM-FW ' || (ARRAY['1.10', '1.20', '2.00'])[m.machine_id % 3 + 1];
INSERT INTO workloads (run_id, position, name, params, cpu, state, counted, simulated, model)
  SELECT run_id, 0, 'multiply1', '', 0, 'ran', 1, 1, 'SKL' FROM runs;
INSERT INTO node_names (node, kind, level, parent) VALUES
  ('Frontend_Bound', 'tree', 1, ''), ('Bad_Speculation', 'tree', 1, ''), ('Retiring', 'tree', 1, ''),
  ('Backend_Bound', 'tree', 1, ''), ('DRAM_Bound', 'tree', 3, 'Memory_Bound') ON CONFLICT DO NOTHING;
WITH ids AS (
  SELECT array_agg(n.name_id ORDER BY x.ord) AS a FROM node_names n
    JOIN unnest(ARRAY['Frontend_Bound', 'Bad_Speculation', 'Retiring', 'Backend_Bound', 'DRAM_Bound'])
         WITH ORDINALITY AS x(node, ord) ON x.node = n.node)
INSERT INTO node_values (workload_id, name_ids, states, vals, thresh)
  SELECT w.workload_id, ids.a, ARRAY['ok', 'ok', 'ok', 'ok', 'ok'],
         ARRAY[0.08 * o.off * (1 + 0.01 * (random() - 0.5)), 0.02 * o.off * (1 + 0.01 * (random() - 0.5)),
               0.35 * o.off * (1 + 0.01 * (random() - 0.5)), 0.55 * o.off * (1 + 0.01 * (random() - 0.5)),
               0.30 * o.off * (1 + 0.01 * (random() - 0.5))
                 * CASE WHEN m.serial IN ('0004242', '0077777') THEN 1.4 ELSE 1 END],
         ARRAY[0, 0, 1, 1, 1]::smallint[]
    FROM workloads w JOIN runs r USING (run_id) JOIN moff o USING (machine_id) JOIN machines m USING (machine_id)
   CROSS JOIN ids;
VACUUM ANALYZE;
SQL
t1=$(now)
gen=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }')
bigs=$(summary "$(pg_temp_uri big)" big)
found=$(python3 - "$work/big.csv" <<'PY'
import csv, sys
out = set()
for r in csv.DictReader(open(sys.argv[1])):
    if r['firmware'] == '(fleet)' and r['outlier_machines']:
        out |= {(m.rsplit(' (', 1)[0], r['node']) for m in r['outlier_machines'].split(';')}
print('; '.join(f'{m} on {n}' for m, n in sorted(out)) or 'none')
PY
)
printf '%-44s %-40s %s\n' "summary, $runs runs (generate_series, ${gen} s to make)" "-" "$bigs"
echo "planted outliers (serial 0004242, 0077777 on DRAM_Bound); found: $found"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) (SQLite's summary is CPU in the client, PostgreSQL's in the server)"
