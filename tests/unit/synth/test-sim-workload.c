/* SPDX-License-Identifier: MIT */
/*
 * The workload model behind the simulated PMU (synth/workload-counts.c):
 * for one model of each family (SKL, ICX, SPR, ADL P and E cores, LNL/ARL
 * P and E cores, Zen 4), the counts of a workload's profile evaluate to a
 * tree that holds every consistency rule the counts reach (metrics/rules.h),
 * with the workload's character on top; and one event made to miscount (as
 * --sim-miscount does) breaks a rule that names that event.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch/sim/sim.h"
#include "synth/count-sources.h"
#include "synth/wl-profile.h"
#include "metrics/builtin.h"
#include "metrics/rules.h"
#include "workloads/workload.h"
#include "tests/unit/lib/test.h"

extern const struct bt_workload bt_wl_ptr_chase_dram, bt_wl_branch_mispredict;

struct run {
	struct bt_model *m;
	struct bt_rule_set *rs;
	struct bt_counts *c;
	struct bt_result *r;
	struct bt_consistency *cs;
	struct bt_sim_count *src;
};

static int open_run(struct run *x, const char *id)
{
	struct bt_diag d = { "" };
	const struct bt_model_def *def = bt_builtin_find(id);
	memset(x, 0, sizeof(*x));
	if (!def || bt_model_open(def, &x->m, &d) != BT_OK ||
	    bt_rules_derive(x->m, &x->rs, &d) != BT_OK)
		return -1;
	x->c = bt_counts_new(x->m);
	x->r = bt_result_new(x->m);
	x->cs = bt_consistency_new(x->rs);
	x->src = calloc(bt_model_event_count(x->m) + 1, sizeof(*x->src));
	return x->c && x->r && x->cs && x->src ? 0 : -1;
}

static void close_run(struct run *x)
{
	free(x->src);
	bt_consistency_free(x->cs);
	bt_result_free(x->r);
	bt_counts_free(x->c);
	bt_rules_free(x->rs);
	bt_model_close(x->m);
}

static bool wl_param(const void *ctx, const char *name, uint64_t *ret)
{
	return bt_wl_config_get(ctx, name, ret);
}

/* Count the workload model into x->c (as the simulated PMU would deliver
 * it), optionally with `bad` multiplied by `scale`, then evaluate and check. */
static int count(struct run *x, const struct bt_workload *wl, double width, const char *bad,
		 double scale)
{
	unsigned n = bt_model_event_count(x->m);
	const struct bt_event **evp = calloc(n + 1, sizeof(*evp));
	char unknown[1024];
	struct bt_wl_config cfg;
	if (!evp)
		return -1;
	for (unsigned i = 0; i < n; i++)
		evp[i] = bt_model_event(x->m, i);
	bt_wl_config_init(&cfg, wl, BT_WL_QUICK);
	const struct bt_wl_profile *p = bt_wl_profile_find(wl->name);
	bt_status st = p ? bt_sim_workload_counts(evp, n, p, bt_wl_profile_insts(p, wl_param, &cfg),
						  width, 7, x->src, unknown, sizeof(unknown))
			 : BT_ERR_INVALID;
	free(evp);
	if (st != BT_OK)
		return -1;
	bt_counts_reset(x->c);
	x->c->constants[BT_C_HYPERTHREADING_ON] = 0;
	x->c->constants[BT_C_THREADS_PER_CORE] = 1;
	for (unsigned i = 0; i < n; i++) {
		double v = (double)x->src[i].count;
		const char *name = bt_model_event(x->m, i)->name;
		if (bad && !strcmp(name, bad))
			v *= scale;
		x->c->events[i] = v;
	}
	if (bt_evaluate(x->m, x->c, x->r) != BT_OK)
		return -1;
	bt_consistency_check(x->cs, x->c, x->r);
	return 0;
}

