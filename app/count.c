/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/count-internal.h"
#include "app/on-cpu.h"
#include "base/notes.h"
#include "metrics/builtin.h"
#include "metrics/lineage.h"
#include "metrics/counts-file.h"
#include "metrics/load.h"
#include "metrics/select.h"
#include "pmu/cpu-detect.h"
#include "pmu/pmu-caps.h"
#include "pmu/event-encode.h"
#include "pmu/measure.h"
#include "pmu/plan.h"
#include "pmu/sibling.h"
#include "synth/sim-run.h"
#include "report/console.h"
#include "workloads/workload.h"

__attribute__((format(printf, 2, 3)))
static bt_status say(struct bt_diag *why, const char *fmt, ...)
{
	va_list ap;

	if (why) {
		va_start(ap, fmt);
		vsnprintf(why->text, sizeof(why->text), fmt, ap);
		va_end(ap);
	}
	return BT_ERR_UNSUPPORTED;
}

static int event_by_name(const void *a, const void *b)
{
	return strcmp(((const struct bt_event *)a)->name, ((const struct bt_event *)b)->name);
}

/* The tree of `tree_def` with the metrics of `file` as Info nodes (a node
 * the tree has by name is the tree's), and the union of their events (the
 * tree's encoding where both name one), sorted as bt_model_open() wants. */
static bt_status merge_info(struct bt_count_ctx *c, const struct bt_model_def *tree_def,
			    const struct bt_model_def *file, const char *list, struct bt_diag *why)
{
	struct bt_model_def *m = bt_arena_alloc(&c->arena, sizeof(*m));
	struct bt_node_def *nodes = bt_arena_alloc(&c->arena, ((size_t)tree_def->n_nodes +
							       file->n_nodes + 1) * sizeof(*nodes));
	struct bt_event *ev = bt_arena_alloc(&c->arena, ((size_t)tree_def->n_events +
							 file->n_events + 1) * sizeof(*ev));
	if (!m || !nodes || !ev)
		return BT_ERR_NOMEM;
	*m = *tree_def;
	unsigned nn = 0, ne = 0, kept = 0, same = 0;
	for (unsigned i = 0; i < tree_def->n_nodes; i++)
		nodes[nn++] = tree_def->nodes[i];
	for (unsigned i = 0; i < file->n_nodes; i++) {
		bool dup = false;
		for (unsigned k = 0; k < tree_def->n_nodes && !dup; k++)
			dup = strcmp(tree_def->nodes[k].name, file->nodes[i].name) == 0;
		if (dup) {
			same++;
			continue;
		}
		nodes[nn] = file->nodes[i];
		nodes[nn].kind = BT_NODE_INFO;
		nodes[nn].level = 0;
		nodes[nn].parent = NULL;
		nn++;
		kept++;
	}
	for (unsigned i = 0; i < tree_def->n_events; i++)
		ev[ne++] = tree_def->events[i];
	for (unsigned i = 0; i < file->n_events; i++) {
		bool dup = false;
		for (unsigned k = 0; k < tree_def->n_events && !dup; k++)
			dup = strcmp(tree_def->events[k].name, file->events[i].name) == 0;
		if (!dup)
			ev[ne++] = file->events[i];
	}
	qsort(ev, ne, sizeof(*ev), event_by_name);
	m->n_nodes = (uint16_t)nn;
	m->nodes = nodes;
	m->n_events = (uint16_t)ne;
	m->events = ev;
	m->pack = NULL;
	m->source = bt_arena_printf(&c->arena, "%s; Info metrics from %s, which has no Top-Down "
				    "metric", tree_def->source ? tree_def->source : tree_def->id, list);
	if (!m->source)
		return BT_ERR_NOMEM;
	c->def = m;
	c->like_id = tree_def->id;
	snprintf(c->how, sizeof(c->how), "--model-files %s has no Top-Down metric: its %u "
		 "metrics kept as Info (%u of them by the same name in %s), the tree from %s (%s)",
		 list, kept + same, same, tree_def->id, tree_def->id,
		 tree_def->uarch ? tree_def->uarch : "");
	(void)why;
	return BT_OK;
}

/* --model-files METRICS,EVENTS[,EVENTS]: a perfmon-native model loaded at run
 * time. Settings that are not in the files (pipeline width, E-core naming,
 * published retire latencies) come from the built-in model of this CPU, if
 * there is one. */
