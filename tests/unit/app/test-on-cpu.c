/* SPDX-License-Identifier: MIT */
/*
 * Jobs on APs (app/on-cpu.h, app/ap-run.h) on the machine double's strict
 * MP services: each job on baretop's own stack with both stacks measured,
 * a fault recovered back to the firmware with its cleanup run once, a
 * fault in the recovery and a timeout counted as CPUs not accounted for,
 * and a partner and copies running beside the measured job in one
 * StartupAllAPs.
 */
#include <stdlib.h>
#include <string.h>

#include "app/on-cpu.h"
#include "host/machine-double.h"
#include "tests/unit/lib/test.h"

struct fixture {
	struct bt_md *md;
	struct bt_platform p;
};

static bool setup(struct fixture *f, const char *spec)
{
	struct bt_diag d = { "" };

	memset(f, 0, sizeof(*f));
	if (bt_md_new(spec, NULL, &f->md, &d) != BT_OK) {
		CHECK_MSG(false, "%s: %s", spec, d.text);
		return false;
	}
	bt_md_platform(f->md, &f->p);
	return true;
}

/* No AP left inside baretop, none past its firmware stack, no PI rule
 * broken. */
static void teardown(struct fixture *f)
{
	char why[600], v[600];

	CHECK_MSG(bt_md_handover(f->md, why, sizeof(why)), "%s", why);
	CHECK_MSG(bt_mpd_violations(bt_md_mp(f->md), v, sizeof(v)) == 0, "%s", v);
	for (uint32_t c = 0; c < bt_md_cpu_count(f->md); c++) {
		struct bt_mpd_ap_record r;
		bt_mpd_record(bt_md_mp(f->md), c, &r);
		CHECK_MSG(r.overflows == 0, "CPU %u: %s", c, r.last);
	}
	bt_md_free(f->md);
}

struct deep {
	size_t bytes;
	uintptr_t lo, hi;              /* where its locals were */
	uint32_t cpu;
	struct bt_platform *p;
};

static void deep_work(void *p)
{
	struct deep *w = p;
	volatile char *buf = __builtin_alloca(w->bytes);

	for (size_t i = 0; i < w->bytes; i += 64)
		buf[i] = (char)i;
	w->lo = (uintptr_t)buf;
	w->hi = (uintptr_t)buf + w->bytes;
	w->cpu = w->p->current_cpu();
}

TEST(a_job_deeper_than_the_firmware_stack_runs_on_baretops)
{
	struct fixture f;
	struct bt_cpu_team team = { .partner_cpu = -1 };

	if (!setup(&f, "2x1,cpu=skl,ap-stack=4096"))
		return;
	struct deep w = { .bytes = 20 * 1024, .p = &f.p };
	struct bt_cpu_job job = { .arch = f.p.arch, .work = deep_work, .ctx = &w, .team = &team };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_OK);
	CHECK_EQ_INT(w.cpu, 1);
	CHECK_EQ_INT(team.usage.jobs, 1);
	CHECK_MSG(team.usage.used >= 20 * 1024 && team.usage.used < BT_AP_STACK_BYTES,
		  "baretop's stack: %u bytes", team.usage.used);
	CHECK(!team.usage.overflow);
	struct bt_mpd_ap_record r;
	bt_mpd_record(bt_md_mp(f.md), 1, &r);
	CHECK_MSG(team.usage.fw_used > 0 && team.usage.fw_used + BT_MPD_FW_FRAME <= r.stack_peak &&
		  r.stack_peak < 4096, "firmware stack: baretop says %u bytes, the double saw %u "
		  "(its own frames %u)", team.usage.fw_used, r.stack_peak, BT_MPD_FW_FRAME);
	/* the figure includes what the switch saved there */
	CHECK(team.usage.fw_used >= BT_STACK_CALL_SAVED);
	teardown(&f);
}

TEST(a_job_past_baretops_stack_reaches_its_guard_bytes)
{
	struct fixture f;
	struct bt_cpu_team team = { .partner_cpu = -1 };

	if (!setup(&f, "2x1,cpu=skl"))
		return;
	/* past the 64 KiB into the painted guard below, not past the guard */
	struct deep w = { .bytes = BT_AP_STACK_BYTES + 1024, .p = &f.p };
	struct bt_cpu_job job = { .arch = f.p.arch, .work = deep_work, .ctx = &w, .team = &team };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_ERR_FULL);
	CHECK(team.usage.overflow);
	CHECK_EQ_INT(f.p.aps_unaccounted, 0);
	teardown(&f);
}

