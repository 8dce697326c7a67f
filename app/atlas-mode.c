/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app-main.h"
#include "base/array.h"
#include "app/atlas-mode.h"
#include "app/count-internal.h"
#include "base/strbuf.h"
#include "validate/atlas.h"
#include "validate/spec.h"

struct bt_atlas_run {
	struct bt_atlas_list list;
	struct bt_atlas atlas;
	bool have_list, have_atlas;
	char pmu[352];
};

/* The simulated PMU: each kernel's window counts that kernel's model
 * (synth/kernel-counts.c), and it says which encodings it models. */
static void sim_prepare(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st)
{
	bt_synth_count_kernel(ctx, k, st->n);
}

static bool sim_models(void *ctx, const struct bt_event *e)
{
	return bt_synth_kernel_models(ctx, e);
}

/*
 * The simulated defects (arch/sim/README.md) an atlas run's invariants
 * cannot see, and why: each was injected into `baretop-host atlas
 * --sim=spr --quick` over tests/data/atlas/spr-subset.json and changed no
 * invariant (README "The event atlas"). The others were caught there:
 * stuck-counter (c1<=count, c1+c1:inv=cycles, edge<=c1 on the events its
 * counter held), double-count (c1<=cycles, c1+c1:inv=cycles; 0xC0/0x00
 * also fixed=arch-event), fixed-dead:0 and :1 (fixed=arch-event; cycles 0
 * breaks every c1<=cycles), fixed-dead:3 (fixed=arch-event against Topdown
 * Slots 0xA4/0x01), rdpmc-fixed-gp (fixed=arch-event).
 */
static const struct {
	const char *name, *why;
} invisible[] = {
	{ "narrow-counter", "the kernels' counts stay far below 2^(width-8): conformance's "
	  "conf:width-wrap sees it" },
	{ "no-overflow-bit", "no atlas window overflows a counter: conf:overflow-status sees it" },
	{ "umask-ignored", "every umask of the code then counts what umask 0x00 counts, a valid "
	  "event's behaviour: no invariant relates two umasks; the classes change (the slopes "
	  "match another declared count) and a spec generated on a sound part FAILs it" },
	{ "fw-truncates", "the atlas writes no counter value above 32 bits: conf:full-width-write" },
	{ "pm-sticky", "the atlas does not read PERF_METRICS: conf:perf-metrics-*" },
	{ "amd-alias-split", "the atlas programs the core-extension registers only: "
	  "conf:amd-legacy-vs-ext" },
	{ "global-ignored", "counter 0 counting outside the window adds nothing inside it: "
	  "conf:global-ctrl" },
	{ "fixed-dead:2", "reference cycles at the TSC rate have no general encoding of the same "
	  "rate to compare with (0x3C/0x01 counts the crystal clock): conf:fixed2-vs-tsc" },
};

/* Says which injected defects the invariants cannot see (their names as
 * --sim-defect spells them, a parameter after ':' where it matters). */
static void print_invisible(const char *defects)
{
	for (size_t i = 0; defects && i < BT_ARRAY_SIZE(invisible); i++) {
		const char *p = strstr(defects, invisible[i].name);
		size_t len = strlen(invisible[i].name);
		if (!p && strncmp(invisible[i].name, "fixed-dead:", 11) != 0)
			continue;
		if (p && (p[len] == '\0' || p[len] == ',' || p[len] == ':'))
			printf("atlas         --sim-defect %s: invisible to the invariants: %s\n",
			       invisible[i].name, invisible[i].why);
	}
}

static int write_json(const struct bt_atlas *a, const char *path)
{
	struct bt_strbuf sb = { 0 };
	struct bt_jw j;

	bt_jw_init(&j, &sb);
	bt_jw_object(&j, NULL);
	bt_jw_str(&j, "format", "baretop-atlas");
	bt_atlas_json(&j, "atlas", a);
	bt_jw_end(&j);
	bt_sb_puts(&sb, "\n");
	bool to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	bool ok = f && !sb.oom && fputs(bt_sb_str(&sb), f) >= 0;
	if (f && !to_stdout && fclose(f) != 0)
		ok = false;
	bt_sb_free(&sb);
	if (!ok)
		printf("atlas: cannot write %s\n", path);
	return ok ? 0 : -1;
}

int bt_atlas_mode(struct bt_count_ctx *c, const char *why, const struct bt_options *opt,
		  struct bt_platform *plat, const struct bt_boot_run *boot,
		  struct bt_atlas_run **ret)
{
	struct bt_atlas_run *r = calloc(1, sizeof(*r));
	struct bt_diag d = { "" };

