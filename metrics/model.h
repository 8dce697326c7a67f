/* SPDX-License-Identifier: MIT */
/*
 * The metric core's API for the rest of baretop.
 *
 *   const struct bt_model_def *def = bt_builtin_find("SPR");     (builtin.h)
 *      or bt_model_select(&cpu, NULL, &def, &diag)                (select.h)
 *      or bt_model_load(&arena, &recipe, root, &def, &diag)       (load.h)
 *   struct bt_model *m;  bt_model_open(def, &m, &diag);
 *   bt_model_events_up_to_level(m, 2, NULL, list, &n)   -> what to count
 *   struct bt_counts *c = bt_counts_new(m);  bt_counts_set_event(c, "INST_RETIRED.ANY", v) ...
 *   struct bt_result *r = bt_result_new(m);  bt_evaluate(m, c, r);
 *   bt_report_text(stdout, m, r, &opts)                          (report/tree.h)
 *
 * bt_model_open() compiles every node's formula and threshold (canonical text,
 * metrics/expr.h) into one hash-consed expression DAG shared by all nodes of
 * the model: a common subexpression is computed once, and a node's value is
 * the value of one DAG entry. Evaluation is eager and exact with respect to
 * the vendor oracles' lazy semantics because:
 *   - "invalid" (Python's ZeroDivisionError) is NaN: x/0, 0/0 and x/-0 give NaN;
 *     NaN propagates through + - * /, min, max and comparisons inside a formula
 *     (an invalid condition makes the formula invalid);
 *   - "A if C else B" takes one branch, so an invalid untaken branch (which the
 *     oracle never evaluates) does not matter;
 *   - in a threshold, a comparison involving an invalid value is false, and
 *     the flag of an invalid node is false.
 * Missing counts are NaN too; a second pass tells "cannot be computed: input
 * missing" from "invalid: division by zero" for each NaN node.
 *
 * No global state: a model, its counts and its results are independent
 * objects (one model can serve several threads with their own counts/results).
 */
#ifndef METRICS_MODEL_H
#define METRICS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/event.h"
#include "metrics/model-def.h"
#include "base/status.h"

struct bt_model;

/* Constants a formula can name (FORMAT.md "Constants"). */
enum bt_constant {
	BT_C_HYPERTHREADING_ON,       /* 0/1: SMT enabled */
	BT_C_THREADS_PER_CORE,
	BT_C_SYSTEM_TSC_FREQ,         /* perfmon: TSC ticks over the measured interval */
	BT_C_TSC_HZ,
	BT_C_DURATIONTIMEINMILLISECONDS,
	BT_C_SOCKET_COUNT,
	BT_C_CORES_PER_SOCKET,
	BT_C_CHAS_PER_SOCKET,
	BT_C_NUM_CPUS,
	BT_C_CORE_WIDE,               /* perf #core_wide: 1 = counting core-wide */
	/* Measured, not a vendor constant: the fraction (0..1) of the
	 * measured thread's unhalted time in which the other thread of its
	 * core was active (1 - ONE_THREAD_ACTIVE / REF_XCLK, pmu/sibling.h
	 * bt_sibling_active). With HYPERTHREADING_ON not given it decides it
	 * (bt_smt_decide). */
	BT_C_SMT_SIBLING_ACTIVE,
	BT_CONST_COUNT,
};

/*
 * HYPERTHREADING_ON from the measured sibling. The SMT branches of the
 * Haswell .. Cascade Lake formulas count the core's clocks as
 * CPU_CLK_UNHALTED.THREAD_ANY / 2 (intel/perfmon skylakex_metrics.json
 * CORE_CLKS; pmu-tools toplev skx_server_ratios.py CORE_CLKS with
 * smt_enabled), right when both threads run all the time; the per-thread
 * branches count CPU_CLK_UNHALTED.THREAD, right when the sibling idles.
 * Linux perf's per-thread estimate, CPU_CLK_UNHALTED.THREAD / 2 * (1 +
 * ONE_THREAD_ACTIVE / REF_XCLK) (tools/perf/pmu-events/arch/x86/skylakex/
 * skx-metrics.json tma_info_core_core_clks with #core_wide < 1), is
 * THREAD x (1 - f/2) for a sibling active a fraction f of the thread's
 * unhalted time; against it the per-thread branch overstates the core
 * clocks (so every SLOTS-based node's denominator) by f / (2 - f) and the
 * SMT branch (THREAD_ANY = THREAD: the sibling active only inside the
 * thread's time) understates them by (1 - f) / (2 - f). So: f >= 1/2
 * takes the SMT branches, below it the per-thread ones, and the tree is
 * flagged where the branch taken is off by more than
 * BT_SMT_FORMULA_ERROR_MAX: f in (0.0952, 0.947).
 */
