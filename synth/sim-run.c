/* SPDX-License-Identifier: MIT */
/* The simulated PMU of one run: see sim-run.h. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/notes.h"
#include "kernels/kernel.h"
#include "pmu/cpu-detect.h"
#include "pmu/plan.h"
#include "pmu/pmu-caps.h"
#include "synth/wl-costs.h"
#include "synth/count-sources.h"
#include "synth/mem-hierarchy.h"
#include "base/near-name.h"
#include "synth/sim-cpuid-dump.h"
#include "synth/sim-run.h"

#define SYNTH_MAX_NOTES 6

struct bt_synth {
	struct bt_sim sim;             /* the simulated PMU (a machine's: its template) */
	/* Every PMU it counts through: &sim, then on a machine
	 * (sim-run.h bt_synth_machine) one per logical CPU of its kind. */
	struct bt_sim **pmu;
	unsigned n_pmu;
	const struct bt_sim_machine *machine;
	const char *miscount;          /* --sim-miscount */
	const char *model_id;
	/* The model's events (copies) and the source counting them. */
	struct bt_event *ev;
	const struct bt_event **evp;
	size_t n_ev;
	struct bt_sim_count *entries;  /* room for n_ev */
	struct bt_sim_source source;
	bool from_file;
	char source_label[320];        /* what the current workload's counts are */
	char setup_label[320];         /* what the run's counts are, said once */
	char unknown[240];             /* the workload model's events with no rule */
	char miscount_note[200];
	bool miscount_noted;
	char notes[SYNTH_MAX_NOTES][320];
	int n_notes;
	unsigned notes_dropped;        /* past the last slot (base/notes.h) */
	char source_error[320];
	/* --validate: the kernel being measured and kernel `empty`, whose
	 * window calibrates it; the conformance checks' window. */
	struct bt_sim_count kc[BT_SIM_KERNEL_MAX_COUNTS], ec[BT_SIM_KERNEL_MAX_COUNTS];
	struct bt_sim_source ks, es;
	struct bt_sim_count wc[BT_SIM_KNOWN_MAX];
	struct bt_sim_source ws;
	/* Issue slots per cycle of the counted core: the model's
	 * pipeline_width (bt_synth_set_width), 0 when there is no model. */
	unsigned width;
	/* The simulated CPU's caches (its CPUID leaf 04H / 8000_001DH) and
	 * load-to-use latencies: what the workload model's loads cost and
	 * the timed-PEBS records' retire latencies (mem-hierarchy.h). */
	struct bt_mem_hier hier;
	struct bt_synth_dump_cpu *dump_cpu; /* --sim-cpuid: owns cfg.part */
};

__attribute__((format(printf, 2, 3)))
static void note(struct bt_synth *s, const char *fmt, ...)
{
	va_list ap;

	/* Past the last slot, it says how many more there were. */
	va_start(ap, fmt);
	BT_NOTES_VADD(s->notes, s->n_notes, s->notes_dropped, fmt, ap);
	va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static bt_status fail(struct bt_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		va_start(ap, fmt);
		vsnprintf(d->text, sizeof(d->text), fmt, ap);
		va_end(ap);
	}
	return BT_ERR_UNSUPPORTED;
}

/* Timed PEBS records carry the workload model's costs (wl-costs.h), a
 * load's by the simulated CPU's latencies. */
static void pebs_model(struct bt_synth *s, struct bt_sim *sim)
{
	sim->pebs_latency = bt_synth_pebs_latency;
	sim->pebs_latency_ctx = &s->hier;
}

static void attach_all(struct bt_synth *s, const struct bt_sim_source *src,
		       const struct bt_sim_source *alt)
{
	for (unsigned k = 0; k < s->n_pmu; k++)
		bt_sim_attach_sources(s->pmu[k], src, alt);
}

/* The configuration of NAME: a model's simulated CPU, else a preset. */
static bool config_of(const char *name, struct bt_sim_config *ret)
{
	const struct bt_sim_config *preset;

	if (bt_sim_config_for_model(name, ret))
		return true;
	preset = bt_sim_preset(name);
	if (!preset)
		return false;
	*ret = *preset;
	return true;
}