static bt_status load_model_files(struct bt_count_ctx *c, const char *list,
				  const struct bt_model_def *like, struct bt_diag *why)
{
	struct bt_model_recipe *r = bt_arena_alloc(&c->arena, sizeof(*r));
	char *copy = bt_arena_strdup(&c->arena, list);
	struct bt_model_def *def;
	struct bt_diag d = { "" };
	int nm = 0, ne = 0;

	if (!r || !copy)
		return BT_ERR_NOMEM;
	const struct bt_model_recipe *base = like ? bt_recipe_find(like->id) : NULL;
	if (base)
		*r = *base;
	else
		memset(r, 0, sizeof(*r));
	memset(r->metrics, 0, sizeof(r->metrics));
	memset(r->events, 0, sizeof(r->events));
	r->id = "FILES";
	r->format = BT_FMT_PERFMON;
	if (!r->vendor)
		r->vendor = c->cpu->vendor_str;
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
		if (nm == 0)
			r->metrics[nm++] = tok;
		else if (ne < BT_RECIPE_MAX_FILES - 1)
			r->events[ne++] = tok;
	}
	/* The header names what was loaded (the metrics file), never the
	 * built-in model whose settings were borrowed: that is in c->how. */
	if (r->metrics[0]) {
		/* The file's name without its folder (UEFI paths use '\\'). */
		const char *base_name = r->metrics[0];
		for (const char *q = r->metrics[0]; *q; q++)
			if (*q == '/' || *q == '\\')
				base_name = q + 1;
		char *u = bt_arena_alloc(&c->arena, 200);
		if (!u)
			return BT_ERR_NOMEM;
		snprintf(u, 200, "loaded from %.160s", base_name);
		r->uarch = u;
	}
	bt_status st = bt_model_load(&c->arena, r, NULL, &def, &d);
	if (st != BT_OK) {
		bt_diag_set(why, "--model-files: %s", d.text);
		return BT_ERR_INVALID;
	}
	unsigned tree = 0;
	for (unsigned i = 0; i < def->n_nodes; i++)
		tree += def->nodes[i].kind == BT_NODE_TREE && def->nodes[i].level >= 1;
	if (!tree) {
		/* A metrics file without Top-Down metrics (a first file for new
		 * silicon): its metrics stay, as Info; the tree comes from the
		 * model this CPU would get (its core's published one, or ARCH).
		 * A model that selects no node would measure nothing. */
		if (!like) {
			bt_diag_set(why, "--model-files %s: no Top-Down metric in it (%u metrics, none "
				    "a tree node) and no built-in or architectural model for this "
				    "CPU to take the tree from: nothing would be measured", list,
				    def->n_nodes);
			return BT_ERR_INVALID;
		}
		return merge_info(c, like, def, list, why);
	}
	c->def = def;
	c->like_id = base ? base->id : NULL;
	snprintf(c->how, sizeof(c->how), "loaded at run time from %s%s%s", list,
		 base ? "; settings of the built-in " : "", base ? base->id : "");
	return BT_OK;
}

/* Issue slots per cycle for the simulated workload model: the model's
 * pipeline width; for ARCH on a core without SLOTS_PER_CYC, the width of the
 * published model of (or nearest to) the core, for the workload model only. */
static void set_sim_width(struct bt_count_ctx *c, const struct bt_cpu_info *wi)
{
	c->sim_width = c->def ? c->def->pipeline_width : 0;
	if (!c->sim_width) {
		struct bt_cpu_facts wf = {
			.vendor = wi->vendor_str, .family = wi->family, .model = wi->model,
			.stepping = wi->stepping, .core_type = (uint8_t)wi->core_type,
			.native_model = wi->native_model_id,
		};
		const struct bt_model_def *near = NULL;
		const char *why_near = NULL, *near_id = NULL;
		struct bt_diag nd = { "" };
		if (bt_model_select(&wf, NULL, &near, &nd) == BT_OK)
			c->sim_width = near->pipeline_width;
		else if ((near_id = bt_model_suggest(&wf, &why_near)) != NULL &&
			 (near = bt_builtin_find(near_id)) != NULL)
			c->sim_width = near->pipeline_width;
	}
}

static bt_status choose_model(struct bt_count_ctx *c, const struct bt_options *opt,
			      struct bt_diag *why)
{
	const struct bt_cpu_info *ci = c->cpu;
	struct bt_cpu_info sim_cpu;
	bool from_sim = false, have_sim_cpu = false;
	struct bt_synth_opts so = { .name = opt->sim_name, .cpuid_dump = opt->sim_cpuid };
	struct bt_diag sd = { "" };

	if (opt->sim && (opt->sim_name || opt->sim_cpuid))
		have_sim_cpu = bt_synth_identity(&so, &sim_cpu, &sd);
	if (opt->sim_cpuid && !have_sim_cpu) {
		bt_diag_set(why, "%s", sd.text);
		return BT_ERR_INVALID;
	}
	if (have_sim_cpu && !opt->model && !(c->have_cf && c->cf.model) &&
	    (opt->sim_cpuid || !(opt->sim_name && bt_builtin_find(opt->sim_name)))) {
		ci = &sim_cpu;
		from_sim = true;
	}
	/* The architectural Top-Down events of the CPU counted on, for ARCH:
	 * the simulated CPU's under --sim. */
	struct bt_arch_td arch_td;
	bt_arch_td_from_caps(have_sim_cpu ? &sim_cpu.pmu : &ci->pmu, &arch_td);
	struct bt_cpu_facts facts = {
		.vendor = ci->vendor_str, .family = ci->family, .model = ci->model,
		.stepping = ci->stepping, .core_type = (uint8_t)ci->core_type,
		.native_model = ci->native_model_id, .arch_td = &arch_td,
	};
	const struct bt_model_def *def = NULL;
	struct bt_diag d = { "" };
	char key[64];

