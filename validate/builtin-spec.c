/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model.h"
#include "base/array.h"
#include "validate/builtin-spec.h"

/* One entry, compactly: event, kernel, kind, expressions, tolerance,
 * plausibility flag, note. */
/* Intel core classes whose BR_INST_RETIRED (C4H) umasks differ (the
 * vendor event lists), as bits so that a row can name several: Westmere
 * (01H CONDITIONAL, 02H NEAR_CALL only), Sandy Bridge..Skylake (also 08H
 * NEAR_RETURN, 10H NOT_TAKEN), Ice Lake..Redwood Cove (01H COND_TAKEN, 11H
 * COND), Lion Cove (the same with the second unit mask UMaskExt 01H; its
 * 01H alone is COND_TAKEN_BWD: lunarlake_lioncove_core.json), Atom cores.
 * ALL: every class, and AMD. */
enum cls { ALL = 0, WSM = 1, SNB_SKL = 2, ICL_RWC = 4, ATOM = 8, LNC = 16 };
#define BIG_OLD (WSM | SNB_SKL)
#define BIG_NEW (ICL_RWC | LNC)

struct row {
	int arch_bit;               /* Intel CPUID.0AH:EBX bit that must be 0; -1: none */
	int cls;                    /* Intel: enum cls; AMD: ALL */
	const char *event, *kernel;
	enum bt_vexpect_kind kind;
	const char *lo, *hi;        /* EXACT: lo; RANGE: lo..hi; RELATION/LE: hi = other event */
	double k, tol;
	int plausibility;
	const char *note;
};

static const struct row intel_rows[] = {
	{ 1, ALL, "cpu/event=0xc0,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT, "k.instructions", 0, 0, 0,
	  0, "INST_RETIRED.ANY_P" },
	{ 1, ALL, "cpu/event=0xc0,umask=0x00/", "empty", BT_VEXP_EXACT, "k.instructions", 0, 0, 0, 0,
	  "the window overhead cancels exactly" },
	{ 5, ALL, "cpu/event=0xc4,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT, "k.branches", 0, 0, 0,
	  0, "BR_INST_RETIRED.ALL_BRANCHES" },
	{ 6, ALL, "cpu/event=0xc5,umask=0x00/", "loop-dec-jnz", BT_VEXP_RANGE, "0", "4 + n/1000", 0, 0,
	  1, "BR_MISP_RETIRED.ALL_BRANCHES: a counted loop mispredicts about once" },
	{ 0, ALL, "cpu/event=0x3c,umask=0x00/", "loop-dec-jnz", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0,
	  0, 1, "CPU_CLK_UNHALTED.THREAD_P: about one iteration per cycle" },
	{ 1, ALL, "cpu/event=0xc0,umask=0x00,fixed=0/", "loop-dec-jnz", BT_VEXP_EXACT,
	  "k.instructions", 0, 0, 0, 0, "INST_RETIRED.ANY on fixed counter 0" },
	{ 5, BIG_OLD, "cpu/event=0xc4,umask=0x01/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond", 0, 0,
	  0, 0, "BR_INST_RETIRED.CONDITIONAL" },
	{ 5, SNB_SKL, "cpu/event=0xc4,umask=0x10/", "loop-dec-jnz", BT_VEXP_EXACT,
	  "k.cond_not_taken", 0, 0, 0, 0, "BR_INST_RETIRED.NOT_TAKEN" },
	{ 5, ICL_RWC, "cpu/event=0xc4,umask=0x11/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond", 0, 0,
	  0, 0, "BR_INST_RETIRED.COND" },
	{ 5, ICL_RWC, "cpu/event=0xc4,umask=0x01/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond_taken",
	  0, 0, 0, 0, "BR_INST_RETIRED.COND_TAKEN" },
	{ 5, LNC, "cpu/event=0xc4,umask=0x11,umask2=0x01/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond",
	  0, 0, 0, 0, "BR_INST_RETIRED.COND" },
	{ 5, LNC, "cpu/event=0xc4,umask=0x01,umask2=0x01/", "loop-dec-jnz", BT_VEXP_EXACT,
	  "k.cond_taken", 0, 0, 0, 0, "BR_INST_RETIRED.COND_TAKEN" },
	{ 5, BIG_NEW, "cpu/event=0xc4,umask=0x10/", "loop-dec-jnz", BT_VEXP_EXACT,
	  "k.cond_not_taken", 0, 0, 0, 0, "BR_INST_RETIRED.COND_NTAKEN" },
	{ 5, ATOM, "cpu/event=0xc4,umask=0x7e/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond", 0, 0,
	  0, 0, "BR_INST_RETIRED.COND" },
	{ 5, ATOM, "cpu/event=0xc4,umask=0xfe/", "loop-dec-jnz", BT_VEXP_EXACT, "k.cond_taken",
	  0, 0, 0, 0, "BR_INST_RETIRED.COND_TAKEN" },
	/* Near calls and returns: the call-ret kernel (kernels/), when built. */
	{ 5, BIG_OLD, "cpu/event=0xc4,umask=0x02/", "call-ret", BT_VEXP_EXACT, "k.near_calls", 0,
	  0, 0, 0, "BR_INST_RETIRED.NEAR_CALL" },
	{ 5, BIG_NEW, "cpu/event=0xc4,umask=0x02/", "call-ret", BT_VEXP_EXACT, "k.near_calls", 0,
	  0, 0, 0, "BR_INST_RETIRED.NEAR_CALL" },
	{ 5, SNB_SKL, "cpu/event=0xc4,umask=0x08/", "call-ret", BT_VEXP_EXACT, "k.near_returns",
	  0, 0, 0, 0, "BR_INST_RETIRED.NEAR_RETURN" },
	{ 5, BIG_NEW, "cpu/event=0xc4,umask=0x08/", "call-ret", BT_VEXP_EXACT, "k.near_returns",
	  0, 0, 0, 0, "BR_INST_RETIRED.NEAR_RETURN" },
	{ 5, ATOM, "cpu/event=0xc4,umask=0xf9/", "call-ret", BT_VEXP_EXACT, "k.near_calls", 0, 0,
	  0, 0, "BR_INST_RETIRED.NEAR_CALL" },
	{ 5, ATOM, "cpu/event=0xc4,umask=0xf7/", "call-ret", BT_VEXP_EXACT, "k.near_returns", 0,
	  0, 0, 0, "BR_INST_RETIRED.NEAR_RETURN" },
	{ 6, ALL, "cpu/event=0xc5,umask=0x00/", "branch-random", BT_VEXP_RANGE,
	  "0.25*k.random_cond", "0.75*k.random_cond + 4 + n/1000", 0, 0, 1,
	  "BR_MISP_RETIRED.ALL_BRANCHES: half the PRNG-directed branches" },
	{ 1, ALL, "cpu/event=0xc0,umask=0x00/", "loop-dec-jnz", BT_VEXP_LE, 0,
	  "cpu/event=0x3c,umask=0x00/", 8, 0, 1, "instructions <= 8 x cycles" },
};

