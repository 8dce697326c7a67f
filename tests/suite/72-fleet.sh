#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tier: host ~9s
# `baretop-host fleet` over a SIMULATED fleet (tests/suite/lib/gen-fleet.py:
# 26 machines x 2 workloads from `run --sim=skl --counts` with per-machine
# perturbed counts, 3 firmware versions (one a regression: 5 % longer DRAM
# stalls), 2 microcode revisions, one machine with 40 % more DRAM stall cycles; two files of an older baretop without
# machine identity; one truncated and one malformed file). Checks, against
# the generator's own description and Python's statistics and sqlite3
# modules (not the tool's output):
#   - the truncated and the malformed file are named and skipped (status 3),
#     every other file imported; rows per table as the files say;
#   - the machines that stand out are exactly the injected outlier, and it
#     stands out on DRAM_Bound; with --k 1 other machines stand out too (the
#     check can fail);
#   - the firmware version made 5 % slower (a regression too small for any
#     one machine to stand out) stands out as its groups on DRAM_Bound;
#   - the fleet median of DRAM_Bound equals statistics.median over the
#     results files' own values; every group row is one (firmware,
#     microcode) pair the generator made;
#   - a second import adds nothing (row counts equal);
#   - every row says its values are SIMULATED (CSV provenance, the text
#     table after the node), and a fleet of one measured and one simulated
#     file says "SIMULATED in 1 of 2 runs";
#   - runs.secure_boot as each machine's files say (NULL for the older
#     files); a schema 1 database is upgraded in place (the column added,
#     its nodes and events moved into the compact tables of schema 4), and
#     so is a schema 3 one (node states as text moved into node_states);
#   - every table and column of the database is in docs/fleet-schema.md;
#   - identity (lib/check-fleet-identity.py, planted cases): machines sharing
#     AMI's placeholder SMBIOS UUID are told apart by serial, or by firmware
#     and microcode when their serials are placeholders too, the shared UUID
#     is named; two files of a run id already stored are counted once and
#     each is named with the file its run was stored from.
set -uo pipefail
make -s -j"$(nproc)" host >/dev/null || { echo "FAIL build"; exit 1; }
bin=$PWD/build/baretop-host
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
python3 tests/suite/lib/gen-fleet.py "$bin" "$work/fleet" >"$work/desc.json" || { echo "FAIL generator"; exit 1; }
"$bin" fleet "$work/fleet" --db "$work/fleet.db" --csv "$work/summary.csv" >"$work/out" 2>"$work/err"
rc=$?
python3 tests/suite/lib/check-fleet.py "$work/desc.json" "$work/fleet.db" "$work/summary.csv" "$work/err" "$rc" \
  docs/fleet-schema.md || fail=1
python3 tests/suite/lib/check-fleet-identity.py "$bin" "$work/fleet" "$work" || fail=1
cp "$work/fleet.db" "$work/before.db"
"$bin" fleet "$work/fleet" --db "$work/fleet.db" --quiet >"$work/out2" 2>"$work/err2"
python3 - "$work/before.db" "$work/fleet.db" "$work/out2" <<'PY' || fail=1
import sqlite3, sys
def counts(p):
    db = sqlite3.connect(p)
    return {t: db.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0]
            for t in ('machines', 'firmware', 'runs', 'workloads', 'events', 'nodes')}
a, b = counts(sys.argv[1]), counts(sys.argv[2])
out = open(sys.argv[3]).read()
if a != b or ' 0 imported' not in out:
    print(f'FAIL second import changed the database: {a} -> {b}'); sys.exit(1)
print(f'ok   importing again adds nothing: rows {b}')
PY
# A database of schema 1 (no runs.secure_boot; nodes and events as tables
# with every name in every row) is upgraded in place when opened: the column
# is added, NULL for its runs, its node values and event medians move into
# the compact tables of schema 4, and a new import fills the rest.
python3 - "$work/before.db" "$work/v1.db" <<'PY' || fail=1
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
keep = "(SELECT run_id FROM runs ORDER BY run_id LIMIT 5)"
wl = f"(SELECT workload_id FROM workloads WHERE run_id IN {keep})"
db.execute(f'CREATE TABLE nodes_old AS SELECT * FROM nodes WHERE workload_id IN {wl}')
db.execute('CREATE TABLE events_old AS SELECT workload_id, event, median, NULL AS min, NULL AS max, NULL AS raw_median,'
           f' NULL AS overhead, counter_group FROM events WHERE workload_id IN {wl}')
