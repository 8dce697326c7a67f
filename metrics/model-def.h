/* SPDX-License-Identifier: MIT */
/*
 * A Top-Down model as data: the nodes (name, parent, level, formula and
 * threshold as canonical text, see metrics/expr.h) and the events with their
 * encodings. The built-in models in metrics/gen/ are constant tables of these
 * types, written by tools/gen-models; the run-time loaders (metrics/load.h)
 * build the very same structures from vendor files, and bt_model_open()
 * (metrics/model.h) compiles either one. One code path for both.
 *
 * The built-in tables are packed (metrics/model-pack.h): an entry of
 * bt_builtin_models[] holds the header fields (id to retire_latency_source
 * and the counts) and `pack`, but no nodes, events or retire latencies.
 * bt_builtin_find() and bt_model_select() give the full definition, unpacked
 * once; bt_model_open() takes either.
 */
#ifndef METRICS_MODEL_DEF_H
#define METRICS_MODEL_DEF_H

#include <stdint.h>

#include "base/event.h"

struct bt_model_pack;

enum bt_node_kind {
	BT_NODE_TREE = 0,       /* a Top-Down node (vendor TMA / TopdownL<n> / PipelineL<n>) */
	BT_NODE_INFO = 1,       /* a helper metric (Info_*, AMD non-tree metrics) */
	BT_NODE_BOTTLENECK = 2, /* Intel Bottleneck_* metrics (0..100 scale) */
	BT_NODE_HELPER = 3,     /* added by baretop (e.g. CPI where the vendor has none) */
};

struct bt_node_def {
	const char *name;              /* as the vectors spell it: "Frontend_Bound" */
	const char *parent;            /* tree nodes below level 1, else NULL */
	const char *formula;           /* canonical text */
	const char *threshold;         /* canonical text, or NULL when the vendor gives none */
	const char *threshold_literal; /* the vendor threshold read literally, where the
					* model's intent differs from the text (SRF), else NULL */
	uint8_t kind;                  /* enum bt_node_kind */
	uint8_t level;                 /* 1.. for tree nodes, 0 otherwise */
	uint8_t percent;               /* formula yields percent (perfmon "100 * (...)"):
					* the reported value is formula / 100 */
	const char *cross_check;       /* an Info node measuring the same share as a
					* level-1 tree node from other events (ARCH with
					* PERF_METRICS: the architectural event over the
					* slots): that tree node's name, else NULL. It is
					* counted with the tree node and checked against it
					* (rules.h, BT_RULE_CROSS_CHECK) */
};

/* A published retire latency of one event (cycles), used where none was
 * measured (metrics/rl-published.h: which publisher, which version). */
struct bt_retire_latency_default {
	const char *event;
	double cycles;   /* the mean, as perf's intel-tpebs.c and toplev use it */
	double min, max; /* the range the publisher gives; -1 where it gives none */
};

#define BT_MODEL_PERF_METRICS (1u << 0) /* level-1/2 nodes read MSR_PERF_METRICS */
#define BT_MODEL_RETIRE_LATENCY (1u << 1) /* some formulas use retire latencies */
#define BT_MODEL_THRESH_FRACTION (1u << 2) /* thresholds written as fractions of percent metrics (SRF) */

struct bt_model_def {
	const char *id;                /* "SPR", "ADL-GRT", "ZEN4" */
	const char *vendor;            /* "GenuineIntel", "AuthenticAMD" */
	const char *uarch;             /* "Sapphire Rapids", "Gracemont (Alder Lake E-core)" */
	const char *source;            /* vendor file(s) and versions */
	uint8_t pipeline_width;        /* issue slots per cycle */
	uint32_t flags;                /* BT_MODEL_* */
	const char *cpi_node;          /* node giving cycles per instruction (CPI stack) */
	uint16_t n_nodes;
	const struct bt_node_def *nodes;
	uint16_t n_events;
	const struct bt_event *events;
	uint16_t n_retire_latency;
	const struct bt_retire_latency_default *retire_latency;
	const char *retire_latency_source; /* file and version of the defaults, or NULL */
	const struct bt_model_pack *pack; /* built-in, packed (nodes, events, retire_latency
					   * NULL until unpacked), else NULL */
};

#endif
