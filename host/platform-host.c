/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "app/options.h"
#include "base/array.h"
#include "host/pages-host.h"
#include "host/platform-host.h"
#include "host/nvram-host.h"
#include "host/env-host.h"
#include "host/perf-pmu.h"

static void host_stall_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

static void host_wallclock(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (gmtime_r(&t, &tm))
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	else
		snprintf(buf, len, "%s", "");
}

static bt_status host_cpu_count(uint32_t *ret_total, uint32_t *ret_enabled)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (n <= 0)
		return BT_ERR_UNSUPPORTED;
	*ret_total = (uint32_t)n;
	*ret_enabled = sched_getaffinity(0, sizeof(set), &set) == 0 ? (uint32_t)CPU_COUNT(&set)
								    : (uint32_t)n;
	return BT_OK;
}

static uint32_t host_current_cpu(void)
{
	int c = sched_getcpu();

	return c < 0 ? 0 : (uint32_t)c;
}

/* A thread pinned to one CPU stands for an AP: fn gets the stack pointer
 * its caller had, as the firmware's procedure gives it. */
struct pinned_call {
	pthread_t t;
	bt_ap_proc *fn;
	void *arg;
};

static void *pinned_thread(void *p)
{
	struct pinned_call *c = p;

	c->fn(c->arg, (uint64_t)(uintptr_t)__builtin_frame_address(0) + 8);
	return NULL;
}

static bool host_start_on(uint32_t cpu, struct pinned_call *c)
{
	pthread_attr_t attr;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	int e = pthread_create(&c->t, &attr, pinned_thread, c);
	pthread_attr_destroy(&attr);
	return e == 0;
}

/* Linux has no MP services: a thread per call, joined (the timeout is the
 * firmware's to enforce; a hosted job ends by itself). */
static bt_status host_run_on_cpu(uint32_t cpu, bt_ap_proc *fn, void *arg, uint64_t timeout_us)
{
	struct pinned_call c = { .fn = fn, .arg = arg };

	(void)timeout_us;
	if (!host_start_on(cpu, &c))
		return BT_ERR_UNSUPPORTED;
	pthread_join(c.t, NULL);
	return BT_OK;
}

static bt_status host_run_on_aps(bt_ap_proc *fn, void *arg, uint64_t timeout_us,
				 uint32_t *ret_n_failed)
{
	cpu_set_t set;
	uint32_t self = host_current_cpu(), n = 0;
	struct pinned_call *c = calloc(CPU_SETSIZE, sizeof(*c));
	bool *started = calloc(CPU_SETSIZE, sizeof(*started));

	(void)timeout_us;
	*ret_n_failed = 0;
	if (!c || !started || sched_getaffinity(0, sizeof(set), &set) != 0) {
		free(c);
		free(started);
		return BT_ERR_UNSUPPORTED;
	}
	for (uint32_t cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (cpu == self || !CPU_ISSET(cpu, &set))
			continue;
		c[cpu] = (struct pinned_call){ .fn = fn, .arg = arg };
		started[cpu] = host_start_on(cpu, &c[cpu]);
		n += started[cpu];
	}
	for (uint32_t cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (started[cpu])
			pthread_join(c[cpu].t, NULL);
	free(c);
	free(started);
	return n ? BT_OK : BT_ERR_UNSUPPORTED;
}

/* ANSI SGR (ECMA-48 8.3.117) on a terminal: bold + colour, 0 resets. */
static void host_console_style(void *ctx, FILE *f, enum bt_text_style s)
{
	static const char *const sgr[] = {
		[BT_STYLE_NORMAL] = "\033[0m",
		[BT_STYLE_HEADING] = "\033[1m",
		[BT_STYLE_FLAGGED] = "\033[1;33m",
		[BT_STYLE_PATH] = "\033[1;31m",
		[BT_STYLE_PROGRESS] = "\033[36m",
	};

	(void)ctx;
	if ((unsigned)s < BT_ARRAY_SIZE(sgr))
		fputs(sgr[s], f);
}

/* The block elements need a UTF-8 terminal: the locale says so. */
static bool host_utf8_locale(void)
{
	const char *vars[] = { "LC_ALL", "LC_CTYPE", "LANG" };

	for (int k = 0; k < 3; k++) {
		const char *v = getenv(vars[k]);

		if (v && *v)
			return strstr(v, "UTF-8") || strstr(v, "utf8") || strstr(v, "UTF8") ||
			       strstr(v, "utf-8");
	}
	return false;
}

/* rename() that fails instead of replacing: link() refuses an existing
 * name (EEXIST), then the temporary name is removed. */
static bt_status host_volume_free(const char *path, uint64_t *ret_bytes)
{
	struct statvfs v;

	if (statvfs(path, &v) != 0)
		return BT_ERR_IO;
	*ret_bytes = (uint64_t)v.f_bavail * v.f_frsize;
	return BT_OK;
}

static int host_rename_noreplace(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return -1;
	return unlink(from);
}

void bt_platform_host_init(struct bt_platform *p, struct bt_arch *arch)
{
	memset(p, 0, sizeof(*p));
	p->name = "hosted (Linux)";
	p->default_results_dir = BT_HOST_RESULTS_DIR;
	p->arch = arch;
	/* A person's (or a test's) start: no boot manager to hand over to. */
	p->boot_start.parent = BT_PARENT_HOSTED;
	p->os_pmu = bt_perf_os_pmu;
	snprintf(p->fault_guard.detail, sizeof(p->fault_guard.detail),
		 "none in user space: privileged instructions are refused, not executed");
	p->stall_us = host_stall_us;
	p->wallclock = host_wallclock;
	p->cpu_count = host_cpu_count;
	p->current_cpu = host_current_cpu;
	p->run_on_cpu = host_run_on_cpu;
	p->run_on_aps = host_run_on_aps;
	/* One per process, like the platform it belongs to. */
	static struct bt_wl_host wl_host;
	bt_wl_env_host_init(&p->workload_env, &wl_host);
	p->rename_noreplace = host_rename_noreplace;
	p->volume_free = host_volume_free;
	/* Plain text unless stdout is a terminal (or --color=always). */
	p->console_interactive = isatty(STDOUT_FILENO);
	p->console_blocks = host_utf8_locale();
	p->console_style = host_console_style;
	bt_nvram_host_init(p);
	p->machine_facts = bt_host_machine_facts;
	p->memory_pages = bt_host_memory_pages;
}