static int same_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	return *a == *b;
}

const char *bt_synth_canonical(const char *name)
{
	struct bt_sim_config c;

	if (!name)
		return NULL;
	if (config_of(name, &c))
		return name;
	for (size_t i = 0; bt_sim_model_names[i]; i++)
		if (same_nocase(bt_sim_model_names[i], name))
			return bt_sim_model_names[i];
	for (size_t i = 0; bt_sim_preset_names[i]; i++)
		if (same_nocase(bt_sim_preset_names[i], name))
			return bt_sim_preset_names[i];
	return NULL;
}

bool bt_synth_known(const char *name, struct bt_diag *d)
{
	struct bt_sim_config c;

	if (name && config_of(name, &c))
		return true;
	bt_sim_diag_unknown(d, name);
	return false;
}

static bool identity_of(const struct bt_sim_config *cfg, struct bt_cpu_info *ret)
{
	struct bt_sim *sim;
	struct bt_detect_options o = { 0 };

	if (!cfg || !(sim = calloc(1, sizeof(*sim))))
		return false;
	bool ok = bt_sim_init(sim, cfg) == BT_OK;
	if (ok)
		bt_cpu_detect(&sim->arch, &o, ret);
	bt_sim_free(sim);
	free(sim);
	return ok;
}

bool bt_synth_cpu_info(const struct bt_synth *s, struct bt_cpu_info *ret)
{
	struct bt_sim_config cfg = s->sim.cfg;

	/* Detection only: no defect may fault or change what CPUID says. */
	memset(&cfg.defects, 0, sizeof(cfg.defects));
	return identity_of(&cfg, ret);
}

bool bt_synth_identity(const struct bt_synth_opts *o, struct bt_cpu_info *ret,
		       struct bt_diag *d)
{
	struct bt_sim_config cfg;
	struct bt_synth_dump_cpu *dc = NULL;
	if (o->cpuid_dump) {
		if (bt_synth_dump_cpu_load(o->cpuid_dump, o->name, &dc, d) != BT_OK)
			return false;
		cfg = *bt_synth_dump_cpu_config(dc);
	} else if (!o->name || !config_of(o->name, &cfg)) {
		bt_sim_diag_unknown(d, o->name);
		return false;
	}
	bool ok = identity_of(&cfg, ret);
	char why[200];
	const char *problem = bt_sim_config_problem(&cfg, why, sizeof(why));
	if (!ok)
		bt_diag_set(d, "the simulated PMU could not be set up%s%s", problem ? ": " : "",
			    problem ? problem : "");
	bt_synth_dump_cpu_free(dc);
	return ok;
}

