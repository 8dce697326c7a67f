/* SPDX-License-Identifier: MIT */
/*
 * Deriving a model's consistency rules from its formulas (rules.h).
 *
 * Sum relations (the level-1 nodes sum to 1, a parent equals the sum of its
 * children) are decided numerically: the model is evaluated on DERIVE_VECTORS
 * seeded random count sets (independent counts over several magnitudes, some
 * zero, SMT on and off, every constant and retire latency random), and a
 * relation is implied when it holds to 1e-9 (relative) on every set where
 * all its terms are defined. Independent random counts exercise the
 * algebra of the formulas and nothing else: a relation that holds on all of
 * them is an identity of the formulas, not a property of some workload.
 *
 * Clamps are the one exception. The vendors guard differences against
 * counting noise with max(0, x) or max(x, 0.0001) (SPR: Fetch_Bandwidth =
 * max(0, Frontend_Bound - Fetch_Latency)); random counts activate such a
 * clamp where no consistent counts would (Fetch_Latency above
 * Frontend_Bound), and the relation then fails there. So a set on which a
 * clamp against a literal was active on the evaluated path of any term
 * does not count, for or against; at least MIN_VECTORS sets must remain.
 * The relation is then "implied wherever no clamp is active", which is what
 * a consistent PMU gives; a clamp that real counts activate is exactly the
 * finding the check is for (the clamped child no longer adds up).
 *
 * Where the level-1 sum is no identity of the formulas, because each
 * level-1 node is its own count (AMD Zen 4/5: de_no_dispatch_per_slot's
 * umasks, dispatched and retired ops; Intel's E-cores and the architectural
 * events: TOPDOWN_FE_BOUND.ALL, ..._BAD_SPECULATION.ALL, ...), the formulas
 * still say what the sum is by their shape: every level-1 node is a count
 * over the same denominator (evaluated equal on every random set), the
 * slots, and Top-Down's level 1 is a partition of the slots (Yasin, ISPASS
 * 2014, section III; AMD's pipeline.json describes each as the "fraction of
 * dispatch slots" that went one way). The sum is then a relation of the
 * hardware's counts: asserted with perf's default tolerance (5 points), as
 * the counts of independent events, not an identity, must agree.
 *
 * Fraction, IPC, fixed/general and cross-check rules need no derivation: every tree node
 * is a share of slots or cycles (all three vendor formats define the tree
 * that way), the width is the model's pipeline_width (the issue slots per
 * cycle its formulas divide by, e.g. SKL's "4 * CPU_CLK_UNHALTED.THREAD",
 * set per model in metrics/recipes.c and carried into metrics/gen), and
 * the fixed/general twins are read off the model's event table, the
 * cross-checks off its nodes (bt_node_def.cross_check).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model-internal.h"
#include "metrics/rules.h"

#define DERIVE_VECTORS 64
#define MIN_VECTORS 6
#define IDENTITY_REL 1e-9

/*
 * Tolerances when checking a tree (absolute for fractions, relative for sums
 * and counts, as perf_metric_validation.py does):
 *  - sums: the PERF_METRICS fields are 8-bit fractions of 255 rounded by the
 *    hardware one by one, so a level-2 field can exceed its level-1 field by
 *    one unit, which a clamped child (SPR Fetch_Bandwidth = max(0, FE - FL))
 *    turns into a sum off by up to 1/255 per field: 2/255 absolute. Beyond
 *    that 1 % relative, for trees whose levels were counted in different
 *    runs (drill-down) where a formula mixes them.
 *  - fractions: 0.01 absolute (one percentage point), tighter than perf's
 *    default ErrorThreshold (5 points): a share of slots a few points below
 *    zero is what a miscount or an unmeasured retire latency entering as -1
 *    produces (-3 % on LNL's mispredict nodes), and must not pass. It is
 *    above the PERF_METRICS rounding (a field one 1/255 unit off, a clamped
 *    difference of two: 2/255 = 0.0078) and the few-instruction skew of
 *    counts of one node taken in different bare-metal runs; the workload
 *    models of every built-in model stay within it (tests/suite/28).
 *  - IPC against the width, fixed against general counts: 5 % relative
 *    (perf's default again); the two counts of one event come from different
 *    counters, enabled a few instructions apart, and in drill-down from
 *    different runs.
 */
