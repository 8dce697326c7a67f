/* SPDX-License-Identifier: MIT */
/* The kernel double (perf-kernel-double.h). Each rule names the Linux
 * function it follows; the tables are rows of Linux's own tables
 * (arch/x86/events/intel/core.c unless said), for the models the tests
 * plan for. SIMULATED. */
#include <stdio.h>
#include <string.h>

#include "tests/unit/lib/perf-kernel-double.h"
#include "base/array.h"

#define GP(m)   ((uint64_t)(m))
#define FX(n)   (1ull << (32 + (n)))
#define MT(n)   (1ull << (48 + (n)))
#define ALL_GP  0xFFFFull

/* struct event_constraint, reduced: code and cmask as Linux matches them
 * ((config & cmask) == code; a range matches the event select in
 * [code, last]), idxmsk before intel_pmu_check_event_constraints. */
enum { C_FIXED, C_EVENT, C_UEVENT, C_EXCL, C_RANGE, C_METRIC };
struct kd_cons {
	uint8_t kind;
	uint16_t code, last;
	uint64_t idx;
};

/* FIXED_EVENT_CONSTRAINT's cmask: INTEL_ARCH_EVENT_MASK | INV | ANY | EDGE | CMASK. */
#define FIXED_CMASK (0xFFFFull | (1ull << 23) | (1ull << 21) | (1ull << 18) | 0xFF000000ull)

static const struct kd_cons skl_cons[] = {   /* intel_skl_event_constraints */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, { C_FIXED, 0x0300, 0, FX(2) },
	{ C_UEVENT, 0x01c0, 0, GP(0x2) },
	/* "when HT is off, these can only run on the bottom 4 counters" */
	{ C_EVENT, 0x48, 0, GP(0xf) }, { C_EVENT, 0xc3, 0, GP(0xf) }, { C_EVENT, 0xcd, 0, GP(0xf) },
	{ C_RANGE, 0xd0, 0xd4, GP(0xf) },
};
static const struct kd_cons hsw_cons[] = {   /* intel_hsw_event_constraints */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, { C_FIXED, 0x0300, 0, FX(2) },
	{ C_UEVENT, 0x0148, 0, GP(0x4) }, { C_UEVENT, 0x01c0, 0, GP(0x2) }, { C_EVENT, 0xcd, 0, GP(0x8) },
	{ C_UEVENT, 0x08a3, 0, GP(0x4) }, { C_UEVENT, 0x0ca3, 0, GP(0x4) }, { C_UEVENT, 0x04a3, 0, GP(0xf) },
	/* INTEL_EXCLEVT_CONSTRAINT(0xd0..0xd3, 0xf): MEM_UOPS_RETIRED.* .. L3_MISS_RETIRED.* */
	{ C_EXCL, 0xd0, 0, GP(0xf) }, { C_EXCL, 0xd1, 0, GP(0xf) }, { C_EXCL, 0xd2, 0, GP(0xf) },
	{ C_EXCL, 0xd3, 0, GP(0xf) },
};
static const struct kd_cons glc_cons[] = {   /* intel_glc_event_constraints (rows kept) */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x0100, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) },
	{ C_FIXED, 0x0300, 0, FX(2) }, { C_FIXED, 0x013c, 0, FX(2) }, { C_FIXED, 0x0400, 0, FX(3) },
	{ C_METRIC, 0x8000, 0, MT(0) }, { C_METRIC, 0x8100, 0, MT(1) }, { C_METRIC, 0x8200, 0, MT(2) },
	{ C_METRIC, 0x8300, 0, MT(3) }, { C_METRIC, 0x8400, 0, MT(4) }, { C_METRIC, 0x8500, 0, MT(5) },
	{ C_METRIC, 0x8600, 0, MT(6) }, { C_METRIC, 0x8700, 0, MT(7) },
	{ C_EVENT, 0x2e, 0, GP(0xff) }, { C_EVENT, 0x3c, 0, GP(0xff) },
	/* "Generally event codes < 0x90 are restricted to counters 0-3." */
	{ C_RANGE, 0x01, 0x8f, GP(0xf) },
	{ C_RANGE, 0xd0, 0xdf, GP(0xf) },
};
/* intel_lnc_event_constraints as a932aa0e868f ("perf/x86: Add Lunar Lake
 * and Arrow Lake support", 6.11) wrote it ... */
