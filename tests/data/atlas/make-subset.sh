#!/bin/sh
# Regenerates the atlas's test lists from Intel's perfmon event files (in
# ../shared/reference/intel/ next to the repository): a few events each,
# their encodings only (the fields in ENC below): the vendors' description
# fields (prose) are dropped: facts carry over, prose does not.
#   sh tests/data/atlas/make-subset.sh
# zen4-subset.json is written by hand, not by this script: four encodings of
# Linux's tools/perf/pmu-events/arch/x86/amdzen4/ (branch.json, core.json,
# load-store.json), the AMD list the vendor checks give an Intel PMU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ref="$here/../../../../shared/reference/intel"
subset() { # SRC OUT NAME...
	src=$1 out=$2
	shift 2
	python3 - "$src" "$out" "$@" <<'PY'
import json, sys
EVENT_KEYS = """EventName EventCode UMask UMaskExt Counter CounterHTOff PEBScounters CounterMask
Invert EdgeDetect AnyThread Equal TakenAlone MSRIndex MSRValue PEBS Precise Deprecated
Data_LA L1_Hit_Indication Errata Unit SampleAfterValue Speculative CollectPEBSRecord Offcore
PDISTCounter"""
src, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
# the event files' fields kept (encodings and flags): every description field is left out
ENC = {k for k in EVENT_KEYS.split()}
d = json.load(open(src))
keep = {n: None for n in names}
for e in d["Events"]:
    if e["EventName"] in keep and keep[e["EventName"]] is None:
        keep[e["EventName"]] = {k: v for k, v in e.items() if k in ENC}
missing = [n for n, e in keep.items() if e is None]
if missing:
    sys.exit("not in %s: %s" % (src, ", ".join(missing)))
hdr = {k: d["Header"][k] for k in ("Version", "DatePublished") if k in d["Header"]}
json.dump({"Header": hdr, "Events": list(keep.values())}, open(out, "w"), indent=1)
open(out, "a").write("\n")
PY
}
subset "$ref/SPR/events/sapphirerapids_core.json" "$here/spr-subset.json" \
	INST_RETIRED.ANY INST_RETIRED.ANY_P CPU_CLK_UNHALTED.THREAD CPU_CLK_UNHALTED.THREAD_P \
	TOPDOWN.SLOTS TOPDOWN.BAD_SPEC_SLOTS BR_INST_RETIRED.ALL_BRANCHES BR_INST_RETIRED.COND \
	BR_INST_RETIRED.COND_TAKEN BR_INST_RETIRED.COND_NTAKEN BR_INST_RETIRED.NEAR_CALL \
	BR_INST_RETIRED.NEAR_RETURN UOPS_RETIRED.STALLS L1D.REPLACEMENT \
	L1D_PEND_MISS.FB_FULL_PERIODS OFFCORE_REQUESTS_OUTSTANDING.ALL_DATA_RD \
	OCR.DEMAND_DATA_RD.ANY_RESPONSE FRONTEND_RETIRED.DSB_MISS \
	MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4 INT_MISC.CLEAR_RESTEER_CYCLES
subset "$ref/LNL/events/lunarlake_lioncove_core.json" "$here/lnl-subset.json" \
	INST_RETIRED.ANY INST_RETIRED.ANY_P CPU_CLK_UNHALTED.THREAD CPU_CLK_UNHALTED.THREAD_P \
	BR_INST_RETIRED.ALL_BRANCHES BR_INST_RETIRED.COND BR_INST_RETIRED.NEAR_CALL \
	BR_INST_RETIRED.NEAR_RETURN INST_RETIRED.MACRO_FUSED L1D.REPLACEMENT \
	OCR.DEMAND_DATA_RD.ANY_RESPONSE BR_INST_RETIRED.COND_TAKEN BR_INST_RETIRED.COND_TAKEN_BWD \
	BR_INST_RETIRED.COND_TAKEN_FWD BR_INST_RETIRED.INDIRECT TOPDOWN.SLOTS TOPDOWN.SLOTS_P \
	MEM_INST_RETIRED.ALL_LOADS MEM_INST_RETIRED.ALL_STORES
