/* SPDX-License-Identifier: MIT */
/*
 * bench-eval: full-tree evaluations per second (every node's value and flag,
 * the bottleneck path and the CPI stack) of the largest built-in model, and
 * of a naive per-node tree-walking interpreter measured in the same run as
 * the baseline. Fails if the metric core does fewer than 100,000 full-tree
 * evaluations per second.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics/builtin.h"
#include "metrics/counts-file.h"
#include "tools/bench-eval/naive.h"

#define TARGET 100000.0

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int load_counts(struct bt_model *m, struct bt_counts *c, const char *id)
{
	static const char *const dirs[] = { "../shared/testdata/tma", "tests/data/tma" };
	for (int k = 0; k < 2; k++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s/000.json", dirs[k], id);
		struct bt_arena a = { 0 };
		struct bt_diag d;
		struct bt_count_file cf;
		if (bt_count_file_read(&a, path, &cf, &d) == BT_OK) {
			bt_count_file_apply(&cf, c, NULL, &d);
			printf("counts: %s\n", path);
			bt_arena_free(&a);
			return 0;
		}
		bt_arena_free(&a);
	}
	(void)m;
	return -1;
}

struct job {
	const struct bt_model *m;
	const struct bt_counts *c;
	struct bt_result *r;
	const struct naive *nv;
	double *values;
};

static void run_dag(struct job *j)
{
	bt_evaluate(j->m, j->c, j->r);
}

static void run_naive(struct job *j)
{
	naive_eval(j->nv, j->c, j->values);
}

/* calls fn until at least `seconds` have passed; returns calls per second */
static double rate(double seconds, void (*fn)(struct job *), struct job *j)
{
	long n = 0;
	double t0 = now(), t;
	do {
		for (int k = 0; k < 64; k++)
			fn(j);
		n += 64;
	} while ((t = now()) - t0 < seconds);
	return n / (t - t0);
}

int main(void)
{
	/* the largest model: most compiled operations */
	struct bt_model *m = NULL;
	unsigned best_ops = 0;
	double t0 = now();
	for (unsigned i = 0; i < bt_builtin_model_count; i++) {
		struct bt_model *x;
		struct bt_diag d;
		if (bt_model_open(bt_builtin_models[i], &x, &d) != BT_OK) {
			fprintf(stderr, "bench-eval: %s\n", d.text);
			return 1;
		}
		if (bt_model_op_count(x) > best_ops) {
			bt_model_close(m);
			m = x;
			best_ops = bt_model_op_count(x);
		} else {
			bt_model_close(x);
		}
	}
	double t_open = (now() - t0) / bt_builtin_model_count;
	const struct bt_model_def *def = bt_model_def(m);
	size_t chars = 0;
	for (unsigned i = 0; i < def->n_nodes; i++)
		chars += strlen(def->nodes[i].formula);
	printf("model: %s (%s): %u nodes, %u events, %zu characters of formulas, compiled to %u "
	       "distinct operations; compiling takes %.1f ms per model (average of %u)\n",
	       def->id, def->uarch, def->n_nodes, def->n_events, chars, best_ops, t_open * 1e3,
	       bt_builtin_model_count);
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	struct naive *nv = naive_new(m);
	double *naive_values = malloc(def->n_nodes * sizeof(double));
	if (!c || !r || !nv || !naive_values || load_counts(m, c, def->id) < 0) {
		fprintf(stderr, "bench-eval: setup failed (no counts for %s?)\n", def->id);
		return 1;
	}
	/* the two evaluators agree (the baseline is plain doubles: no exact mode here) */
	bt_evaluate(m, c, r);
	naive_eval(nv, c, naive_values);
	double worst = 0;
	for (unsigned i = 0; i < def->n_nodes; i++) {
		double a = r->raw[i], b = naive_values[i];
		if (isnan(a) != isnan(b)) {
			fprintf(stderr, "bench-eval: evaluators disagree on %s\n", def->nodes[i].name);
			return 1;
		}
		if (!isnan(a) && fabs(a - b) > worst * fmax(fabs(a), 1e-300))
			worst = fabs(a - b) / fmax(fabs(a), 1e-300);
	}
	printf("check: both evaluators agree on all %u nodes (largest relative difference %.1e)\n",
	       def->n_nodes, worst);
	struct job job = { .m = m, .c = c, .r = r, .nv = nv, .values = naive_values };
	double naive_rate = rate(1.0, run_naive, &job);
	double dag_rate = rate(1.0, run_dag, &job);
	printf("baseline  naive tree walk, each node on its own:  %10.0f full-tree evaluations/s\n",
	       naive_rate);
	printf("baretop   shared DAG, segment loops:              %10.0f full-tree evaluations/s"
	       "  (%.1fx the baseline)\n", dag_rate, dag_rate / naive_rate);
	/* a 2^48-scale input takes the exact-integer path */
	for (unsigned e = 0; e < def->n_events; e++)
		if (!isnan(c->events[e]))
			c->events[e] = 281474976710655.0 - e;
	bt_evaluate(m, c, r);
	double exact_rate = rate(0.5, run_dag, &job);
	printf("baretop   2^48-scale counts (exact integer path %s): %10.0f evaluations/s\n",
	       r->exact_int ? "taken" : "not needed", exact_rate);
	int ok = dag_rate >= TARGET;
	printf("%s: %.0f full-tree evaluations/s %s the %.0f target\n", ok ? "PASS" : "FAIL", dag_rate,
	       ok ? "meets" : "misses", TARGET);
	free(naive_values);
	naive_free(nv);
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	return ok ? 0 : 1;
}
