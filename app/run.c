/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-run.h"
#include "base/array.h"
#include "app/count.h"
#include "app/on-cpu.h"
#include "metrics/builtin.h"
#include "metrics/tremont-model.h"
#include "pmu/cpu-detect.h"
#include "app/run.h"
#include "report/console.h"

bt_status bt_run_check_specs(const struct bt_options *opt, struct bt_diag *d)
{
	enum bt_wl_preset preset = opt->quick ? BT_WL_QUICK : BT_WL_DEFAULT;

	for (int i = 0; i < opt->n_workloads; i++) {
		struct bt_wl_config cfg;
		if (bt_wl_config_from_spec(&cfg, opt->workloads[i], preset, d) != BT_OK) {
			bt_diag_prefix(d, "-w %s", opt->workloads[i]);
			return BT_ERR_INVALID;
		}
	}
	if (opt->exec_path && opt->n_workloads) {
		bt_diag_set(d, "-x and -w cannot be combined: -x measures one EFI application");
		return BT_ERR_INVALID;
	}
	return BT_OK;
}

/* ------------------------------------------------------------ glue */

struct wl_glue {
	struct bt_wl_instance *inst;
};

static bt_status wl_before(void *ctx, struct bt_diag *d)
{
	return bt_wl_before_run(((struct wl_glue *)ctx)->inst, d);
}

static bt_status wl_after(void *ctx, struct bt_diag *d)
{
	return bt_wl_after_run(((struct wl_glue *)ctx)->inst, d);
}

/* A measured job abandoned after a fault: its partner told to stop. */
static void wl_abandon(void *ctx)
{
	struct bt_diag ignore;

	bt_wl_after_run(((struct wl_glue *)ctx)->inst, &ignore);
}

static void wl_set_range(void *ctx, uint64_t begin, uint64_t end)
{
	bt_wl_set_range(((struct wl_glue *)ctx)->inst, begin, end);
}

struct image_glue {
	struct bt_platform *plat;
	void *image;
};

static bt_status image_before(void *ctx, struct bt_diag *d)
{
	struct image_glue *g = ctx;

	return g->plat->image_prepare(g->image, d);
}

static bt_status image_after(void *ctx, struct bt_diag *d)
{
	struct image_glue *g = ctx;
	uint64_t status;

	return g->plat->image_result(g->image, &status, d) == BT_OK ? BT_OK : BT_ERR_ABORTED;
}

__attribute__((format(printf, 3, 4)))
static void set_reason(struct bt_outcome *o, enum bt_outcome_state st, const char *fmt, ...)
{
	va_list ap;

	o->state = st;
	va_start(ap, fmt);
	vsnprintf(o->reason, sizeof(o->reason), fmt, ap);
	va_end(ap);
}

/* A workload's console lines, as soon as it is done. */
static void print_outcome(struct bt_run_phase *r, const struct bt_outcome *o)
{
	bt_console_ui_clear(&r->ui);
	bt_outcome_print(stdout, o, r->cpu->tsc_hz, r->opt->quiet, r->opt->level != 0,
			 &r->ui.styler);
}

static struct bt_outcome *new_outcome(struct bt_run_phase *r)
{
	struct bt_outcome *grown = realloc(r->outcomes, (size_t)(r->n_outcomes + 1) * sizeof(*grown));

	if (!grown)
		return NULL;
	r->outcomes = grown;
	memset(&grown[r->n_outcomes], 0, sizeof(grown[0]));
	grown[r->n_outcomes].partner_cpu = -1;
	return &grown[r->n_outcomes++];
}

struct timing_job {
	struct bt_run_phase *r;
	const struct bt_measure_workload *mw;
	bool mask_interrupts;
	struct bt_timing *ret;
	bt_status st;
	struct bt_diag d;     /* the caller's, filled on the CPU that ran it */
};

static void timing_work(void *p)
{
	struct timing_job *t = p;

	t->st = bt_time_workload(t->r->plat->arch, t->mw, t->r->warmups, t->r->reps,
				 t->mask_interrupts, t->ret, &t->d);
}

/* Times (no PMU) one workload on o->cpu; fills o. An EFI application (-x)
 * may wait for timer events, so its window keeps interrupts enabled. */
static void time_one(struct bt_run_phase *r, const struct bt_measure_workload *mw,
		     struct bt_outcome *o, bool mask_interrupts, struct bt_cpu_team *team)
{
	struct timing_job t = { r, mw, mask_interrupts, &o->timing, BT_OK, { "" } };
	struct bt_cpu_job job = { .arch = r->plat->arch, .work = timing_work, .ctx = &t,
				  .team = team };
	bt_status st = bt_cpu_job_run(r->plat, o->cpu, &job);

	o->core_type = job.core_type;
	if (st != BT_OK) {
		set_reason(o, BT_OUTCOME_FAILED, "could not run on CPU %u: %s", o->cpu,
			   job.fault[0] ? job.fault : bt_status_str(st));
		return;
	}
	if (t.st != BT_OK) {
		set_reason(o, BT_OUTCOME_FAILED, "%s", t.d.text);
		return;
	}
	o->timed = true;
	snprintf(o->not_counted, sizeof(o->not_counted), "%s", r->no_count_reason);
}

