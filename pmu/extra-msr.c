/* SPDX-License-Identifier: MIT */
/*
 * Sources (facts only, checked entry by entry):
 *   OFFCORE_RESPONSE: Intel perfmon event files, OCR.* events' EventCode /
 *     UMask / MSRIndex: Ivy Bridge .. Ice Lake / Tiger Lake "0xB7, 0xBB" /
 *     "0x01" / "0x1a6,0x1a7"; Sapphire/Emerald/Granite Rapids, Alder Lake
 *     Golden Cove, Meteor Lake Redwood Cove, Lunar/Arrow Lake Lion Cove
 *     "0x2A,0x2B" / "0x01"; Gracemont, Crestmont, Skymont, Sierra Forest
 *     "0xB7" / "0x01,0x02". Linux extra_regs tables: intel_nehalem (0x01b7
 *     only), intel_westmere/snb/skl/icl (0x01b7, 0x01bb), intel_spr/rwc/lnc
 *     (0x012a, 0x012b), intel_slm/glm/tnt/grt/cmt/knl (0x01b7, 0x02b7).
 *   MSR_PEBS_FRONTEND: Linux intel_skl/icl_extra_regs 0x01c6 mask 0x7fff17
 *     ("the low 8 bits ... containing some #GPing bits"); intel_spr 0x01c6
 *     0x7fff1f, 0x40ad 0x7, 0x04c2 0x8; intel_rwc 0x02c6 0x9, 0x03c6
 *     0x7fff1f, 0x40ad 0x7, 0x04c2 0x8; intel_lnc the same with 0x40ad 0xf.
 *     The vendor files' FRONTEND_RETIRED.* MSRValues fit these masks.
 */
#include "pmu/extra-msr.h"
#include "base/array.h"

#include <stddef.h>

#include "pmu/msr.h"

static const struct {
	uint8_t uarch;
	uint8_t code, umask;
	uint16_t msr;
} ocr[] = {
	{ BT_UARCH_NHM, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_WSM, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_WSM, 0xBB, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_WSM_BDW, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_WSM_BDW, 0xBB, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_SKL, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_SKL, 0xBB, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_ICL, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_ICL, 0xBB, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_GLC, 0x2A, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_GLC, 0x2B, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_RWC, 0x2A, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_RWC, 0x2B, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_LNC, 0x2A, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_LNC, 0x2B, 0x01, MSR_OFFCORE_RSP_1 },
	{ BT_UARCH_ATOM, 0xB7, 0x01, MSR_OFFCORE_RSP_0 },
	{ BT_UARCH_ATOM, 0xB7, 0x02, MSR_OFFCORE_RSP_1 },
};

#define N_OCR (BT_ARRAY_SIZE(ocr))

uint32_t bt_ocr_msr(uint8_t uarch, uint16_t code, uint8_t umask)
{
	for (size_t i = 0; i < N_OCR; i++)
		if (ocr[i].uarch == uarch && ocr[i].code == code && ocr[i].umask == umask)
			return ocr[i].msr;
	return 0;
}

bool bt_ocr_other(uint8_t uarch, uint16_t code, uint8_t umask, uint16_t *ret_code,
		  uint8_t *ret_umask)
{
	uint32_t mine = bt_ocr_msr(uarch, code, umask);
	if (!mine)
		return false;
	for (size_t i = 0; i < N_OCR; i++)
		if (ocr[i].uarch == uarch && ocr[i].msr != mine) {
			*ret_code = ocr[i].code;
			*ret_umask = ocr[i].umask;
			return true;
		}
	return false;
}

uint32_t bt_ocr_msr_any(uint16_t code, uint8_t umask)
{
	uint32_t msr = 0;
	for (size_t i = 0; i < N_OCR; i++) {
		if (ocr[i].code != code || ocr[i].umask != umask)
			continue;
		if (msr && msr != ocr[i].msr)
			return 0; /* the classes disagree: cannot tell without the CPU */
		msr = ocr[i].msr;
	}
	return msr;
}

static const struct {
	uint8_t uarch;
	uint8_t code, umask;
	uint32_t mask;
} frontend[] = {
	{ BT_UARCH_SKL, 0xC6, 0x01, 0x7FFF17 },
	{ BT_UARCH_ICL, 0xC6, 0x01, 0x7FFF17 },
	{ BT_UARCH_GLC, 0xC6, 0x01, 0x7FFF1F },
	{ BT_UARCH_GLC, 0xAD, 0x40, 0x7 },
	{ BT_UARCH_GLC, 0xC2, 0x04, 0x8 },
	{ BT_UARCH_RWC, 0xC6, 0x02, 0x9 },
	{ BT_UARCH_RWC, 0xC6, 0x03, 0x7FFF1F },
	{ BT_UARCH_RWC, 0xAD, 0x40, 0x7 },
	{ BT_UARCH_RWC, 0xC2, 0x04, 0x8 },
	{ BT_UARCH_LNC, 0xC6, 0x02, 0x9 },
	{ BT_UARCH_LNC, 0xC6, 0x03, 0x7FFF1F },
	{ BT_UARCH_LNC, 0xAD, 0x40, 0xF },
	{ BT_UARCH_LNC, 0xC2, 0x04, 0x8 },
};

uint32_t bt_frontend_mask(uint8_t uarch, uint16_t code, uint8_t umask)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(frontend); i++)
		if (frontend[i].uarch == uarch && frontend[i].code == code &&
		    frontend[i].umask == umask)
			return frontend[i].mask;
	return 0;
}
