/* SPDX-License-Identifier: MIT */
/*
 * Each tree's SMT formulas decided from its own measured sibling, on the
 * machine double's simulated Skylake (i7-8700K CPUID: SMT on, 4 general
 * counters per thread):
 *
 *  - from every run of every step of the tree, not from its last step
 *    (a drill-down whose sibling ran during level 1 and idled after);
 *  - a node untrusted by the bring-up only for the events of the branch
 *    its value is computed from: CPU_CLK_UNHALTED.THREAD_ANY, which
 *    validation FAILs here (tests/data/validate/thread-any-dead.json
 *    expects it to count nothing, as a dead AnyThread encoding would) and
 *    only the SMT branches read (intel/perfmon skylake_metrics.json:
 *    CORE_CLKS = THREAD_ANY / 2 if smt_on else CLKS), untrusts
 *    Frontend_Bound and Retiring when the sibling ran, and not when it
 *    idled.
 *
 * The sibling is idle or busy as firmware leaves it: an AP halted in MWAIT
 * (PcdCpuApLoopMode 2) or spinning in the run-loop (3), host/mp-double.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/count.h"
#include "base/array.h"
#include "host/machine-double.h"
#include "pmu/cpu-detect.h"
#include "tests/unit/lib/machine-run.h"
#include "tests/unit/lib/test.h"

static const struct bt_json *tree_of(const struct md_run *r)
{
	return bt_json_get(bt_json_get(md_outcome(r, "multiply1", 0), "counted"), "tree");
}

static bool untrusted(const struct bt_json *tree, const char *node)
{
	const struct bt_json *u = bt_json_get(bt_json_get(bt_json_get(tree, "nodes"), node),
					      "untrusted");
	return u && strcmp(md_str(u, "event", NULL), "CPU_CLK_UNHALTED.THREAD_ANY") == 0 &&
	       strcmp(md_str(u, "verdict", NULL), "FAIL") == 0;
}

static double smt_num(const struct bt_json *tree, const char *key)
{
	const struct bt_json *v = bt_json_get(bt_json_get(tree, "smt"), key);
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : NAN;
}

TEST(bring_up_untrusts_only_the_branch_the_tree_is_evaluated_with)
{
	static const struct {
		const char *loop;
		int ht;          /* the branch the measured sibling decides */
		bool untrusted;  /* Frontend_Bound and Retiring read THREAD_ANY */
	} cases[] = { { "mwait", 0, false }, { "run", 1, true } };

	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		struct md_run r;
		char spec[64];

		snprintf(spec, sizeof(spec), "1x2,cpu=skl,loop=%s", cases[i].loop);
		if (!md_run(&r, spec, "--bring-up --sim=skl --model SKL --level 1 -w multiply1:n=64 "
			    "--reps 2 --validate-spec tests/data/validate/thread-any-dead.json"))
			return;
		CHECK_MSG(strstr(r.out, "FAIL  event:CPU_CLK_UNHALTED.THREAD_ANY@"),
			  "loop=%s: THREAD_ANY not FAILed by the bring-up", cases[i].loop);
		const struct bt_json *t = tree_of(&r);
		CHECK_MSG(t && smt_num(t, "hyperthreading_on") == cases[i].ht,
			  "loop=%s: HYPERTHREADING_ON %g, want %d", cases[i].loop,
			  t ? smt_num(t, "hyperthreading_on") : NAN, cases[i].ht);
		const char *nodes[] = { "Frontend_Bound", "Retiring" };
		for (size_t k = 0; t && k < 2; k++)
			CHECK_MSG(untrusted(t, nodes[k]) == cases[i].untrusted,
				  "loop=%s (sibling %s): %s %s untrusted", cases[i].loop,
				  cases[i].ht ? "busy" : "idle", nodes[k],
				  cases[i].untrusted ? "not" : "wrongly");
		md_run_free(&r);
	}
}

/* The sibling of CPU 0 (the BSP, whose jobs run where they are) busy in
 * the first windows of the tree, idle after them: a sibling whose activity
 * changes while the tree is measured. */
struct schedule {
	struct bt_md *md;
	unsigned calls, busy_calls;
};

static bt_status before_run(void *ctx, struct bt_diag *d)
{
	struct schedule *s = ctx;

	(void)d;
	bt_sim_set_sibling_active(&bt_md_pmu(s->md, 0)->arch, s->calls++ < s->busy_calls ? 1.0 : 0.0);
	return BT_OK;
}

static void body(void *arg)
{
	(void)arg;
}

