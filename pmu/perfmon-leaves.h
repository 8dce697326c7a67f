/* SPDX-License-Identifier: MIT */
/*
 * Intel's performance-monitoring CPUID leaves as fields, decoded once for the
 * driver (pmu/pmu-caps.c, which applies the named quirks on top) and the
 * simulator (synth/sim-cpuid-dump.c, which answers as a dump did): SDM vol.
 * 2A, CPUID leaf 0AH "Architectural Performance Monitoring Leaf" and leaf
 * 23H "Architectural Performance Monitoring Extended Leaf". Bits only: no
 * quirk and no policy here.
 */
#ifndef PMU_PERFMON_LEAVES_H
#define PMU_PERFMON_LEAVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"

struct bt_leaf0a {
	uint8_t version;        /* EAX[7:0] */
	uint8_t num_gp;         /* EAX[15:8] general counters */
	uint8_t gp_width;       /* EAX[23:16] */
	uint8_t events_len;     /* EAX[31:24] length of the EBX vector */
	uint32_t events_na;     /* EBX: bit x set = architectural event x NOT available */
	uint32_t fixed_bitmap;  /* ECX: further fixed counters (version 5 and up; else 0) */
	uint32_t ecx;           /* ECX as read (checked whatever the version says) */
	uint8_t num_fixed;      /* EDX[4:0] contiguous fixed counters (version 2 and up) */
	uint8_t fixed_width;    /* EDX[12:5] */
	bool any_deprecated;    /* EDX[15] AnyThread deprecation */
};

void bt_leaf0a_decode(const struct bt_cpuid *r, struct bt_leaf0a *ret);

/* The architectural events the leaf says are available: bit x when EBX[x]
 * is 0 and the vector holds bit x (EAX[31:24] > x). */
uint32_t bt_leaf0a_events(const struct bt_leaf0a *a);

/* True, with the reason in `why`, for a leaf no processor can give (see
 * perfmon-leaves.c). */
bool bt_leaf0a_impossible(const struct bt_leaf0a *a, char *why, size_t len);

struct bt_leaf23 {
	bool present;           /* CPUID.(07H,1):EAX[8] and the maximum leaf >= 23H */
	bool umask2, eq;        /* subleaf 0 EBX[0] UMASK2, EBX[1] EQ */
	uint8_t slots_per_cycle; /* subleaf 0 ECX[7:0] */
	bool counters;          /* subleaf 1 valid (subleaf 0 EAX[1]) */
	uint32_t gp_bitmap;     /* subleaf 1 EAX: general counter x exists */
	uint32_t fixed_bitmap;  /* subleaf 1 EBX: fixed counter x exists */
	bool events;            /* subleaf 3 valid (subleaf 0 EAX[3]) */
	uint32_t arch_events;   /* subleaf 3 EAX: architectural event x available */
};

/* max_leaf: CPUID.00H:EAX; l07_1: CPUID.(07H,1); s0, s1, s3: the subleaves
 * of 23H (read only where present; s1 and s3 only where subleaf 0 says). */
void bt_leaf23_decode(uint32_t max_leaf, const struct bt_cpuid *l07_1, const struct bt_cpuid *s0,
		      const struct bt_cpuid *s1, const struct bt_cpuid *s3, struct bt_leaf23 *ret);

/* 1 + the highest set bit of m (0 for none): the counter count a bitmap
 * implies when the driver indexes counters 0..n-1. */
unsigned bt_bitmap_span(uint32_t m);

#endif
