#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~40s
# `baretop-host fleet --db postgresql://...` against a real PostgreSQL 15
# server (Debian's postgresql-15, installed by tools/setup.sh), side by side
# with the SQLite engine. The server is made in a temporary folder by
# initdb, run by an unprivileged user (nobody when the suite runs as root),
# listening on a unix socket only (listen_addresses = ''), and stopped on
# every exit path (trap EXIT, also when a check fails). The fleet: 2
# machines replayed by gen-fleet.py (the simulated PMU, as step 72), grown
# by clone-fleet.py (from the first, ordinary one) to 220 machines x 2 results files (SIMULATED, node
# values with a +-2 % per-machine spread, one planted outlier: DRAM_Bound
# 40 % larger), plus gen-fleet.py's truncated and malformed files.
# Checks, against the files and SQLite's own tables (not the tool's output):
#   - both engines import every good file, name and skip the two bad ones
#     (status 3), and hold the same rows per table and the same values
#     (every node value and event median, through the views);
#   - importing again into PostgreSQL adds nothing;
#   - two importers at once on overlapping folders (machines 0-149, and
#     0-79 with 150-219: both start on the same 80 machines at the same
#     moment) store each run once, neither fails, and their "imported"
#     counts add up to the number of runs;
#   - the summary CSV of both engines is the same, byte for byte;
#   - the planted outlier stands out on DRAM_Bound, in both;
#   - --node, --outliers and both: the same text and CSV from both engines,
#     the rows the full summary's CSV has for them; a misspelled --node
#     refused by both with the nearest name.
# Without postgresql-15 the step is skipped (77) with the reason.
set -uo pipefail
. tools/pg-temp.sh
if ! pg_temp_available; then
  echo "skip: no PostgreSQL 15 server ($PG_BIN/initdb): install postgresql-15 (tools/setup.sh)"; exit 77
fi
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'pg_temp_stop; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP   # through the EXIT trap, too
fail=0
# fsync off: a test server in a temporary folder, thrown away after
pg_temp_start -c fsync=off || { echo "FAIL PostgreSQL: $PG_ERR"; exit 1; }
psql() { pg_temp_psql "$@"; }
for db in fleet again conc; do
  psql -d postgres -c "CREATE DATABASE $db" >/dev/null || { echo "FAIL CREATE DATABASE $db"; exit 1; }
done
uri() { pg_temp_uri "$1"; }
echo "ok   PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') started as $("${PG_AS[@]}" id -un) in a temporary folder, unix socket only"

python3 tests/suite/lib/gen-fleet.py "$bin" "$work/src" --machines 2 >"$work/src.json" || { echo "FAIL generator"; exit 1; }
python3 tests/suite/lib/clone-fleet.py "$work/src" "$work/fleet" 220 87 >"$work/desc.json" || { echo "FAIL clone"; exit 1; }
cp -r "$work/src/bad" "$work/fleet/bad"

"$bin" fleet "$work/fleet" --db "$work/fleet.db" --csv "$work/sqlite.csv" >"$work/sq.out" 2>"$work/sq.err"; sq_rc=$?
"$bin" fleet "$work/fleet" --db "$(uri fleet)" --csv "$work/pg.csv" >"$work/pg.out" 2>"$work/pg.err"; pg_rc=$?
python3 - "$work" "$sq_rc" "$pg_rc" <<'PY' || fail=1
import json, sqlite3, subprocess, sys, os
work, sq_rc, pg_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
desc = json.load(open(f'{work}/desc.json'))
tables = ('machines', 'firmware', 'runs', 'workloads', 'events', 'nodes')
db = sqlite3.connect(f'{work}/fleet.db')
sq = {t: db.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0] for t in tables}
bad = 0
for name, rc in (('SQLite', sq_rc), ('PostgreSQL', pg_rc)):
    err = open(f'{work}/{"sq" if name == "SQLite" else "pg"}.err').read()
    named = sum(f'bad/{f}' in err for f in ('000007.json', '000008.json'))
    if rc != 3 or named != 2:
        print(f'FAIL {name}: status {rc} (want 3: files skipped), {named} of 2 bad files named: {err[-300:]}'); bad = 1
if sq['runs'] != desc['files'] or sq['machines'] != len(desc['machines']):
    print(f'FAIL SQLite holds {sq["runs"]} runs of {sq["machines"]} machines, want {desc["files"]} of {len(desc["machines"])}'); bad = 1
print(f'ok   {len(desc["machines"])} machines, {desc["files"]} results files imported into SQLite; the 2 bad files named and skipped (status 3) by both engines')
sys.exit(bad)
PY
pg_counts() {
  psql -d "$1" -At -F ' ' -c "SELECT (SELECT COUNT(*) FROM machines), (SELECT COUNT(*) FROM firmware), (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM workloads), (SELECT COUNT(*) FROM events), (SELECT COUNT(*) FROM nodes)"
}
sq_counts=$(python3 -c "import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); print(' '.join(str(db.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0]) for t in ('machines','firmware','runs','workloads','events','nodes')))" "$work/fleet.db")
pg1=$(pg_counts fleet)
[ "$pg1" = "$sq_counts" ] && echo "ok   PostgreSQL holds the same rows as SQLite (machines firmware runs workloads events nodes: $pg1)" ||
  { echo "FAIL rows: PostgreSQL $pg1, SQLite $sq_counts"; fail=1; }
