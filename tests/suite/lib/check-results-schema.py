#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates baretop results files against report/results.schema.json.

usage: check-results-schema.py [--files-only] SCHEMA RESULTS.h FILE...
Checks the schema itself (Draft 2020-12), that its format_version is
BT_RESULTS_FORMAT_VERSION of report/results.h, then every FILE; prints one
line per file and exits 1 if any is invalid. It also shows the schema is not
permissive: copies of the first valid file with a key retyped or a required
key removed, in each main section, must be rejected (so one FILE at least
must have counted workloads with consistency verdicts). --files-only checks
the files and nothing more (a QEMU step's own results, which need not be
counted ones: TCG has no PMU).
"""
import copy
import json
import re
import sys

import jsonschema

args = sys.argv[1:]
files_only = bool(args) and args[0] == "--files-only"
if files_only:
    args = args[1:]
schema_path, header, files = args[0], args[1], args[2:]
schema = json.load(open(schema_path))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
fail = 0

m = re.search(r"#define BT_RESULTS_FORMAT_VERSION (\d+)", open(header).read())
want = int(m.group(1)) if m else None
have = schema["properties"]["format_version"].get("const")
if want is None or have != want:
    print(f"FAIL schema format_version {have} != BT_RESULTS_FORMAT_VERSION {want}")
    fail = 1
else:
    print(f"ok   schema is Draft 2020-12 and names format_version {have} = BT_RESULTS_FORMAT_VERSION")

first_counted = None
n_consistency = 0
for f in files:
    doc = json.load(open(f))
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    wls = (doc.get("run") or {}).get("workloads", [])
    counted = [w for w in wls if "counted" in w]
    n_cons = sum("consistency" in w["counted"] for w in counted)
    n_consistency += n_cons
    if errs:
        fail = 1
        print(f"FAIL {f}: {len(errs)} error(s)")
        for e in errs[:5]:
            print(f"       at {e.json_path}: {e.message[:200]}")
    else:
        print(f"ok   {f}: valid ({len(wls)} workload(s), {len(counted)} counted, "
              f"{n_cons} with consistency verdicts)")
        if counted and n_cons and first_counted is None:
            first_counted = doc

if files_only:
    sys.exit(fail)

if n_consistency == 0:
    print("FAIL no validated file had counted.consistency")
    fail = 1

# The schema must reject what is wrong: (path, mutation) on a valid counted document.
# A Secure Boot section as a UEFI firmware without AuditMode/DeployedMode writes it.
SB_READ = {"present": True, "enforced": True, "SecureBoot": 1, "SetupMode": 0,
           "AuditMode": "absent", "DeployedMode": "absent", "summary": "enforced (...)"}
def at(doc, path):
    for p in path:
        doc = doc[p]
    return doc

mutations = [
    ("format_version as a string", [], lambda d: d.__setitem__("format_version", "1")),
    ("no cpu section", [], lambda d: d.pop("cpu")),
    ("an unknown top-level section", [], lambda d: d.__setitem__("extra", {})),
    ("cpu.family as a string", ["cpu"], lambda d: d.__setitem__("family", "6")),
    ("cpu.signature not hex", ["cpu"], lambda d: d.__setitem__("signature", 1234)),
    ("pmu without present", ["pmu"], lambda d: d.pop("present")),
    ("run.workloads as an object", ["run"], lambda d: d.__setitem__("workloads", {})),
    ("workload state unknown", ["run", "workloads", 0], lambda d: d.__setitem__("state", "done")),
    ("counted without tree", ["run", "workloads", 0, "counted"], lambda d: d.pop("tree")),
    ("event median negative", ["run", "workloads", 0, "counted", "events"],
     lambda d: next(iter(d.values())).__setitem__("median", -1)),
    ("tree value as a string", ["run", "workloads", 0, "counted", "tree", "values"],
     lambda d: d.__setitem__(next(iter(d)), "0.5")),
    ("tree node without state", ["run", "workloads", 0, "counted", "tree", "nodes"],
     lambda d: next(iter(d.values())).pop("state")),
    ("consistency verdict without rule", ["run", "workloads", 0, "counted", "consistency", 0],
     lambda d: d.pop("rule")),
    ("consistency state unknown", ["run", "workloads", 0, "counted", "consistency", 0],
     lambda d: d.__setitem__("state", "maybe")),
    ("result.exit_status as a string", ["result"], lambda d: d.__setitem__("exit_status", "0")),
    ("run_id without sequence", [], lambda d: d.__setitem__("run_id", "abc-notime")),
    ("machine.smbios without present", ["machine", "smbios"], lambda d: d.pop("present")),
    ("machine.fpdt absent without reason", ["machine", "fpdt"],
     lambda d: (d.clear(), d.__setitem__("present", False))),
    ("machine.smbios.memory.total_mib as a string", ["machine", "smbios", "memory"],
     lambda d: d.__setitem__("total_mib", "512")),
    ("machine without secure_boot", ["machine"], lambda d: d.pop("secure_boot")),
    ("machine.secure_boot.SecureBoot 2", ["machine", "secure_boot"],
     lambda d: (d.clear(), d.update(SB_READ, SecureBoot=2))),
    ("machine.secure_boot.AuditMode unknown word", ["machine", "secure_boot"],
     lambda d: (d.clear(), d.update(SB_READ, AuditMode="unknown"))),
    ("machine.secure_boot read without DeployedMode", ["machine", "secure_boot"],
     lambda d: (d.clear(), d.update(SB_READ), d.pop("DeployedMode"))),
    ("machine.secure_boot not read without reason", ["machine", "secure_boot"],
     lambda d: (d.clear(), d.__setitem__("present", False))),
]
if first_counted is None:
    print("FAIL no valid counted results file to mutate")
    fail = 1
else:
    for what, path, mutate in mutations:
        bad = copy.deepcopy(first_counted)
        mutate(at(bad, path))
        errs = list(v.iter_errors(bad))
        if errs:
            print(f"ok   rejected: {what} ({errs[0].message[:80]})")
        else:
            print(f"FAIL accepted: {what}")
            fail = 1
sys.exit(fail)
