/* SPDX-License-Identifier: MIT */
/*
 * The counter health check before a counted run (pmu/counter-health.h):
 * conf:gp-agree and conf:fixed0-vs-gp-inst of the PMU conformance checks
 * in one window, every general counter and fixed counter 0 counting
 * instructions retired over loop-dec-jnz (calibrated with the empty
 * kernel), judged by bt_counter_health_judge. Milliseconds: o->reps
 * windows of the loop and as many of the empty kernel. One PMU session,
 * every register put back. With the simulated PMU the caller gives the sim
 * the loop's counts first (synth: bt_synth_count_conformance with
 * bt_conformance_loop_n(o)), as for the conformance checks.
 */
#ifndef VALIDATE_HEALTH_H
#define VALIDATE_HEALTH_H

#include "pmu/counter-health.h"
#include "validate/conformance.h"

/* BT_OK with h judged; otherwise h->state = BT_HEALTH_NOT_RUN with
 * h->why (also in d): no PMU, the session could not be opened, a fault. */
bt_status bt_counter_health_run(const struct bt_pmu *pmu, const struct bt_conformance_opts *o,
				struct bt_counter_health *h, struct bt_diag *d);

#endif
