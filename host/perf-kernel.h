/* SPDX-License-Identifier: MIT */
/*
 * What the running Linux kernel offers the perf_event backend, read in one
 * place from the files Linux publishes, under a root directory ("/" on the
 * machine; a tree at the same paths in the tests, --kernel-root DIR):
 *
 *   sys/bus/event_source/devices/{cpu,cpu_core,cpu_atom}/
 *       type            the PMU's perf_event_attr.type (perf_pmu_register;
 *                       on a hybrid part only the big core's PMU is
 *                       PERF_TYPE_RAW: arch/x86/events/core.c
 *                       init_hw_perf_events)
 *       cpus            the CPUs a hybrid PMU counts on ("0-11,16")
 *       format/NAME     "config:0-7", "config:8-15,40-47", "config1:0-63":
 *                       the attr bits the driver programs; others it masks
 *                       (arch/x86/events/core.c x86_pmu_get_event_config)
 *       caps/{pmu_name,max_precise,branches}
 *       events/{slots,topdown-*}   TOPDOWN.SLOTS and PERF_METRICS exposed
 *       rdpmc           1/2: RDPMC allowed to mmap'd events
 *   proc/sys/kernel/nmi_watchdog          1: the perf NMI watchdog holds a
 *                                         counter on every CPU
 *   proc/sys/kernel/perf_event_paranoid
 *   proc/sys/kernel/osrelease             "6.6.0-1-amd64"
 *   sys/devices/system/cpu/smt/active     1: SMT siblings are online
 *   proc/self/status (CapEff)             CAP_PERFMON (38), CAP_SYS_ADMIN (21)
 *
 * Every file is untrusted input: a malformed one is a located error
 * ("PATH:LINE:COL: what"); a missing optional one leaves its fact unknown.
 */
#ifndef HOST_PERF_KERNEL_H
#define HOST_PERF_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

#define BT_PK_MAX_PMUS     3
#define BT_PK_MAX_FORMATS  32
#define BT_PK_MAX_CPUS     1024

struct bt_pk_format {
	char name[24];
	uint8_t word;            /* 0 config, 1 config1, 2 config2 */
	uint64_t mask;
};

struct bt_pk_pmu {
	char name[16];           /* "cpu", "cpu_core", "cpu_atom" */
	uint32_t type;
	bool has_cpus;           /* a cpus file (hybrid PMUs) */
	uint64_t cpus[BT_PK_MAX_CPUS / 64];
	struct bt_pk_format formats[BT_PK_MAX_FORMATS];
	int n_formats;
	uint64_t mask[3];        /* the union of the format masks per word */
	char pmu_name[40];       /* caps/pmu_name, "" when absent */
	int max_precise;         /* -1: absent */
	int branches;            /* -1: absent */
	int rdpmc;               /* -1: absent */
	bool ev_slots;           /* events/slots */
	bool ev_td_retiring;     /* events/topdown-retiring */
	bool ev_td_mem_bound;    /* events/topdown-mem-bound */
	char td_retiring[48];    /* its text ("event=0x00,umask=0x80") */
};

struct bt_perf_kernel {
	char root[256];
	struct bt_pk_pmu pmu[BT_PK_MAX_PMUS];
	int n_pmus;
	bool hybrid;             /* cpu_core or cpu_atom registered */
	int nmi_watchdog;        /* -1: unreadable */
	int paranoid;            /* -100: unreadable */
	int smt_active;          /* -1: unknown */
	bool caps_known;         /* CapEff read */
	bool cap_perfmon, cap_sys_admin;
	char osrelease[64];      /* "" when unreadable */
	int ver_major, ver_minor; /* 0.0 when unknown */
};

/*
 * Reads the facts under `root` (NULL or "": "/"). BT_OK; BT_ERR_INVALID
 * with "PATH:LINE:COL: what" in d for a malformed file; BT_ERR_UNSUPPORTED
 * when no core PMU (cpu, cpu_core, cpu_atom) is registered there.
 */
bt_status bt_perf_kernel_read(const char *root, struct bt_perf_kernel *k, struct bt_diag *d);

/* Parses one format file's text ("config:0-7,32-35\n"): word and mask.
 * On error, col (1-based) and what. Exposed for the tests and the fuzzer. */
bool bt_pk_parse_format(const char *text, uint8_t *word, uint64_t *mask, int *col,
			const char **what);

/* The PMU named `name`, or NULL. */
const struct bt_pk_pmu *bt_pk_pmu_named(const struct bt_perf_kernel *k, const char *name);
/* The core PMU that counts on `cpu`: on a hybrid part the one whose cpus
 * list it, else "cpu"; NULL when none. */
const struct bt_pk_pmu *bt_pk_pmu_for_cpu(const struct bt_perf_kernel *k, unsigned cpu);
/* The format named `name` of p, or NULL. */
const struct bt_pk_format *bt_pk_format_named(const struct bt_pk_pmu *p, const char *name);
/* Kernel version at least major.minor (false when unknown). */
bool bt_pk_version_at_least(const struct bt_perf_kernel *k, int major, int minor);
/* perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN in CapEff. */
bool bt_pk_perfmon_capable(const struct bt_perf_kernel *k);

#endif
