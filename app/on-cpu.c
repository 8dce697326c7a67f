/* SPDX-License-Identifier: MIT */
/* Work on chosen CPUs with blocking MP calls only: see on-cpu.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/on-cpu.h"

/* The partner's mailbox (struct bt_cpu_team state). */
enum { PARTNER_IDLE, PARTNER_POSTED, PARTNER_RUNNING, PARTNER_FINISHED };
/* PAUSEs wait_partner spins before giving up: the partner returns as soon
 * as the workload sets its stop flag, so this is only ever reached when
 * the partner CPU is gone (a fault there). Minutes. */
#define PARTNER_SPIN_LIMIT (1ull << 34)
/* The wait for the APs without a task to leave the procedure: microseconds
 * on real firmware; bounded, as the measurement goes on without it. */
#define IDLE_SPIN_LIMIT (1ull << 24)

static void restore_xstate(void *p)
{
	struct bt_cpu_job *job = p;

	bt_xstate_restore(job->arch, &job->xstate);
}

static void job_trampoline(void *p)
{
	struct bt_cpu_job *job = p;
	struct bt_cpuid r;

	bt_xstate_enable(job->arch, &job->xstate);
	bool on_ap = bt_ap_run_on_abandon(restore_xstate, job);
	bt_cpuid(job->arch, 0, 0, &r);
	if (r.eax >= 0x1a) {
		bt_cpuid(job->arch, 0x1a, 0, &r);
		job->core_type = (enum bt_core_type)(r.eax >> 24);
		job->native_model_id = r.eax & 0xffffff;
	}
	job->work(job->ctx);
	if (on_ap)
		bt_ap_run_drop_abandon();
	bt_xstate_restore(job->arch, &job->xstate);
}

static void team_abandon(void *p)
{
	struct bt_cpu_team *t = p;

	t->abandon(t->abandon_ctx);
}

/* The measured job within its team: the partner told to stop if the job is
 * abandoned (registered first, so it runs after the job's own cleanups). */
static void measured_task(void *p)
{
	struct bt_cpu_job *job = p;
	bool on_ap = job->team && job->team->abandon && bt_ap_run_on_abandon(team_abandon, job->team);

	job_trampoline(job);
	if (on_ap)
		bt_ap_run_drop_abandon();
}

/* The partner CPU: runs what start_partner posts until the measured job is
 * over. Only memory here, no firmware. */
static void partner_server(void *p)
{
	struct bt_cpu_team *t = p;

	for (;;) {
		uint32_t s = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
		if (s == PARTNER_POSTED) {
			__atomic_store_n(&t->state, PARTNER_RUNNING, __ATOMIC_RELAXED);
			t->fn(t->fn_arg);
			__atomic_store_n(&t->state, PARTNER_FINISHED, __ATOMIC_RELEASE);
			continue;
		}
		if (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
			return;
		__builtin_ia32_pause();
	}
}

static bt_status team_start_partner(void (*fn)(void *), void *arg, void *ctx)
{
	struct bt_cpu_team *t = ctx;
	uint32_t s = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);

	if (s == PARTNER_POSTED || s == PARTNER_RUNNING)
		return BT_ERR_INVALID;
	t->fn = fn;
	t->fn_arg = arg;
	__atomic_store_n(&t->state, PARTNER_POSTED, __ATOMIC_RELEASE);
	return BT_OK;
}

static bt_status team_wait_partner(void *ctx)
{
	struct bt_cpu_team *t = ctx;

	for (uint64_t spins = 0;; spins++) {
		uint32_t s = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
		if (s == PARTNER_IDLE)
			return BT_OK;
		if (s == PARTNER_FINISHED) {
			__atomic_store_n(&t->state, PARTNER_IDLE, __ATOMIC_RELAXED);
			return BT_OK;
		}
		if (spins == PARTNER_SPIN_LIMIT)
			return BT_ERR_TIMEOUT;
		__builtin_ia32_pause();
	}
}

void bt_cpu_team_env(struct bt_cpu_team *t, const struct bt_wl_env *base, struct bt_wl_env *ret)
{
	*ret = *base;
	ret->start_partner = team_start_partner;
	ret->wait_partner = team_wait_partner;
	ret->partner_ctx = t;
}