/* Does a violated rule name event `name`? */
static bool violation_names(struct run *x, const char *name)
{
	int ev = bt_model_event_find(x->m, name);
	uint16_t *idx = calloc(bt_model_event_count(x->m) + 1, sizeof(*idx));
	bool found = false;
	for (unsigned i = 0; idx && ev >= 0 && i < x->rs->n && !found; i++) {
		if (x->cs->verdict[i].state != BT_RULE_VIOLATED)
			continue;
		unsigned k = bt_rule_events(x->rs, i, x->r, idx);
		for (unsigned j = 0; j < k; j++)
			found |= idx[j] == ev;
	}
	free(idx);
	return found;
}

static double node(struct run *x, const char *name)
{
	int i = bt_model_node_find(x->m, name);
	return i < 0 ? NAN : x->r->value[i];
}

static void family(const char *id, double width, const char *top, const char *bad, double scale)
{
	struct run x;
	CHECK(open_run(&x, id) == 0);
	if (!x.cs) {
		close_run(&x);
		return;
	}
	CHECK(count(&x, &bt_wl_ptr_chase_dram, width, NULL, 1) == 0);
	CHECK_EQ_INT(x.cs->n_violated, 0);
	CHECK(x.cs->n_held > 0);
	CHECK(node(&x, top) > 0.5);
	CHECK(count(&x, &bt_wl_branch_mispredict, width, NULL, 1) == 0);
	CHECK_EQ_INT(x.cs->n_violated, 0);

	CHECK(count(&x, &bt_wl_ptr_chase_dram, width, bad, scale) == 0);
	CHECK(x.cs->n_violated > 0);
	CHECK(violation_names(&x, bad));
	close_run(&x);
}

TEST(skl_miscount_is_named) { family("SKL", 4, "Backend_Bound", "UOPS_ISSUED.ANY", 40); }
TEST(icx_miscount_is_named) { family("ICX", 5, "Backend_Bound", "CPU_CLK_UNHALTED.THREAD_P", 2); }
TEST(spr_miscount_is_named) { family("SPR", 6, "Backend_Bound", "MEMORY_ACTIVITY.STALLS_L3_MISS", 3); }
TEST(adl_p_miscount_is_named) { family("ADL-GLC", 6, "Backend_Bound", "MEMORY_ACTIVITY.STALLS_L2_MISS", 3); }
TEST(adl_e_miscount_is_named) { family("ADL-GRT", 5, "Backend_Bound", "TOPDOWN_FE_BOUND.ALL", 30); }
TEST(lnl_p_miscount_is_named) { family("LNL-LNC", 8, "Backend_Bound", "CPU_CLK_UNHALTED.THREAD_P", 0.5); }
TEST(arl_e_miscount_is_named) { family("ARL-SKT", 8, "Backend_Bound", "TOPDOWN_RETIRING.ALL", 100); }
TEST(zen4_miscount_is_named) { family("ZEN4", 6, "backend_bound", "ex_ret_ops", 30); }

/* The profiles are keyed by workload name (synth/workload-profiles.c): every
 * built-in workload has one, and every profile names a built-in workload,
 * so a renamed workload cannot silently lose its model. Instructions per
 * run follow the parameters: multiply1 at its quick n = 128 retires
 * 6 x 128 x 128 by its profile (6 instructions per inner iteration). */
TEST(every_workload_has_a_profile)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);
	struct bt_wl_config cfg;

	for (size_t k = 0; k < n; k++)
		CHECK(bt_wl_profile_find(all[k]->name) != NULL);
	size_t k = 0;
	for (; bt_wl_profile_name(k); k++)
		CHECK(bt_wl_find(bt_wl_profile_name(k)) != NULL);
	CHECK_EQ_INT((int)k, (int)n);
	CHECK(bt_wl_profile_find("no-such-workload") == NULL);
	CHECK(bt_wl_profile_find(NULL) == NULL);
	bt_wl_config_init(&cfg, bt_wl_find("multiply1"), BT_WL_QUICK);
	CHECK(bt_wl_profile_insts(bt_wl_profile_find("multiply1"), wl_param, &cfg) == 6.0 * 128 * 128);
	CHECK(bt_wl_profile_insts(NULL, wl_param, &cfg) == 0);
}