#define LNC_FIXED \
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x0100, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, \
	{ C_FIXED, 0x0300, 0, FX(2) }, { C_FIXED, 0x013c, 0, FX(2) }, { C_FIXED, 0x0400, 0, FX(3) }, \
	{ C_METRIC, 0x8000, 0, MT(0) }, { C_METRIC, 0x8100, 0, MT(1) }, { C_METRIC, 0x8200, 0, MT(2) }, \
	{ C_METRIC, 0x8300, 0, MT(3) }, { C_METRIC, 0x8400, 0, MT(4) }, { C_METRIC, 0x8500, 0, MT(5) }, \
	{ C_METRIC, 0x8600, 0, MT(6) }, { C_METRIC, 0x8700, 0, MT(7) }
static const struct kd_cons lnc_cons_611[] = {
	LNC_FIXED,
	{ C_UEVENT, 0x0148, 0, GP(0x4) }, { C_UEVENT, 0x0175, 0, GP(0x4) },
	{ C_EVENT, 0x2e, 0, GP(0x3ff) }, { C_EVENT, 0x3c, 0, GP(0x3ff) },
	/* "Generally event codes < 0x90 are restricted to counters 0-3." */
	{ C_RANGE, 0x01, 0x8f, GP(0xf) },
	{ C_UEVENT, 0x01a3, 0, GP(0xf) }, { C_UEVENT, 0x02a3, 0, GP(0xf) },
	{ C_UEVENT, 0x08a3, 0, GP(0x4) }, { C_UEVENT, 0x0ca3, 0, GP(0x4) },
	{ C_UEVENT, 0x04a4, 0, GP(0x1) }, { C_UEVENT, 0x08a4, 0, GP(0x1) }, { C_UEVENT, 0x10a4, 0, GP(0x1) },
	{ C_UEVENT, 0x01b1, 0, GP(0x8) }, { C_UEVENT, 0x02cd, 0, GP(0x3) },
	{ C_EVENT, 0xce, 0, GP(0x1) },
	{ C_RANGE, 0xd0, 0xdf, GP(0xf) },
	/* "Generally event codes >= 0x90 are likely to have no restrictions." */
	{ C_RANGE, 0x90, 0xfe, GP(0x3ff) },
};
/* ... and as 782cffeec9ad ("perf/x86/intel: Fix event constraints for
 * LNC", 6.14-rc4; stable 6.12.17, 6.13.5) left it: the < 0x90 rule, 0x01a3,
 * 0x02a3 and 0xce gone; 0x20, OCR 0x012a/0x012b, 0x01cd restricted. */