static const struct row amd_rows[] = {
	{ -1, ALL, "cpu/event=0xc0,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT, "k.instructions", 0, 0,
	  0, 0, "Retired Instructions" },
	{ -1, ALL, "cpu/event=0xc0,umask=0x00/", "empty", BT_VEXP_EXACT, "k.instructions", 0, 0, 0, 0,
	  "the window overhead cancels exactly" },
	{ -1, ALL, "cpu/event=0xc2,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT, "k.branches", 0, 0, 0,
	  0, "Retired Branch Instructions" },
	{ -1, ALL, "cpu/event=0xc4,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT,
	  "k.cond_taken + k.near_returns + k.jmp_direct + k.near_calls + k.indirect", 0, 0, 0, 0,
	  "Retired Taken Branch Instructions" },
	{ -1, ALL, "cpu/event=0xc8,umask=0x00/", "loop-dec-jnz", BT_VEXP_EXACT, "k.near_returns", 0, 0,
	  0, 0, "Retired Near Returns" },
	{ -1, ALL, "cpu/event=0xc3,umask=0x00/", "loop-dec-jnz", BT_VEXP_RANGE, "0", "4 + n/1000", 0,
	  0, 1, "Retired Branch Instructions Mispredicted" },
	{ -1, ALL, "cpu/event=0xc2,umask=0x00/", "call-ret", BT_VEXP_EXACT, "k.branches", 0, 0, 0,
	  0, "Retired Branch Instructions" },
	{ -1, ALL, "cpu/event=0xc8,umask=0x00/", "call-ret", BT_VEXP_EXACT, "k.near_returns", 0, 0,
	  0, 0, "Retired Near Returns" },
	{ -1, ALL, "cpu/event=0xc3,umask=0x00/", "branch-random", BT_VEXP_RANGE,
	  "0.25*k.random_cond", "0.75*k.random_cond + 4 + n/1000", 0, 0, 1,
	  "Retired Branch Instructions Mispredicted: half the PRNG-directed branches" },
	{ -1, ALL, "cpu/event=0x76,umask=0x00/", "loop-dec-jnz", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0,
	  0, 1, "Cycles not in Halt: about one iteration per cycle" },
};

