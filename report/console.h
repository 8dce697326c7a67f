/* SPDX-License-Identifier: MIT */
/*
 * The console report, in the pieces app/ prints as the run goes
 * (console.c); the tree itself is tree.h's bt_report_text.
 */
#ifndef REPORT_CONSOLE_H
#define REPORT_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/text-style.h"
#include "pmu/cpu-info.h"
#include "report/counted.h"
#include "report/results.h"

/* The CPU and PMU sections; --quiet: one line instead. */
/* whose: said after the CPU and PMU headings (whose CPU it is when the
 * counts are not its PMU's), or NULL. */
void bt_report_detect_print(FILE *f, const struct bt_cpu_info *ci, const struct bt_cpu_census *cs,
			    const char *whose);
void bt_report_detect_line(FILE *f, const struct bt_cpu_info *ci);

void bt_fault_selftest_print(FILE *f, const struct bt_fault_selftest *t);

/* One line: the model and the backend ("model SKL (...), SIMULATED ... PMU: ..."). */
void bt_count_setup_describe(const struct bt_count_setup *c, char *buf, size_t len);
/* The model, the count source and the plan of the runs, printed once. */
void bt_count_setup_print(FILE *f, const struct bt_count_setup *c);

/* A counted workload: its steps, then its tree (verbose: every node, not
 * only the flagged branches). */
void bt_tree_outcome_print(FILE *f, const struct bt_tree_outcome *t, bool verbose,
			   const struct bt_text_styler *styler);
/* A workload: its line, then (unless quiet) its details and counted tree;
 * styler: the console's highlighting (NULL: plain text). */
void bt_outcome_print(FILE *f, const struct bt_outcome *o, uint64_t tsc_hz, bool quiet,
		      bool verbose, const struct bt_text_styler *styler);

#endif
