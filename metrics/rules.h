/* SPDX-License-Identifier: MIT */
/*
 * Consistency rules of a Top-Down tree: relations that every evaluated tree
 * (measured, simulated or replayed) must satisfy, derived per model from its
 * own formulas, and a check of them on one evaluated tree.
 *
 * Anchor: Linux perf's tools/perf/tests/shell/lib/perf_metric_validation.py
 * checks metric values against rules in a hand-written JSON file per CPU
 * (perf_metric_validation_rules.json): every metric non-negative
 * (PositiveValueTest), percentages within [0, 100] (SingleMetricTest), and
 * "RelationshipTest" formulas such as the four level-1 metrics summing to
 * 100, each with an error threshold (5 by default, in percent points,
 * denormalized against the upper bound). baretop takes from it the kinds of
 * rule (range, sum), the idea of a stated tolerance per rule and the 5 %
 * default for ranges. It goes beyond it by deriving the rules from each
 * model's formulas instead of listing them by hand: a sum relation is
 * asserted only where the formulas imply it (checked numerically on many
 * random count sets, see rules.c), so a relation that holds in one vendor
 * release and not in the next is neither missed nor falsely asserted; and
 * by checking counts as well as metrics (a fixed counter and its
 * general-counter twin).
 */
#ifndef METRICS_RULES_H
#define METRICS_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "metrics/model.h"

#define BT_RULE_MAX_EVIDENCE 12

enum bt_rule_kind {
	BT_RULE_LEVEL1_SUM = 0, /* the level-1 nodes sum to 1 (an identity of the formulas,
				 * or, with `partition`, of the slots they share) */
	BT_RULE_PARENT_SUM,     /* a parent equals the sum of its children */
	BT_RULE_FRACTION,       /* a tree node (a fraction of slots or cycles) within [0, 1] */
	BT_RULE_IPC_WIDTH,      /* instructions per cycle at most the pipeline width */
	BT_RULE_FIXED_GENERAL,  /* a fixed counter's event and its general-counter twin agree */
	BT_RULE_CROSS_CHECK,    /* a level-1 node and its cross-check node (the same share
				 * from other events: ARCH's architectural event over the
				 * slots beside PERF_METRICS) agree */
	BT_RULE_SLOTS_COUNTED,  /* TOPDOWN.SLOTS is not 0 where the cycles or the
				 * PERF_METRICS fields (shares of the slots) are not */
	BT_RULE_KIND_COUNT,
};

struct bt_rule {
	uint8_t kind;            /* enum bt_rule_kind */
	int node;                /* PARENT_SUM: the parent; FRACTION, CROSS_CHECK: the node;
				  * else -1 */
	int node_b;              /* CROSS_CHECK: the cross-check node; else -1 */
	const uint16_t *terms;   /* LEVEL1_SUM: the roots; PARENT_SUM: the children */
	unsigned n_terms;
	int event_a, event_b;    /* FIXED_GENERAL: the fixed event and its twin;
				  * SLOTS_COUNTED: TOPDOWN.SLOTS in event_a; else -1 */
	int16_t evidence[BT_RULE_MAX_EVIDENCE]; /* SLOTS_COUNTED: the events that say the core
						 * ran (the cycles, the PERF_METRICS fields) */
	unsigned n_evidence;
	double bound;            /* IPC_WIDTH: the width */
	/* LEVEL1_SUM not implied by the formulas' algebra but by their shape:
	 * each level-1 node is its own count over one denominator (the slots),
	 * and Top-Down's level 1 partitions the slots (AMD Zen 4/5, Intel's
	 * E-cores, the architectural events): a relation of the hardware's
	 * counts, checked with perf's default tolerance. */
	uint8_t partition;
	/* held when |difference| <= max(tol_abs, tol_rel * |reference|) */
	double tol_abs, tol_rel;
};

/* A sum relation the tree's shape suggests but the formulas do not imply. */
struct bt_rule_not_implied {
	int node;                /* the parent; -1 for the level-1 sum */
	unsigned vectors;        /* random count sets on which all terms were defined
				  * and no clamp (max/min against a literal) was active */
	unsigned held;           /* ... of which the relation held */
};

struct bt_rule_set {
	const struct bt_model *model;
	struct bt_rule *rules;
	unsigned n;
	unsigned n_kind[BT_RULE_KIND_COUNT];
	struct bt_rule_not_implied *not_implied;
	unsigned n_not_implied;
	unsigned vectors;        /* random count sets the derivation used */
};

/* Derives the rules of a model (deterministic: the same rules every time). */
bt_status bt_rules_derive(const struct bt_model *m, struct bt_rule_set **ret, struct bt_diag *d);
void bt_rules_free(struct bt_rule_set *rs);