struct detect_job {
	struct bt_arch *arch;
	struct bt_cpu_info info;
	uint64_t tsc_hz;
};

/* Detection on another CPU: no stall (no firmware on an AP), the TSC rate
 * is the one measured on baretop's CPU. */
static void detect_work(void *p)
{
	struct detect_job *d = p;

	bt_cpu_detect(d->arch, NULL, &d->info);
	if (!d->info.tsc_hz) {
		d->info.tsc_hz = d->tsc_hz;
		d->info.tsc_source = BT_TSC_GIVEN;
	}
}

/* A CPU of the same kind counts as baretop's own only if its PMU says the
 * same: IA32_PERF_CAPABILITIES and the quirks applied are read on each CPU
 * (a board may differ per core: microcode, a firmware setting). */
static bool same_pmu(const struct bt_cpu_info *a, const struct bt_cpu_info *b)
{
	return bt_cpu_same_core_kind(a, b) && a->pmu.perf_capabilities == b->pmu.perf_capabilities &&
	       a->pmu.quirks == b->pmu.quirks;
}

/* The count context for `cpu`, decided on that CPU: its kind of core
 * (hybrid parts: the core type together with the native model ID,
 * bt_cpu_same_core_kind) and its PMU as detected there. */
static struct bt_count_ctx *count_ctx_for(struct bt_run_phase *r, uint32_t cpu,
					  struct bt_diag *why)
{
	if (!r->can_count)
		return NULL;
	if (cpu == r->self_cpu)
		return r->count;
	if (cpu < BT_RUN_CPU_CACHE && r->ctx_known[cpu])
		return r->ctx_of[cpu];
	struct bt_count_ctx *found = NULL;
	struct bt_cpu_job probe = { .arch = r->plat->arch, .work = NULL };
	struct detect_job d = { .arch = r->plat->arch, .tsc_hz = r->cpu->tsc_hz };
	probe.work = detect_work;
	probe.ctx = &d;
	if (bt_cpu_job_run(r->plat, cpu, &probe) != BT_OK) {
		bt_diag_set(why, "could not identify CPU %u", cpu);
		return NULL;
	}
	if (same_pmu(&d.info, r->cpu))
		found = r->count;
	for (int k = 0; !found && k < r->n_other; k++)
		if (same_pmu(&d.info, &r->other_cpu[k]))
			found = r->count_other[k];
	if (!found && r->n_other >= BT_RUN_MAX_CORE_KINDS - 1) {
		bt_diag_set(why, "more than %d kinds of core or PMU (CPU %u)", BT_RUN_MAX_CORE_KINDS,
			    cpu);
	} else if (!found) {
		int k = r->n_other;
		r->other_cpu[k] = d.info;
		if (bt_count_prepare(r->plat, r->opt, &r->other_cpu[k], r->census,
				     &r->count_other[k], why) == BT_OK) {
			r->n_other++;
			found = r->count_other[k];
			bt_count_set_console_ui(found, &r->ui);
			bt_console_ui_clear(&r->ui);
			printf("  CPU %u is a%s %s (native model 0x%x): %s\n", cpu,
			       d.info.core_type == BT_CORE_TYPE_ATOM ? "n" : "",
			       bt_core_type_name(d.info.core_type)
				       ? bt_core_type_name(d.info.core_type) : "core",
			       d.info.native_model_id, bt_count_describe(found));
		}
	}
	if (cpu < BT_RUN_CPU_CACHE && found) {
		r->ctx_known[cpu] = true;
		r->ctx_of[cpu] = found;
	}
	return found;
}

/* Counts (or, without a PMU, times) one workload on o->cpu. */
static void measure_one(struct bt_run_phase *r, const struct bt_measure_workload *mw,
			const struct bt_wl_config *cfg, struct bt_outcome *o, bool mask_interrupts,
			struct bt_cpu_team *team)
{
	struct bt_diag d = { "" };
	struct bt_count_ctx *ctx = count_ctx_for(r, o->cpu, &d);

