/* SPDX-License-Identifier: MIT */
/*
 * What the simulated PMU counts over a known-count kernel (--validate): the
 * kernel's declared architectural counts (kernels/, checked against QEMU
 * -icount and cachegrind) under each encoding that counts them on this
 * vendor, plus modelled micro-architectural counts: cycles from the
 * model's IPC, reference cycles = cycles (the simulated clock never
 * changes frequency), SLOTS = 4 x cycles, mispredicts = one per loop exit
 * plus half the PRNG-directed branches. The table is the sim's own, from
 * the vendors' event lists (facts):
 *
 *   Intel (SDM vol. 3B "Pre-defined Architectural Performance Events"):
 *     3CH/00H core cycles, 3CH/01H reference cycles, C0H/00H instructions,
 *     C4H/00H all branches, C5H/00H all mispredicted branches;
 *     fixed counters 0..3: instructions, cycles, reference cycles, slots.
 *   AMD (family 17h+ PPRs): 076H cycles not halted, 0C0H retired
 *     instructions, 0C2H retired branches, 0C3H retired mispredicted
 *     branches, 0C4H retired taken branches, 0C8H retired near returns.
 */
#include <string.h>

#include "arch/sim/sim.h"

enum q { Q_INST, Q_BR, Q_MISP, Q_CYC, Q_REF, Q_TAKEN, Q_RET, Q_SLOTS };

struct enc {
	int8_t fixed;              /* -1: general counter encoding */
	uint16_t code;
	uint8_t umask;
	uint8_t q;
};

static const struct enc intel[] = {
	{ 0, 0, 0, Q_INST }, { 1, 0, 0, Q_CYC }, { 2, 0, 0, Q_REF }, { 3, 0, 0, Q_SLOTS },
	{ -1, 0x3C, 0x00, Q_CYC }, { -1, 0x3C, 0x01, Q_REF }, { -1, 0xC0, 0x00, Q_INST },
	{ -1, 0xC4, 0x00, Q_BR }, { -1, 0xC5, 0x00, Q_MISP },
};

static const struct enc amd[] = {
	{ -1, 0x076, 0x00, Q_CYC }, { -1, 0x0C0, 0x00, Q_INST }, { -1, 0x0C2, 0x00, Q_BR },
	{ -1, 0x0C3, 0x00, Q_MISP }, { -1, 0x0C4, 0x00, Q_TAKEN }, { -1, 0x0C8, 0x00, Q_RET },
};

static uint64_t value(const struct bt_sim_kernel_model *k, enum q q)
{
	double ipc = k->ipc > 0 ? k->ipc : 1.0;
	uint64_t cycles = (uint64_t)((double)k->instructions / ipc + 0.5);

	switch (q) {
	case Q_INST: return k->instructions;
	case Q_BR: return k->branches;
	case Q_MISP: return (k->cond_not_taken ? 1 : 0) + k->random_cond / 2;
	case Q_CYC: case Q_REF: return cycles;
	case Q_SLOTS: return 4 * cycles;
	case Q_TAKEN:
		return k->cond_taken + k->jmp_direct + k->near_calls + k->near_returns + k->indirect;
	case Q_RET: return k->near_returns;
	}
	return 0;
}

size_t bt_sim_kernel_counts(const struct bt_sim_config *cfg, const struct bt_sim_kernel_model *k,
			    struct bt_sim_count *out)
{
	bool is_amd = cfg->vendor == BT_VENDOR_AMD;
	const struct enc *t = is_amd ? amd : intel;
	size_t n = is_amd ? sizeof(amd) / sizeof(amd[0]) : sizeof(intel) / sizeof(intel[0]), m = 0;

	for (size_t i = 0; i < n && m < BT_SIM_KERNEL_MAX_COUNTS; i++) {
		if (t[i].fixed >= (int)cfg->num_fixed)
			continue;
		memset(&out[m], 0, sizeof(out[m]));
		out[m].ev.name = "kernel";
		out[m].ev.source = BT_SRC_PMC;
		out[m].ev.fixed = t[i].fixed >= 0 ? t[i].fixed : BT_EV_NO_FIXED;
		out[m].ev.code = t[i].code;
		out[m].ev.umask = t[i].umask;
		out[m].count = value(k, (enum q)t[i].q);
		m++;
	}
	return m;
}