bt_status bt_synth_new(const struct bt_synth_opts *o, struct bt_synth **ret, struct bt_diag *d)
{
	struct bt_sim_config cfg;
	struct bt_synth *s;

	struct bt_synth_dump_cpu *dc = NULL;

	*ret = NULL;
	if (o->cpuid_dump) {
		bt_status st = bt_synth_dump_cpu_load(o->cpuid_dump, o->name, &dc, d);
		if (st != BT_OK)
			return st;
		cfg = *bt_synth_dump_cpu_config(dc);
	} else if (!o->name || !config_of(o->name, &cfg)) {
		bt_sim_diag_unknown(d, o->name);
		return BT_ERR_INVALID;
	}
	if (o->defects && bt_sim_defects_parse(o->defects, &cfg.defects, d) != BT_OK) {
		bt_synth_dump_cpu_free(dc);
		return BT_ERR_INVALID;
	}
	if (bt_sim_defects_check(&cfg.defects, &cfg, d) != BT_OK) {
		bt_synth_dump_cpu_free(dc);
		return BT_ERR_INVALID;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		bt_synth_dump_cpu_free(dc);
		return BT_ERR_NOMEM;
	}
	s->dump_cpu = dc;
	s->machine = o->machine;
	s->pmu = calloc(1 + (o->machine ? o->machine->n_cpus : 0), sizeof(*s->pmu));
	if (!s->pmu) {
		bt_synth_free(s);
		return BT_ERR_NOMEM;
	}
	s->pmu[s->n_pmu++] = &s->sim;
	if (dc)
		note(s, "%s", bt_synth_dump_cpu_note(dc));
	if (cfg.defects.mask) {
		char list[160];
		bt_sim_defects_format(&cfg.defects, list, sizeof(list));
		note(s, "simulated PMU with injected hardware defects (--sim-defect %s)", list);
	}
	if (bt_sim_init(&s->sim, &cfg) != BT_OK) {
		char why[200];
		const char *problem = bt_sim_config_problem(&cfg, why, sizeof(why));
		/* said before the dump, which holds the brand, is freed */
		bt_status st = fail(d, "the simulated PMU could not be set up for %s: %s",
				    cfg.brand && cfg.brand[0] ? cfg.brand : "this CPU",
				    problem ? problem : "unknown");
		s->n_pmu = 0;
		bt_synth_free(s);
		return st;
	}
	bt_mem_hier_of(&s->sim, &s->hier);
	pebs_model(s, &s->sim);
	s->miscount = o->miscount;
	if (s->machine) {
		/* a PMU per CPU of this kind: each counts on its own */
		unsigned n = s->machine->pmus(s->machine->ctx, &cfg, s->pmu + 1, d);
		for (unsigned k = 1; k <= n; k++)
			pebs_model(s, s->pmu[k]);
		s->n_pmu += n;
		if (!n) {
			bt_synth_free(s);
			return BT_ERR_INVALID;
		}
		note(s, "one simulated PMU per logical CPU: %u CPUs of the simulated machine are "
			"this kind of core", n);
	}
	*ret = s;
	return BT_OK;
}

void bt_synth_free(struct bt_synth *s)
{
	if (!s)
		return;
	for (unsigned k = 0; k < s->n_pmu; k++)
		bt_sim_detach_sources(s->pmu[k]);
	if (s->n_pmu > 1)
		s->machine->release(s->machine->ctx, s->pmu + 1, s->n_pmu - 1);
	if (s->n_pmu)
		bt_sim_free(&s->sim);
	free(s->pmu);
	free(s->entries);
	free(s->evp);
	free(s->ev);
	bt_synth_dump_cpu_free(s->dump_cpu);
	free(s);
}

struct bt_arch *bt_synth_arch(struct bt_synth *s)
{
	return s->machine ? s->machine->arch : &s->sim.arch;
}

void bt_synth_caps(struct bt_synth *s, struct bt_pmu_caps *ret)
{
	bt_pmu_caps_detect(&s->sim.arch, ret);
}

const struct bt_sim_config *bt_synth_cpu(const struct bt_synth *s)
{
	return &s->sim.cfg;
}

/* ---------------------------------------------------------- a model's events */

bt_status bt_synth_set_events(struct bt_synth *s, const struct bt_event *const *evp, size_t n,
			      const char *model_id)
{
	size_t room = n ? n : 1;

	s->ev = calloc(room, sizeof(*s->ev));
	s->evp = calloc(room, sizeof(*s->evp));
	s->entries = calloc(room, sizeof(*s->entries));
	if (!s->ev || !s->evp || !s->entries)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		s->ev[i] = *evp[i];
		s->evp[i] = &s->ev[i];
	}
	s->n_ev = n;
	s->model_id = model_id;
	return BT_OK;
}

/* The source counts the first n entries from now on (for the body it was
 * last attached for, until bt_synth_attach names the next). */
static void use_entries(struct bt_synth *s, size_t n)
{
	s->source.entries = s->entries;
	s->source.n = n;
	s->source.tsc_per_window = 0; /* the source's TSC entry, or the CPU's default */
}

