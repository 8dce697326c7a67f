/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's own per-microarchitecture facts, kept apart from the
 * driver's (pmu/extra-msr.c) on purpose: an event programmed with a code the
 * hardware pairs with the other OFFCORE_RSP MSR counts against that MSR's
 * value here, whatever the driver believed.
 *
 * OFFCORE_RSP pairing. Vendor event files (perfmon, "EventCode"/"UMask"/
 * "MSRIndex" of the OCR.* events): Sandy Bridge .. Ice Lake "0xB7, 0xBB" /
 * "0x01" / "0x1a6,0x1a7"; Golden Cove, Redwood Cove, Lion Cove "0x2A,0x2B" /
 * "0x01"; Gracemont, Crestmont, Skymont "0xB7" / "0x01,0x02". Nehalem has
 * only OFFCORE_RSP_0 (Linux intel_nehalem_extra_regs: 0x01b7 only;
 * Westmere adds 0x01bb).
 *
 * MSR_PEBS_FRONTEND: the bits that exist (Linux intel_skl/icl_extra_regs
 * 0x7fff17, intel_spr/rwc/lnc_extra_regs 0x7fff1f, with the comment that the
 * low byte "is not a continuous field, containing some #GPing bits"): a
 * write with other bits set is modelled as #GP.
 *
 * Core-scoped events: the ones the event files of Ivy Bridge .. Cascade
 * Lake describe as counting for the whole core without the AnyThread bit:
 * UOPS_EXECUTED.CORE 0xB1/0x02 ("number of uops executed from any
 * thread"; with CMASK, UOPS_EXECUTED.CORE_CYCLES_GE_n, "cycles at least n
 * micro-op is executed from any thread on physical core") and
 * OFFCORE_REQUESTS_BUFFER.SQ_FULL 0xB2/0x01 ("... cannot take more
 * entries for the core"), which the Top-Down formulas halve with SMT on.
 */
#include "arch/sim/sim-internal.h"
#include "base/array.h"

static const struct {
	uint8_t family;
	uint8_t code, umask;
	uint8_t rsp;
} ocr_pairs[] = {
	{ BT_SIM_FAM_NHM, 0xB7, 0x01, 0 },
	{ BT_SIM_FAM_WSM, 0xB7, 0x01, 0 }, { BT_SIM_FAM_WSM, 0xBB, 0x01, 1 },
	{ BT_SIM_FAM_WSM_BDW, 0xB7, 0x01, 0 }, { BT_SIM_FAM_WSM_BDW, 0xBB, 0x01, 1 },
	{ BT_SIM_FAM_SKL, 0xB7, 0x01, 0 }, { BT_SIM_FAM_SKL, 0xBB, 0x01, 1 },
	{ BT_SIM_FAM_ICL, 0xB7, 0x01, 0 }, { BT_SIM_FAM_ICL, 0xBB, 0x01, 1 },
	{ BT_SIM_FAM_GLC, 0x2A, 0x01, 0 }, { BT_SIM_FAM_GLC, 0x2B, 0x01, 1 },
	{ BT_SIM_FAM_RWC, 0x2A, 0x01, 0 }, { BT_SIM_FAM_RWC, 0x2B, 0x01, 1 },
	{ BT_SIM_FAM_LNC, 0x2A, 0x01, 0 }, { BT_SIM_FAM_LNC, 0x2B, 0x01, 1 },
	{ BT_SIM_FAM_ATOM, 0xB7, 0x01, 0 }, { BT_SIM_FAM_ATOM, 0xB7, 0x02, 1 },
};

int bt_sim_ocr_rsp(uint8_t family, unsigned code, unsigned umask)
{
	for (unsigned i = 0; i < BT_ARRAY_SIZE(ocr_pairs); i++)
		if (ocr_pairs[i].family == family && ocr_pairs[i].code == code &&
		    ocr_pairs[i].umask == umask)
			return ocr_pairs[i].rsp;
	return -1;
}

static const struct {
	uint8_t family;
	uint8_t code, umask;
} core_scoped[] = {
	{ BT_SIM_FAM_WSM_BDW, 0xB1, 0x02 }, { BT_SIM_FAM_WSM_BDW, 0xB2, 0x01 },
	{ BT_SIM_FAM_SKL, 0xB1, 0x02 }, { BT_SIM_FAM_SKL, 0xB2, 0x01 },
};

bool bt_sim_core_scoped(uint8_t family, unsigned code, unsigned umask)
{
	for (unsigned i = 0; i < BT_ARRAY_SIZE(core_scoped); i++)
		if (core_scoped[i].family == family && core_scoped[i].code == code &&
		    core_scoped[i].umask == umask)
			return true;
	return false;
}

/* PMCx02B ls_smi_rx, by the event lists Linux perf keeps per Zen
 * generation (amdzen2/memory.json, amdzen3/memory.json, amdzen4/core.json,
 * amdzen5/load-store.json; amdzen1's has none) and the family-model ranges
 * its mapfile.csv gives them: family 17h models 30h and up, 19h, 1Ah.
 * Decoded here from the signature on its own (APM vol. 3, CPUID
 * Fn0000_0001_EAX), not with the driver's caps. */
bool bt_sim_amd_smi_rx(const struct bt_sim_config *c)
{
	uint32_t base = (c->signature >> 8) & 0xF, fam = base, model = (c->signature >> 4) & 0xF;
	if (base == 0xF) {
		fam += (c->signature >> 20) & 0xFF;
		model |= ((c->signature >> 16) & 0xF) << 4;
	}
	return c->vendor == BT_VENDOR_AMD &&
	       ((fam == 0x17 && model >= 0x30) || fam == 0x19 || fam == 0x1A);
}

uint64_t bt_sim_frontend_valid(uint8_t family)
{
	switch (family) {
	case BT_SIM_FAM_SKL:
	case BT_SIM_FAM_ICL:
		return 0x7FFF17;
	case BT_SIM_FAM_GLC:
	case BT_SIM_FAM_RWC:
	case BT_SIM_FAM_LNC:
		return 0x7FFF1F;
	}
	return 0;
}
