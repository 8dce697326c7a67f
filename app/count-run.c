/* SPDX-License-Identifier: MIT */
/*
 * Counting one workload: choose the nodes (every node to --level N, or
 * drill-down), plan their events, measure group by group on the chosen CPU,
 * evaluate; in drill-down, repeat with the children of the flagged nodes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-run.h"
#include "app/console-ui.h"
#include "app/count-internal.h"
#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/pebs.h"
#include "app/on-cpu.h"
#include "base/notes.h"
#include "pmu/cpu-detect.h"
#include "pmu/plan.h"
#include "pmu/sibling.h"

__attribute__((format(printf, 2, 3)))
static void add_note(struct bt_tree_outcome *t, const char *fmt, ...)
{
	va_list ap;
	char note[sizeof(t->notes[0])];

	va_start(ap, fmt);
	vsnprintf(note, sizeof(note), fmt, ap);
	va_end(ap);
	for (int k = 0; k < t->n_notes; k++)
		if (strcmp(t->notes[k], note) == 0)
			return;  /* every step's session says the same */
	/* Past the last slot, it says how many more there were. */
	BT_NOTES_ADD(t->notes, t->n_notes, t->notes_dropped, "%s", note);
}

struct measure_job {
	struct bt_count_ctx *c;
	struct bt_pmu pmu;             /* c's arch and caps, as bt_measure takes them */
	const struct bt_plan *plan;
	const struct bt_event *const *events;
	const struct bt_measure_workload *mw;
	struct bt_measure_opts opts;
	struct bt_measurement m;
	bt_status st;
};

/* A job's cleanup (app/on-cpu.h): the job is abandoned after a fault, in
 * mid-run perhaps: stop its counters and restore every PMU register. */
static void close_session_on_park(void *s)
{
	bt_pmu_close(s);
}

static void park_cleanup_hook(void *ctx, struct bt_pmu_session *s)
{
	struct bt_platform *p = ctx;

	bt_cpu_job_set_cleanup(p, s ? close_session_on_park : NULL, s);
}

/* Runs on the measured CPU: no firmware calls, no printing. */
static void measure_work(void *p)
{
	struct measure_job *j = p;

	j->st = bt_measure(&j->pmu, j->plan, j->events, j->mw, &j->opts, &j->m);
}

/* Tree nodes of level <= max. */
static unsigned nodes_to_level(const struct bt_model *m, unsigned max, unsigned *out)
{
	unsigned n = 0;

	for (unsigned i = 0; i < bt_model_node_count(m); i++) {
		const struct bt_node_def *nd = bt_model_node(m, i);
		if (nd->level >= 1 && nd->level <= max)
			out[n++] = i;
	}
	return n;
}

/* CPI (cycles per instruction, from the fixed counters on Intel) belongs
 * to the first step whatever the mode: the CPI stack of the bottleneck path
 * needs it, and it costs no general counter where fixed counters exist. */
static unsigned add_cpi_node(const struct bt_model *m, unsigned *nodes, unsigned n)
{
	const char *name = bt_model_def(m)->cpi_node;
	int cpi = name ? bt_model_node_find(m, name) : -1;

	if (cpi < 0)
		return n;
	for (unsigned i = 0; i < n; i++)
		if (nodes[i] == (unsigned)cpi)
			return n;
	nodes[n] = (unsigned)cpi;
	return n + 1;
}

/*
 * Scratch memory of one bt_count_workload() call, reused by each of its
 * steps. On the heap, not on the stack: the plan is about 60 KiB and the
 * planner's working memory about 48 KiB (sizeof(struct bt_plan) and
 * sizeof(struct bt_plan_scratch) with the limits of pmu/plan.h), and UEFI
 * firmware gives the BSP a 64-128 KiB stack and the APs (MP services) less.
 * Owned by the call, not a static: counting also runs on other CPUs, and a
 * static plan would make this code non-reentrant.
 */
struct bt_count_scratch {
	struct bt_plan plan;               /* the counter groups of the current step */
	struct bt_plan_scratch planner;    /* bt_plan_events' working memory */
};

void bt_count_set_console_ui(struct bt_count_ctx *c, struct bt_console_ui *ui)
{
	c->ui = ui;
}

void bt_count_set_boot(struct bt_count_ctx *c, const struct bt_boot_run *b)
{
	c->boot = b;
}

void bt_count_set_team(struct bt_count_ctx *c, struct bt_cpu_team *t)
{
	c->team = t;
}

struct group_progress {
	struct bt_console_ui *ui;
	unsigned level;
};

/* Between groups, on baretop's own CPU (never an AP: it may not print). */
static void group_progress(void *ctx, int g, int n_groups)
{
	struct group_progress *gp = ctx;

	bt_console_ui_group(gp->ui, gp->level, (unsigned)g + 1, (unsigned)n_groups);
}

/* Appends `name` to a ", "-separated list in buf, "..." once full. */
static void list_add(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf), need = strlen(name) + (n ? 2 : 0);

	if (n >= 3 && strcmp(buf + n - 3, "...") == 0)
		return;
	if (n + need + 5 >= len) {
		snprintf(buf + n, len - n, "%s...", n ? ", " : "");
		return;
	}
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

/*
 * The groups the budget left out of a step: their events are not counted
 * (kept in t->budget_skipped_ev for budget_nodes below). Recorded in t (the
 * console and the results file say so).
 */
static void record_budget_skip(struct bt_count_ctx *c, const struct bt_plan *plan,
			       const struct bt_measurement *m, const uint16_t *model_of,
			       int n_model, const struct bt_event *const *evp,
			       struct bt_tree_outcome *t)
{
	unsigned ne = bt_model_event_count(c->model);

