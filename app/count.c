/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/count-internal.h"
#include "app/on-cpu.h"
#include "metrics/builtin.h"
#include "metrics/counts-file.h"
#include "metrics/load.h"
#include "metrics/select.h"
#include "pmu/cpu-detect.h"
#include "pmu/pmu-caps.h"
#include "pmu/event-encode.h"
#include "pmu/plan.h"
#include "arch/sim/sim.h"
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
	r->retire_latency = NULL;
	if (!r->vendor)
		r->vendor = c->cpu->vendor_str;
	if (!r->uarch)
		r->uarch = "loaded from --model-files";
	for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ",")) {
		if (nm == 0)
			r->metrics[nm++] = tok;
		else if (ne < BT_RECIPE_MAX_FILES - 1)
			r->events[ne++] = tok;
	}
	bt_status st = bt_model_load(&c->arena, r, NULL, &def, &d);
	if (st != BT_OK) {
		bt_diag_set(why, "--model-files: %s", d.text);
		return BT_ERR_INVALID;
	}
	c->def = def;
	c->like_id = base ? base->id : NULL;
	snprintf(c->how, sizeof(c->how), "loaded at run time from %s%s%s", list,
		 base ? "; settings of the built-in " : "", base ? base->id : "");
	return BT_OK;
}

/* --sim=PRESET: the identity the simulated CPU answers in CPUID (a part's
 * own leaves for the presets after a real part, the preset's signature
 * otherwise), so the model is the simulated CPU's and never the host's: an
 * Intel preset on an AMD host must not be given an AMD model. */
static bool sim_cpu_identity(const char *preset_name, struct bt_cpu_info *ret)
{
	const struct bt_sim_config *preset = preset_name ? bt_sim_preset(preset_name) : NULL;
	struct bt_sim *sim;
	struct bt_detect_options o = { 0 };

	if (!preset || !(sim = calloc(1, sizeof(*sim))))
		return false;
	bool ok = bt_sim_init(sim, preset) == BT_OK;
	if (ok)
		bt_cpu_detect(&sim->arch, &o, ret);
	bt_sim_free(sim);
	free(sim);
	return ok;
}

static bt_status choose_model(struct bt_count_ctx *c, const struct bt_options *opt,
			      struct bt_diag *why)
{
	const struct bt_cpu_info *ci = c->cpu;
	struct bt_cpu_info sim_cpu;
	bool from_sim = false;

	if (opt->sim && !opt->model && !(c->have_cf && c->cf.model) &&
	    !(opt->sim_name && bt_builtin_find(opt->sim_name)) &&
	    sim_cpu_identity(opt->sim_name, &sim_cpu)) {
		ci = &sim_cpu;
		from_sim = true;
	}
	struct bt_cpu_facts facts = {
		.vendor = ci->vendor_str, .family = ci->family, .model = ci->model,
		.stepping = ci->stepping, .core_type = (uint8_t)ci->core_type,
		.native_model = ci->native_model_id,
	};
	const struct bt_model_def *def = NULL;
	struct bt_diag d = { "" };
	char key[64];

	bt_cpu_facts_key(&facts, key, sizeof(key));
	/* With --sim=MODEL the simulated CPU's model is meant. */
	const char *force = opt->model;
	if (!force && c->have_cf && c->cf.model)
		force = c->cf.model;   /* the count file says whose counts they are */
	if (!force && opt->sim && opt->sim_name && bt_builtin_find(opt->sim_name))
		force = opt->sim_name;
	bt_status st = bt_model_select(&facts, force, &def, &d);
	if (opt->model_files)
		return load_model_files(c, opt->model_files, st == BT_OK ? def : NULL, why);
	if (st != BT_OK) {
		bt_diag_set(why, "%s", d.text);
		return force ? BT_ERR_INVALID : BT_ERR_UNSUPPORTED;
	}
	c->def = def;
	if (opt->model)
		snprintf(c->how, sizeof(c->how), "forced with --model");
	else if (c->have_cf && c->cf.model)
		snprintf(c->how, sizeof(c->how), "named by the count file %s", opt->counts_file);
	else if (force)
		snprintf(c->how, sizeof(c->how), "the model of the simulated CPU (--sim=%s)", force);
	else if (from_sim)
		snprintf(c->how, sizeof(c->how), "selected from the simulated CPU's CPUID (%s, --sim=%s)",
			 key, opt->sim_name);
	else
		snprintf(c->how, sizeof(c->how), "selected from CPUID (%s)", key);
	return BT_OK;
}