static void restore_copy_xstate(void *p)
{
	struct bt_copy_arg *a = p;

	bt_xstate_restore(a->arch, &a->xs);
}

/* A copy's CPU: laps of its own instance until the measured job is over. */
static void copy_loop(void *p)
{
	struct bt_copy_arg *a = p;
	struct bt_copies *c = a->c;

	bt_xstate_enable(a->arch, &a->xs);
	bool on_ap = bt_ap_run_on_abandon(restore_copy_xstate, a);
	while (!__atomic_load_n(&c->team->done, __ATOMIC_ACQUIRE)) {
		c->inst[a->k].wl->run(c->inst[a->k].state);
		c->laps[a->k]++;
	}
	if (on_ap)
		bt_ap_run_drop_abandon();
	bt_xstate_restore(a->arch, &a->xs);
}

/* ------------------------------------------------------------ accounting */

__attribute__((format(printf, 3, 4)))
static void unaccounted(struct bt_platform *p, uint32_t cpu, const char *fmt, ...)
{
	va_list ap;
	char why[sizeof(p->aps_unaccounted_why)];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (p->aps_unaccounted++ == 0)
		snprintf(p->aps_unaccounted_why, sizeof(p->aps_unaccounted_why), "CPU %u %.140s", cpu,
			 why);
	printf("baretop: CPU %u %s: not accounted for, the run ends with a reset\n", cpu, why);
}

/* After the MP call: the run's stack figures into the team's, a fault or a
 * timeout said and counted. The job's own status. */
static bt_status account(struct bt_platform *p, uint32_t cpu, struct bt_ap_run *run,
			 bt_status st, struct bt_cpu_team *team, char *fault, size_t fault_len)
{
	const struct bt_ap_stack_use *u = &run->use;

	if (team && run->entered) {
		struct bt_ap_usage *g = &team->usage;
		g->jobs++;
		g->size = u->size;
		g->used = u->used > g->used ? u->used : g->used;
		g->fw_used = u->fw_used > g->fw_used ? u->fw_used : g->fw_used;
		g->overflow |= u->overflow;
	}
	if (st == BT_OK && !run->returned)
		st = BT_ERR_TIMEOUT; /* the firmware says done; the job never came back */
	if (st == BT_ERR_TIMEOUT) {
		unaccounted(p, cpu, "timed out: the firmware reset it (INIT keeps its PMU "
			    "registers)");
		return st;
	}
	if (st != BT_OK)
		return st;
	if (u->overflow) {
		printf("baretop: a job on CPU %u overran its %u-byte stack\n", cpu, u->size);
		return BT_ERR_FULL;
	}
	if (!run->faults)
		return BT_OK;
	const struct bt_ap_fault *f = &run->fault;
	int n = f->fatal ? snprintf(fault, fault_len, "%s%s%s", f->fatal, f->detail ? ": " : "",
				    f->detail ? f->detail : "")
			 : snprintf(fault, fault_len, "unexpected exception %u at RIP 0x%llx", f->vector,
				    (unsigned long long)f->rip);
	if (f->image_offset && n > 0 && (size_t)n < fault_len)
		snprintf(fault + n, fault_len - (size_t)n, " = baretop.efi+0x%llx (see baretop.map)",
			 (unsigned long long)f->image_offset);
	printf("\nbaretop: %s on CPU %u; recovered: the job was abandoned%s and the CPU "
	       "returned to the firmware\n", fault, cpu, run->faults == 1 ? ", cleaned up" : "");
	if (p->n_ap_faults < BT_MAX_AP_FAULT_RECORDS) {
		struct bt_ap_fault_record *rec = &p->ap_faults[p->n_ap_faults];
		*rec = (struct bt_ap_fault_record){ .cpu = cpu, .vector = f->vector, .rip = f->rip,
						    .image_offset = f->image_offset,
						    .recovered = true,
						    .cleanup_faulted = run->faults >= 2 };
		snprintf(rec->what, sizeof(rec->what), "%.*s", (int)sizeof(rec->what) - 1, fault);
	}
	p->n_ap_faults++;
	if (run->faults >= 2)
		unaccounted(p, cpu, "faulted again in its cleanup: its PMU may still be baretop's");
	return BT_ERR_FAULT;
}