/* The fraction of a set of runs, worked here from the raw counts: perf's
 * 1 - ONE_THREAD_ACTIVE / REF_XCLK with REF_XCLK = fixed counter 2 over the
 * i7-8700K's CPUID.15H ratio, 0x134 / 2 TSC ticks per crystal tick. */
static double fraction(const struct bt_measure_run *r, int n)
{
	double ota = 0, xclk = 0;

	for (int k = 0; k < n; k++) {
		ota += (double)r[k].one_thread_active;
		xclk += (double)r[k].ref_tsc * 2 / 0x134;
	}
	return xclk > 0 ? fmax(0, 1 - ota / xclk) : NAN;
}

TEST(a_tree_decides_from_every_run_of_every_step)
{
	struct bt_md *md = NULL;
	struct bt_platform p;
	struct bt_diag d = { "" };
	struct bt_options o;
	char w0[] = "--sim=skl", w1[] = "--quick", w2[] = "--reps", w3[] = "2", w4[] = "--warmups",
	     w5[] = "0", w6[] = "--no-pebs";
	char *words[] = { w0, w1, w2, w3, w4, w5, w6 };
	struct bt_cpu_info cpu;
	struct bt_count_ctx *c = NULL;

	CHECK(bt_md_new("1x1,cpu=skl", NULL, &md, &d) == BT_OK);
	if (!md)
		return;
	bt_md_platform(md, &p);
	bt_options_defaults(&o);
	CHECK_MSG(bt_options_parse(&o, 7, words, "test", &d) == BT_OK, "%s", d.text);
	bt_cpu_detect(p.arch, NULL, &cpu);
	CHECK_MSG(bt_count_prepare(&p, &o, &cpu, NULL, &c, &d) == BT_OK, "%s", d.text);
	if (!c) {
		bt_md_free(md);
		return;
	}
	struct schedule s = { md, 0, 3 };
	struct bt_measure_workload mw = { .run = body, .before = before_run, .ctx = &s };
	struct bt_tree_outcome *t = NULL, *t2 = NULL;
	CHECK_MSG(bt_count_workload(c, &p, 0, &mw, true, &t, &d) == BT_OK, "%s", d.text);
	/* a second tree, its sibling idle throughout */
	s.busy_calls = 0;
	CHECK_MSG(bt_count_workload(c, &p, 0, &mw, true, &t2, &d) == BT_OK, "%s", d.text);
	if (t && t2) {
		/* the last step that counted something */
		int k_last = t->n_steps - 1;
		while (k_last > 0 && !t->steps[k_last].n_run_log)
			k_last--;
		CHECK_MSG(k_last >= 1, "a drill-down of %d step(s), %d counted", t->n_steps, k_last + 1);
		const struct bt_tree_step *last = &t->steps[k_last];
		double all = 0, ota = 0;
		for (int k = 0; k < t->n_steps; k++) {
			const struct bt_tree_step *st = &t->steps[k];
			for (int i = 0; i < st->n_run_log; i++) {
				ota += (double)st->run_log[i].one_thread_active;
				all += (double)st->run_log[i].ref_tsc * 2 / 0x134;
			}
		}
		double want = fmax(0, 1 - ota / all), got = t->counts->constants[BT_C_SMT_SIBLING_ACTIVE];
		CHECK_MSG(fabs(got - want) < 1e-9 && fabs(t->result->smt.sibling_active - want) < 1e-9,
			  "the tree's sibling %g, every run of its %d steps %g", got, t->n_steps, want);
		double f_last = fraction(last->run_log, last->n_run_log);
		CHECK_MSG(want > 0.05 && f_last < 1e-5,
			  "the sibling busy in level 1 only: every run %g, the last step's %g", want,
			  f_last);
		/* the decision (bt_smt_decide) of that fraction: per-thread,
		 * flagged (f / (2 - f) > 5 %) */
		CHECK_EQ_INT(t->result->smt.formulas, want >= 0.5);
		CHECK_EQ_INT(t->result->smt.flagged, (want >= 0.5 ? (1 - want) / (2 - want)
							   : want / (2 - want)) > 0.05);
		/* idle: ONE_THREAD_ACTIVE is REF_XCLK to the tick, which the
		 * derived REF_XCLK is not (whole ticks) */
		CHECK_MSG(t2->counts->constants[BT_C_SMT_SIBLING_ACTIVE] < 1e-5 &&
			  t2->result->smt.formulas == 0,
			  "the second tree's idle sibling: %g", t2->counts->constants[BT_C_SMT_SIBLING_ACTIVE]);
	}
	bt_tree_outcome_free(t);
	bt_tree_outcome_free(t2);
	bt_count_free(c);
	bt_md_free(md);
}