	if (!t->budget_skipped_ev)
		t->budget_skipped_ev = calloc(ne ? ne : 1, sizeof(*t->budget_skipped_ev));
	if (!t->budget_groups_skipped && c->boot && c->boot->tsc_hz) {
		t->budget_est_s = (double)m->budget_est_ticks / (double)c->boot->tsc_hz;
		t->budget_left_s = (double)m->budget_left_ticks / (double)c->boot->tsc_hz;
	}
	t->budget_groups_skipped += m->n_groups_skipped;
	/* The model's events (the probe's check after them says itself that
	 * it was not counted: pmu/sibling.h) */
	for (int i = 0; i < n_model; i++) {
		if (plan->ev[i].place != BT_PLACE_GP || plan->ev[i].group < m->n_groups_run ||
		    m->ev[i].measured)
			continue;
		if (t->budget_skipped_ev)
			t->budget_skipped_ev[model_of[i]] = true;
		list_add(t->budget_events, sizeof(t->budget_events), evp[i]->name);
	}
}

/* After the evaluation, the nodes "not measured (budget)": those measured
 * that could not be computed ("missing") because an event of theirs was in
 * a group the budget left out, and those not measured for want of a retire
 * latency (BT_NODE_NO_RETIRE_LATENCY) whose timed-PEBS window the budget
 * left out -- never computed from the missing value (the evaluator gives
 * them no number). */
static void budget_nodes(struct bt_count_ctx *c, struct bt_tree_outcome *t)
{
	unsigned ne = bt_model_event_count(c->model), nn = bt_model_node_count(c->model), n_idx;
	unsigned nrl = bt_model_retire_latency_count(c->model);
	uint16_t *idx = calloc(ne ? ne : 1, sizeof(*idx));
	uint16_t *rl = calloc(nrl + 1, sizeof(*rl));

	t->budget_nodes[0] = '\0';
	for (unsigned k = 0; idx && rl && k < nn; k++) {
		if (!t->targeted[k])
			continue;
		if (t->result->state[k] == BT_NODE_NO_RETIRE_LATENCY && t->rl) {
			unsigned n_rl = bt_result_node_latencies(t->result, k, rl);
			for (unsigned j = 0; j < n_rl; j++)
				if (rl[j] < nrl && t->rl[rl[j]].budget_skipped) {
					list_add(t->budget_nodes, sizeof(t->budget_nodes),
						 bt_model_node(c->model, k)->name);
					break;
				}
			continue;
		}
		if (!t->budget_skipped_ev || t->result->state[k] != BT_NODE_MISSING ||
		    bt_model_events_for_nodes(c->model, &k, 1, c->constants, idx, &n_idx) != BT_OK)
			continue;
		for (unsigned j = 0; j < n_idx; j++) {
			if (t->budget_skipped_ev[idx[j]] && !t->counted[idx[j]]) {
				list_add(t->budget_nodes, sizeof(t->budget_nodes),
					 bt_model_node(c->model, k)->name);
				break;
			}
		}
	}
	free(idx);
	free(rl);
}

/* Plans and measures the events of `nodes` not counted yet; fills counts. */
static bt_status measure_step(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			      const struct bt_measure_workload *mw, bool mask_interrupts,
			      const unsigned *nodes, unsigned n_nodes, struct bt_tree_outcome *t,
			      struct bt_tree_step *step, struct bt_count_scratch *scratch,
			      struct bt_diag *d)
{
	unsigned ne_model = bt_model_event_count(c->model), n_idx = 0;
	uint16_t *idx = calloc(ne_model ? ne_model : 1, sizeof(*idx));
	const struct bt_event **evp = calloc(ne_model ? ne_model : 1, sizeof(*evp));
	uint16_t *model_of = calloc(ne_model ? ne_model : 1, sizeof(*model_of));
	struct bt_plan *plan = &scratch->plan;
	struct bt_plan_opts popts = { .smt_off = !c->smt };
	struct measure_job *job = calloc(1, sizeof(*job));
	bt_status st = BT_OK;
	int n = 0;

	if (!idx || !evp || !model_of || !job) {
		st = BT_ERR_NOMEM;
		goto out;
	}
	st = bt_model_events_for_nodes(c->model, nodes, n_nodes, c->constants, idx, &n_idx);
	if (st != BT_OK) {
		bt_diag_set(d, "cannot list the events of the chosen nodes");
		goto out;
	}
	for (unsigned k = 0; k < n_idx; k++) {
		if (t->counted[idx[k]])
			continue;
		if (n == BT_PLAN_MAX_EVENTS) {
			st = BT_ERR_FULL;
			bt_diag_set(d, "more than %d events in one step", BT_PLAN_MAX_EVENTS);
			goto out;
		}
		model_of[n] = idx[k];
		evp[n++] = c->evp[idx[k]];
	}
	step->n_nodes = n_nodes;
	step->n_events = n;
	step->windows_per_run = 1; /* also for a step with nothing new to count */
	if (n == 0)
		goto out;
	/* Planned without the counters the health check failed. */
	struct bt_pmu_caps plan_caps;
	bt_count_plan_caps(c, &plan_caps);
	/* The SMT sibling probe's reference clock, derived from fixed counter
	 * 2, is checked by counting REF_XCLK itself once per tree, in the
	 * first step that has room for it (pmu/sibling.h): one more event of
	 * its plan, not a model's. */
	int n_model = n;
	if (plan_caps.sibling_probe && !t->xclk_counted)
		n = bt_sibling_add_check(evp, n, &plan_caps, &popts, &scratch->planner);
	bool xclk_check = n > n_model;
	st = bt_plan_events(evp, n, &plan_caps, &popts, &scratch->planner, plan);
	struct bt_diag vd = { "" };
	if (st == BT_OK)
		st = bt_plan_validate(plan, evp, n, &plan_caps, &popts, &scratch->planner, &vd);
	if (st != BT_OK) {
		bt_diag_set(d, "no valid counter plan: %s",
			    vd.text[0] ? vd.text : bt_status_str(st));
		goto out;
	}
	step->groups = plan->n_groups;
	step->bound = plan->lower_bound;
	step->unmeasurable = plan->n_unmeasurable;
	t->total_groups += plan->n_groups;