/*
 * REF_XCLK and ONE_THREAD_ACTIVE (0x3C umask 0x01 and 0x02, any thread or
 * not) count the part's reference clock while the thread is unhalted, which
 * is fixed counter 2's time (CPU_CLK_UNHALTED.REF_TSC, the TSC's rate) at
 * the ratio the simulated part states (arch/sim/sim.h bt_sim_tsc_per_xclk:
 * its CPUID.15H or MSR_PLATFORM_INFO): so they agree with what detection
 * reads from it, and a driver that derives REF_XCLK at another ratio meets
 * the difference. A part that states none keeps the workload model's
 * figure (a hundredth of the cycles). ONE_THREAD_ACTIVE equals REF_XCLK
 * here: the sibling is the sim's to add (bt_sim_set_sibling_active).
 */
static void xclk_counts(struct bt_synth *s)
{
	uint32_t num, den;
	const struct bt_sim_count *tsc = NULL;

	if (!bt_sim_tsc_per_xclk(&s->sim.cfg, &num, &den))
		return;
	for (size_t i = 0; i < s->source.n && !tsc; i++) {
		const struct bt_event *e = &s->entries[i].ev;
		if (e->source == BT_SRC_PMC && e->fixed == 2 && !e->flags && !e->cmask)
			tsc = &s->entries[i];
	}
	for (size_t i = 0; tsc && i < s->source.n; i++) {
		const struct bt_event *e = &s->entries[i].ev;
		if (e->source == BT_SRC_PMC && e->code == 0x3C && (e->umask == 0x01 || e->umask == 0x02) &&
		    !e->cmask && !(e->flags & (BT_EVF_INV | BT_EVF_EDGE)))
			s->entries[i].count = (uint64_t)llround((double)tsc->count * den / num);
	}
}

static struct bt_sim_count *entry_named(struct bt_synth *s, const char *name)
{
	for (size_t i = 0; i < s->source.n; i++)
		if (s->entries[i].ev.name && !strcmp(s->entries[i].ev.name, name))
			return &s->entries[i];
	return NULL;
}

/* A --sim-miscount that names no event of the model would leave every
 * count as it was: the run would not do what was asked, so it is a usage
 * error, with the nearest event name. */
static bt_status unknown_event(const struct bt_synth *s, const char *name, struct bt_diag *d)
{
	struct bt_near_name nn;
	char hint[200];

	bt_near_name_init(&nn, name);
	for (size_t i = 0; i < s->source.n; i++)
		bt_near_name_offer(&nn, s->entries[i].ev.name);
	fail(d, "--sim-miscount: %s is not among the events of model %s%s", name, s->model_id,
	     bt_near_name_hint(&nn, hint, sizeof(hint)));
	return BT_ERR_INVALID;
}

/* --sim-miscount EVENT:scale=X|stuck=N|swap=OTHER split at the colon that
 * starts HOW (an event name may hold colons: "EV:c1"); -1 if none does. */
static int split_miscount(const char *m, char *name, size_t len, const char **ret_how)
{
	const char *colon = strrchr(m, ':');

	while (colon && colon > m && strncmp(colon + 1, "scale=", 6) &&
	       strncmp(colon + 1, "stuck=", 6) && strncmp(colon + 1, "swap=", 5)) {
		const char *p = colon - 1;
		while (p > m && *p != ':')
			p--;
		colon = *p == ':' ? p : NULL;
	}
	if (!colon || (size_t)(colon - m) >= len)
		return -1;
	snprintf(name, len, "%.*s", (int)(colon - m), m);
	*ret_how = colon + 1;
	return 0;
}

/* One count as HOW (scale=X or stuck=N) makes it. */
static uint64_t miscounted(uint64_t count, const char *how)
{
	if (!strncmp(how, "scale=", 6))
		return (uint64_t)llround((double)count * strtod(how + 6, NULL));
	/* checked where the option is read (app/options.c): decimal, or hex
	 * with 0x; never octal ("010" is ten) */
	const char *n = how + 6;
	return strtoull(n, NULL, n[0] == '0' && (n[1] == 'x' || n[1] == 'X') ? 16 : 10);
}