static int cleanups;

static void count_cleanup(void *p)
{
	(void)p;
	cleanups++;
}

static void faulting_cleanup(void *p)
{
	(void)p;
	cleanups++;
	__asm__ volatile("ud2");
}

struct fault_job {
	struct bt_platform *p;
	void (*cleanup)(void *);
	int trap;                      /* int3: a vector nobody handles */
};

static void fault_work(void *p)
{
	struct fault_job *j = p;

	bt_cpu_job_set_cleanup(j->p, j->cleanup, NULL);
	if (j->trap)
		__asm__ volatile("int3");
	__asm__ volatile("ud2");
}

TEST(a_fault_in_a_job_is_recovered_and_its_cleanup_runs_once)
{
	struct fixture f;

	if (!setup(&f, "2x1,cpu=skl,loop=mwait"))
		return;
	cleanups = 0;
	struct fault_job fj = { &f.p, count_cleanup, 0 };
	struct bt_cpu_job job = { .arch = f.p.arch, .work = fault_work, .ctx = &fj };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_ERR_FAULT);
	CHECK_EQ_INT(cleanups, 1);
	CHECK_MSG(strstr(job.fault, "exception 6"), "%s", job.fault);
	CHECK_EQ_INT(f.p.aps_unaccounted, 0);
	struct bt_mpd_ap_record r;
	bt_mpd_record(bt_md_mp(f.md), 1, &r);
	CHECK_EQ_INT(r.returned, 1);   /* the procedure returned to the firmware */
	CHECK_EQ_INT(r.state, BT_MPD_AP_IDLE);
	/* and the AP works again */
	struct deep w = { .bytes = 64, .p = &f.p };
	struct bt_cpu_job again = { .arch = f.p.arch, .work = deep_work, .ctx = &w };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &again), BT_OK);
	teardown(&f);
}

TEST(a_fault_in_the_recovery_leaves_the_cpu_unaccounted)
{
	struct fixture f;

	if (!setup(&f, "2x1,cpu=skl,loop=mwait"))
		return;
	cleanups = 0;
	struct fault_job fj = { &f.p, faulting_cleanup, 0 };
	struct bt_cpu_job job = { .arch = f.p.arch, .work = fault_work, .ctx = &fj };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_ERR_FAULT);
	CHECK_EQ_INT(cleanups, 1);
	CHECK_EQ_INT(f.p.aps_unaccounted, 1);
	CHECK_MSG(strstr(f.p.aps_unaccounted_why, "CPU 1 faulted again"), "%s",
		  f.p.aps_unaccounted_why);
	/* it still came back to the firmware: nothing hangs at ExitBootServices */
	teardown(&f);
}

TEST(an_exception_nobody_handles_times_out_and_is_unaccounted)
{
	struct fixture f;

	if (!setup(&f, "2x1,cpu=skl,loop=mwait"))
		return;
	cleanups = 0;
	struct fault_job fj = { &f.p, count_cleanup, 1 };
	struct bt_cpu_job job = { .arch = f.p.arch, .work = fault_work, .ctx = &fj };
	/* #BP: no handler is registered for it, the firmware dead-loops, the
	 * call's timeout ends it with INIT */
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_ERR_TIMEOUT);
	CHECK_EQ_INT(cleanups, 0);
	CHECK_EQ_INT(f.p.aps_unaccounted, 1);
	CHECK_MSG(strstr(f.p.aps_unaccounted_why, "timed out"), "%s", f.p.aps_unaccounted_why);
	teardown(&f);
}

