/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "app/kernel-cpu.h"

void bt_kernel_cpu_detect(struct bt_arch *a, struct bt_kernel_cpu *ret)
{
	struct bt_cpuid r0;

	memset(ret, 0, sizeof(*ret));
	ret->page_bytes = 4096;
	bt_cpuid(a, 0, 0, &r0);
	if (r0.eax < 1)
		return;
	bt_cpu_features_read(a, &ret->isa);
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
