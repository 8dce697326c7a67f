/* SPDX-License-Identifier: MIT */
/*
 * The perf_event backend planned for what the running kernel gives this
 * task on this CPU (host/perf-kernel.h), not for what CPUID enumerates.
 * One target per session: `run --backend=perf` (host/perf-pmu.c) and
 * `plan --backend=perf` (tools/baretop-host/cmd-plan.c) build it the same
 * way and plan through it, so a check of the plan is a check of the run.
 *
 * The rules, each from Linux's source:
 *   - counters: CPUID's, less the NMI watchdog's where it runs on this
 *     CPU (kernel/watchdog_perf.c hardlockup_detector_event_create: a
 *     pinned CPU-cycles event per CPU of watchdog_cpumask, in the CPU's
 *     context, scheduled before any task's pinned groups,
 *     kernel/events/core.c ctx_sched_in). On Intel cycles is 0x003c, whose
 *     constraint prefers fixed counter 1 (arch/x86/events/core.c
 *     __perf_sched_find_counter tries fixed counters first), so the task's
 *     CPU_CLK_UNHALTED.THREAD needs a general counter; on AMD it takes one
 *     of the general counters (amd/core.c: no fixed counters); a model the
 *     kernel does not know has CPUID.0AH's counters up to
 *     INTEL_PMC_MAX_GENERIC (32) and, from perfmon v5,
 *     intel_v5_gen_event_constraints' fixed counters (ee28855a5449, 5.18:
 *     fixed counter 3 as raw 0x0400, 4-15 as 0x0500...);
 *   - fixed counter 3 and PERF_METRICS only where the kernel publishes
 *     events/slots (intel/core.c td_is_visible); their fields from
 *     events/topdown-*;
 *   - fixed counters beyond 3: the kernel's pseudo-encodings (Skymont:
 *     intel_skt_event_constraints 0x0073, 0x019c, 0x02c2; a model the
 *     kernel does not know: intel_v5_gen_event_constraints 0x0500 + ...);
 *   - on Haswell and Ivy Bridge booted with SMT, D0H-D3H are exclusive
 *     (INTEL_EXCLEVT_CONSTRAINT in intel_hsw/ivb_event_constraints) and a
 *     group with one gets half the general counters (core.c
 *     x86_schedule_events: gpmax /= 2): such an event is planned alone.
 *     fixup_ht_bug decides once, at boot, from topology_max_smt_threads():
 *     smt/control "notsupported" (one thread per core found at boot)
 *     removes the workaround, turning SMT off later does not;
 *   - the event's PMU type by the CPU it runs on: on a hybrid part
 *     PERF_TYPE_RAW reaches only cpu_core (core.c init_hw_perf_events),
 *     every other kind of core (cpu_atom, cpu_lowpower) has its own type
 *     from sysfs, the PMU whose cpus list the CPU (find_hybrid_pmu_for_cpu:
 *     on Arrow Lake H an E-core's native model ID picks cpu_atom, Skymont,
 *     or cpu_lowpower, Crestmont);
 *   - refused by name before counting, with the remedy: bits outside the
 *     PMU's format files (the kernel masks them: core.c
 *     x86_pmu_get_event_config; umask2 config:40-47 and eq config:36 came
 *     with Linux 6.11, intel/core.c umask2_show / evtsel_ext_is_visible),
 *     an extra MSR without its format (offcore_rsp, frontend, ldlat), an
 *     event the release's extra_regs table has no entry for (config1 would
 *     be ignored) or whose config1 is outside the entry's valid_mask
 *     (EINVAL): host/perf-ktables.h, each release's tables; AnyThread on
 *     perfmon before v3 or without perf_event_paranoid <= 0 or CAP_PERFMON
 *     (intel_pmu_hw_config -> perf_allow_cpu) or where the format has no
 *     "any", a ring-0-only event without perf_event_paranoid <= 1 or
 *     CAP_PERFMON (perf_allow_kernel);
 *   - under a hypervisor an extra MSR's event is tried, not assumed: the
 *     kernel found at boot whether it can write the MSR (intel_pmu_init
 *     check_msr, under X86_FEATURE_HYPERVISOR only) and answers ENXIO when
 *     it cannot (x86_pmu_extra_regs); the event is refused on that answer,
 *     asked once per encoding (t->try_open: perf_event_open of the event
 *     alone, closed at once);
 *   - under a hypervisor a zero that cannot be true is a finding: an
 *     event that counts on any executed code (cycles, instructions,
 *     branches, uops issued, executed, retired, slots; no cmask, inv or
 *     edge) is tried over the known loop, and one that reads 0 there is
 *     refused by name: KVM starts no counter for an event its event
 *     filter denies (KVM_SET_PMU_EVENT_FILTER; arch/x86/kvm/pmu.c
 *     reprogram_counter, check_pmu_event_filter), so the open succeeds
 *     and the count stays 0, and the nodes it feeds would be computed
 *     from that 0;
 *   - per-event counter restrictions the kernel's table has and Intel's
 *     event list does not (Lion Cove: intel_lnc_event_constraints as the
 *     release has it);
 *   - AMD: no SMI counter reserved (it would count user-mode SMIs only).
 */
#ifndef HOST_PERF_PLAN_H
#define HOST_PERF_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "host/perf-attr.h"
#include "host/perf-kernel.h"
#include "host/perf-ktables.h"
#include "pmu/cpu-info.h"
#include "pmu/plan.h"

#define BT_PERF_MAX_FACTS 12
#define BT_PERF_MAX_TRIED 32