	job->c = c;
	job->pmu = c->pmu;
	job->plan = plan;
	job->events = evp;
	job->mw = mw;
	job->opts = c->mopts;
	job->opts.mask_interrupts = mask_interrupts;
	job->opts.xclk_event = xclk_check ? &bt_sibling_xclk_event : NULL;
	/* The window cap is for windows with interrupts masked: an -x
	 * application's keep them open and are never split. */
	if (!mask_interrupts)
		job->opts.max_window_ticks = 0;
	job->opts.chunks = t->chunks_hint;
	uint64_t left;
	if (bt_boot_run_ticks_left(c->boot, &left)) {
		job->opts.budget_ticks = left ? left : 1; /* 0 would mean no budget */
		job->opts.clock = p->arch;  /* the budget's clock, also under --sim */
	}
	job->opts.session_hook = park_cleanup_hook;
	job->opts.session_hook_ctx = p;
	struct group_progress gp = { c->ui, step->level };
	if (c->ui && p->current_cpu && cpu == p->current_cpu()) {
		job->opts.group_hook = group_progress;
		job->opts.group_hook_ctx = &gp;
	}
	/* The job's own instructions (vector state, CPUID on that CPU) go to
	 * the real CPU; only the counting goes through c->pmu.arch, which may be
	 * the simulated PMU. */
	struct bt_cpu_job cj = { .arch = p->arch, .work = measure_work, .ctx = job,
				 .team = c->team };
	uint64_t wall0 = bt_rdtsc(p->arch); /* the budget's clock */
	st = bt_cpu_job_run(p, cpu, &cj);
	t->groups_wall_ticks += bt_rdtsc(p->arch) - wall0;
	if (st != BT_OK) {
		bt_diag_set(d, "could not run on CPU %u: %s", cpu, bt_status_str(st));
		goto out;
	}
	if (job->st != BT_OK) {
		st = job->st;
		bt_diag_set(d, "%s", job->m.error);
		goto out;
	}
	for (int i = 0; i < n_model; i++) {
		unsigned e = model_of[i];

		if (plan->ev[i].place == BT_PLACE_UNMEASURABLE) {
			add_note(t, "%s not measurable: %s", evp[i]->name, plan->ev[i].reason);
			continue;
		}
		if (!job->m.ev[i].measured)
			continue;
		t->counted[e] = true;
		t->stat[e] = job->m.ev[i];
		t->counts->events[e] = (double)job->m.ev[i].median;
	}
	for (int k = 0; xclk_check && k < job->m.n_runs && !t->xclk_counted; k++)
		t->xclk_counted = job->m.runs[k].has_xclk;
	if (job->m.n_groups_skipped) {
		step->groups_skipped = job->m.n_groups_skipped;
		record_budget_skip(c, plan, &job->m, model_of, n_model, evp, t);
	}
	if (job->m.run_ticks > t->run_ticks_max)
		t->run_ticks_max = job->m.run_ticks;
	step->windows_per_run = job->m.chunks;
	step->over_cap_whole = job->m.over_cap_whole;
	step->whole_window_ticks = job->m.whole_window_ticks;
	if (job->m.chunks > 1)
		t->chunks_hint = job->m.chunks;
	if (job->m.over_cap_whole && c->cpu->tsc_hz)
		add_note(t, "WARNING: a run of this workload is one window of %.1f ms with interrupts "
			    "masked, over the cap of %g ms (--max-window-ms), and it cannot be split: "
			    "it ran whole", (double)job->m.whole_window_ticks * 1e3 /
			    (double)c->cpu->tsc_hz, c->max_window_ms);
	if (job->m.n_retries_skipped)
		add_note(t, "level %u: the time budget left out %d retries of runs that disagreed",
			 step->level, job->m.n_retries_skipped);
	const char *source_error = c->synth ? bt_synth_take_source_error(c->synth) : NULL;
	if (source_error)
		add_note(t, "simulated PMU: %s", source_error);
	step->runs = job->m.n_runs;
	step->retried = job->m.n_retried;
	step->flagged = job->m.n_flagged;
	/* Fixed counter 0 on Intel; on AMD the retired instructions the plan
	 * reserves a general counter for (pmu/plan.h). */
	step->has_inst = (c->pmu.caps.fixed_mask & 1) || plan->has_inst_gp;
	step->smm_frozen = job->m.smm_frozen;
	if (job->m.pmu_warning[0])
		add_note(t, "PMU: %s", job->m.pmu_warning);
	step->cycles_median = job->m.cycles_median;
	step->cycles_min = job->m.cycles_min;
	step->cycles_max = job->m.cycles_max;
	/* The per-run records go to the results file: keep them. */
	step->run_log = job->m.runs;
	step->n_run_log = job->m.n_runs;
	step->inst_median = job->m.inst_median;
	step->inst_min = job->m.inst_min;
	step->inst_max = job->m.inst_max;
	step->tsc_median = job->m.tsc_median;
	bt_run_freq(step->run_log, step->n_run_log, c->tsc_hz, &step->freq);
	if (job->m.n_flagged)
		add_note(t, "level %u: %d of %d runs still disagreed after %u retries (SMIs: %d)",
			 step->level, job->m.n_flagged, job->m.n_runs, c->mopts.max_retries,
			 job->m.n_smi_runs);
	job->m.runs = NULL; /* now owned by step->run_log */
	job->m.n_runs = 0;
	bt_measurement_free(&job->m);
out:
	free(idx);
	free(evp);
	free(model_of);
	free(job);
	return st;
}