# every node value and event median, row for row (PostgreSQL keeps them as
# arrays per workload, SQLite as rows: the views must read the same)
psql -d fleet -At -F '|' -c "SELECT r.run_id, w.position, n.node, n.kind, n.level, n.parent, n.state, n.value, n.thresh FROM nodes n JOIN workloads w USING (workload_id) JOIN runs r USING (run_id)" >"$work/pg.nodes"
psql -d fleet -At -F '|' -c "SELECT r.run_id, w.position, e.event, e.median, e.counter_group FROM events e JOIN workloads w USING (workload_id) JOIN runs r USING (run_id)" >"$work/pg.events"
python3 - "$work/fleet.db" "$work/pg.nodes" "$work/pg.events" <<'PY' || fail=1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def norm(row, floats):
    return tuple('' if v is None else (float(v) if i in floats else str(v)) for i, v in enumerate(row))
def pg(path, floats):
    out = []
    for line in open(path):
        f = line.rstrip('\n').split('|')
        out.append(tuple(float(x) if i in floats and x != '' else x for i, x in enumerate(f)))
    return sorted(out)
sq_n = sorted(norm(r, {7}) for r in db.execute('SELECT r.run_id, w.position, n.node, n.kind, n.level, n.parent, n.state, n.value, n.thresh FROM nodes n JOIN workloads w USING (workload_id) JOIN runs r USING (run_id)'))
sq_e = sorted(norm(r, {3}) for r in db.execute('SELECT r.run_id, w.position, e.event, e.median, e.counter_group FROM events e JOIN workloads w USING (workload_id) JOIN runs r USING (run_id)'))
pg_n, pg_e = pg(sys.argv[2], {7}), pg(sys.argv[3], {3})
if sq_n != pg_n or sq_e != pg_e:
    print(f'FAIL stored values differ between the engines: nodes {len(sq_n)} vs {len(pg_n)}, events {len(sq_e)} vs {len(pg_e)}'); sys.exit(1)
print(f'ok   every stored value the same in both engines: {len(pg_n)} node values (state, flag), {len(pg_e)} event medians')
PY
"$bin" fleet "$work/fleet" --db "$(uri fleet)" --quiet >"$work/pg2.out" 2>/dev/null
pg2=$(pg_counts fleet)
if [ "$pg2" = "$pg1" ] && grep -q ' 0 imported' "$work/pg2.out"; then
  echo "ok   importing again into PostgreSQL adds nothing: $(grep '^import' "$work/pg2.out" | sed 's/  */ /g')"
else
  echo "FAIL second import: rows $pg1 -> $pg2; $(grep '^import' "$work/pg2.out")"; fail=1
fi
if cmp -s "$work/sqlite.csv" "$work/pg.csv" && [ -s "$work/pg.csv" ]; then
  echo "ok   the same summary from both engines: $(($(wc -l <"$work/pg.csv") - 1)) CSV rows identical (medians, MADs, shifts, outliers; PostgreSQL computed them in SQL)"
else
  echo "FAIL the summaries differ: $(diff "$work/sqlite.csv" "$work/pg.csv" | head -4)"; fail=1
fi
python3 - "$work/desc.json" "$work/sqlite.csv" "$work/pg.csv" <<'PY' || fail=1
import csv, json, sys
desc = json.load(open(sys.argv[1]))
bad = 0
for name, p in (('SQLite', sys.argv[2]), ('PostgreSQL', sys.argv[3])):
    out = {}
    for r in csv.DictReader(open(p)):
        if r['firmware'] == '(fleet)' and r['outlier_machines']:
            for m in r['outlier_machines'].split(';'):
                out.setdefault(m.rsplit(' (', 1)[0], set()).add(r['node'])
    if 'DRAM_Bound' not in out.get(desc['outlier'], set()) or set(out) != {desc['outlier']}:
        print(f'FAIL {name}: machines that stand out {sorted(out)}; want only {desc["outlier"]} on DRAM_Bound'); bad = 1
    else:
        print(f'ok   {name}: the planted outlier stands out on DRAM_Bound ({", ".join(sorted(out[desc["outlier"]]))}), no other machine')
sys.exit(bad)
PY
# --node and --outliers: the same text (but the database's name) and CSV
# from both engines; against the full summary's CSV: --node keeps exactly
# that node's rows, --outliers exactly the rows where machines or a group
# stand out; a misspelled node is refused by both (status 2, the nearest name)
for opt in "--node DRAM_Bound" "--outliers" "--node DRAM_Bound --outliers" "--node DRAM_Bnd"; do
  tag=$(echo "$opt" | tr -c 'A-Za-z_\n' '_')
  # shellcheck disable=SC2086
  "$bin" fleet --db "$work/fleet.db" $opt --csv "$work/sq$tag.csv" >"$work/sq$tag.txt" 2>&1; r1=$?
  # shellcheck disable=SC2086
  "$bin" fleet --db "$(uri fleet)" $opt --csv "$work/pg$tag.csv" >"$work/pg$tag.txt" 2>&1; r2=$?
  python3 - "$work" "$tag" "$opt" "$r1" "$r2" "$work/fleet.db" "$(uri fleet)" <<'PY' || fail=1
