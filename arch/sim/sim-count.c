/* SPDX-License-Identifier: MIT */
/*
 * What the simulated PMU counts in a window: each enabled counter whose
 * programmed encoding matches a count-source entry advances by that entry's
 * count. The programmed registers are decoded here independently of the
 * driver's encoder (pmu/event-encode.c), so an encoding mistake there shows
 * up as a wrong (usually zero) count instead of being mirrored.
 */
#include <stdio.h>
#include <string.h>

#include "arch/sim/sim-internal.h"

/* OS/USR as the event wants them: ":SUP" ring 0 only, ":USER" ring > 0
 * only, otherwise both. */
static bool priv_match(uint16_t flags, bool os, bool usr)
{
	if (flags & BT_EVF_SUP)
		return os && !usr;
	if (flags & BT_EVF_USER)
		return usr && !os;
	return os && usr;
}

static bool is_ocr(const struct bt_event *e)
{
	return e->msr_index == SIM_MSR_OFFCORE_RSP_0 || e->msr_index == SIM_MSR_OFFCORE_RSP_1;
}

/* Load-latency events count only with PEBS armed for their counter (SDM
 * "Load Latency Performance Monitoring Facility": PEBS_EN_PMCx and, before
 * extended PEBS, LL_EN_PMCx in IA32_PEBS_ENABLE); so do events the vendor
 * data marks PEBS-only. */
static bool pebs_armed(const struct bt_sim *sim, unsigned i, const struct bt_event *e)
{
	bool ldlat = e->msr_index == SIM_MSR_PEBS_LD_LAT;
	if (!ldlat && !(e->flags & BT_EVF_PEBS_ONLY))
		return true;
	uint64_t pe = sim->regs.pebs_enable;
	if (!((pe >> i) & 1))
		return false;
	return !ldlat || sim->cfg.version >= 5 || ((pe >> (32 + i)) & 1);
}

/* Does general counter i's selector count entry e? */
static bool gp_matches(const struct bt_sim *sim, unsigned i, uint64_t sel, const struct bt_event *e)
{
	bool amd = sim->cfg.vendor == BT_VENDOR_AMD;
	if (e->source != BT_SRC_PMC)
		return false;
	unsigned code = sel & 0xFF;
	if (amd)
		code |= ((sel >> SIM_AMD_EVENT_HI_SHIFT) & 0xF) << 8;
	unsigned umask = (sel >> SIM_SEL_UMASK_SHIFT) & 0xFF;
	unsigned cmask = (sel >> SIM_SEL_CMASK_SHIFT) & 0xFF;
	bool inv = sel & SIM_SEL_INV, edge = sel & SIM_SEL_EDGE;
	/* AnyThread deprecated (CPUID.0AH:EDX[15]): the bit is ignored. */
	bool any = !amd && (sel & SIM_SEL_ANY) && bt_sim_any_effective(&sim->cfg);
	bool eq = !amd && (sel & SIM_SEL_EQ);
	unsigned umask2 = amd ? 0 : (sel >> SIM_SEL_UMASK2_SHIFT) & 0xFF;
	/* HostOnly (41) / GuestOnly (40), APM vol. 2 §13.2.1: one of them alone
	 * restricts counting to host or guest mode, and with EFER.SVME = 0
	 * (the simulated CPU never enables SVM) the processor is in neither:
	 * either bit alone counts nothing. Linux relies on it: with SVM off
	 * amd_pmu_disable_virt() masks HostOnly out of every selector so that
	 * "host-only" counters count at all, and a GuestOnly one then "will not
	 * count anything". Both clear or both set count everything. */
	if (amd && !!(sel & SIM_AMD_GUESTONLY) != !!(sel & SIM_AMD_HOSTONLY))
		return false;
	if (cmask != e->cmask || umask2 != e->umask_ext ||
	    inv != !!(e->flags & BT_EVF_INV) || edge != !!(e->flags & BT_EVF_EDGE) ||
	    any != !!(e->flags & BT_EVF_ANY) || eq != !!(e->flags & BT_EVF_EQ) ||
	    !priv_match(e->flags, sel & SIM_SEL_OS, sel & SIM_SEL_USR))
		return false;
	if (!amd && is_ocr(e)) {
		/* OFFCORE_RESPONSE: the programmed (code, umask) selects the MSR
		 * on this microarchitecture (sim-tables.c), whatever the entry
		 * declares; it counts the entry when the entry is an OCR event of
		 * the same pair and that MSR holds the entry's value. */
		int rsp = bt_sim_ocr_rsp(sim->cfg.family, code, umask);
		return sim->cfg.offcore && rsp >= 0 &&
		       bt_sim_ocr_rsp(sim->cfg.family, e->code, e->umask) >= 0 &&
		       sim->regs.offcore[rsp] == e->msr_value;
	}
	if (code != e->code || umask != e->umask)
		return false;
	switch (e->msr_index) {
	case 0:
		break;
	case SIM_MSR_PEBS_LD_LAT:
		if (!sim->cfg.ldlat || sim->regs.ldlat != e->msr_value)
			return false;
		break;
	case SIM_MSR_PEBS_FRONTEND:
		if (!sim->cfg.frontend || sim->regs.frontend != e->msr_value)
			return false;
		break;
	default:
		return false;
	}
	return amd || pebs_armed(sim, i, e);
}

