/* SPDX-License-Identifier: MIT */
/*
 * Shared between the PMU conformance files only (conformance.c: the entry
 * point, the firmware survey and the results; conformance-measure.c:
 * programming counters directly and counting a kernel; conformance-intel.c
 * and conformance-amd.c: the checks). Every register access goes through
 * pmu/pmu-raw.h inside one PMU session, so everything touched is saved
 * before its first write and put back at bt_pmu_close().
 */
#ifndef VALIDATE_CONFORMANCE_INTERNAL_H
#define VALIDATE_CONFORMANCE_INTERNAL_H

#include <stdarg.h>

#include "kernels/kernel.h"
#include "pmu/msr.h"
#include "pmu/pmu-raw.h"
#include "validate/conformance.h"

struct conf {
	struct bt_arch *arch;
	const struct bt_pmu_caps *caps;
	struct bt_pmu_session s;
	bool intel, amd_ext, amd_v2;
	const struct bt_kernel *loop, *empty;
	struct bt_kernel_state loop_st, empty_st;
	uint64_t n;                 /* loop-dec-jnz iterations */
	int64_t inst_declared;      /* its declared instruction count at n */
	unsigned reps;
	/* Read the counts at the end of a window with RDPMC (ECX = i, fixed:
	 * 0x40000000 | i, SDM vol. 2B RDPMC) as a counted run's session does,
	 * instead of RDMSR: the counter health check (health.c) sees what the
	 * run will read. The conformance checks read with RDMSR. */
	bool read_rdpmc;
	struct bt_check_list *out;
	bt_status add_status;       /* first failure to grow the list */
	struct bt_diag err;         /* the access that faulted, from pmu-raw.h */
	/* Runs of the current check repeated for an SMI (conf_run), and why
	 * the first was; runs that still had one after the retries. The next
	 * result says so and resets them (conformance-result.c). */
	unsigned smi_repeats, smi_kept;
	char smi_why[96];
};

/* Extra runs conf_run makes for one run that an SMI disturbed. */
#define CONF_SMI_RETRIES 3

/* What to program: the counters used, each selector's value without the
 * enable bit, start values (mod 2^width), PERF_METRICS with fixed 3. */
struct conf_prog {
	uint32_t gp;
	uint64_t sel[BT_PMU_MAX_GP];
	uint64_t gp_start[BT_PMU_MAX_GP];
	uint32_t fixed;
	uint64_t fixed_start[BT_PMU_MAX_FIXED];
	bool pm;
	/* The window's start value of the global control, instead of every
	 * used counter's bit (conf:global-ctrl); ignored without one. */
	bool global_override;
	uint64_t global_start;
};

/* One window. */
struct conf_run {
	uint64_t gp_held[BT_PMU_MAX_GP];     /* read back after the start-value write */
	uint64_t gp_end[BT_PMU_MAX_GP], gp_delta[BT_PMU_MAX_GP];
	uint64_t fixed_held[BT_PMU_MAX_FIXED];
	uint64_t fixed_end[BT_PMU_MAX_FIXED], fixed_delta[BT_PMU_MAX_FIXED];
	uint64_t tsc;
	uint64_t status;                     /* GLOBAL_STATUS right after the window */
	uint64_t perf_metrics;
	struct bt_pmu_smi smi;               /* the run's SMI bracket (pmu-raw.h) */
};

/* Medians over reps windows; with calibration, minus the median of the
 * same windows around the empty kernel. */
struct conf_count {
	uint64_t gp[BT_PMU_MAX_GP], fixed[BT_PMU_MAX_FIXED];
	uint64_t gp_min[BT_PMU_MAX_GP], gp_max[BT_PMU_MAX_GP];
	uint64_t fixed_min[BT_PMU_MAX_FIXED], fixed_max[BT_PMU_MAX_FIXED];
	uint64_t tsc;
	unsigned runs;
};

/* INST_RETIRED.ANY_P (Intel 0xC0/0x00, AMD 0xC0) and core cycles (Intel
 * 0x3C/0x00, AMD 0x76), counting in every ring. */
uint64_t conf_sel(const struct conf *c, unsigned code, unsigned umask);
#define CONF_INST 0xC0u
uint64_t conf_gp_mask(const struct conf *c);     /* bits the counters hold (CPUID width) */
uint64_t conf_fixed_mask(const struct conf *c);

/* Program, run one window over the loop (empty = false) or the empty
 * kernel, read back. BT_ERR_FAULT with c->err naming the access. The run
 * is bracketed by MSR_SMI_COUNT reads as pmu/measure.c's are (pmu-raw.h
 * bt_pmu_raw_smi_begin/_end) and repeated, up to CONF_SMI_RETRIES times,
 * while bt_pmu_smi_verdict() finds an SMI in it: outside the window (RSM
 * set the GLOBAL_CTRL enables) or in it, frozen or not, since the checks
 * compare single counts exactly, REF_TSC with the TSC (which runs through
 * SMM) and a clear global enable with nothing counted (which RSM sets). */
bt_status conf_run(struct conf *c, const struct conf_prog *p, bool empty, struct conf_run *r);
/* Every selector and the fixed control written 0: nothing counts. */
bt_status conf_stop_selectors(struct conf *c);
/* reps windows; calibrate: minus the empty kernel's medians. */
bt_status conf_count(struct conf *c, const struct conf_prog *p, bool calibrate,
		     struct conf_count *ret);
/* IA32_PERF_GLOBAL_OVF_CTRL / STATUS_RESET / AMD GlobalStatusClr write
 * clearing `bits`, and the status read after it. */
bt_status conf_clear_status(struct conf *c, uint64_t bits, uint64_t *ret_after);
/* The status bits a check may clear and expect set again: the counter
 * bits, less those set at open on Intel v2/v3 (no STATUS_SET to put them
 * back). */
uint64_t conf_status_usable(const struct conf *c);

/* Results. */
void conf_result(struct conf *c, const char *id, enum bt_verdict v, const char *expected,
		 const char *tolerance, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void conf_result_measured(struct conf *c, const char *id, enum bt_verdict v, uint64_t median,
			  uint64_t min, uint64_t max, unsigned runs, const char *expected,
			  const char *tolerance, const char *fmt, ...)
	__attribute__((format(printf, 10, 11)));
/* "0, 3" for mask 0x9, with a prefix per item ("PMC", "FIXED"). */
void conf_list(char *buf, size_t len, uint32_t mask);

/* The checks (conformance-intel.c, conformance-amd.c). Each appends its
 * results, SKIP with the reason where the PMU lacks the feature. */
void conf_gp_agree(struct conf *c);
void conf_intel_fixed(struct conf *c);        /* fixed0/1/2 vs general, TSC */
void conf_width_overflow(struct conf *c);     /* conf:width-wrap / amd-48bit, overflow-status */
void conf_intel_writes(struct conf *c);       /* pmc-32bit-write, full-width-write */
void conf_intel_rdpmc(struct conf *c);
void conf_intel_perf_metrics(struct conf *c); /* perf-metrics-sum, perf-metrics-reset */
void conf_global_ctrl(struct conf *c);        /* global-ctrl / perfmon-v2-global */
void conf_amd_alias(struct conf *c);          /* amd-legacy-vs-ext */

#endif