static const struct kd_cons lnc_cons_614[] = {
	LNC_FIXED,
	{ C_EVENT, 0x20, 0, GP(0xf) },
	{ C_UEVENT, 0x012a, 0, GP(0xf) }, { C_UEVENT, 0x012b, 0, GP(0xf) },
	{ C_UEVENT, 0x0148, 0, GP(0x4) }, { C_UEVENT, 0x0175, 0, GP(0x4) },
	{ C_EVENT, 0x2e, 0, GP(0x3ff) }, { C_EVENT, 0x3c, 0, GP(0x3ff) },
	{ C_UEVENT, 0x08a3, 0, GP(0x4) }, { C_UEVENT, 0x0ca3, 0, GP(0x4) },
	{ C_UEVENT, 0x04a4, 0, GP(0x1) }, { C_UEVENT, 0x08a4, 0, GP(0x1) }, { C_UEVENT, 0x10a4, 0, GP(0x1) },
	{ C_UEVENT, 0x01b1, 0, GP(0x8) }, { C_UEVENT, 0x01cd, 0, GP(0x3fc) },
	{ C_UEVENT, 0x02cd, 0, GP(0x3) },
	{ C_RANGE, 0xd0, 0xdf, GP(0xf) },
};
static const struct kd_cons grt_cons[] = {   /* intel_grt_event_constraints */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, { C_FIXED, 0x0300, 0, FX(2) },
	{ C_FIXED, 0x013c, 0, FX(2) },
};
static const struct kd_cons skt_cons[] = {   /* intel_skt_event_constraints */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, { C_FIXED, 0x0300, 0, FX(2) },
	{ C_FIXED, 0x013c, 0, FX(2) }, { C_FIXED, 0x0073, 0, FX(4) }, { C_FIXED, 0x019c, 0, FX(5) },
	{ C_FIXED, 0x02c2, 0, FX(6) },
};
static const struct kd_cons v5_cons[] = {    /* intel_v5_gen_event_constraints */
	{ C_FIXED, 0x00c0, 0, FX(0) }, { C_FIXED, 0x003c, 0, FX(1) }, { C_FIXED, 0x0300, 0, FX(2) },
	{ C_FIXED, 0x0400, 0, FX(3) }, { C_FIXED, 0x0500, 0, FX(4) }, { C_FIXED, 0x0600, 0, FX(5) },
	{ C_FIXED, 0x0700, 0, FX(6) }, { C_FIXED, 0x0800, 0, FX(7) },
};

/* struct extra_reg: INTEL_UEVENT_EXTRA_REG matches event and umask
 * (INTEL_ARCH_EVENT_MASK); valid_mask is what config1 may hold. */
struct kd_xr {
	uint16_t event;
	uint64_t valid;
};
static const struct kd_xr skl_xr[] = {       /* intel_skl_extra_regs */
	{ 0x01b7, 0x3fffff8fffull }, { 0x01bb, 0x3fffff8fffull }, { 0x01cd, 0xffff }, { 0x01c6, 0x7fff17 },
};
static const struct kd_xr snbep_xr[] = {     /* intel_snbep_extra_regs (Haswell) */
	{ 0x01b7, 0x3fffff8fffull }, { 0x01bb, 0x3fffff8fffull }, { 0x01cd, 0xffff },
};
static const struct kd_xr glc_xr[] = {       /* intel_glc_extra_regs */
	{ 0x012a, 0x3fffffffffull }, { 0x012b, 0x3fffffffffull }, { 0x01cd, 0xffff }, { 0x01c6, 0x7fff1f },
	{ 0x40ad, 0x7 }, { 0x04c2, 0x8 },
};
/* intel_rwc_extra_regs: a6742cb90b56 ("Fix the FRONTEND encoding on GNR
 * and MTL", merged for 6.4) as intel_gnr_extra_regs, renamed; Lion Cove's
 * until aa5d2ca7c179. */
static const struct kd_xr rwc_xr[] = {
	{ 0x012a, 0x3fffffffffull }, { 0x012b, 0x3fffffffffull }, { 0x01cd, 0xffff }, { 0x02c6, 0x9 },
	{ 0x03c6, 0x7fff1f }, { 0x40ad, 0x7 }, { 0x04c2, 0x8 },
};
/* intel_lnc_extra_regs: aa5d2ca7c179 ("Fix bitmask of OCR and FRONTEND
 * events for LNC", 6.13; stable 6.12.8). */
static const struct kd_xr lnc_xr[] = {
	{ 0x012a, 0xfffffffffffull }, { 0x012b, 0xfffffffffffull }, { 0x01cd, 0xffff }, { 0x02c6, 0x9 },
	{ 0x03c6, 0x7fff1f }, { 0x40ad, 0xf }, { 0x04c2, 0x8 },
};
static const struct kd_xr grt_xr[] = {       /* intel_grt_extra_regs */
	{ 0x01b7, 0x3fffffffffull }, { 0x02b7, 0x3fffffffffull }, { 0x05d0, 0xffff },
};
static const struct kd_xr cmt_xr[] = {       /* intel_cmt_extra_regs */
	{ 0x01b7, 0x800ff3ffffffffffull }, { 0x02b7, 0xff3ffffffffffull }, { 0x05d0, 0xffff },
	{ 0x0127, ~0ull }, { 0x0227, ~0ull },
};

