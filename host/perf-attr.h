/* SPDX-License-Identifier: MIT */
/*
 * A planned counter group as Linux perf_event attributes, and the group's
 * read() buffer back as counts: the pure half of the perf_event backend
 * (host/perf-pmu.c opens, reads and closes the file descriptors). No
 * system call here, so the unit tests check every bit on any machine.
 *
 * One planned group becomes one perf group:
 *   - the leader is pinned (attr.pinned): a group the PMU cannot hold
 *     goes into error state instead of being multiplexed, and its read()
 *     returns nothing (Linux perf_event_open(2), "pinned");
 *   - with PERF_METRICS the leader is TOPDOWN.SLOTS as the kernel names it,
 *     raw config 0x0400 (the fixed counter 3 pseudo-encoding), and each
 *     PERF_METRICS field k baretop reads is the metric pseudo-event
 *     0x8000 + (k << 8) (retiring 0x8000 ... memory bound 0x8700): Linux
 *     arch/x86/include/asm/perf_event.h INTEL_TD_SLOTS and
 *     INTEL_TD_METRIC_*, and arch/x86/events/intel/core.c
 *     intel_pmu_hw_config, which refuses a metric event whose group
 *     leader is not the slots event and any filter bit on either;
 *   - otherwise the leader is the first fixed counter (instructions), or
 *     the first general-counter event;
 *   - fixed counters 0..3 are the kernel's pseudo-encodings 0x00c0
 *     (INST_RETIRED.ANY), 0x003c (CPU_CLK_UNHALTED.CORE), 0x0300
 *     (CPU_CLK_UNHALTED.REF), 0x0400 (SLOTS) (core.c
 *     FIXED_EVENT_CONSTRAINT tables); beyond 3 the kernel's own where it
 *     has them (opts.fixed_config: Skymont's 0x0073, 0x019c, 0x02c2); the
 *     kernel places them on the fixed counter itself;
 *   - general-counter events are PERF_TYPE_RAW with baretop's own encoding
 *     (pmu/event-encode.c) minus the bits the kernel owns (USR, OS, INT,
 *     EN: it sets them from exclude_user/exclude_kernel and its own
 *     state); an extra MSR's value (OFFCORE_RSP, the frontend MSR) goes in
 *     config1, where the kernel's extra_reg tables take it;
 *   - user mode only by default: exclude_kernel and exclude_hv set; an
 *     event whose own ring filter is ring 0 only gets exclude_user and
 *     NOT exclude_kernel (both would count nothing);
 *   - attr.type: opts.type, the PMU the CPU's events belong to (on a
 *     hybrid part cpu_atom's own type for an E-core: PERF_TYPE_RAW reaches
 *     only cpu_core, arch/x86/events/core.c init_hw_perf_events);
 *   - read_format GROUP | ID | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING on
 *     every member: one read() of the leader returns the whole group.
 */
#ifndef HOST_PERF_ATTR_H
#define HOST_PERF_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "base/diag.h"
#include "base/event.h"
#include "base/status.h"
#include "pmu/cpu-info.h"
#include "pmu/plan.h"

/* The raw pseudo-encodings (see the top of this file). */
#define BT_PERF_TD_SLOTS        0x0400u
#define BT_PERF_TD_METRIC(k)    (0x8000u + ((unsigned)(k) << 8))

/* What a member stands for in baretop's counter naming. */
enum bt_perf_role {
	BT_PERF_FIXED = 0,      /* fixed counter `index` */
	BT_PERF_GP,             /* general counter `index` of the plan */
	BT_PERF_METRIC,         /* PERF_METRICS field `index` (enum bt_perf_metrics_field) */
};

struct bt_perf_member {
	struct perf_event_attr attr;
	uint8_t role;           /* enum bt_perf_role */
	uint8_t index;
	char what[64];          /* for messages: "fixed counter 0", "MEM_LOAD_RETIRED.L1_MISS" */
};

#define BT_PERF_MAX_MEMBERS (BT_PMU_MAX_GP + BT_PMU_MAX_FIXED + 8)

struct bt_perf_attr_opts {
	bool count_kernel;      /* also ring 0 (default false: user mode only) */
	/* attr.type of every member: the PMU's type from sysfs (cpu_atom's on
	 * a hybrid E-core); 0: PERF_TYPE_RAW. */
	uint32_t type;
	/* The kernel's pseudo-encoding of fixed counter k; 0: the built-in
	 * one for k <= 3, none beyond (host/perf-plan.c fills it from the
	 * kernel's constraint tables). */
	uint32_t fixed_config[BT_PMU_MAX_FIXED];
};

#define BT_PERF_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			     PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/*
 * The members of planned group `group`, leader first, into out[]
 * (BT_PERF_MAX_MEMBERS entries). pm: the group reads PERF_METRICS (the
 * session's decision: plan, caps and fixed counter 3 agree). On an event
 * the backend cannot express, d names it and BT_ERR_UNSUPPORTED returns.
 */
bt_status bt_perf_group_attrs(const struct bt_plan *plan, int group,
			      const struct bt_event *const *events,
			      const struct bt_pmu_caps *caps, uint32_t fixed_used, bool pm,
			      const struct bt_perf_attr_opts *o, struct bt_perf_member *out,
			      int *ret_n, struct bt_diag *d);

/*
 * A read() of the group leader (BT_PERF_READ_FORMAT), `bytes` long, as n
 * values in member order: the member count and every id must be those of
 * the group (ids[], from PERF_EVENT_IOC_ID), and time_enabled must equal
 * time_running. A group the kernel could not schedule (pinned, error
 * state: read() returns 0 bytes) or that ran for only part of the time it
 * was enabled (multiplexed) is an error naming `group_name`: baretop
 * never scales counts.
 */
bt_status bt_perf_read_group(const void *buf, size_t bytes, int n, const uint64_t *ids,
			     const char *group_name, uint64_t *values, struct bt_diag *d);

#endif