/*
 * Timed PEBS (pmu/pebs.h), the first source of a retire latency: after a
 * step's counting groups, one sampling window per EVENT:R input not yet
 * measured whose event was counted in this workload, on the lowest general
 * counter it may use, a record every count / 256 events (a buffer of 1024
 * records never fills in a window that counts as the counting runs did).
 * A FRONTEND_RETIRED.* event takes its MSR_PEBS_FRONTEND value into its
 * window (pmu/pebs.h); the MSR is one per core, and each window samples one
 * event, so no two values ever meet. Events that need another extra MSR
 * (OFFCORE_RSP: not precise; MSR_PEBS_LD_LAT: never counted, and no model
 * weighs one with a retire latency) or a counter mask are left to the other
 * sources: the driver programs the basic event only.
 *
 * Each sampling is one run of the workload, so it is planned like a
 * counter group (pmu/measure.h): against what is left of --budget, with
 * the longest run of the workload so far (the counting runs', then the
 * samplings' own) as its estimate, on the budget's clock (the platform's,
 * real time also under --sim); one that does not fit is not run, nor any
 * after it (they take as long), and its input is "not measured (budget)":
 * the nodes that need it are not measured (budget_nodes), unless another
 * source (published, file) gives the latency. Under --max-window-ms the
 * run is split into as many windows as the counting runs were
 * (t->chunks_hint), interrupts masked in each window only; a body that
 * cannot be split runs whole (the counting step warned of it).
 */
#define PEBS_SLOTS 1024u
#define PEBS_TARGET 256u

/* One step of timed PEBS, as a job on the measured CPU: its PMU's
 * capabilities (IA32_PERF_CAPABILITIES, MISC_ENABLE) are that CPU's, and
 * its PMU the one the workload's records are written by. */
struct pebs_work {
	struct bt_count_ctx *c;
	const struct bt_measure_workload *mw;
	const struct bt_pebs_job *job;   /* NULL: only ask whether timed PEBS works */
	struct bt_pebs_stats stats;
	bt_status st;
	bool before_failed;              /* the workload's before_run: this one is skipped */
	struct bt_diag d;
};

/* If the job is abandoned in a window: no counting, no PEBS arming left on
 * that CPU writing records into a buffer that is freed by then (the
 * sampler's saved registers went with its stack). */
static void pebs_disarm(void *p)
{
	struct bt_arch *a = p;

	bt_wrmsr(a, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	bt_wrmsr(a, MSR_IA32_PEBS_ENABLE, 0);
}

static void pebs_work(void *p)
{
	struct pebs_work *w = p;
	struct bt_count_ctx *c = w->c;

	if (!w->job) {
		w->st = bt_pebs_supported(c->pmu.arch, &c->pmu.caps, &w->d);
		return;
	}
	if (w->mw->before && (w->st = w->mw->before(w->mw->ctx, &w->d)) != BT_OK) {
		w->before_failed = true;
		return;
	}
	bool ap = bt_ap_run_on_abandon(pebs_disarm, c->pmu.arch);
	w->st = bt_pebs_sample(c->pmu.arch, &c->pmu.caps, w->job, &w->stats, &w->d);
	if (ap)
		bt_ap_run_drop_abandon();
	struct bt_diag ignore;
	if (w->mw->after)
		w->mw->after(w->mw->ctx, &ignore);
}

static bt_status pebs_on(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			 struct pebs_work *w)
{
	struct bt_cpu_job cj = { .arch = p->arch, .work = pebs_work, .ctx = w, .team = c->team };
	bt_status st = bt_cpu_job_run(p, cpu, &cj);

	if (st != BT_OK) {
		bt_diag_set(&w->d, "could not run on CPU %u: %s", cpu,
			    cj.fault[0] ? cj.fault : bt_status_str(st));
		return st;
	}
	return w->st;
}

static void sample_latencies(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			     const struct bt_measure_workload *mw, bool mask_interrupts,
			     struct bt_tree_outcome *t)
{
	struct bt_counts *k = t->counts;
	unsigned nrl = bt_model_retire_latency_count(c->model);
	struct bt_diag d = { "" };
	uint64_t hz = c->boot && c->boot->tsc_hz ? c->boot->tsc_hz : 0;

	if (c->no_pebs || c->file_counts || !t->rl || !c->pmu.arch)
		return;
	if (!c->pebs_why[0]) {
		/* its PMU's PERF_CAPABILITIES and MISC_ENABLE, read there */
		struct pebs_work w = { .c = c, .mw = mw };
		if (pebs_on(c, p, cpu, &w) != BT_OK)
			snprintf(c->pebs_why, sizeof(c->pebs_why), "%.500s", w.d.text);
	}
	if (c->pebs_why[0])
		return;
	/* The counters the plan may use: one the health check left out
	 * samples nothing either. */
	struct bt_pmu_caps usable;
	bt_count_plan_caps(c, &usable);
	for (unsigned i = 0; i < nrl; i++) {
		if (k->retire_latency_source[i] == BT_RL_MEASURED || t->rl[i].budget_skipped)
			continue;
		int e = bt_model_event_find(c->model, bt_model_retire_latency_name(c->model, i));
		if (e < 0 || !t->counted[e] || !(k->events[e] > 0))
			continue;
		const struct bt_event *ev = bt_model_event(c->model, (unsigned)e);
		uint32_t allowed = ev->counters & usable.gp_mask;
		if (ev->source != BT_SRC_PMC || ev->fixed >= 0 ||
		    (ev->msr_index && ev->msr_index != MSR_PEBS_FRONTEND) || ev->cmask ||
		    (ev->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_ANY | BT_EVF_EQ)) || !allowed)
			continue;
		unsigned ctr = 0;
		while (!((allowed >> ctr) & 1))
			ctr++;
		uint64_t after = (uint64_t)(k->events[e] / PEBS_TARGET);
		struct bt_encoding enc;
		if (bt_event_encode_gp(ev, &c->pmu.caps, false, &enc, &d) != BT_OK ||
		    (enc.extra_msr && enc.extra_msr != MSR_PEBS_FRONTEND))
			continue; /* the counting groups said why */
		/* The budget: this window's run against what is left. */
		uint64_t left, est = t->run_ticks_max;
		if (bt_boot_run_ticks_left(c->boot, &left) &&
		    (t->budget_pebs_skipped || est > left)) {
			if (!t->budget_pebs_skipped && hz) {
				t->budget_pebs_est_s = (double)est / (double)hz;
				t->budget_pebs_left_s = (double)left / (double)hz;
			}
			t->rl[i].budget_skipped = true;
			t->budget_pebs_skipped++;
			char name[96];
			snprintf(name, sizeof(name), "%s:R", bt_model_retire_latency_name(c->model, i));
			list_add(t->budget_latencies, sizeof(t->budget_latencies), name);
			continue;
		}
		struct bt_pebs_job job = { .evtsel = enc.evtsel, .extra_msr = enc.extra_msr,
					   .extra_value = enc.extra_value, .counter = ctr,
					   .sample_after = after ? after : 1, .slots = PEBS_SLOTS,
					   .fn = mw->run, .arg = mw->arg,
					   .mask_interrupts = mask_interrupts,
					   /* the window cap is for masked windows (measure_step) */
					   .windows = mask_interrupts ? t->chunks_hint : 1,
					   .iterations = mw->iterations, .set_range = mw->set_range,
					   .range_ctx = mw->ctx };
		struct pebs_work w = { .c = c, .mw = mw, .job = &job };
		uint64_t wall0 = bt_rdtsc(p->arch);
		bt_status st = pebs_on(c, p, cpu, &w);
		uint64_t wall = bt_rdtsc(p->arch) - wall0;
		t->pebs_wall_ticks += wall;
		if (wall > t->run_ticks_max)
			t->run_ticks_max = wall; /* the next window's estimate */
		if (st != BT_OK && w.before_failed)
			continue;
		if (st != BT_OK) {
			if (w.d.text[0] == '\0')
				bt_diag_set(&w.d, "%s", bt_status_str(st));
			snprintf(c->pebs_why, sizeof(c->pebs_why), "%.500s", w.d.text);
			add_note(t, "timed PEBS stopped: %s", w.d.text);
			return;
		}
		const struct bt_pebs_stats *ps = &w.stats;
		t->pebs_windows_run++;
		if (ps->windows > t->pebs_windows_per_run)
			t->pebs_windows_per_run = ps->windows;
		if (!ps->samples)
			continue;
		k->retire_latency[i] = ps->mean;
		k->retire_latency_source[i] = BT_RL_MEASURED;
		t->rl[i].median = ps->median;
		t->rl[i].min = ps->min;
		t->rl[i].max = ps->max;
		t->rl[i].samples = (int64_t)ps->samples;
		t->rl[i].saturated = (int64_t)ps->saturated;
	}
}

