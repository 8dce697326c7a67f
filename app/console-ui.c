/* SPDX-License-Identifier: MIT */
/* The console while the workloads run (console-ui.h). */
#include <stdio.h>

#include "app/console-ui.h"
#include "report/text-fit.h"

static double seconds_since(const struct bt_console_ui *u, uint64_t t0)
{
	if (!u->tsc_hz || !u->arch)
		return 0;
	uint64_t now = bt_rdtsc(u->arch);

	return now > t0 ? (double)(now - t0) / (double)u->tsc_hz : 0;
}

void bt_console_ui_init(struct bt_console_ui *u, const struct bt_platform *p,
			enum bt_color_when color, uint64_t tsc_hz, unsigned n_workloads)
{
	bool styled = p->console_style &&
		      (color == BT_COLOR_ALWAYS || (color == BT_COLOR_AUTO && p->console_interactive));

	*u = (struct bt_console_ui){ .arch = p->arch, .tsc_hz = tsc_hz };
	u->styler.set = styled ? p->console_style : NULL;
	u->styler.ctx = p->console_style_ctx;
	u->styler.blocks = styled && p->console_blocks;
	u->progress = p->console_interactive;
	u->s.n_workloads = n_workloads;
}

void bt_console_ui_workload(struct bt_console_ui *u, unsigned i, const char *name)
{
	u->s.workload = i;
	u->s.name = name;
	u->s.level = u->s.group = u->s.n_groups = 0;
	u->current_start = u->arch && u->tsc_hz ? bt_rdtsc(u->arch) : 0;
	bt_console_ui_group(u, 0, 0, 0);
}

void bt_console_ui_workload_done(struct bt_console_ui *u)
{
	if (!u->tsc_hz)
		return; /* no clock: no estimate */
	u->s.n_done++;
	u->s.done_s += seconds_since(u, u->current_start);
}

void bt_console_ui_group(struct bt_console_ui *u, unsigned level, unsigned group,
			 unsigned n_groups)
{
	char line[200];

	if (!u->progress)
		return;
	u->s.level = level;
	u->s.group = group;
	u->s.n_groups = n_groups;
	u->s.current_s = seconds_since(u, u->current_start);
	bt_progress_text(line, sizeof(line), &u->s, BT_CONSOLE_COLS);
	size_t cols = bt_text_cols(line);
	fputc('\r', stdout);
	bt_text_style_set(&u->styler, stdout, BT_STYLE_PROGRESS);
	fputs(line, stdout);
	bt_text_style_set(&u->styler, stdout, BT_STYLE_NORMAL);
	for (size_t k = cols; k < u->shown_cols; k++)
		fputc(' ', stdout);
	fflush(stdout);
	u->shown_cols = cols;
}

void bt_console_ui_clear(struct bt_console_ui *u)
{
	if (!u->shown_cols)
		return;
	fputc('\r', stdout);
	for (size_t k = 0; k < u->shown_cols; k++)
		fputc(' ', stdout);
	fputc('\r', stdout);
	fflush(stdout);
	u->shown_cols = 0;
}