/* ------------------------------------------------------------ the MP call */

struct task {
	uint32_t cpu;
	struct bt_ap_run run;
};

struct group {
	struct bt_platform *plat;
	struct bt_cpu_team *team;
	struct task *tasks;          /* [0] the measured job */
	unsigned n;
	unsigned idle_aps;           /* the APs without a task (StartupAllAPs starts them too) */
	unsigned idle_left;          /* of them, those that returned */
};

/* On the AP of a one-CPU job (StartupThisAP). */
static void single_proc(void *arg, uint64_t entry_sp)
{
	bt_ap_run_entry(arg, entry_sp);
}

/* On every AP (StartupAllAPs): its task, if it has one. */
static void group_proc(void *arg, uint64_t entry_sp)
{
	struct group *g = arg;
	uint32_t me = g->plat->current_cpu();

	for (unsigned k = 0; k < g->n; k++) {
		if (g->tasks[k].cpu != me)
			continue;
		/* The measured job starts once the APs without a task have gone
		 * back to the firmware's idle loop: an SMT sibling of the measured
		 * CPU that is still in this procedure is not idle, and the
		 * windows would see it run. */
		for (uint64_t spins = 0; k == 0 && spins < IDLE_SPIN_LIMIT &&
		     __atomic_load_n(&g->idle_left, __ATOMIC_ACQUIRE) < g->idle_aps; spins++)
			__builtin_ia32_pause();
		bt_ap_run_entry(&g->tasks[k].run, entry_sp);
		if (k == 0)
			__atomic_store_n(&g->team->done, 1, __ATOMIC_RELEASE);
		return;
	}
	__atomic_add_fetch(&g->idle_left, 1, __ATOMIC_RELEASE);
}

/* The job on its AP, alone (one StartupThisAP) or with its team's partner
 * and copies (one StartupAllAPs). */
static bt_status run_on_ap(struct bt_platform *p, uint32_t cpu, struct bt_cpu_job *job,
			   bool company)
{
	struct bt_cpu_team *t = job->team;
	struct bt_copies *c = company ? t->copies : NULL;
	unsigned n = 1 + (company && t->partner_cpu >= 0) + (unsigned)(c ? c->n : 0);
	struct group g = { p, t, calloc(n, sizeof(struct task)), 0, 0, 0 };
	uint32_t total = 0, enabled = 0;

	if (company && p->cpu_count && p->cpu_count(&total, &enabled) == BT_OK && enabled > 1 + n)
		g.idle_aps = enabled - 1 - n;
	bt_status st = g.tasks ? BT_OK : BT_ERR_NOMEM;
	uint32_t n_failed = 0;

	if (company) {
		t->done = 0;
		t->state = PARTNER_IDLE;
	}
	if (st == BT_OK) {
		g.tasks[g.n].cpu = cpu;
		st = bt_ap_run_prepare(&g.tasks[g.n++].run, measured_task, job);
	}
	if (st == BT_OK && n > 1 + (unsigned)(c ? c->n : 0)) {
		g.tasks[g.n].cpu = (uint32_t)t->partner_cpu;
		st = bt_ap_run_prepare(&g.tasks[g.n++].run, partner_server, t);
	}
	for (int k = 0; st == BT_OK && c && k < c->n; k++) {
		c->team = t;
		g.tasks[g.n].cpu = c->cpu[k];
		st = bt_ap_run_prepare(&g.tasks[g.n++].run, copy_loop, &c->arg[k]);
	}
	if (st == BT_OK && company && !p->run_on_aps)
		st = BT_ERR_UNSUPPORTED;
	bt_status call = st != BT_OK ? st
		: company ? p->run_on_aps(group_proc, &g, BT_CPU_JOB_TIMEOUT_US, &n_failed)
			  : p->run_on_cpu(cpu, single_proc, &g.tasks[0].run, BT_CPU_JOB_TIMEOUT_US);
	bt_status ret = call;
	for (unsigned k = 0; k < g.n; k++) {
		struct task *tk = &g.tasks[k];
		char fault[200];
		bt_ap_run_finish(&tk->run);
		if (call != BT_OK && call != BT_ERR_TIMEOUT)
			continue; /* nothing ran */
		bt_status s = account(p, tk->cpu, &tk->run,
				      call == BT_ERR_TIMEOUT && !tk->run.returned ? call : BT_OK, t,
				      k ? fault : job->fault, k ? sizeof(fault) : sizeof(job->fault));
		if (k == 0)
			ret = s;
	}
	free(g.tasks);
	return ret;
}

