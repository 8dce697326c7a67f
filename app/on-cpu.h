/* SPDX-License-Identifier: MIT */
/*
 * Work on a chosen logical CPU. On UEFI the other CPUs are APs started
 * through MP services: code running there must not call the firmware or
 * print, and CR4/XCR0 are per CPU, so the vector state is enabled on that
 * CPU for the job and restored after it. The core type (hybrid parts) is
 * read there too, since each CPU answers CPUID for itself.
 */
#ifndef APP_ON_CPU_H
#define APP_ON_CPU_H

#include "app/platform.h"
#include "arch/xstate.h"
#include "pmu/cpu-info.h"
#include "workloads/workload.h"

struct bt_cpu_job {
	struct bt_arch *arch;
	void (*work)(void *ctx);     /* no firmware calls, no printing */
	void *ctx;
	/* filled on the target CPU */
	struct bt_xstate xstate;
	enum bt_core_type core_type;
	uint32_t native_model_id;
};

/* Runs job->work on `cpu` (directly when it is the current one). */
bt_status bt_cpu_job_run(struct bt_platform *p, uint32_t cpu, struct bt_cpu_job *job);

#define BT_MAX_COPIES 256

struct bt_copies;

/* What one copy's CPU is handed: it reads it while it loops, so it lives
 * in struct bt_copies (not on the starting CPU's stack, not in a static). */
struct bt_copy_arg {
	struct bt_copies *c;
	int k;                        /* its index in the arrays below */
	struct bt_arch *arch;
};

/* The paper's multi-copy mode: copies of the workload, each with its own
 * instance, loop on other CPUs while one copy is measured. About 70 KiB:
 * the caller keeps it off the UEFI stack (app/run.c, struct bt_run_scratch). */
struct bt_copies {
	struct bt_platform *plat;
	int n;                        /* copies started (besides the measured one) */
	uint32_t cpu[BT_MAX_COPIES];
	void *handle[BT_MAX_COPIES];
	struct bt_wl_instance inst[BT_MAX_COPIES];
	struct bt_copy_arg arg[BT_MAX_COPIES];
	volatile int stop;
	unsigned long long laps[BT_MAX_COPIES];
};

/* Starts n_copies - 1 copies of cfg on CPUs other than measured_cpu. */
bt_status bt_copies_start(struct bt_platform *p, uint32_t measured_cpu, unsigned n_copies,
			  const struct bt_wl_config *cfg, const struct bt_wl_env *env,
			  struct bt_copies *ret, struct bt_diag *d);
/* Tells them to stop after their current lap, waits, tears them down. */
void bt_copies_stop(struct bt_copies *c);

#endif
