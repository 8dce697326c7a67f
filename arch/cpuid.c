/* SPDX-License-Identifier: MIT */
/* CPU facts from CPUID and XCR0: see arch/cpuid.h. */
#include <string.h>

#include "arch/cpuid.h"
#include "arch/xstate.h"

enum bt_vendor bt_vendor_from_cpuid(const struct bt_cpuid *leaf0)
{
	char v[13];

	/* The 12 characters are in EBX, EDX, ECX, in that order. */
	memcpy(v, &leaf0->ebx, 4);
	memcpy(v + 4, &leaf0->edx, 4);
	memcpy(v + 8, &leaf0->ecx, 4);
	v[12] = '\0';
	if (strcmp(v, "GenuineIntel") == 0)
		return BT_VENDOR_INTEL;
	if (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0)
		return BT_VENDOR_AMD;
	return BT_VENDOR_UNKNOWN;
}

/* The XCR0 state components each feature needs (arch/xstate.h): AVX the SSE
 * and YMM_Hi128 state, AVX-512 also opmask, ZMM_Hi256 and Hi16_ZMM. */
#define XCR0_AVX_STATE    (BT_XCR0_SSE | BT_XCR0_AVX)
#define XCR0_AVX512_STATE BT_XCR0_AVX512

void bt_cpu_features_decode(const struct bt_cpuid *leaf1, const struct bt_cpuid *leaf7,
			    uint64_t xcr0, struct bt_cpu_features *ret)
{
	struct bt_cpu_features f;
	bool avx_state = (xcr0 & XCR0_AVX_STATE) == XCR0_AVX_STATE;
	bool avx512_state = avx_state && (xcr0 & XCR0_AVX512_STATE) == XCR0_AVX512_STATE;

	memset(&f, 0, sizeof(f));
	f.sse2 = (leaf1->edx >> 26) & 1;
	f.avx = avx_state && ((leaf1->ecx >> 28) & 1);
	f.fma = f.avx && ((leaf1->ecx >> 12) & 1);
	f.avx512f = f.avx && avx512_state && ((leaf7->ebx >> 16) & 1);
	*ret = f;
}

void bt_cpu_features_read(struct bt_arch *a, struct bt_cpu_features *ret)
{
	struct bt_cpuid r0, r1, r7;
	uint64_t xcr0 = 0;

	memset(ret, 0, sizeof(*ret));
	bt_cpuid(a, 0, 0, &r0);
	if (r0.eax < 1)
		return;
	bt_cpuid(a, 1, 0, &r1);
	memset(&r7, 0, sizeof(r7));
	if (r0.eax >= 7)
		bt_cpuid(a, 7, 0, &r7);
	if (((r1.ecx >> 27) & 1) && bt_xgetbv(a, 0, &xcr0) != BT_OK)
		xcr0 = 0;
	bt_cpu_features_decode(&r1, &r7, xcr0, ret);
}