/*
 *  - cross-checks (ARCH: a PERF_METRICS level-1 share against the
 *    architectural event of the same node over TOPDOWN.SLOTS): 0.02
 *    absolute (two percentage points). Both count the same slots of the
 *    same window, but PERF_METRICS gives each share as an 8-bit field that
 *    the formula renormalises by the sum of the four: a share can be off
 *    the exact event ratio by one unit of its field and two of the sum,
 *    3/255 = 1.2 points. The architectural events sit on general counters,
 *    possibly in another group, i.e. another run of the same deterministic
 *    workload with a few instructions of skew at the window's edges (well
 *    under a tenth of a point of a window's slots). Two points is above both
 *    together, and still catches an event that counts double on a node of
 *    2 % or more, far below the 15-20 point thresholds that flag a level-1
 *    node.
 */
#define CROSS_TOL_ABS 0.02
#define SUM_TOL_ABS (2.0 / 255)
#define SUM_TOL_REL 0.01
#define FRACTION_TOL_ABS 0.01
#define PARTITION_TOL_ABS 0.05
#define IPC_TOL_REL 0.05
#define COUNT_TOL_REL 0.05

const char *bt_rule_kind_name(enum bt_rule_kind k)
{
	static const char *const names[BT_RULE_KIND_COUNT] = {
		"level1_sum", "parent_sum", "fraction", "ipc_width", "fixed_general",
		"cross_check", "slots_counted",
	};
	return (unsigned)k < BT_RULE_KIND_COUNT ? names[k] : "?";
}