/* Each retire-latency input as the outputs state it (report/counted.h). */
static void rl_sources(struct bt_count_ctx *c, struct bt_tree_outcome *t, unsigned from_file)
{
	const struct bt_counts *k = t->counts;
	unsigned nrl = bt_model_retire_latency_count(c->model);

	(void)from_file;
	for (unsigned i = 0; t->rl && i < nrl; i++) {
		struct bt_rl_stat *s = &t->rl[i];
		const struct bt_rl_entry *e = NULL;

		s->source = k->retire_latency_source[i];
		s->mean = s->source != BT_RL_NONE ? k->retire_latency[i] : NAN;
		s->detail = NULL;
		if (s->source == BT_RL_MEASURED) {
			s->detail = "timed PEBS";
			continue; /* its statistics are the sampling's */
		}
		s->median = s->min = s->max = NAN;
		s->samples = s->saturated = -1;
		if (s->source == BT_RL_NONE && s->budget_skipped)
			s->detail = "not measured (budget): its timed-PEBS sampling did not fit in "
				    "the time budget (--budget)";
		switch (s->source) {
		case BT_RL_PUBLISHED:
			s->detail = c->def->retire_latency_source;
			for (unsigned d = 0; d < c->def->n_retire_latency; d++)
				if (!strcmp(c->def->retire_latency[d].event, bt_model_retire_latency_name(c->model, i)) &&
				    c->def->retire_latency[d].min >= 0) {
					s->min = c->def->retire_latency[d].min;
					s->max = c->def->retire_latency[d].max;
				}
			break;
		case BT_RL_FILE:
			e = bt_rl_file_find(&c->rl_file, bt_model_retire_latency_name(c->model, i));
			if (e) {
				s->min = e->min;
				s->max = e->max;
			}
			s->detail = c->rl_file.path;
			break;
		case BT_RL_GIVEN:
			s->detail = c->cf.path;
			break;
		default:
			break;
		}
	}
}

/*
 * The SMT sibling of a tree, from every run of all its steps so far
 * (pmu/sibling.h), decides its formulas (metrics/model.h bt_smt_decide):
 * SMT_SIBLING_ACTIVE for bt_evaluate, or, where nothing could be measured
 * (no group probed: the counter health check left no counter for it; no
 * reference clock to derive REF_XCLK at), the per-thread formulas as
 * without the probe, the tree having no SMT decision to show.
 */
static void sibling_of_tree(struct bt_count_ctx *c, struct bt_tree_outcome *t)
{
	double *k = t->counts->constants;

	memset(&t->sibling, 0, sizeof(t->sibling));
	for (int s = 0; s < t->n_steps; s++)
		for (int r = 0; r < t->steps[s].n_run_log; r++)
			bt_sibling_add(&t->sibling, &t->steps[s].run_log[r]);
	t->probed = t->sibling.probed;
	bt_xclk_ratio_decide(&c->pmu.caps, &t->sibling, &t->xclk);
	k[BT_C_SMT_SIBLING_ACTIVE] = bt_sibling_active(&t->sibling, t->xclk.used);
	if (isnan(k[BT_C_SMT_SIBLING_ACTIVE]))
		k[BT_C_HYPERTHREADING_ON] = 0;
	if (t->xclk.disagrees)
		add_note(t, "WARNING: REF_XCLK counted %.4g TSC ticks per tick, the part enumerates "
			    "%.4g (%s): the SMT sibling is measured with the counted ratio",
			 t->xclk.counted, t->xclk.enumerated, t->xclk.enumerated_from);
	else if (t->probed && isnan(t->xclk.used))
		add_note(t, "the SMT sibling not measured: no reference clock to derive REF_XCLK at "
			    "(the part enumerates none, and REF_XCLK was not counted): per-thread "
			    "formulas");
}