	if (!ctx) {
		if (r->can_count)
			snprintf(r->no_count_reason, sizeof(r->no_count_reason), "%.*s",
				 (int)sizeof(r->no_count_reason) - 1, d.text);
		time_one(r, mw, o, mask_interrupts, team);
		return;
	}
	d.text[0] = '\0';
	bt_count_set_boot(ctx, r->boot);
	bt_count_set_team(ctx, team);
	/* The counters are checked before anything counts with them (also
	 * before the simulated workload's model is attached: the check's own
	 * loop replaces it until then). */
	/* the health check prints its line (once per count context): the
	 * status line goes first, or a serial console shows the two run
	 * together (the group hook draws it again) */
	bt_console_ui_clear(&r->ui);
	bt_status st = bt_count_health(ctx, r->plat, o->cpu, &d);
	o->health = bt_count_health_current(ctx);
	if (st == BT_OK)
		st = bt_count_sim_workload(ctx, cfg, &d);
	bt_count_sim_sibling_busy(ctx, o->perturbed);
	if (st == BT_OK)
		st = bt_count_workload(ctx, r->plat, o->cpu, mw, mask_interrupts, &o->counted,
					 &d);
	bt_count_sim_sibling_busy(ctx, false);
	bt_count_set_team(ctx, NULL);
	if (st != BT_OK)
		set_reason(o, BT_OUTCOME_FAILED, "counting failed: %s", d.text);
	if (o->counted && o->perturbed) {
		size_t k = strlen(o->counted->input_label);
		snprintf(o->counted->input_label + k, sizeof(o->counted->input_label) - k, "; %s",
			 o->placement);
	}
	if (o->counted && bt_tree_outcome_untrusted(o->counted))
		r->n_untrusted++;
	if (o->counted && (o->counted->budget_groups_skipped || o->counted->budget_pebs_skipped)) {
		bt_console_ui_clear(&r->ui);
		bt_boot_run_partial(r->boot, o->name, o->cpu, o->counted->budget_groups_skipped,
				    o->counted->total_groups, o->counted->budget_pebs_skipped,
				    o->counted->budget_pebs_skipped + o->counted->pebs_windows_run);
	}
}

/* A workload the user named that cannot run here fails the run; one of the
 * default suite that cannot run is skipped quietly (it is still reported). */
static void skipped(struct bt_run_phase *r)
{
	if (r->opt->n_workloads || r->opt->exec_path)
		r->n_failed++;
}

/* A workload that runs only on baretop's own CPU, skipped on another one:
 * a failure only if the run does not include baretop's CPU, where it does
 * run (--cpu all, or a list with that CPU in it). */
static void skipped_elsewhere(struct bt_run_phase *r)
{
	const struct bt_options *o = r->opt;

	if (o->cpu_all || o->n_cpus == 0)
		return;
	for (int i = 0; i < o->n_cpus; i++)
		if (o->cpus[i] == r->self_cpu)
			return;
	skipped(r);
}

/*
 * Scratch memory of the run phase, allocated once by bt_run_phase_run() and
 * handed down. On the heap, not on the stack: the copies' state is about
 * 70 KiB (sizeof(struct bt_copies) = 70680 bytes on x86-64: an instance and
 * a start argument per possible copy), and UEFI firmware gives the BSP a
 * 64-128 KiB stack and the APs (MP services) less. Not a static either: a
 * hidden static would make the run phase non-reentrant.
 */
struct bt_run_scratch {
	struct bt_copies copies;     /* --copies N: the copies of the current workload */
};

/* ------------------------------------------------------------ CPUs */

/* Two logical CPUs are threads of one core. */
static bool same_core(struct bt_platform *p, uint32_t a, uint32_t b)
{
	struct bt_cpu_location x, y;

	return a != b && p->cpu_location && p->cpu_location(a, &x) == BT_OK &&
	       p->cpu_location(b, &y) == BT_OK && x.package == y.package && x.core == y.core;
}

/* Whether a and b are in another package (false when it cannot be told). */
static bool other_package(struct bt_platform *p, uint32_t a, uint32_t b)
{
	struct bt_cpu_location x, y;

	return p->cpu_location && p->cpu_location(a, &x) == BT_OK &&
	       p->cpu_location(b, &y) == BT_OK && x.package != y.package;
}

static bool enabled_cpu(struct bt_platform *p, uint32_t cpu)
{
	struct bt_cpu_location l;

	return !p->cpu_location || p->cpu_location(cpu, &l) != BT_OK || l.enabled;
}

/* The APs around a workload measured with company: who else runs. */
struct team_cpus {
	uint32_t measured;
	int32_t partner;
	uint32_t copies[BT_MAX_COPIES];
	unsigned n_copies;
};

/* The first enabled AP not in `used` (n of them): one on another core than
 * `apart` (the measured CPU: its partner and the copies stay off its core)
 * but in its package (a cross-core test, not a cross-socket one: another
 * package's line comes over the socket link), and not on baretop's core,
 * whose SMT sibling shares it with the firmware's wait loop; failing that
 * the same in another package; then one on another core than `apart`;
 * failing that any. */
static bool pick_ap(struct bt_run_phase *r, uint32_t total, const uint32_t *used, unsigned n,
		    uint32_t apart, uint32_t *ret)
{
	for (int pass = 0; pass < 4; pass++)
		for (uint32_t c = 0; c < total; c++) {
			bool taken = c == r->self_cpu || !enabled_cpu(r->plat, c);
			for (unsigned k = 0; k < n; k++)
				taken |= used[k] == c;
			if (taken || (pass < 3 && apart != UINT32_MAX && same_core(r->plat, c, apart)) ||
			    (pass < 2 && same_core(r->plat, c, r->self_cpu)) ||
			    (pass == 0 && apart != UINT32_MAX && other_package(r->plat, c, apart)))
				continue;
			*ret = c;
			return true;
		}
	return false;
}

