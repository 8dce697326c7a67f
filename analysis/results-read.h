/* SPDX-License-Identifier: MIT */
/*
 * Reading a results document back (the NNNNNN.json files results-json.c
 * writes, copied off the ESP): the host tools that work on results files
 * (`counts`, `export`, `report`, `diff`) load one with the JSON reader
 * (base/json-read.h) and find its parts here, so each knows the layout once.
 *
 *   struct bt_results_doc doc;
 *   bt_results_doc_load(&arena, "000001.json", &doc, &d);
 *   for (i = 0; i < doc.n_workloads; i++) doc.workloads[i].counted ...
 *
 * Everything points into the parsed JSON, which lives in the arena.
 */
#ifndef ANALYSIS_RESULTS_READ_H
#define ANALYSIS_RESULTS_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/json-read.h"
#include "base/status.h"

/* One entry of run.workloads. */
struct bt_results_workload {
	size_t index;                      /* in run.workloads */
	const char *name, *params;         /* "" when absent */
	const char *label;                 /* name, or "name@cpuN" when the name repeats */
	const char *cpu;                   /* the logical CPU as written, "?" when absent */
	const struct bt_json *entry;       /* the workload object */
	const struct bt_json *counted;     /* its "counted" object, NULL when not counted */
	const struct bt_json *tree, *events, *steps, *consistency; /* of counted; NULL when absent */
	const char *model, *model_source;  /* the tree's own (hybrid parts: per core type) */
	bool simulated;
	const char *state, *reason;        /* "ran", "skipped", "failed" and why; "" when absent */
	/* Measured beside something it could not stop on its core (the
	 * workload's "perturbed": its reason; older files: a placement that
	 * says PERTURBED); NULL when not. */
	const char *perturbed;
};

struct bt_results_doc {
	const char *path;
	const struct bt_json *root, *run, *counting;
	bool simulated;                    /* any of the file's provenance labels says simulated
					    * (results-read.c check_provenance refuses a file whose
					    * labels disagree) */
	bool replayed;                     /* a `replay --json` tree, not a results document */
	const char *input;                 /* replayed: where its counts came from */
	const char *model, *uarch, *model_source; /* run.counting; NULL when absent */
	const char *not_counted_reason;    /* run.not_counted_reason, NULL when counted */
	struct bt_results_workload *workloads; /* every entry of run.workloads */
	size_t n_workloads, n_counted;
};

/* Loads and checks "format": "baretop-results"; a document without a
 * workload phase loads with no workloads. */
bt_status bt_results_doc_load(struct bt_arena *a, const char *path, struct bt_results_doc *doc,
			      struct bt_diag *d);
/* The same from text[0..len) named `path` in messages (fleet import, which
 * also hashes the bytes; fuzzing). */
bt_status bt_results_doc_parse(struct bt_arena *a, const char *text, size_t len, const char *path,
			       struct bt_results_doc *doc, struct bt_diag *d);
/* The same from a parsed root (tests, fuzzing). */
bt_status bt_results_doc_from_json(struct bt_arena *a, const char *path, const struct bt_json *root,
				   struct bt_results_doc *doc, struct bt_diag *d);
/* Also takes the tree `baretop-host replay --json` writes (its "input"
 * says "replayed counts from ..."): one counted workload, named after its
 * case, with the tree and its consistency verdicts but no per-event
 * statistics, steps or plan; doc->replayed says so (`report`, `diff`). */
bt_status bt_results_doc_load_any(struct bt_arena *a, const char *path, struct bt_results_doc *doc,
				  struct bt_diag *d);
bt_status bt_results_doc_from_json_any(struct bt_arena *a, const char *path, const struct bt_json *root,
				       struct bt_results_doc *doc, struct bt_diag *d);

/* The counted workload named `name` (its label or its name), or, when name
 * is NULL, the only counted one. NULL with the reason in d otherwise. */
const struct bt_results_workload *bt_results_doc_counted(const struct bt_results_doc *doc,
							 const char *name, struct bt_diag *d);

/* The deepest tree level a results file may state (TMA trees have 6). */
#define BT_RESULTS_MAX_LEVEL 64

/* A number member, or dflt when absent or not a number: for values that
 * stay doubles. A number converted to a C integer goes through
 * bt_json_num_in (base/json-read.h), which checks its range first. */
double bt_json_num(const struct bt_json *obj, const char *key, double dflt);
/* The member when it has the given type (enum bt_json_type), else NULL. */
const struct bt_json *bt_json_member(const struct bt_json *obj, const char *key, int type);

/* "5.01" from "... TmaVersion 5.01", or NULL. */
const char *bt_results_tma_version(struct bt_arena *a, const char *model_source);

#endif