/* Constants that depend on the run: the interval the formulas mean. */
static void run_constants(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			  struct bt_tree_outcome *t, const struct bt_measure_workload *mw,
			  bool mask_interrupts)
{
	struct bt_counts *k = t->counts;

	memcpy(k->constants, c->constants, sizeof(k->constants));
	if (c->file_counts) {
		/* Replaying a count file: its machine state, constants included. */
		for (int i = 0; i < BT_CONST_COUNT; i++)
			if (!isnan(c->file_counts->constants[i]))
				k->constants[i] = c->file_counts->constants[i];
		unsigned nrl = bt_model_retire_latency_count(c->model);
		for (unsigned i = 0; i < nrl; i++) {
			k->retire_latency[i] = c->file_counts->retire_latency[i];
			k->retire_latency_source[i] = c->file_counts->retire_latency_source[i];
		}
		rl_sources(c, t, 0);
		return;
	}
	if (c->pmu.caps.sibling_probe)
		sibling_of_tree(c, t);
	if (t->n_steps) {
		/* perfmon's SYSTEM_TSC_FREQ is TSC ticks over the measured
		 * interval (FORMAT.md), here one run of the workload. */
		uint64_t tsc = t->steps[0].tsc_median;
		k->constants[BT_C_SYSTEM_TSC_FREQ] = (double)tsc;
		if (c->tsc_hz)
			k->constants[BT_C_DURATIONTIMEINMILLISECONDS] =
				(double)tsc * 1e3 / (double)c->tsc_hz;
	}
	/* The sources in their order: measured (timed PEBS), the user's file,
	 * the published means (perf's and toplev's stand-in for a latency not
	 * sampled: metrics/rl-published.h), the formula's own fallback. */
	sample_latencies(c, p, cpu, mw, mask_interrupts, t);
	unsigned measured = 0;
	for (unsigned i = 0; i < bt_model_retire_latency_count(c->model); i++)
		measured += k->retire_latency_source[i] == BT_RL_MEASURED;
	unsigned from_file = c->have_rl_file ? bt_rl_file_apply(&c->rl_file, k) : 0;
	unsigned filled = c->no_default_rl ? 0 : bt_counts_use_default_retire_latencies(k);
	rl_sources(c, t, from_file);
	if (t->latency_noted)
		return; /* said once, at the first step */
	t->latency_noted = true;
	if (measured)
		add_note(t, "%u retire latencies measured with timed PEBS (IA32_PERF_CAPABILITIES[17])%s",
			 measured, t->simulated ? " on the SIMULATED PMU: the workload model's latencies" : "");
	else if (bt_model_retire_latency_count(c->model) && c->no_pebs)
		add_note(t, "retire latencies: --no-pebs: not sampled");
	else if (bt_model_retire_latency_count(c->model) && c->pebs_why[0])
		add_note(t, "retire latencies not sampled: %s", c->pebs_why);
	if (from_file)
		add_note(t, "%u retire latencies from --retire-latency-file %s (%s)", from_file,
			 c->rl_file.path, c->rl_file.layout);
	if (filled)
		add_note(t, "%u retire latencies not measured: their published means stand in "
			    "(%s; --no-default-retire-latency: the formulas' own fallback)", filled,
			 c->def->retire_latency_source ? c->def->retire_latency_source : "model");
	if (bt_model_retire_latency_count(c->model) > measured + from_file + filled)
		add_note(t, "%u retire-latency inputs are not measured and %s: the "
			    "formulas' fallback (their cap) applies, and nodes whose formula has "
			    "none are not measured (no retire latency)",
			 bt_model_retire_latency_count(c->model) - measured - from_file - filled,
			 c->no_default_rl ? "--no-default-retire-latency leaves out the published means"
					  : "have no published mean here");
}

/* The constants a tree is evaluated with (metrics/model.h
 * bt_smt_decided_constants): a node is untrusted only for the events of the
 * SMT branch its value is computed from, not for both branches' events. */
static void decided_constants(const struct bt_tree_outcome *t, double *k)
{
	bt_smt_decided_constants(t->counts->constants, k);
}

/*
 * --bring-up: a node whose value formula reads an event that FAILed (first
 * choice) or was SKIPped in validation is untrusted: it says which event
 * and check, and the evaluator never puts it on the bottleneck path
 * (bt_result.exclude). Its number is still computed and shown, marked.
 */
static bool is_validation_mark(const struct bt_untrust *u)
{
	return u->event[0] && (strcmp(u->verdict, "FAIL") == 0 || strcmp(u->verdict, "SKIP") == 0);
}

static bt_status mark_untrusted(const struct bt_count_ctx *c, struct bt_tree_outcome *t,
				const double *constants)
{
	unsigned nn = bt_model_node_count(c->model), ne = bt_model_event_count(c->model), n;
	uint16_t *ev = malloc((ne + 1) * sizeof(*ev));

	if (!t->untrusted)
		t->untrusted = calloc(nn + 1, sizeof(*t->untrusted));
	if (!ev || !t->untrusted) {
		free(ev);
		return BT_ERR_NOMEM;
	}
	for (unsigned i = 0; i < nn; i++) {
		const struct bt_untrust *pick = NULL;

		/* marked again for each evaluation (the decided constants may
		 * differ): what an earlier one marked from validation goes
		 * first; a violated rule's mark (RULE, CROSS) stays */
		if (is_validation_mark(&t->untrusted[i])) {
			memset(&t->untrusted[i], 0, sizeof(t->untrusted[i]));
			t->result->exclude[i] &= (uint8_t)~BT_EXCLUDE_UNTRUSTED;
		}
		if (t->untrusted[i].event[0])
			continue;
		if (bt_model_node_value_events(c->model, i, constants, ev, &n) != BT_OK)
			n = 0;
		for (unsigned k = 0; k < n; k++) {
			const struct bt_untrust *u = &c->ev_untrust[ev[k]];
			if (u->event[0] && (!pick || (strcmp(pick->verdict, "FAIL") != 0 &&
						      strcmp(u->verdict, "FAIL") == 0)))
				pick = u;
		}
		if (pick) {
			t->untrusted[i] = *pick;
			t->result->exclude[i] |= BT_EXCLUDE_UNTRUSTED;
		}
	}
	free(ev);
	return BT_OK;
}

