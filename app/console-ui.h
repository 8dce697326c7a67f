/* SPDX-License-Identifier: MIT */
/*
 * The console while the workloads run: the styling the report is printed
 * with (--color, the platform's console_style and console_blocks), and one
 * progress status line, rewritten in place ('\r') and erased before any
 * report text is printed, so it never lands inside a tree. The status is
 * rewritten only when the run reaches a new workload or counter group, so
 * a serial capture of the console gets one line per step, not a stream.
 */
#ifndef APP_CONSOLE_UI_H
#define APP_CONSOLE_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/options.h"
#include "app/platform.h"
#include "base/text-style.h"
#include "report/progress.h"

struct bt_console_ui {
	struct bt_text_styler styler;  /* for the report (bt_report_opts.styler) */
	bool progress;                 /* a status line is shown (interactive console) */
	struct bt_arch *arch;          /* its clock: the TSC */
	uint64_t tsc_hz;               /* 0: no time estimate */
	struct bt_progress_state s;
	uint64_t current_start;        /* TSC at the current workload's start */
	size_t shown_cols;             /* columns of the status on screen; 0 = none */
};

/* Styling: --color=never: none; always: the platform's; auto: the
 * platform's when its console is interactive. Progress: on an interactive
 * console. */
void bt_console_ui_init(struct bt_console_ui *u, const struct bt_platform *p,
			enum bt_color_when color, uint64_t tsc_hz, unsigned n_workloads);
/* Workload i (1-based) of the run starts / has finished. */
void bt_console_ui_workload(struct bt_console_ui *u, unsigned i, const char *name);
void bt_console_ui_workload_done(struct bt_console_ui *u);
/* A counter group (1-based) of the step at `level` starts: shows the status. */
void bt_console_ui_group(struct bt_console_ui *u, unsigned level, unsigned group,
			 unsigned n_groups);
/* Erases the status line (before report text is printed). */
void bt_console_ui_clear(struct bt_console_ui *u);

#endif
