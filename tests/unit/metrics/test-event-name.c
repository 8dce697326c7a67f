/* SPDX-License-Identifier: MIT */
/*
 * Event spellings (FORMAT.md "Canonical event spelling") and encodings. The
 * expected encodings are the Intel perfmon / AMD perf event-file facts (and
 * the SDM/APM meaning of the fields), written out by hand.
 */
#include "metrics/builtin.h"
#include "metrics/event-name.h"
#include "metrics/perf-metrics.h"
#include "tests/unit/lib/test.h"

static const char *canon(const char *name)
{
	static char out[BT_EVENT_NAME_MAX];
	static struct bt_diag d;
	struct bt_event_mods m;
	if (bt_event_canonical(name, out, sizeof(out), &m, &d) != BT_OK)
		return d.text;
	return out;
}

static const char *from_perf(const char *tok)
{
	static char out[BT_EVENT_NAME_MAX];
	static struct bt_diag d;
	if (bt_event_from_perf(tok, out, sizeof(out), &d) != BT_OK)
		return d.text;
	return out;
}

TEST(perfmon_spellings)
{
	CHECK_STR(canon("UOPS_EXECUTED.CORE:i1:c1"), "UOPS_EXECUTED.CORE:c1:i1");
	CHECK_STR(canon("TOPDOWN.SLOTS:perf_metrics"), "TOPDOWN.SLOTS");
	CHECK_STR(canon("TOPDOWN.SLOTS:percore"), "TOPDOWN.SLOTS:percore");
	CHECK_STR(canon("CPU_CLK_UNHALTED.CORE_P:sup"), "CPU_CLK_UNHALTED.CORE_P:SUP");
	CHECK_STR(canon("IDQ.DSB_UOPS:c8:i1:eq1"), "IDQ.DSB_UOPS:c8:i1:eq1");
	CHECK_STR(canon("DSB2MITE_SWITCHES.PENALTY_CYCLES:c1:e1"), "DSB2MITE_SWITCHES.PENALTY_CYCLES:c1:e1");
	CHECK_STR(canon("EXE_ACTIVITY.3_PORTS_UTIL:u0x80"), "EXE_ACTIVITY.3_PORTS_UTIL:u0x80");
	CHECK_STR(canon("OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002"),
		  "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002");
	CHECK_STR(canon("UNC_CHA_CLOCKTICKS:one_unit"), "UNC_CHA_CLOCKTICKS:one_unit");
	struct bt_event_mods m;
	char out[BT_EVENT_NAME_MAX];
	CHECK(bt_event_canonical("MEM_LOAD_RETIRED.L3_HIT:retire_latency", out, sizeof(out), &m, NULL) ==
	      BT_OK);
	CHECK(m.retire_latency);
	CHECK_STR(out, "MEM_LOAD_RETIRED.L3_HIT");
}

TEST(perf_spellings)
{
	CHECK_STR(from_perf("cpu@UOPS_EXECUTED.CORE\\,inv\\,cmask\\=1@"), "UOPS_EXECUTED.CORE:c1:i1");
	CHECK_STR(from_perf("cpu@L1D_PEND_MISS.FB_FULL\\,cmask\\=1@"), "L1D_PEND_MISS.FB_FULL:c1");
	CHECK_STR(from_perf("cpu@de_no_dispatch_per_slot.no_ops_from_frontend\\,cmask\\=0x6@"),
		  "de_no_dispatch_per_slot.no_ops_from_frontend:c6");
	CHECK_STR(from_perf("cpu_atom@TOPDOWN_FE_BOUND.ALL@"), "TOPDOWN_FE_BOUND.ALL");
	CHECK_STR(from_perf("cpu_atom@CPU_CLK_UNHALTED.CORE_P@k"), "CPU_CLK_UNHALTED.CORE_P:SUP");
	CHECK_STR(from_perf("cpu_atom@BR_INST_RETIRED.FAR_BRANCH@u"), "BR_INST_RETIRED.FAR_BRANCH:USER");
	CHECK_STR(from_perf("BR_INST_RETIRED.FAR_BRANCH:u"), "BR_INST_RETIRED.FAR_BRANCH:USER");
	CHECK_STR(from_perf("CPU_CLK_UNHALTED.THREAD_P:k"), "CPU_CLK_UNHALTED.THREAD_P:SUP");
	CHECK_STR(from_perf("msr@tsc@"), "TSC");
	CHECK_STR(from_perf("msr@tsc\\,cpu=cpu_atom@"), "TSC");
	CHECK_STR(from_perf("power@energy\\-pkg@"), "power@energy-pkg@");
	CHECK(strstr(from_perf("cpu@X\\,frontend\\=0x1@"), "unsupported term") != NULL);
}

