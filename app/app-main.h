/* SPDX-License-Identifier: MIT */
#ifndef APP_APP_MAIN_H
#define APP_APP_MAIN_H

#include "app/platform.h"

/* Exit statuses (also in --help). */
enum {
	BT_EXIT_OK = 0,
	BT_EXIT_FAILED = 1,      /* the run failed */
	BT_EXIT_USAGE = 2,       /* bad arguments or configuration */
	BT_EXIT_NO_RESULTS = 3,  /* the report is complete but no results file */
	BT_EXIT_NOTHING_VALIDATED = 4, /* --validate: no PMU (or model) to validate */
};

/* The whole program; argv[0] is the program name. Returns the exit status
 * (unless the options power the machine off first). */
int bt_app_main(int argc, char **argv, struct bt_platform *plat);

/* The end of a run that crashed (an exception or a fatal check on
 * baretop's CPU, recovered by the platform): the end decided with the
 * outcome "crash" and left in plat, as bt_app_main would have; returns
 * the exit status. */
int bt_app_crash_end(struct bt_platform *plat);

#endif
