/* SPDX-License-Identifier: MIT */
/*
 * The SMT sibling's activity from the probe's counts (cpu-info.h
 * sibling_probe, plan.h sibling_gp): the fraction of this thread's unhalted
 * time in which the other thread of its core ran too,
 *
 *     1 - CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE / CPU_CLK_UNHALTED.REF_XCLK
 *
 * as Linux perf's SMT-aware core clocks read it (tools/perf/pmu-events/
 * arch/x86/skylakex/skx-metrics.json tma_info_core_core_clks: THREAD / 2 *
 * (1 + ONE_THREAD_ACTIVE / REF_XCLK)). Every group counts ONE_THREAD_ACTIVE
 * on one general counter; REF_XCLK, the same clock while the thread is
 * unhalted, is derived from fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC, the
 * TSC's rate while the thread is unhalted, which every group carries) over
 * the part's TSC-to-reference-clock ratio (caps.tsc_per_xclk_*, pmu-caps.c
 * xclk_ratio: exact by definition where the part enumerates it). The first
 * step of each tree also counts REF_XCLK itself, as one more event of its
 * plan, and that count checks the ratio: a part (or a hypervisor's TSC
 * scaling, or a wrong table) whose reference clock is not what it
 * enumerates is caught, and the counted ratio used. Without fixed counter 2
 * REF_XCLK takes a reserved counter of its own in every group.
 */
#ifndef PMU_SIBLING_H
#define PMU_SIBLING_H

#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"
#include "pmu/cpu-info.h"

struct bt_measure_run;
struct bt_plan_opts;
struct bt_plan_scratch;

/* The probe's events (the Ivy Bridge .. Cascade Lake event tables: 0x3C
 * umask 0x02 CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE, umask 0x01
 * CPU_CLK_UNHALTED.REF_XCLK, any general counter). */
extern const struct bt_event bt_sibling_ota_event, bt_sibling_xclk_event;

/* The reference clock's check, REF_XCLK itself (bt_sibling_xclk_event),
 * appended to the n events of a step's plan at events[n] where it costs no
 * group (the lower bound stays: the planner reaches it), or where the part
 * enumerates no ratio (the count is then the only one): returns n + 1,
 * else n (a later step tries again). Nothing where the probe counts
 * REF_XCLK in every group already (no fixed counter 2). events has room
 * for n + 1. */
int bt_sibling_add_check(const struct bt_event **events, int n, const struct bt_pmu_caps *caps,
			 const struct bt_plan_opts *opts, struct bt_plan_scratch *scratch);

/* The counted REF_XCLK may differ from the enumerated ratio by this much,
 * plus one reference tick per run at each window edge. */
#define BT_XCLK_RATIO_TOLERANCE 0.01

/* The probe's counts of a set of runs, summed. */
struct bt_sibling_sums {
	bool probed;             /* some run counted ONE_THREAD_ACTIVE */
	uint64_t ota;            /* ONE_THREAD_ACTIVE */
	uint64_t ref_tsc;        /* fixed counter 2 of the runs REF_XCLK is derived for */
	uint64_t xclk;           /* REF_XCLK of the runs without fixed counter 2 */
	/* the ratio's check: the runs that counted both REF_XCLK and fixed
	 * counter 2 */
	uint64_t check_tsc, check_xclk;
	unsigned check_runs;
};

/* Adds run r (nothing unless it has the probe). */
void bt_sibling_add(struct bt_sibling_sums *s, const struct bt_measure_run *r);

/* TSC ticks per REF_XCLK tick, as used for a tree. */
struct bt_xclk_ratio {
	double used;             /* NaN: none (REF_XCLK cannot be derived) */
	const char *from;        /* tsc_per_xclk_from, or "counted" */
	double enumerated;       /* caps.tsc_per_xclk_num / den; NaN: not enumerated */
	const char *enumerated_from;
	double counted;          /* check_tsc / check_xclk; NaN: not counted */
	/* counted and enumerated differ beyond the tolerance: the counted one
	 * is used (the reference clock is not what the part says) */
	bool disagrees;
};
void bt_xclk_ratio_decide(const struct bt_pmu_caps *caps, const struct bt_sibling_sums *s,
			  struct bt_xclk_ratio *ret);

/* The sibling's share of the runs in s, 0..1, with REF_XCLK derived at
 * `ratio` TSC ticks per tick (bt_sibling_fraction); NaN when no run was
 * probed, REF_XCLK is 0 or cannot be derived (ratio NaN). */
double bt_sibling_active(const struct bt_sibling_sums *s, double ratio);
/* 1 - ota / xclk within 0..1, from ONE_THREAD_ACTIVE and REF_XCLK (counted,
 * derived, or both summed); NaN when xclk is not > 0. A recording's counts
 * (`replay --perf-stat`) give the fraction a run's give through it. */
double bt_sibling_fraction(double ota, double xclk);

#endif