#define BT_SMT_FORMULA_ERROR_MAX 0.05
struct bt_smt_decision {
	int formulas;            /* -1: not decided by a measurement (HYPERTHREADING_ON as
				  * given, or no sibling measured); 0 per-thread; 1 SMT */
	double sibling_active;   /* the measured fraction, NaN if none */
	double error;            /* the core clocks' relative error of the branch taken
				  * against perf's estimate (NaN if not decided here) */
	int flagged;             /* error > BT_SMT_FORMULA_ERROR_MAX: neither branch fits */
};
/* The decision for these constants (HYPERTHREADING_ON NaN and
 * SMT_SIBLING_ACTIVE given), as bt_evaluate takes it. */
void bt_smt_decide(const double *constants, struct bt_smt_decision *ret);
/* The constants with HYPERTHREADING_ON as bt_smt_decide takes it (a copy
 * into ret, BT_CONST_COUNT entries): what a node's events are read with
 * wherever the tree's value formulas matter (untrusting a node by its
 * events, app/count-run.c and replay alike), so that only the events of
 * the branch bt_evaluate computes it from count. */
void bt_smt_decided_constants(const double *constants, double *ret);
const char *bt_constant_name(enum bt_constant c);
/* BT_CONST_COUNT if unknown */
enum bt_constant bt_constant_find(const char *name);

/* Compiles a model definition (built-in or loaded; it must outlive the model). */
bt_status bt_model_open(const struct bt_model_def *def, struct bt_model **ret, struct bt_diag *d);
void bt_model_close(struct bt_model *m);

const struct bt_model_def *bt_model_def(const struct bt_model *m);

/* Nodes (index 0..n-1, in definition order). */
unsigned bt_model_node_count(const struct bt_model *m);
const struct bt_node_def *bt_model_node(const struct bt_model *m, unsigned i);
/* -1 if no such node */
int bt_model_node_find(const struct bt_model *m, const char *name);
/* parent index of a tree node, -1 for level 1 and non-tree nodes */
int bt_model_node_parent(const struct bt_model *m, unsigned i);
/* children of a tree node (tree nodes whose parent it is), in definition order */
unsigned bt_model_node_children(const struct bt_model *m, unsigned i, const uint16_t **ret);
/* tree nodes of level 1 */
unsigned bt_model_roots(const struct bt_model *m, const uint16_t **ret);
unsigned bt_model_max_level(const struct bt_model *m);
/* The tree node that node i cross-checks (bt_node_def.cross_check), or -1. */
int bt_model_cross_check_of(const struct bt_model *m, unsigned i);
/* Appends to nodes[0..n) the cross-check nodes of the nodes listed there
 * that are not listed yet; returns the new count (nodes has room for every
 * node of the model). */
unsigned bt_model_add_cross_checks(const struct bt_model *m, unsigned *nodes, unsigned n);

/* Events (index 0..n-1 = the definition's event table, sorted by name). */
unsigned bt_model_event_count(const struct bt_model *m);
const struct bt_event *bt_model_event(const struct bt_model *m, unsigned i);
int bt_model_event_find(const struct bt_model *m, const char *name);

/* Retire-latency inputs (event names whose average retire latency formulas use). */
unsigned bt_model_retire_latency_count(const struct bt_model *m);
const char *bt_model_retire_latency_name(const struct bt_model *m, unsigned i);
/* The vendor's published mean of input i (Intel's *_retire_latency.json,
 * today Granite Rapids'), NaN where none is published: shown beside a
 * measured value, so the two can be compared. */
double bt_model_retire_latency_published(const struct bt_model *m, unsigned i);

/*
 * The events needed to compute (value and flag of) the given nodes, deduplicated,
 * as indexes into bt_model_event() in ascending order. When constants is not
 * NULL (BT_CONST_COUNT values, NaN = unknown), branches that the constants
 * decide (e.g. "... if HYPERTHREADING_ON else ...") are followed one way only.
 * ret_events must have room for bt_model_event_count() entries.
 */
bt_status bt_model_events_for_nodes(const struct bt_model *m, const unsigned *nodes, unsigned n_nodes,
				    const double *constants, uint16_t *ret_events, unsigned *ret_n);
/* The events node's value formula alone reads (not its threshold), the
 * same way: what makes the node's number depend on an event. */