/* "1, 3, 5": the CPUs of list that fit in buf. */
static void cpu_list(char *buf, size_t len, const uint32_t *cpu, unsigned n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && k + 24 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%u", i ? ", " : "", cpu[i]);
	if (n && k + 24 >= len)
		snprintf(buf + k, len - k, " ... (%u in all)", n);
}

/* A two-core workload (or --copies) asked for on baretop's own CPU by name
 * cannot be measured there: the CPU that starts the APs waits in the
 * firmware while they run. Said before anything runs (bt_run_phase_run). */
static bool needs_company(const struct bt_run_phase *r, const struct bt_wl_config *cfg)
{
	return ((cfg->wl->flags & BT_WL_NEEDS_PARTNER) && !r->plat->workload_env.start_partner) ||
	       r->opt->copies > 1;
}

/*
 * A two-core workload's partner and --copies' copies run at the same time
 * as the measured CPU, in one blocking StartupAllAPs (app/on-cpu.h): the
 * CPU that makes the call waits in the firmware, so the measured CPU is an
 * AP (moved there when it was baretop's own and the run may move it), the
 * partner on another core (a cross-core test) and, where there is a
 * choice, neither on the core of baretop's waiting CPU. false with the
 * reason in o when there are not enough APs. The placement says where each
 * runs.
 */
static bool place_team(struct bt_run_phase *r, const struct bt_wl_config *cfg, uint32_t asked,
		       bool may_move, struct team_cpus *t, struct bt_outcome *o)
{
	uint32_t total = 0, enabled = 0, used[BT_MAX_COPIES + 2], c;
	unsigned n = 0, copies = r->opt->copies > 1 ? r->opt->copies - 1 : 0;
	bool partner = (cfg->wl->flags & BT_WL_NEEDS_PARTNER) && !r->plat->workload_env.start_partner;
	const char *what = partner ? "its partner" : copies == 1 ? "the other copy" : "the copies";

	if ((cfg->wl->flags & BT_WL_NEEDS_PARTNER) && copies) {
		set_reason(o, BT_OUTCOME_SKIPPED, "uses a partner CPU itself: no --copies");
		return false;
	}
	if (asked == r->self_cpu && !may_move) {
		set_reason(o, BT_OUTCOME_SKIPPED, "measured on the APs: baretop's CPU %u waits "
			   "in the firmware while %s %s on them", r->self_cpu, what,
			   partner || copies == 1 ? "runs" : "run");
		return false;
	}
	if (r->plat->cpu_count)
		r->plat->cpu_count(&total, &enabled);
	t->partner = -1;
	t->n_copies = 0;
	/* the measured CPU (an AP), the partner on another core, the copies */
	for (unsigned k = 0; k < 1 + partner + copies; k++) {
		if (k == 0 && asked != r->self_cpu) {
			c = asked;
		} else if (!pick_ap(r, total, n ? used : NULL, n,
				    k == 0 ? r->self_cpu : used[0], &c)) {
			set_reason(o, BT_OUTCOME_SKIPPED, "needs %u APs at once (the measured CPU and "
				   "%s) besides baretop's CPU %u; the machine has %u enabled CPU%s, "
				   "%u of them APs", 1 + partner + copies, what, r->self_cpu, enabled,
				   enabled == 1 ? "" : "s", enabled ? enabled - 1 : 0);
			return false;
		}
		used[n++] = c;
		if (k == 0)
			t->measured = c;
		else if (partner)
			t->partner = (int32_t)c;
		else
			t->copies[t->n_copies++] = c;
	}
	char with[200] = "";
	if (partner) {
		uint32_t pc = (uint32_t)t->partner;
		snprintf(with, sizeof(with), "its partner on CPU %u (%s)", pc,
			 same_core(r->plat, pc, t->measured)
				 ? "the same core: no AP on another core, not a cross-core test"
			 : other_package(r->plat, pc, t->measured)
				 ? "another package: no AP on another core of this one, a "
				   "cross-socket test"
			 : same_core(r->plat, pc, r->self_cpu)
				 ? "another core, beside baretop's waiting CPU: the only AP there"
				 : "another core of the same package");
	} else {
		char list[160];
		cpu_list(list, sizeof(list), t->copies, t->n_copies);
		snprintf(with, sizeof(with), "%s on CPU%s %s", what, t->n_copies == 1 ? "" : "s",
			 list);
	}
	snprintf(o->placement, sizeof(o->placement), "on CPU %u%s, %s; baretop's CPU %u waits in "
		 "the firmware (StartupAllAPs) meanwhile", t->measured,
		 t->measured != asked ? " (an AP, moved from baretop's own)" : "", with,
		 r->self_cpu);
	return true;
}

/* baretop's CPU spins in the firmware while an AP works (MpLib.c
 * StartupThisAPWorker: `do { CheckThisAP } while EFI_NOT_READY`), so its
 * SMT sibling never has an idle sibling: the per-thread formulas
 * (HYPERTHREADING_ON = 0) assume one. */