	bt_cpu_facts_key(&facts, key, sizeof(key));
	/* With --sim=MODEL the simulated CPU's model is meant. */
	const char *force = opt->model;
	if (!force && c->have_cf && c->cf.model)
		force = c->cf.model;   /* the count file says whose counts they are */
	if (!force && opt->sim && !opt->sim_cpuid && opt->sim_name && bt_builtin_find(opt->sim_name))
		force = opt->sim_name;
	bt_status st = bt_model_select(&facts, force, &def, &d);
	if (opt->model_files) {
		st = load_model_files(c, opt->model_files, st == BT_OK ? def : NULL, why);
		if (st == BT_OK)
			set_sim_width(c, have_sim_cpu ? &sim_cpu : ci);
		return st;
	}
	if (st != BT_OK) {
		bt_diag_set(why, "%s", d.text);
		return force ? BT_ERR_INVALID : BT_ERR_UNSUPPORTED;
	}
	c->def = def;
	set_sim_width(c, have_sim_cpu ? &sim_cpu : ci);
	if (opt->model)
		snprintf(c->how, sizeof(c->how), "forced with --model");
	else if (c->have_cf && c->cf.model)
		snprintf(c->how, sizeof(c->how), "named by the count file %s", opt->counts_file);
	else if (force)
		snprintf(c->how, sizeof(c->how), "the model of the simulated CPU (--sim=%s)", force);
	else if (from_sim && opt->sim_cpuid)
		snprintf(c->how, sizeof(c->how), "selected from the simulated CPU's CPUID (%s, "
			 "--sim-cpuid %s)", key, opt->sim_cpuid);
	else if (from_sim)
		snprintf(c->how, sizeof(c->how), "selected from the simulated CPU's CPUID (%s, --sim=%s)",
			 key, opt->sim_name);
	else
		snprintf(c->how, sizeof(c->how), "selected from CPUID (%s)", key);
	return BT_OK;
}

/* The simulated PMU: --sim[=NAME], NAME a model id or a preset; without
 * NAME, the model's simulated CPU. */
static bt_status setup_sim(struct bt_count_ctx *c, const struct bt_options *opt,
			   struct bt_diag *why)
{
	struct bt_synth_opts so = {
		.name = opt->sim_name ? opt->sim_name : c->like_id ? c->like_id
			: c->def ? c->def->id : NULL,
		.defects = opt->sim_defect,
		.miscount = opt->sim_miscount,
		.cpuid_dump = opt->sim_cpuid,
		.machine = c->machine,
	};
	if (opt->sim_cpuid)
		so.name = opt->sim_name; /* the preset for its MSRs, or NULL: by class */

	if (!so.name && !so.cpuid_dump) {
		bt_diag_set(why, "--sim without a model: name a preset, --sim=PRESET");
		return BT_ERR_INVALID;
	}
	bt_status st = bt_synth_new(&so, &c->synth, why);
	if (st != BT_OK)
		return st;
	bt_synth_caps(c->synth, &c->pmu.caps);
	c->pmu.arch = bt_synth_arch(c->synth);
	/* --sim-sibling-active: how much the simulated CPU's SMT sibling runs
	 * (arch/sim/sim.h), which the sibling probe then measures. */
	if (opt->sim_sibling_set)
		bt_sim_set_sibling_active(c->pmu.arch, opt->sim_sibling_active);
	c->sim_sibling_given = opt->sim_sibling_set;
	/* One pipeline width per core: the model's (set_sim_width), for the
	 * health check's window (SLOTS = width x cycles) as for the workloads'
	 * counts. */
	bt_synth_set_width(c->synth, c->sim_width);
	return BT_OK;
}

/* The events the planner sees: each in the form this PMU counts it
 * (bt_plan_counted_form). */
static bt_status prepare_events(struct bt_count_ctx *c)
{
	unsigned n = bt_model_event_count(c->model);

	c->evp = calloc(n ? n : 1, sizeof(*c->evp));
	c->twins = calloc(n ? n : 1, sizeof(*c->twins));
	if (!c->evp || !c->twins)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		c->evp[i] = bt_model_event(c->model, i);
		if (bt_plan_counted_form(c->evp[i], &c->pmu.caps, &c->twins[i]))
			c->evp[i] = &c->twins[i];
	}
	return BT_OK;
}