TEST(fault_selftest_on_an_ap)
{
	struct fixture f;

	if (!setup(&f, "4x1,cpu=skl"))
		return;
	cleanups = 0;
	CHECK_EQ_INT(bt_cpu_fault_selftest(&f.p, 3, count_cleanup, NULL, false), BT_ERR_FAULT);
	CHECK_EQ_INT(cleanups, 1);
	CHECK_EQ_INT(f.p.aps_unaccounted, 0);
	CHECK_EQ_INT(bt_cpu_fault_selftest(&f.p, 0, count_cleanup, NULL, false), BT_ERR_UNSUPPORTED);
	/* --fault-selftest-ap-lost: the caller's cleanup runs, then the fault
	 * in the recovery */
	cleanups = 0;
	CHECK_EQ_INT(bt_cpu_fault_selftest(&f.p, 2, count_cleanup, NULL, true), BT_ERR_FAULT);
	CHECK_EQ_INT(cleanups, 1);
	CHECK_EQ_INT(f.p.aps_unaccounted, 1);
	teardown(&f);
}

/* The partner: a loop that counts until told to stop, noting its CPU. */
struct partnered {
	struct bt_platform *p;
	struct bt_wl_env env;
	volatile uint32_t stop;
	volatile uint64_t spins;
	uint32_t partner_cpu, measured_cpu;
	bt_status started, waited;
	uint64_t seen_running;
};

static void partner_fn(void *p)
{
	struct partnered *w = p;

	w->partner_cpu = w->p->current_cpu();
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE))
		__atomic_add_fetch(&w->spins, 1, __ATOMIC_RELAXED);
}

static void measured_fn(void *p)
{
	struct partnered *w = p;

	w->measured_cpu = w->p->current_cpu();
	w->started = w->env.start_partner(partner_fn, w, w->env.partner_ctx);
	/* the partner runs while this CPU works */
	while (__atomic_load_n(&w->spins, __ATOMIC_RELAXED) < 1000)
		;
	w->seen_running = w->spins;
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	w->waited = w->env.wait_partner(w->env.partner_ctx);
}

TEST(the_partner_runs_beside_the_measured_job_in_one_startup_all_aps)
{
	struct fixture f;
	struct bt_cpu_team team = { .partner_cpu = 3 };

	if (!setup(&f, "2x2,cpu=skl"))
		return;
	struct partnered w = { .p = &f.p };
	bt_cpu_team_env(&team, &f.p.workload_env, &w.env);
	struct bt_cpu_job job = { .arch = f.p.arch, .work = measured_fn, .ctx = &w, .team = &team };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 2, &job), BT_OK);
	CHECK_EQ_INT(w.started, BT_OK);
	CHECK_EQ_INT(w.waited, BT_OK);
	CHECK_EQ_INT(w.measured_cpu, 2);
	CHECK_EQ_INT(w.partner_cpu, 3);
	CHECK(w.seen_running >= 1000);
	CHECK_EQ_INT(team.usage.jobs, 2);
	/* one StartupAllAPs: every AP was started once, the BSP never */
	for (uint32_t c = 1; c < 4; c++) {
		struct bt_mpd_ap_record r;
		bt_mpd_record(bt_md_mp(f.md), c, &r);
		CHECK_EQ_INT(r.procedures, 1);
	}
	/* work beside baretop's own CPU cannot be: it waits in the firmware */
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 0, &job), BT_ERR_INVALID);
	teardown(&f);
}

/* A failed check in a job (bt_efi_fatal on an AP, a failed BT_ASSERT) is not
 * an exception: the job abandons itself the same way. */
static void failing_check(void *p)
{
	static const struct bt_ap_fault f = { .fatal = "assertion failed", .detail = "x > 0" };

	bt_cpu_job_set_cleanup(p, count_cleanup, NULL);
	CHECK(bt_ap_abandon_here(&f)); /* does not return when it works */
	CHECK_MSG(false, "bt_ap_abandon_here returned in a job");
}

TEST(a_failed_check_in_a_job_abandons_it)
{
	struct fixture f;

	if (!setup(&f, "2x1,cpu=skl"))
		return;
	cleanups = 0;
	struct bt_cpu_job job = { .arch = f.p.arch, .work = failing_check, .ctx = &f.p };
	CHECK_EQ_INT(bt_cpu_job_run(&f.p, 1, &job), BT_ERR_FAULT);
	CHECK_EQ_INT(cleanups, 1);
	CHECK_MSG(strstr(job.fault, "assertion failed: x > 0"), "%s", job.fault);
	/* outside any job (baretop's own CPU) it has nothing to abandon */
	static const struct bt_ap_fault g = { .fatal = "check" };
	CHECK(!bt_ap_abandon_here(&g));
	teardown(&f);
}
