/* SPDX-License-Identifier: MIT */
/*
 * Counter group planning without multiplexing: split the events a set of
 * Top-Down nodes needs into the fewest groups that each fit the counters of
 * the CPU actually running, so the workload can be re-run once per group.
 *
 * Every group counts all fixed counters (instructions, cycles, reference
 * cycles, slots where present) and, where the PMU has it, PERF_METRICS, so
 * runs can be checked against each other; events that fit a fixed counter
 * or a PERF_METRICS field therefore cost no general counter and are
 * measured in every group. TSC and duration are always measured. Events
 * the core PMU cannot count in counting mode are reported unmeasurable with
 * the reason: uncore events, PEBS-only and load-latency events (they need
 * IA32_PEBS_ENABLE), OFFCORE_RESPONSE / FRONTEND encodings this core does
 * not have, PERF_METRICS fields beyond caps.perf_metrics_fields. Events with
 * identical encodings are counted once (alias_of), TakenAlone if any of them
 * is.
 */
#ifndef PMU_PLAN_H
#define PMU_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/event.h"
#include "base/status.h"
#include "pmu/cpu-info.h"

#define BT_PLAN_MAX_EVENTS 256
#define BT_PLAN_MAX_GROUPS 96

/* The extra MSRs a group may program, as slots. */
enum bt_plan_msr {
	BT_PLAN_MSR_OFFCORE0 = 0, /* MSR_OFFCORE_RSP_0 */
	BT_PLAN_MSR_OFFCORE1,     /* MSR_OFFCORE_RSP_1 */
	BT_PLAN_MSR_LDLAT,        /* MSR_PEBS_LD_LAT */
	BT_PLAN_MSR_FRONTEND,     /* MSR_PEBS_FRONTEND */
	BT_PLAN_MSR_SLOTS,
};

enum bt_plan_place {
	BT_PLACE_NONE = 0,        /* not placed: the planner failed (n_unplaced) */
	BT_PLACE_GP,              /* general counter `counter` of group `group` */
	BT_PLACE_FIXED,           /* fixed counter `counter`, every group */
	BT_PLACE_PERF_METRICS,    /* PERF_METRICS field `counter`, every group */
	BT_PLACE_FREE,            /* TSC / duration: every group */
	BT_PLACE_UNMEASURABLE,    /* see reason */
};

struct bt_plan_slot {
	uint16_t event;           /* index into the input */
	uint8_t counter;          /* general counter */
	bool code2;               /* programmed with the other encoding of its
				   * OFFCORE_RESPONSE pair (and the other MSR) */
};

struct bt_plan_group {
	uint8_t n_gp;
	struct bt_plan_slot gp[BT_PMU_MAX_GP];
	bool msr_used[BT_PLAN_MSR_SLOTS];
	uint64_t msr_value[BT_PLAN_MSR_SLOTS];
};

struct bt_plan_event {
	uint8_t place;            /* enum bt_plan_place */
	int16_t group;            /* BT_PLACE_GP: its group; otherwise -1 */
	uint8_t counter;
	bool code2;
	int16_t alias_of;         /* same encoding as an earlier event: counted once (its
				   * group/counter/code2 are the target's); -1 */
	char reason[192];         /* BT_PLACE_UNMEASURABLE: why (without the event's name) */
};

/* How the lower bound was derived (see plan-bound.c). */
struct bt_plan_bound {
	int gp_events;            /* distinct general-counter events */
	int alone;                /* TakenAlone events: one group each */
	int capacity;             /* ceil(non-alone GP events / counters) */
	int hall;                 /* max over counter subsets S of ceil(#events confined to S / |S|) */
	uint32_t hall_set;        /* the S attaining it */
	int msr;                  /* distinct extra-MSR values (OFFCORE_RSP pair: /2) */
	int total;                /* alone + max(capacity, hall, msr), at least 1 if anything is measured */
};

