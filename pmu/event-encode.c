/* SPDX-License-Identifier: MIT */
#include "pmu/event-encode.h"

#include <stdio.h>

#include "pmu/extra-msr.h"
#include "pmu/intel-uarch.h"
#include "pmu/msr.h"

#include "pmu/fail.h"

static uint64_t priv_bits(uint16_t flags)
{
	if (flags & BT_EVF_SUP)
		return EVTSEL_OS;
	if (flags & BT_EVF_USER)
		return EVTSEL_USR;
	return EVTSEL_OS | EVTSEL_USR;
}

static const char *ocr_codes_hint(uint8_t uarch)
{
	switch (uarch) {
	case BT_UARCH_NHM: return "event 0xB7 umask 0x01 only (no OFFCORE_RSP_1)";
	case BT_UARCH_WSM:
	case BT_UARCH_WSM_BDW:
	case BT_UARCH_SKL:
	case BT_UARCH_ICL: return "events 0xB7 / 0xBB, umask 0x01";
	case BT_UARCH_GLC:
	case BT_UARCH_RWC:
	case BT_UARCH_LNC: return "events 0x2A / 0x2B, umask 0x01";
	case BT_UARCH_ATOM: return "event 0xB7, umask 0x01 / 0x02";
	}
	return "no OFFCORE_RESPONSE events";
}

/* The extra MSR of an Intel general-counter encoding (code, umask is what
 * is programmed, possibly the alternative of the pair). */
static bt_status intel_extra(const struct bt_event *e, const struct bt_pmu_caps *caps,
			     bool use_code2, uint16_t code, uint8_t umask, struct bt_encoding *enc,
			     struct bt_diag *d)
{
	const char *name = e->name ? e->name : "event";
	const char *uarch = bt_intel_uarch_name(caps->uarch);
	switch (e->msr_index) {
	case 0:
		return BT_OK;
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1: {
		/* The MSR follows from the programmed code (and, on Atom cores,
		 * umask), not from the event's spelling (pmu/extra-msr.c). */
		uint32_t msr = bt_ocr_msr(caps->uarch, code, umask);
		if (!msr && caps->uarch == BT_UARCH_UNKNOWN)
			FAIL("%s: which OFFCORE_RSP MSR event 0x%X umask 0x%02X uses is not known for "
			     "this CPU model (baretop has no verified table for it)", name, code, umask);
		if (!msr)
			FAIL("%s: event 0x%X umask 0x%02X is not an OFFCORE_RESPONSE event on %s (%s)",
			     name, code, umask, uarch, ocr_codes_hint(caps->uarch));
		if (!use_code2 && msr != e->msr_index)
			FAIL("%s: declares MSR 0x%X, but on %s event 0x%X umask 0x%02X selects MSR 0x%X",
			     name, e->msr_index, uarch, code, umask, msr);
		enc->extra_msr = msr;
		enc->extra_value = e->msr_value;
		return BT_OK;
	}
	case MSR_PEBS_LD_LAT:
		/* SDM vol. 3B "Load Latency Performance Monitoring Facility":
		 * threshold in [15:0], minimum 3; and the facility needs PEBS
		 * (PEBS_EN_PMCx, before extended PEBS also LL_EN_PMCx, in
		 * IA32_PEBS_ENABLE). baretop counts without PEBS. */
		if (e->msr_value < 3 || e->msr_value > 0xFFFF)
			FAIL("%s: ldlat=%llu: the load latency threshold is MSR_PEBS_LD_LAT[15:0], "
			     "3-65535 (the SDM's minimum is 3)", name, (unsigned long long)e->msr_value);
		FAIL("%s: load-latency events count only with PEBS enabled for their counter "
		     "(IA32_PEBS_ENABLE), which baretop does not use in counting mode", name);
	case MSR_PEBS_FRONTEND: {
		uint32_t mask = bt_frontend_mask(caps->uarch, code, umask);
		if (!mask)
			FAIL("%s: event 0x%X umask 0x%02X does not use MSR_PEBS_FRONTEND on %s", name,
			     code, umask, uarch);
		if (e->msr_value & ~(uint64_t)mask)
			FAIL("%s: frontend=0x%llx: bits 0x%llx are reserved for this event on %s "
			     "(MSR_PEBS_FRONTEND bits it may set: 0x%X)", name,
			     (unsigned long long)e->msr_value,
			     (unsigned long long)(e->msr_value & ~(uint64_t)mask), uarch, mask);
		enc->extra_msr = MSR_PEBS_FRONTEND;
		enc->extra_value = e->msr_value;
		return BT_OK;
	}
	}
	FAIL("%s: extra MSR 0x%X is not one baretop programs (0x1A6, 0x1A7, 0x3F6, 0x3F7)",
	     name, e->msr_index);
}