static bool bsp_sibling(struct bt_run_phase *r, uint32_t cpu)
{
	return same_core(r->plat, cpu, r->self_cpu);
}

/* --cpu all leaves out the SMT siblings of baretop's CPU (an outcome that
 * says why, not a failure); named alone (--cpu N) such a CPU is measured,
 * marked PERTURBED (run_builtin). */
static bool left_out(struct bt_run_phase *r, struct bt_outcome *o)
{
	if (!r->opt->cpu_all || !bsp_sibling(r, o->cpu))
		return false;
	set_reason(o, BT_OUTCOME_SKIPPED, "left out: the SMT sibling of baretop's CPU %u, busy "
		   "in the firmware (--cpu %u: PERTURBED)", r->self_cpu, o->cpu);
	print_outcome(r, o);
	return true;
}

static void run_builtin(struct bt_run_phase *r, const struct bt_wl_config *cfg,
			const struct bt_wl_env *env, uint32_t cpu, struct bt_run_scratch *scratch)
{
	struct bt_wl_instance inst;
	struct bt_copies *copies = scratch ? &scratch->copies : NULL;
	struct bt_diag d = { "" };
	struct bt_cpu_team team = { .partner_cpu = -1 };
	struct team_cpus tc = { .measured = cpu, .partner = -1 };
	/* A platform that can start a partner while its caller runs (hosted
	 * Linux: a thread) gives it through env; otherwise it is the team's. */
	bool own_partner = (cfg->wl->flags & BT_WL_NEEDS_PARTNER) && !env->start_partner;
	bool company = own_partner || r->opt->copies > 1;

	if (!bt_boot_run_budget_left(r->boot))
		bt_console_ui_clear(&r->ui);   /* the line "NOT RUN" replaces the progress line */
	if (!bt_boot_run_step_allowed(r->boot, cfg->wl->name, cpu))
		return;
	struct bt_outcome *o = new_outcome(r);
	if (!o)
		return;
	snprintf(o->name, sizeof(o->name), "%s", cfg->wl->name);
	o->cpu = cpu;
	o->copies = 1;
	bt_wl_config_format(cfg, o->params, sizeof(o->params));
	if (left_out(r, o))
		return;
	if (company && !place_team(r, cfg, cpu, !r->opt->cpu_all && !r->opt->n_cpus, &tc, o)) {
		if (r->opt->cpu_all && cpu == r->self_cpu)
			; /* the APs' turns measure it */
		else
			skipped(r);
		print_outcome(r, o);
		return;
	}
	o->cpu = cpu = tc.measured;
	team.partner_cpu = tc.partner;
	o->partner_cpu = tc.partner;
	if (tc.n_copies && (o->copy_cpus = malloc(tc.n_copies * sizeof(uint32_t)))) {
		memcpy(o->copy_cpus, tc.copies, tc.n_copies * sizeof(uint32_t));
		o->n_copy_cpus = tc.n_copies;
	}
	if (bsp_sibling(r, cpu)) {
		char where[sizeof(o->placement)];
		snprintf(where, sizeof(where), "%s", o->placement);
		o->perturbed = true;
		snprintf(o->placement, sizeof(o->placement), "PERTURBED: the SMT sibling of "
			 "baretop's CPU %u, busy in the firmware%s%.200s", r->self_cpu,
			 where[0] ? "; " : "", where);
	}
	/* The team's partner loops on its AP in the same MP call as the
	 * measured job. */
	struct bt_wl_env wenv = *env;
	if (own_partner)
		bt_cpu_team_env(&team, env, &wenv);
	bt_status st = bt_wl_setup(&inst, cfg, &wenv, &d);
	if (st == BT_ERR_UNSUPPORTED) {
		set_reason(o, BT_OUTCOME_SKIPPED, "%s", d.text);
		skipped(r);
		print_outcome(r, o);
		return;
	}
	if (st != BT_OK) {
		set_reason(o, BT_OUTCOME_FAILED, "setup: %s", d.text);
		r->n_failed++;
		print_outcome(r, o);
		return;
	}
	snprintf(o->note, sizeof(o->note), "%s", inst.note);
	if (r->opt->copies > 1) {
		if (!copies)
			bt_diag_set(&d, "out of memory");
		if (!copies || bt_copies_start(r->plat, tc.copies, r->opt->copies, cfg, &wenv, copies,
					       &d) != BT_OK) {
			set_reason(o, BT_OUTCOME_SKIPPED, "%u copies: %s", r->opt->copies, d.text);
			skipped(r);
			bt_wl_teardown(&inst);
			print_outcome(r, o);
			return;
		}
		o->copies = (unsigned)copies->n + 1;
		team.copies = copies;
	}

	struct wl_glue glue = { &inst };
	struct bt_measure_workload mw = { inst.wl->run, inst.state, wl_before, wl_after, &glue,
					  bt_wl_iterations(&inst), wl_set_range };
	if (team.partner_cpu >= 0) {
		team.abandon = wl_abandon;
		team.abandon_ctx = &glue;
	}

	measure_one(r, &mw, &inst.cfg, o, true, &team);
	if (o->copies > 1)
		bt_copies_stop(copies);
	o->ap_jobs = team.usage.jobs;
	o->ap_stack_used = team.usage.used;
	o->ap_stack_size = team.usage.size;
	o->fw_stack_used = team.usage.fw_used;
	o->ap_stack_overflow = team.usage.overflow;
	if (o->state == BT_OUTCOME_RAN) {
		o->has_checksum = true;
		o->checksum = bt_wl_checksum(&inst);
	} else {
		r->n_failed++;
	}
	bt_wl_teardown(&inst);
	print_outcome(r, o);
}

