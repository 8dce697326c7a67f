/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app-main.h"
#include "app/count-internal.h"
#include "app/validate-mode.h"
#include "kernels/kernel.h"
#include "validate/builtin-spec.h"
#include "validate/conformance.h"
#include "validate/report.h"
#include "validate/run.h"

struct bt_validation_run {
	struct bt_check_list checks;
	struct bt_validation_record rec;
	char pmu[160];
	char spec[160];
	char why[320];
};

/* The simulated PMU's model of the kernel being measured and of kernel
 * `empty`, whose window calibrates it (struct bt_sim_source.next). */
struct sim_prep {
	struct bt_count_ctx *c;
	struct bt_sim_count kc[BT_SIM_KERNEL_MAX_COUNTS], ec[BT_SIM_KERNEL_MAX_COUNTS];
	struct bt_sim_source ks, es;
};

/* Instructions per cycle the simulated kernels run at: a modelled
 * micro-architectural count (one DEC/JNZ iteration per cycle). */
static double model_ipc(const char *kernel)
{
	return strcmp(kernel, "loop-dec-jnz") == 0 ? 2.0 : 1.0;
}

static uint64_t declared(const struct bt_kernel *k, const char *name, uint64_t n)
{
	int64_t v = 0;

	return bt_kernel_count(k, name, n, &v) && v > 0 ? (uint64_t)v : 0;
}

static void model_of(const struct bt_kernel *k, uint64_t n, struct bt_sim_kernel_model *m)
{
	memset(m, 0, sizeof(*m));
	m->instructions = declared(k, BT_KC_INSTRUCTIONS, n);
	m->branches = declared(k, BT_KC_BRANCHES, n);
	m->cond = declared(k, BT_KC_COND, n);
	m->cond_taken = declared(k, BT_KC_COND_TAKEN, n);
	m->cond_not_taken = declared(k, BT_KC_COND_NOT_TAKEN, n);
	m->jmp_direct = declared(k, BT_KC_JMP_DIRECT, n);
	m->near_calls = declared(k, BT_KC_NEAR_CALLS, n);
	m->near_returns = declared(k, BT_KC_NEAR_RETURNS, n);
	m->indirect = declared(k, BT_KC_INDIRECT, n);
	m->random_cond = declared(k, BT_KC_RANDOM_COND, n);
	m->ipc = model_ipc(k->name);
}

static void sim_prepare(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st)
{
	struct sim_prep *p = ctx;
	const struct bt_kernel *empty = bt_kernel_find("empty");
	struct bt_sim_kernel_model m;

	model_of(k, st->n, &m);
	p->ks = (struct bt_sim_source){ .entries = p->kc, .body = k->run,
					.n = bt_sim_kernel_counts(&p->c->simcfg, &m, p->kc) };
	p->ks.tsc_per_window = 0;
	if (empty && empty != k) {
		model_of(empty, empty->n_default, &m);
		p->es = (struct bt_sim_source){ .entries = p->ec, .body = empty->run,
						.n = bt_sim_kernel_counts(&p->c->simcfg, &m, p->ec) };
		p->c->sim->source_alt = &p->es;
	}
	bt_sim_set_source(p->c->sim, &p->ks);
}

/* The simulated PMU's counts for the conformance checks' window
 * (loop-dec-jnz at bt_conformance_loop_n): the kernel's declared
 * instructions and branches, modelled cycles (the kernel's IPC), SLOTS =
 * width x cycles and PERF_METRICS bytes of a plausible split (level 1
 * summing to 0xFF, each level-2 field within its parent). The calibration
 * window's body (kernel `empty`) counts nothing but the window's own
 * accesses. */
static void sim_conformance_source(struct bt_count_ctx *c, const struct bt_conformance_opts *co,
				   struct bt_sim_count *src, struct bt_sim_source *source)
{
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	uint64_t n = bt_conformance_loop_n(co);
	struct bt_sim_known q = {
		.instructions = declared(loop, BT_KC_INSTRUCTIONS, n),
		.branches = declared(loop, BT_KC_BRANCHES, n),
		.cond = declared(loop, BT_KC_COND, n),
		.cycles = (uint64_t)((double)declared(loop, BT_KC_INSTRUCTIONS, n) / model_ipc(loop->name)),
		.width = c->simcfg.pm_fields == 8 ? 6 : 4,
		.pm = { 0x99, 0x0A, 0x30, 0x2C, 0x20, 0x08, 0x1C, 0x10 },
	};
	*source = (struct bt_sim_source){ .entries = src, .body = loop->run,
					  .n = bt_sim_known_counts(&c->simcfg, &q, src) };
	c->sim->source_alt = NULL;
	bt_sim_set_source(c->sim, source);
}

int bt_validate_mode(struct bt_count_ctx *c, const char *why, const struct bt_options *opt,
		     struct bt_validation_run **ret)
{
	struct bt_validation_run *v = calloc(1, sizeof(*v));
	struct bt_vspec spec;
	struct bt_diag d = { "" };
	int status = BT_EXIT_OK;