static void ctx_note(struct bt_count_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The simulated PMU: --sim[=NAME], NAME a model id or a preset. */
static bt_status setup_sim(struct bt_count_ctx *c, const struct bt_options *opt,
			   struct bt_diag *why)
{
	const char *name = opt->sim_name ? opt->sim_name : c->like_id ? c->like_id
					  : c->def ? c->def->id : NULL;
	const struct bt_sim_config *preset;

	if (!name) {
		bt_diag_set(why, "--sim without a model: name a preset, --sim=PRESET");
		return BT_ERR_INVALID;
	}

	if (!bt_sim_config_for_model(name, &c->simcfg)) {
		preset = bt_sim_preset(name);
		if (!preset) {
			bt_sim_diag_unknown(why, name);
			return BT_ERR_INVALID;
		}
		c->simcfg = *preset;
	}
	if (opt->sim_defect &&
	    bt_sim_defects_parse(opt->sim_defect, &c->simcfg.defects, why) != BT_OK)
		return BT_ERR_INVALID;
	if (c->simcfg.defects.mask) {
		char list[160];
		bt_sim_defects_format(&c->simcfg.defects, list, sizeof(list));
		ctx_note(c, "simulated PMU with injected hardware defects (--sim-defect %s)", list);
	}
	c->sim = calloc(1, sizeof(*c->sim));
	if (!c->sim || bt_sim_init(c->sim, &c->simcfg) != BT_OK)
		return say(why, "the simulated PMU could not be set up");
	bt_pmu_caps_detect(&c->sim->arch, &c->caps);
	c->arch = &c->sim->arch;
	c->simulated = true;
	return BT_OK;
}

/* The events the planner sees: a filtered event only fixed counter 0/1
 * counts becomes its architectural general-counter twin. */
static bt_status prepare_events(struct bt_count_ctx *c)
{
	unsigned n = bt_model_event_count(c->model);

	c->evp = calloc(n ? n : 1, sizeof(*c->evp));
	c->twins = calloc(n ? n : 1, sizeof(*c->twins));
	if (!c->evp || !c->twins)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < n; i++) {
		c->evp[i] = bt_model_event(c->model, i);
		if (bt_event_fixed_to_gp(c->evp[i], &c->caps, &c->twins[i]))
			c->evp[i] = &c->twins[i];
	}
	return BT_OK;
}

