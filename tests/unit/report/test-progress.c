/* SPDX-License-Identifier: MIT */
/* The progress line: the time-left estimate from the workloads finished so
 * far, its text within the console's columns. */
#include <math.h>
#include <string.h>

#include "report/progress.h"
#include "report/text-fit.h"
#include "tests/unit/lib/test.h"

TEST(estimate_from_finished_workloads)
{
	/* nothing finished: nothing to go by */
	CHECK(isnan(bt_progress_left_s(0, 0, 16, 3.0)));
	/* 2 of 5 finished in 10 s (5 s each); the 3rd is 1 s in: 4 s of it
	 * and 2 more of 5 s */
	CHECK_NEAR(bt_progress_left_s(2, 10.0, 5, 1.0), 14.0, 1e-12, 0);
	/* the current one has run longer than the mean: only those not
	 * started are left */
	CHECK_NEAR(bt_progress_left_s(2, 10.0, 5, 7.0), 10.0, 1e-12, 0);
	/* the last one running */
	CHECK_NEAR(bt_progress_left_s(4, 8.0, 5, 0.5), 1.5, 1e-12, 0);
	/* all done */
	CHECK_NEAR(bt_progress_left_s(5, 10.0, 5, 0.0), 0.0, 0, 0);
	/* uneven workloads: the mean of what ran (1 s and 9 s) */
	CHECK_NEAR(bt_progress_left_s(2, 10.0, 12, 0.0), 50.0, 1e-12, 0);
}

TEST(durations)
{
	char b[32];

	bt_progress_duration(b, sizeof(b), 0.4);
	CHECK_STR(b, "0 s");
	bt_progress_duration(b, sizeof(b), 59.4);
	CHECK_STR(b, "59 s");
	bt_progress_duration(b, sizeof(b), 125);
	CHECK_STR(b, "2 min 05 s");
	bt_progress_duration(b, sizeof(b), 3600 + 120 + 40);
	CHECK_STR(b, "1 h 02 min");
}

TEST(status_text)
{
	char b[200];
	struct bt_progress_state s = {
		.workload = 3, .n_workloads = 16, .name = "ptr-chase-l2", .level = 2, .group = 1,
		.n_groups = 4, .n_done = 2, .done_s = 130.0, .current_s = 0,
	};

	bt_progress_text(b, sizeof(b), &s, BT_CONSOLE_COLS);
	/* 65 s per workload: 13 not started and 65 s of the current one */
	CHECK_STR(b, "workload 3 of 16 ptr-chase-l2, level 2 group 1 of 4, 15 min 10 s left");
	s.n_done = 0;
	s.n_groups = 0;
	s.workload = 1;
	bt_progress_text(b, sizeof(b), &s, BT_CONSOLE_COLS);
	CHECK_STR(b, "workload 1 of 16 ptr-chase-l2, time left unknown yet");
	/* a long name (an EFI application's path) gives way, numbers do not */
	s.name = "\\EFI\\tools\\a-very-long-directory-name\\and-an-application.efi";
	s.n_groups = 123;
	s.group = 100;
	s.level = 6;
	s.workload = 1000;
	s.n_workloads = 1000;
	s.n_done = 999;
	s.done_s = 999 * 3600.0;
	bt_progress_text(b, sizeof(b), &s, BT_CONSOLE_COLS);
	CHECK_MSG(bt_text_cols(b) <= BT_CONSOLE_COLS, "%zu columns: %s", bt_text_cols(b), b);
	CHECK_MSG(strstr(b, "workload 1000 of 1000 ..") == b, "%s", b);
	CHECK_MSG(strstr(b, "..lication.efi, level 6 group 100 of 123, 1 h 00 min left"), "%s", b);
}