static bool fixed_matches(const struct bt_sim *sim, unsigned i, uint64_t field,
			  const struct bt_event *e)
{
	if (e->source != BT_SRC_PMC || e->fixed != (int)i || e->cmask ||
	    (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ | BT_EVF_PEBS_ONLY)))
		return false;
	bool any = (field & SIM_FIX_ANY) && bt_sim_any_effective(&sim->cfg);
	if (any != !!(e->flags & BT_EVF_ANY))
		return false;
	return priv_match(e->flags, field & SIM_FIX_OS, field & SIM_FIX_USR);
}

void bt_sim_pm_update(struct bt_sim *sim)
{
	uint64_t slots = sim->regs.fixed_ctr[3];
	uint64_t value = 0;
	for (int f = 0; f < sim->cfg.pm_fields; f++) {
		uint64_t acc = sim->pm_acc[f], b;
		if (slots == 0) {
			b = 0;
		} else {
			/* The byte whose floor(slots*b/255) is nearest to acc: the
			 * register holds 8-bit fractions, so a count that is not of
			 * that form cannot come from it (it is reported below). */
			uint64_t lo = acc * 255 / slots, best = lo;
			if (lo > 255)
				lo = best = 255;
			uint64_t got = slots * lo / 255, d = got > acc ? got - acc : acc - got;
			if (lo < 255) {
				uint64_t up = slots * (lo + 1) / 255;
				uint64_t du = up > acc ? up - acc : acc - up;
				if (du < d)
					best = lo + 1;
			}
			b = best;
		}
		if ((slots && slots * b / 255 != acc) || (!slots && acc)) {
			if (!sim->source_error[0])
				snprintf(sim->source_error, sizeof(sim->source_error),
					 "PERF_METRICS field %d: %llu slots of SLOTS=%llu is not "
					 "floor(SLOTS*b/255) for any byte b; the register holds the "
					 "nearest, %llu", f, (unsigned long long)acc,
					 (unsigned long long)slots,
					 (unsigned long long)(slots ? slots * b / 255 : 0));
		}
		value |= b << (8 * f);
	}
	sim->regs.perf_metrics = value;
}

/* The window's unhalted core cycles in the source: its fixed counter 1
 * entry (Intel), its PMCx076 "cycles not in halt" entry (AMD, APM / PPR
 * core events: no fixed counters); 0 when it has none. */
#define SIM_AMD_EV_CYCLES 0x076u

static uint64_t source_cycles(const struct bt_sim *sim, const struct bt_sim_source *s)
{
	bool amd = sim->cfg.vendor == BT_VENDOR_AMD;
	for (size_t k = 0; s && k < s->n; k++) {
		const struct bt_event *e = &s->entries[k].ev;
		if (e->source != BT_SRC_PMC || e->flags)
			continue;
		if (amd ? e->fixed == BT_EV_NO_FIXED && e->code == SIM_AMD_EV_CYCLES && !e->umask
			: e->fixed == 1)
			return s->entries[k].count;
	}
	return 0;
}

