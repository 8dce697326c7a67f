/* SPDX-License-Identifier: MIT */
/*
 * One PMU event as a Top-Down model needs it: its canonical name (the
 * spelling the formulas and the count files use, see
 * ../shared/testdata/tma/FORMAT.md) and its encoding from the vendor event
 * file, or from a raw event string the user wrote. metrics/ only carries
 * these facts; pmu/ turns them into register values and counter plans.
 */
#ifndef BASE_EVENT_H
#define BASE_EVENT_H

#include <stdint.h>

/* Where the count comes from. */
enum bt_event_source {
	BT_SRC_PMC = 0,        /* a core PMU event (general and/or fixed counter) */
	BT_SRC_PERF_METRICS,   /* one byte of MSR_PERF_METRICS, as a slot count:
				* floor(SLOTS * byte / 0xFF), see metrics/perf-metrics.h */
	BT_SRC_TSC,            /* TSC ticks over the counting window */
	BT_SRC_DURATION,       /* wall time of the window, ns ("duration_time") */
	BT_SRC_UNCORE,         /* an uncore/system event the core PMU cannot count */
	BT_SRC_UNKNOWN,        /* named by a vendor formula but absent from the vendor
				* event files baretop was given: no encoding, so only a
				* count file can supply it (added by the metric core) */
};

/* enum bt_event_flags */
#define BT_EVF_INV      (1u << 0) /* invert the counter-mask comparison */
#define BT_EVF_EDGE     (1u << 1) /* count rising edges */
#define BT_EVF_ANY      (1u << 2) /* AnyThread (Intel before perfmon v5) */
#define BT_EVF_EQ       (1u << 3) /* count when == cmask instead of >= (Intel "Equal") */
#define BT_EVF_ALONE    (1u << 4) /* TakenAlone: no other general-counter event in its group */
#define BT_EVF_SUP      (1u << 5) /* ":SUP": ring 0 only */
#define BT_EVF_USER     (1u << 6) /* ":USER": ring > 0 only */
#define BT_EVF_PERCORE  (1u << 7) /* ":percore": count for the whole core (all SMT
				   * threads), e.g. TOPDOWN.SLOTS:percore (added by the metric core) */
#define BT_EVF_PEBS_ONLY (1u << 8) /* counts only with PEBS enabled: not measurable in
				   * counting mode. Not derived from the vendor "PEBS": "2",
				   * which also marks INST_RETIRED.PREC_DIST/TOTAL_CYCLES_PS
				   * (they count without PEBS); the load-latency facility
				   * (MSR 0x3F6), which does need PEBS (SDM vol. 3B), is
				   * refused by the driver on its own. */

/* MSR_PERF_METRICS byte index (Intel SDM vol. 3B, "Performance Metrics"). */
enum bt_perf_metrics_field {
	BT_PM_RETIRING = 0,
	BT_PM_BAD_SPECULATION = 1,
	BT_PM_FRONTEND_BOUND = 2,
	BT_PM_BACKEND_BOUND = 3,
	BT_PM_HEAVY_OPERATIONS = 4,
	BT_PM_BRANCH_MISPREDICTS = 5,
	BT_PM_FETCH_LATENCY = 6,
	BT_PM_MEMORY_BOUND = 7,
};

#define BT_EV_NO_FIXED (-1)

struct bt_event {
	const char *name;          /* canonical spelling, e.g. "UOPS_EXECUTED.CORE:c1:i1" */
	uint8_t source;            /* enum bt_event_source */
	uint16_t flags;            /* BT_EVF_* */
	uint16_t code;             /* event select; AMD: 12 bits, [11:8] go to PerfEvtSel[35:32] */
	uint16_t code2;            /* alternative code that uses the second extra MSR
				    * (OCR: 0xB7 with OFFCORE_RSP_0, 0xBB with _1); 0 = none */
	uint8_t umask;
	uint8_t umask_ext;         /* Intel "UMaskExt" (perfmon v6 UMASK2) */
	uint8_t cmask;
	int8_t fixed;              /* fixed counter that counts it, or BT_EV_NO_FIXED */
	uint8_t pm_field;          /* enum bt_perf_metrics_field, for BT_SRC_PERF_METRICS */
	uint32_t counters;         /* general counters allowed: bit n = counter n; 0 = none */
	uint32_t counters_ht_off;  /* the same when SMT is off (Intel "CounterHTOff"), or 0 */
	uint16_t msr_index;        /* extra MSR: 0x1A6 (0x1A7 for code2), 0x3F6, 0x3F7; 0 = none */
	uint64_t msr_value;
};

#endif