for v in ('nodes', 'events'): db.execute(f'DROP VIEW {v}')
for t in ('node_values', 'event_values', 'node_names', 'event_names', 'node_states'): db.execute(f'DROP TABLE {t}')
db.execute('ALTER TABLE nodes_old RENAME TO nodes'); db.execute('ALTER TABLE events_old RENAME TO events')
db.execute(f'DELETE FROM workloads WHERE run_id NOT IN {keep}')
db.execute(f"DELETE FROM runs WHERE run_id NOT IN {keep}")
db.execute('ALTER TABLE runs DROP COLUMN secure_boot'); db.execute('PRAGMA user_version = 1')
db.commit()
PY
"$bin" fleet "$work/fleet" --db "$work/v1.db" --quiet >/dev/null 2>"$work/v1.err"
python3 - "$work/v1.db" "$work/before.db" <<'PY' || fail=1
import sqlite3, sys
db, ref = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
v = db.execute('PRAGMA user_version').fetchone()[0]
cols = [r[1] for r in db.execute('PRAGMA table_info(runs)')]
null_old = db.execute('SELECT COUNT(*) FROM runs WHERE secure_boot IS NULL').fetchone()[0]
filled = db.execute('SELECT COUNT(*) FROM runs WHERE secure_boot IS NOT NULL').fetchone()[0]
if v != 4 or 'secure_boot' not in cols or null_old != 5 + 2 or filled != 52 - 5:   # 52 files with a machine section, 5 kept from before
    print(f'FAIL schema 1 upgrade: user_version {v}, columns {cols}, NULL {null_old}, set {filled}'); sys.exit(1)
q = ('SELECT r.run_id, w.position, n.node, n.kind, n.level, n.parent, n.state, n.value, n.thresh FROM nodes n'
     ' JOIN workloads w USING (workload_id) JOIN runs r USING (run_id) ORDER BY 1, 2, 3')
qe = ('SELECT r.run_id, w.position, e.event, e.median, e.counter_group FROM events e'
      ' JOIN workloads w USING (workload_id) JOIN runs r USING (run_id) ORDER BY 1, 2, 3')
if db.execute(q).fetchall() != ref.execute(q).fetchall() or db.execute(qe).fetchall() != ref.execute(qe).fetchall():
    print('FAIL schema 1 upgrade: node values or event medians differ from a fresh import'); sys.exit(1)
print(f'ok   a schema 1 database is upgraded to 4: secure_boot added, NULL for its {null_old - 2} runs '
      f'(and the 2 older files), set for the {filled} imported after; its node values and event medians moved '
      f'into the compact tables, every row as a fresh import has it')
PY
# a schema 3 database (node states as text in every node_values row) is
# upgraded in place: the states into node_states, every row as before
python3 - "$work/before.db" "$work/v3.db" <<'PY' || fail=1
import shutil, sqlite3, sys
shutil.copy(sys.argv[1], sys.argv[2])
db = sqlite3.connect(sys.argv[2])
db.executescript("""
CREATE TABLE nv3 AS SELECT v.workload_id, v.name_id, s.state, v.value, v.thresh
  FROM node_values v LEFT JOIN node_states s USING (state_id);
DROP VIEW nodes; DROP TABLE node_values; DROP TABLE node_states;
CREATE TABLE node_values (workload_id INTEGER NOT NULL REFERENCES workloads(workload_id),
  name_id INTEGER NOT NULL REFERENCES node_names(name_id), state TEXT, value REAL, thresh INTEGER,
  PRIMARY KEY (workload_id, name_id)) WITHOUT ROWID;
INSERT INTO node_values SELECT * FROM nv3; DROP TABLE nv3;
CREATE VIEW nodes AS SELECT v.workload_id, n.node, NULLIF(n.kind, '') AS kind, n.level,
  NULLIF(n.parent, '') AS parent, v.state, v.value, v.thresh
  FROM node_values v JOIN node_names n ON n.name_id = v.name_id;
PRAGMA user_version = 3;
""")
db.commit()
PY
"$bin" fleet --db "$work/v3.db" --quiet >/dev/null 2>"$work/v3.err"
python3 - "$work/v3.db" "$work/before.db" <<'PY' || fail=1
import sqlite3, sys
db, ref = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
v = db.execute('PRAGMA user_version').fetchone()[0]
cols = [r[1] for r in db.execute('PRAGMA table_info(node_values)')]
q = ('SELECT r.run_id, w.position, n.node, n.kind, n.level, n.parent, n.state, n.value, n.thresh FROM nodes n'
     ' JOIN workloads w USING (workload_id) JOIN runs r USING (run_id) ORDER BY 1, 2, 3')
a, b = db.execute(q).fetchall(), ref.execute(q).fetchall()
states = sorted(r[0] for r in db.execute('SELECT state FROM node_states'))
if v != 4 or 'state_id' not in cols or 'state' in cols or a != b or not a:
    print(f'FAIL schema 3 upgrade: user_version {v}, node_values columns {cols}, {len(a)} rows vs {len(b)}'); sys.exit(1)
print(f'ok   a schema 3 database is upgraded to 4: {len(a)} node values, states {states} stored once, every row as before')
PY
"$bin" fleet --db "$work/fleet.db" --k 1 --csv "$work/k1.csv" --quiet >/dev/null 2>&1
# the database alone (no file skipped): machines stand out, which is the
# "found something" status 1, as `diff` beyond the spread
"$bin" fleet --db "$work/fleet.db" --quiet >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && echo "ok   machines stand out, nothing skipped: status 1 (found)" ||
  { echo "FAIL fleet with outliers and nothing skipped: status $rc, want 1"; fail=1; }