/*
 * CMASK, INV, E and EQ over a per-cycle source (struct bt_sim
 * per_cycle), as the SDM defines them for IA32_PERFEVTSELx (vol. 3B
 * 20.2.1.1, Figure 20-1; EQ: bit 36, SIM_SEL_EQ of sim-regs.h, the event
 * lists' "Equal"):
 *   CMASK != 0: the counter increments by one in each cycle in which the
 *     condition occurred CMASK or more times (EQ: exactly CMASK times);
 *   INV: the comparison is inverted (fewer than CMASK); "if CMASK is
 *     programmed to zero, INV is ignored";
 *   E: the counter counts deasserted-to-asserted transitions of the
 *     condition the other fields express; back-to-back assertions are
 *     one. With CMASK 0 the sim takes the condition to be "at least one
 *     occurrence" (the SDM leaves it to the other fields).
 * What the SDM does not say is how a window's occurrences fall on its
 * cycles: the sim's model spreads N occurrences over C cycles as evenly
 * as possible (r = N mod C cycles see q + 1, the other C - r see q, with
 * q = N / C) and the asserted cycles of a condition as evenly as possible
 * among the others, so a condition asserted in a of C cycles has
 * min(a, C - a) rising edges (1 when a = C, 0 when a = 0). This is the
 * model's assumption, not a measured fact: it gives every invariant the
 * atlas checks (c1 <= cycles, c1 + c1:inv = cycles, edge <= c1) exactly,
 * and on real parts those hold whatever the distribution.
 */
static uint64_t derive_per_cycle(uint64_t n, uint64_t cycles, unsigned cmask, bool inv,
				 bool edge, bool eq)
{
	if (!cmask && !edge && !eq)
		return n; /* INV alone is ignored with CMASK 0 */
	if (!cycles)
		return 0;
	uint64_t q = n / cycles, r = n % cycles, c = cmask ? cmask : 1, a;
	if (eq)
		a = c == q ? cycles - r : c == q + 1 ? r : 0;
	else
		a = c <= q ? cycles : c == q + 1 ? r : 0;
	if (inv && cmask)
		a = cycles - a;
	if (!edge)
		return a;
	if (!a)
		return 0;
	if (a == cycles)
		return 1;
	return a < cycles - a ? a : cycles - a;
}

static const struct bt_event *find_gp(const struct bt_sim *sim, const struct bt_sim_source *s,
				      unsigned i, uint64_t sel, uint64_t *count)
{
	for (size_t k = 0; s && k < s->n; k++)
		if (gp_matches(sim, i, sel, &s->entries[k].ev)) {
			*count = s->entries[k].count;
			return &s->entries[k].ev;
		}
	uint64_t thr = SIM_SEL_INV | SIM_SEL_EDGE | (0xFFull << SIM_SEL_CMASK_SHIFT);
	/* AnyThread (SDM vol. 3B 20.2.3, perfmon v3: count the condition on every
	 * logical processor of the core): a kernel window runs on one logical
	 * processor and the sim models nothing on its sibling (SMT off, or a
	 * sibling that runs none of the kernel's work), so any-thread counts
	 * this thread's occurrences. */
	if (sim->cfg.vendor != BT_VENDOR_AMD)
		thr |= SIM_SEL_EQ | SIM_SEL_ANY;
	if (!s || (s != sim->per_cycle[0] && s != sim->per_cycle[1]) || !(sel & thr))
		return NULL;
	/* No entry for the thresholded encoding: its base encoding's
	 * occurrences per cycle (derive_per_cycle). */
	uint64_t base = sel & ~thr;
	for (size_t k = 0; k < s->n; k++)
		if (gp_matches(sim, i, base, &s->entries[k].ev)) {
			unsigned cmask = (sel >> SIM_SEL_CMASK_SHIFT) & 0xFF;
			bool eq = sim->cfg.vendor != BT_VENDOR_AMD && (sel & SIM_SEL_EQ);
			*count = derive_per_cycle(s->entries[k].count, source_cycles(sim, s), cmask,
						  sel & SIM_SEL_INV, sel & SIM_SEL_EDGE, eq);
			return &s->entries[k].ev;
		}
	return NULL;
}

/*
 * The SMT sibling (bt_sim_set_sibling_active, sim.h): what a selector
 * counts on Intel when the sibling's activity changes it, from the SDM's
 * AnyThread definition and the event tables; false: the source answers
 * alone. CPU_CLK_UNHALTED (0x3C): umask 0x00 core clocks, 0x01 REF_XCLK,
 * 0x02 ONE_THREAD_ACTIVE.
 */
