#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks one `baretop-host fleet` import (tests/suite/72-fleet.sh) against the
generator's description (gen-fleet.py), the results files themselves, and
the database read with Python's sqlite3 module.

  check-fleet.py DESC.json FLEET.db SUMMARY.csv STDERR STATUS SCHEMA.md
"""
import csv, glob, json, os, re, sqlite3, statistics, sys

desc_p, db_p, csv_p, err_p, status, doc_p = sys.argv[1:7]
desc = json.load(open(desc_p))
err = open(err_p).read()
fail = 0


def bad(msg):
    global fail
    print('FAIL ' + msg)
    fail = 1


# 1. skipped files, by name; the status says some were skipped
for key in ('truncated', 'malformed'):
    if f"skipped {desc[key]}" not in err:
        bad(f'{key} file not named as skipped: {err[:300]}')
if status != '3':
    bad(f'status {status}, want 3 (done, files skipped)')
if not fail:
    print(f"ok   truncated and malformed files named and skipped, status 3: "
          f"{os.path.basename(desc['truncated'])}, {os.path.basename(desc['malformed'])}")

# 2. rows as the files say
db = sqlite3.connect(db_p)
files = [p for p in glob.glob(os.path.join(os.path.dirname(desc['old_dir']), '**', '*.json'), recursive=True)
         if p not in (desc['truncated'], desc['malformed'])]
docs = [json.load(open(p)) for p in files]
want = {'runs': len(docs), 'machines': len(desc['machines']) + 1,   # + the older files' one machine
        'workloads': sum(len(d['run']['workloads']) for d in docs),
        'nodes': sum(len(w['counted']['tree']['nodes']) for d in docs for w in d['run']['workloads']),
        'events': sum(len(w['counted']['events']) for d in docs for w in d['run']['workloads'])}
got = {t: db.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0] for t in want}
if len(docs) < 50 or got != want:
    bad(f'rows {got}, want {want} ({len(docs)} files)')
else:
    print(f'ok   {len(docs)} results files imported: rows {got}')
nosmbios = db.execute("SELECT machine_key, COUNT(*) FROM machines JOIN runs USING (machine_id)"
                      " WHERE identity = 'no SMBIOS identity' GROUP BY machine_key").fetchall()
content = db.execute("SELECT COUNT(*) FROM runs WHERE run_id_source = 'content hash'"
                     " AND run_id LIKE 'content:%'").fetchone()[0]
if len(nosmbios) != 1 or nosmbios[0][1] != 2 or content != 2:
    bad(f'older files: want one machine without SMBIOS identity with 2 runs keyed by content hash: '
        f'{nosmbios}, {content}')
else:
    print(f'ok   the 2 older files (no machine section, no run_id): machine {nosmbios[0][0]}, run ids by content hash')
# runs.secure_boot: the generator's machines as it made them; NULL for the
# older files, which have no machine section
sb = dict(db.execute("SELECT machine_key, GROUP_CONCAT(DISTINCT IFNULL(secure_boot, 'NULL'))"
                     " FROM runs JOIN machines USING (machine_id) GROUP BY machine_key").fetchall())
want_sb = {m['key']: str(m['secure_boot']) for m in desc['machines']}
if {k: sb.get(k) for k in want_sb} != want_sb or sb.get(nosmbios[0][0] if nosmbios else None) != 'NULL':
    bad(f'runs.secure_boot: {sb}, want {want_sb} and NULL for the older files')
else:
    print(f"ok   runs.secure_boot: {sum(v == '1' for v in want_sb.values())} machines enforced, "
          f"{sum(v == '0' for v in want_sb.values())} not, NULL for the older files")
ids = {d['run_id'] for d in docs if 'run_id' in d}
stored = {r[0] for r in db.execute("SELECT run_id FROM runs WHERE run_id_source = 'results file'")}
if ids != stored:
    bad(f'run ids differ: {len(ids ^ stored)}')

# 3. outliers: exactly the injected machine
rows = list(csv.DictReader(open(csv_p)))
fleet_rows = [r for r in rows if r['firmware'] == '(fleet)']
flagged = {}
for r in fleet_rows:
    for m in filter(None, r['outlier_machines'].split(';')):
        flagged.setdefault(m.rsplit(' (', 1)[0], []).append(f"{r['workload']}/{r['node']}")
if set(flagged) != {desc['outlier']}:
    bad(f"machines that stand out: {sorted(flagged)}, want only {desc['outlier']}")
elif 'multiply1/DRAM_Bound' not in flagged[desc['outlier']]:
    bad(f"the outlier does not stand out on multiply1 DRAM_Bound: {flagged[desc['outlier']]}")
else:
    print(f"ok   exactly 1 of {len(desc['machines']) + 1} machines stands out, the injected one "
          f"({desc['outlier']}), on {len(flagged[desc['outlier']])} nodes incl. multiply1/DRAM_Bound")

# 4. the fleet median of DRAM_Bound from the files themselves; groups
for wl in desc['workloads']:
    per_machine = {}
    for d in docs:
        key = ('uuid:' + d['machine']['smbios']['system']['uuid']) if 'machine' in d else 'old'
        for w in d['run']['workloads']:
            v = w['counted']['tree']['nodes']['DRAM_Bound']['value']
            if w['name'] == wl and v is not None:
                per_machine.setdefault(key, []).append(v)
    vals = [statistics.median(v) for v in per_machine.values()]
    med = statistics.median(vals)
    mad = statistics.median(abs(v - med) for v in vals)
    row = [r for r in fleet_rows if r['workload'] == wl and r['node'] == 'DRAM_Bound']
    if len(row) != 1 or abs(float(row[0]['median']) - med) > 1e-5 * med or \
            abs(float(row[0]['mad']) - mad) > 1e-2 * mad or int(row[0]['machines']) != len(vals):
        bad(f'{wl} DRAM_Bound: {row}, want median {med:.6g} MAD {mad:.3g} over {len(vals)} machines')
    else:
        print(f'ok   {wl} DRAM_Bound: fleet median {med:.6g}, MAD {mad:.3g} over {len(vals)} machines, '
              f'as statistics.median over the files')
made = {(m['firmware'], m['microcode']) for m in desc['machines']}
groups = {(r['firmware'], r['microcode']) for r in rows if r['firmware'] != '(fleet)' and r['microcode'] != '(any)'}
any_groups = {r['firmware'] for r in rows if r['microcode'] == '(any)'}
if any_groups != {m['firmware'] for m in desc['machines']}:
    bad(f'firmware-only groups {sorted(any_groups)}, want every generated version (each has 2 microcodes)')
old = groups - made
if made - groups or len(old) != 1:
    bad(f'groups {sorted(groups)}, want {sorted(made)} and one of the older files')
else:
    print(f'ok   {len(made)} firmware x microcode groups as generated (+ {sorted(old)[0]} of the older files)')
out_groups = {(r['firmware'], r['microcode']) for r in rows if r['firmware'] != '(fleet)' and r['outliers'] != '0'}
om = next(m for m in desc['machines'] if 'uuid:' + m['uuid'] == desc['outlier'])
if out_groups != {(om['firmware'], om['microcode']), (om['firmware'], '(any)')}:
    bad(f'group rows with outliers: {out_groups}, want the outlier\'s group only')
else:
    print(f"ok   the outlier is listed under its group only: {om['firmware']} / {om['microcode']}")

# 4b. the firmware regression shows up as its groups, on DRAM_Bound of multiply1
reg = desc['regressed_firmware']
for wl in desc['workloads']:
    out = {(r['firmware'], r['microcode']) for r in rows if r['workload'] == wl and r['node'] == 'DRAM_Bound'
           and r['firmware'] != '(fleet)' and r['group_stands_out'] == 'yes'}
    want = {(reg, '(any)')}   # the version as a whole; each microcode half may or may not
    if wl == 'multiply1' and not want <= out:
        bad(f'{wl} DRAM_Bound: groups that stand out {sorted(out)}, want the regressed firmware\'s {sorted(want)}')
    elif any(g[0] != reg for g in out):
        bad(f'{wl} DRAM_Bound: groups that stand out {sorted(out)}, only {reg} may')
    else:
        shifts = [r['shift_mads'] for r in rows if r['workload'] == wl and r['node'] == 'DRAM_Bound'
                  and r['firmware'] == reg]
        print(f'ok   {wl} DRAM_Bound: groups that stand out {sorted(out)} (firmware regression {reg}, shifts '
              f'{", ".join(shifts)} MADs), though none of their machines stands out alone')

# 5. the schema is documented: every table and column
doc = open(doc_p).read()
missing = []
sections = {m.group(1): m.group(2) for m in re.finditer(r'^### `(\w+)`\n(.*?)(?=^#|\Z)', doc, re.M | re.S)}
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
    if t not in sections:
        missing.append(t)
        continue
    for c in db.execute(f'PRAGMA table_info({t})'):
        if not re.search(r'^\|\s*`' + re.escape(c[1]) + r'`\s*\|', sections[t], re.M):
            missing.append(f'{t}.{c[1]}')
if missing:
    bad(f'not in {doc_p}: {missing}')
else:
    print(f'ok   every table and column of the database is documented in {doc_p}')
sys.exit(fail)
