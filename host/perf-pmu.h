/* SPDX-License-Identifier: MIT */
/*
 * The perf_event backend of `baretop-host run --backend=perf`: a PMU
 * driver (pmu/pmu-driver.h) whose "registers" are Linux perf_event file
 * descriptors. The kernel's driver programs the counters, not baretop's:
 * every output says so (bt_perf_provenance).
 *
 * Per planned group (host/perf-attr.h): one perf group, leader pinned,
 * opened at program and enabled at once; the window reads the counters
 * before and after the body with RDPMC from each member's mmap'd
 * perf_event_mmap_page when the kernel allows it (cap_user_rdpmc and a
 * live index; never for the PERF_METRICS pseudo-events, which the kernel
 * computes at read), else with read() of the leader; every read() checks
 * time_enabled == time_running, and a group that the kernel could not
 * schedule is an error naming the group. The measuring thread is pinned
 * to the CPU it runs on (sched_setaffinity) for the session and put back
 * at close. Calibration and subtraction are pmu/measure.c's, as on the
 * EFI path: the empty window's counts are the overhead.
 */
#ifndef HOST_PERF_PMU_H
#define HOST_PERF_PMU_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "pmu/cpu-info.h"
#include "pmu/pmu-driver.h"

extern const struct bt_pmu_driver bt_pmu_perf_driver;

/*
 * The system calls the driver makes, in one table so a test can put a
 * made-up kernel behind the whole driver (tests/unit/host/test-perf-pmu.c):
 * no machine of this project has a PMU Linux exposes. ioctl's arg is the
 * pointer or the flag word, as ioctl(2) takes it; mmap_page maps the
 * event's first (metadata) page read-only, NULL when it cannot.
 */
struct perf_event_attr;
struct bt_perf_sys {
	int (*open)(struct perf_event_attr *a, int group_fd);
	int (*ioctl)(int fd, unsigned long request, void *arg);
	long (*read)(int fd, void *buf, size_t len);
	void *(*mmap_page)(int fd, size_t len);
	void (*munmap_page)(void *page, size_t len);
	int (*close)(int fd);
};
/* TEST ONLY: use sys instead of the real system calls (NULL: the real ones). */
void bt_perf_set_sys(const struct bt_perf_sys *sys);
/* How the backend reaches the CPUs: the CPU this thread runs on
 * (sched_getcpu, -1 on failure); this thread pinned to one CPU (0 or an
 * errno), for good or with its affinity before kept; that affinity given
 * back; CPUID detection where the thread runs. TEST ONLY: a test's (NULL: the real
 * ones); setting them forgets the kinds of core planned. */
struct bt_perf_cpus {
	int (*current)(void);
	int (*pin)(int cpu, bool for_good);
	int (*unpin)(void);
	void (*detect)(struct bt_cpu_info *ci, struct bt_cpuid *l0a);
};
void bt_perf_set_cpus(const struct bt_perf_cpus *cpus);
/* TEST ONLY: read the kernel's facts under root instead of / (NULL: /). */
void bt_perf_set_kernel_root(const char *root);

/*
 * Whether Linux lets this process count: perf_event_open of
 * PERF_COUNT_HW_INSTRUCTIONS (user mode, this thread), closed at once.
 * Never probes an MSR. BT_OK, or why not in one line: the errno, what it
 * means here (no PMU exposed to Linux, perf_event_paranoid, no
 * perf_event_open) and the value of /proc/sys/kernel/perf_event_paranoid.
 */
bt_status bt_perf_probe(struct bt_diag *why);

/* "counted by Linux perf_event (the kernel's driver, not baretop's),
 * kernel VERSION" and, when CPUID.01H:ECX[31] says a hypervisor is
 * present, "; under a hypervisor (CPUID 0x40000000: "VENDOR")". */
void bt_perf_provenance(struct bt_arch *arch, char *buf, size_t len);

/*
 * What of TOPDOWN.SLOTS and PERF_METRICS the kernel exposes, from the
 * event names its driver publishes in `events_dir` (sysfs
 * /sys/bus/event_source/devices/cpu/events, cpu_core on hybrid parts):
 * `slots` keeps fixed counter 3 (else it is dropped from fixed_mask: the
 * kernel would refuse raw 0x0400), `topdown-retiring` means PERF_METRICS
 * with 4 fields, `topdown-mem-bound` 8 (the kernel's level-2 metrics,
 * arch/x86/events/intel/core.c). CPUID cannot say it and
 * IA32_PERF_CAPABILITIES is not readable from user space. Intel only; AMD
 * caps are left as they are. Returns what it decided, for the notes.
 */
const char *bt_perf_caps_from_sysfs(struct bt_pmu_caps *caps, const char *events_dir);

/* Pins the process's thread, for good, to the CPU it runs on: before
 * CPUID is read and the model chosen, so both are that CPU's (a hybrid
 * part's kinds of core have other models and PMUs). */
bt_status bt_perf_pin_first(struct bt_diag *why);

/* struct bt_platform.os_pmu for Linux (app/platform.h), once per kind of
 * core counted: the probe; the kernel's facts (host/perf-kernel.h); the
 * PMU of the kind `cpu` describes (a hybrid part's cpu_core, cpu_atom,
 * cpu_lowpower: find_hybrid_pmu_for_cpu's rule); the thread pinned to a
 * CPU of that PMU (the one it is on when it is one) and CPUID read there
 * again, which must be that kind; the target planned for it (host/perf-plan.h):
 * its caps (with the filter that refuses by name), its facts one line
 * each (ret->facts: the run prints them and keeps them in the results'
 * notes), the hosted arch and this driver. */
bt_status bt_perf_os_pmu(const struct bt_cpu_info *cpu, struct bt_pmu *ret, char *counted_by,
			 size_t len, struct bt_diag *why);

#endif