/* The known loop an event is tried over: BT_PERF_TRY_LOOP iterations of
 * a counted loop in user mode, which retires at least one instruction,
 * one branch and one uop per iteration in at least one cycle. */
#define BT_PERF_TRY_LOOP 100000u

/* perf_event_open of *a alone, enabled over the known loop, read and
 * closed: 0 with *count, or the errno. */
typedef int bt_perf_try_fn(void *ctx, struct perf_event_attr *a, uint64_t *count);

/* What the kernel answered to an event tried (one per encoding). */
struct bt_perf_tried {
	uint64_t config, config1;
	int err;
	uint64_t count;
};

struct bt_perf_target {
	struct bt_os_event_filter filter;  /* caps.os_filter points here */
	struct bt_perf_kernel k;
	const struct bt_pk_pmu *pmu;       /* the PMU this CPU's events open on */
	unsigned cpu;
	bool intel;
	bool hypervisor;
	struct bt_pmu_caps cpuid_caps;     /* CPUID's (with the part's corrections) */
	struct bt_pmu_caps caps;           /* what the plan may use */
	bool wd_fixed1;                    /* the NMI watchdog holds fixed counter 1 */
	bool wd_gp;                        /* ... or one general counter */
	bool excl_alone;                   /* D0H-D3H planned alone (HSW/IVB, SMT on) */
	bool generic;                      /* the kernel does not know the model */
	struct bt_pk_tables tables;        /* the release's extra registers and constraints */
	struct bt_perf_attr_opts attr;     /* type, fixed pseudo-encodings, rings */
	/* Under a hypervisor: how an extra MSR's event is tried (NULL: not
	 * here, a kernel tree without a running kernel), and the answers. */
	bt_perf_try_fn *try_open;
	void *try_ctx;
	struct bt_perf_tried *tried;       /* -> tried_store */
	int *n_tried;
	struct bt_perf_tried tried_store[BT_PERF_MAX_TRIED];
	int n_tried_store;
	char facts[BT_PERF_MAX_FACTS][240];
	int n_facts;
};

/*
 * The target for CPU `cpu` (the CPU counted) whose CPUID gave `ci` (leaf
 * 0AH as read, `l0a`, for a kernel that does not know the model) from the
 * kernel facts `k` (copied). Errors: no PMU counts on that CPU, or CPUID
 * read on another kind of core than that PMU's. try_open stays NULL: the
 * caller with a running kernel sets it (perf-pmu.c).
 */
bt_status bt_perf_target_init(struct bt_perf_target *t, const struct bt_perf_kernel *k,
			      const struct bt_cpu_info *ci, const struct bt_cpuid *l0a,
			      unsigned cpu, struct bt_diag *d);

/* The kind of core's PMU CPUID `ci` belongs to, by Linux's rule
 * (find_hybrid_pmu_for_cpu): "cpu" off hybrid parts, cpu_core for a core,
 * cpu_atom or (Arrow Lake H, a third PMU registered) cpu_lowpower for a
 * Crestmont (native model ID 2, cmt_native_id). */
const char *bt_perf_pmu_name_for(const struct bt_perf_kernel *k, const struct bt_cpu_info *ci);

/* One event as planned through the target: adapted (into *tmp when it
 * changes) and the reason it is refused, or NULL. */
const struct bt_event *bt_perf_target_event(const struct bt_perf_target *t,
					    const struct bt_event *e, struct bt_event *tmp);

/*
 * The plan `run --backend=perf` makes of `n` events through the target:
 * each adapted (into tmp[i] where it changes; planned[i] is the event as
 * planned), then bt_plan_events and bt_plan_validate with the target's
 * caps (its filter refuses by name). plan and scratch are the caller's.
 */
bt_status bt_perf_plan_events(const struct bt_perf_target *t, const struct bt_event *const *events,
			      int n, bool smt_off, struct bt_event *tmp, const struct bt_event **planned,
			      struct bt_plan_scratch *scratch, struct bt_plan *plan, struct bt_diag *d);

/* Group g's perf_event attributes, leader first, as the session opens them
 * (the fixed counters and PERF_METRICS of pmu/pmu-session.c, the target's
 * type and pseudo-encodings). */
bt_status bt_perf_target_group(const struct bt_perf_target *t, const struct bt_plan *plan, int g,
			       const struct bt_event *const *planned, struct bt_perf_member *out,
			       int *ret_n, struct bt_diag *d);

/* A built-in model's plan through the target, as `run --backend=perf
 * --level N` makes it: the model's events to `level` (0: all) with
 * HYPERTHREADING_ON = smt, the fixed-counter twins of the target's caps
 * (pmu/event-encode.h), then bt_perf_plan_events. Large: heap-allocate. */
struct bt_model;
struct bt_perf_model_plan {
	struct bt_model *model;
	const char *model_id;
	unsigned level;               /* as planned (the model's deepest for 0) */
	int n;
	const struct bt_event *events[BT_PLAN_MAX_EVENTS];
	struct bt_event twin[BT_PLAN_MAX_EVENTS], tmp[BT_PLAN_MAX_EVENTS];
	const struct bt_event *planned[BT_PLAN_MAX_EVENTS];
	struct bt_plan plan;
	struct bt_plan_scratch scratch;
};
bt_status bt_perf_plan_model(const struct bt_perf_target *t, const char *model_id, unsigned level,
			     bool smt, struct bt_perf_model_plan *ret, struct bt_diag *d);
void bt_perf_model_plan_close(struct bt_perf_model_plan *p);

/* "config:0-7,32-35" for a format's word and mask. */
void bt_perf_format_text(uint8_t word, uint64_t mask, char *buf, size_t len);

#endif