#define N(a) (int)(BT_ARRAY_SIZE(a))

struct kview {
	const struct bt_pk_pmu *pmu;       /* the PMU the event's type names */
	bool runs_here;
	uint64_t gp, fixed;                /* counters (gp bits 0-15, fixed 0-15) */
	bool metrics;
	uint64_t config_mask;
	int version;
	bool any_deprecated;
	const struct kd_cons *cons;
	int n_cons;
	const struct kd_xr *xr;
	int n_xr;
	bool xr_access;
	bool excl_ht;
	bool amd;
};

static bool named(const struct bt_pk_pmu *p, const char *pmu_name, const char *pmu)
{
	return (!pmu_name || strcmp(p->pmu_name, pmu_name) == 0) && (!pmu || strcmp(p->name, pmu) == 0);
}

static bool ver_at_least(const struct bt_perf_kernel *k, int a, int b)
{
	return k->ver_major > a || (k->ver_major == a && k->ver_minor >= b);
}

/* A fix merged for mainline a.b and taken by the stable series listed
 * ({minor, first patch level}): the release has it. A stable level the
 * tree does not give counts as the series' first release (X.Y.0). */
struct kd_stable { int minor, patch; };
static bool has_fix(const struct bt_perf_kernel *k, int a, int b, const struct kd_stable *st)
{
	if (ver_at_least(k, a, b))
		return true;
	for (; st && st->minor; st++)
		if (k->ver_major == a && k->ver_minor == st->minor)
			return k->ver_patch >= st->patch;
	return false;
}

/* Lion Cove (intel_pmu_init_lnc) as the release has it. */
static void lion_cove(const struct bt_perf_kernel *k, struct kview *v)
{
	static const struct kd_stable xr_fix[] = { { 12, 8 }, { 0, 0 } };
	static const struct kd_stable cons_fix[] = { { 12, 17 }, { 13, 5 }, { 0, 0 } };
	bool new_xr = has_fix(k, 6, 13, xr_fix), new_cons = has_fix(k, 6, 14, cons_fix);
	v->xr = new_xr ? lnc_xr : rwc_xr;
	v->n_xr = new_xr ? N(lnc_xr) : N(rwc_xr);
	v->cons = new_cons ? lnc_cons_614 : lnc_cons_611;
	v->n_cons = new_cons ? N(lnc_cons_614) : N(lnc_cons_611);
}

/* The kernel's own view of this PMU on this CPU (intel_pmu_init,
 * amd_core_pmu_init), from CPUID and the model it knows. */