static void run_image(struct bt_run_phase *r, uint32_t cpu)
{
	struct bt_platform *p = r->plat;
	struct bt_diag d = { "" };
	void *image = NULL;

	if (!bt_boot_run_budget_left(r->boot))
		bt_console_ui_clear(&r->ui);
	if (!bt_boot_run_step_allowed(r->boot, r->opt->exec_path, cpu))
		return;
	struct bt_outcome *o = new_outcome(r);
	if (!o)
		return;
	snprintf(o->name, sizeof(o->name), "%s", r->opt->exec_path);
	o->cpu = cpu;
	o->copies = 1;
	for (int i = 1; i < r->opt->exec_argc; i++) {
		size_t n = strlen(o->params);
		snprintf(o->params + n, sizeof(o->params) - n, "%s%s", i > 1 ? " " : "",
			 r->opt->exec_argv[i]);
	}
	if (!p->image_load) {
		set_reason(o, BT_OUTCOME_SKIPPED, "this platform cannot start EFI applications");
		skipped(r);
		print_outcome(r, o);
		return;
	}
	if (cpu != r->self_cpu) {
		set_reason(o, BT_OUTCOME_SKIPPED, "an EFI application runs only on the CPU baretop "
			   "started on (CPU %u): it uses boot services", r->self_cpu);
		skipped_elsewhere(r);
		print_outcome(r, o);
		return;
	}
	if (p->image_load(r->opt->exec_path, r->opt->exec_argc, r->opt->exec_argv, &image, &d) !=
	    BT_OK) {
		set_reason(o, BT_OUTCOME_FAILED, "%s", d.text);
		r->n_failed++;
		print_outcome(r, o);
		return;
	}
	struct image_glue glue = { p, image };
	/* An application's work cannot be split: it runs whole. */
	struct bt_measure_workload mw = { p->image_start, image, image_before, image_after, &glue,
					  0, NULL };

	measure_one(r, &mw, NULL, o, false, NULL);
	if (o->state == BT_OUTCOME_RAN)
		snprintf(o->reason, sizeof(o->reason), "interrupts stay enabled in its window: an "
			 "application may wait for timer events");
	uint64_t status;
	struct bt_diag msg = { "" };
	p->image_result(image, &status, &msg);
	snprintf(o->note, sizeof(o->note), "%.*s", (int)sizeof(o->note) - 1, msg.text);
	if (o->state != BT_OUTCOME_RAN)
		r->n_failed++;
	p->image_free(image);
	print_outcome(r, o);
}

/* The CPUs to run on: --cpu all, --cpu LIST, or the current one. */
/* The CPUs to measure, in *ret (malloc'd, one entry per logical CPU at
 * most: `all` on a many-socket server is every one of them, not a fixed
 * number); returns how many, or -1 with d saying why. */
static int target_cpus(struct bt_run_phase *r, uint32_t **ret, struct bt_diag *d)
{
	const struct bt_options *opt = r->opt;
	struct bt_platform *p = r->plat;
	uint32_t total = 1, enabled = 1, *cpus;
	int n = 0;

	*ret = NULL;
	if (!opt->cpu_all && !opt->n_cpus) {
		if (!(cpus = malloc(sizeof(*cpus)))) {
			bt_diag_set(d, "--cpu: out of memory");
			return -1;
		}
		cpus[0] = r->self_cpu;
		*ret = cpus;
		return 1;
	}
	if (!p->cpu_count || p->cpu_count(&total, &enabled) != BT_OK) {
		bt_diag_set(d, "--cpu: this platform cannot enumerate CPUs");
		return -1;
	}
	size_t cap = opt->cpu_all ? total : (size_t)opt->n_cpus;
	if (!(cpus = calloc(cap ? cap : 1, sizeof(*cpus)))) {
		bt_diag_set(d, "--cpu: out of memory for a list of %zu CPUs", cap);
		return -1;
	}
	*ret = cpus;
	if (opt->cpu_all) {
		for (uint32_t c = 0; c < total && (size_t)n < cap; c++) {
			struct bt_cpu_location loc;
			if (p->cpu_location && p->cpu_location(c, &loc) == BT_OK && !loc.enabled)
				continue;
			cpus[n++] = c;
		}
		return n;
	}
	for (int i = 0; i < opt->n_cpus && (size_t)n < cap; i++) {
		if (opt->cpus[i] >= total) {
			bt_diag_set(d, "--cpu %u: there are %u logical CPUs (0-%u)", opt->cpus[i],
				    total, total - 1);
			return -1;
		}
		cpus[n++] = opt->cpus[i];
	}
	return n;
}