python3 - "$work/desc.json" "$work/k1.csv" <<'PY' || fail=1
import csv, json, sys
desc = json.load(open(sys.argv[1]))
out = set()
for r in csv.DictReader(open(sys.argv[2])):
    if r['firmware'] == '(fleet)' and r['outlier_machines']:
        out |= {m.rsplit(' (', 1)[0] for m in r['outlier_machines'].split(';')}
if len(out - {desc['outlier']}) < 3:
    print(f'FAIL --k 1 should flag ordinary machines too (the outlier check must be able to fail): {len(out)}')
    sys.exit(1)
print(f'ok   negative case: with --k 1, {len(out)} machines stand out, so the exact-outlier check can fail')
PY
# Provenance: the generated fleet is simulated; a file edited to read as
# measured makes a mixed fleet.
python3 - "$work/summary.csv" "$work/out" <<'PY' || fail=1
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r.get('provenance') != 'SIMULATED']
heads = re.findall(r'^\S+(?: \([^)]*\))?  \S+  \S+.*: \d+ machines', open(sys.argv[2]).read(), re.M)
unsaid = [h for h in heads if '(SIMULATED)' not in h]
if not rows or bad or not heads or unsaid:
    print(f'FAIL provenance: {len(bad)} CSV rows, {len(unsaid)} text rows not SIMULATED'); sys.exit(1)
print(f'ok   all {len(rows)} CSV rows and {len(heads)} text rows say SIMULATED')
PY
mkdir -p "$work/mixed"
first=$(find "$work/fleet" -name '*.json' -path '*results*' | sort | head -1)
cp "$first" "$work/mixed/sim.json"
python3 - "$first" "$work/mixed/measured.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# every provenance label the file carries (a reader refuses a file whose
# labels disagree): the flags, the simulated PMU's name, the input and time lines
d['run']['counting'].pop('simulated_counts', None)
def unsim(o):
    if isinstance(o, dict):
        for k in o:
            if k == 'simulated' and isinstance(o[k], bool): o[k] = False
            elif k == 'pmu' and isinstance(o[k], str) and o[k].startswith('baretop sim'): o[k] = 'Intel perfmon v4'
            elif k == 'input' and isinstance(o[k], str) and o[k].startswith('SIMULATED'):
                o[k] = 'counted by the Intel perfmon v4 PMU of CPU 0 (median of 5 runs per group)'
            elif k == 'time' and isinstance(o[k], str) and o[k].startswith('simulated:'):
                o[k] = 'measured: TSC ticks of the CPU'
            elif k == 'run_id' and isinstance(o[k], str): o[k] += '-measured'
            else: unsim(o[k])
    elif isinstance(o, list):
        for x in o: unsim(x)
unsim(d)
json.dump(d, open(sys.argv[2], 'w'))
PY
"$bin" fleet "$work/mixed" --db "$work/mixed.db" --csv "$work/mixed.csv" --quiet >/dev/null 2>&1
python3 - "$work/mixed.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
prov = {r['provenance'] for r in rows if r['firmware'] == '(fleet)'}
if prov != {'SIMULATED in 1 of 2 runs'}:
    print(f'FAIL a mixed fleet: provenance {prov}'); sys.exit(1)
print('ok   a fleet of one measured and one simulated file: SIMULATED in 1 of 2 runs')
PY
# --outliers: only the rows where a machine or a group stands out. Expected
# from the full CSV of the same database (not from the option's own output):
# its rows with outliers > 0 or group_stands_out = yes, plus the fleet row of
# each such group.
"$bin" fleet --db "$work/fleet.db" --csv "$work/all.csv" --quiet >/dev/null 2>&1
"$bin" fleet --db "$work/fleet.db" --csv "$work/outl.csv" --outliers --quiet >/dev/null 2>&1
python3 - "$work/all.csv" "$work/outl.csv" <<'PY' || fail=1
import csv, sys
key = lambda r: tuple(r[c] for c in ('workload', 'params', 'model', 'node', 'firmware', 'microcode'))
full = list(csv.DictReader(open(sys.argv[1])))
got = [key(r) for r in csv.DictReader(open(sys.argv[2]))]
want, fleet_row = [], None
for r in full:
    if r['firmware'] == '(fleet)':
        fleet_row, shown = r, False
        if int(r['outliers']) > 0:
            want.append(key(r)); shown = True
    elif int(r['outliers']) > 0 or r['group_stands_out'] == 'yes':
        if not shown:
            want.append(key(fleet_row)); shown = True
        want.append(key(r))
if not want or got != want or len(got) >= len(full):
    print(f'FAIL fleet --outliers: {len(got)} rows, want {len(want)} of {len(full)}'); sys.exit(1)
print(f'ok   fleet --outliers: {len(got)} of {len(full)} rows, exactly those where a machine or group stands out')
PY
"$bin" fleet --help | grep -q -- '--k K' || { echo "FAIL fleet --help"; fail=1; }
"$bin" --help | grep -q '^  fleet ' && echo "ok   baretop-host --help lists fleet" || { echo "FAIL --help lacks fleet"; fail=1; }
exit $fail