static void view(const struct kd_machine *m, const struct bt_pk_pmu *p, struct kview *v)
{
	const struct bt_perf_kernel *k = m->k;
	memset(v, 0, sizeof(*v));
	v->pmu = p;
	v->runs_here = !p->has_cpus || (m->cpu < BT_PK_MAX_CPUS && (p->cpus[m->cpu / 64] >> (m->cpu % 64) & 1));
	if (m->amd) {
		/* amd_core_pmu_init: 6 core counters with PerfCtrExtCore
		 * (AMD64_NUM_COUNTERS_CORE); PerfMonV2: 8000_0022H EBX[3:0].
		 * AMD64_RAW_EVENT_MASK keeps event[11:8] in config[35:32]. */
		unsigned n = (m->e22.eax & 1) ? (m->e22.ebx & 0xF) : 6;
		v->gp = (1u << n) - 1;
		v->config_mask = 0xFF84FFFFull | (0xFull << 32);
		v->amd = true;
		return;
	}
	const struct bt_cpuid *a = p->has_cpus ? &m->l0a : &m->l0a_boot;
	v->version = (int)(a->eax & 0xFF);
	v->any_deprecated = v->version >= 5 && (a->edx >> 15 & 1);
	unsigned gp = (a->eax >> 8) & 0xFF, nf = a->edx & 0x1F;
	/* X86_RAW_EVENT_MASK: event, umask, edge, inv, cmask (x86_pmu_hw_config). */
	v->config_mask = 0xFF84FFFFull;
	if (named(p, "generic_arch_v5+", NULL) || named(p, "generic_arch_v2+", NULL)) {
		/* intel_pmu_init, default: the architectural counters of
		 * CPUID.0AH, at most INTEL_PMC_MAX_GENERIC (32,
		 * arch/x86/include/asm/perf_event.h); fixed counters 0-2 in
		 * intel_gen_event_constraints before v5, CPUID's in
		 * intel_v5_gen_event_constraints from it. */
		if (gp > 32)
			gp = 32;
		v->gp = gp >= 32 ? 0xFFFFFFFFull : (1ull << gp) - 1;
		v->fixed = ((1u << nf) - 1) | (v->version >= 5 ? a->ecx : 0);
		if (v->version < 5)
			v->fixed &= 0x7;
		v->cons = v5_cons, v->n_cons = N(v5_cons);
	} else if (named(p, "alderlake_hybrid", "cpu_core")) {
		/* intel_pmu_init, ADL: the P-core has 2 general and 1 fixed
		 * counter more than CPUID.0AH lists. */
		v->gp = (1u << (gp + 2)) - 1;
		v->fixed = (1u << (nf + 1)) - 1;
		v->metrics = true;
		v->cons = glc_cons, v->n_cons = N(glc_cons);
		v->xr = glc_xr, v->n_xr = N(glc_xr);
	} else if (named(p, "alderlake_hybrid", "cpu_atom")) {
		v->gp = (1u << gp) - 1;
		v->fixed = (1u << nf) - 1;
		v->cons = grt_cons, v->n_cons = N(grt_cons);
		v->xr = grt_xr, v->n_xr = N(grt_xr);
	} else if (named(p, "lunarlake_hybrid", NULL) || named(p, "arrowlake_h_hybrid", NULL) ||
		   named(p, "meteorlake_hybrid", NULL)) {
		/* update_pmu_cap: the counter bitmaps of CPUID.23H.01H, and
		 * from 6.11 UMASK2/EQ in config_mask by 23H:EBX. */
		v->gp = m->l23_1.eax;
		v->fixed = m->l23_1.ebx;
		if (ver_at_least(k, 6, 11)) {
			if (m->l23.ebx & 1)
				v->config_mask |= 0xFFull << 40;
			if (m->l23.ebx & 2)
				v->config_mask |= 1ull << 36;
		}
		bool core = strcmp(p->name, "cpu_core") == 0;
		v->metrics = core;
		if (named(p, "meteorlake_hybrid", "cpu_core")) {
			/* intel_pmu_init_glc; Redwood Cove's FRONTEND umasks
			 * from a6742cb90b56 (merged for 6.4: perf_urgent_for_v6.4,
			 * 2023-06-25). Its 6.3.y backport's level is not known
			 * here: 6.3 counts as without it (the tree is 6.3.7,
			 * released before the fix was posted on 2023-06-15). */
			bool rwc = has_fix(k, 6, 4, NULL);
			v->cons = glc_cons, v->n_cons = N(glc_cons);
			v->xr = rwc ? rwc_xr : glc_xr;
			v->n_xr = rwc ? N(rwc_xr) : N(glc_xr);
		} else if (core) {
			lion_cove(k, v);
		} else if (named(p, NULL, "cpu_atom") && !named(p, "meteorlake_hybrid", NULL)) {
			/* intel_pmu_init_skt, intel_cmt_extra_regs */
			v->cons = skt_cons, v->n_cons = N(skt_cons);
			v->xr = cmt_xr, v->n_xr = N(cmt_xr);
		} else {
			/* Crestmont: MTL's cpu_atom, ARL-H's cpu_lowpower
			 * (intel_pmu_init_grt, intel_cmt_extra_regs) */
			v->cons = grt_cons, v->n_cons = N(grt_cons);
			v->xr = cmt_xr, v->n_xr = N(cmt_xr);
		}
	} else if (named(p, "skylake", NULL) || named(p, "haswell", NULL)) {
		/* v2-v4: at least 3 fixed counters unless under a hypervisor. */
		unsigned assume = m->hypervisor ? 0 : 3;
		v->gp = (1u << gp) - 1;
		v->fixed = (1u << (nf > assume ? nf : assume)) - 1;
		bool skl = named(p, "skylake", NULL);
		v->cons = skl ? skl_cons : hsw_cons;
		v->n_cons = skl ? N(skl_cons) : N(hsw_cons);
		v->xr = skl ? skl_xr : snbep_xr;
		v->n_xr = skl ? N(skl_xr) : N(snbep_xr);
		/* hsw_hw_config: the TSX qualifiers. */
		v->config_mask |= 3ull << 32;
		/* The HT erratum workaround (intel_ht_bug; fixup_ht_bug keeps
		 * it only with SMT on): exclusive events halve gpmax. */
		v->excl_ht = !skl && k->smt_active == 1;
	} else {
		v->gp = (1u << gp) - 1;
		v->fixed = (1u << nf) - 1;
	}
	/* intel_pmu_init check_msr, only under X86_FEATURE_HYPERVISOR: an
	 * extra MSR the hypervisor does not let the guest write drops its
	 * entry (er->extra_msr_access false) and x86_pmu_extra_regs returns
	 * -ENXIO; one it passes through stays. */
	v->xr_access = !m->hypervisor || m->hv_passes_msrs;
}

