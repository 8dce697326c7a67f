/* SPDX-License-Identifier: MIT */
/*
 * Shared state of the vendor-file loaders: load.c (the dispatcher) calls
 * bt_ld_perfmon (load-perfmon.c) or bt_ld_perf (load-perf.c); the helpers
 * below, which all three use, are defined in load-common.c, which calls
 * none of them back.
 */
#ifndef METRICS_LOAD_INTERNAL_H
#define METRICS_LOAD_INTERNAL_H

#include "metrics/event-name.h"
#include "metrics/expr.h"
#include "base/json-read.h"
#include "metrics/load.h"

struct used_event {
	struct bt_event ev;
	bt_status status;            /* of bt_event_encode */
	const char *why;             /* its message when it failed */
	int noted;
};

struct loader {
	struct bt_arena *a;
	const struct bt_model_recipe *r;
	const char *root;
	struct bt_diag *d;
	struct bt_load_notes *notes;
	struct bt_event_table table;
	struct bt_model_def *def;
	struct bt_node_def *nodes;
	size_t n_nodes, cap_nodes;
	struct used_event *used;
	size_t n_used, cap_used;
	const char *source;          /* provenance text being built */
	const struct bt_name_spelling *names; /* perf-JSON node spellings */
	unsigned n_names;
	int uses_perf_metrics, uses_retire_latency;
};

/* ---- load-common.c */

/* root + "/" + rel (or rel when root is NULL) */
const char *bt_ld_path(struct loader *ld, const char *rel);
void bt_ld_note(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bt_status bt_ld_nomem(struct loader *ld);
bt_status bt_ld_add_node(struct loader *ld, const struct bt_node_def *n);
struct bt_node_def *bt_ld_find_node(struct loader *ld, const char *name);

/* Calls fn on every BT_X_IDENT node; fn returns the node to put in its place. */
typedef struct bt_expr *bt_ld_resolve_fn(struct loader *ld, void *ctx, struct bt_expr *ident,
					  bt_status *err);
bt_status bt_ld_resolve(struct loader *ld, struct bt_expr **e, bt_ld_resolve_fn *fn, void *ctx);

/* Registers every event of a resolved formula; a node of kind tree whose event
 * has no encoding is an error naming the node, an info metric gets a note. */
bt_status bt_ld_events(struct loader *ld, const struct bt_expr *e, const char *node, uint8_t kind);

/* Formula text of node `node`: parse (dialect), resolve, register events, print. */
bt_status bt_ld_formula(struct loader *ld, enum bt_dialect dialect, const char *text,
			const char *node, uint8_t kind, const char *what, bt_ld_resolve_fn *fn,
			void *ctx, struct bt_expr **ret_tree, const char **ret_text);

/* ---- the format loaders: the metrics files of ld->r into ld's nodes */
bt_status bt_ld_perfmon(struct loader *ld);   /* load-perfmon.c, BT_FMT_PERFMON */
bt_status bt_ld_perf(struct loader *ld);      /* load-perf.c, BT_FMT_PERF_JSON */

#endif
