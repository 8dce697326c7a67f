/* SPDX-License-Identifier: MIT */
/*
 * The event-validation runner: for each spec entry, resolve the event (raw
 * perf syntax through pmu/event-parse.c, or a name of the model's event
 * list), plan it with the fixed counters (pmu/plan.h), measure it over its
 * kernel with the measurement engine (pmu/measure.h: warm-ups, repetitions,
 * the window calibrated around kernel `empty`, interrupts masked) and judge
 * the corrected counts against the expectation: PASS / WARN / FAIL / SKIP
 * (the kernel or event does not exist here, the PMU cannot count it, the
 * kernel needs what this CPU lacks: always with the reason).
 */
#ifndef VALIDATE_RUN_H
#define VALIDATE_RUN_H

#include <stdbool.h>

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "kernels/kernel.h"
#include "metrics/model.h"
#include "pmu/cpu-info.h"
#include "validate/spec.h"
#include "validate/verdict.h"

struct bt_validate_opts {
	bool quick;                      /* the kernels' n_quick sizes (QEMU) */
	unsigned reps, warmups;          /* 0 reps: BT_MEASURE_REPS_DEFAULT */
	bool mask_interrupts;
	const struct bt_model *model;    /* event names; NULL: raw events only */
	struct bt_kernel_cpu kcpu;
	/* Called after the kernel's setup, before it is measured (NULL on
	 * hardware): the simulated PMU takes the kernel's model here. */
	void (*prepare)(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st);
	void *prepare_ctx;
};

void bt_validate_opts_defaults(struct bt_validate_opts *o);

/* Runs every entry of spec, appending one result each to out. Returns an
 * error only when it cannot go on (out of memory). */
/* A spec file's mistakes, found before anything runs: a kernel that does
 * not exist, an n the kernel cannot run, an expected count the kernel
 * does not declare or an expression that divides by zero, an event name
 * that is neither raw syntax nor in the model (case included). Each is the
 * writer's error, not the PMU's: BT_ERR_INVALID with "FILE: checks[i]
 * (line L): \"field\": what" (and "did you mean" for a near name), never a
 * SKIP that lets the run pass. Built-in entries (line 0) are not checked. */
bt_status bt_validate_check_spec(const struct bt_pmu_caps *caps, const struct bt_vspec *spec,
				 const struct bt_validate_opts *o, struct bt_diag *d);

bt_status bt_validate_run(const struct bt_pmu *pmu, const struct bt_vspec *spec,
			  const struct bt_validate_opts *o, struct bt_check_list *out,
			  struct bt_diag *d);

/* The verdict of measured counts [min..max] against [lo..hi] widened by
 * tolerance_pct (PASS) and warn_pct (WARN) of the bound's magnitude (at
 * least 0.5, so an exact 0 accepts nothing but 0). Pure: unit-tested. */
enum bt_verdict bt_validate_judge(double min, double max, double lo, double hi,
				  double tolerance_pct, double warn_pct);

#endif
