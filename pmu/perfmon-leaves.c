/* SPDX-License-Identifier: MIT */
/* Intel's performance-monitoring CPUID leaves: see perfmon-leaves.h. */
#include "pmu/perfmon-leaves.h"

#include <stdio.h>
#include <string.h>

void bt_leaf0a_decode(const struct bt_cpuid *r, struct bt_leaf0a *ret)
{
	*ret = (struct bt_leaf0a){
		.version = (uint8_t)(r->eax & 0xFF),
		.num_gp = (uint8_t)((r->eax >> 8) & 0xFF),
		.gp_width = (uint8_t)((r->eax >> 16) & 0xFF),
		.events_len = (uint8_t)(r->eax >> 24),
		.events_na = r->ebx,
		.ecx = r->ecx,
		.num_fixed = (uint8_t)(r->edx & 0x1F),
		.fixed_width = (uint8_t)((r->edx >> 5) & 0xFF),
		.any_deprecated = (r->edx >> 15) & 1,
	};
	/* ECX is the fixed-counter bitmap from version 5 (SDM vol. 2A leaf
	 * 0AH: fixed counter i exists iff ECX[i] || EDX[4:0] > i). */
	ret->fixed_bitmap = ret->version >= 5 ? r->ecx : 0;
}

uint32_t bt_leaf0a_events(const struct bt_leaf0a *a)
{
	uint32_t ev = 0;
	for (unsigned x = 0; x < 32 && x < a->events_len; x++)
		if (!((a->events_na >> x) & 1))
			ev |= 1u << x;
	return ev;
}

/*
 * Answers no processor can give (SDM vol. 2A, CPUID leaf 0AH; vol. 3B
 * 21.2): a broken hypervisor or an edited dump.
 *  - EAX[7:0] version: the SDM defines versions 1 to 6 (21.2.1-21.2.6).
 *  - EAX[15:8] general counters: IA32_PERF_GLOBAL_CTRL/STATUS enable them in
 *    bits 31:0 (fixed counter i is bit 32+i), so at most 32.
 *  - EAX[23:16] and EDX[12:5] bit widths: a counter is one 64-bit MSR
 *    (IA32_PMCx, IA32_FIXED_CTRx), so at most 64, and a counter of 0 bits
 *    counts nothing.
 *  - EDX[4:0] and ECX (v5 bitmap) fixed counters: bits 47:32 of the global
 *    registers, so at most 16 (fixed counter indexes 0-15).
 */
#define BT_SDM_MAX_PERFMON_VERSION 6

bool bt_leaf0a_impossible(const struct bt_leaf0a *a, char *why, size_t len)
{
	unsigned version = a->version, ngp = a->num_gp, gpw = a->gp_width;
	unsigned nfix = a->num_fixed, fxw = a->fixed_width;

	if (version > BT_SDM_MAX_PERFMON_VERSION)
		snprintf(why, len, "version %u (EAX[7:0]; the SDM defines versions 1 to %u)",
			 version, BT_SDM_MAX_PERFMON_VERSION);
	else if (ngp > 32)
		snprintf(why, len, "%u general counters (EAX[15:8]; IA32_PERF_GLOBAL_CTRL "
			 "has bits for at most 32)", ngp);
	else if (gpw > 64 || (ngp && gpw == 0))
		snprintf(why, len, "general counters %u bits wide (EAX[23:16]; a counter is "
			 "one 64-bit MSR: 1 to 64)", gpw);
	else if (version >= 2 && nfix > 16)
		snprintf(why, len, "%u fixed counters (EDX[4:0]; IA32_PERF_GLOBAL_CTRL has "
			 "bits 47:32 for at most 16)", nfix);
	else if (version >= 5 && (a->ecx >> 16))
		snprintf(why, len, "fixed-counter bitmap 0x%x (ECX; fixed counters 16 and up "
			 "do not exist: IA32_PERF_GLOBAL_CTRL has bits 47:32 for them)", a->ecx);
	else if (version >= 2 && fxw > 64)
		snprintf(why, len, "fixed counters %u bits wide (EDX[12:5]; a counter is one "
			 "64-bit MSR)", fxw);
	else
		return false;
	return true;
}

void bt_leaf23_decode(uint32_t max_leaf, const struct bt_cpuid *l07_1, const struct bt_cpuid *s0,
		      const struct bt_cpuid *s1, const struct bt_cpuid *s3, struct bt_leaf23 *ret)
{
	memset(ret, 0, sizeof(*ret));
	/* Leaf 23H exists when CPUID.(EAX=07H,ECX=1):EAX[8] is set. */
	if (!((l07_1->eax >> 8) & 1) || max_leaf < 0x23)
		return;
	ret->present = true;
	ret->umask2 = s0->ebx & 1;
	ret->eq = (s0->ebx >> 1) & 1;
	ret->slots_per_cycle = (uint8_t)(s0->ecx & 0xFF);
	/* Subleaf 1 (valid per CPUID.23H:EAX[1]) enumerates the counters as
	 * bitmaps (SDM vol. 2B RDPMC: GP counter x is valid if
	 * CPUID.23H.01H:EAX[x], fixed counter x if CPUID.23H.01H:EBX[x]). */
	if ((s0->eax >> 1) & 1) {
		ret->counters = true;
		ret->gp_bitmap = s1->eax;
		ret->fixed_bitmap = s1->ebx;
	}
	/* Subleaf 3 (valid per CPUID.23H:EAX[3]): EAX bit x = 1 means
	 * architectural event x is available on this logical processor. */
	if ((s0->eax >> 3) & 1) {
		ret->events = true;
		ret->arch_events = s3->eax;
	}
}

unsigned bt_bitmap_span(uint32_t m)
{
	unsigned n = 0;
	for (unsigned i = 0; i < 32; i++)
		if ((m >> i) & 1)
			n = i + 1;
	return n;
}
