/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's shared state helpers: which counters exist and which
 * are counting right now, advancing a counter (with its overflow bit),
 * noting a counter write for the restore checks, recording a violation.
 * Every other file of the sim calls down into these; this file calls
 * nothing of the sim's (see arch/sim/README.md, "Call direction"). The
 * rules each helper models are the Intel SDM vol. 3B ch. 20 and AMD APM
 * vol. 2 §13.2 ones cited at each function.
 */
#include <stdarg.h>
#include <stdio.h>

#include "arch/sim/sim-internal.h"

void bt_sim_violation(struct bt_sim *sim, const char *fmt, ...)
{
	if (sim->n_violations >= BT_SIM_MAX_VIOLATIONS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sim->violations[sim->n_violations], sizeof(sim->violations[0]), fmt, ap);
	va_end(ap);
	sim->n_violations++;
}

void bt_sim_note_gp_write(struct bt_sim *sim, unsigned i)
{
	sim->written_gp |= 1u << i;
	sim->found_post_gp[i] = 0;
}

void bt_sim_note_fixed_write(struct bt_sim *sim, unsigned i)
{
	sim->written_fixed |= 1u << i;
	sim->found_post_fixed[i] = 0;
}

uint32_t bt_sim_gp_mask(const struct bt_sim *sim)
{
	const struct bt_sim_config *c = &sim->cfg;
	/* v6: CPUID.23H.01H:EAX enumerates the counters as a bitmap (SDM vol.
	 * 2B RDPMC: counter x is valid if x < CPUID.0AH:EAX[15:8] or
	 * CPUID.23H.01H:EAX[x]). */
	if (c->vendor == BT_VENDOR_INTEL && sim_v6_range(c) && c->gp_bitmap)
		return c->gp_bitmap & (uint32_t)sim_width_mask(BT_SIM_MAX_GP);
	return (uint32_t)sim_width_mask(c->num_gp);
}

bool bt_sim_gp_exists(const struct bt_sim *sim, unsigned i)
{
	return i < BT_SIM_MAX_GP && ((bt_sim_gp_mask(sim) >> i) & 1);
}

bool bt_sim_fixed_exists(const struct bt_sim *sim, unsigned i)
{
	const struct bt_sim_config *c = &sim->cfg;
	if (c->vendor != BT_VENDOR_INTEL || i >= BT_SIM_MAX_FIXED)
		return false;
	/* SDM vol. 2A CPUID.0AH: fixed counter i exists iff ECX[i] (v5+) or
	 * EDX[4:0] > i; v6 also CPUID.23H.01H:EBX[i] (the sim reports the
	 * same bitmap in both). */
	return i < c->num_fixed || (c->version >= 5 && ((c->fixed_bitmap >> i) & 1));
}

uint32_t bt_sim_fixed_mask(const struct bt_sim *sim)
{
	uint32_t m = 0;
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		if (bt_sim_fixed_exists(sim, i))
			m |= 1u << i;
	return m;
}

/* AnyThread counts the whole core only from v3 and only while CPUID.0AH:EDX[15]
 * does not report it deprecated; otherwise the bit is ignored (sim-intel.c
 * any_writable: when it may be written at all). */
bool bt_sim_any_effective(const struct bt_sim_config *c)
{
	return c->version >= 3 && !c->any_deprecated;
}


/* CTR_Frz: "performance counters in the core PMU are frozen" (SDM vol. 4
 * Table 2-2; v4 counts only when EN && GLOBAL_CTRL.PMCn && !CTR_Frz, SDM
 * 20.2.4 "Architectural Performance Monitoring Version 4"). */
static bool frozen(const struct bt_sim *sim)
{
	return sim->cfg.vendor == BT_VENDOR_INTEL && sim->cfg.version >= 4 &&
	       (sim->regs.global_status & SIM_ST_CTR_FRZ);
}

uint64_t bt_sim_gp_ctr_mask(const struct bt_sim *sim, unsigned i)
{
	unsigned w = sim->cfg.gp_width;
	if (bt_sim_defect(sim, BT_SIM_DEFECT_NARROW_COUNTER) && i == sim->cfg.defects.narrow_gp &&
	    w > 8)
		w -= 8;
	return sim_width_mask(w);
}