__attribute__((format(printf, 2, 3)))
static void ctx_note(struct bt_count_ctx *c, const char *fmt, ...)
{
	va_list ap;

	/* Past the last slot, it says how many more there were. */
	va_start(ap, fmt);
	BT_NOTES_VADD(c->notes, c->n_notes, c->notes_dropped, fmt, ap);
	va_end(ap);
}

static void combo_note(void *ctx, const char *text)
{
	ctx_note(ctx, "%s", text);
}

/* The formulas follow the sibling's measured activity where SMT is on, the
 * model's formulas have SMT branches (the events they read differ) and the
 * probe applies on this PMU (pmu/plan.h bt_plan_sibling_gp). */
static bool sibling_probe_applies(const struct bt_count_ctx *c, const char **why_not)
{
	struct bt_pmu_caps probe = c->pmu.caps;
	*why_not = NULL;
	if (probe.kind != BT_PMU_INTEL_ARCH || !c->model ||
	    !bt_model_has_smt_branches(c->model, c->constants))
		return false;
	probe.sibling_probe = true;
	if (bt_plan_sibling_gp(&probe, NULL, NULL))
		return true;
	*why_not = probe.sibling_probe_off ? probe.sibling_probe_off
		   : probe.perf_metrics || (probe.fixed_mask & (1u << 3))
			   ? "TOPDOWN.SLOTS and PERF_METRICS count per thread"
			   : "it needs a general counter of its own and two more";
	return false;
}

/* What the simulated PMU counts: the count file's counts for the model's
 * events (as the planner will program them), or generated ones. */
static bt_status prepare_sim_source(struct bt_count_ctx *c, const struct bt_options *opt,
				    struct bt_diag *why)
{
	unsigned n = bt_model_event_count(c->model);
	struct bt_diag d = { "" };
	char label[320];

	if (!opt->counts_file) {
		/* Also the sibling probe's events, should the probe apply
		 * (pmu/sibling.h); the simulated workload models them by these
		 * names (synth/workload-counts.c) like the model's own events. */
		const struct bt_event **evp = bt_arena_alloc(&c->arena, (n + 2) * sizeof(*evp));
		if (!evp)
			return BT_ERR_NOMEM;
		memcpy(evp, c->evp, n * sizeof(*evp));
		evp[n] = &bt_sibling_ota_event;
		evp[n + 1] = &bt_sibling_xclk_event;
		if (bt_synth_set_events(c->synth, evp, n + 2, c->def->id) != BT_OK)
			return BT_ERR_NOMEM;
		return bt_synth_use_generated(c->synth, why);
	}
	if (bt_synth_set_events(c->synth, c->evp, n, c->def->id) != BT_OK)
		return BT_ERR_NOMEM;
	c->file_counts = bt_counts_new(c->model);
	unsigned unused = 0;
	if (!c->file_counts || bt_count_file_apply(&c->cf, c->file_counts, &unused, &d) != BT_OK) {
		bt_diag_set(why, "--counts %s: %s", opt->counts_file, d.text);
		return BT_ERR_INVALID;
	}
	const char *id = c->like_id ? c->like_id : c->def->id;
	if (c->cf.model && strcmp(c->cf.model, id) != 0) {
		bt_diag_set(why, "--counts %s holds counts of model %s, not %s (use "
			    "--model %s or --sim=%s)", opt->counts_file, c->cf.model, id,
			    c->cf.model, c->cf.model);
		return BT_ERR_INVALID;
	}
	snprintf(label, sizeof(label), "counts from %s%s%s", opt->counts_file,
		 c->cf.case_name ? ", case " : "", c->cf.case_name ? c->cf.case_name : "");
	return bt_synth_use_counts(c->synth, c->file_counts->events, label, why);
}

static bool wl_param(const void *ctx, const char *name, uint64_t *ret)
{
	return bt_wl_config_get(ctx, name, ret);
}

bt_status bt_count_sim_workload(struct bt_count_ctx *c, const struct bt_wl_config *cfg,
				struct bt_diag *why)
{
	if (!c->synth || !c->model || !cfg || !cfg->wl)
		return BT_OK;
	/* Issue slots per cycle: the model's pipeline width. */
	if (!c->sim_width) {
		bt_diag_set(why, "model %s: no pipeline width for the simulated workload model (no "
			    "SLOTS_PER_CYC and no published model near the core)", c->def->id);
		return BT_ERR_UNSUPPORTED;
	}
	return bt_synth_use_workload(c->synth, cfg->wl->name, wl_param, cfg, why);
}