#define SIM_EV_CLK 0x3Cu

static uint64_t sibling_share(const struct bt_sim *sim, uint64_t n)
{
	return (uint64_t)(sim->sibling_active * (double)n + 0.5);
}

/* The thread's clocks with the sibling: its work advances half as fast
 * while both run, so the C cycles it needs alone last C / (1 - f/2). */
static uint64_t stretched(const struct bt_sim *sim, uint64_t n)
{
	if (!sim->sibling_set)
		return n;
	return (uint64_t)((double)n / (1.0 - sim->sibling_active / 2) + 0.5);
}

/* This thread's n plus the sibling's; a count of cycles (CMASK) at most
 * the window's unhalted cycles. */
static uint64_t with_sibling(const struct bt_sim *sim, const struct bt_sim_source *s, uint64_t n,
			     bool cycles)
{
	uint64_t total = n + sibling_share(sim, n), c = stretched(sim, source_cycles(sim, s));
	return cycles && c && total > c ? (n > c ? n : c) : total;
}

/* The selector whose source entry a selector counts from with the
 * sibling: ONE_THREAD_ACTIVE from REF_XCLK, an AnyThread event from this
 * thread's; the selector itself otherwise. */
static uint64_t sibling_lookup(const struct bt_sim *sim, uint64_t sel)
{
	if (!sim->sibling_set || sim->cfg.vendor != BT_VENDOR_INTEL)
		return sel;
	sel &= ~SIM_SEL_ANY;
	if ((sel & 0xFF) == SIM_EV_CLK && ((sel >> SIM_SEL_UMASK_SHIFT) & 0xFF) == 0x02)
		sel = (sel & ~(0xFFull << SIM_SEL_UMASK_SHIFT)) | (0x01ull << SIM_SEL_UMASK_SHIFT);
	return sel;
}

/* What selector sel counts with the sibling, n being the count of its
 * sibling_lookup entry. */
static uint64_t sibling_gp(const struct bt_sim *sim, const struct bt_sim_source *s, uint64_t sel,
			   uint64_t n)
{
	if (!sim->sibling_set || sim->cfg.vendor != BT_VENDOR_INTEL)
		return n;
	unsigned code = sel & 0xFF, umask = (sel >> SIM_SEL_UMASK_SHIFT) & 0xFF;
	bool any = (sel & SIM_SEL_ANY) && bt_sim_any_effective(&sim->cfg);
	/* The unhalted clocks last as long as the thread runs; with AnyThread
	 * "... when at least one thread on the physical core is unhalted":
	 * the same, the sibling being active only inside that time.
	 * ONE_THREAD_ACTIVE, this thread unhalted and the other halted: the
	 * crystal clocks of REF_XCLK in which the sibling was not active
	 * (never active alone, so AnyThread adds nothing). */
	if (code == SIM_EV_CLK) {
		n = stretched(sim, n);
		return umask == 0x02 ? n - sibling_share(sim, n) : n;
	}
	if (!any && !bt_sim_core_scoped(sim->cfg.family, code, umask))
		return n;
	return with_sibling(sim, s, n, ((sel >> SIM_SEL_CMASK_SHIFT) & 0xFF) != 0);
}

/* Fixed counters with the sibling: the unhalted clocks (1, 2) last as
 * long as the thread runs, with or without AnyThread; instructions (0)
 * with AnyThread add the sibling's. */
static uint64_t sibling_fixed(const struct bt_sim *sim, const struct bt_sim_source *s, unsigned i,
			      bool any, uint64_t n)
{
	if (!sim->sibling_set)
		return n;
	if (i == 1 || i == 2)
		return stretched(sim, n);
	return i == 0 && any ? with_sibling(sim, s, n, false) : n;
}

/* The xclk-ratio defect: the reference clock of REF_XCLK and
 * ONE_THREAD_ACTIVE (SIM_EV_CLK umasks 0x01, 0x02) runs at xclk_ratio TSC
 * ticks per tick instead of the part's stated ratio (bt_sim_tsc_per_xclk),
 * which the source's counts follow (synth/sim-run.c). */