const char *bt_rule_kind_name(enum bt_rule_kind k);
/* "Frontend_Bound = Fetch_Latency + Fetch_Bandwidth", "0 <= Assists <= 1", ... */
void bt_rule_describe(const struct bt_rule_set *rs, unsigned i, char *buf, size_t size);

/* ---- checking one evaluated tree ---- */

enum bt_rule_state {
	BT_RULE_HELD = 0,
	BT_RULE_VIOLATED,
	BT_RULE_NA,              /* an input was not measured (or a value not computable) */
};

struct bt_rule_verdict {
	uint8_t state;           /* enum bt_rule_state */
	double lhs, rhs;         /* the two sides (a bound rule: the value and its bound) */
	double diff;             /* lhs - rhs; a bound rule: how far beyond the bound (0 inside) */
	double tol;              /* the tolerance that applied */
	uint8_t no_retire_latency; /* NA because a node of the rule has no value: its
				    * formula needs a retire latency not measured */
	uint8_t undefined;       /* LEVEL1_SUM violated because every level-1 node is a
				  * division by zero with all its counts given (the
				  * slots or cycles counted 0); IPC_WIDTH violated
				  * because CPI is (no cycles or no instructions) */
	uint8_t unclamped;       /* FRACTION: a clamp against a literal (max(0, x),
				  * min(x, 1)) fired on the node's value, so lhs is the
				  * value the formula had before it: the clamp hid a
				  * share outside [0, 1] */
};

struct bt_consistency {
	const struct bt_rule_set *rules;
	struct bt_rule_verdict *verdict;  /* one per rule */
	unsigned n_held, n_violated, n_na;
	unsigned n_na_no_retire_latency; /* of n_na: no_retire_latency */
};

struct bt_consistency *bt_consistency_new(const struct bt_rule_set *rs);
void bt_consistency_free(struct bt_consistency *cs);
/* Checks every rule on a result just evaluated from c (bt_evaluate(m, c, r)
 * must be the last evaluation of r: the rules read the values it computed). */
void bt_consistency_check(struct bt_consistency *cs, const struct bt_counts *c,
			  const struct bt_result *r);
/*
 * The events rule i involves (on the branches the evaluation of r took), as
 * event indexes in ascending order; ret needs bt_model_event_count() entries.
 */
unsigned bt_rule_events(const struct bt_rule_set *rs, unsigned i, const struct bt_result *r,
			uint16_t *ret);

/*
 * The events violated rule i points at (0 when it is not violated): a
 * share below 0, the events of its numerator (rules-check.c numerator_of:
 * a positive divisor cannot make it negative); a rule violated because it
 * is undefined (a division by zero with every count of c given), its
 * events that counted 0; any other violation, every event it involves
 * (bt_rule_events). The nodes whose formulas read one of
 * them are not to be trusted. Ascending event indexes; ret needs
 * bt_model_event_count() entries.
 */
unsigned bt_rule_suspects(const struct bt_rule_set *rs, unsigned i, const struct bt_consistency *cs,
			  const struct bt_counts *c, const struct bt_result *r, uint16_t *ret);

/* ---- trusting the nodes of a tree ---- */

/* Why a node is not trusted: the first event its formula reads that did
 * not pass validation (--bring-up) or that a violated consistency rule
 * names (event "" = trusted). */
struct bt_untrust {
	char event[96];
	char check[128];     /* the check id, "event:EVENT@kernel"; for CROSS the
			      * cross-check rule with its two values */
	char verdict[8];     /* "FAIL" or "SKIP" (validation), "CROSS" (the
			      * node's cross-check rule was violated), "RULE"
			      * (a violated consistency rule names the event;
			      * check: the rule, how far off, its tolerance) */
};

/*
 * The nodes a checked tree cannot be trusted for (rules-untrust.c), the one
 * function `run` (app/count-run.c) and `replay` share: every node whose
 * value formula reads an event a violated rule points at
 * (bt_rule_suspects) is untrusted[node] "RULE" with the rule, how far off
 * and its tolerance; a level-1 node whose cross-check rule is violated is
 * "CROSS". Each gets BT_EXCLUDE_UNTRUSTED in r->exclude: evaluate again for
 * the path without them. An entry of untrusted[] already set (validation's,
 * --bring-up) stands; ev_untrust (per event, or NULL): validation's verdicts,
 * an event that FAILed explains alone a violated rule it is in. constants as
 * for bt_model_node_value_events. Returns how many nodes it marked, and in
 * *n_cross (may be NULL) how many of them CROSS.
 */
unsigned bt_rules_untrust(const struct bt_consistency *cs, const struct bt_counts *c, struct bt_result *r,
			  const double *constants, const struct bt_untrust *ev_untrust,
			  struct bt_untrust *untrusted, unsigned *n_cross);

#endif
