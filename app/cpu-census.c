/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "app/cpu-census.h"

void bt_cpu_census_take(struct bt_platform *p, struct bt_cpu_census *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!p->cpu_count || p->cpu_count(&ret->total, &ret->enabled) != BT_OK) {
		snprintf(ret->note, sizeof(ret->note), "the platform cannot enumerate CPUs "
			 "(no EFI_MP_SERVICES_PROTOCOL)");
		ret->total = ret->enabled = 0;
		return;
	}
	uint32_t seen_pkg[64], n_pkg = 0, max_thread = 0;
	bool located = false;

	for (uint32_t i = 0; i < ret->total; i++) {
		struct bt_cpu_location loc;

		if (!p->cpu_location || p->cpu_location(i, &loc) != BT_OK)
			continue;
		located = true;
		if (loc.thread > max_thread)
			max_thread = loc.thread;
		bool known = false;
		for (uint32_t k = 0; k < n_pkg; k++)
			known |= seen_pkg[k] == loc.package;
		if (!known && n_pkg < 64)
			seen_pkg[n_pkg++] = loc.package;
	}
	if (located) {
		ret->packages = n_pkg;
		ret->threads_per_core = max_thread + 1;
	}
}
