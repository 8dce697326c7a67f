/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_BARETOP_HOST_PLAN_PRINT_H
#define TOOLS_BARETOP_HOST_PLAN_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/event.h"
#include "pmu/cpu-info.h"

/* Plan the events for the PMU described by caps, validate the plan
 * independently, and print it (text or JSON) to out. caps_label says where
 * the caps come from (e.g. "simulated PMU preset skl"). Returns the process
 * exit status: 0 valid plan, 1 invalid or incomplete plan. `baretop-host
 * plan --model M --level N` feeds the model's events through this too. */
int bt_host_plan_print(const struct bt_event *const *events, int n, const struct bt_pmu_caps *caps,
		       const char *caps_label, bool smt_off, bool json, FILE *out);

/* plan --backend=perf (cmd-plan-perf.c): the groups `run --backend=perf`
 * would open for the kernel under `root` on CPU FILE@CPU of a CPUID dump;
 * model NULL: the CPU's built-in model. Exit status as above (2: bad
 * input, with a located message on stderr). */
int bt_host_plan_perf(const char *model, unsigned level, bool smt, const char *root,
		      const char *cpuid, bool json, FILE *out);

#endif