/* The global enable of general counter i, or the global-ignored defect
 * (counter 0 counts with its selector's En alone). */
static bool global_enabled(const struct bt_sim *sim, unsigned i)
{
	return ((sim->regs.global_ctrl >> i) & 1) ||
	       (i == 0 && bt_sim_defect(sim, BT_SIM_DEFECT_GLOBAL_IGNORED));
}

bool bt_sim_gp_enabled(const struct bt_sim *sim, unsigned i)
{
	if (!bt_sim_gp_exists(sim, i))
		return false;
	uint64_t sel = sim->regs.evtsel[i];
	if (!(sel & SIM_SEL_EN) || !(sel & (SIM_SEL_OS | SIM_SEL_USR)))
		return false;
	if (sim->cfg.vendor == BT_VENDOR_INTEL)
		return global_enabled(sim, i) && !frozen(sim);
	if (sim->cfg.amd_v2)
		return global_enabled(sim, i);
	return true; /* AMD without PerfMonV2: PerfEvtSel.En alone */
}

bool bt_sim_fixed_enabled(const struct bt_sim *sim, unsigned i)
{
	if (!bt_sim_fixed_exists(sim, i))
		return false;
	uint64_t field = (sim->regs.fixed_ctrl >> SIM_FIX_SHIFT(i)) & 0xF;
	return (field & (SIM_FIX_OS | SIM_FIX_USR)) &&
	       ((sim->regs.global_ctrl >> (SIM_GLOBAL_FIXED_SHIFT + i)) & 1) && !frozen(sim);
}

void bt_sim_add_gp(struct bt_sim *sim, unsigned i, uint64_t n)
{
	/* Defects (sim.h): a stuck counter never advances; a narrow one
	 * holds fewer bits than CPUID says, so it wraps early; one may wrap
	 * without its overflow bit. */
	if (bt_sim_defect(sim, BT_SIM_DEFECT_STUCK_COUNTER) && i == sim->cfg.defects.stuck_gp)
		return;
	uint64_t mask = bt_sim_gp_ctr_mask(sim, i);
	uint64_t old = sim->regs.ctr[i] & mask;
	sim->regs.ctr[i] = (old + n) & mask;
	bool ovf_bit = !(bt_sim_defect(sim, BT_SIM_DEFECT_NO_OVERFLOW) && i == sim->cfg.defects.no_ovf_gp);
	/* Overflow: the count passed 2^width (at most once per window, which
	 * the driver relies on). GLOBAL_STATUS bit i (Intel, AMD PerfMonV2). */
	if (n > mask - old && ovf_bit && (sim->cfg.vendor == BT_VENDOR_INTEL || sim->cfg.amd_v2))
		sim->regs.global_status |= 1ull << i;
	/* A counter armed in IA32_PEBS_ENABLE takes a PEBS assist when it
	 * overflows (SDM "Processor Event Based Sampling"): a record written
	 * through IA32_DS_AREA, which belongs to whoever armed it. */
	if (n > mask - old && sim->cfg.vendor == BT_VENDOR_INTEL && ((sim->regs.pebs_enable >> i) & 1))
		bt_sim_violation(sim, "IA32_PMC%u overflowed with IA32_PEBS_ENABLE bit %u set: a PEBS "
				 "record went to the DS area of whoever armed it", i, i);
}

void bt_sim_add_fixed(struct bt_sim *sim, unsigned i, uint64_t n)
{
	if (bt_sim_defect(sim, BT_SIM_DEFECT_FIXED_DEAD) && i == sim->cfg.defects.dead_fixed)
		return; /* a dead fixed counter (sim.h defects) */
	uint64_t mask = sim_width_mask(sim->cfg.fixed_width);
	uint64_t old = sim->regs.fixed_ctr[i];
	sim->regs.fixed_ctr[i] = (old + n) & mask;
	if (n > mask - old)
		sim->regs.global_status |= 1ull << (SIM_GLOBAL_FIXED_SHIFT + i);
}