static void set_constants(struct bt_count_ctx *c, const struct bt_cpu_census *census)
{
	const struct bt_cpu_info *ci = c->cpu;
	/* SMT on or off: the counted CPU's. A simulated CPU's is its own (a
	 * Skylake with SMT on enumerates 4 general counters, with SMT off 8),
	 * never the host's. */
	uint32_t tpc = c->sim_threads_per_core ? c->sim_threads_per_core
		       : census && census->threads_per_core ? census->threads_per_core
							    : ci->threads_per_core;
	uint32_t packages = census && census->packages ? census->packages : 1;
	uint32_t cpus = census && census->total ? census->total : 1;

	for (int k = 0; k < BT_CONST_COUNT; k++)
		c->constants[k] = NAN;
	c->constants[BT_C_HYPERTHREADING_ON] = tpc > 1;
	c->constants[BT_C_THREADS_PER_CORE] = tpc ? tpc : 1;
	c->constants[BT_C_SOCKET_COUNT] = packages;
	c->constants[BT_C_NUM_CPUS] = cpus;
	c->constants[BT_C_CORES_PER_SOCKET] = (double)cpus / packages / (tpc ? tpc : 1);
	/* baretop counts one logical CPU, not core-wide (perf #core_wide). */
	c->constants[BT_C_CORE_WIDE] = 0;
	if (c->tsc_hz)
		c->constants[BT_C_TSC_HZ] = (double)c->tsc_hz;
	if (c->file_counts) {
		/* Replaying a count file: its machine's constants decide both
		 * which events are needed (SMT on/off branches) and the values. */
		for (int k = 0; k < BT_CONST_COUNT; k++)
			if (!isnan(c->file_counts->constants[k]))
				c->constants[k] = c->file_counts->constants[k];
	}
	c->smt = c->constants[BT_C_HYPERTHREADING_ON] > 0;
	const char *no_probe = NULL;
	if (!c->file_counts && c->smt && sibling_probe_applies(c, &no_probe)) {
		/* Both branches' events are counted (HYPERTHREADING_ON unknown
		 * to the planner), and each tree decides from the sibling its
		 * runs measured (count-run.c run_constants). */
		c->pmu.caps.sibling_probe = true;
		c->constants[BT_C_HYPERTHREADING_ON] = NAN;
		int ota = -1, xclk = -1;
		bt_plan_sibling_gp(&c->pmu.caps, &ota, &xclk);
		if (xclk >= 0)
			ctx_note(c, "SMT is on%s: each group also counts ONE_THREAD_ACTIVE and "
				    "REF_XCLK (counters %d, %d: no fixed counter 2); a sibling active "
				    ">= 50%% of the time takes the SMT formulas (each tree says)",
				 c->sim_threads_per_core ? " (the simulated CPU's CPUID)" : "", ota,
				 xclk);
		else
			ctx_note(c, "SMT is on%s: each group also counts ONE_THREAD_ACTIVE (counter "
				    "%d), REF_XCLK derived from fixed counter 2 (REF_TSC) at %u/%u TSC "
				    "ticks per tick (%s), checked by counting REF_XCLK in each tree's "
				    "first step; a sibling active >= 50%% of the time takes the SMT "
				    "formulas (each tree says)",
				 c->sim_threads_per_core ? " (the simulated CPU's CPUID)" : "", ota,
				 c->pmu.caps.tsc_per_xclk_num, c->pmu.caps.tsc_per_xclk_den,
				 c->pmu.caps.tsc_per_xclk_from ? c->pmu.caps.tsc_per_xclk_from
				 : "not enumerated: the count gives it");
		return;
	}
	if (!c->file_counts && c->smt) {
		/* The SMT-on formulas (HSW..SKX: SLOTS = 4 * THREAD_ANY / 2) assume
		 * both threads of the core were counted and summed. baretop counts
		 * one logical CPU while its sibling idles, so the per-thread
		 * formulas are the right ones (toplev's --single-thread). */
		c->constants[BT_C_HYPERTHREADING_ON] = 0;
		c->smt = false;
		ctx_note(c, "SMT is on%s, the sibling not measured (%s): per-thread formulas "
			    "(HYPERTHREADING_ON = 0), right while it idles%s",
			 c->sim_threads_per_core ? " (the simulated CPU's CPUID)" : "",
			 no_probe ? no_probe : "no SMT branches in the formulas",
			 c->copies > 1 ? "; with --copies a copy may run on the sibling, which "
					 "these formulas do not account for" : "");
	}
}

static bool vendor_is_amd(const char *v)
{
	return v && (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0);
}

/* A model the PMU cannot count is not a run that measures the Top-Down
 * tree: every node would come out missing. Said before anything runs,
 * naming the model, the PMU and what it lacks: the model's vendor against
 * the PMU's, then every event of the level-1 nodes through the planner. A
 * model the user named (--model, --model-files, --sim=NAME) is a usage
 * error; one chosen from CPUID on a PMU that lacks what it needs (a
 * hypervisor hiding fixed counter 3) means no counts, with the reason. */