static void note_miscount(struct bt_synth *s, const char *name)
{
	snprintf(s->miscount_note, sizeof(s->miscount_note),
		 "simulated PMU: %.60s miscounts on purpose (--sim-miscount %.80s)", name, s->miscount);
	if (!s->miscount_noted) {
		s->miscount_noted = true;
		note(s, "%s", s->miscount_note);
	}
}

/* --sim-miscount EVENT:scale=X|stuck=N|swap=OTHER: one event of the count
 * source miscounts, as a broken event on new silicon would; the consistency
 * rules are expected to name a rule containing it. */
static bt_status apply_miscount(struct bt_synth *s, struct bt_diag *d)
{
	char name[160];
	const char *m = s->miscount, *how;

	if (!m)
		return BT_OK;
	if (split_miscount(m, name, sizeof(name), &how) != 0)
		return fail(d, "--sim-miscount %s: EVENT:scale=X|stuck=N|swap=OTHER", m);
	struct bt_sim_count *e = entry_named(s, name);
	if (!e)
		return unknown_event(s, name, d);
	if (strncmp(how, "swap=", 5) != 0) {
		e->count = miscounted(e->count, how);
	} else {
		struct bt_sim_count *o = entry_named(s, how + 5);
		if (!o)
			return unknown_event(s, how + 5, d);
		uint64_t t = e->count;
		e->count = o->count;
		o->count = t;
	}
	note_miscount(s, name);
	return BT_OK;
}

/* The model's event of that name (the kernels' windows have no names). */
static const struct bt_event *model_event(const struct bt_synth *s, const char *name)
{
	for (size_t i = 0; i < s->n_ev; i++)
		if (s->ev[i].name && !strcmp(s->ev[i].name, name))
			return &s->ev[i];
	return NULL;
}

/* Whether a window's entry is what the PMU counts for the model's event m:
 * the same encoding on a general counter, or the same fixed counter. */
static bool counts_as(const struct bt_event *m, const struct bt_event *e)
{
	if (m->source != e->source)
		return false;
	if (m->fixed != BT_EV_NO_FIXED && e->fixed == m->fixed)
		return true;
	return m->counters && e->fixed == BT_EV_NO_FIXED && bt_plan_same_encoding(m, e);
}

/*
 * The same miscount in the known-count kernels' windows (validation, the
 * bring-up's validation phase, the atlas), so every phase of a run sees one
 * simulated PMU: the entries of the event's encoding (or fixed counter)
 * count wrong; swap exchanges two events' counts where the window counts
 * both. The name was checked against the model's events when the workload
 * source was first made (apply_miscount). The conformance window
 * (bt_synth_count_conformance) is left as it is: --sim-miscount models one
 * wrong event, which the counter health check before every Top-Down run
 * would take for a broken counter and stop that run, where the consistency
 * rules are to find it; --sim-defect breaks counters.
 */
