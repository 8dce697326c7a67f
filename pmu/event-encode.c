/* SPDX-License-Identifier: MIT */
#include "pmu/event-encode.h"

#include <stdio.h>

#include "pmu/msr.h"

#define FAIL(...)                                                   \
	do {                                                        \
		if (err)                                            \
			snprintf(err, errlen, __VA_ARGS__);         \
		return BT_ERR_INVALID;                              \
	} while (0)

static uint64_t priv_bits(uint8_t flags)
{
	if (flags & BT_EVF_SUP)
		return EVTSEL_OS;
	if (flags & BT_EVF_USER)
		return EVTSEL_USR;
	return EVTSEL_OS | EVTSEL_USR;
}

bt_status bt_event_encode_gp(const struct bt_event *e, const struct bt_pmu_caps *caps,
			     bool use_code2, struct bt_encoding *ret, char *err, size_t errlen)
{
	const char *name = e->name ? e->name : "event";
	bool amd = caps->kind == BT_PMU_AMD_LEGACY || caps->kind == BT_PMU_AMD_CORE_EXT ||
		   caps->kind == BT_PMU_AMD_V2;
	if (caps->kind == BT_PMU_NONE)
		FAIL("%s: no PMU (%s)", name, caps->absent_reason);
	if (e->source != BT_SRC_PMC)
		FAIL("%s: not a core PMU counter event", name);
	if ((e->flags & BT_EVF_SUP) && (e->flags & BT_EVF_USER))
		FAIL("%s: :SUP and :USER together count nothing", name);
	if (use_code2 && !e->code2)
		FAIL("%s: has no alternative code for the second extra MSR", name);
	uint16_t code = use_code2 ? e->code2 : e->code;
	struct bt_encoding enc = { 0, 0, 0 };
	enc.evtsel = (code & 0xFFu) | (uint64_t)e->umask << EVTSEL_UMASK_SHIFT |
		     (uint64_t)e->cmask << EVTSEL_CMASK_SHIFT | priv_bits(e->flags);
	if (e->flags & BT_EVF_INV)
		enc.evtsel |= EVTSEL_INV;
	if (e->flags & BT_EVF_EDGE)
		enc.evtsel |= EVTSEL_EDGE;

	if (amd) {
		if (code > 0xFFF)
			FAIL("%s: event=0x%X: AMD event select is 12 bits (0-0xFFF)", name, code);
		/* EventSelect[11:8] lives in PerfEvtSel[35:32] (APM vol. 2 §13.2.1). */
		enc.evtsel |= (uint64_t)(code >> 8) << AMD_EVTSEL_EVENT_HI_SHIFT;
		if (e->flags & BT_EVF_ANY)
			FAIL("%s: any: AMD PerfEvtSel has no AnyThread bit", name);
		if (e->flags & BT_EVF_EQ)
			FAIL("%s: eq: AMD PerfEvtSel has no EQ bit", name);
		if (e->umask_ext)
			FAIL("%s: umask2: AMD PerfEvtSel has no second unit mask", name);
		if (e->msr_index)
			FAIL("%s: extra MSR 0x%X is Intel-only", name, e->msr_index);
		*ret = enc;
		return BT_OK;
	}
	if (code > 0xFF)
		FAIL("%s: event=0x%X needs AMD (Intel event select is 8 bits)", name, code);
	if (e->flags & BT_EVF_ANY) {
		/* SDM 20.2.3: AnyThread is v3+; 20.2.5: deprecated when
		 * CPUID.0AH:EDX[15] = 1. */
		if (caps->version < 3)
			FAIL("%s: any: AnyThread needs architectural perfmon v3 (this PMU is v%u)",
			     name, caps->version);
		if (caps->any_thread_deprecated)
			FAIL("%s: any: AnyThread is deprecated on this CPU (CPUID.0AH:EDX[15])", name);
		enc.evtsel |= EVTSEL_ANY;
	}
	if (e->flags & BT_EVF_EQ) {
		if (!caps->eq)
			FAIL("%s: eq: the EQ bit needs CPUID.23H:EBX[1] (perfmon v6)", name);
		enc.evtsel |= EVTSEL_EQ;
	}
	if (e->umask_ext) {
		if (!caps->umask2)
			FAIL("%s: umask2=0x%X: UMASK2 needs CPUID.23H:EBX[0] (perfmon v6)", name,
			     e->umask_ext);
		enc.evtsel |= (uint64_t)e->umask_ext << EVTSEL_UMASK2_SHIFT;
	}
	switch (e->msr_index) {
	case 0:
		break;
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		enc.extra_msr = use_code2 ? MSR_OFFCORE_RSP_1 : e->msr_index;
		enc.extra_value = e->msr_value;
		break;
	case MSR_PEBS_LD_LAT:
		if (e->msr_value < 1 || e->msr_value > 0xFFFF)
			FAIL("%s: ldlat=%llu: the load latency threshold is MSR_PEBS_LD_LAT[15:0] (1-65535)",
			     name, (unsigned long long)e->msr_value);
		enc.extra_msr = e->msr_index;
		enc.extra_value = e->msr_value;
		break;
	case MSR_PEBS_FRONTEND:
		if (e->msr_value > 0xFFFFFF)
			FAIL("%s: frontend=0x%llx: MSR_PEBS_FRONTEND uses bits 23:0", name,
			     (unsigned long long)e->msr_value);
		enc.extra_msr = e->msr_index;
		enc.extra_value = e->msr_value;
		break;
	default:
		FAIL("%s: extra MSR 0x%X is not one baretop programs (0x1A6, 0x1A7, 0x3F6, 0x3F7)",
		     name, e->msr_index);
	}
	*ret = enc;
	return BT_OK;
}

bool bt_event_fits_fixed(const struct bt_event *e, const struct bt_pmu_caps *caps)
{
	if (e->source != BT_SRC_PMC || e->fixed < 0 || e->fixed >= BT_PMU_MAX_FIXED)
		return false;
	if (caps->kind != BT_PMU_INTEL_ARCH || !(caps->fixed_mask & (1u << e->fixed)))
		return false;
	if (e->cmask || (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ)) || e->msr_index ||
	    e->umask_ext)
		return false;
	/* Every group carries the fixed counters for cross-checking, counting
	 * all rings of this thread: an event asking for a privilege filter or
	 * AnyThread goes to a general counter instead. */
	if (e->flags & (BT_EVF_ANY | BT_EVF_SUP | BT_EVF_USER))
		return false;
	return true;
}

uint8_t bt_event_fixed_field(const struct bt_event *e, const struct bt_pmu_caps *caps)
{
	uint8_t f;
	if (e->flags & BT_EVF_SUP)
		f = FIXED_CTRL_OS;
	else if (e->flags & BT_EVF_USER)
		f = FIXED_CTRL_USR;
	else
		f = FIXED_CTRL_OS | FIXED_CTRL_USR;
	if ((e->flags & BT_EVF_ANY) && caps->version >= 3 && !caps->any_thread_deprecated)
		f |= FIXED_CTRL_ANY;
	return f;
}