bt_status bt_cpu_job_run(struct bt_platform *p, uint32_t cpu, struct bt_cpu_job *job)
{
	struct bt_cpu_team *t = job->team;
	bool company = t && (t->partner_cpu >= 0 || (t->copies && t->copies->n));

	job->fault[0] = '\0';
	if (p->current_cpu && cpu == p->current_cpu()) {
		/* The CPU that would start the others would wait in the
		 * firmware: work beside it is for an AP (app/run.c). */
		if (company)
			return BT_ERR_INVALID;
		measured_task(job);
		return BT_OK;
	}
	if (!p->run_on_cpu)
		return BT_ERR_UNSUPPORTED;
	return run_on_ap(p, cpu, job, company);
}

void bt_cpu_job_set_cleanup(struct bt_platform *p, void (*fn)(void *), void *arg)
{
	if (fn ? bt_ap_run_on_abandon(fn, arg) : bt_ap_run_drop_abandon())
		return;
	if (p->set_park_cleanup)
		p->set_park_cleanup(fn, arg);
}

struct selftest {
	struct bt_platform *plat;
	void (*cleanup)(void *);
	void *arg;
	bool lost;
};

static void ud2_cleanup(void *p)
{
	((struct bt_platform *)p)->crash_test();
}

static void ud2_work(void *p)
{
	struct selftest *s = p;

	/* the last cleanup to run: after the caller's */
	if (s->lost)
		bt_ap_run_on_abandon(ud2_cleanup, s->plat);
	if (s->cleanup)
		bt_ap_run_on_abandon(s->cleanup, s->arg);
	s->plat->crash_test();
}

bt_status bt_cpu_fault_selftest(struct bt_platform *p, uint32_t cpu, void (*cleanup)(void *),
				void *arg, bool lost)
{
	struct selftest s = { p, cleanup, arg, lost };
	struct bt_cpu_job job = { .arch = p->arch, .work = ud2_work, .ctx = &s };

	if (cpu == p->current_cpu())
		return BT_ERR_UNSUPPORTED;
	return bt_cpu_job_run(p, cpu, &job);
}

bt_status bt_copies_start(struct bt_platform *p, const uint32_t *cpus, unsigned n_copies,
			  const struct bt_wl_config *cfg, const struct bt_wl_env *env,
			  struct bt_copies *ret, struct bt_diag *d)
{
	memset(ret, 0, sizeof(*ret));
	ret->plat = p;
	if (n_copies <= 1)
		return BT_OK;
	if (n_copies - 1 > BT_MAX_COPIES) {
		bt_diag_set(d, "at most %d copies besides the measured one", BT_MAX_COPIES);
		return BT_ERR_UNSUPPORTED;
	}
	for (unsigned k = 0; k < n_copies - 1; k++) {
		if (bt_wl_setup(&ret->inst[k], cfg, env, d) != BT_OK) {
			bt_copies_stop(ret);
			return BT_ERR_UNSUPPORTED;
		}
		ret->arg[k] = (struct bt_copy_arg){ .c = ret, .k = (int)k, .arch = p->arch };
		ret->cpu[k] = cpus[k];
		ret->n++;
	}
	return BT_OK;
}

void bt_copies_stop(struct bt_copies *c)
{
	for (int k = 0; k < c->n; k++)
		bt_wl_teardown(&c->inst[k]);
	c->n = 0;
}