static int cls_of(const struct bt_pmu_caps *caps)
{
	switch (caps->uarch) {
	case BT_UARCH_WSM:
		return WSM;
	case BT_UARCH_WSM_BDW:
	case BT_UARCH_SKL:
		return SNB_SKL;
	case BT_UARCH_ICL:
	case BT_UARCH_GLC:
	case BT_UARCH_RWC:
		return ICL_RWC;
	case BT_UARCH_LNC:
		return LNC;
	case BT_UARCH_ATOM:
		return ATOM;
	default:
		return 0; /* Core 2, Nehalem, unknown: architectural events only */
	}
}

static bt_status add_rows(const struct bt_pmu_caps *caps, const struct row *rows, int n,
			  struct bt_vspec *s)
{
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct bt_vspec_entry e;
		bt_status st;

		if (r->arch_bit >= 0 && (r->arch_bit >= caps->arch_events_len ||
					 (caps->arch_events_na >> r->arch_bit) & 1))
			continue; /* CPUID.0AH says the event is not there */
		if (r->cls != ALL && !(r->cls & cls_of(caps)))
			continue;
		memset(&e, 0, sizeof(e));
		e.index = s->n;
		snprintf(e.event, sizeof(e.event), "%s", r->event);
		snprintf(e.kernel, sizeof(e.kernel), "%s", r->kernel);
		e.kind = r->kind;
		e.k = r->k ? r->k : 1.0;
		if (r->kind == BT_VEXP_RELATION || r->kind == BT_VEXP_LE)
			snprintf(e.of, sizeof(e.of), "%s", r->hi);
		else
			snprintf(e.expr[0], sizeof(e.expr[0]), "%s", r->lo);
		if (r->kind == BT_VEXP_RANGE)
			snprintf(e.expr[1], sizeof(e.expr[1]), "%s", r->hi);
		e.tolerance_pct = e.warn_pct = r->tol;
		e.plausibility = r->plausibility;
		snprintf(e.note, sizeof(e.note), "%s", r->note ? r->note : "");
		if ((st = bt_vspec_add(s, &e)) != BT_OK)
			return st;
	}
	return BT_OK;
}

bt_status bt_vspec_builtin(const struct bt_pmu_caps *caps, struct bt_vspec *s)
{
	if (caps->kind == BT_PMU_INTEL_ARCH)
		return add_rows(caps, intel_rows, (int)(BT_ARRAY_SIZE(intel_rows)), s);
	if (caps->kind != BT_PMU_NONE)
		return add_rows(caps, amd_rows, (int)(BT_ARRAY_SIZE(amd_rows)), s);
	return BT_OK;
}

/* Model events whose meaning gives an expectation over the DEC/JNZ loop
 * (names as the vendors' event lists spell them). Each bound has a lower
 * limit where the meaning gives one, so a dead event (a counter or an
 * encoding that never counts) FAILs instead of passing "<= 8 per cycle":
 * retired uops are at least the instructions less one per macro-fused
 * conditional branch (a fused DEC/JNZ pair is one uop) and at most one per
 * instruction; issue slots (TOPDOWN.SLOTS) are at least the retired uops;
 * issued uops equal the retired ones within the few wrong-path uops of the
 * loop's one mispredicted exit (a second check, against the retired uops,
 * catches an event that counts twice). */