	*ret = v;
	if (!v) {
		printf("validate: out of memory\n");
		return BT_EXIT_FAILED;
	}
	bt_check_list_init(&v->checks);
	v->rec.checks = &v->checks;
	v->rec.quick = opt->quick;
	v->rec.pmu = v->pmu;
	v->rec.spec = v->spec;
	snprintf(v->spec, sizeof(v->spec), "%s", opt->validate_spec ? opt->validate_spec : "built-in");
	bt_vspec_init(&spec, opt->validate_spec ? opt->validate_spec : "built-in");
	if (opt->validate_spec && bt_vspec_load(opt->validate_spec, &spec, &d) != BT_OK) {
		printf("validate: spec error: %s\n", d.text);
		bt_vspec_free(&spec);
		snprintf(v->why, sizeof(v->why), "spec error: %.300s", d.text);
		v->rec.no_pmu_reason = v->why;
		snprintf(v->pmu, sizeof(v->pmu), "none");
		return BT_EXIT_USAGE;
	}
	if (!c) {
		snprintf(v->pmu, sizeof(v->pmu), "none");
		snprintf(v->why, sizeof(v->why), "%.300s", why && why[0] ? why : "no PMU");
		v->rec.no_pmu_reason = v->why;
		bt_validation_print(stdout, &v->rec);
		printf("validate: exit status %d: no PMU to validate (run with --sim=PRESET to "
		       "validate the simulated PMU)\n", BT_EXIT_NOTHING_VALIDATED);
		bt_vspec_free(&spec);
		return BT_EXIT_NOTHING_VALIDATED;
	}
	v->rec.simulated = c->simulated;
	snprintf(v->pmu, sizeof(v->pmu), "%s%s", c->simulated ? "simulated " : "",
		 c->simulated ? c->simcfg.name : c->arch->name);
	/* The model's events only where the model is this PMU's vendor's
	 * (--model can force another vendor's model onto a PMU). */
	const struct bt_model *model = c->model;
	bool intel_pmu = c->caps.kind == BT_PMU_INTEL_ARCH;
	if (model && c->def && c->def->vendor &&
	    (strcmp(c->def->vendor, "GenuineIntel") == 0) != intel_pmu) {
		printf("validate      model %s is for %s, this PMU is %s's: its Top-Down events are "
		       "not validated, and event names are not resolved\n", c->def->id,
		       c->def->vendor, intel_pmu ? "Intel" : "AMD");
		model = NULL;
	}
	if (!opt->validate_spec) {
		bt_vspec_builtin(&c->caps, &spec);
		if (model)
			bt_vspec_builtin_model(model, c->constants, &c->caps, &spec);
	}

	struct bt_validate_opts o;
	static struct sim_prep prep; /* large; one validation at a time */
	bt_validate_opts_defaults(&o);
	o.quick = opt->quick;
	if (opt->reps)
		o.reps = opt->reps;
	if (opt->warmups_set)
		o.warmups = opt->warmups;
	o.model = model;
	o.kcpu.isa.sse2 = true; /* x86-64 */
	o.kcpu.pages = c->memory_pages; /* dtlb-walk's expectation per page size */
	if (c->simulated) {
		memset(&prep, 0, sizeof(prep));
		prep.c = c;
		o.prepare = sim_prepare;
		o.prepare_ctx = &prep;
	}
	/* PMU conformance first: the counters themselves (validate/conformance.h),
	 * then the events over the kernels. */
	struct bt_conformance_opts co = { .reps = o.reps, .quick = o.quick };
	static struct bt_sim_count conf_src[BT_SIM_KNOWN_MAX];
	struct bt_sim_source conf_source;
	if (c->simulated)
		sim_conformance_source(c, &co, conf_src, &conf_source);
	const struct bt_pmu pmu = { .arch = c->arch, .caps = c->caps };
	if (bt_conformance_run(&pmu, &co, &v->checks, &d) != BT_OK) {
		printf("validate: PMU conformance: %s\n", d.text);
		status = BT_EXIT_FAILED;
	}
	if (bt_validate_run(&pmu, &spec, &o, &v->checks, &d) != BT_OK) {
		printf("validate: %s\n", d.text);
		status = BT_EXIT_FAILED;
	}
	bt_vspec_free(&spec);
	bt_validation_print(stdout, &v->rec);
	int t[4] = { 0, 0, 0, 0 };
	bt_check_list_tally(&v->checks, t);
	if (t[BT_VERDICT_FAIL])
		status = BT_EXIT_FAILED;
	return status;
}

void bt_validation_run_json(struct bt_jw *j, const void *run)
{
	const struct bt_validation_run *v = run;

	bt_validation_json(j, &v->rec);
}

void bt_validation_run_free(struct bt_validation_run *v)
{
	if (!v)
		return;
	bt_check_list_free(&v->checks);
	free(v);
}
