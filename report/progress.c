/* SPDX-License-Identifier: MIT */
/* The progress status line (progress.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/progress.h"

double bt_progress_left_s(unsigned n_done, double done_s, unsigned n_total, double current_s)
{
	if (!n_done || n_done >= n_total || isnan(done_s) || done_s < 0)
		return n_done && n_done >= n_total ? 0 : NAN;
	double mean = done_s / n_done;
	unsigned not_started = n_total - n_done - 1;   /* the current one aside */
	double rest_of_current = mean > current_s ? mean - current_s : 0;

	return mean * not_started + rest_of_current;
}

void bt_progress_duration(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t < 60)
		snprintf(buf, len, "%lu s", t);
	else if (t < 3600)
		snprintf(buf, len, "%lu min %02lu s", t / 60, t % 60);
	else
		snprintf(buf, len, "%lu h %02lu min", t / 3600, t % 3600 / 60);
}

void bt_progress_text(char *buf, size_t len, const struct bt_progress_state *s, size_t cols)
{
	char step[64] = "", left[48], dur[24];
	double l = bt_progress_left_s(s->n_done, s->done_s, s->n_workloads, s->current_s);

	if (s->n_groups)
		snprintf(step, sizeof(step), ", level %u group %u of %u", s->level, s->group,
			 s->n_groups);
	if (isnan(l)) {
		snprintf(left, sizeof(left), "%s", s->n_workloads > 1 ? ", time left unknown yet" : "");
	} else {
		bt_progress_duration(dur, sizeof(dur), l);
		snprintf(left, sizeof(left), ", %s left", dur);
	}
	const char *name = s->name ? s->name : "";
	int fixed = snprintf(NULL, 0, "workload %u of %u %s%s", s->workload, s->n_workloads, step,
			     left);
	int room = (int)cols - fixed, nlen = (int)strlen(name);

	if (room < 8)
		room = 8;
	if (nlen <= room)
		snprintf(buf, len, "workload %u of %u %s%s%s", s->workload, s->n_workloads, name, step,
			 left);
	else /* the end of a name (a path's file) says the most */
		snprintf(buf, len, "workload %u of %u ..%s%s%s", s->workload, s->n_workloads,
			 name + nlen - (room - 2), step, left);
}