/* The constraint of one Intel config, after intel_pmu_check_event_constraints:
 * fixed counters that exist, extended to the general counters unless the
 * event select is 0 (use_fixed_pseudo_encoding); topdown ones zeroed
 * without fixed counter 3; no match: every general counter. */
static uint64_t constraint(const struct kview *v, uint64_t config, bool *excl)
{
	*excl = false;
	if (v->amd)
		return v->gp;
	for (int i = 0; i < v->n_cons; i++) {
		const struct kd_cons *c = &v->cons[i];
		bool hit = false;
		switch (c->kind) {
		case C_FIXED:
			hit = (config & FIXED_CMASK) == c->code;
			break;
		case C_EVENT:
		case C_EXCL:
			hit = (config & 0xFF) == c->code;
			break;
		case C_UEVENT:
		case C_METRIC:
			hit = (config & 0xFFFF) == c->code;
			break;
		case C_RANGE:
			hit = (config & 0xFF) >= c->code && (config & 0xFF) <= c->last;
			break;
		}
		if (!hit)
			continue;
		if (c->kind == C_METRIC)
			return v->metrics && (v->fixed & 8) ? c->idx : 0;
		if (c->kind == C_FIXED) {
			uint64_t fx = c->idx & (v->fixed << 32);
			if (c->code == 0x0400)
				return v->metrics || (v->fixed & 8) ? fx : 0;
			return fx | ((c->code & 0xFF) ? v->gp : 0);
		}
		*excl = c->kind == C_EXCL;
		return c->idx & v->gp;
	}
	return v->gp;
}

/* Is there an assignment of every event to a distinct counter of its
 * mask, using at most gpmax general counters? (x86_schedule_events /
 * perf_assign_events, as a matching; the kernel's greedy walk finds one
 * when one exists for these small masks.) */
static bool match_rec(const uint64_t *mask, int n, int i, uint64_t used, int gp_left)
{
	if (i == n)
		return true;
	for (int b = 0; b < 64; b++) {
		uint64_t bit = 1ull << b;
		if (!(mask[i] & bit) || (used & bit))
			continue;
		bool gp = b < 32;
		if (gp && gp_left == 0)
			continue;
		if (match_rec(mask, n, i + 1, used | bit, gp_left - (gp ? 1 : 0)))
			return true;
	}
	return false;
}

static bool schedulable(const uint64_t *mask, int n, int gpmax)
{
	/* Pigeonholes first: more events than counters, or than general
	 * counters for the events that have only those. */
	uint64_t all = 0;
	int gp_only = 0;
	for (int i = 0; i < n; i++) {
		all |= mask[i];
		gp_only += !(mask[i] >> 32);
	}
	if (n > __builtin_popcountll(all) || gp_only > gpmax)
		return false;
	/* Most constrained first keeps the search short. */
	uint64_t m[40];
	int k = 0;
	for (int w = 1; w <= 64 && k < n; w++)
		for (int i = 0; i < n; i++)
			if (__builtin_popcountll(mask[i]) == w)
				m[k++] = mask[i];
	for (int i = 0; i < n; i++)
		if (!mask[i])
			return false;
	return match_rec(m, k, 0, 0, gpmax);
}