static void miscount_window(struct bt_synth *s, struct bt_sim_count *v, size_t n)
{
	char name[160];
	const char *how;

	if (!s->miscount || split_miscount(s->miscount, name, sizeof(name), &how) != 0)
		return;
	const struct bt_event *m = model_event(s, name);
	const struct bt_event *o = !strncmp(how, "swap=", 5) ? model_event(s, how + 5) : NULL;
	if (!m || (!strncmp(how, "swap=", 5) && !o))
		return;
	for (size_t k = 0; k < n; k++) {
		if (!counts_as(m, &v[k].ev))
			continue;
		if (!o) {
			v[k].count = miscounted(v[k].count, how);
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (j != k && counts_as(o, &v[j].ev) && !counts_as(m, &v[j].ev)) {
				uint64_t t = v[k].count;
				v[k].count = v[j].count;
				v[j].count = t;
				break;
			}
	}
	note_miscount(s, name);
}

/* A count file can say things no PMU can: two events with the same
 * encoding counting differently, or a PERF_METRICS count that no 8-bit
 * field gives. The simulated PMU behaves like hardware; say where the file
 * and hardware part ways. */
static void check_file_counts(struct bt_synth *s)
{
	const struct bt_sim_count *src = s->entries;
	size_t n = s->source.n;
	uint64_t slots = 0;

	for (size_t i = 0; i < n; i++) {
		const struct bt_sim_count *a = &src[i];

		if (a->ev.source == BT_SRC_PMC && a->ev.fixed == 3 && !a->ev.flags)
			slots = a->count;
		for (size_t k = i + 1; k < n; k++) {
			const struct bt_sim_count *b = &src[k];
			if (a->ev.source == BT_SRC_PMC && b->ev.source == BT_SRC_PMC &&
			    a->count != b->count && bt_plan_same_encoding(&a->ev, &b->ev))
				note(s, "the count file gives %s and %s, which have the same "
					"encoding, different counts (%llu, %llu): a PMU counts them "
					"alike, so nodes using either may differ from the file's",
				     a->ev.name, b->ev.name, (unsigned long long)a->count,
				     (unsigned long long)b->count);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct bt_sim_count *a = &src[i];
		uint64_t lo, hi;

		if (a->ev.source != BT_SRC_PERF_METRICS)
			continue;
		if (!slots) {
			if (a->count)
				note(s, "the count file's %s = %llu with TOPDOWN.SLOTS = 0: "
					"PERF_METRICS holds fractions of SLOTS, so it reads 0",
				     a->ev.name, (unsigned long long)a->count);
			continue;
		}
		lo = a->count * 255 / slots;
		hi = lo + 1;
		if (slots * lo / 255 != a->count && slots * hi / 255 != a->count)
			note(s, "the count file's %s = %llu is not floor(SLOTS*b/255) for any "
				"byte b (SLOTS = %llu): PERF_METRICS cannot hold it, the simulated "
				"register keeps the nearest", a->ev.name,
			     (unsigned long long)a->count, (unsigned long long)slots);
	}
}

bt_status bt_synth_use_counts(struct bt_synth *s, const double *counts, const char *label,
			      struct bt_diag *d)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_ev; i++) {
		double v = counts[i];

		if (isnan(v) || v < 0)
			continue;
		s->entries[n].ev = s->ev[i];
		s->entries[n].count = (uint64_t)v;
		n++;
	}
	use_entries(s, n);
	s->from_file = true;
	snprintf(s->source_label, sizeof(s->source_label), "%s", label);
	check_file_counts(s);
	return apply_miscount(s, d);
}

bt_status bt_synth_use_generated(struct bt_synth *s, struct bt_diag *d)
{
	if (bt_sim_generate_counts(s->evp, s->n_ev, 1, s->entries) != BT_OK)
		return fail(d, "the simulated PMU cannot generate counts for %s "
			    "(it needs TOPDOWN.SLOTS among the events)", s->model_id);
	use_entries(s, s->n_ev);
	xclk_counts(s);
	snprintf(s->source_label, sizeof(s->source_label),
		 "deterministic generated counts (not a workload's)");
	/* Built-in workloads replace these with their own model's counts
	 * (bt_synth_use_workload); only an -x application, which has no model,
	 * keeps them. */
	snprintf(s->setup_label, sizeof(s->setup_label),
		 "counts of each built-in workload's model (synth/workload-profiles.c: a model, "
		 "not a measurement); generated counts for an application run with -x");
	return apply_miscount(s, d);
}

