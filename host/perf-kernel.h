/* SPDX-License-Identifier: MIT */
/*
 * What the running Linux kernel offers the perf_event backend, read in one
 * place from the files Linux publishes, under a root directory ("/" on the
 * machine; a tree at the same paths in the tests, --kernel-root DIR):
 *
 *   sys/bus/event_source/devices/{cpu,cpu_*}/
 *                       the core PMUs: "cpu", or on a hybrid part one per
 *                       kind of core, named by intel_hybrid_pmu_type_map
 *                       (arch/x86/events/intel/core.c: cpu_core, cpu_atom,
 *                       and cpu_lowpower for Arrow Lake H's low-power
 *                       E-cores, hybrid_tiny), each with its cpus; any
 *                       further cpu_* directory with a cpus file is read
 *                       the same way
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
 *                                         counter on the CPUs of
 *   proc/sys/kernel/watchdog_cpumask      (kernel/watchdog.c: the lockup
 *   proc/sys/kernel/watchdog              detectors run only there, and
 *                                         not at all with watchdog 0)
 *   proc/sys/kernel/perf_event_paranoid   any integer (proc_dointvec)
 *   proc/sys/kernel/osrelease             "6.6.0-1-amd64"
 *   proc/version_signature                Ubuntu: "Ubuntu 6.8.0-45.45-generic
 *                                         6.8.12", the upstream stable
 *                                         release the kernel is built from
 *   proc/version                          Debian: "... Debian 6.1.115-1 ..."
 *   sys/devices/system/cpu/smt/active     1: SMT siblings are online
 *   sys/devices/system/cpu/smt/control    "notsupported": the boot found one
 *                                         thread per core (cpu_smt_control)
 *   proc/self/status (CapEff)             CAP_PERFMON (38), CAP_SYS_ADMIN (21)
 *   proc/self/uid_map                     "0 0 4294967295": the initial user
 *                                         namespace, where alone CapEff is
 *                                         what perfmon_capable() asks
 *                                         (capable() is init_user_ns's)
 *
 * Every file is untrusted input: a malformed one is a located error
 * ("PATH:LINE:COL: what"); a missing optional one leaves its fact unknown.
 */
#ifndef HOST_PERF_KERNEL_H
#define HOST_PERF_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

#define BT_PK_MAX_PMUS     6
#define BT_PK_MAX_FORMATS  32
#define BT_PK_MAX_CPUS     1024

struct bt_pk_format {
	char name[24];
	uint8_t word;            /* 0 config, 1 config1, 2 config2 */
	uint64_t mask;
};

struct bt_pk_pmu {
	char name[24];           /* "cpu", "cpu_core", "cpu_atom", "cpu_lowpower" */
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
	bool hybrid;             /* a cpu_* PMU registered */
	int nmi_watchdog;        /* -1: unreadable */
	int watchdog;            /* proc/sys/kernel/watchdog; -1: unreadable */
	bool has_wd_cpumask;     /* watchdog_cpumask read */
	uint64_t wd_cpumask[BT_PK_MAX_CPUS / 64];
	bool paranoid_known;
	int paranoid;            /* when paranoid_known */
	int smt_active;          /* -1: unknown */
	char smt_control[24];    /* "on", "off", "forceoff", "notsupported", ""... */
	bool caps_known;         /* CapEff read */
	bool cap_perfmon, cap_sys_admin;
	int init_userns;         /* 1: uid_map is the initial namespace's, 0: not, -1: unknown */
	char osrelease[64];      /* "" when unreadable */
	int ver_major, ver_minor; /* 0.0 when unknown */
	/* The upstream stable release, -1 when the release string does not
	 * say it (a distribution's "6.8.0-45-generic" is not 6.8.0) and no
	 * other file does; ver_from says where it was read. */
	int ver_patch;
	char ver_from[64];
};

/*
 * Reads the facts under `root` (NULL or "": "/"). BT_OK; BT_ERR_INVALID
 * with "PATH:LINE:COL: what" in d for a malformed file; BT_ERR_UNSUPPORTED
 * when no core PMU (cpu, cpu_*) is registered there.
 */
bt_status bt_perf_kernel_read(const char *root, struct bt_perf_kernel *k, struct bt_diag *d);

/* Parses one format file's text ("config:0-7,32-35\n"): word and mask.
 * On error, col (1-based) and what. Exposed for the tests and the fuzzer. */
bool bt_pk_parse_format(const char *text, uint8_t *word, uint64_t *mask, int *col,
			const char **what);

/* Every core PMU the kernel registers is known by its name. */
/* The PMU named `name`, or NULL. */
const struct bt_pk_pmu *bt_pk_pmu_named(const struct bt_perf_kernel *k, const char *name);
/* The core PMU that counts on `cpu`: on a hybrid part the one whose cpus
 * list it, else "cpu"; NULL when none. */
const struct bt_pk_pmu *bt_pk_pmu_for_cpu(const struct bt_perf_kernel *k, unsigned cpu);
/* The format named `name` of p, or NULL. */
const struct bt_pk_format *bt_pk_format_named(const struct bt_pk_pmu *p, const char *name);
/* Kernel version at least major.minor (false when unknown). */
bool bt_pk_version_at_least(const struct bt_perf_kernel *k, int major, int minor);
/* Whether the release has a change that came in mainline `major.minor`
 * and was backported to the stable series in backports[] ({series minor,
 * first patch level}, major the same, ending in {0, 0}): 1 yes, 0 no, -1
 * the release's stable level is unknown in a series that got it. */
struct bt_pk_backport { int minor, patch; };
int bt_pk_has_change(const struct bt_perf_kernel *k, int major, int minor,
		     const struct bt_pk_backport *backports);
/* "6.12.8", "6.12 (stable level unknown)" or "?" for messages. */
void bt_pk_version_text(const struct bt_perf_kernel *k, char *buf, size_t len);
/* perfmon_capable(): CAP_PERFMON or CAP_SYS_ADMIN in CapEff, in the
 * initial user namespace (a container's own user namespace grants its
 * capabilities there only). */
bool bt_pk_perfmon_capable(const struct bt_perf_kernel *k);
/* The NMI watchdog holds a counter on `cpu`: nmi_watchdog 1, watchdog not
 * 0, and cpu in watchdog_cpumask where it is readable. */
bool bt_pk_watchdog_on(const struct bt_perf_kernel *k, unsigned cpu);

#endif