static uint64_t xclk_defect(const struct bt_sim *sim, uint64_t sel, uint64_t n)
{
	const struct bt_sim_defects *df = &sim->cfg.defects;
	unsigned umask = (sel >> SIM_SEL_UMASK_SHIFT) & 0xFF;
	uint32_t num, den;

	if (!(df->mask & BT_SIM_DEFECT_XCLK_RATIO) || (sel & 0xFF) != SIM_EV_CLK ||
	    (umask != 0x01 && umask != 0x02) || !bt_sim_tsc_per_xclk(&sim->cfg, &num, &den))
		return n;
	return (uint64_t)((double)n * num / ((double)den * df->xclk_ratio) + 0.5);
}

/* The event select of a selector (AMD: 12 bits). */
static unsigned sel_code(const struct bt_sim *sim, uint64_t sel)
{
	unsigned code = sel & 0xFF;
	if (sim->cfg.vendor == BT_VENDOR_AMD)
		code |= ((sel >> SIM_AMD_EVENT_HI_SHIFT) & 0xF) << 8;
	return code;
}

/* The umask-ignored defect (sim.h): the event's unit mask decodes as 0x00,
 * so every umask of that event counts what umask 0x00 counts. */
static uint64_t defective_sel(const struct bt_sim *sim, uint64_t sel)
{
	if (bt_sim_defect(sim, BT_SIM_DEFECT_UMASK_IGNORED) &&
	    sel_code(sim, sel) == sim->cfg.defects.umask_code)
		sel &= ~(0xFFull << SIM_SEL_UMASK_SHIFT);
	return sel;
}

/* The double-count defect: the programmed encoding counts twice. */
static bool double_counts(const struct bt_sim *sim, uint64_t sel)
{
	return bt_sim_defect(sim, BT_SIM_DEFECT_DOUBLE_COUNT) &&
	       sel_code(sim, sel) == sim->cfg.defects.double_code &&
	       ((sel >> SIM_SEL_UMASK_SHIFT) & 0xFF) == sim->cfg.defects.double_umask;
}

/*
 * SMIs landing in the window, or injected between two accesses (bt_sim_smi
 * below). Intel without IA32_DEBUGCTL.FREEZE_WHILE_SMM: the counters go on
 * counting while the SMI handler runs: each SMI adds cfg.smm_counts_per_smi
 * to every counter that is counting and counts ring 0 (SMM runs in a
 * real-address-like environment, SDM vol. 3C "SMI Handler Execution
 * Environment": not user mode). SLOTS is left out on PERF_METRICS parts:
 * the sim has no breakdown of the handler's slots. With the freeze (SDM
 * vol. 3B "Filtering of SMM Handler Overhead"), SMI delivery clears
 * GLOBAL_CTRL's enables and RSM "sets them to 1": the handler adds nothing,
 * and the sim takes the manual literally, leaving every counter's enable
 * set after the SMI whatever it was before (a driver that cleared the
 * selectors it does not use counts nothing more; the stop write clears
 * them; outside the window, nothing does until the driver writes
 * GLOBAL_CTRL again).
 *
 * AMD: the APM (vol. 2 §13.2) gives the core counters no way to stop in
 * SMM, so every counter that counts ring 0 counts the handler's work as
 * Intel's do without the freeze, and a counter programmed with PMCx02B
 * ("SMIs received") counts each SMI once where the part has that event
 * (sim-tables.c bt_sim_amd_smi_rx), nothing elsewhere.
 */
#define SIM_AMD_EV_SMI_RX 0x02Bu

static void deliver_smis(struct bt_sim *sim, uint32_t smis, const bool *gp_on,
			 const bool *fixed_on)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (!smis)
		return;
	uint64_t n = (uint64_t)smis * c->smm_counts_per_smi;
	if (c->vendor == BT_VENDOR_AMD) {
		for (unsigned i = 0; i < BT_SIM_MAX_GP; i++) {
			uint64_t sel = sim->regs.evtsel[i];
			if (!gp_on[i])
				continue;
			if (sel_code(sim, sel) == SIM_AMD_EV_SMI_RX && bt_sim_amd_smi_rx(&sim->cfg) &&
			    ((sel >> SIM_SEL_UMASK_SHIFT) & 0xFF) == 0)
				bt_sim_add_gp(sim, i, smis);
			else if (n && (sel & SIM_SEL_OS))
				bt_sim_add_gp(sim, i, n);
		}
		return;
	}
	if (c->vendor != BT_VENDOR_INTEL)
		return;
	if (sim->regs.debugctl & SIM_DBG_FREEZE_WHILE_SMM) {
		sim->regs.global_ctrl |= bt_sim_gp_mask(sim) |
					 (uint64_t)bt_sim_fixed_mask(sim) << SIM_GLOBAL_FIXED_SHIFT;
		return;
	}
	if (!n)
		return;
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++)
		if (gp_on[i] && (sim->regs.evtsel[i] & SIM_SEL_OS))
			bt_sim_add_gp(sim, i, n);
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		if (fixed_on[i] && !(i == 3 && c->perf_metrics) &&
		    ((sim->regs.fixed_ctrl >> SIM_FIX_SHIFT(i)) & SIM_FIX_OS))
			bt_sim_add_fixed(sim, i, n);
}

