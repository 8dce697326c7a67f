/* SPDX-License-Identifier: MIT */
/*
 * The counter health check before the first counted workload of a count
 * context (validate/health.h, decided by pmu/counter-health.h): a counter
 * that disagrees is named on the console, recorded for the results file's
 * counter_health section and left out of every plan of this context
 * (bt_count_plan_caps); every tree says so (count-run.c).
 *
 * The check's windows run on each CPU before its first counted workload
 * (a job there, app/on-cpu.h): its counters are what the verdict is about.
 * Every logical CPU has its own (SDM Vol. 3B 20.2: the architectural
 * counters are per logical processor), so one stuck on CPU 2 is not seen
 * from CPU 0, and a plan on CPU 2 must leave out what failed there only.
 * What is printed is printed here, on baretop's CPU.
 */
#include <stdio.h>
#include <string.h>

#include "app/count-internal.h"
#include "app/on-cpu.h"
#include "arch/arch.h"
#include "validate/health.h"

/* "0-3" or "0, 2, 3". */
static void counters(char *buf, size_t len, uint32_t mask)
{
	size_t k = 0;
	int n = __builtin_popcount(mask);
	unsigned lo = mask ? (unsigned)__builtin_ctz(mask) : 0;

	buf[0] = '\0';
	if (n > 2 && mask == (((1u << n) - 1) << lo)) {
		snprintf(buf, len, "%u-%u", lo, lo + (unsigned)n - 1);
		return;
	}
	for (unsigned i = 0; i < 32 && k < len; i++)
		if (mask & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%s%u", k ? ", " : "", i);
}

void bt_count_plan_caps(const struct bt_count_ctx *c, struct bt_pmu_caps *ret)
{
	*ret = c->pmu.caps;
	if (c->health)
		ret->gp_mask = bt_counter_health_usable_mask(&c->health->h, c->pmu.caps.gp_mask);
}

struct health_job {
	struct bt_count_ctx *c;
	const struct bt_conformance_opts *co;
	bt_status st;
	struct bt_diag d;
};

static void health_work(void *p)
{
	struct health_job *j = p;

	j->st = bt_counter_health_run(&j->c->pmu, j->co, &j->c->health->h, &j->d);
}

/* The check of `cpu` if it ran, else a new empty one at the list's end. */
static struct bt_cpu_health *health_of(struct bt_count_ctx *c, uint32_t cpu, bool *ret_new)
{
	struct bt_cpu_health **at = &c->health_list;

	for (; *at; at = &(*at)->next)
		if ((*at)->h.cpu == cpu) {
			*ret_new = false;
			return *at;
		}
	*at = bt_arena_alloc(&c->arena, sizeof(**at));
	if (*at) {
		memset(*at, 0, sizeof(**at));
		(*at)->h.cpu = cpu;
	}
	*ret_new = true;
	return *at;
}

bt_status bt_count_health(struct bt_count_ctx *c, struct bt_platform *p, uint32_t cpu,
			  struct bt_diag *d)
{
	char list[64], failed[600], took[32] = "";
	bool fresh;
	struct bt_cpu_health *e = health_of(c, cpu, &fresh);

	if (!e) {
		bt_diag_set(d, "counter health check: out of memory");
		return BT_ERR_NOMEM;
	}
	c->health = e;
	struct bt_counter_health *h = &e->h;
	if (!fresh)
		goto judged;
	const char *off = c->health_off ? c->health_off
		: c->pmu.driver ? "the counters are programmed by an operating system's driver" : NULL;
	if (off) {
		snprintf(h->why, sizeof(h->why), "not checked: %s", off);
		if (e == c->health_list)
			printf("health        counters not checked: %s\n", off);
		return BT_OK;
	}
	/* Read as the counted runs read (RDPMC unless the session is told to
	 * use RDMSR). */
	struct bt_conformance_opts co = { .reps = 3, .quick = c->quick,
					  .rdpmc = !c->mopts.pmu.use_rdmsr };
	if (c->synth)
		bt_synth_count_conformance(c->synth, bt_conformance_loop_n(&co));
	struct health_job hj = { .c = c, .co = &co, .d = { "" } };
	struct bt_cpu_job job = { .arch = p->arch, .work = health_work, .ctx = &hj,
				  .team = c->team };
	uint64_t t0 = bt_rdtsc(p->arch);
	bt_status js = bt_cpu_job_run(p, cpu, &job);
	h->elapsed_ticks = bt_rdtsc(p->arch) - t0;
	h->cpu = cpu;      /* the check starts from a cleared record */
	if (c->cpu->tsc_hz)
		snprintf(took, sizeof(took), ", %.1f ms",
			 (double)h->elapsed_ticks * 1e3 / (double)c->cpu->tsc_hz);
	if (js != BT_OK || hj.st != BT_OK) {
		/* Could not be run (no session, a fault): counting would meet the
		 * same, so say so and let it. */
		printf("health        counters not checked on CPU %u: %s\n", cpu,
		       js != BT_OK ? (job.fault[0] ? job.fault : bt_status_str(js)) : hj.d.text);
		return BT_OK;
	}
	counters(list, sizeof(list), h->gp_mask);
	if (!h->gp_fail && !bt_counter_health_fixed_failed(h)) {
		printf("health        PASS: general counters %s%s agree: %llu instructions each over "
		       "%s n=%llu (the loop declares %llu; tolerance %.1f %%, %u runs)", list,
		       h->has_fixed0 ? " and fixed counter 0" : "",
		       (unsigned long long)h->consensus, h->kernel, (unsigned long long)h->n,
		       (unsigned long long)h->declared, h->tolerance_ppm / 1e4, h->runs);
		if (h->has_fixed1)
			printf("; fixed counter 1 %llu cycles, its 0x3C twin %llu (+-%.0f %%)",
			       (unsigned long long)h->fixed1, (unsigned long long)h->cycles,
			       BT_HEALTH_CYCLES_TOLERANCE_PPM / 1e4);
		if (h->has_fixed2)
			printf("; fixed counter 2 %llu over %llu TSC ticks", (unsigned long long)h->fixed2,
			       (unsigned long long)h->tsc);
		if (h->has_fixed3)
			printf("; fixed counter 3 %.2f slots per cycle",
			       h->cycles ? (double)h->fixed3 / (double)h->cycles : 0.0);
		printf(" (on CPU %u%s)\n", cpu, took);
		return BT_OK;
	}
	bt_counter_health_failed_list(h, failed, sizeof(failed));
	if (h->consensus)
		printf("health        FAIL: %s; the others agree on %llu instructions over %s n=%llu "
		       "(the loop declares %llu; tolerance %.1f %%; on CPU %u%s)\n", failed,
		       (unsigned long long)h->consensus, h->kernel, (unsigned long long)h->n,
		       (unsigned long long)h->declared, h->tolerance_ppm / 1e4, cpu, took);
	else
		printf("health        FAIL: %s: %s over %s n=%llu (on CPU %u%s)\n", failed, h->why,
		       h->kernel, (unsigned long long)h->n, cpu, took);
judged:
	if (h->state != BT_HEALTH_RAN)
		return BT_OK;
	if (bt_counter_health_fixed_failed(h)) {
		/* Every group carries the fixed counters and the formulas divide
		 * by their cycles, instructions and slots: no plan can leave one
		 * out, and a tree measured with it would be wrong, not flagged. */
		char fl[16] = "";
		bool f[4] = { h->fixed0_fail, h->fixed1_fail, h->fixed2_fail, h->fixed3_fail };
		for (unsigned i = 0, k = 0; i < 4; i++)
			if (f[i])
				k += (unsigned)snprintf(fl + k, sizeof(fl) - k, "%s%u", k ? ", " : "", i);
		bt_diag_set(d, "counter health check: fixed counter %s FAILED on CPU %u (every "
			    "counter group counts it, so the tree would be wrong): not counted; "
			    "--no-health-check counts anyway", fl, h->cpu);
		return BT_ERR_FAULT;
	}
	uint32_t usable = bt_counter_health_usable_mask(h, c->pmu.caps.gp_mask);
	if (h->gp_fail && !usable) {
		bt_diag_set(d, "counter health check: no general counter counts correctly on CPU "
			    "%u (%s)", h->cpu, h->why[0] ? h->why : "every one disagrees");
		return BT_ERR_FAULT;
	}
	return BT_OK;
}

const struct bt_counter_health *bt_count_health_current(const struct bt_count_ctx *c)
{
	return c->health ? &c->health->h : NULL;
}

void bt_count_health_note(const struct bt_count_ctx *c, char *buf, size_t len)
{
	const struct bt_counter_health *h = c->health ? &c->health->h : NULL;
	char list[64], use[64];

	buf[0] = '\0';
	if (!h || h->state != BT_HEALTH_RAN || (!h->gp_fail && !h->fixed0_fail))
		return;
	counters(list, sizeof(list), h->gp_fail);
	counters(use, sizeof(use), bt_counter_health_usable_mask(h, c->pmu.caps.gp_mask));
	if (h->gp_fail && h->fixed0_fail)
		snprintf(buf, len, "general counter%s %s of CPU %u left out (counter health FAIL), "
			 "measured with general counters %s; fixed counter 0 FAILED too: its instruction "
			 "counts are not to be trusted", h->gp_fail & (h->gp_fail - 1) ? "s" : "",
			 list, h->cpu, use);
	else if (h->gp_fail)
		snprintf(buf, len, "general counter%s %s of CPU %u left out (counter health FAIL), "
			 "measured with general counters %s", h->gp_fail & (h->gp_fail - 1) ? "s" : "",
			 list, h->cpu, use);
	else
		snprintf(buf, len, "fixed counter 0 FAILED the counter health check (every group "
			 "carries it): its instruction counts are not to be trusted");
}