bt_status bt_event_encode_gp(const struct bt_event *e, const struct bt_pmu_caps *caps,
			     bool use_code2, struct bt_encoding *ret, struct bt_diag *d)
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
	if (e->flags & BT_EVF_PEBS_ONLY)
		FAIL("%s: PEBS-only event (vendor data \"PEBS\": \"2\"): it counts only with PEBS "
		     "enabled, which baretop does not use in counting mode", name);
	uint16_t code = e->code;
	uint8_t umask = e->umask;
	if (use_code2) {
		/* The other encoding of an OFFCORE_RESPONSE pair: its code must
		 * be the one the event declares, its umask comes from the table
		 * (Atom cores pair 0xB7 umask 0x01 with 0xB7 umask 0x02). */
		bool ocr = e->msr_index == MSR_OFFCORE_RSP_0 || e->msr_index == MSR_OFFCORE_RSP_1;
		if (!e->code2)
			FAIL("%s: has no alternative code for the second extra MSR", name);
		if (amd || !ocr || !bt_ocr_other(caps->uarch, e->code, e->umask, &code, &umask) ||
		    code != e->code2)
			FAIL("%s: code2=0x%X is not the other OFFCORE_RESPONSE encoding of event 0x%X "
			     "umask 0x%02X on this CPU", name, e->code2, e->code, e->umask);
	}
	struct bt_encoding enc = { 0, 0, 0 };
	enc.evtsel = (code & 0xFFu) | (uint64_t)umask << EVTSEL_UMASK_SHIFT |
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
	bt_status st = intel_extra(e, caps, use_code2, code, umask, &enc, d);
	if (st != BT_OK)
		return st;
	*ret = enc;
	return BT_OK;
}

bool bt_event_fixed_to_gp(const struct bt_event *e, const struct bt_pmu_caps *caps,
			  struct bt_event *ret)
{
	/* Intel SDM vol. 3B, "Pre-defined Architectural Performance Events":
	 * Instructions Retired = event C0H umask 00H (fixed counter 0 counts
	 * the same, INST_RETIRED.ANY); UnHalted Core Cycles = event 3CH umask
	 * 00H (fixed counter 1, CPU_CLK_UNHALTED.THREAD). Fixed counter 2
	 * (reference cycles at the TSC rate) has no exact general-counter twin:
	 * 3CH/01H counts at the bus/crystal rate. */
	static const uint16_t arch_code[2] = { 0xC0, 0x3C };

	if (e->source != BT_SRC_PMC || e->counters || e->fixed < 0 || e->fixed > 1 ||
	    caps->kind != BT_PMU_INTEL_ARCH || !caps->gp_mask)
		return false;
	if (bt_event_fits_fixed(e, caps))
		return false; /* the fixed counter can count it as it is */
	/* What the shared fixed counter cannot do: a ring filter, AnyThread. */
	if (!(e->flags & (BT_EVF_ANY | BT_EVF_SUP | BT_EVF_USER)) || e->cmask || e->msr_index ||
	    (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ | BT_EVF_PEBS_ONLY)))
		return false;
	*ret = *e;
	ret->code = arch_code[e->fixed];
	ret->code2 = 0;
	ret->umask = 0;
	ret->umask_ext = 0;
	ret->fixed = BT_EV_NO_FIXED;
	ret->counters = caps->gp_mask;
	ret->counters_ht_off = 0;
	return true;
}

bool bt_event_fits_fixed(const struct bt_event *e, const struct bt_pmu_caps *caps)
{
	if (e->source != BT_SRC_PMC || e->fixed < 0 || e->fixed >= BT_PMU_MAX_FIXED)
		return false;
	if (caps->kind != BT_PMU_INTEL_ARCH || !(caps->fixed_mask & (1u << e->fixed)))
		return false;
	if (e->cmask || (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_EQ | BT_EVF_PEBS_ONLY)) ||
	    e->msr_index || e->umask_ext)
		return false;
	/* Every group carries the fixed counters for cross-checking, counting
	 * all rings of this thread: an event asking for a privilege filter or
	 * AnyThread goes to a general counter instead. */
	if (e->flags & (BT_EVF_ANY | BT_EVF_SUP | BT_EVF_USER))
		return false;
	return true;
}
