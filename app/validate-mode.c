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
	char pmu[352];          /* the PMU, or the provenance of an OS driver's counts */
	char spec[160];
	char why[320];
};

/* --validate on the simulated PMU: each kernel's window counts that
 * kernel's model (synth/sim-run.h). */
static void sim_prepare(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st)
{
	bt_synth_count_kernel(ctx, k, st->n);
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
	v->rec.simulated = c->synth != NULL;
	v->rec.defects = c->synth ? opt->sim_defect : NULL;
	v->rec.miscount = c->synth ? opt->sim_miscount : NULL;
	snprintf(v->pmu, sizeof(v->pmu), "%s%s", c->synth ? "simulated " : "",
		 c->synth ? bt_synth_cpu(c->synth)->name
			  : c->pmu.driver ? c->counted_by : c->pmu.arch->name);
	/* The model's events only where the model is this PMU's vendor's
	 * (--model can force another vendor's model onto a PMU). */
	const struct bt_model *model = c->model;
	bool intel_pmu = c->pmu.caps.kind == BT_PMU_INTEL_ARCH;
	if (model && c->def && c->def->vendor &&
	    (strcmp(c->def->vendor, "GenuineIntel") == 0) != intel_pmu) {
		printf("validate      model %s is for %s, this PMU is %s's: its Top-Down events are "
		       "not validated, and event names are not resolved\n", c->def->id,
		       c->def->vendor, intel_pmu ? "Intel" : "AMD");
		model = NULL;
	}
	if (opt->validate_spec && bt_validate_check_spec(&c->pmu.caps, &spec, &(struct bt_validate_opts){
				.quick = opt->quick, .model = model }, &d) != BT_OK) {
		printf("validate: spec error: %s\n", d.text);
		bt_vspec_free(&spec);
		snprintf(v->why, sizeof(v->why), "spec error: %.300s", d.text);
		v->rec.no_pmu_reason = v->why;
		return BT_EXIT_USAGE;
	}
	if (!opt->validate_spec) {
		bt_vspec_builtin(&c->pmu.caps, &spec);
		/* --bring-up: every level the run may reach (--level N: to
		 * N), not just 1-2 */
		unsigned lv = !opt->bring_up ? 2 : opt->level ? opt->level : 0;
		if (model)
			bt_vspec_builtin_model_level(model, lv ? lv : bt_model_max_level(model),
						     c->constants, &c->pmu.caps, &spec);
	}

	struct bt_validate_opts o;
	bt_validate_opts_defaults(&o);
	o.quick = opt->quick;
	if (opt->reps)
		o.reps = opt->reps;
	if (opt->warmups_set)
		o.warmups = opt->warmups;
	o.model = model;
	o.kcpu.isa.sse2 = true; /* x86-64 */
	o.kcpu.pages = c->memory_pages; /* dtlb-walk's expectation per page size */
	if (c->synth) {
		/* The kernels' SLOTS are the simulated core's width, set once
		 * with the synth (setup_sim, app/count.c): the health check's
		 * and the workloads' too. */
		o.prepare = sim_prepare;
		o.prepare_ctx = c->synth;
	}
	/* The kernels' events on every counter: the SMT sibling probe is the
	 * Top-Down trees' (pmu/cpu-info.h sibling_probe), not validation's. */
	struct bt_pmu vpmu = c->pmu;
	vpmu.caps.sibling_probe = false;
	/* PMU conformance first: the counters themselves (validate/conformance.h),
	 * then the events over the kernels. */
	struct bt_conformance_opts co = { .reps = o.reps, .quick = o.quick };
	if (c->synth)
		bt_synth_count_conformance(c->synth, bt_conformance_loop_n(&co));
	/* Not through an OS's driver: conformance checks baretop's own
	 * programming of the registers, which the kernel's driver does here. */
	if (c->pmu.driver)
		printf("validate: PMU conformance not run: %s\n", c->counted_by);
	else if (bt_conformance_run(&vpmu, &co, &v->checks, &d) != BT_OK) {
		printf("validate: PMU conformance: %s\n", d.text);
		status = BT_EXIT_FAILED;
	}
	if (bt_validate_run(&vpmu, &spec, &o, &v->checks, &d) != BT_OK) {
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

bt_status bt_validation_mark_untrusted(const struct bt_validation_run *v, struct bt_count_ctx *c,
				       unsigned *n_failed, unsigned *n_skipped)
{
	unsigned ne = bt_model_event_count(c->model);

	*n_failed = *n_skipped = 0;
	free(c->ev_untrust);
	c->ev_untrust = calloc(ne + 1, sizeof(*c->ev_untrust));
	if (!c->ev_untrust)
		return BT_ERR_NOMEM;
	for (int k = 0; v && k < v->checks.n; k++) {
		const struct bt_check_result *r = &v->checks.v[k];
		int e = r->event[0] ? bt_model_event_find(c->model, r->event) : -1;
		struct bt_untrust *u;

		if (e < 0 || (r->verdict != BT_VERDICT_FAIL && r->verdict != BT_VERDICT_SKIP))
			continue;
		u = &c->ev_untrust[e];
		/* a FAIL outweighs a SKIP of the same event; otherwise the first */
		if (u->event[0] && (strcmp(u->verdict, "FAIL") == 0 || r->verdict != BT_VERDICT_FAIL))
			continue;
		if (!u->event[0])
			(*(r->verdict == BT_VERDICT_FAIL ? n_failed : n_skipped))++;
		else
			(*n_skipped)--, (*n_failed)++;
		snprintf(u->event, sizeof(u->event), "%s", r->event);
		snprintf(u->check, sizeof(u->check), "%s", r->id);
		snprintf(u->verdict, sizeof(u->verdict), "%s", bt_verdict_name(r->verdict));
	}
	return BT_OK;
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
