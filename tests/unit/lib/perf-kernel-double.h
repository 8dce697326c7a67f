/* SPDX-License-Identifier: MIT */
/*
 * A kernel double for the perf_event backend's tests: what Linux does with
 * a group of perf_event_attr on one CPU, written from Linux's source (each
 * rule cites its file and function in perf-kernel-double.c), independent
 * of host/perf-plan.c: it takes the kernel version, the model the kernel
 * knows (caps/pmu_name), the CPU's CPUID leaves and the sysctls, never
 * the planner's conclusions. SIMULATED: no real kernel is involved.
 *
 * A group is opened (perf_event_open of each member: EINVAL, EACCES,
 * ENOENT, ENXIO), then scheduled pinned together with the NMI watchdog's
 * cycles event (error state when it cannot be), and judged: a member
 * whose bits the kernel drops or whose config1 it ignores would count
 * something else (WRONG), a group on a PMU that does not run on the CPU
 * never counts (INACTIVE).
 */
#ifndef TESTS_UNIT_LIB_PERF_KERNEL_DOUBLE_H
#define TESTS_UNIT_LIB_PERF_KERNEL_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>

#include "arch/arch.h"
#include "host/perf-attr.h"
#include "host/perf-kernel.h"

enum kd_result {
	KD_OK = 0,
	KD_EINVAL,        /* perf_event_open fails */
	KD_EACCES,
	KD_ENOENT,
	KD_ENXIO,
	KD_ERROR_STATE,   /* opened, but the pinned group cannot be scheduled */
	KD_INACTIVE,      /* never scheduled on this CPU */
	KD_WRONG,         /* counts, but not what was asked */
};

/* The machine the double runs: the kernel's files (the same tree the
 * backend reads) and the CPU's CPUID as the kernel reads it at boot. */
struct kd_machine {
	const struct bt_perf_kernel *k;
	unsigned cpu;
	bool hypervisor;            /* CPUID.01H:ECX[31] */
	bool hv_passes_msrs;        /* its hypervisor lets the extra MSRs be written */
	/* KVM_SET_PMU_EVENT_FILTER's deny list (event select | umask << 8):
	 * such an event opens and reads 0 (kvm/pmu.c reprogram_counter) */
	const uint16_t *kvm_denied;
	int n_kvm_denied;
	struct bt_cpuid l0a;        /* 0AH of this CPU */
	struct bt_cpuid l0a_boot;   /* 0AH of the boot CPU (a non-hybrid kernel's view) */
	struct bt_cpuid l23, l23_1; /* 23H.00H and 23H.01H of this CPU (zero when absent) */
	struct bt_cpuid e22;        /* AMD 8000_0022H */
	bool amd;
};

/* Opens and schedules the group; KD_OK or the first failure, with why. */
enum kd_result kd_open_group(const struct kd_machine *m, const struct bt_perf_member *g, int n,
			     char *why, size_t len);

const char *kd_result_name(enum kd_result r);

/* Whether an opened event counts over a loop that runs: false where the
 * guest's hypervisor filters it out (KVM's deny list: the counter is never
 * started), true otherwise. */
bool kd_counts_on_loop(const struct kd_machine *m, const struct perf_event_attr *a);

#endif