struct bt_plan {
	int n_events;
	struct bt_plan_event ev[BT_PLAN_MAX_EVENTS];
	int n_groups;
	struct bt_plan_group groups[BT_PLAN_MAX_GROUPS];
	uint32_t fixed_mask;      /* fixed counters every group carries */
	bool perf_metrics;        /* every group reads PERF_METRICS with SLOTS */
	uint8_t num_gp;           /* general counters of the PMU planned for */
	/* AMD has no fixed counters: every group also counts retired
	 * instructions (0xC0) on general counter inst_gp, which judges the run
	 * as fixed counter 0 does on Intel (pmu/measure.c), and, where the
	 * family has PMCx02B (caps.amd_smi_rx), SMIs received on smi_gp, the
	 * run's SMI count. Those counters are reserved: no event is placed on
	 * them (bt_plan_reserved_gp). */
	bool has_inst_gp, has_smi_gp;
	uint8_t inst_gp, smi_gp;
	/* Intel with caps.sibling_probe: ONE_THREAD_ACTIVE on ota_gp in every
	 * group, and REF_XCLK on xclk_gp where has_xclk_gp (no fixed counter
	 * 2 to derive it from), reserved like AMD's (bt_plan_sibling_gp). */
	bool has_sibling_gp, has_xclk_gp;
	uint8_t ota_gp, xclk_gp;
	struct bt_plan_bound bound;
	int lower_bound;          /* = bound.total */
	int n_unplaced;           /* events the search could not place */
	int n_unmeasurable;
	long search_steps;        /* backtracking steps used */
};

/* TEST ONLY: planner mistakes the tests inject to prove the validator and
 * the simulated PMU catch them. Never set outside tests. */
struct bt_plan_mutation {
	int extra_counters;       /* believe the PMU has this many more counters */
};

struct bt_plan_opts {
	bool smt_off;             /* use CounterHTOff restrictions where given */
	long max_steps;           /* backtracking budget per group count (0: default 200000) */
	const struct bt_plan_mutation *mutation;
};

/*
 * The planner's working memory, owned by the caller and passed in, so the
 * planner, the bound and the validator keep no state of their own: two
 * callers, on one CPU or on two (baretop runs work on APs through MP
 * services), share nothing unless they share a scratch. It is 49,664
 * bytes on x86-64 (search 35,840, bound 12,544, check 1,280): too much for
 * a UEFI stack, where firmware gives the BSP 64-128 KiB and an AP as little
 * as 8-32 KiB. Allocate it on the heap or statically, one per concurrent
 * caller. Its fields are the planner's (plan.c, plan-bound.c); a caller
 * only provides the memory, which need not be initialized.
 */
struct bt_plan_item {             /* a distinct general-counter encoding */
	int event;                /* input index */
	uint32_t allowed;
	unsigned msr_opts;
	int primary_slot;         /* the MSR slot of the event's own encoding */
	uint64_t msr_value;
	bool alone;               /* TakenAlone, or an identical event is */
};

struct bt_plan_group_state {      /* a group while the search fills it */
	int n;
	int item[BT_PMU_MAX_GP + 8];   /* indices into items (+8: test-only phantom counters) */
	int msr_choice[BT_PMU_MAX_GP + 8];
	int msr_refs[BT_PLAN_MSR_SLOTS];
	uint64_t msr_value[BT_PLAN_MSR_SLOTS];
	bool alone;
};

struct bt_plan_scratch {
	struct {                  /* bt_plan_events */
		struct bt_plan_item items[BT_PLAN_MAX_EVENTS];
		int item_of[BT_PLAN_MAX_EVENTS];
		int order[BT_PLAN_MAX_EVENTS];   /* items, least flexible first */
		int key[BT_PLAN_MAX_EVENTS];     /* each item's flexibility */
		struct bt_plan_group_state groups[BT_PLAN_MAX_GROUPS];
	} search;
	struct {                  /* bt_plan_lower_bound */
		uint32_t allowed[BT_PLAN_MAX_EVENTS];
		uint64_t ldlat[BT_PLAN_MAX_EVENTS], fe[BT_PLAN_MAX_EVENTS], ocr[BT_PLAN_MAX_EVENTS],
			ocr0[BT_PLAN_MAX_EVENTS], ocr1[BT_PLAN_MAX_EVENTS];
		int rep[BT_PLAN_MAX_EVENTS];
		bool any_alone[BT_PLAN_MAX_EVENTS];
	} bound;
	struct {                  /* bt_plan_validate */
		int times_placed[BT_PLAN_MAX_EVENTS];
		bool alone_ev[BT_PLAN_MAX_EVENTS];
	} check;
};

