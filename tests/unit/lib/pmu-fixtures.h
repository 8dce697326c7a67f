/* SPDX-License-Identifier: MIT */
/*
 * Event sets for the PMU tests that reproduce real constraints from the
 * vendor event files (facts quoted per event; the files themselves are not
 * read by the tests): allowed counters ("Counter"), fixed counters, TakenAlone,
 * extra MSRs (MSRIndex/MSRValue), PERF_METRICS fields, AMD 12-bit codes.
 */
#ifndef TESTS_UNIT_LIB_PMU_FIXTURES_H
#define TESTS_UNIT_LIB_PMU_FIXTURES_H

#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/array.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-session.h"
#include "pmu/plan.h"
#include "arch/sim/sim.h"
#include "synth/count-sources.h"

static inline struct bt_event fx_gp(const char *name, uint16_t code, uint8_t umask, uint8_t cmask,
				    uint32_t counters)
{
	struct bt_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.source = BT_SRC_PMC;
	e.code = code;
	e.umask = umask;
	e.cmask = cmask;
	e.fixed = BT_EV_NO_FIXED;
	e.counters = counters;
	return e;
}

static inline struct bt_event fx_fixed(const char *name, uint16_t code, uint8_t umask, int fixed,
				       uint32_t counters)
{
	struct bt_event e = fx_gp(name, code, umask, 0, counters);
	e.fixed = (int8_t)fixed;
	return e;
}

static inline struct bt_event fx_msr(struct bt_event e, uint16_t msr, uint64_t value, uint16_t code2)
{
	e.msr_index = msr;
	e.msr_value = value;
	e.code2 = code2;
	return e;
}

static inline struct bt_event fx_pm(const char *name, int field)
{
	struct bt_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.source = BT_SRC_PERF_METRICS;
	e.pm_field = (uint8_t)field;
	e.fixed = BT_EV_NO_FIXED;
	return e;
}

static inline struct bt_event fx_src(const char *name, uint8_t source)
{
	struct bt_event e;
	memset(&e, 0, sizeof(e));
	e.name = name;
	e.source = source;
	e.fixed = BT_EV_NO_FIXED;
	return e;
}

#define FX_N(a) ((int)(BT_ARRAY_SIZE(a)))
#define FX_MAX 64

static inline int fx_skl_set(struct bt_event *out);
static inline int fx_icl_set(struct bt_event *out);
static inline int fx_zen4_set(struct bt_event *out);

/* Drop the events needing an extra MSR the preset lacks. */
static inline int fx_filter_msrs(struct bt_event *ev, int n, const struct bt_sim_config *c)
{
	int m = 0;
	for (int i = 0; i < n; i++) {
		uint16_t x = ev[i].msr_index;
		if ((x == MSR_OFFCORE_RSP_0 || x == MSR_OFFCORE_RSP_1) && !c->offcore)
			continue;
		if (x == MSR_PEBS_LD_LAT && !c->ldlat)
			continue;
		if (x == MSR_PEBS_FRONTEND && !c->frontend)
			continue;
		ev[m++] = ev[i];
	}
	return m;
}

/* OFFCORE_RESPONSE events in the encoding of each core (vendor event
 * files, OCR.* "EventCode"/"UMask"/"MSRIndex": Ivy Bridge..Tiger Lake
 * "0xB7, 0xBB"/"0x01"; Sapphire Rapids, Alder Lake P, Lunar Lake P
 * "0x2A,0x2B"/"0x01"; Gracemont, Skymont "0xB7"/"0x01,0x02" -- where the
 * alternative differs by umask, code2 is the same code). Values:
 * OCR.DEMAND_DATA_RD.ANY_RESPONSE 0x10001, OCR.DEMAND_RFO.L3_MISS,
 * OCR.DEMAND_DATA_RD.L3_MISS. Nehalem has no second MSR: no code2. */
enum fx_ocr_style { FX_OCR_NONE, FX_OCR_NHM, FX_OCR_B7_BB, FX_OCR_2A_2B, FX_OCR_ATOM };

