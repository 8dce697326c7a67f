/* SPDX-License-Identifier: MIT */
/*
 * The progress of a long run, as one status line: which workload of how
 * many, which counter group of the current step, and the time left as
 * estimated from the workloads finished so far. Pure formatting and
 * arithmetic (app/console-ui.c keeps the clock and shows the line).
 */
#ifndef REPORT_PROGRESS_H
#define REPORT_PROGRESS_H

#include <stddef.h>

struct bt_progress_state {
	unsigned workload, n_workloads;  /* the current one, 1-based, of n */
	const char *name;                /* its name */
	unsigned level;                  /* its current step's tree level; 0 = none */
	unsigned group, n_groups;        /* the group being measured, 1-based, of n */
	unsigned n_done;                 /* workloads finished */
	double done_s;                   /* their seconds, in total */
	double current_s;                /* seconds into the current one */
};

/*
 * Seconds left: the mean of the finished workloads for each one not
 * started, plus what the mean leaves of the current one (nothing once it
 * has taken longer). NaN before any workload finished: nothing to go by.
 */
double bt_progress_left_s(unsigned n_done, double done_s, unsigned n_total, double current_s);

/* "workload 3 of 16 ptr-chase-l2, level 2 group 1 of 4, 1 min 05 s left",
 * at most `cols` columns: the name is shortened (from its start, "..")
 * to make room, the numbers never are. */
void bt_progress_text(char *buf, size_t len, const struct bt_progress_state *s, size_t cols);

/* "45 s", "2 min 05 s", "1 h 02 min". */
void bt_progress_duration(char *buf, size_t len, double s);

#endif