bt_status bt_model_node_value_events(const struct bt_model *m, unsigned node, const double *constants,
				     uint16_t *ret_events, unsigned *ret_n);
/* ... for all tree nodes of level <= level (and what their thresholds need),
 * with the cross-check nodes of those nodes (bt_model_cross_check_of) */
bt_status bt_model_events_up_to_level(const struct bt_model *m, unsigned level,
				      const double *constants, uint16_t *ret_events, unsigned *ret_n);
/* The tree's events differ between HYPERTHREADING_ON = 0 and 1 (the other
 * constants as given, NaN = unknown; NULL: all unknown): the formulas have
 * SMT branches (Haswell .. Cascade Lake). */
bool bt_model_has_smt_branches(const struct bt_model *m, const double *constants);
/* Size of the compiled program (distinct operations), for statistics. */
unsigned bt_model_op_count(const struct bt_model *m);

/* ---- inputs ---- */

/* Where a retire latency came from, in the order they are tried. */
enum bt_rl_source {
	BT_RL_NONE = 0,      /* not given: -1, the formula's own fallback or not measured */
	BT_RL_GIVEN,         /* given with the counts (a count file, a replayed results file) */
	BT_RL_MEASURED,      /* sampled on this machine (timed PEBS) */
	BT_RL_PUBLISHED,     /* the vendor's published defaults (GNR) */
	BT_RL_FILE,          /* --retire-latency-file */
};
const char *bt_rl_source_name(enum bt_rl_source s); /* "measured", "published", ... */

struct bt_counts {
	const struct bt_model *model;
	double *events;               /* by event index; NaN = not counted */
	double *retire_latency;       /* by retire-latency index; -1 = not measured */
	uint8_t *retire_latency_default; /* 1 = value from the vendor's published defaults */
	uint8_t *retire_latency_source;  /* enum bt_rl_source */
	double constants[BT_CONST_COUNT]; /* NaN = not given */
};

struct bt_counts *bt_counts_new(const struct bt_model *m);
void bt_counts_free(struct bt_counts *c);
/* Back to the initial state: no events, retire latencies not measured (-1), no constants. */
void bt_counts_reset(struct bt_counts *c);
/* BT_ERR_NOT_FOUND when the model does not use this event / latency / constant. */
bt_status bt_counts_set_event(struct bt_counts *c, const char *name, double value);
bt_status bt_counts_set_retire_latency(struct bt_counts *c, const char *event, double cycles);
bt_status bt_counts_set_constant(struct bt_counts *c, const char *name, double value);
/*
 * Live runs cannot measure retire latencies (that needs PEBS sampling): fill
 * every latency that is still "not measured" from the model's published
 * defaults (GNR: graniterapids_retire_latency.json MEAN). Returns how many
 * were filled; those are marked in retire_latency_default, and results say so.
 */
unsigned bt_counts_use_default_retire_latencies(struct bt_counts *c);

/* ---- results ---- */

enum bt_node_state {
	BT_NODE_OK = 0,
	BT_NODE_INVALID,   /* division by zero on its evaluation path */
	BT_NODE_MISSING,   /* needs an input that was not given */
	BT_NODE_NO_RETIRE_LATENCY, /* its arithmetic (on the branch taken) uses a retire
				    * latency not measured (-1) and the formula has no
				    * fallback for it: value NaN, no flag, raw keeps the
				    * formula's number */
};

/* What a node's value rests on where its formula reads retire latencies
 * (on the branch taken, the fallback test `rl >= 0` included): the weakest
 * source among them, in this order. Every output states it on the node. */
enum bt_node_latency {
	BT_LAT_NONE = 0,  /* reads no retire latency */
	BT_LAT_MEASURED,  /* each one it reads was measured on this machine (timed PEBS) */
	BT_LAT_GIVEN,     /* ... given with the counts */
	BT_LAT_FILE,      /* ... from --retire-latency-file */
	BT_LAT_PUBLISHED, /* a published mean stands in for one not measured (rl-published.h) */
	BT_LAT_CAP,       /* one was not given: the formula's own fallback, its cap, decides */
	BT_LAT_MISSING,   /* one was not given and the formula has no fallback: no value
			   * (BT_NODE_NO_RETIRE_LATENCY) */
	BT_LAT_COUNT
};
/* "measured", "given", "file", "published", "cap", "not_measured" ("" for none) */
const char *bt_node_latency_name(enum bt_node_latency k);

/* bt_result.exclude bits. UNTRUSTED: the node's formula reads an event a
 * check found wrong (a violated consistency rule, a failed counter health
 * check, a validation FAIL or SKIP). NOT_MEASURED: the run did not set out
 * to measure it (drill-down, --level N): a value it has comes from events
 * counted for other nodes, and neither the path nor the CPI stack may go
 * where measurement did not. */