#define UOPS_LO "k.instructions - k.cond"
#define UOPS_HI "k.instructions + 4 + n/1000"
static const struct named {
	const char *name;
	enum bt_vexpect_kind kind;
	const char *lo, *hi;        /* RELATION/LE: hi NULL = the core cycles, else the event */
	double k;
	int plausibility;
	const char *note;
} named[] = {
	{ "INST_RETIRED.ANY", BT_VEXP_EXACT, "k.instructions", NULL, 0, 0, NULL },
	{ "INST_RETIRED.ANY_P", BT_VEXP_EXACT, "k.instructions", NULL, 0, 0, NULL },
	{ "BR_INST_RETIRED.ALL_BRANCHES", BT_VEXP_EXACT, "k.branches", NULL, 0, 0, NULL },
	{ "BR_MISP_RETIRED.ALL_BRANCHES", BT_VEXP_RANGE, "0", "4 + n/1000", 0, 1, NULL },
	{ "CPU_CLK_UNHALTED.THREAD", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1, NULL },
	{ "CPU_CLK_UNHALTED.THREAD_P", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1, NULL },
	{ "CPU_CLK_UNHALTED.CORE", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1, NULL },
	{ "CPU_CLK_UNHALTED.CORE_P", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1, NULL },
	/* AnyThread (SDM vol. 3B 20.2.3): the core's cycles with either thread
	 * unhalted; this thread runs the whole window, so they are its cycles
	 * whatever the sibling does (a general counter: bt_plan_counted_form) */
	{ "CPU_CLK_UNHALTED.THREAD_ANY", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1,
	  "the core's unhalted cycles: this thread's, which runs the whole window" },
	{ "INT_MISC.RECOVERY_CYCLES", BT_VEXP_LE, NULL, NULL, 1, 1, NULL },
	{ "UOPS_RETIRED.RETIRE_SLOTS", BT_VEXP_RANGE, UOPS_LO, UOPS_HI, 0, 1,
	  "retired uops: the instructions less the fused branches .. one per instruction" },
	{ "UOPS_RETIRED.SLOTS", BT_VEXP_RANGE, UOPS_LO, UOPS_HI, 0, 1,
	  "retired uops: the instructions less the fused branches .. one per instruction" },
	{ "UOPS_RETIRED.ALL", BT_VEXP_RANGE, UOPS_LO, UOPS_HI, 0, 1,
	  "retired uops: the instructions less the fused branches .. one per instruction" },
	/* the architectural event (ARCH model): retired slots, one per
	 * retired uop on the cores that enumerate it */
	{ "Topdown_Retiring", BT_VEXP_RANGE, UOPS_LO, UOPS_HI, 0, 1,
	  "retiring slots: the instructions less the fused branches .. one per instruction" },
	{ "UOPS_ISSUED.ANY", BT_VEXP_RANGE, UOPS_LO, "k.instructions + 1000 + n/100", 0, 1,
	  "issued uops: at least the retired ones" },
	{ "UOPS_RETIRED.MACRO_FUSED", BT_VEXP_RANGE, "0", "k.cond + 4", 0, 1,
	  "macro-fused pairs: at most one per conditional branch" },
	{ "INST_RETIRED.MACRO_FUSED", BT_VEXP_RANGE, "0", "k.cond + 4", 0, 1,
	  "macro-fused pairs: at most one per conditional branch" },
	{ "TOPDOWN.SLOTS", BT_VEXP_LE, NULL, NULL, 8, 1, "at most 8 per cycle" },
	{ "ex_ret_instr", BT_VEXP_EXACT, "k.instructions", NULL, 0, 0, NULL },
	{ "ex_ret_brn", BT_VEXP_EXACT, "k.branches", NULL, 0, 0, NULL },
	{ "ex_ret_brn_misp", BT_VEXP_RANGE, "0", "4 + n/1000", 0, 1, NULL },
	{ "ls_not_halted_cyc", BT_VEXP_RANGE, "n/4", "4*n + 1000", 0, 1, NULL },
};

/* A count of cycles by its name (the vendors' convention): CYCLE_ACTIVITY.*,
 * EXE_ACTIVITY.* (cycles with N ports busy, bound on stores), and any
 * .CYCLES / STALLS event; it cannot exceed the core cycles. */
static bool counts_cycles(const char *name)
{
	return strncmp(name, "CYCLE_ACTIVITY.", 15) == 0 || strncmp(name, "EXE_ACTIVITY.", 13) == 0 ||
	       strstr(name, "CYCLES") != NULL || strstr(name, "STALLS") != NULL;
}

/* The model's retired-uops event, for the issued-uops relation. */
static const char *retired_uops(const struct bt_model *m)
{
	static const char *const names[] = { "UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED.SLOTS",
					     "UOPS_RETIRED.ALL" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(names); i++)
		if (bt_model_event_find(m, names[i]) >= 0)
			return names[i];
	return NULL;
}

bt_status bt_vspec_builtin_model(const struct bt_model *m, const double *constants,
				 const struct bt_pmu_caps *caps, struct bt_vspec *s)
{
	return bt_vspec_builtin_model_level(m, 2, constants, caps, s);
}