/* A violated consistency rule untrusts the nodes reading what it points at
 * (metrics/rules-untrust.c, shared with `replay`). Returns how many nodes it
 * marked. */
static unsigned untrust_by_rules(struct bt_count_ctx *c, struct bt_tree_outcome *t)
{
	unsigned cross = 0, marked;
	double k[BT_CONST_COUNT];

	if (!t->untrusted)
		t->untrusted = calloc(bt_model_node_count(c->model) + 1, sizeof(*t->untrusted));
	if (!t->untrusted)
		return 0;
	decided_constants(t, k);
	marked = bt_rules_untrust(t->consistency, t->counts, t->result, k, c->ev_untrust,
				  t->untrusted, &cross);
	c->n_cross_untrusted += cross;
	return marked;
}

/* The tree nodes this run did not set out to measure (drill-down, --level
 * N): never on the path, no CPI-stack share (bt_result.exclude). */
static void mark_not_measured(const struct bt_count_ctx *c, struct bt_tree_outcome *t)
{
	for (unsigned i = 0; i < bt_model_node_count(c->model); i++) {
		uint8_t *x = &t->result->exclude[i];
		if (bt_model_node(c->model, i)->kind == BT_NODE_TREE && !t->targeted[i])
			*x |= BT_EXCLUDE_NOT_MEASURED;
		else
			*x &= (uint8_t)~BT_EXCLUDE_NOT_MEASURED;
	}
}

static bt_status evaluate(const struct bt_count_ctx *c, struct bt_tree_outcome *t)
{
	mark_not_measured(c, t);
	if (c->ev_untrust) {
		double k[BT_CONST_COUNT];
		decided_constants(t, k);
		bt_status st = mark_untrusted(c, t, k);
		if (st != BT_OK)
			return st;
	}
	return bt_evaluate(c->model, t->counts, t->result);
}

static struct bt_tree_outcome *new_outcome(struct bt_count_ctx *c)
{
	struct bt_tree_outcome *t = calloc(1, sizeof(*t));
	unsigned ne = bt_model_event_count(c->model);

	if (!t)
		return NULL;
	t->model = c->model;
	t->counts = bt_counts_new(c->model);
	t->result = bt_result_new(c->model);
	t->stat = calloc(ne ? ne : 1, sizeof(*t->stat));
	t->counted = calloc(ne ? ne : 1, sizeof(*t->counted));
	t->targeted = calloc(bt_model_node_count(c->model) + 1, 1);
	t->rl = calloc(bt_model_retire_latency_count(c->model) + 1, sizeof(*t->rl));
	if (!t->counts || !t->result || !t->stat || !t->counted || !t->targeted || !t->rl) {
		bt_tree_outcome_free(t);
		return NULL;
	}
	t->simulated = c->synth != NULL;
	t->tsc_hz = c->tsc_hz;
	return t;
}

bt_status bt_count_workload(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			    const struct bt_measure_workload *mw, bool mask_interrupts,
			    struct bt_tree_outcome **ret, struct bt_diag *d)
{
	unsigned nn = bt_model_node_count(c->model);
	unsigned *nodes = calloc(nn ? nn : 1, sizeof(*nodes)), n_nodes = 0;
	unsigned *next_nodes = calloc(nn ? nn : 1, sizeof(*next_nodes));
	struct bt_tree_outcome *t = new_outcome(c);
	struct bt_count_scratch *scratch = calloc(1, sizeof(*scratch));
	bt_status st = BT_OK;
	unsigned max = bt_model_max_level(c->model);

