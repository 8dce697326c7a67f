/* SPDX-License-Identifier: MIT */
/*
 * Timed PEBS: the retire latencies of one precise event, sampled on one
 * general counter in one window (the TMA 5 formulas' EVENT:R inputs).
 *
 * Gate: IA32_PERF_CAPABILITIES[17] PEBS_TIMING_INFO (Linux union
 * perf_capabilities; "perf/x86: Support Retire Latency"), not the PEBS
 * record format number (Arrow Lake H reports format 5 with timing).
 * Architectural PEBS (CPUID.23H.0:EAX[4] and [5], its subleaves 4 and 5:
 * Clearwater Forest, Panther Lake) moves the latency and replaces
 * IA32_PEBS_ENABLE / MSR_PEBS_DATA_CFG by other MSRs: refused, named.
 *
 * One run of the workload, in one window or, under --max-window-ms, split
 * into several as the counting runs are (pmu/measure.h): the DS save area
 * and a buffer baretop allocates; adaptive
 * PEBS with the basic group only (MSR_PEBS_DATA_CFG = 0); the counter
 * armed in IA32_PEBS_ENABLE with its reload value -sample_after in the DS
 * area's pebs_event_reset[] and in the counter; no PMI (the selector's INT
 * bit clear): the records are read after the window. IA32_DS_AREA,
 * IA32_PEBS_ENABLE, MSR_PEBS_DATA_CFG, the counter's selector and count and
 * IA32_PERF_GLOBAL_CTRL are saved first and restored last, on every path;
 * so is MSR_PEBS_FRONTEND (0x3F7) when the sampled event needs it
 * (FRONTEND_RETIRED.*: its value selects what the event counts, SDM vol. 3B
 * "PEBS Facility for Front End Events", table "MSR_PEBS_FRONTEND Layout":
 * EVTSEL [7:0], IDQ_Bubble_Length [19:8], IDQ_Bubble_Width [22:20]). The MSR is one per core, so one window holds
 * one such event: the caller samples each event in its own window anyway.
 * MSR_PEBS_LD_LAT and OFFCORE_RSP are refused, named: baretop counts no
 * load-latency event, and OFFCORE_RESPONSE events are not precise;
 * each access goes through the arch seam's fault guard, a fault is an
 * error naming the MSR.
 *
 * Records (Linux ds.c, struct pebs_basic): qword 0 holds the record's
 * groups in 31:0, the retire latency in 47:32 (core cycles, saturating at
 * 65535) and the record's size in 63:48; then IP, applicable counters, TSC.
 */
#ifndef PMU_PEBS_H
#define PMU_PEBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "base/diag.h"
#include "base/status.h"
#include "pmu/cpu-info.h"

#define BT_PEBS_LAT_MAX 65535u

struct bt_pebs_stats {
	uint64_t samples;        /* records read */
	uint64_t saturated;      /* of them at 65535 */
	double mean, median;     /* cycles; NaN without samples */
	uint32_t min, max;
	uint64_t dropped;        /* a full buffer: overflows beyond its room (estimated
				  * from the counter: sample-after too small) */
	unsigned windows;        /* windows the run was sampled in (1: whole) */
};

/* BT_OK when timed PEBS can be used with this PMU; else BT_ERR_UNSUPPORTED
 * with the reason (no PERF_CAPABILITIES[17]; architectural PEBS). */
bt_status bt_pebs_supported(struct bt_arch *a, const struct bt_pmu_caps *caps, struct bt_diag *d);

struct bt_pebs_job {
	uint64_t evtsel;         /* the event's selector as encoded (pmu/event-encode.h); the
				  * enable bit is set and the PMI bit cleared here */
	uint32_t extra_msr;      /* 0, or MSR_PEBS_FRONTEND (0x3F7) for a FRONTEND_RETIRED.*
				  * event that needs it (pmu/event-encode.h's extra_msr);
				  * any other extra MSR is refused, named */
	uint64_t extra_value;    /* what extra_msr holds during the window */
	unsigned counter;        /* a general counter the event may use */
	uint64_t sample_after;   /* counts per record (>= 1) */
	unsigned slots;          /* records the buffer holds */
	bt_window_fn *fn;        /* the workload, run inside the window */
	void *arg;
	bool mask_interrupts;    /* interrupts masked around each window (only there) */
	/* --max-window-ms, as pmu/measure.h splits a counting run: `windows`
	 * > 1 runs the body as that many windows of iterations [b, e) of
	 * `iterations` (set_range(range_ctx, b, e) before each, (0, iterations)
	 * after the last), the counter and its PEBS arming kept between them,
	 * stopped by IA32_PERF_GLOBAL_CTRL = 0 with interrupts open. 0 or 1,
	 * or a body that cannot be split (no set_range, fewer iterations than
	 * windows): one window, the whole run. */
	unsigned windows;
	uint64_t iterations;
	void (*set_range)(void *ctx, uint64_t begin, uint64_t end);
	void *range_ctx;
};

bt_status bt_pebs_sample(struct bt_arch *a, const struct bt_pmu_caps *caps,
			 const struct bt_pebs_job *job, struct bt_pebs_stats *ret, struct bt_diag *d);

/* The retire latencies of the records in buf[0 .. bytes): each record's
 * qword 0, bits 47:32, advancing by its own size (63:48). Returns how many
 * (at most cap); 0 at the first record whose size is not a whole number of
 * qwords of at least the basic group. */
unsigned bt_pebs_latencies(const uint64_t *buf, uint64_t bytes, uint32_t *lat, unsigned cap);

#endif