bt_status bt_synth_use_workload(struct bt_synth *s, const char *workload, bt_wl_param_fn *param,
				const void *param_ctx, struct bt_diag *d)
{
	const struct bt_wl_profile *prof = bt_wl_profile_find(workload);
	struct bt_wl_profile run;
	double cycles = 0;

	if (s->from_file || !prof)
		return BT_OK;
	double insts = bt_wl_profile_insts(prof, param, param_ctx);
	/* The seed: the workload's name, so each workload's run is its own. */
	uint64_t seed = bt_fnv1a64_str(workload, BT_FNV1A64_INIT);
	/* A model without a width (vendor files loaded with no built-in model
	 * of this CPU): the narrowest Top-Down core, 4 slots per cycle. */
	unsigned w = s->width ? s->width : 4;
	/* This run's parameters decide its mispredicts (taken_pct) and where a
	 * chase's working set lands (size), on this CPU's caches. */
	bt_wl_profile_resolve(prof, param, param_ctx, w, &s->hier, &run);
	if (bt_sim_workload_counts(s->evp, s->n_ev, &run, insts, w, seed, s->entries, s->unknown,
				   sizeof(s->unknown), &cycles) != BT_OK)
		return fail(d, "the simulated PMU cannot count %s's model for %s (it needs "
			    "TOPDOWN.SLOTS among the events)", workload, s->model_id);
	use_entries(s, s->n_ev);
	xclk_counts(s);
	/* The window lasts the model's cycles: the simulated core runs at the
	 * simulated TSC's clock (struct bt_sim_config tsc_hz), so a simulated
	 * time is cycles / tsc_hz, never the host's time. */
	s->source.tsc_per_window = cycles >= 1 ? (uint64_t)llround(cycles) : 1;
	int n = snprintf(s->source_label, sizeof(s->source_label),
			 "counts of the workload model of %s (synth/workload-profiles.c: a model, not a "
			 "measurement)", workload);
	if (run.ld_levels && n > 0 && (size_t)n < sizeof(s->source_label))
		snprintf(s->source_label + n, sizeof(s->source_label) - (size_t)n,
			 "; loads served L1/L2/L3/DRAM %.0f/%.0f/%.0f/%.0f %% at %.0f/%.0f/%.0f/%.0f "
			 "cycles (%s caches, %s latencies: synth/mem-hierarchy.c)",
			 100 * run.ld_level[0], 100 * run.ld_level[1], 100 * run.ld_level[2],
			 100 * run.ld_level[3], run.lat[0], run.lat[1], run.lat[2], run.lat[3],
			 s->hier.sizes_from_cpuid ? "CPUID" : "default", s->hier.row);
	return apply_miscount(s, d);
}

void bt_synth_attach(struct bt_synth *s, bt_window_fn *body)
{
	s->source.body = body;
	attach_all(s, &s->source, NULL);
}

const char *bt_synth_source_label(const struct bt_synth *s)
{
	return s->source_label;
}

const char *bt_synth_setup_label(const struct bt_synth *s)
{
	return s->setup_label[0] ? s->setup_label : s->source_label;
}

const char *bt_synth_note(const struct bt_synth *s, int k)
{
	return k >= 0 && k < s->n_notes ? s->notes[k] : NULL;
}

const char *bt_synth_unknown(const struct bt_synth *s)
{
	return s->unknown;
}

const char *bt_synth_miscount_note(const struct bt_synth *s)
{
	return s->miscount_note;
}

const char *bt_synth_take_source_error(struct bt_synth *s)
{
	const char *found = NULL;

	for (unsigned k = 0; k < s->n_pmu; k++) {
		if (!s->pmu[k]->source_error[0])
			continue;
		if (!found)
			snprintf(s->source_error, sizeof(s->source_error), "%s",
				 s->pmu[k]->source_error);
		found = s->source_error;
		s->pmu[k]->source_error[0] = '\0';
	}
	return found;
}

/* ---------------------------------------------------------- --validate */

/* Instructions per cycle the simulated kernels run at: a modelled
 * micro-architectural count (one DEC/JNZ iteration per cycle). */
static double kernel_ipc(const char *kernel)
{
	return strcmp(kernel, "loop-dec-jnz") == 0 ? 2.0 : 1.0;
}

static uint64_t declared(const struct bt_kernel *k, const char *name, uint64_t n)
{
	int64_t v = 0;

	return bt_kernel_count(k, name, n, &v) && v > 0 ? (uint64_t)v : 0;
}