static const struct bt_event *event_of(const char *model, const char *name)
{
	const struct bt_model_def *def = bt_builtin_find(model);
	for (unsigned i = 0; def && i < def->n_events; i++)
		if (!strcmp(def->events[i].name, name))
			return &def->events[i];
	return NULL;
}

TEST(builtin_encodings)
{
	/* OCR on Sapphire Rapids: EventCode "0x2A,0x2B", MSRIndex "0x1a6,0x1a7";
	 * the canonical name's ocr_msr_val overrides MSRValue */
	const struct bt_event *e = event_of("SPR", "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002");
	CHECK(e != NULL);
	if (e) {
		CHECK_EQ_U64(e->code, 0x2A);
		CHECK_EQ_U64(e->code2, 0x2B);
		CHECK_EQ_U64(e->msr_index, 0x1A6);
		CHECK_EQ_U64(e->msr_value, 0x103b800002ull);
		CHECK_EQ_U64(e->counters, 0xF);
	}
	/* fixed counters */
	e = event_of("SPR", "TOPDOWN.SLOTS");
	CHECK(e && e->fixed == 3 && e->counters == 0 && e->code == 0 && e->umask == 4);
	e = event_of("HSW", "INST_RETIRED.ANY");
	CHECK(e && e->fixed == 0);
	/* PERF_METRICS fields are slot counts read from MSR_PERF_METRICS */
	e = event_of("ICL", "PERF_METRICS.BACKEND_BOUND");
	CHECK(e && e->source == BT_SRC_PERF_METRICS && e->pm_field == BT_PM_BACKEND_BOUND);
	/* cmask/invert from the name override the base event (UOPS_EXECUTED.CORE
	 * 0xB1/0x02 on Haswell) */
	e = event_of("HSW", "UOPS_EXECUTED.CORE:c1:i1");
	CHECK(e && e->code == 0xB1 && e->umask == 0x02 && e->cmask == 1 && (e->flags & BT_EVF_INV));
	/* edge detect */
	e = event_of("SPR", "UOPS_RETIRED.MS:c1:e1");
	CHECK(e && e->cmask == 1 && (e->flags & BT_EVF_EDGE) && !(e->flags & BT_EVF_INV));
	/* frontend MSR 0x3F7 for UOPS_RETIRED.MS (perfmon MSRValue 0x8), taken alone */
	CHECK(e && e->msr_index == 0x3F7 && e->msr_value == 0x8 && (e->flags & BT_EVF_ALONE));
	/* privilege filter */
	e = event_of("SPR", "CPU_CLK_UNHALTED.THREAD_P:SUP");
	CHECK(e && (e->flags & BT_EVF_SUP) && !(e->flags & BT_EVF_USER));
	e = event_of("SPR", "BR_INST_RETIRED.FAR_BRANCH:USER");
	CHECK(e && (e->flags & BT_EVF_USER));
	/* AnyThread and CounterHTOff (pre-ICL) */
	e = event_of("HSW", "CPU_CLK_UNHALTED.THREAD_ANY");
	CHECK(e && (e->flags & BT_EVF_ANY));
	e = event_of("HSW", "CYCLE_ACTIVITY.STALLS_L1D_PENDING");
	CHECK(e && e->counters == 0x4 && e->counters_ht_off == 0x4);
	/* LNL/ARL compare-equal */
	e = event_of("LNL-LNC", "IDQ.DSB_UOPS:c8:i1:eq1");
	CHECK(e && (e->flags & BT_EVF_EQ) && (e->flags & BT_EVF_INV) && e->cmask == 8);
	/* AMD: a 12-bit event code (PerfEvtSel[35:32] carry bits 11:8) */
	e = event_of("ZEN4", "de_no_dispatch_per_slot.no_ops_from_frontend:c6");
	CHECK(e && e->code == 0x1A0 && e->umask == 0x01 && e->cmask == 6 && e->counters == 0x3F);
	e = event_of("ZEN5", "ex_ret_ucode_ops");
	CHECK(e && e->code == 0x1C2);
	/* TSC, duration and uncore events carry no core-PMU encoding */
	e = event_of("IVB", "TSC");
	CHECK(e && e->source == BT_SRC_TSC);
	e = event_of("SPR", "UNC_CHA_CLOCKTICKS:one_unit");
	CHECK(e && e->source == BT_SRC_UNCORE);
}