/* Plan `n` events for this PMU, working in *scratch (not NULL). ret is
 * large: allocate it statically or on the heap. Returns BT_ERR_INVALID for bad arguments, BT_ERR_FULL if more
 * than BT_PLAN_MAX_GROUPS groups would be needed (n_unplaced says how many
 * events are left out), BT_OK otherwise. */
bt_status bt_plan_events(const struct bt_event *const *events, int n,
			 const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			 struct bt_plan_scratch *scratch, struct bt_plan *ret);

/* The lower bound on the number of groups, with its parts (ret may be
 * NULL; scratch may not). */
int bt_plan_lower_bound(const struct bt_event *const *events, int n,
			const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			struct bt_plan_scratch *scratch, struct bt_plan_bound *ret);

/* Check a plan independently of how it was made: every group respects the
 * counters that exist and each event's allowed counters, agrees on each
 * extra MSR, keeps TakenAlone events alone, fixed and PERF_METRICS events
 * only where the PMU has them (PERF_METRICS with fixed counter 3), and every
 * measurable event is measured. BT_OK or BT_ERR_INVALID with a message.
 * Works in *scratch (not NULL; may be the one the plan was made with). */
bt_status bt_plan_validate(const struct bt_plan *p, const struct bt_event *const *events, int n,
			   const struct bt_pmu_caps *caps, const struct bt_plan_opts *opts,
			   struct bt_plan_scratch *scratch, struct bt_diag *d);

/* Helpers shared by the planner, the bound and the validator
 * (plan-classify.c). */
/* An operating system's driver refuses e (caps.os_filter): its reason in
 * buf, else NULL. */
const char *bt_plan_os_refused(const struct bt_event *e, const struct bt_pmu_caps *caps,
			       char *buf, size_t len);
/* The form e is counted in on this PMU, into *ret, true when it differs
 * from e: a filtered event only fixed counter 0/1 counts becomes its
 * architectural general-counter twin (bt_event_fixed_to_gp), then an
 * operating system's driver may count it in another form (caps.os_filter).
 * Whoever plans events (a Top-Down run, validation) plans these forms. */
bool bt_plan_counted_form(const struct bt_event *e, const struct bt_pmu_caps *caps,
			  struct bt_event *ret);
/* The general counters the event may use on this PMU (0: none). */
uint32_t bt_plan_allowed(const struct bt_event *e, const struct bt_pmu_caps *caps,
			 const struct bt_plan_opts *opts);
/* The general counters every group reserves for the run's own counts on
 * this PMU (struct bt_plan inst_gp / smi_gp): on AMD the highest counter
 * for retired instructions and, with caps.amd_smi_rx, the next one for
 * SMIs received; 0 elsewhere. *inst / *smi (may be NULL) get the counter
 * or -1. */
uint32_t bt_plan_reserved_gp(const struct bt_pmu_caps *caps, int *inst, int *smi);
/* The general counters caps.sibling_probe reserves on Intel (in
 * bt_plan_reserved_gp's mask too): *ota for ONE_THREAD_ACTIVE (counter 0
 * unless the counter health check left it out), and *xclk for REF_XCLK
 * only where fixed counter 2 is missing (-1 otherwise: REF_XCLK is derived
 * from it, pmu/sibling.h); -1 and -1 when the probe is off, the PMU
 * counts Top-Down slots per thread itself (fixed counter 3, PERF_METRICS:
 * Icelake and later, where the formulas' SMT branches read
 * CPU_CLK_UNHALTED.DISTRIBUTED, which the core divides among the threads
 * it runs), or the events would keep fewer than two counters. */
uint32_t bt_plan_sibling_gp(const struct bt_pmu_caps *caps, int *ota, int *xclk);
/* Extra-MSR slot options of an event on this PMU: bit s = may use slot s
 * (an OFFCORE_RESPONSE event with code2 may use either MSR of its pair).
 * 0 = needs none, or the event does not encode here. */
unsigned bt_plan_msr_options(const struct bt_event *e, const struct bt_pmu_caps *caps);
/* The slot of an extra MSR address, or -1. */
int bt_plan_msr_slot(uint32_t msr);
/* Same encoding (so one counter counts both; TakenAlone is not part of the
 * encoding: identical events are counted once, alone if any of them is)? */
bool bt_plan_same_encoding(const struct bt_event *a, const struct bt_event *b);
const char *bt_plan_msr_name(int slot);

#endif
