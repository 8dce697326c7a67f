/* SPDX-License-Identifier: MIT */
/*
 * MSR_PERF_METRICS (0x329; Intel SDM vol. 3B, "Performance Metrics", Ice Lake
 * and later with IA32_PERF_CAPABILITIES[15]) holds eight 8-bit fields, each
 * the share of TOPDOWN.SLOTS (fixed counter 3) in units of 1/0xFF, in the
 * byte order of enum bt_perf_metrics_field (base/event.h).
 *
 * The metric core takes PERF_METRICS.<FIELD> as a SLOT COUNT, like Linux
 * perf's topdown-* events and the test vectors (FORMAT.md):
 *
 *     PERF_METRICS.<FIELD> = floor(SLOTS * field / 0xFF)
 *
 * with SLOTS the fixed-counter-3 value read in the same counting window as
 * the MSR. The vendor formulas then divide by the sum of the four level-1
 * fields, so the 1/0xFF granularity cancels. The PMU driver must convert the
 * raw MSR with bt_perf_metrics_slots() before handing the counts over.
 */
#ifndef METRICS_PERF_METRICS_H
#define METRICS_PERF_METRICS_H

#include <stdint.h>

#include "base/event.h"

/* floor(slots * byte / 255) without overflow for any 64-bit slots. */
static inline uint64_t bt_perf_metrics_slots(uint64_t slots, uint64_t msr_value,
					     enum bt_perf_metrics_field field)
{
	uint64_t byte = (msr_value >> (8 * (unsigned)field)) & 0xFF;
	/* slots = 255 q + r: slots * byte / 255 = q * byte + r * byte / 255 */
	uint64_t q = slots / 255, r = slots % 255;
	return q * byte + r * byte / 255;
}

#endif