static uint64_t next_rand(uint64_t *s)
{
	/* splitmix64: deterministic and good enough for test inputs */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
	return (double)(next_rand(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* One random count set: integer counts (Python ints in the vendor oracles)
 * at one of several magnitudes, some of them zero in a quarter of the sets. */
static void random_counts(struct bt_counts *c, uint64_t *s, unsigned vec)
{
	const struct bt_model *m = c->model;
	double scale = pow(10, 3 + 7 * uniform(s));
	int zeros = vec % 4 == 3;

	for (unsigned e = 0; e < m->def->n_events; e++) {
		double v = floor(scale * (0.02 + uniform(s)));
		if (zeros && uniform(s) < 0.15)
			v = 0;
		c->events[e] = v;
	}
	for (unsigned i = 0; i < m->n_rl; i++)
		c->retire_latency[i] = 1 + floor(60 * uniform(s));
	int ht = (int)(next_rand(s) & 1);
	c->constants[BT_C_HYPERTHREADING_ON] = ht;
	c->constants[BT_C_THREADS_PER_CORE] = ht ? 2 : 1;
	c->constants[BT_C_SYSTEM_TSC_FREQ] = floor(1e9 * (1 + 3 * uniform(s)));
	c->constants[BT_C_TSC_HZ] = floor(1e9 * (1 + 3 * uniform(s)));
	c->constants[BT_C_DURATIONTIMEINMILLISECONDS] = 1 + 1000 * uniform(s);
	c->constants[BT_C_SOCKET_COUNT] = 1 + (double)(next_rand(s) & 1);
	c->constants[BT_C_CORES_PER_SOCKET] = 2 + (double)(next_rand(s) % 63);
	c->constants[BT_C_CHAS_PER_SOCKET] = 2 + (double)(next_rand(s) % 63);
	c->constants[BT_C_NUM_CPUS] = 2 + (double)(next_rand(s) % 255);
	c->constants[BT_C_CORE_WIDE] = (double)(next_rand(s) & 1);
}

static int is_literal(const struct bt_model *m, uint32_t i)
{
	return m->ops[i].code == OP_IMM || m->ops[i].code == OP_IMMI;
}

/*
 * clamp[i] = 1 when operation i's value went through an active clamp: a
 * min/max whose literal operand won, or a d_ratio that returned its 0 for a
 * zero divisor; inherited from the operands on the path actually taken.
 */
static void find_clamps(const struct bt_model *m, const double *v, uint8_t *clamp)
{
	for (uint32_t i = 0; i < m->n_ops; i++) {
		const struct bt_op *o = &m->ops[i];
		int ar = bt_op_arity(o->code);
		uint8_t c = 0;

		switch (o->code) {
		case OP_IF:
			c = clamp[o->b] | (isnan(v[o->b]) ? 0 : v[o->b] != 0 ? clamp[o->a] : clamp[o->c]);
			break;
		case OP_MIN:
		case OP_MAX:
			c = clamp[o->a] | clamp[o->b];
			if (!isnan(v[i]) && v[o->a] != v[o->b])
				c |= (is_literal(m, o->a) && v[i] == v[o->a]) ||
				     (is_literal(m, o->b) && v[i] == v[o->b]);
			break;
		case OP_DRATIO:
			c = clamp[o->b] | (v[o->b] == 0 ? 1 : clamp[o->a]);
			break;
		default:
			if (ar >= 1)
				c |= clamp[o->a];
			if (ar >= 2)
				c |= clamp[o->b];
			if (ar >= 3)
				c |= clamp[o->c];
			break;
		}
		clamp[i] = c;
	}
}

/* The tallies of one candidate relation over the random sets. */
struct tally {
	unsigned defined, held;
};

/* lhs against the sum of the terms; `one` = compare the sum with 1 instead. */
static void tally_sum(const struct bt_model *m, const struct bt_result *r, const uint8_t *clamp,
		      int lhs_node, const uint16_t *terms, unsigned n, struct tally *t)
{
	double sum = 0, mag = 0, lhs = 1;

	if (lhs_node >= 0) {
		lhs = r->value[lhs_node];
		if (isnan(lhs) || clamp[m->node_value[lhs_node]])
			return;
	}
	for (unsigned k = 0; k < n; k++) {
		double x = r->value[terms[k]];
		if (isnan(x) || clamp[m->node_value[terms[k]]])
			return;
		sum += x;
		mag += fabs(x);
	}
	if (fabs(lhs) > mag)
		mag = fabs(lhs);
	t->defined++;
	t->held += fabs(lhs - sum) <= IDENTITY_REL * mag + 1e-15;
}

/*
 * The op a node's value divides by, when the value is a share: x / d,
 * d_ratio(x, d), or a literal times one (100 * x / d); NO_OP otherwise.
 */
static uint32_t share_divisor(const struct bt_model *m, uint32_t op)
{
	for (;;) {
		const struct bt_op *o = &m->ops[op];
		if (o->code == OP_DIV || o->code == OP_DRATIO)
			return o->b;
		if (o->code != OP_MUL)
			return NO_OP;
		if (is_literal(m, o->a))
			op = o->b;
		else if (is_literal(m, o->b))
			op = o->a;
		else
			return NO_OP;
	}
}

/* Do all level-1 nodes divide by the same value on this count set?
 * 1 yes, 0 no, -1 undefined (a divisor NaN or 0). */
static int same_denominator(const struct bt_model *m, const struct bt_result *r,
			    const uint32_t *div)
{
	double d0 = r->ops[div[0]];
	if (isnan(d0) || d0 == 0)
		return -1;
	for (unsigned k = 1; k < m->n_roots; k++) {
		double d = r->ops[div[k]];
		if (isnan(d) || d == 0)
			return -1;
		if (fabs(d - d0) > IDENTITY_REL * fabs(d0))
			return 0;
	}
	return 1;
}

static int is_implied(const struct tally *t)
{
	return t->defined >= MIN_VECTORS && t->held == t->defined;
}

static struct bt_rule *add_rule(struct bt_rule_set *rs, uint8_t kind)
{
	struct bt_rule *r = &rs->rules[rs->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->node = r->node_b = r->event_a = r->event_b = -1;
	rs->n_kind[kind]++;
	return r;
}

/* An event counted on a fixed counter, and the general-counter event Intel
 * names after it with "_P" (INST_RETIRED.ANY / INST_RETIRED.ANY_P,
 * CPU_CLK_UNHALTED.THREAD / .THREAD_P, TOPDOWN_RETIRING.ALL / .ALL_P). */
static void add_fixed_general(const struct bt_model *m, struct bt_rule_set *rs)
{
	const struct bt_model_def *def = m->def;

	for (unsigned e = 0; e < def->n_events; e++) {
		const struct bt_event *ev = &def->events[e];
		char twin[160];
		if (ev->source != BT_SRC_PMC || ev->fixed == BT_EV_NO_FIXED)
			continue;
		if ((size_t)snprintf(twin, sizeof(twin), "%s_P", ev->name) >= sizeof(twin))
			continue;
		int g = bt_model_event_find(m, twin);
		if (g < 0 || def->events[g].fixed != BT_EV_NO_FIXED)
			continue;
		struct bt_rule *r = add_rule(rs, BT_RULE_FIXED_GENERAL);
		r->event_a = (int)e;
		r->event_b = g;
		r->tol_rel = COUNT_TOL_REL;
	}
}

/* TOPDOWN.SLOTS (fixed counter 3) is the issue slots of the cycles the core
 * ran: it cannot read 0 while the cycles count, nor while the PERF_METRICS
 * fields, shares of those slots, do (SDM vol. 3B 21.3.9.3 "Performance
 * Metrics": the fields are fractions of the slots counted by fixed counter
 * 3). A zero there (a dead slots counter, or RDPMC reading another counter
 * for it) leaves level 1 a share of nothing. */
static void add_slots_counted(const struct bt_model *m, struct bt_rule_set *rs)
{
	const struct bt_model_def *def = m->def;
	int slots = bt_model_event_find(m, "TOPDOWN.SLOTS");
	int cycles = bt_model_event_find(m, "CPU_CLK_UNHALTED.THREAD");
	int16_t ev[BT_RULE_MAX_EVIDENCE];
	unsigned n = 0;

	if (slots < 0)
		return;
	if (cycles >= 0)
		ev[n++] = (int16_t)cycles;
	for (unsigned e = 0; e < def->n_events && n < BT_RULE_MAX_EVIDENCE; e++)
		if (def->events[e].source == BT_SRC_PERF_METRICS)
			ev[n++] = (int16_t)e;
	if (!n)
		return;
	struct bt_rule *r = add_rule(rs, BT_RULE_SLOTS_COUNTED);
	r->event_a = slots;
	memcpy(r->evidence, ev, n * sizeof(ev[0]));
	r->n_evidence = n;
}

bt_status bt_rules_derive(const struct bt_model *m, struct bt_rule_set **ret, struct bt_diag *d)
{
	const struct bt_model_def *def = m->def;
	unsigned nn = def->n_nodes;
	struct bt_rule_set *rs = calloc(1, sizeof(*rs));
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	struct tally *tal = calloc(nn + 1, sizeof(*tal)); /* [nn] = the level-1 sum */
	uint8_t *clamp = malloc(m->n_ops + 1);
	uint32_t *div = calloc(m->n_roots + 1, sizeof(*div));
	struct tally shared = { 0 }; /* count sets where the level-1 divisors agree */
	int shares = m->n_roots > 1;
	bt_status st = BT_ERR_NOMEM;
	uint64_t seed = 0x5eed0bad7e11ull;

	*ret = NULL;
	if (!rs || !c || !r || !tal || !clamp || !div)
		goto out;
	for (unsigned k = 0; shares && k < m->n_roots; k++)
		if ((div[k] = share_divisor(m, m->node_value[m->roots[k]])) == NO_OP)
			shares = 0;
	rs->model = m;
	/* at most: one sum per node with children, one level-1 sum, one
	 * fraction per node, one cross-check per node, IPC, one twin per event */
	rs->rules = calloc(3 * nn + 3 + def->n_events, sizeof(*rs->rules));
	rs->not_implied = calloc(nn + 1, sizeof(*rs->not_implied));
	if (!rs->rules || !rs->not_implied)
		goto out;
	for (unsigned vec = 0; vec < DERIVE_VECTORS; vec++) {
		random_counts(c, &seed, vec);
		if ((st = bt_evaluate(m, c, r)) != BT_OK)
			goto out;
		find_clamps(m, r->ops, clamp);
		for (unsigned i = 0; i < nn; i++)
			if (m->n_children[i])
				tally_sum(m, r, clamp, (int)i, m->child_list + m->child_start[i],
					  m->n_children[i], &tal[i]);
		if (m->n_roots > 1)
			tally_sum(m, r, clamp, -1, m->roots, m->n_roots, &tal[nn]);
		if (shares) {
			int same = same_denominator(m, r, div);
			shared.defined += same >= 0;
			shared.held += same > 0;
		}
	}
	rs->vectors = DERIVE_VECTORS;
	if (m->n_roots > 1) {
		if (is_implied(&tal[nn])) {
			struct bt_rule *x = add_rule(rs, BT_RULE_LEVEL1_SUM);
			x->terms = m->roots;
			x->n_terms = m->n_roots;
			x->tol_abs = SUM_TOL_ABS;
			x->tol_rel = SUM_TOL_REL;
		} else if (shares && is_implied(&shared)) {
			struct bt_rule *x = add_rule(rs, BT_RULE_LEVEL1_SUM);
			x->terms = m->roots;
			x->n_terms = m->n_roots;
			x->partition = 1;
			x->tol_abs = PARTITION_TOL_ABS;
		} else {
			rs->not_implied[rs->n_not_implied++] =
				(struct bt_rule_not_implied){ -1, tal[nn].defined, tal[nn].held };
		}
	}
	for (unsigned i = 0; i < nn; i++) {
		if (!m->n_children[i])
			continue;
		if (!is_implied(&tal[i])) {
			rs->not_implied[rs->n_not_implied++] =
				(struct bt_rule_not_implied){ (int)i, tal[i].defined, tal[i].held };
			continue;
		}
		struct bt_rule *x = add_rule(rs, BT_RULE_PARENT_SUM);
		x->node = (int)i;
		x->terms = m->child_list + m->child_start[i];
		x->n_terms = m->n_children[i];
		x->tol_abs = SUM_TOL_ABS;
		x->tol_rel = SUM_TOL_REL;
	}
	for (unsigned i = 0; i < nn; i++) {
		if (def->nodes[i].kind != BT_NODE_TREE)
			continue;
		struct bt_rule *x = add_rule(rs, BT_RULE_FRACTION);
		x->node = (int)i;
		x->tol_abs = FRACTION_TOL_ABS;
	}
	if (m->cpi_node >= 0 && def->pipeline_width) {
		struct bt_rule *x = add_rule(rs, BT_RULE_IPC_WIDTH);
		x->node = m->cpi_node;
		x->bound = def->pipeline_width;
		x->tol_rel = IPC_TOL_REL;
	}
	add_fixed_general(m, rs);
	add_slots_counted(m, rs);
	for (unsigned i = 0; i < nn; i++) {
		int t = bt_model_cross_check_of(m, i);
		if (t < 0)
			continue;
		struct bt_rule *x = add_rule(rs, BT_RULE_CROSS_CHECK);
		x->node = t;
		x->node_b = (int)i;
		x->tol_abs = CROSS_TOL_ABS;
	}
	*ret = rs;
	rs = NULL;
	st = BT_OK;
out:
	if (st != BT_OK)
		bt_diag_set(d, "deriving the consistency rules of %s: %s", def->id,
			    st == BT_ERR_NOMEM ? "out of memory" : "evaluation failed");
	bt_rules_free(rs);
	bt_counts_free(c);
	bt_result_free(r);
	free(tal);
	free(clamp);
	free(div);
	return st;
}

void bt_rules_free(struct bt_rule_set *rs)
{
	if (!rs)
		return;
	free(rs->rules);
	free(rs->not_implied);
	free(rs);
}

static size_t put(char *buf, size_t size, size_t at, const char *s)
{
	if (at < size)
		snprintf(buf + at, size - at, "%s", s);
	return at + strlen(s);
}

static size_t put_terms(const struct bt_model *m, const struct bt_rule *x, char *buf, size_t size,
			size_t at)
{
	for (unsigned k = 0; k < x->n_terms; k++) {
		if (k)
			at = put(buf, size, at, " + ");
		at = put(buf, size, at, bt_model_node(m, x->terms[k])->name);
	}
	return at;
}

void bt_rule_describe(const struct bt_rule_set *rs, unsigned i, char *buf, size_t size)
{
	const struct bt_model *m = rs->model;
	const struct bt_rule *x = &rs->rules[i];
	size_t at = 0;

	if (!size)
		return;
	buf[0] = 0;
	switch (x->kind) {
	case BT_RULE_LEVEL1_SUM:
		at = put_terms(m, x, buf, size, at);
		put(buf, size, at, x->partition ? " = 1 (each a share of the same slots)" : " = 1");
		break;
	case BT_RULE_PARENT_SUM:
		at = put(buf, size, at, bt_model_node(m, (unsigned)x->node)->name);
		at = put(buf, size, at, " = ");
		put_terms(m, x, buf, size, at);
		break;
	case BT_RULE_FRACTION:
		snprintf(buf, size, "0 <= %s <= 1", bt_model_node(m, (unsigned)x->node)->name);
		break;
	case BT_RULE_IPC_WIDTH:
		snprintf(buf, size, "IPC = 1 / %s <= %g (pipeline width)",
			 bt_model_node(m, (unsigned)x->node)->name, x->bound);
		break;
	case BT_RULE_FIXED_GENERAL:
		snprintf(buf, size, "%s (fixed counter) = %s (general counter)",
			 bt_model_event(m, (unsigned)x->event_a)->name,
			 bt_model_event(m, (unsigned)x->event_b)->name);
		break;
	case BT_RULE_SLOTS_COUNTED:
		snprintf(buf, size, "%s > 0 where %s counted", bt_model_event(m, (unsigned)x->event_a)->name,
			 x->n_evidence > 1 ? "the cycles or the PERF_METRICS fields" : "the cycles");
		break;
	case BT_RULE_CROSS_CHECK: {
		/* The cross-check's formula names the events it reads. */
		const struct bt_node_def *b = bt_model_node(m, (unsigned)x->node_b);
		snprintf(buf, size, "%s = %s (cross-check: %s)",
			 bt_model_node(m, (unsigned)x->node)->name, b->name, b->formula);
		break;
	}
	}
}