static inline int fx_ocr_events(struct bt_event *out, enum fx_ocr_style style)
{
	static const char *const names[3] = {
		"OCR.DEMAND_DATA_RD.ANY_RESPONSE", "OCR.DEMAND_RFO.L3_MISS", "OCR.DEMAND_DATA_RD.L3_MISS",
	};
	static const uint64_t values[3] = { 0x10001, 0x3FFFC00002ull, 0x3FFFC00001ull };
	uint16_t code = style == FX_OCR_2A_2B ? 0x2A : 0xB7;
	uint16_t code2 = style == FX_OCR_B7_BB ? 0xBB : style == FX_OCR_2A_2B ? 0x2B
			 : style == FX_OCR_ATOM ? 0xB7 : 0;
	if (style == FX_OCR_NONE)
		return 0;
	for (int i = 0; i < 3; i++)
		out[i] = fx_msr(fx_gp(names[i], code, 0x01, 0, 0xF), MSR_OFFCORE_RSP_0, values[i], code2);
	return 3;
}

/* A load-latency event (SKL events JSON: MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4,
 * EventCode 0xCD, UMask 0x01, MSRIndex 0x3F6, MSRValue 4, TakenAlone, "PEBS":
 * "2"): it counts only with PEBS, so baretop reports it unmeasurable. */
static inline struct bt_event fx_ldlat_event(void)
{
	struct bt_event e = fx_msr(fx_gp("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", 0xCD, 0x01, 0, 0xF),
				   MSR_PEBS_LD_LAT, 4, 0);
	e.flags = BT_EVF_ALONE;
	return e;
}

/* The event set a preset is tested with: its own OCR encoding, and on
 * 8-field PERF_METRICS parts the level-2 fields too. */