/* Which part of the window's counts: all of it, or the part before / after
 * the SMIs that land halfway through it (the two add up exactly). */
enum part { WHOLE, BEFORE_SMI, AFTER_SMI };

static uint64_t share(uint64_t n, enum part p)
{
	return p == WHOLE ? n : p == BEFORE_SMI ? n / 2 : n - n / 2;
}

__extension__ typedef unsigned __int128 sim_u128;

/* floor(n * k / total) without overflow (total > 0, k <= total). */
static uint64_t scaled(uint64_t n, uint64_t k, uint64_t total)
{
	return (uint64_t)((sim_u128)n * k / total);
}

/* The part of a per-window count n this window counts (struct bt_sim
 * part_*): the parts of one run telescope to n. */
static uint64_t part_of(const struct bt_sim *sim, uint64_t n)
{
	if (!sim->part_total)
		return n;
	return scaled(n, sim->part_end, sim->part_total) -
	       scaled(n, sim->part_begin, sim->part_total);
}

static void enabled_now(const struct bt_sim *sim, bool *gp_on, bool *fixed_on)
{
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++)
		gp_on[i] = bt_sim_gp_enabled(sim, i);
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		fixed_on[i] = bt_sim_fixed_enabled(sim, i);
}

/* The source's counts (their part p) on the counters enabled in gp_on /
 * fixed_on. */
static void count_part(struct bt_sim *sim, const struct bt_sim_source *s, const bool *gp_on,
		       const bool *fixed_on, enum part p)
{
	const struct bt_sim_config *c = &sim->cfg;
	bool pm_on = c->perf_metrics && fixed_on[3] &&
		     (sim->regs.global_ctrl & SIM_GLOBAL_PM);
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++) {
		uint64_t n, sel = sim->regs.evtsel[i];
		uint64_t dsel = defective_sel(sim, sel);
		/* TSX_FORCE_ABORT parts: the microcode holds PMC3 unless
		 * MSR_TSX_FORCE_ABORT[0] is set (sim.h). */
		if (i == 3 && c->tsx_force_abort && !(sim->regs.tsx_force_abort & SIM_TFA_RTM_FORCE_ABORT))
			continue;
		if (gp_on[i] && find_gp(sim, s, i, sibling_lookup(sim, dsel), &n)) {
			n = xclk_defect(sim, dsel, sibling_gp(sim, s, dsel, n));
			bt_sim_add_gp(sim, i, share(part_of(sim, double_counts(sim, sel) ? 2 * n : n), p));
		}
	}
	for (unsigned i = 0; c->vendor == BT_VENDOR_INTEL && i < BT_SIM_MAX_FIXED; i++) {
		if (!fixed_on[i])
			continue;
		uint64_t field = (sim->regs.fixed_ctrl >> SIM_FIX_SHIFT(i)) & 0xF;
		bool any = (field & SIM_FIX_ANY) && bt_sim_any_effective(c);
		/* AnyThread on a kernel window: this thread's count (find_gp);
		 * with the sibling: from this thread's (sibling_fixed). */
		if ((field & SIM_FIX_ANY) && s &&
		    (sim->sibling_set || s == sim->per_cycle[0] || s == sim->per_cycle[1]))
			field &= ~(uint64_t)SIM_FIX_ANY;
		for (size_t k = 0; s && k < s->n; k++)
			if (fixed_matches(sim, i, field, &s->entries[k].ev)) {
				uint64_t n = sibling_fixed(sim, s, i, any, s->entries[k].count);
				bt_sim_add_fixed(sim, i, share(part_of(sim, n), p));
				break;
			}
	}
	if (pm_on) {
		for (size_t k = 0; s && k < s->n; k++) {
			const struct bt_event *e = &s->entries[k].ev;
			if (e->source == BT_SRC_PERF_METRICS && e->pm_field < c->pm_fields)
				sim->pm_acc[e->pm_field] += share(part_of(sim, s->entries[k].count), p);
		}
		bt_sim_pm_update(sim);
	}
}

