/* SPDX-License-Identifier: MIT */
/*
 * The Linux implementation of struct bt_wl_env (host/env-host.c), for
 * baretop-host, the hosted benchmark and the tests:
 *   - CPU facts from the compiler runtime (__builtin_cpu_supports, which
 *     checks both CPUID and XCR0) and cache sizes from sysconf;
 *   - code memory from mmap: written while PROT_READ|PROT_WRITE, then
 *     mprotect'ed to PROT_READ|PROT_EXEC (W^X), on 4 KiB pages
 *     (MADV_NOHUGEPAGE), so the ITLB sees one page per code block;
 *   - the partner CPU is a pthread pinned to another CPU than the caller's.
 */
#ifndef HOST_ENV_HOST_H
#define HOST_ENV_HOST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* cpu_set_t */
#endif
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>

#include "workloads/workload.h"

struct bt_wl_host {
	cpu_set_t allowed;        /* the process's CPUs when the env was set up */
	pthread_t partner;
	bool partner_running;
	int partner_cpu;          /* where the last partner was pinned, -1 if not */
	void (*fn)(void *arg);
	void *arg;
	sem_t started;            /* posted by the partner thread as it starts */
};

/*
 * Fill env with the hosted services; host must outlive env. Call it before
 * pinning the calling thread: the CPUs allowed at this point are the ones
 * counted in env->cpu.logical_cpus and offered to the partner.
 */
void bt_wl_env_host_init(struct bt_wl_env *env, struct bt_wl_host *host);

/* Pin the calling thread to one CPU (tools pin the measured thread). */
bool bt_wl_host_pin_self(int cpu);

/* The CPUs the calling thread may run on, in order; returns how many (<= max). */
int bt_wl_host_cpus(int *cpus, int max);

#endif