bt_status bt_vspec_builtin_model_level(const struct bt_model *m, unsigned level,
				       const double *constants, const struct bt_pmu_caps *caps,
				       struct bt_vspec *s)
{
	unsigned total = bt_model_event_count(m), n = 0;
	uint16_t *ev = malloc((total ? total : 1) * sizeof(*ev));
	bt_status st;
	/* The core cycles the bounds scale with: fixed counter 1 where it
	 * exists (measured in every group, so a TakenAlone event still shares
	 * its window), else the architectural 3CH; AMD 76H. */
	const char *cycles = caps->kind != BT_PMU_INTEL_ARCH ? "cpu/event=0x76,umask=0x00/" :
			     (caps->fixed_mask & 2) ? "cpu/event=0x3c,umask=0x00,fixed=1/" :
						      "cpu/event=0x3c,umask=0x00/";

	if (!ev)
		return BT_ERR_NOMEM;
	if ((st = bt_model_events_up_to_level(m, level, constants, ev, &n)) != BT_OK) {
		free(ev);
		return st;
	}
	for (unsigned i = 0; i < n && st == BT_OK; i++) {
		const struct bt_event *e = bt_model_event(m, ev[i]);
		struct bt_vspec_entry x;
		const struct named *known = NULL;

		if (e->source != BT_SRC_PMC && e->source != BT_SRC_PERF_METRICS)
			continue; /* TSC, duration: not PMU events */
		for (size_t j = 0; j < BT_ARRAY_SIZE(named); j++)
			if (strcmp(named[j].name, e->name) == 0)
				known = &named[j];
		memset(&x, 0, sizeof(x));
		x.index = s->n;
		snprintf(x.event, sizeof(x.event), "%s", e->name);
		snprintf(x.kernel, sizeof(x.kernel), "loop-dec-jnz");
		x.k = 8;
		x.kind = BT_VEXP_LE;
		x.plausibility = 1;
		snprintf(x.of, sizeof(x.of), "%s", cycles);
		snprintf(x.note, sizeof(x.note), "Top-Down level 1-%u event: at most 8 per cycle", level);
		if (known) {
			x.kind = known->kind;
			x.plausibility = known->plausibility;
			x.k = known->k ? known->k : 1.0;
			if (known->lo)
				snprintf(x.expr[0], sizeof(x.expr[0]), "%s", known->lo);
			if (known->hi)
				snprintf(x.expr[1], sizeof(x.expr[1]), "%s", known->hi);
			snprintf(x.note, sizeof(x.note), "Top-Down level 1-%u event%s%s", level,
				 known->note ? ": " : known->kind == BT_VEXP_LE ?
				 ": a count of cycles, at most the cycles" : "",
				 known->note ? known->note : "");
		} else if (counts_cycles(e->name)) {
			x.k = 1;
			snprintf(x.note, sizeof(x.note), "Top-Down level 1-%u event: a count of cycles, "
				 "at most the cycles", level);
		}
		st = bt_vspec_add(s, &x);
		/* Issue slots: also at least the retired uops (a second check,
		 * so the first keeps judging them against the cycles). */
		if (st == BT_OK && strcmp(e->name, "TOPDOWN.SLOTS") == 0) {
			x.index = s->n;
			x.kind = BT_VEXP_RANGE;
			snprintf(x.expr[0], sizeof(x.expr[0]), "%s", UOPS_LO);
			snprintf(x.expr[1], sizeof(x.expr[1]), "32*n + 8000");
			snprintf(x.note, sizeof(x.note), "Top-Down level 1-%u event: issue slots: at "
				 "least the retired uops", level);
			st = bt_vspec_add(s, &x);
		}
		/* Issued against retired uops in one window: an issued-uop event
		 * that counts twice (or half) is off by far more than the few
		 * wrong-path uops the loop's one mispredicted exit adds. */
		const char *retired = known && strcmp(e->name, "UOPS_ISSUED.ANY") == 0 ?
					      retired_uops(m) : NULL;
		if (st == BT_OK && retired) {
			memset(&x, 0, sizeof(x));
			x.index = s->n;
			snprintf(x.event, sizeof(x.event), "%s", e->name);
			snprintf(x.kernel, sizeof(x.kernel), "loop-dec-jnz");
			x.kind = BT_VEXP_RELATION;
			x.k = 1;
			x.tolerance_pct = x.warn_pct = 10;
			x.plausibility = 1;
			snprintf(x.of, sizeof(x.of), "%s", retired);
			snprintf(x.note, sizeof(x.note), "Top-Down level 1-%u event: issued uops = "
				 "retired uops but for the wrong path of one mispredicted exit", level);
			st = bt_vspec_add(s, &x);
		}
	}
	free(ev);
	return st;
}
