/* SPDX-License-Identifier: MIT */
/*
 * PMU conformance: checks of the counters themselves against the Intel SDM
 * vol. 3B ch. 20 and the AMD APM vol. 2 sec. 13.2, independent of any
 * event's meaning: every general counter agrees on the same event, fixed
 * vs general agreement, counter width / wrap / overflow status and its
 * reset, 32-bit vs full-width writes, RDPMC index rules, PERF_METRICS,
 * AMD counter width, legacy vs core-extension MSRs, PerfMonV2 global
 * control, and counters found enabled by firmware (reported, then taken
 * and restored). Each check appends one struct bt_check_result ("conf:*").
 * Every MSR touched is restored before returning, also on failure.
 *
 * The workload is loop-dec-jnz (kernels/loop.c), calibrated with the empty
 * kernel. With the simulated PMU the caller gives the sim a count source
 * for that body (arch/sim: bt_sim_known_counts() from the kernel's declared
 * counts, source.body = the kernel's run), as the engine does for every
 * kernel it runs; validate/README.md lists the check ids.
 */
#ifndef VALIDATE_CONFORMANCE_H
#define VALIDATE_CONFORMANCE_H

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "pmu/pmu-caps.h"
#include "validate/verdict.h"

struct bt_conformance_opts {
	unsigned reps;              /* runs per measurement (median taken) */
	bool quick;                 /* smaller kernels (QEMU TCG) */
	bool rdpmc;                 /* the health check (health.h): read with RDPMC */
};

/* The size n of loop-dec-jnz the checks run (a simulated PMU's caller
 * models the counts of that window). */
uint64_t bt_conformance_loop_n(const struct bt_conformance_opts *o);

bt_status bt_conformance_run(const struct bt_pmu *pmu, const struct bt_conformance_opts *o,
			     struct bt_check_list *out, struct bt_diag *d);

#endif