__attribute__((format(printf, 2, 3)))
static void ctx_note(struct bt_count_ctx *c, const char *fmt, ...)
{
	va_list ap;

	if (c->n_notes == (int)(sizeof(c->notes) / sizeof(c->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(c->notes[c->n_notes++], sizeof(c->notes[0]), fmt, ap);
	va_end(ap);
}

/* A count file can say things no PMU can: two events with the same
 * encoding counting differently, or a PERF_METRICS count that no 8-bit
 * field gives. The simulated PMU behaves like hardware; say where the file
 * and hardware part ways. */
static void check_source(struct bt_count_ctx *c)
{
	uint64_t slots = 0;

	for (size_t i = 0; i < c->n_src; i++) {
		const struct bt_sim_count *a = &c->src[i];

		if (a->ev.source == BT_SRC_PMC && a->ev.fixed == 3 && !a->ev.flags)
			slots = a->count;
		for (size_t k = i + 1; k < c->n_src; k++) {
			const struct bt_sim_count *b = &c->src[k];
			if (a->ev.source == BT_SRC_PMC && b->ev.source == BT_SRC_PMC &&
			    a->count != b->count && bt_plan_same_encoding(&a->ev, &b->ev))
				ctx_note(c, "the count file gives %s and %s, which have the same "
					    "encoding, different counts (%llu, %llu): a PMU counts them "
					    "alike, so nodes using either may differ from the file's",
					 a->ev.name, b->ev.name, (unsigned long long)a->count,
					 (unsigned long long)b->count);
		}
	}
	for (size_t i = 0; i < c->n_src; i++) {
		const struct bt_sim_count *a = &c->src[i];
		uint64_t lo, hi;

		if (a->ev.source != BT_SRC_PERF_METRICS)
			continue;
		if (!slots) {
			if (a->count)
				ctx_note(c, "the count file's %s = %llu with TOPDOWN.SLOTS = 0: "
					    "PERF_METRICS holds fractions of SLOTS, so it reads 0",
					 a->ev.name, (unsigned long long)a->count);
			continue;
		}
		lo = a->count * 255 / slots;
		hi = lo + 1;
		if (slots * lo / 255 != a->count && slots * hi / 255 != a->count)
			ctx_note(c, "the count file's %s = %llu is not floor(SLOTS*b/255) for any "
				    "byte b (SLOTS = %llu): PERF_METRICS cannot hold it, the simulated "
				    "register keeps the nearest", a->ev.name,
				 (unsigned long long)a->count, (unsigned long long)slots);
	}
}


static void ctx_note(struct bt_count_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct bt_sim_count *src_named(struct bt_count_ctx *c, const char *name)
{
	for (size_t i = 0; i < c->n_src; i++)
		if (c->src[i].ev.name && !strcmp(c->src[i].ev.name, name))
			return &c->src[i];
	return NULL;
}

/* --sim-miscount EVENT:scale=X|stuck=N|swap=OTHER: one event of the count
 * source miscounts, as a broken event on new silicon would; the consistency
 * rules are expected to name a rule containing it. */
static bt_status apply_miscount(struct bt_count_ctx *c, struct bt_diag *why)
{
	char name[160];
	const char *m = c->miscount, *colon = m ? strrchr(m, ':') : NULL;

	if (!m)
		return BT_OK;
	while (colon && colon > m && strncmp(colon + 1, "scale=", 6) &&
	       strncmp(colon + 1, "stuck=", 6) && strncmp(colon + 1, "swap=", 5)) {
		const char *p = colon - 1;
		while (p > m && *p != ':')
			p--;
		colon = *p == ':' ? p : NULL;
	}
	if (!colon || (size_t)(colon - m) >= sizeof(name))
		return say(why, "--sim-miscount %s: EVENT:scale=X|stuck=N|swap=OTHER", m);
	snprintf(name, sizeof(name), "%.*s", (int)(colon - m), m);
	const char *how = colon + 1;
	struct bt_sim_count *e = src_named(c, name);
	if (!e)
		return say(why, "--sim-miscount: %s is not among the events of model %s", name,
			   c->def->id);
	if (!strncmp(how, "scale=", 6)) {
		e->count = (uint64_t)llround((double)e->count * strtod(how + 6, NULL));
	} else if (!strncmp(how, "stuck=", 6)) {
		e->count = strtoull(how + 6, NULL, 0);
	} else {
		struct bt_sim_count *o = src_named(c, how + 5);
		if (!o)
			return say(why, "--sim-miscount: %s is not among the events of model %s",
				   how + 5, c->def->id);
		uint64_t t = e->count;
		e->count = o->count;
		o->count = t;
	}
	snprintf(c->sim_miscount_note, sizeof(c->sim_miscount_note),
		 "simulated PMU: %.60s miscounts on purpose (--sim-miscount %.80s)", name, m);
	if (!c->sim_miscount_noted) {
		c->sim_miscount_noted = true;
		ctx_note(c, "%s", c->sim_miscount_note);
	}
	return BT_OK;
}

/* What the simulated PMU counts: the count file's counts for the model's
 * events (as the planner will program them), or generated ones. */
static bt_status prepare_sim_source(struct bt_count_ctx *c, const struct bt_options *opt,
				    struct bt_diag *why)
{
	unsigned n = bt_model_event_count(c->model);
	struct bt_diag d = { "" };

	c->src = calloc(n ? n : 1, sizeof(*c->src));
	(void)d;
	if (!c->src)
		return BT_ERR_NOMEM;
	if (opt->counts_file) {
		c->file_counts = bt_counts_new(c->model);
		unsigned unused = 0;
		if (!c->file_counts ||
		    bt_count_file_apply(&c->cf, c->file_counts, &unused, &d) != BT_OK) {
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
		for (unsigned i = 0; i < n; i++) {
			double v = c->file_counts->events[i];

			if (isnan(v) || v < 0)
				continue;
			c->src[c->n_src].ev = *c->evp[i];
			c->src[c->n_src].count = (uint64_t)v;
			c->n_src++;
		}
		snprintf(c->source_label, sizeof(c->source_label), "counts from %s%s%s",
			 opt->counts_file, c->cf.case_name ? ", case " : "",
			 c->cf.case_name ? c->cf.case_name : "");
		check_source(c);
	} else {
		if (bt_sim_generate_counts(c->evp, n, 1, c->src) != BT_OK)
			return say(why, "the simulated PMU cannot generate counts for %s "
				   "(it needs TOPDOWN.SLOTS among the events)", c->def->id);
		c->n_src = n;
		snprintf(c->source_label, sizeof(c->source_label),
			 "deterministic generated counts (not a workload's)");
		/* Built-in workloads replace these with their own model's counts
		 * (bt_count_sim_workload); only an -x application, which has no
		 * model, keeps them. */
		snprintf(c->setup_label, sizeof(c->setup_label),
			 "counts of each built-in workload's model (base/wl-profile.h: a model, "
			 "not a measurement); generated counts for an application run with -x");
	}
	c->miscount = opt->sim_miscount;
	c->source.entries = c->src;
	c->source.n = c->n_src;
	return apply_miscount(c, why);
}

/* Issue slots per cycle of a model's cores (the TMA Pipeline_Width): what
 * the workload model sizes SLOTS with. */
static double model_width(const char *id)
{
	static const struct { const char *id; double w; } t[] = {
		{ "ICL", 5 }, { "TGL", 5 }, { "ICX", 5 }, { "ADL-GRT", 5 }, { "SRF", 6 },
		{ "MTL-CMT", 6 }, { "ADL-GLC", 6 }, { "SPR", 6 }, { "SPR-HBM", 6 }, { "EMR", 6 },
		{ "GNR", 6 }, { "MTL-RWC", 6 }, { "LNL-LNC", 8 }, { "ARL-LNC", 8 },
		{ "LNL-SKT", 8 }, { "ARL-SKT", 8 }, { "ZEN4", 6 }, { "ZEN5", 8 },
	};
	for (size_t k = 0; id && k < sizeof(t) / sizeof(t[0]); k++)
		if (!strcmp(t[k].id, id))
			return t[k].w;
	return 4; /* IVB .. SKX */
}

bt_status bt_count_sim_workload(struct bt_count_ctx *c, const struct bt_wl_config *cfg,
				struct bt_diag *why)
{
	if (!c->simulated || c->file_counts || !cfg || !cfg->wl || !cfg->wl->profile)
		return BT_OK;
	unsigned n = bt_model_event_count(c->model);
	double insts = bt_wl_profile_insts(cfg);
	/* The seed: the workload's name, so each workload's run is its own. */
	uint64_t seed = 0xCBF29CE484222325ull;
	for (const char *q = cfg->wl->name; *q; q++)
		seed = (seed ^ (unsigned char)*q) * 0x100000001B3ull;
	if (bt_sim_workload_counts(c->evp, n, cfg->wl->profile, insts,
				   model_width(c->like_id ? c->like_id : c->def->id), seed, c->src,
				   c->sim_unknown, sizeof(c->sim_unknown)) != BT_OK)
		return say(why, "the simulated PMU cannot count %s's model for %s (it needs "
			   "TOPDOWN.SLOTS among the events)", cfg->wl->name, c->def->id);
	c->n_src = n;
	snprintf(c->source_label, sizeof(c->source_label),
		 "counts of the workload model of %s (base/wl-profile.h: a model, not a "
		 "measurement)", cfg->wl->name);
	c->source.entries = c->src;
	c->source.n = c->n_src;
	return apply_miscount(c, why);
}

static void ctx_note(struct bt_count_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void set_constants(struct bt_count_ctx *c, const struct bt_cpu_census *census)
{
	const struct bt_cpu_info *ci = c->cpu;
	uint32_t tpc = census && census->threads_per_core ? census->threads_per_core
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
	if (ci->tsc_hz)
		c->constants[BT_C_TSC_HZ] = (double)ci->tsc_hz;
	if (c->file_counts) {
		/* Replaying a count file: its machine's constants decide both
		 * which events are needed (SMT on/off branches) and the values. */
		for (int k = 0; k < BT_CONST_COUNT; k++)
			if (!isnan(c->file_counts->constants[k]))
				c->constants[k] = c->file_counts->constants[k];
	}
	c->smt = c->constants[BT_C_HYPERTHREADING_ON] > 0;
	if (!c->file_counts && c->smt) {
		/* The SMT-on formulas (HSW..SKX: SLOTS = 4 * THREAD_ANY / 2) assume
		 * both threads of the core were counted and summed. baretop counts
		 * one logical CPU while its sibling idles, so the per-thread
		 * formulas are the right ones (toplev's --single-thread). */
		c->constants[BT_C_HYPERTHREADING_ON] = 0;
		c->smt = false;
		ctx_note(c, "SMT is on, but baretop counts one logical CPU while its sibling "
			    "idles: the per-thread formulas are used (HYPERTHREADING_ON = 0)%s",
			 c->copies > 1 ? "; with --copies a copy may run on the sibling, which "
					 "these formulas do not account for" : "");
	}
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
	c->level = opt->level;
	st = BT_OK;
	if (opt->counts_file) {
		if (bt_count_file_read(&c->arena, opt->counts_file, &c->cf, &d) != BT_OK) {
			bt_diag_set(why, "--counts: %s", d.text);
			st = BT_ERR_INVALID;
		}
		c->have_cf = st == BT_OK;
	}
	if (st == BT_OK)
		st = choose_model(c, opt, why);
	if (st != BT_OK && opt->validate && !opt->model && !opt->model_files) {
		/* --validate checks the PMU's own events without a Top-Down model
		 * (a Core 2 or Zen 2 PMU has none): the reason becomes a note. */
		snprintf(c->how, sizeof(c->how), "no Top-Down model: %.200s", why ? why->text : "none");
		c->def = NULL;
		st = BT_OK;
	}
	if (st == BT_OK && c->def && bt_model_open(c->def, &c->model, &d) != BT_OK) {
		bt_diag_set(why, "model %s: %s", c->def->id, d.text);
		st = BT_ERR_UNSUPPORTED;
	}
	/* The rules every tree of this model must satisfy; without them (out
	 * of memory) the trees are still reported, unchecked. */
	if (st == BT_OK && c->model && bt_rules_derive(c->model, &c->rules, &d) != BT_OK)
		c->rules = NULL;
	if (st == BT_OK && opt->sim) {
		st = setup_sim(c, opt, why);
	} else if (st == BT_OK) {
		if (cpu->pmu.kind == BT_PMU_NONE) {
			st = say(why, "%s", cpu->pmu.absent_reason);
		} else if (!p->fault_guard.installed) {
			st = say(why, "the fault guard is not installed (%s): MSR access is "
				 "disabled", p->fault_guard.detail);
		} else {
			c->arch = p->arch;
			c->caps = cpu->pmu;
		}
	}
	if (st == BT_OK && c->model)
		st = prepare_events(c);
	if (st == BT_OK && c->simulated && c->model)
		st = prepare_sim_source(c, opt, why);
	if (st != BT_OK) {
		bt_count_free(c);
		return st;
	}
	c->copies = opt->copies;
	c->exec_mode = opt->exec_path != NULL;
	set_constants(c, census);
	bt_measure_opts_defaults(&c->mopts);
	if (opt->reps)
		c->mopts.reps = opt->reps;
	if (opt->warmups_set)
		c->mopts.warmups = opt->warmups;
	c->mopts.pmu.read_aperf_mperf = c->simulated ? c->simcfg.aperf_mperf : cpu->aperf_mperf;
	/* MSR_SMI_COUNT (0x34) exists on Intel Core parts since Nehalem. */
	c->mopts.pmu.read_smi_count = c->simulated ? c->simcfg.smi_count
						  : cpu->vendor == BT_VENDOR_INTEL &&
							    cpu->family == 6 && cpu->model >= 0x1A;
	c->mopts.pmu.tsc_hz = cpu->tsc_hz;
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
	if (c->sim) {
		bt_sim_free(c->sim);
		free(c->sim);
	}
	free(c->src);
	free(c->evp);
	free(c->twins);
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
		.simulated = c->simulated,
		.pmu = c->simulated ? c->simcfg.brand : bt_pmu_kind_name(c->caps.kind),
		.source_label = c->setup_label[0] ? c->setup_label : c->source_label,
		.general_counters = (unsigned)__builtin_popcount(c->caps.gp_mask),
		.fixed_mask = c->caps.fixed_mask,
		.perf_metrics = c->caps.perf_metrics,
		.level = c->level,
		.warmups = c->mopts.warmups,
		.reps = c->mopts.reps,
		.calibration_runs = c->mopts.calib_runs,
		.max_retries = c->mopts.max_retries,
		.tolerance = c->mopts.tolerance,
		.exec_mode = c->exec_mode,
		.notes = c->notes,
		.n_notes = c->n_notes,
	};
}

const char *bt_count_describe(const struct bt_count_ctx *c)
{
	return c->describe;
}
