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

/*
 * Names to indexes in O(1) (open addressing, FNV-1a): every lookup a loader
 * makes per metric (nodes, events, parents, LegacyNames) goes through one,
 * so a file of n metrics loads in O(n) lookups, not O(n^2) (issue 33: 40,000
 * metrics took 33 s with linear searches). Keys are not copied: they must
 * outlive the index (JSON strings and names in the arena do).
 */
struct bt_ld_index {
	struct bt_ld_slot {
		const char *key;
		uint32_t len, value;
	} *slot;
	size_t cap, n;              /* cap a power of two, 0 before the first put */
};
/* 0 added, 1 the key was there (its first value kept), -1 out of memory. */
int bt_ld_index_put(struct bt_ld_index *x, const char *key, size_t len, uint32_t value);
/* The value of key[0..len), or -1. */
long bt_ld_index_get(const struct bt_ld_index *x, const char *key, size_t len);
void bt_ld_index_free(struct bt_ld_index *x);

/* A model's nodes and events are indexed by uint16_t (model-def.h). */
#define BT_LD_MAX_NODES 0xFFFFu
/* Levels of a Top-Down tree a file may give: Intel's deepest is 6. */
#define BT_LD_MAX_LEVEL 20

/* A metrics file larger than this is refused before it is parsed: Intel's
 * largest (graniterapids_metrics.json, with every description) is 0.56 MB,
 * and the EFI app holds the whole file and its parse in memory. A file of
 * tens of thousands of generated metrics (40,000 in 20 MB) stops at once. */
#define BT_LD_MAX_FILE_BYTES (8u << 20)

/* Where a node was defined, for messages about the tree. */
struct bt_ld_where {
	const char *file;
	uint32_t line, col;
};

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
	struct bt_ld_where *where;   /* per node; file NULL when not from a file */
	size_t n_nodes, cap_nodes;
	struct bt_ld_index node_index; /* name -> nodes[] */
	struct used_event *used;
	size_t n_used, cap_used;
	struct bt_ld_index used_index; /* event name -> used[] */
	const char *source;          /* provenance text being built */
	const struct bt_name_spelling *names; /* perf-JSON node spellings */
	unsigned n_names;
	int uses_perf_metrics, uses_retire_latency;
};

/* ---- load-common.c */

/* Reads and parses a metrics file, refusing one larger than BT_LD_MAX_FILE_BYTES. */
bt_status bt_ld_load_json(struct loader *ld, const char *path, struct bt_json **ret_root);


/* root + "/" + rel (or rel when root is NULL) */
const char *bt_ld_path(struct loader *ld, const char *rel);
void bt_ld_note(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bt_status bt_ld_nomem(struct loader *ld);
bt_status bt_ld_add_node(struct loader *ld, const struct bt_node_def *n);
/* The same, remembering where in which file the node was defined (j). */
bt_status bt_ld_add_node_at(struct loader *ld, const struct bt_node_def *n, const char *file,
			    const struct bt_json *j);
struct bt_node_def *bt_ld_find_node(struct loader *ld, const char *name);
/* "file:line:col: " of node i, or "" when it is not from a file (into buf). */
const char *bt_ld_where_text(struct loader *ld, size_t i, char *buf, size_t size);
/* The tree's structure: every tree node's parent is a tree node and every
 * chain of parents ends at a level-1 root (no cycle), levels 1..MAX. */
bt_status bt_ld_check_tree(struct loader *ld);
/* Frees what the loader holds outside the arena. */
void bt_ld_free(struct loader *ld);

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