static inline int fx_set_for(const struct bt_sim_config *c, struct bt_event *out)
{
	int n;
	const char *p = c->name ? c->name : "";
	if (c->vendor == BT_VENDOR_AMD)
		return fx_zen4_set(out);
	if (c->perf_metrics) {
		n = fx_icl_set(out);
		if (c->pm_fields == 8) {
			out[n++] = fx_pm("PERF_METRICS.HEAVY_OPERATIONS", BT_PM_HEAVY_OPERATIONS);
			out[n++] = fx_pm("PERF_METRICS.BRANCH_MISPREDICTS", BT_PM_BRANCH_MISPREDICTS);
			out[n++] = fx_pm("PERF_METRICS.FETCH_LATENCY", BT_PM_FETCH_LATENCY);
			out[n++] = fx_pm("PERF_METRICS.MEMORY_BOUND", BT_PM_MEMORY_BOUND);
		}
	} else {
		n = fx_skl_set(out);
	}
	enum fx_ocr_style style = strcmp(p, "nhm") == 0 ? FX_OCR_NHM
				  : strcmp(p, "skl") == 0 || strcmp(p, "icl") == 0 ? FX_OCR_B7_BB
				  : strcmp(p, "spr") == 0 || strcmp(p, "adl-p") == 0 ||
				    strcmp(p, "lnl-p") == 0 ? FX_OCR_2A_2B
				  : strcmp(p, "adl-e") == 0 ? FX_OCR_ATOM : FX_OCR_NONE;
	n += fx_ocr_events(out + n, style);
	if (strcmp(p, "lnl-p") == 0) {
		/* Counters 8 and 9 exist only in the v6 MSR range: enough
		 * unrestricted events to need them. */
		out[n++] = fx_gp("BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0x00, 0, 0x3FF);
		out[n++] = fx_gp("UOPS_RETIRED.SLOTS", 0xC2, 0x02, 0, 0x3FF);
		out[n++] = fx_gp("INT_MISC.RECOVERY_CYCLES", 0xAD, 0x01, 0, 0x3FF);
	}
	return fx_filter_msrs(out, n, c);
}

/* Skylake-like (SKL events JSON: Counter "0,1,2,3" for almost all events,
 * INST_RETIRED.ANY "Fixed counter 0", CPU_CLK_UNHALTED.THREAD "Fixed
 * counter 1", REF_TSC "Fixed counter 2", INST_RETIRED.PREC_DIST Counter "1",
 * INST_RETIRED.TOTAL_CYCLES_PS Counter "0,2,3"; FRONTEND_RETIRED.* MSR 0x3F7
 * is TakenAlone). OCR events are added per core by fx_set_for(). */
static inline int fx_skl_set(struct bt_event *out)
{
	int n = 0;
	out[n++] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0x00, 0, 0);
	out[n++] = fx_fixed("CPU_CLK_UNHALTED.THREAD", 0x3C, 0x00, 1, 0);
	out[n++] = fx_fixed("CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2, 0);
	out[n++] = fx_gp("IDQ_UOPS_NOT_DELIVERED.CORE", 0x9C, 0x01, 0, 0xF);
	out[n++] = fx_gp("UOPS_ISSUED.ANY", 0x0E, 0x01, 0, 0xF);
	out[n++] = fx_gp("UOPS_RETIRED.RETIRE_SLOTS", 0xC2, 0x02, 0, 0xF);
	out[n++] = fx_gp("INT_MISC.RECOVERY_CYCLES", 0x0D, 0x01, 0, 0xF);
	out[n++] = fx_gp("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, 20, 0xF);
	out[n++] = fx_gp("CYCLE_ACTIVITY.STALLS_TOTAL", 0xA3, 0x04, 4, 0xF);
	out[n++] = fx_gp("EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, 0, 0xF);
	out[n++] = fx_gp("EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, 0, 0xF);
	out[n++] = fx_gp("UOPS_EXECUTED.CORE_CYCLES_NONE", 0xB1, 0x02, 1, 0xF);
	out[n - 1].flags = BT_EVF_INV;
	out[n++] = fx_gp("INST_RETIRED.PREC_DIST", 0xC0, 0x01, 0, 0x2);
	out[n++] = fx_gp("INST_RETIRED.TOTAL_CYCLES_PS", 0xC0, 0x01, 10, 0xD);
	out[n - 1].flags = BT_EVF_INV;
	out[n++] = fx_msr(fx_gp("FRONTEND_RETIRED.LATENCY_GE_4", 0xC6, 0x01, 0, 0xF),
			  MSR_PEBS_FRONTEND, 0x400406, 0);
	out[n - 1].flags = BT_EVF_ALONE;
	out[n++] = fx_src("TSC", BT_SRC_TSC);
	return n;
}

/* Ice Lake-like (ICL events JSON: TOPDOWN.SLOTS "Fixed counter 3"; many
 * events "0,1,2,3" of 8 counters, e.g. L1D_PEND_MISS.PENDING,
 * CYCLE_ACTIVITY.STALLS_L1D_MISS; PERF_METRICS fields). */
static inline int fx_icl_set(struct bt_event *out)
{
	int n = 0;
	out[n++] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0x00, 0, 0);
	out[n++] = fx_fixed("CPU_CLK_UNHALTED.THREAD", 0x3C, 0x00, 1, 0);
	out[n++] = fx_fixed("CPU_CLK_UNHALTED.REF_TSC", 0x00, 0x03, 2, 0);
	out[n++] = fx_fixed("TOPDOWN.SLOTS", 0x00, 0x04, 3, 0);
	out[n++] = fx_pm("PERF_METRICS.RETIRING", BT_PM_RETIRING);
	out[n++] = fx_pm("PERF_METRICS.BAD_SPECULATION", BT_PM_BAD_SPECULATION);
	out[n++] = fx_pm("PERF_METRICS.FRONTEND_BOUND", BT_PM_FRONTEND_BOUND);
	out[n++] = fx_pm("PERF_METRICS.BACKEND_BOUND", BT_PM_BACKEND_BOUND);
	out[n++] = fx_gp("L1D_PEND_MISS.PENDING", 0x48, 0x01, 0, 0xF);
	out[n++] = fx_gp("CYCLE_ACTIVITY.STALLS_L1D_MISS", 0xA3, 0x0C, 12, 0xF);
	out[n++] = fx_gp("CYCLE_ACTIVITY.STALLS_L2_MISS", 0xA3, 0x05, 5, 0xF);
	out[n++] = fx_gp("CYCLE_ACTIVITY.STALLS_L3_MISS", 0xA3, 0x06, 6, 0xF);
	out[n++] = fx_gp("EXE_ACTIVITY.BOUND_ON_STORES", 0xA6, 0x40, 0, 0xFF);
	out[n++] = fx_gp("EXE_ACTIVITY.1_PORTS_UTIL", 0xA6, 0x02, 0, 0xFF);
	out[n++] = fx_gp("EXE_ACTIVITY.2_PORTS_UTIL", 0xA6, 0x04, 0, 0xFF);
	out[n++] = fx_gp("BR_MISP_RETIRED.ALL_BRANCHES", 0xC5, 0x00, 0, 0xFF);
	out[n++] = fx_gp("MACHINE_CLEARS.COUNT", 0xC3, 0x01, 1, 0xFF);
	out[n - 1].flags = BT_EVF_EDGE;
	out[n++] = fx_gp("UOPS_ISSUED.ANY", 0x0E, 0x01, 0, 0xFF);
	out[n++] = fx_gp("MEM_LOAD_RETIRED.L2_HIT", 0xD1, 0x02, 0, 0xF);
	out[n++] = fx_gp("MEM_LOAD_RETIRED.L3_HIT", 0xD1, 0x04, 0, 0xF);
	out[n++] = fx_gp("MEM_LOAD_RETIRED.FB_HIT", 0xD1, 0x40, 0, 0xF);
	out[n++] = fx_gp("MEM_LOAD_RETIRED.L1_MISS", 0xD1, 0x08, 0, 0xF);
	out[n++] = fx_src("TSC", BT_SRC_TSC);
	return n;
}

/* AMD Zen 4 (amdzen4 pipeline.json: de_no_dispatch_per_slot.* EventCode
 * "0x1a0" with UMask 0x01 / 0x1e; core.json: ls_not_halted_cyc 0x76,
 * ex_ret_instr 0xc0, ex_ret_ops 0xc1). */
static inline int fx_zen4_set(struct bt_event *out)
{
	int n = 0;
	out[n++] = fx_gp("ls_not_halted_cyc", 0x76, 0x00, 0, 0x3F);
	out[n++] = fx_gp("ex_ret_instr", 0xC0, 0x00, 0, 0x3F);
	out[n++] = fx_gp("ex_ret_ops", 0xC1, 0x00, 0, 0x3F);
	out[n++] = fx_gp("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01, 0, 0x3F);
	out[n++] = fx_gp("de_no_dispatch_per_slot.backend_stalls", 0x1A0, 0x1E, 0, 0x3F);
	out[n++] = fx_gp("de_no_dispatch_per_slot.no_ops_from_frontend:c6", 0x1A0, 0x01, 6, 0x3F);
	out[n++] = fx_gp("ex_ret_brn_misp", 0xC3, 0x00, 0, 0x3F);
	out[n++] = fx_src("TSC", BT_SRC_TSC);
	return n;
}

static inline void fx_ptrs(const struct bt_event *ev, int n, const struct bt_event **out)
{
	for (int i = 0; i < n; i++)
		out[i] = &ev[i];
}

/* What measuring a set of events on a simulated PMU gave. */
struct fx_outcome {
	bool failed;              /* open/program/run/read reported an error */
	bt_status close_status;
	int measured, wrong, unmeasured;
	bool restored;            /* bt_sim_restored() after close */
	int violations;
	uint64_t first_got, first_want;
	char msg[256];            /* the driver's error, or the first wrong count */
	char warning[256];        /* the driver's restore warning */
	char diff[160];           /* first register not as found */
	char reason[192];         /* an unmeasurable event's reason */
};

/* Plan, program, run and read every group of `ev` on a sim made from cfg
 * (with generated counts), close, and check the register file. On AMD
 * parts without global control an empty-window calibration is subtracted.
 * `sim` is left initialised (its log, violations) for further checks: the
 * caller frees it. */
static inline struct fx_outcome fx_measure(struct bt_sim *sim, const struct bt_sim_config *cfg,
					   const struct bt_event *ev, int n,
					   const struct bt_pmu_session_opts *opts)
{
	static struct bt_plan plan;
	static struct bt_plan_scratch scratch;
	static struct bt_pmu_counts counts;
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	static struct bt_sim_count src[BT_PLAN_MAX_EVENTS];
	static const struct bt_sim_source empty = { NULL, 0, 0, NULL };
	struct fx_outcome o;
	memset(&o, 0, sizeof(o));
	if (bt_sim_init(sim, cfg) != BT_OK) {
		o.failed = true;
		snprintf(o.msg, sizeof(o.msg), "bad sim config");
		return o;
	}
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim->arch, &caps);
	fx_ptrs(ev, n, evp);
	if (bt_sim_generate_counts(evp, (size_t)n, 11, src) != BT_OK ||
	    bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) != BT_OK) {
		o.failed = true;
		snprintf(o.msg, sizeof(o.msg), "plan failed");
		return o;
	}
	for (int i = 0; i < n; i++)
		if (plan.ev[i].place == BT_PLACE_UNMEASURABLE) {
			o.unmeasured++;
			snprintf(o.reason, sizeof(o.reason), "%s", plan.ev[i].reason);
		}
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	struct bt_sim_regs before;
	bt_sim_checkpoint(sim, &before);
	struct bt_pmu_session s;
	bool calibrate = caps.kind == BT_PMU_AMD_LEGACY || caps.kind == BT_PMU_AMD_CORE_EXT;
	bt_status st = bt_pmu_open(&s, &sim->arch, &caps, opts);
	for (int g = 0; st == BT_OK && g < plan.n_groups; g++) {
		uint64_t base[BT_PLAN_MAX_EVENTS] = { 0 };
		if (calibrate) {
			bt_sim_set_source(sim, &empty);
			st = bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts);
			for (int i = 0; st == BT_OK && i < n; i++)
				base[i] = counts.count[i];
		}
		bt_sim_set_source(sim, &source);
		if (st == BT_OK)
			st = bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts);
		for (int i = 0; st == BT_OK && i < n; i++) {
			if (!counts.measured[i] || evp[i]->source == BT_SRC_TSC ||
			    evp[i]->source == BT_SRC_DURATION)
				continue;
			uint64_t got = counts.count[i] - (evp[i]->source == BT_SRC_PMC ? base[i] : 0);
			o.measured++;
			if (got != src[i].count && o.wrong++ == 0) {
				o.first_got = got;
				o.first_want = src[i].count;
				snprintf(o.msg, sizeof(o.msg), "%s: %llu, source %llu", evp[i]->name,
					 (unsigned long long)got, (unsigned long long)src[i].count);
			}
		}
	}
	if (st != BT_OK) {
		o.failed = true;
		snprintf(o.msg, sizeof(o.msg), "%s", bt_pmu_error(&s));
	}
	o.close_status = bt_pmu_close(&s);
	if (o.close_status != BT_OK && !o.failed)
		snprintf(o.msg, sizeof(o.msg), "%s", bt_pmu_error(&s));
	snprintf(o.warning, sizeof(o.warning), "%s", bt_pmu_session_warnings(&s));
	o.restored = bt_sim_restored(sim, &before, o.diff, sizeof(o.diff));
	o.violations = sim->n_violations;
	return o;
}

/* Exact, clean and restored. */
static inline bool fx_clean(const struct fx_outcome *o)
{
	return !o->failed && o->close_status == BT_OK && o->wrong == 0 && o->restored &&
	       !o->violations && !o->warning[0];
}

#endif