import csv, os, sys
work, tag, opt, r1, r2, sqdb, pguri = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
text = [open(f'{work}/{e}{tag}.txt').read().replace(db, 'DB') for e, db in (('sq', sqdb), ('pg', pguri))]
if r1 != r2 or text[0] != text[1]:
    print(f'FAIL {opt}: SQLite status {r1}, PostgreSQL {r2}; texts {"equal" if text[0] == text[1] else "differ"}'); sys.exit(1)
if opt == '--node DRAM_Bnd':
    ok = r1 == 2 and "did you mean 'DRAM_Bound'?" in text[0]
    print(f'{"ok  " if ok else "FAIL"} {opt}: both engines refuse it (status {r1}) with the nearest name: {[l for l in text[0].splitlines() if "did you mean" in l][0]}')
    sys.exit(0 if ok else 1)
csvs = [open(f'{work}/{e}{tag}.csv').read() for e in ('sq', 'pg')]
full = list(csv.DictReader(open(f'{work}/sqlite.csv')))
want = [r for r in full if '--node' not in opt or r['node'] == opt.split()[1]]
if '--outliers' in opt:
    # the group rows where a machine or the group stands out, each block's
    # fleet row where a machine stands out or ahead of such a group row
    blk = lambda r: (r['workload'], r['params'], r['model'], r['node'])
    sel = lambda r: r['firmware'] != '(fleet)' and (int(r['outliers']) > 0 or r['group_stands_out'] == 'yes')
    shown = {blk(r) for r in want if sel(r) or (r['firmware'] == '(fleet)' and int(r['outliers']) > 0)}
    want = [r for r in want if blk(r) in shown and (r['firmware'] == '(fleet)' or sel(r))]
got = list(csv.DictReader(open(f'{work}/sq{tag}.csv')))
if csvs[0] != csvs[1] or not got:
    print(f'FAIL {opt}: the CSVs of the engines differ or are empty'); sys.exit(1)
ok = got == want
print(f'{"ok  " if ok else "FAIL"} {opt}: the same text and CSV from both engines (status {r1}), {len(got)} CSV rows, as the full summary has them')
sys.exit(0 if ok else 1)
PY
done
# two importers at once on overlapping folders: machines 0-149, and 0-79
# with 150-219 (both walk in sorted order, so both start on the shared 80)
mkdir -p "$work/a" "$work/b"
for d in "$work/fleet/esp-"*; do
  j=$((10#${d##*esp-}))
  [ "$j" -lt 150 ] && ln -s "$d" "$work/a/${d##*/}"
  { [ "$j" -lt 80 ] || [ "$j" -ge 150 ]; } && ln -s "$d" "$work/b/${d##*/}"
done
# the walk does not follow links to folders: give it real paths
"$bin" fleet $(readlink -f "$work"/a/*) --db "$(uri conc)" --import-only >"$work/ca.out" 2>"$work/ca.err" & pa=$!
"$bin" fleet $(readlink -f "$work"/b/*) --db "$(uri conc)" --import-only >"$work/cb.out" 2>"$work/cb.err" & pb=$!
wait $pa; ra=$?; wait $pb; rb=$?
python3 - "$work" "$ra" "$rb" "$(psql -d conc -At -c 'SELECT COUNT(*), COUNT(DISTINCT run_id) FROM runs')" <<'PY' || fail=1
import json, re, sys
work, ra, rb, counts = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
runs, distinct = map(int, counts.split('|'))
desc = json.load(open(f'{work}/desc.json'))
imp = [re.search(r'(\d+) results files: (\d+) imported, (\d+) already', open(f'{work}/c{x}.out').read()) for x in 'ab']
errs = open(f'{work}/ca.err').read() + open(f'{work}/cb.err').read()
if None in imp or ra != 0 or rb != 0 or errs.strip():   # --import-only: 0 when nothing was skipped
    print(f'FAIL concurrent importers: status {ra} {rb}, stderr {errs[-400:]!r}'); sys.exit(1)
files = [int(m.group(1)) for m in imp]; done = [int(m.group(2)) for m in imp]; already = [int(m.group(3)) for m in imp]
if files != [300, 300] or runs != distinct or runs != desc['files'] or sum(done) != runs:
    print(f'FAIL concurrent importers: {files} files, imported {done}, already {already}; runs {runs} ({distinct} distinct), want {desc["files"]}'); sys.exit(1)
print(f'ok   two importers at once on overlapping folders (300 files each, 160 in both, started together): imported {done[0]} + {done[1]} = {runs} runs, '
      f'{already[0]} + {already[1]} already there, each run stored once, no error (status {ra}, {rb})')
PY
exit $fail
