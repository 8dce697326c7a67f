/* SPDX-License-Identifier: MIT */
/*
 * The machine double's platform: the hosted one (files, console, time)
 * with the machine's CPUs, whose hooks make the calls efi/mp.c makes on
 * UEFI -- blocking StartupThisAP and StartupAllAPs, WhoAmI -- on the MP
 * services double, and whose exception handlers do what
 * efi/fault-guard.c's do on an AP: recover a job's fault (app/ap-run.h),
 * else park the CPU inside baretop.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/ap-run.h"
#include "host/machine-internal.h"
#include "host/platform-host.h"

/* The platform's hooks take no context: one machine at a time. */
static struct bt_md *M;

static bt_status map_status(enum bt_mpd_status s)
{
	switch (s) {
	case BT_MPD_SUCCESS: return BT_OK;
	case BT_MPD_TIMEOUT: return BT_ERR_TIMEOUT;
	case BT_MPD_INVALID_PARAMETER: return BT_ERR_INVALID;
	default: return BT_ERR_UNSUPPORTED;
	}
}

static bt_status md_cpu_count(uint32_t *ret_total, uint32_t *ret_enabled)
{
	*ret_total = *ret_enabled = M->n;
	return BT_OK;
}

static bt_status md_cpu_location(uint32_t cpu, struct bt_cpu_location *ret)
{
	if (cpu >= M->n)
		return BT_ERR_INVALID;
	bt_md_location(M, cpu, ret);
	return BT_OK;
}

static uint32_t md_current_cpu(void)
{
	uint32_t me;

	bt_mpd_who_am_i(M->mpd, &me);
	return me;
}

/* The procedure the firmware calls (EFIAPI on UEFI): baretop's function
 * with the stack pointer it was entered with. */
struct ap_call {
	bt_ap_proc *fn;
	void *arg;
};

static void ap_trampoline(void *p)
{
	struct ap_call *c = p;

	c->fn(c->arg, (uint64_t)(uintptr_t)__builtin_frame_address(0) + 8);
}

static bt_status md_run_on_cpu(uint32_t cpu, bt_ap_proc *fn, void *arg, uint64_t timeout_us)
{
	struct ap_call c = { fn, arg };

	return map_status(bt_mpd_startup_this_ap(M->mpd, ap_trampoline, cpu, NULL, timeout_us, &c,
						 NULL));
}

static bt_status md_run_on_aps(bt_ap_proc *fn, void *arg, uint64_t timeout_us,
			       uint32_t *ret_n_failed)
{
	struct ap_call c = { fn, arg };
	uint32_t failed[M->n];

	return map_status(bt_mpd_startup_all_aps(M->mpd, ap_trampoline, false, NULL, timeout_us,
						 &c, failed, ret_n_failed));
}

/* efi/fault-guard.c's AP side: a job's fault recovered, anything else
 * parks the CPU (cli; hlt inside baretop). */
static void on_ap_exception(struct bt_mpd *m, struct bt_mpd_context *c, void *user)
{
	struct bt_ap_fault f = { .vector = c->vector, .rip = c->rip, .cr2 = c->cr2 };

	(void)user;
	if (bt_ap_fault_recover(&f, c->rsp, &c->rip, &c->rsp))
		return;
	bt_mpd_park(m, "baretop's park (cli; hlt): a fault outside any job's stack");
}

static void md_crash_test(void)
{
	__asm__ volatile("ud2");
}

void bt_md_platform(struct bt_md *m, struct bt_platform *p)
{
	static const uint8_t vectors[] = { 0, 6, 13, 14 };

	M = m;
	bt_platform_host_init(p, &m->cpu_arch);
	p->name = "hosted machine double (SIMULATED)";
	p->sim_machine = &m->synth;
	p->os_pmu = NULL;
	p->cpu_count = md_cpu_count;
	p->cpu_location = md_cpu_location;
	p->current_cpu = md_current_cpu;
	p->run_on_cpu = md_run_on_cpu;
	p->run_on_aps = md_run_on_aps;
	p->crash_test = md_crash_test;
	/* a partner CPU only as firmware gives one: in the measured job's
	 * StartupAllAPs (app/on-cpu.h), not a thread of the host's */
	p->workload_env.start_partner = NULL;
	p->workload_env.wait_partner = NULL;
	p->workload_env.partner_ctx = NULL;
	for (size_t k = 0; k < sizeof(vectors); k++)
		bt_mpd_register_handler(m->mpd, vectors[k], on_ap_exception, NULL);
}