/*
 * One window: the source's counts on what is enabled. SMIs that land in
 * it (cfg.smi_per_window in every window, plus one armed with
 * smi_window_after) arrive halfway through the body: the counters count
 * half the window with the enables they had at the start, the SMIs are
 * delivered (deliver_smis: the handler's work, or, with the freeze, the
 * GLOBAL_CTRL enables that RSM sets), and the other half counts with the
 * enables after RSM. The TSC (and MPERF/APERF: the core is in C0 in SMM)
 * runs through the handler, cfg.smm_tsc_per_smi ticks per SMI, whether
 * or not the counters were frozen.
 */
void bt_sim_count_window(struct bt_sim *sim, bt_window_fn *body)
{
	const struct bt_sim_source *s = sim->source;

	if (s && s->body && s->body != body) /* not the simulated workload */
		s = sim->source_alt && sim->source_alt->body == body ? sim->source_alt : NULL;
	const struct bt_sim_config *c = &sim->cfg;
	bool gp_on[BT_SIM_MAX_GP], fixed_on[BT_SIM_MAX_FIXED];
	/* Decide what counts before advancing anything: all counters see the
	 * same window. */
	enabled_now(sim, gp_on, fixed_on);

	uint64_t tsc = c->tsc_per_window, cycles = 0;
	bool have_cycles = false;
	for (size_t k = 0; s && k < s->n; k++) {
		const struct bt_event *e = &s->entries[k].ev;
		if (e->source == BT_SRC_TSC)
			tsc = s->entries[k].count;
		if (e->source == BT_SRC_PMC && e->fixed == 1 && !e->flags && !have_cycles) {
			cycles = s->entries[k].count;
			have_cycles = true;
		}
	}
	if (s && s->tsc_per_window)
		tsc = s->tsc_per_window;
	/* A busy sibling makes the window last longer (stretched). */
	tsc = part_of(sim, s ? stretched(sim, tsc) : tsc);
	cycles = part_of(sim, stretched(sim, cycles));

	uint32_t smis = c->smi_per_window;
	if (sim->smi_window_after && --sim->smi_window_after == 0) {
		smis++;
		sim->smis_injected++;
	}
	if (!smis) {
		count_part(sim, s, gp_on, fixed_on, WHOLE);
	} else {
		count_part(sim, s, gp_on, fixed_on, BEFORE_SMI);
		deliver_smis(sim, smis, gp_on, fixed_on);
		enabled_now(sim, gp_on, fixed_on);
		count_part(sim, s, gp_on, fixed_on, AFTER_SMI);
	}
	uint64_t smm = (uint64_t)smis * c->smm_tsc_per_smi;
	sim->tsc += tsc + smm;
	sim->mperf += tsc + smm;
	sim->aperf += (have_cycles ? cycles : tsc) + smm;
	sim->smi += smis;
	sim->part_total = 0; /* the part applies to this window only */
}

/* An SMI between two accesses outside a window (struct bt_sim smi_after):
 * the same handler model as in a window, for the counters counting at that
 * moment. Between the driver's programming and its start write, or its
 * stop write and its reads, GLOBAL_CTRL is 0: without the freeze nothing
 * counts the handler; with it, RSM's "enable bits set to 1" starts every
 * armed selector, which then counts the driver's own accesses (foreign
 * activity, sim-core.c) until GLOBAL_CTRL is written again. */
void bt_sim_smi(struct bt_sim *sim)
{
	bool gp_on[BT_SIM_MAX_GP], fixed_on[BT_SIM_MAX_FIXED];
	enabled_now(sim, gp_on, fixed_on);
	deliver_smis(sim, 1, gp_on, fixed_on);
	sim->tsc += sim->cfg.smm_tsc_per_smi;
	sim->mperf += sim->cfg.smm_tsc_per_smi;
	sim->aperf += sim->cfg.smm_tsc_per_smi;
	sim->smi++;
	sim->smis_injected++;
}
