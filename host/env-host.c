/* SPDX-License-Identifier: MIT */
/* Hosted (Linux) platform services for the workloads: see env-host.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/env-host.h"
#include "arch/arch-cpuid-host.h"
#include "arch/cpuid.h"

static void *host_code_alloc(size_t size, void *ctx)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* 4 KiB pages: a transparent huge page would hide the ITLB misses. */
	(void)madvise(p, size, MADV_NOHUGEPAGE);
	return p;
}

static bt_status host_code_seal(void *p, size_t size, void *ctx)
{
	return mprotect(p, size, PROT_READ | PROT_EXEC) == 0 ? BT_OK : BT_ERR_UNSUPPORTED;
}

static void host_code_free(void *p, size_t size, void *ctx)
{
	munmap(p, size);
}

int bt_wl_host_cpus(int *cpus, int max)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

bool bt_wl_host_pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

static void *partner_main(void *arg)
{
	struct bt_wl_host *host = arg;

	sem_post(&host->started);
	host->fn(host->arg);
	return NULL;
}

static bt_status host_start_partner(void (*fn)(void *), void *arg, void *ctx)
{
	struct bt_wl_host *host = ctx;
	int here = sched_getcpu();
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	if (host->partner_running)
		return BT_ERR_FULL;
	/* Any allowed CPU other than the one the caller is on now. */
	host->partner_cpu = -1;
	for (int c = 0; c < CPU_SETSIZE && host->partner_cpu < 0; c++)
		if (CPU_ISSET(c, &host->allowed) && c != here)
			host->partner_cpu = c;
	if (host->partner_cpu < 0)
		return BT_ERR_UNSUPPORTED;
	if (pthread_attr_init(&attr) != 0)
		return BT_ERR_NOMEM;
	CPU_ZERO(&set);
	CPU_SET(host->partner_cpu, &set);
	pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	host->fn = fn;
	host->arg = arg;
	rc = pthread_create(&host->partner, &attr, partner_main, host);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return BT_ERR_UNSUPPORTED;
	/* Sleep, not spin, until the thread runs: the workload then spins
	 * only for fn's own start. On a loaded machine the partner's CPU may
	 * be another process's for a whole time slice, which a spinning
	 * caller would spend on pause instructions. */
	while (sem_wait(&host->started) != 0 && errno == EINTR)
		;
	host->partner_running = true;
	return BT_OK;
}

static bt_status host_wait_partner(void *ctx)
{
	struct bt_wl_host *host = ctx;

	if (!host->partner_running)
		return BT_ERR_INVALID;
	host->partner_running = false;
	return pthread_join(host->partner, NULL) == 0 ? BT_OK : BT_ERR_INTERNAL;
}

static uint64_t cache_size(int name)
{
	long v = sysconf(name);

	return v > 0 ? (uint64_t)v : 0;
}

void bt_wl_env_host_init(struct bt_wl_env *env, struct bt_wl_host *host)
{
	memset(host, 0, sizeof *host);
	host->partner_cpu = -1;
	sem_init(&host->started, 0, 0);
	if (sched_getaffinity(0, sizeof host->allowed, &host->allowed) != 0)
		CPU_ZERO(&host->allowed);
	memset(env, 0, sizeof *env);

	/* CPUID and XCR0 through the hosted backend (both work in ring 3; the
	 * OS has enabled the vector state). */
	bt_cpu_features_read(bt_arch_cpuid_host(), &env->cpu.isa);
	env->cpu.logical_cpus = (uint32_t)CPU_COUNT(&host->allowed);
	env->cpu.l1d_bytes = cache_size(_SC_LEVEL1_DCACHE_SIZE);
	env->cpu.l2_bytes = cache_size(_SC_LEVEL2_CACHE_SIZE);
	env->cpu.l3_bytes = cache_size(_SC_LEVEL3_CACHE_SIZE);

	env->code_alloc = host_code_alloc;
	env->code_seal = host_code_seal;
	env->code_free = host_code_free;
	env->start_partner = host_start_partner;
	env->wait_partner = host_wait_partner;
	env->partner_ctx = host;
	env->ctx = host;
}
