/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "arch/xstate.h"

void bt_xstate_enable(struct bt_arch *a, struct bt_xstate *ret)
{
	struct bt_cpuid r;
	uint64_t supported, want, cur = 0;

	memset(ret, 0, sizeof(*ret));
	bt_cpuid(a, 0, 0, &r);
	uint32_t max_leaf = r.eax;
	bt_cpuid(a, 1, 0, &r);
	if (!(r.ecx & (1u << 26)) || max_leaf < 0xd) {   /* CPUID.01H:ECX.XSAVE[26] */
		snprintf(ret->note, sizeof(ret->note), "no XSAVE (CPUID.01H:ECX[26] clear): "
			 "SSE only");
		return;
	}
	bool avx = r.ecx & (1u << 28);
	/* CPUID.01H:ECX.OSXSAVE[27] mirrors CR4.OSXSAVE: when set, XGETBV works
	 * and XCR0 tells what the firmware (or OS) already enabled. */
	bool osxsave = r.ecx & (1u << 27);
	if (osxsave && bt_xgetbv(a, 0, &cur) == BT_OK) {
		ret->old_xcr0 = cur;
		ret->old_xcr0_valid = true;
	}
	/* CPUID.(EAX=0DH,ECX=0):EDX:EAX = the XCR0 bits the CPU supports. */
	bt_cpuid(a, 0xd, 0, &r);
	supported = (uint64_t)r.edx << 32 | r.eax;
	want = BT_XCR0_X87 | BT_XCR0_SSE;
	if (avx && (supported & BT_XCR0_AVX))
		want |= BT_XCR0_AVX;
	/* AVX-512 state only as a whole, and only on top of AVX (SDM vol. 1,
	 * 13.3: XCR0[7:5] must be all set or all clear, and need XCR0[2]). */
	if ((want & BT_XCR0_AVX) && (supported & BT_XCR0_AVX512) == BT_XCR0_AVX512)
		want |= BT_XCR0_AVX512;
	if (ret->old_xcr0_valid && (cur & want) == want) {
		ret->xcr0 = cur;
		snprintf(ret->note, sizeof(ret->note), "XCR0 = 0x%llx (%s%s), as it was",
			 (unsigned long long)cur, cur & BT_XCR0_AVX ? "AVX" : "SSE only",
			 (cur & BT_XCR0_AVX512) == BT_XCR0_AVX512 ? ", AVX-512" : "");
		return;
	}
	ret->old_cr4 = bt_read_cr4(a);
	if (!osxsave) {
		bt_write_cr4(a, ret->old_cr4 | BT_CR4_OSXSAVE);
		ret->changed = true;
	}
	bt_status st = bt_xsetbv(a, 0, cur | want);
	if (st != BT_OK) {
		if (st == BT_ERR_FAULT)
			snprintf(ret->note, sizeof(ret->note),
				 "XSETBV(XCR0=0x%llx) raised %s: %s", (unsigned long long)(cur | want),
				 bt_fault_name(a->fault_vector), cur ? "XCR0 left as it was" : "SSE only");
		else
			snprintf(ret->note, sizeof(ret->note), "XCR0 cannot be set here (the %s "
				 "backend): %s", a->name, cur & BT_XCR0_AVX ? "AVX as it was" : "SSE only");
		if (ret->changed)
			bt_write_cr4(a, ret->old_cr4);
		ret->changed = false;
		ret->xcr0 = cur;
		return;
	}
	ret->changed = true;
	if (bt_xgetbv(a, 0, &ret->xcr0) != BT_OK)
		ret->xcr0 = cur | want;
	snprintf(ret->note, sizeof(ret->note), "XCR0 = 0x%llx (%s%s), enabled by baretop",
		 (unsigned long long)ret->xcr0, ret->xcr0 & BT_XCR0_AVX ? "AVX" : "SSE only",
		 (ret->xcr0 & BT_XCR0_AVX512) == BT_XCR0_AVX512 ? ", AVX-512" : "");
}

void bt_xstate_restore(struct bt_arch *a, const struct bt_xstate *x)
{
	if (!x->changed)
		return;
	if (x->old_xcr0_valid)
		bt_xsetbv(a, 0, x->old_xcr0);
	else if (!(x->old_cr4 & BT_CR4_OSXSAVE))
		bt_xsetbv(a, 0, BT_XCR0_X87); /* XCR0's reset value (SDM vol. 1, 13.3) */
	bt_write_cr4(a, x->old_cr4);
}