enum kd_result kd_open_group(const struct kd_machine *m, const struct bt_perf_member *g, int n,
			     char *why, size_t len)
{
	const struct bt_perf_kernel *k = m->k;
	bool capable = k->caps_known && (k->cap_perfmon || k->cap_sys_admin);
	struct kview v;
	uint64_t mask[40];
	bool any_excl = false;

	if (n <= 0 || n > 32) {
		snprintf(why, len, "a group of %d events", n);
		return KD_EINVAL;
	}
	for (int i = 0; i < n; i++) {
		const struct perf_event_attr *a = &g[i].attr;
		const char *what = g[i].what;
		/* perf_event_open: exclude_kernel clear needs perf_allow_kernel. */
		if (!a->exclude_kernel && k->paranoid > 1 && !capable) {
			snprintf(why, len, "%s: ring 0 counted with perf_event_paranoid %d (perf_allow_kernel)",
				 what, k->paranoid);
			return KD_EACCES;
		}
		/* perf_init_event: the PMU registered with this type; on a hybrid
		 * part PERF_TYPE_RAW is the big core's (init_hw_perf_events). */
		const struct bt_pk_pmu *p = NULL;
		for (int j = 0; j < k->n_pmus; j++)
			if (k->pmu[j].type == a->type)
				p = &k->pmu[j];
		if (!p) {
			snprintf(why, len, "%s: no PMU of type %u", what, a->type);
			return KD_ENOENT;
		}
		if (i && p != v.pmu) {
			snprintf(why, len, "%s: a group across PMUs %s and %s (perf_event_open: EINVAL)",
				 what, v.pmu->name, p->name);
			return KD_EINVAL;
		}
		if (!i)
			view(m, p, &v);
		if ((i == 0) != (a->pinned != 0)) {
			snprintf(why, len, "%s: only the leader may be pinned", what);
			return KD_EINVAL;
		}
		uint64_t cfg = a->config;
		if (!v.amd && (cfg & (1ull << 21))) {
			/* intel_pmu_hw_config: AnyThread. */
			if (v.version < 3 || v.any_deprecated) {
				snprintf(why, len, "%s: AnyThread on perfmon v%d%s", what, v.version,
					 v.any_deprecated ? " (deprecated)" : "");
				return KD_EINVAL;
			}
			if (k->paranoid > 0 && !capable) {
				snprintf(why, len, "%s: AnyThread with perf_event_paranoid %d (perf_allow_cpu)",
					 what, k->paranoid);
				return KD_EACCES;
			}
			cfg &= ~(1ull << 21);
		}
		bool metric = !v.amd && (cfg & 0xFF) == 0 && ((cfg >> 8) & 0xFF) >= 0x80;
		if (metric && v.metrics) {
			/* intel_pmu_hw_config: a metric event needs the slots
			 * event as its group leader, no config1. */
			if (i == 0 || (g[0].attr.config & 0xFFFF) != 0x0400 || a->config1) {
				snprintf(why, len, "%s: a metric event whose leader is not slots", what);
				return KD_EINVAL;
			}
		} else if (metric) {
			snprintf(why, len, "%s: 0x%llx is a metric pseudo-event, but this PMU has no "
				 "PERF_METRICS: it would count event 0 umask 0x%llx", what,
				 (unsigned long long)cfg, (unsigned long long)(cfg >> 8 & 0xFF));
			return KD_WRONG;
		}
		/* x86_pmu_hw_config / x86_pmu_get_event_config: attr.config &
		 * config_mask, the rest dropped without a word. */
		uint64_t lost = cfg & ~v.config_mask;
		if (lost) {
			snprintf(why, len, "%s: config bits 0x%llx dropped by the kernel (Linux %d.%d)", what,
				 (unsigned long long)lost, k->ver_major, k->ver_minor);
			return KD_WRONG;
		}
		/* x86_pmu_extra_regs. */
		const struct kd_xr *xr = NULL;
		for (int j = 0; j < v.n_xr; j++)
			if (v.xr[j].event == (cfg & 0xFFFF))
				xr = &v.xr[j];
		if (xr) {
			if (!v.xr_access) {
				snprintf(why, len, "%s: extra register not writable under a hypervisor", what);
				return KD_ENXIO;
			}
			if (a->config1 & ~xr->valid) {
				snprintf(why, len, "%s: config1 0x%llx outside the valid mask 0x%llx", what,
					 (unsigned long long)a->config1, (unsigned long long)xr->valid);
				return KD_EINVAL;
			}
		} else if (a->config1 && !metric) {
			snprintf(why, len, "%s: config1 0x%llx ignored: no extra register for 0x%04llx on "
				 "this kernel's %s PMU", what, (unsigned long long)a->config1,
				 (unsigned long long)(cfg & 0xFFFF), p->name);
			return KD_WRONG;
		}
		if (a->exclude_user && a->exclude_kernel && a->exclude_hv) {
			snprintf(why, len, "%s: every ring excluded: counts nothing", what);
			return KD_WRONG;
		}
		bool excl;
		mask[i] = constraint(&v, cfg, &excl);
		any_excl |= excl;
		if (!mask[i]) {
			/* validate_event / validate_group: no counter at all. */
			snprintf(why, len, "%s: config 0x%llx has no counter on this PMU", what,
				 (unsigned long long)cfg);
			return KD_EINVAL;
		}
	}
	int gp = __builtin_popcountll(v.gp);
	/* validate_group: the group alone, on a fake cpuc (no watchdog, no
	 * exclusive halving: cpuc->is_fake). */
	if (!schedulable(mask, n, gp)) {
		snprintf(why, len, "the group does not fit the PMU even alone (validate_group: EINVAL)");
		return KD_EINVAL;
	}
	/* Scheduling on the CPU: the PMU must run here. */
	if (!v.runs_here) {
		snprintf(why, len, "the %s PMU does not count on CPU %u: the group never runs", v.pmu->name,
			 m->cpu);
		return KD_INACTIVE;
	}
	/* The NMI watchdog's pinned cycles event of this CPU's context
	 * (kernel/watchdog_perf.c), scheduled with the group: Intel 0x003c,
	 * AMD 0x0076 (any counter). */
	int nn = n;
	if (k->nmi_watchdog == 1) {
		bool ex;
		mask[nn++] = v.amd ? v.gp : constraint(&v, 0x003c, &ex);
	}
	int gpmax = gp;
	if (v.excl_ht && any_excl)
		gpmax /= 2;    /* x86_schedule_events */
	if (!schedulable(mask, nn, gpmax)) {
		snprintf(why, len, "%d events%s on %d general counters%s: the pinned group goes to error "
			 "state", n, k->nmi_watchdog == 1 ? " + the NMI watchdog" : "", gpmax,
			 gpmax < gp ? " (halved: an exclusive event with SMT on)" : "");
		return KD_ERROR_STATE;
	}
	return KD_OK;
}

const char *kd_result_name(enum kd_result r)
{
	static const char *const names[] = { "ok", "EINVAL", "EACCES", "ENOENT", "ENXIO",
					     "error state", "inactive", "counts the wrong thing" };
	return (unsigned)r < BT_ARRAY_SIZE(names) ? names[r] : "?";
}

bool kd_counts_on_loop(const struct kd_machine *m, const struct perf_event_attr *a)
{
	/* kvm/pmu.c check_pmu_event_filter: a KVM_PMU_EVENT_DENY filter's
	 * events (event select and unit mask, AMD64_RAW_EVENT_MASK_NB) are
	 * not programmed; reprogram_counter returns without starting it. */
	for (int i = 0; m->hypervisor && i < m->n_kvm_denied; i++)
		if ((a->config & 0xFFFF) == m->kvm_denied[i])
			return false;
	return true;
}