/* --cpu naming baretop's own CPU for a -w that needs company there: no
 * measurement could be made, so nothing runs (true, d says why). */
static bool refuse_self_team(struct bt_run_phase *r, const uint32_t *cpus, int n_cpus,
			     struct bt_diag *d)
{
	enum bt_wl_preset preset = r->opt->quick ? BT_WL_QUICK : BT_WL_DEFAULT;
	bool self = false;

	if (r->opt->cpu_all || !r->opt->n_cpus)
		return false;
	for (int c = 0; c < n_cpus; c++)
		self |= cpus[c] == r->self_cpu;
	for (int i = 0; self && i < r->opt->n_workloads; i++) {
		struct bt_wl_config cfg;
		if (bt_wl_config_from_spec(&cfg, r->opt->workloads[i], preset, d) != BT_OK ||
		    !needs_company(r, &cfg))
			continue;
		bt_diag_set(d, "--cpu %u with -w %s: baretop's CPU %u starts the APs and waits in "
			    "the firmware while %s runs there, so it cannot be measured on CPU %u; "
			    "name an AP in --cpu, or leave --cpu out to have it placed on one",
			    r->self_cpu, cfg.wl->name, r->self_cpu,
			    r->opt->copies > 1 ? "each copy" : "the workload with its partner",
			    r->self_cpu);
		return true;
	}
	return false;
}

bt_status bt_run_check_team(const struct bt_options *opt, struct bt_platform *plat,
			    struct bt_diag *d)
{
	struct bt_run_phase r = { .opt = opt, .plat = plat };

	r.self_cpu = plat->current_cpu ? plat->current_cpu() : 0;
	return refuse_self_team(&r, opt->cpus, opt->n_cpus, d) ? BT_ERR_INVALID : BT_OK;
}

bt_status bt_run_phase_run(struct bt_run_phase *r)
{
	const struct bt_options *opt = r->opt;
	struct bt_wl_env env = r->plat->workload_env;
	enum bt_wl_preset preset = opt->quick ? BT_WL_QUICK : BT_WL_DEFAULT;

	r->reps = opt->reps ? opt->reps : BT_MEASURE_REPS_DEFAULT;
	r->self_cpu = r->plat->current_cpu ? r->plat->current_cpu() : 0;
	r->warmups = opt->warmups_set ? opt->warmups : BT_MEASURE_WARMUPS_DEFAULT;
	if (!r->xstate_done) {
		bt_xstate_enable(r->plat->arch, &r->xstate);
		r->xstate_done = true;
	}
	/* The usable ISA now that the state is enabled (CPUID.01H:ECX.OSXSAVE
	 * then mirrors CR4, and XGETBV reads what XSETBV set); the platform's
	 * cache sizes are not passed on. */
	memset(&env.cpu, 0, sizeof(env.cpu));
	bt_cpu_features_read(r->plat->arch, &env.cpu.isa);
	env.cpu.logical_cpus = r->cpu->logical_cpus;
	if (r->plat->cpu_count) {
		uint32_t total, enabled;
		if (r->plat->cpu_count(&total, &enabled) == BT_OK)
			env.cpu.logical_cpus = enabled;
	}

	printf("Workloads (%s; %u warm-up + %u runs each%s)\n",
	       r->can_count ? "counted" : "timed only", r->warmups, r->reps,
	       opt->quick ? ", quick preset" : "");
	printf("  vector state: %s\n", r->xstate.note);
	if (!r->can_count) {
		printf("  no counts: %s\n", r->no_count_reason);
	} else {
		struct bt_count_setup setup;

		bt_count_setup_of(r->count, &setup);
		bt_count_setup_print(stdout, &setup);
	}

	uint32_t *cpus;
	struct bt_diag d;
	int n_cpus = target_cpus(r, &cpus, &d);

	/* (--cpu on baretop's own CPU for a workload that needs company was
	 * refused with the options: bt_run_check_team) */
	if (n_cpus < 0) {
		struct bt_outcome *o = new_outcome(r);
		if (o) {
			snprintf(o->name, sizeof(o->name), "(cpu selection)");
			set_reason(o, BT_OUTCOME_FAILED, "%s", d.text);
			print_outcome(r, o);
		}
		r->n_failed++;
		free(cpus);
		return BT_OK;
	}
	/* Only --copies needs it; without it a failed allocation is reported
	 * by each workload that needed it (run_builtin). */
	struct bt_run_scratch *scratch = opt->copies > 1 ? calloc(1, sizeof(*scratch)) : NULL;
	size_t n_suite;
	const struct bt_workload *const *suite = bt_wl_default_suite(&n_suite);
	unsigned per_cpu = opt->exec_path ? 1 : opt->n_workloads ? (unsigned)opt->n_workloads
								  : (unsigned)n_suite;
	unsigned k = 0;

	bt_console_ui_init(&r->ui, r->plat, opt->color, r->cpu->tsc_hz, per_cpu * (unsigned)n_cpus);
	if (r->count)
		bt_count_set_console_ui(r->count, &r->ui);
	for (int c = 0; c < n_cpus; c++) {
		if (n_cpus > 1 || cpus[c] != r->self_cpu)
			printf("  on CPU %u%s\n", cpus[c], cpus[c] == r->self_cpu ? " (baretop's)" : "");
		if (opt->exec_path) {
			bt_console_ui_workload(&r->ui, ++k, opt->exec_path);
			run_image(r, cpus[c]);
			bt_console_ui_workload_done(&r->ui);
		} else if (opt->n_workloads) {
			for (int i = 0; i < opt->n_workloads; i++) {
				struct bt_wl_config cfg;

				bt_console_ui_workload(&r->ui, ++k, opt->workloads[i]);
				if (bt_wl_config_from_spec(&cfg, opt->workloads[i], preset, &d) ==
				    BT_OK)
					run_builtin(r, &cfg, &env, cpus[c], scratch);
				bt_console_ui_workload_done(&r->ui);
			}
		} else {
			for (size_t i = 0; i < n_suite; i++) {
				struct bt_wl_config cfg;

				bt_console_ui_workload(&r->ui, ++k, suite[i]->name);
				bt_wl_config_init(&cfg, suite[i], preset);
				run_builtin(r, &cfg, &env, cpus[c], scratch);
				bt_console_ui_workload_done(&r->ui);
			}
		}
	}
	bt_console_ui_clear(&r->ui);
	free(scratch);
	free(cpus);
	return BT_OK;
}