#define BT_EXCLUDE_UNTRUSTED 1u
#define BT_EXCLUDE_NOT_MEASURED 2u
/* A tree node's value nearer 0 than this is 0 (raw keeps the formula's
 * number): the rounding of doubles where two shares of the same counts
 * cancel (Frontend_Bound - Fetch_Latency: -6.1e-16), printed "-0.00%"
 * otherwise. Far above that rounding (2^-52 = 2.2e-16 of the operands)
 * and far below anything a share can show (0.01 %% is 1e-4) or a rule
 * can tell (the tightest tolerance is 2/255): zero either way. */
#define BT_SHARE_ROUNDING 1e-12

#define BT_PATH_MAX 16
/* How every output labels a path taken by the largest share. */
#define BT_PATH_LARGEST_SHARE "largest share (the vendor defines no thresholds)"

struct bt_result {
	const struct bt_model *model;
	double *raw;             /* per node: the formula's value (percent for perfmon tree nodes) */
	double *value;           /* per node: reported value, tree nodes as fractions; NaN = none */
	uint8_t *state;          /* per node: enum bt_node_state */
	uint8_t *flag;           /* per node: threshold true (0 for invalid nodes and no threshold) */
	uint8_t *has_flag;       /* per node: the node has a threshold */
	uint8_t *flag_literal;   /* per node: the literal reading, where it differs (SRF) */
	uint8_t *formula_flag;   /* per node: the threshold as the formula computes it, also
				  * for BT_NODE_NO_RETIRE_LATENCY nodes (flag is 0 there) */
	uint8_t *exclude;        /* per node, an input set by the caller (0 after
				  * bt_result_new), bits BT_EXCLUDE_*: any bit = never
				  * on the bottleneck path; its value and flag are
				  * still computed. BT_EXCLUDE_NOT_MEASURED also keeps
				  * it out of the CPI stack (its parent's stack stops) */
	double *cpi_share;       /* per tree node: its CPI-stack component (level 1: value x
				  * CPI; below: the parent's split among its children by
				  * value, so children add up to their parent); NaN where
				  * the stack does not reach (eval.c cpi_stack) */
	double cpi;              /* cycles per instruction (NaN if not computable) */
	uint16_t path[BT_PATH_MAX]; /* bottleneck path, level 1 first */
	unsigned path_len;
	int path_largest_share;  /* 1: the model's vendor defines no thresholds, so the path
				  * follows the largest share per level (BT_PATH_LARGEST_SHARE
				  * says so in every output), not flagged nodes */
	uint16_t *missing_events;   /* events used but not given (indexes) */
	unsigned n_missing_events;
	unsigned missing_constants; /* bit c: constant c used but not given */
	unsigned n_default_retire_latency; /* latencies taken from published defaults */
	unsigned n_rl_source[BT_RL_FILE + 1]; /* latency inputs by enum bt_rl_source */
	uint8_t *latency;        /* per node: enum bt_node_latency */
	unsigned n_latency[BT_LAT_COUNT]; /* tree nodes with a value or
					   * BT_NODE_NO_RETIRE_LATENCY, not BT_EXCLUDE_NOT_MEASURED,
					   * by latency */
	int exact_int;           /* integer arithmetic beyond 2^53 was done exactly */
	struct bt_smt_decision smt; /* how HYPERTHREADING_ON was decided (bt_smt_decide) */
	double *ops;             /* scratch: one value per compiled operation */
	uint8_t *taint;          /* per operation, from the last evaluation: bit 0 a missing
				  * input, bit 1 a not-measured retire latency reached it
				  * (valid only when the evaluation had either) */
	uint64_t *rl_mask;       /* per operation: the retire latencies its value rests on
				  * (bit min(i, 63)); only for models that read any */
};

struct bt_result *bt_result_new(const struct bt_model *m);
void bt_result_free(struct bt_result *r);
/* Evaluates every node; allocates nothing. */
bt_status bt_evaluate(const struct bt_model *m, const struct bt_counts *c, struct bt_result *r);
/*
 * The retire latencies that make node a BT_NODE_NO_RETIRE_LATENCY node in
 * the last evaluation of r: indexes for bt_model_retire_latency_name(), in
 * ascending order; ret needs bt_model_retire_latency_count() entries. 0 for
 * a node in another state.
 */
unsigned bt_result_node_latencies(const struct bt_result *r, unsigned node, uint16_t *ret);

#endif