static bt_status check_model_countable(struct bt_count_ctx *c, const struct bt_options *opt,
				       struct bt_diag *why)
{
	bt_status refuse = opt->model || opt->model_files || opt->sim ? BT_ERR_INVALID
									: BT_ERR_UNSUPPORTED;
	bool pmu_amd = c->pmu.caps.kind != BT_PMU_INTEL_ARCH;
	const char *pmu = c->synth ? bt_synth_cpu(c->synth)->brand : bt_pmu_kind_name(c->pmu.caps.kind);
	const char *which = opt->model_files ? "--model-files" : opt->model ? "--model" : "the model";

	if (c->def->vendor && vendor_is_amd(c->def->vendor) != pmu_amd) {
		bt_diag_set(why, "%s %s is a model of %s parts, but the%s PMU (%s) is %s's: "
			    "its events cannot be counted here", which,
			    opt->model_files ? opt->model_files : c->def->id, c->def->vendor,
			    c->synth ? " simulated" : "", pmu, pmu_amd ? "AMD" : "Intel");
		return refuse;
	}
	unsigned total = bt_model_event_count(c->model), n = 0;
	uint16_t *idx = calloc(total ? total : 1, sizeof(*idx));
	const struct bt_event **evp = calloc(total ? total : 1, sizeof(*evp));
	struct bt_plan_scratch *scratch = malloc(sizeof(*scratch));
	struct bt_plan *plan = malloc(sizeof(*plan));
	struct bt_plan_opts popts = { .smt_off = !c->smt };
	bt_status st = BT_ERR_NOMEM;

	if (!idx || !evp || !scratch || !plan)
		goto out;
	st = bt_model_events_up_to_level(c->model, 1, c->constants, idx, &n);
	if (st != BT_OK || n > BT_PLAN_MAX_EVENTS) {
		st = BT_OK; /* not judged here: the run says what it could not plan */
		goto out;
	}
	for (unsigned i = 0; i < n; i++)
		evp[i] = c->evp[idx[i]];
	if (bt_plan_events(evp, (int)n, &c->pmu.caps, &popts, scratch, plan) != BT_OK) {
		st = BT_OK;
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		if (plan->ev[i].place != BT_PLACE_UNMEASURABLE)
			continue;
		bt_diag_set(why, "%s %s: its level-1 nodes need %s, which the%s PMU (%s) cannot "
			    "count: %s", which, opt->model_files ? opt->model_files : c->def->id,
			    evp[i]->name, c->synth ? " simulated" : "", pmu, plan->ev[i].reason);
		st = refuse;
		goto out;
	}
	st = BT_OK;
out:
	free(idx);
	free(evp);
	free(scratch);
	free(plan);
	return st;
}

bt_status bt_count_prepare(struct bt_platform *p, const struct bt_options *opt,
			   const struct bt_cpu_info *cpu, const struct bt_cpu_census *census,
			   struct bt_count_ctx **ret, struct bt_diag *why)
{
	struct bt_count_ctx *c;
	struct bt_diag d = { "" };
	bt_status st;