void bt_run_phase_free(struct bt_run_phase *r)
{
	if (r->xstate_done)
		bt_xstate_restore(r->plat->arch, &r->xstate);
	r->xstate_done = false;
	for (int i = 0; i < r->n_outcomes; i++) {
		bt_tree_outcome_free(r->outcomes[i].counted);
		free(r->outcomes[i].copy_cpus);
	}
	bt_count_free(r->count);
	for (int k = 0; k < r->n_other; k++) {
		bt_count_free(r->count_other[k]);
		r->count_other[k] = NULL;
	}
	r->n_other = 0;
	r->count = NULL;
	free(r->outcomes);
	r->outcomes = NULL;
	r->n_outcomes = 0;
}

void bt_run_phase_record(const struct bt_run_phase *r, struct bt_run_record *ret,
			 struct bt_count_setup *count)
{
	if (r->count)
		bt_count_setup_of(r->count, count);
	*ret = (struct bt_run_record){
		.can_count = r->can_count,
		.count = r->count ? count : NULL,
		.no_count_reason = r->no_count_reason,
		.warmups = r->warmups,
		.reps = r->reps,
		.quick_preset = r->opt->quick,
		.vector_state = r->xstate.note,
		.xcr0 = r->xstate.xcr0,
		.tsc_hz = r->cpu->tsc_hz,
		.outcomes = r->outcomes,
		.n_outcomes = r->n_outcomes,
	};
}

void bt_list_workloads(FILE *f)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	fprintf(f, "Built-in workloads (-w NAME[:PARAM=VALUE,...]):\n");
	for (size_t i = 0; i < n; i++) {
		const struct bt_workload *w = all[i];
		struct bt_wl_config def, quick;
		char d[200], q[200];

		bt_wl_config_init(&def, w, BT_WL_DEFAULT);
		bt_wl_config_init(&quick, w, BT_WL_QUICK);
		bt_wl_config_format(&def, d, sizeof(d));
		bt_wl_config_format(&quick, q, sizeof(q));
		fprintf(f, "\n  %s: %s\n", w->name, w->summary);
		fprintf(f, "    default: %s\n    --quick: %s\n", d, q);
		fprintf(f, "    expected on Intel: %s\n", w->signature_intel);
		fprintf(f, "    expected on AMD:   %s\n", w->signature_amd);
		for (unsigned k = 0; k < w->n_params; k++)
			fprintf(f, "    %-10s %s\n", w->params[k].name, w->params[k].help);
	}
}

void bt_list_models(FILE *f)
{
	fprintf(f, "Built-in Top-Down models (--model ID):\n");
	for (unsigned i = 0; i < bt_builtin_model_count; i++) {
		const struct bt_model_def *d = bt_builtin_models[i];
		fprintf(f, "  %-8s %s\n           %s\n", d->id, d->uarch, d->source);
	}
	const struct bt_model_def *tnt = bt_tremont_model();
	fprintf(f, "  %-8s %s\n           %s\n", tnt->id, tnt->uarch, tnt->source);
	fprintf(f, "CPUs map to models the way Intel's perfmon mapfile.csv maps them (AMD: "
		   "family 19h = Zen 4, 1Ah = Zen 5); Tremont (family 6 models 86H, 96H, 9CH) "
		   "to TNT by core lineage. ARCH (--model ARCH) is built from the CPU's "
		   "CPUID.\n");
}
