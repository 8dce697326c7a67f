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
#include <string.h>

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

/*
 * Timed PEBS (cfg.pebs_timing): a general counter armed in IA32_PEBS_ENABLE
 * with a DS area takes a PEBS assist each time it overflows: one adaptive
 * record (basic group, sim-regs.h) at pebs_index if a whole record fits
 * below pebs_absolute_maximum (else it is dropped: a full buffer stops
 * writing), pebs_index advanced by the record's size, the counter's
 * GLOBAL_STATUS overflow bit, GLOBAL_STATUS[62] (OvfBuffer) once the index
 * reaches pebs_interrupt_threshold, and the counter reloaded from
 * pebs_event_reset[i]. Written from Linux ds.c's
 * reading of the buffer (intel_pmu_drain_pebs_icl: records from
 * pebs_buffer_base to pebs_index, each format_size >> 48 bytes long), not
 * from baretop's driver. The DS area and the buffer are linear addresses
 * the driver gave, memory the sim writes as the processor would.
 */
static void pebs_record(struct bt_sim *sim, unsigned i, uint64_t *ds)
{
	uint64_t index = ds[SIM_DS_PEBS_INDEX], max = ds[SIM_DS_PEBS_ABS_MAX];
	if (index < ds[SIM_DS_PEBS_BASE] || index + SIM_PEBS_BASIC_BYTES > max) {
		sim->pebs_dropped++;
		return;
	}
	uint64_t lat = sim->pebs_latency ? sim->pebs_latency(sim->pebs_latency_ctx, i, sim->regs.evtsel[i],
							     sim->regs.frontend, sim->pebs_records)
					 : 0;
	if (lat > SIM_PEBS_LAT_MAX)
		lat = SIM_PEBS_LAT_MAX; /* the 16-bit field saturates */
	uint64_t rec[4];
	rec[0] = ((uint64_t)SIM_PEBS_BASIC_BYTES << SIM_PEBS_SIZE_SHIFT) | (lat << SIM_PEBS_LAT_SHIFT) |
		 (sim->regs.pebs_data_cfg & SIM_DATACFG_GROUPS); /* basic only: 0 */
	rec[1] = 0x401000u + 16u * i;   /* the sampled instruction: a synthetic address */
	rec[2] = 1ull << i;             /* applicable counters */
	rec[3] = sim->tsc;
	memcpy((void *)(uintptr_t)index, rec, sizeof(rec));
	ds[SIM_DS_PEBS_INDEX] = index + SIM_PEBS_BASIC_BYTES;
	if (ds[SIM_DS_PEBS_INDEX] >= ds[SIM_DS_PEBS_THRESHOLD])
		sim->regs.global_status |= SIM_ST_OVF_BUF;
	sim->pebs_records++;
}

static bool pebs_armed(const struct bt_sim *sim, unsigned i)
{
	return sim->cfg.vendor == BT_VENDOR_INTEL && sim->cfg.pebs_timing && sim->regs.ds_area &&
	       ((sim->regs.pebs_enable >> i) & 1);
}

static void pebs_count(struct bt_sim *sim, unsigned i, uint64_t n)
{
	uint64_t *ds = (uint64_t *)(uintptr_t)sim->regs.ds_area;
	uint64_t mask = bt_sim_gp_ctr_mask(sim, i);
	uint64_t ctr = sim->regs.ctr[i] & mask;
	uint64_t reset = ds[SIM_DS_PEBS_RESET + i] & mask;
	uint64_t period = mask - reset + 1; /* counts from the reload to the next overflow */

	while (n > mask - ctr) {
		n -= mask - ctr + 1;    /* up to and including the overflowing count */
		/* The overflow sets the counter's GLOBAL_STATUS bit too: Linux
		 * (arch/x86/events/intel/core.c handle_pmi_common) masks
		 * PEBS-enabled counters out of the status it reads because "the
		 * overflow status bit for the PEBS counter will be on". */
		sim->regs.global_status |= 1ull << i;
		uint64_t before = sim->pebs_dropped;
		pebs_record(sim, i, ds);
		ctr = reset;
		if (sim->pebs_dropped != before && period) {
			/* buffer full: the remaining overflows write nothing */
			uint64_t more = n / period;
			sim->pebs_dropped += more;
			n -= more * period;
			if (n > mask - ctr) {
				n -= mask - ctr + 1;
				sim->pebs_dropped++;
			}
			break;
		}
	}
	sim->regs.ctr[i] = (ctr + n) & mask;
}

void bt_sim_add_gp(struct bt_sim *sim, unsigned i, uint64_t n)
{
	/* Defects (sim.h): a stuck counter never advances; a narrow one
	 * holds fewer bits than CPUID says, so it wraps early; one may wrap
	 * without its overflow bit. */
	if (bt_sim_defect(sim, BT_SIM_DEFECT_STUCK_COUNTER) && i == sim->cfg.defects.stuck_gp)
		return;
	if (pebs_armed(sim, i)) {
		pebs_count(sim, i, n);
		return;
	}
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
