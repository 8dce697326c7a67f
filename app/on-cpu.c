/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "app/on-cpu.h"

/* Long workloads run for minutes; nothing here should take an hour. */
#define CPU_JOB_TIMEOUT_US (3600ull * 1000000ull)

static void job_trampoline(void *p)
{
	struct bt_cpu_job *job = p;
	struct bt_cpuid r;

	bt_xstate_enable(job->arch, &job->xstate);
	bt_cpuid(job->arch, 0, 0, &r);
	if (r.eax >= 0x1a) {
		bt_cpuid(job->arch, 0x1a, 0, &r);
		job->core_type = (enum bt_core_type)(r.eax >> 24);
		job->native_model_id = r.eax & 0xffffff;
	}
	job->work(job->ctx);
	bt_xstate_restore(job->arch, &job->xstate);
}

bt_status bt_cpu_job_run(struct bt_platform *p, uint32_t cpu, struct bt_cpu_job *job)
{
	if (p->current_cpu && cpu == p->current_cpu()) {
		job_trampoline(job);
		return BT_OK;
	}
	if (!p->run_on_cpu)
		return BT_ERR_UNSUPPORTED;
	return p->run_on_cpu(cpu, job_trampoline, job, CPU_JOB_TIMEOUT_US);
}

static void copy_loop(void *p)
{
	struct bt_copy_arg *a = p;
	struct bt_copies *c = a->c;
	struct bt_xstate xs;

	bt_xstate_enable(a->arch, &xs);
	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		c->inst[a->k].wl->run(c->inst[a->k].state);
		c->laps[a->k]++;
	}
	bt_xstate_restore(a->arch, &xs);
}

bt_status bt_copies_start(struct bt_platform *p, uint32_t measured_cpu, unsigned n_copies,
			  const struct bt_wl_config *cfg, const struct bt_wl_env *env,
			  struct bt_copies *ret, struct bt_diag *d)
{
	uint32_t total = 0, enabled = 0;

	memset(ret, 0, sizeof(*ret));
	ret->plat = p;
	if (n_copies <= 1)
		return BT_OK;
	if (cfg->wl->flags & BT_WL_NEEDS_PARTNER) {
		bt_diag_set(d, "%s uses a partner CPU itself; it runs as one copy", cfg->wl->name);
		return BT_ERR_UNSUPPORTED;
	}
	if (!p->start_on_cpu || !p->cpu_count || p->cpu_count(&total, &enabled) != BT_OK) {
		bt_diag_set(d, "this platform cannot start work on other CPUs");
		return BT_ERR_UNSUPPORTED;
	}
	if (n_copies - 1 > BT_MAX_COPIES || n_copies > enabled) {
		bt_diag_set(d, "%u copies need %u CPUs; %u are enabled", n_copies, n_copies,
			    enabled);
		return BT_ERR_UNSUPPORTED;
	}
	/* The CPU baretop runs on starts the others and waits for the measured
	 * one: it cannot take a copy unless it is the measured one itself. */
	uint32_t self = p->current_cpu ? p->current_cpu() : 0;
	unsigned usable = enabled - (self != measured_cpu ? 1 : 0);
	if (n_copies > usable) {
		bt_diag_set(d, "%u copies need %u CPUs other than CPU %u (baretop's own, "
			    "which starts them); %u are available", n_copies, n_copies, self,
			    usable);
		return BT_ERR_UNSUPPORTED;
	}
	for (uint32_t cpu = 0; cpu < total && (unsigned)ret->n < n_copies - 1; cpu++) {
		struct bt_cpu_location loc;
		int k = ret->n;

		if (cpu == measured_cpu || cpu == self)
			continue;
		if (p->cpu_location && p->cpu_location(cpu, &loc) == BT_OK && !loc.enabled)
			continue;
		if (bt_wl_setup(&ret->inst[k], cfg, env, d) != BT_OK) {
			bt_copies_stop(ret);
			return BT_ERR_UNSUPPORTED;
		}
		ret->arg[k] = (struct bt_copy_arg){ ret, k, p->arch };
		if (p->start_on_cpu(cpu, copy_loop, &ret->arg[k], &ret->handle[k]) != BT_OK) {
			bt_wl_teardown(&ret->inst[k]);
			bt_diag_set(d, "could not start a copy on CPU %u", cpu);
			bt_copies_stop(ret);
			return BT_ERR_UNSUPPORTED;
		}
		ret->cpu[k] = cpu;
		ret->n++;
	}
	if ((unsigned)ret->n < n_copies - 1) {
		bt_diag_set(d, "only %d other CPUs could take a copy", ret->n);
		bt_copies_stop(ret);
		return BT_ERR_UNSUPPORTED;
	}
	return BT_OK;
}

void bt_copies_stop(struct bt_copies *c)
{
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	for (int k = 0; k < c->n; k++) {
		/* A copy stops after its current lap: a minute is plenty. */
		if (c->handle[k] && c->plat->wait_cpu)
			c->plat->wait_cpu(c->handle[k], 60ull * 1000000ull);
		bt_wl_teardown(&c->inst[k]);
	}
	c->n = 0;
}
