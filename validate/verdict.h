/* SPDX-License-Identifier: MIT */
/*
 * One validation check's outcome, shared by the event checks (an event
 * counted over a known-count kernel, validate/) and the PMU conformance
 * checks (the counters themselves, validate/conformance.c).
 *
 * Check ids are stable strings that tests and reports key on:
 *   "event:<EVENT>@<kernel>"      an event against a kernel's expectation
 *   "conf:<name>"                 a conformance check, e.g. "conf:gp-agree",
 *                                 "conf:fixed0-vs-gp-inst", "conf:width-wrap",
 *                                 "conf:overflow-status", "conf:pmc-32bit-write",
 *                                 "conf:full-width-write", "conf:rdpmc-fixed",
 *                                 "conf:perf-metrics-sum", "conf:perf-metrics-reset",
 *                                 "conf:amd-48bit", "conf:amd-legacy-vs-ext",
 *                                 "conf:perfmon-v2-global", "conf:firmware-counters"
 *                                 (validate/README.md lists them all)
 */
#ifndef VALIDATE_VERDICT_H
#define VALIDATE_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"

enum bt_verdict {
	BT_VERDICT_PASS = 0,
	BT_VERDICT_WARN,        /* counted, but outside the tight tolerance / a caveat applies */
	BT_VERDICT_FAIL,
	BT_VERDICT_SKIP,        /* not available on this PMU: `detail` says why */
};

const char *bt_verdict_name(enum bt_verdict v);   /* "PASS", "WARN", "FAIL", "SKIP" */

struct bt_check_result {
	char id[128];
	char event[96];         /* the event (name or raw string), "" for conformance checks */
	char kernel[32];        /* the kernel and its n, "" when none */
	uint64_t n;
	enum bt_verdict verdict;
	bool has_measured;
	uint64_t median, min, max;  /* over the runs, corrected for the window overhead */
	uint64_t overhead;          /* that overhead: the calibration window's median count */
	unsigned runs;
	char expected[96];      /* "20002", "2500..7500", "= 1.00 x CPU_CLK_UNHALTED.THREAD +- 2 %" */
	char tolerance[48];     /* as printed: "exact", "+-0.1 %", "range" */
	char detail[200];       /* why it failed / warned / was skipped; "" on a plain PASS */
	/* For a kernel with counts declared per page size (dtlb-walk): the
	 * pages that mapped its buffer and where that was read ("2 MiB (page
	 * tables (CR3, 4-level paging))"); "" otherwise. */
	char pages[160];
};

/* A growing list of results (malloc'd). */
struct bt_check_list {
	struct bt_check_result *v;
	int n, cap;
};

void bt_check_list_init(struct bt_check_list *l);
/* Appends a copy; BT_ERR_NOMEM when it cannot grow. */
bt_status bt_check_list_add(struct bt_check_list *l, const struct bt_check_result *r);
void bt_check_list_free(struct bt_check_list *l);
/* Counts per verdict (array indexed by enum bt_verdict). */
void bt_check_list_tally(const struct bt_check_list *l, int counts[4]);

#endif
