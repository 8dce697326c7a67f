/* SPDX-License-Identifier: MIT */
/*
 * Running baretop's whole program (bt_app_main) on the machine double
 * (host/machine-double.h), for the tests of what it does on many CPUs: its
 * console output kept, its results file read back.
 */
#ifndef TESTS_UNIT_LIB_MACHINE_RUN_H
#define TESTS_UNIT_LIB_MACHINE_RUN_H

#include <stdbool.h>

#include "app/platform.h"
#include "base/arena.h"
#include "base/json-read.h"
#include "host/machine-double.h"

struct md_run {
	struct bt_md *md;
	struct bt_platform plat;
	int status;                 /* the program's exit status */
	char *out;                  /* what it printed */
	struct bt_arena arena;
	struct bt_json *results;    /* its results file, NULL if none */
	char dir[64];
};

/* Builds the machine SPEC, runs the program with ARGS (words separated by
 * spaces) and --results-dir in a fresh folder. false (with a failed check)
 * when the machine cannot be built. */
bool md_run(struct md_run *r, const char *spec, const char *args);
void md_run_free(struct md_run *r);

/* run.workloads[k] with this name on this CPU, or NULL. */
const struct bt_json *md_outcome(const struct md_run *r, const char *name, unsigned cpu);
/* The number of run.workloads entries. */
unsigned md_outcomes(const struct md_run *r);
/* A string member by path of keys ("counted", "input"), or "". */
const char *md_str(const struct bt_json *v, const char *k1, const char *k2);

#endif