TEST(encode_errors)
{
	struct bt_arena a = { 0 };
	struct bt_event_table t = { 0 };
	struct bt_event base = { .name = "INST_RETIRED.ANY", .fixed = 0, .umask = 1 };
	t.events = &base;
	t.n = 1;
	t.files = "x.json";
	struct bt_event ev;
	struct bt_diag d = { "" };
	CHECK(bt_event_encode(&a, &t, "NO_SUCH.EVENT", &ev, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "NO_SUCH.EVENT is not in the event file x.json") != NULL);
	/* a fixed-counter-only event cannot take a counter mask */
	CHECK(bt_event_encode(&a, &t, "INST_RETIRED.ANY:c1", &ev, &d) == BT_ERR_UNSUPPORTED);
	/* but it can take a privilege filter (fixed counters have OS/USR bits) */
	CHECK(bt_event_encode(&a, &t, "INST_RETIRED.ANY:SUP", &ev, &d) == BT_OK);
	CHECK(ev.fixed == 0 && (ev.flags & BT_EVF_SUP));
	CHECK(bt_event_encode(&a, &t, "INST_RETIRED.ANY:filter1=3", &ev, &d) == BT_ERR_UNSUPPORTED);
	CHECK(bt_event_encode(&a, &t, "PERF_METRICS.NOPE", &ev, &d) == BT_ERR_INVALID);
	bt_arena_free(&a);
}

TEST(perf_metrics_bytes_become_slot_counts)
{
	/* MSR_PERF_METRICS bytes: 0 retiring, 1 bad speculation, 2 frontend, 3 backend */
	uint64_t msr = 0x4D1A3366ull; /* retiring 0x66, bad spec 0x33, frontend 0x1A, backend 0x4D */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, msr, BT_PM_RETIRING), 400);        /* 102000/255 */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, msr, BT_PM_BAD_SPECULATION), 200); /* 51000/255 */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, msr, BT_PM_FRONTEND_BOUND), 101);  /* 26000/255 = 101.96 */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, msr, BT_PM_BACKEND_BOUND), 301);   /* 77000/255 = 301.96 */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, msr, BT_PM_MEMORY_BOUND), 0);
	/* no overflow near 2^64 */
	CHECK_EQ_U64(bt_perf_metrics_slots(UINT64_MAX, 0xFF, BT_PM_RETIRING), UINT64_MAX);
	CHECK_EQ_U64(bt_perf_metrics_slots(UINT64_MAX, 0x80, BT_PM_RETIRING),
		     9259542123273814144ull); /* Python: (2**64-1)*128//255 */
}