	*ret = NULL;
	if (!nodes || !next_nodes || !t || !scratch) {
		free(nodes);
		free(next_nodes);
		free(scratch);
		bt_tree_outcome_free(t);
		return BT_ERR_NOMEM;
	}
	if (c->synth) {
		/* The simulated workload is the body this window runs: an empty
		 * calibration window counts nothing but modelled overhead. */
		bt_synth_attach(c->synth, mw->run);
		snprintf(t->input_label, sizeof(t->input_label),
			 "SIMULATED PMU (%s) on CPU %u, %s: not measured on hardware",
			 bt_synth_cpu(c->synth)->brand, cpu, bt_synth_source_label(c->synth));
		/* Per tree, since each workload has its own model. */
		if (bt_synth_unknown(c->synth)[0])
			add_note(t, "simulated PMU: no workload-model rule for %s: they count 0",
				 bt_synth_unknown(c->synth));
		if (bt_synth_miscount_note(c->synth)[0])
			add_note(t, "%s", bt_synth_miscount_note(c->synth));
	} else if (c->counted_by[0]) {
		snprintf(t->input_label, sizeof(t->input_label), "%s; CPU %u, %s PMU as CPUID "
			 "enumerates it (median of %u runs per group)", c->counted_by, cpu,
			 bt_pmu_kind_name(c->pmu.caps.kind), c->mopts.reps);
	} else {
		snprintf(t->input_label, sizeof(t->input_label),
			 "counted by the %s PMU of CPU %u (median of %u runs per group)",
			 bt_pmu_kind_name(c->pmu.caps.kind), cpu, c->mopts.reps);
	}
	char health[sizeof(t->notes[0])];
	bt_count_health_note(c, health, sizeof(health));
	if (health[0]) {
		/* The input line says the tree was measured without them. */
		size_t k = strlen(t->input_label);
		const char *cut = strstr(health, " (counter health FAIL)");
		int w = cut ? (int)(cut - health) : (int)strlen(health);
		snprintf(t->input_label + k, sizeof(t->input_label) - k, "; %.*s (counter health "
			 "FAIL)", w, health);
		add_note(t, "counter health: %s", health);
	}
	if (c->level) {
		unsigned lv = c->level < max ? c->level : max;
		n_nodes = nodes_to_level(c->model, lv, nodes);
		n_nodes = add_cpi_node(c->model, nodes, n_nodes);
		n_nodes = bt_model_add_cross_checks(c->model, nodes, n_nodes);
		t->steps[0].level = lv;
		for (unsigned i = 0; i < n_nodes; i++)
			t->targeted[nodes[i]] = 1;
		snprintf(t->untargeted_why, sizeof(t->untargeted_why),
			 "below level %u (--level %u measures the tree to that level only)", lv, lv);
		st = measure_step(c, p, cpu, mw, mask_interrupts, nodes, n_nodes, t, &t->steps[0],
				  scratch, d);
		t->n_steps = 1;
		run_constants(c, p, cpu, t, mw, mask_interrupts);
		if (st == BT_OK)
			st = evaluate(c, t);
	} else {
		const uint16_t *roots;
		snprintf(t->untargeted_why, sizeof(t->untargeted_why),
			 "drill-down opens only flagged nodes (--level N measures every node "
			 "to level N)");
		n_nodes = bt_model_roots(c->model, &roots);
		for (unsigned i = 0; i < n_nodes; i++)
			nodes[i] = roots[i];
		n_nodes = add_cpi_node(c->model, nodes, n_nodes);
		/* ARCH's architectural-event cross-checks of level 1 (rules.h)
		 * are counted with the nodes they check. */
		n_nodes = bt_model_add_cross_checks(c->model, nodes, n_nodes);
		for (unsigned lv = 1; st == BT_OK && n_nodes && lv <= max && t->n_steps < BT_MAX_STEPS;
		     lv++) {
			struct bt_tree_step *step = &t->steps[t->n_steps++];

			step->level = lv;
			for (unsigned i = 0; i < n_nodes; i++)
				t->targeted[nodes[i]] = 1;
			st = measure_step(c, p, cpu, mw, mask_interrupts, nodes, n_nodes, t, step,
					  scratch, d);
			if (st != BT_OK)
				break;
			run_constants(c, p, cpu, t, mw, mask_interrupts);
			st = evaluate(c, t);
			if (step->groups_skipped || t->budget_pebs_skipped) {
				/* The budget is spent (a group or a timed-PEBS
				 * window did not fit): no deeper level is opened. */
				snprintf(t->untargeted_why, sizeof(t->untargeted_why),
					 "the time budget (--budget) ended the drill-down at level %u",
					 lv);
				break;
			}
			/* Next: the children of the nodes of this level that are flagged. */
			unsigned next = 0;
			for (unsigned i = 0; i < n_nodes && st == BT_OK; i++) {
				const uint16_t *kids;
				unsigned nk;

				/* A flagged node opens its children; so does one the
				 * vendor gives no threshold (AMD's pipeline metrics):
				 * without a flag to go by, baretop goes on measuring. */
				if (!t->result->flag[nodes[i]] && t->result->has_flag[nodes[i]])
					continue;
				nk = bt_model_node_children(c->model, nodes[i], &kids);
				for (unsigned k = 0; k < nk && next < nn; k++)
					next_nodes[next++] = kids[k];
			}
			memcpy(nodes, next_nodes, next * sizeof(*nodes));
			n_nodes = next;
		}
	}
	free(nodes);
	free(next_nodes);
	free(scratch);
	t->measure_end_s = NAN;
	if (c->boot && c->boot->tsc_hz && c->boot->opt->boot.budget_s)
		t->measure_end_s = (double)(bt_rdtsc(p->arch) - c->boot->t0) / (double)c->boot->tsc_hz;
	if (st == BT_OK && (t->budget_groups_skipped || t->budget_pebs_skipped))
		budget_nodes(c, t);
	if (c->cpu && c->cpu->tsc_hz) {
		/* wall time: the platform's TSC (c->tsc_hz is the simulated CPU's
		 * under --sim) */
		t->groups_wall_s = (double)t->groups_wall_ticks / (double)c->cpu->tsc_hz;
		t->pebs_wall_s = (double)t->pebs_wall_ticks / (double)c->cpu->tsc_hz;
	} else {
		t->groups_wall_s = t->pebs_wall_s = NAN;
	}
	/* The tree as finally evaluated, against the model's consistency rules. */
	if (st == BT_OK && c->rules) {
		t->consistency = bt_consistency_new(c->rules);
		if (!t->consistency)
			st = BT_ERR_NOMEM;
		else
			bt_consistency_check(t->consistency, t->counts, t->result);
	}
	if (st == BT_OK && t->consistency && t->consistency->n_violated && untrust_by_rules(c, t)) {
		/* the path again, without the nodes just untrusted */
		st = evaluate(c, t);
		if (st == BT_OK)
			bt_consistency_check(t->consistency, t->counts, t->result);
	}
	if (st != BT_OK) {
		bt_tree_outcome_free(t);
		return st;
	}
	*ret = t;
	return BT_OK;
}

unsigned bt_tree_outcome_untrusted(const struct bt_tree_outcome *t)
{
	unsigned n = 0;

	for (unsigned i = 0; t && t->untrusted && i < bt_model_node_count(t->model); i++)
		n += t->untrusted[i].event[0] != '\0' && strcmp(t->untrusted[i].verdict, "SKIP") != 0;
	return n;
}

void bt_tree_outcome_free(struct bt_tree_outcome *t)
{
	if (!t)
		return;
	if (t->counts)
		bt_counts_free(t->counts);
	if (t->result)
		bt_result_free(t->result);
	for (int k = 0; k < t->n_steps; k++)
		free(t->steps[k].run_log);
	free(t->stat);
	free(t->counted);
	free(t->budget_skipped_ev);
	free(t->targeted);
	free(t->rl);
	free(t->untrusted);
	bt_consistency_free(t->consistency);
	free(t);
}
