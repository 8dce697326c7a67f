/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "app/kernel-cpu.h"

void bt_kernel_cpu_detect(struct bt_arch *a, struct bt_kernel_cpu *ret)
{
	struct bt_cpuid r0, r1, r7;
	uint64_t xcr0 = 0;

	memset(ret, 0, sizeof(*ret));
	ret->page_bytes = 4096;
	bt_cpuid(a, 0, 0, &r0);
	if (r0.eax < 1)
		return;
	bt_cpuid(a, 1, 0, &r1);
	memset(&r7, 0, sizeof(r7));
	if (r0.eax >= 7)
		bt_cpuid(a, 7, 0, &r7);
	/* CPUID.1: EDX[26] SSE2, ECX[12] FMA, ECX[27] OSXSAVE, ECX[28] AVX;
	 * CPUID.(7,0):EBX[16] AVX512F (SDM vol. 2A, CPUID). */
	ret->sse2 = (r1.edx >> 26) & 1;
	if (((r1.ecx >> 27) & 1) && bt_xgetbv(a, 0, &xcr0) != BT_OK)
		xcr0 = 0;
	/* XCR0: 1 SSE, 2 AVX; 5-7 opmask, ZMM_Hi256, Hi16_ZMM (SDM vol. 1, 13.3). */
	bool avx_state = (xcr0 & 0x6) == 0x6;
	bool avx512_state = avx_state && (xcr0 & 0xe0) == 0xe0;
	ret->avx = avx_state && ((r1.ecx >> 28) & 1);
	ret->fma = ret->avx && ((r1.ecx >> 12) & 1);
	ret->avx512f = ret->avx && avx512_state && ((r7.ebx >> 16) & 1);
	/* CPUID.4 (Intel deterministic cache parameters): the level-1 data
	 * cache's ways x partitions x line size x sets. */
	for (uint32_t i = 0; r0.eax >= 4 && i < 8; i++) {
		struct bt_cpuid c;

		bt_cpuid(a, 4, i, &c);
		uint32_t type = c.eax & 0x1f, level = (c.eax >> 5) & 7;
		if (type == 0)
			break;
		if (type == 1 && level == 1) {
			ret->l1d_bytes = (uint64_t)((c.ebx >> 22) + 1) * (((c.ebx >> 12) & 0x3ff) + 1) *
					 ((c.ebx & 0xfff) + 1) * (c.ecx + 1);
			break;
		}
	}
}