	*ret = r;
	if (!r) {
		printf("atlas: out of memory\n");
		return BT_EXIT_FAILED;
	}
	if (!opt->events_file && !c) {
		printf("atlas: no PMU to count with: %s (run with --sim=PRESET to map the simulated "
		       "PMU)\n", why && why[0] ? why : "none");
		return BT_EXIT_NOTHING_VALIDATED;
	}
	bt_status ls = opt->events_file ? bt_atlas_list_load(opt->events_file, &r->list, &d)
					: bt_atlas_list_builtin(c->def ? c->def->id : NULL, &c->pmu.caps,
							&r->list, &d);
	if (ls != BT_OK) {
		printf("atlas: %s\n", d.text);
		bt_atlas_list_free(&r->list);
		return ls == BT_ERR_NOMEM ? BT_EXIT_FAILED : BT_EXIT_USAGE;
	}
	if (!opt->events_file)
		printf("atlas         list: %s%s\n", r->list.file,
		       r->list.version ? "" : " (a part's full core list: --events-file FILE)");
	r->have_list = true;
	if (!c) {
		printf("atlas: no PMU to count with: %s (run with --sim=PRESET to map the simulated "
		       "PMU)\n", why && why[0] ? why : "none");
		return BT_EXIT_NOTHING_VALIDATED;
	}
	snprintf(r->pmu, sizeof(r->pmu), "%s%s", c->synth ? "PMU " : "",
		 c->synth ? bt_synth_cpu(c->synth)->name
			  : c->pmu.driver ? c->counted_by : c->pmu.arch->name);
	/* A spec of more linear events than a spec may hold would be refused
	 * by the validation it is written for: said before the hours of an
	 * atlas on silicon, not after. */
	int countable = 0;
	for (int i = 0; i < r->list.n; i++)
		countable += !r->list.v[i].refused;
	if (opt->atlas_spec && countable > BT_VSPEC_MAX_ENTRIES) {
		printf("atlas: --atlas-spec %s: the list has %d countable events, and a spec holds at "
		       "most %d checks (docs/validate-spec.md): filter the list\n", opt->atlas_spec,
		       countable, BT_VSPEC_MAX_ENTRIES);
		return BT_EXIT_USAGE;
	}
	/* The same event select means another event on the other vendor's
	 * PMU (AMD's 0xC4 counts taken branches, Intel's 0xC4/0x00 every
	 * branch): a list of the other vendor is refused before counting. */
	bool list_amd = strcmp(r->list.format, "linux-perf-amd") == 0;
	bool pmu_amd = c->pmu.caps.kind != BT_PMU_INTEL_ARCH;
	if (list_amd != pmu_amd) {
		printf("atlas: %s is %s event list (%s), but the%s %s is %s's: its encodings name "
		       "other events here\n", r->list.file, list_amd ? "an AMD" : "an Intel",
		       r->list.format, c->synth ? " simulated" : "", r->pmu, pmu_amd ? "AMD" : "Intel");
		return BT_EXIT_USAGE;
	}

	struct bt_atlas_opts o;
	bt_atlas_opts_defaults(&o);
	o.quick = opt->quick;
	if (opt->reps)
		o.reps = opt->reps;
	if (opt->warmups_set)
		o.warmups = opt->warmups;
	o.kcpu.isa.sse2 = true; /* x86-64 */
	o.kcpu.pages = c->memory_pages;
	o.width = c->def ? c->def->pipeline_width : 0;
	if (c->synth) {
		bt_synth_set_width(c->synth, o.width);
		o.prepare = sim_prepare;
		o.models = sim_models;
		o.sim_ctx = c->synth;
	}
	/* Wall time on the platform's clock, also under --sim (the estimate
	 * and the budget are the machine's seconds). */
	o.clock = plat->arch;
	o.tsc_hz = c->cpu ? c->cpu->tsc_hz : 0;
	uint64_t left;
	if (boot && bt_boot_run_ticks_left(boot, &left))
		o.budget_ticks = left ? left : 1;
	o.out = stdout;
	if (bt_atlas_run(&c->pmu, &r->list, &o, &r->atlas, &d) != BT_OK) {
		printf("atlas: %s\n", d.text);
		return BT_EXIT_FAILED;
	}
	r->have_atlas = true;
	r->atlas.simulated = c->synth != NULL;
	r->atlas.pmu = r->pmu;
	bt_atlas_print(stdout, &r->atlas);
	if (c->synth)
		print_invisible(opt->sim_defect);
	/* The invariants relate events to each other; a miscount of one
	 * event shows in its slope and its match with a declared count. */
	if (c->synth && bt_synth_miscount_note(c->synth)[0])
		printf("atlas         %s: in every window; its slope and declared-count match "
		       "show it, the invariants relate events to each other\n",
		       bt_synth_miscount_note(c->synth));
	int status = r->atlas.inv_violated ? BT_EXIT_FAILED : BT_EXIT_OK;
	if (opt->atlas_json && write_json(&r->atlas, opt->atlas_json) != 0)
		status = BT_EXIT_NO_RESULTS;
	if (opt->atlas_spec) {
		if (bt_atlas_write_spec(&r->atlas, opt->atlas_spec, plat->rename_noreplace, &d) != BT_OK) {
			printf("atlas: %s\n", d.text);
			status = BT_EXIT_NO_RESULTS;
		} else {
			printf("atlas         validation spec of the linear events: %s\n", opt->atlas_spec);
		}
	}
	return status;
}

void bt_atlas_run_json(struct bt_jw *j, const void *run)
{
	const struct bt_atlas_run *r = run;

	if (r->have_atlas)
		bt_atlas_json(j, "atlas", &r->atlas);
}

void bt_atlas_run_free(struct bt_atlas_run *r)
{
	if (!r)
		return;
	bt_atlas_free(&r->atlas);
	bt_atlas_list_free(&r->list);
	free(r);
}
