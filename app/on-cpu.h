/* SPDX-License-Identifier: MIT */
/*
 * Work on a chosen logical CPU, and on several at once. On UEFI the other
 * CPUs are APs reached through MP services, and after ReadyToBoot -- when
 * baretop always runs -- the PI specification allows only blocking calls
 * (MdePkg/Include/Protocol/MpService.h: a non-blocking StartupAllAPs or
 * StartupThisAP "must" return EFI_UNSUPPORTED then). So:
 *
 *  - a job on one AP is one blocking StartupThisAP; the BSP waits inside
 *    the firmware until it returns (EDK2 MpLib.c StartupThisAPWorker spins
 *    on CheckThisAP), with a timeout after which the firmware terminates it;
 *  - work on several CPUs at once (a two-core workload's partner, the
 *    copies of --copies) is one blocking StartupAllAPs whose procedure asks
 *    WhoAmI (which APs may call) and runs that CPU's task: the measured
 *    job, the partner's loop, a copy, or nothing. The BSP waits inside the
 *    firmware meanwhile, so the measured CPU of such a job is an AP
 *    (app/run.c picks one and says so);
 *  - every job on an AP runs on a stack baretop allocates, with its use of
 *    both stacks measured, and comes back to the firmware after a fault in
 *    it (app/ap-run.h). What could not come back -- a timeout, a fault in
 *    the recovery -- is counted in the platform's aps_unaccounted with why,
 *    and the end of the run is then a reset, never a hand-over.
 *
 * Code running on an AP must not call the firmware (WhoAmI excepted) or
 * print; CR4/XCR0 are per CPU, so the vector state is enabled on that CPU
 * for the job and restored after it; the core type (hybrid parts) is read
 * there, since each CPU answers CPUID for itself.
 */
#ifndef APP_ON_CPU_H
#define APP_ON_CPU_H

#include "app/ap-run.h"
#include "app/platform.h"
#include "arch/xstate.h"
#include "pmu/cpu-info.h"
#include "workloads/workload.h"

/* A job's longest wait: long workloads run for minutes. After it the
 * firmware terminates the job and the CPU is not accounted for. */
#define BT_CPU_JOB_TIMEOUT_US (3600ull * 1000000ull)

struct bt_copies;

/* What the AP jobs of one workload used of their stacks, at the most. */
struct bt_ap_usage {
	uint32_t jobs;                 /* jobs that ran on an AP */
	uint32_t used, size;           /* baretop's AP stack */
	uint32_t fw_used;              /* the firmware's AP stack */
	bool overflow;
};

/*
 * The CPUs a workload keeps busy besides the measured one, and what its
 * jobs used (set by app/run.c for each workload; its jobs name it). The
 * partner's mailbox is how the workload's start_partner / wait_partner
 * (the env from bt_cpu_team_env) reach the partner CPU, which loops in
 * the same StartupAllAPs as the measured job.
 */
struct bt_cpu_team {
	int32_t partner_cpu;           /* -1: none */
	struct bt_copies *copies;      /* NULL or none started: none */
	/* Runs on the measured CPU when its job is abandoned after a fault
	 * (stops the partner: the workload's after_run). NULL: none. */
	void (*abandon)(void *ctx);
	void *abandon_ctx;
	struct bt_ap_usage usage;
	/* the partner's mailbox (on-cpu.c) */
	volatile uint32_t state;
	void (*fn)(void *);
	void *fn_arg;
	volatile uint32_t done;        /* the measured job is over: everyone returns */
};

struct bt_cpu_job {
	struct bt_arch *arch;
	void (*work)(void *ctx);     /* no firmware calls, no printing */
	void *ctx;
	struct bt_cpu_team *team;    /* the workload's, or NULL */
	/* filled on the target CPU */
	struct bt_xstate xstate;
	enum bt_core_type core_type;
	uint32_t native_model_id;
	/* filled after: the fault it was recovered from ("" none) */
	char fault[200];
};

/* Runs job->work on `cpu` (directly when it is the current one; with its
 * team's partner and copies when it has them). BT_ERR_FAULT: it faulted
 * and was recovered (job->fault says how); BT_ERR_TIMEOUT: the firmware
 * terminated it. */
bt_status bt_cpu_job_run(struct bt_platform *p, uint32_t cpu, struct bt_cpu_job *job);

/* From a job: fn(arg) runs if the job is abandoned after a fault (on an
 * AP), or if the CPU is parked (the platform's set_park_cleanup, on the
 * BSP); NULL fn drops the last one. */
void bt_cpu_job_set_cleanup(struct bt_platform *p, void (*fn)(void *), void *arg);

/* An unguarded UD2 in a job on AP `cpu` (--fault-selftest-ap): cleanup
 * registered as its abandon cleanup first. BT_ERR_FAULT expected. `lost`:
 * another UD2 runs after that cleanup, a fault in the recovery: the CPU is
 * then counted in aps_unaccounted (--fault-selftest-ap-lost). */
bt_status bt_cpu_fault_selftest(struct bt_platform *p, uint32_t cpu, void (*cleanup)(void *),
				void *arg, bool lost);

/* The workload env with the partner hooks of this team. */
void bt_cpu_team_env(struct bt_cpu_team *t, const struct bt_wl_env *base, struct bt_wl_env *ret);

#define BT_MAX_COPIES 256

/* What one copy's CPU is handed: it reads it while it loops, so it lives
 * in struct bt_copies (not on the starting CPU's stack, not in a static). */
struct bt_copy_arg {
	struct bt_copies *c;
	int k;                        /* its index in the arrays below */
	struct bt_arch *arch;
	struct bt_xstate xs;          /* its CPU's vector state, while it loops */
};

/* The paper's multi-copy mode: copies of the workload, each with its own
 * instance, loop on other CPUs while one copy is measured: during each of
 * the measured CPU's jobs (one StartupAllAPs). About 70 KiB: the caller
 * keeps it off the UEFI stack (app/run.c, struct bt_run_scratch). */
struct bt_copies {
	struct bt_platform *plat;
	int n;                        /* copies set up (besides the measured one) */
	uint32_t cpu[BT_MAX_COPIES];
	struct bt_wl_instance inst[BT_MAX_COPIES];
	struct bt_copy_arg arg[BT_MAX_COPIES];
	struct bt_cpu_team *team;
	unsigned long long laps[BT_MAX_COPIES];
};

/* Sets up n_copies - 1 copies of cfg for the CPUs in `cpus`. */
bt_status bt_copies_start(struct bt_platform *p, const uint32_t *cpus, unsigned n_copies,
			  const struct bt_wl_config *cfg, const struct bt_wl_env *env,
			  struct bt_copies *ret, struct bt_diag *d);
/* Tears them down. */
void bt_copies_stop(struct bt_copies *c);

#endif