	if (opt->no_count)
		return say(why, "--no-count");
	if (opt->counts_file && !opt->sim) {
		bt_diag_set(why, "--counts feeds the simulated PMU: add --sim");
		return BT_ERR_INVALID;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return BT_ERR_NOMEM;
	c->cpu = cpu;
	c->memory_pages = p->memory_pages;
	c->machine = p->sim_machine;
	c->level = opt->level;
	st = BT_OK;
	if (opt->counts_file) {
		if (bt_count_file_read(&c->arena, opt->counts_file, &c->cf, &d) != BT_OK) {
			bt_diag_set(why, "--counts: %s", d.text);
			st = BT_ERR_INVALID;
		}
		c->have_cf = st == BT_OK;
	}
	c->no_pebs = opt->no_pebs;
	c->no_default_rl = opt->no_default_rl;
	if (st == BT_OK && opt->retire_latency_file) {
		if (bt_rl_file_read(&c->arena, opt->retire_latency_file, &c->rl_file, &d) != BT_OK) {
			bt_diag_set(why, "--retire-latency-file: %s", d.text);
			st = BT_ERR_INVALID;
		}
		c->have_rl_file = st == BT_OK;
	}
	if (st == BT_OK)
		st = choose_model(c, opt, why);
	if (st != BT_OK && (opt->validate || opt->atlas) && !opt->model && !opt->model_files) {
		/* --validate checks the PMU's own events without a Top-Down model
		 * (a Core 2 or Zen 2 PMU has none): the reason becomes a note. */
		snprintf(c->how, sizeof(c->how), "no Top-Down model: %.200s", why ? why->text : "none");
		c->def = NULL;
		st = BT_OK;
	}
	/* No model to count for (a Core 2 or Zen 2 preset: timed only): a
	 * --sim-defect the simulated PMU cannot have is still a usage error,
	 * not a run that looks like a test of it. */
	if (st != BT_OK && st != BT_ERR_INVALID && opt->sim && opt->sim_defect &&
	    (opt->sim_name || opt->sim_cpuid)) {
		struct bt_synth_opts so = { .name = opt->sim_name, .defects = opt->sim_defect,
					    .cpuid_dump = opt->sim_cpuid };
		struct bt_synth *probe = NULL;
		struct bt_diag pd = { "" };
		if (bt_synth_new(&so, &probe, &pd) == BT_ERR_INVALID) {
			bt_diag_set(why, "%s", pd.text);
			st = BT_ERR_INVALID;
		}
		bt_synth_free(probe);
	}
	if (st == BT_OK && c->def && bt_model_open(c->def, &c->model, &d) != BT_OK) {
		bt_diag_set(why, "model %s: %s", c->def->id, d.text);
		st = BT_ERR_UNSUPPORTED;
	}
	/* A model the user named for a CPU of the other vendor: its event
	 * selects mean other events there, counted or not (no PMU: the run
	 * would say it timed what it was told to count with that model). The
	 * simulated PMU's vendor is checked against the model below
	 * (check_model_countable). */
	if (st == BT_OK && !opt->sim && c->def && c->def->vendor && (opt->model || opt->model_files) &&
	    vendor_is_amd(c->def->vendor) != vendor_is_amd(cpu->vendor_str)) {
		bt_diag_set(why, "%s %s is a model of %s parts, but this CPU is %s (CPUID): its "
			    "events mean other events here", opt->model_files ? "--model-files" : "--model",
			    opt->model_files ? opt->model_files : c->def->id, c->def->vendor,
			    cpu->vendor_str);
		st = BT_ERR_INVALID;
	}
	/* Options with nothing to act on for this model (options-combos.c). */
	if (st == BT_OK && c->model)
		bt_option_combos_model(opt, c->def->id, bt_model_retire_latency_count(c->model), combo_note, c);
	/* a --retire-latency-file entry the model does not know (a misspelling)
	 * would be ignored silently: a usage error with the nearest name */
	if (st == BT_OK && c->model && c->have_rl_file &&
	    bt_rl_file_check(&c->rl_file, c->model, &d) != BT_OK) {
		bt_diag_set(why, "--retire-latency-file: %s", d.text);
		st = BT_ERR_INVALID;
	}
	/* The rules every tree of this model must satisfy; without them (out
	 * of memory) the trees are still reported, unchecked. */
	if (st == BT_OK && c->model && bt_rules_derive(c->model, &c->rules, &d) != BT_OK)
		c->rules = NULL;
	if (st == BT_OK && opt->sim) {
		st = setup_sim(c, opt, why);
	} else if (st == BT_OK && opt->perf) {
		if (!p->os_pmu)
			st = say(why, "--backend=perf: no operating system's PMU driver here (it is "
				 "baretop-host run's, on Linux perf_event)");
		else
			st = p->os_pmu(cpu, &c->pmu, c->counted_by, sizeof(c->counted_by), why);
		for (int k = 0; st == BT_OK && k < c->pmu.n_facts; k++)
			ctx_note(c, "kernel: %s", c->pmu.facts[k]);
	} else if (st == BT_OK) {
		if (cpu->pmu.kind == BT_PMU_NONE) {
			st = say(why, "%s", cpu->pmu.absent_reason);
		} else if (!p->fault_guard.installed) {
			st = say(why, "the fault guard is not installed (%s): MSR access is "
				 "disabled", p->fault_guard.detail);
		} else {
			c->pmu.arch = p->arch;
			c->pmu.caps = cpu->pmu;
		}
	}
	if (st == BT_OK && c->model)
		st = prepare_events(c);
	if (st == BT_OK && c->synth && c->model)
		st = prepare_sim_source(c, opt, why);
	/* What the simulated PMU says about its counts, said once. */
	for (int k = 0; st == BT_OK && c->synth && bt_synth_note(c->synth, k); k++)
		ctx_note(c, "%s", bt_synth_note(c->synth, k));
	if (st != BT_OK) {
		bt_count_free(c);
		return st;
	}
	c->copies = opt->copies;
	c->exec_mode = opt->exec_path != NULL;
	c->quick = opt->quick;
	/* The health check programs the counters itself: not through an OS's
	 * driver, and pointless for counts replayed from a file. */
	c->health_off = opt->no_health_check ? "--no-health-check"
		: c->have_cf ? "the counts are replayed from a file (--counts)" : NULL;
	c->tsc_hz = c->synth ? bt_synth_cpu(c->synth)->tsc_hz : cpu->tsc_hz;
	if (c->synth) {
		struct bt_cpu_info sim_cpu;
		if (bt_synth_cpu_info(c->synth, &sim_cpu))
			c->sim_threads_per_core = sim_cpu.threads_per_core ? sim_cpu.threads_per_core : 1;
	}
	set_constants(c, census);
	if (c->model && (st = check_model_countable(c, opt, why)) != BT_OK) {
		bt_count_free(c);
		return st;
	}
	bt_measure_opts_defaults(&c->mopts);
	if (opt->reps)
		c->mopts.reps = opt->reps;
	if (opt->warmups_set)
		c->mopts.warmups = opt->warmups;
	const struct bt_sim_config *sim_cpu = c->synth ? bt_synth_cpu(c->synth) : NULL;
	c->mopts.pmu.read_aperf_mperf = sim_cpu ? sim_cpu->aperf_mperf : cpu->aperf_mperf;
	/* MSR_SMI_COUNT (0x34) exists on Intel Core parts since Nehalem. */
	c->mopts.pmu.read_smi_count = sim_cpu ? sim_cpu->smi_count
						  : cpu->vendor == BT_VENDOR_INTEL &&
							    cpu->family == 6 && cpu->model >= 0x1A;
	c->mopts.pmu.tsc_hz = c->tsc_hz;
	if (c->pmu.driver) {
		/* The OS's driver: no MSR is readable from user space (APERF,
		 * MPERF, MSR_SMI_COUNT). */
		c->mopts.pmu.read_aperf_mperf = false;
		c->mopts.pmu.read_smi_count = false;
	}
	/* The window cap in the TSC ticks the windows are timed in (under the
	 * simulated PMU its TSC, read at this rate as every duration is). */
	c->max_window_ms = opt->max_window_ms;
	c->mopts.max_window_ticks = c->tsc_hz ?
		(uint64_t)(opt->max_window_ms * (double)c->tsc_hz / 1000.0) : 0;
	struct bt_count_setup setup;

	bt_count_setup_of(c, &setup);
	bt_count_setup_describe(&setup, c->describe, sizeof(c->describe));
	*ret = c;
	return BT_OK;
}

void bt_count_free(struct bt_count_ctx *c)
{
	if (!c)
		return;
	bt_rules_free(c->rules);
	if (c->model)
		bt_model_close(c->model);
	if (c->file_counts)
		bt_counts_free(c->file_counts);
	bt_synth_free(c->synth);
	free(c->evp);
	free(c->twins);
	free(c->ev_untrust);
	bt_arena_free(&c->arena);
	free(c);
}

void bt_count_setup_of(const struct bt_count_ctx *c, struct bt_count_setup *ret)
{
	*ret = (struct bt_count_setup){
		.model_id = c->def ? c->def->id : NULL,
		.uarch = c->def ? c->def->uarch : NULL,
		.model_source = c->def ? c->def->source : NULL,
		.how = c->how,
		.simulated = c->synth != NULL,
		.pmu = c->synth ? bt_synth_cpu(c->synth)->brand : bt_pmu_kind_name(c->pmu.caps.kind),
		.source_label = c->synth ? bt_synth_setup_label(c->synth) : "",
		.counted_by = c->counted_by,
		.general_counters = (unsigned)__builtin_popcount(c->pmu.caps.gp_mask),
		.fixed_mask = c->pmu.caps.fixed_mask,
		.perf_metrics = c->pmu.caps.perf_metrics,
		.level = c->level,
		.warmups = c->mopts.warmups,
		.reps = c->mopts.reps,
		.calibration_runs = c->mopts.calib_runs,
		.max_retries = c->mopts.max_retries,
		.tolerance = c->mopts.tolerance,
		.max_window_ms = c->mopts.max_window_ticks ? c->max_window_ms : 0,
		.exec_mode = c->exec_mode,
		.notes = c->notes,
		.n_notes = c->n_notes,
		.health = c->health_list ? &c->health_list->h : NULL,
	};
}

/* One simulated PMU for every CPU (no machine double: --sim on UEFI or
 * hosted) does not know which CPU it counts on. On the SMT sibling of
 * baretop's CPU, which spins in the firmware's wait meanwhile (MpLib.c
 * StartupThisAPWorker), it sees that sibling run all the time, as each PMU
 * of the machine double does (host/machine-double.c); elsewhere as
 * before. --sim-sibling-active, the user's setting, stays. */
void bt_count_sim_sibling_busy(struct bt_count_ctx *c, bool busy)
{
	if (!c->synth || c->machine || c->sim_sibling_given)
		return;
	if (busy)
		bt_sim_set_sibling_active(c->pmu.arch, 1.0);
	else
		bt_sim_clear_sibling_active(c->pmu.arch);
}

const char *bt_count_describe(const struct bt_count_ctx *c)
{
	return c->describe;
}