void bt_synth_set_width(struct bt_synth *s, unsigned width)
{
	s->width = width;
}

static void kernel_model(const struct bt_synth *s, const struct bt_kernel *k, uint64_t n,
			 struct bt_sim_kernel_model *m)
{
	memset(m, 0, sizeof(*m));
	m->width = s->width;
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
	m->loads = declared(k, BT_KC_LOADS, n);
	m->stores = declared(k, BT_KC_STORES, n);
	m->ipc = kernel_ipc(k->name);
}

void bt_synth_count_kernel(struct bt_synth *s, const struct bt_kernel *k, uint64_t n)
{
	const struct bt_kernel *empty = bt_kernel_find("empty");
	struct bt_sim_kernel_model m;

	kernel_model(s, k, n, &m);
	/* The kernels' windows: CMASK, INV, E and EQ from their per-cycle
	 * behaviour (arch/sim/sim.h per_cycle). ks and es only ever hold
	 * kernel counts. */
	for (unsigned j = 0; j < s->n_pmu; j++) {
		s->pmu[j]->per_cycle[0] = &s->ks;
		s->pmu[j]->per_cycle[1] = &s->es;
	}
	s->ks = (struct bt_sim_source){ .entries = s->kc, .body = k->run,
					.n = bt_sim_kernel_counts(&s->sim.cfg, &m, s->kc) };
	miscount_window(s, s->kc, s->ks.n);
	if (empty && empty != k) {
		kernel_model(s, empty, empty->n_default, &m);
		s->es = (struct bt_sim_source){ .entries = s->ec, .body = empty->run,
						.n = bt_sim_kernel_counts(&s->sim.cfg, &m, s->ec) };
		miscount_window(s, s->ec, s->es.n);
		attach_all(s, &s->ks, &s->es);
	} else {
		/* Kernel `empty` itself: its windows count its own source. */
		attach_all(s, &s->ks, NULL);
	}
}

bool bt_synth_kernel_models(const struct bt_synth *s, const struct bt_event *e)
{
	for (size_t k = 0; k < s->ks.n; k++) {
		const struct bt_event *m = &s->ks.entries[k].ev;
		if (e->fixed != BT_EV_NO_FIXED && e->counters == 0) {
			if (m->fixed == e->fixed)
				return true;
		} else if (m->fixed == BT_EV_NO_FIXED && m->code == e->code &&
			   m->umask == e->umask && m->umask_ext == e->umask_ext && !e->msr_index) {
			return true;
		}
	}
	return false;
}

/* The conformance checks' window (loop-dec-jnz): the kernel's declared
 * instructions and branches, modelled cycles (the kernel's IPC), SLOTS =
 * width x cycles and PERF_METRICS bytes of a plausible split (level 1
 * summing to 0xFF, each level-2 field within its parent). The width is the
 * model's pipeline width (bt_synth_set_width); with no model, 4 slots per
 * cycle with a 4-field PERF_METRICS, 6 with 8 fields. The calibration
 * window's body (kernel `empty`) counts nothing but the window's own
 * accesses. */
void bt_synth_count_conformance(struct bt_synth *s, uint64_t n)
{
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	struct bt_sim_known q = {
		.instructions = declared(loop, BT_KC_INSTRUCTIONS, n),
		.branches = declared(loop, BT_KC_BRANCHES, n),
		.cond = declared(loop, BT_KC_COND, n),
		.cycles = (uint64_t)((double)declared(loop, BT_KC_INSTRUCTIONS, n) /
				     kernel_ipc(loop->name)),
		.width = s->width ? s->width : s->sim.cfg.pm_fields == 8 ? 6 : 4,
		.pm = { 0x99, 0x0A, 0x30, 0x2C, 0x20, 0x08, 0x1C, 0x10 },
	};
	s->ws = (struct bt_sim_source){ .entries = s->wc, .body = loop->run,
					.n = bt_sim_known_counts(&s->sim.cfg, &q, s->wc) };
	attach_all(s, &s->ws, NULL);
}
