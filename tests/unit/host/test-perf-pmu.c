/* SPDX-License-Identifier: MIT */
/*
 * The perf_event driver (host/perf-pmu.c) whole, through the measurement
 * engine, against a made-up kernel behind its system-call table: no
 * machine of this project has a PMU Linux exposes. The fake kernel keeps
 * per-event counts that grow with the body's work and with every read (the
 * window's own overhead), answers a group read() in the PERF_FORMAT_GROUP
 * layout of perf_event_open(2), and can put a group in error state (read
 * returns 0 bytes: a pinned group that could not be scheduled) or
 * multiplex it (time_running < time_enabled). Checked: one perf group per
 * planned group, the leader pinned and opened first, members with the
 * leader's fd; the group enabled with PERF_IOC_FLAG_GROUP; counts
 * corrected by the calibration window as on the EFI path; an unschedulable
 * or multiplexed group is an error naming the group; every fd closed and
 * the thread's CPU affinity put back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "arch/arch-cpuid-host.h"
#include "base/array.h"
#include "analysis/detect-dump.h"
#include "host/perf-plan.h"
#include "host/perf-pmu.h"
#include "pmu/cpu-detect.h"
#include "pmu/measure.h"
#include "pmu/sibling.h"
#include "pmu/pmu-driver.h"
#include "metrics/builtin.h"
#include "metrics/model.h"
#include "pmu/event-encode.h"
#include "tests/unit/lib/pmu-fixtures.h"
#include "tests/unit/lib/test.h"

#define FAKE_MAX 64

static struct {
	uint64_t work;                 /* what the body did */
	unsigned reads;                /* group reads so far: each costs the window 5 */
	struct perf_event_attr attr[FAKE_MAX];
	int group_fd[FAKE_MAX];
	int leader_of[FAKE_MAX];
	bool open[FAKE_MAX];
	bool enabled[FAKE_MAX];
	int n_fd, n_open, max_open, closes, enables, groups_opened;
	bool bad_leader_flags, bad_member_flags;
	int error_state_group;         /* that group (order of leaders) reads 0 bytes; -1 none */
	int multiplex_group;           /* that group reads running < enabled; -1 none */
	uint64_t refuse_config;        /* perf_event_open of this raw config fails, EINVAL */
	/* Counts per unit of work by config (event | umask << 8 | any << 21 |
	 * cmask << 24), when set: a core whose rates the test writes. */
	const struct rate { uint64_t config, per_unit; } *rates;
} k;

static void fake_reset(void)
{
	memset(&k, 0, sizeof(k));
	k.error_state_group = -1;
	k.multiplex_group = -1;
}

static int fake_open(struct perf_event_attr *a, int group_fd)
{
	if (k.n_fd >= FAKE_MAX)
		return -1;
	if (k.refuse_config && a->config == k.refuse_config) {
		errno = EINVAL;
		return -1;
	}
	int fd = k.n_fd++;
	group_fd = group_fd < 0 ? -1 : group_fd - 3;   /* the fds handed out are index + 3 */
	k.attr[fd] = *a;
	k.group_fd[fd] = group_fd;
	k.open[fd] = true;
	k.n_open++;
	if (k.n_open > k.max_open)
		k.max_open = k.n_open;
	if (group_fd < 0) {
		k.leader_of[fd] = fd;
		k.groups_opened++;
		if (!a->pinned || !a->disabled)
			k.bad_leader_flags = true;
	} else {
		k.leader_of[fd] = group_fd;
		if (a->pinned || a->disabled || group_fd >= fd || !k.open[group_fd] ||
		    k.group_fd[group_fd] != -1)
			k.bad_member_flags = true;
	}
	return fd + 3;   /* not 0, 1, 2 */
}

static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	fd -= 3;
	if (fd < 0 || fd >= k.n_fd || !k.open[fd])
		return -1;
	if (request == PERF_EVENT_IOC_ID) {
		*(uint64_t *)arg = 7000u + (unsigned)fd;
		return 0;
	}
	if (request == PERF_EVENT_IOC_ENABLE && (uintptr_t)arg == PERF_IOC_FLAG_GROUP &&
	    k.group_fd[fd] == -1) {
		k.enabled[fd] = true;
		k.enables++;
		return 0;
	}
	return -1;
}

/* The count of event fd: its scale (the raw umask, or 1) times the work
 * plus 5 per read so far, this one included (a read counts part of itself). */
static uint64_t count_of(int fd)
{
	for (const struct rate *r = k.rates; r && r->config; r++)
		if (r->config == k.attr[fd].config)
			return r->per_unit * (k.work + 5u * k.reads);
	uint64_t scale = (k.attr[fd].config >> 8) & 0xFF;
	return (scale ? scale : 1) * (k.work + 5u * k.reads);
}

static long fake_read(int fd, void *buf, size_t len)
{
	fd -= 3;
	if (fd < 0 || fd >= k.n_fd || !k.open[fd] || k.group_fd[fd] != -1 || !k.enabled[fd])
		return -1;
	int group = 0;
	for (int i = 0; i < fd; i++)
		group += k.group_fd[i] == -1;
	if (group == k.error_state_group)
		return 0;
	k.reads++;
	uint64_t w[3 + 2 * FAKE_MAX];
	int n = 0;
	for (int i = fd; i < k.n_fd; i++) {
		if (!k.open[i] || k.leader_of[i] != fd)
			continue;
		w[3 + 2 * n] = count_of(i);
		w[4 + 2 * n] = 7000u + (unsigned)i;
		n++;
	}
	w[0] = (uint64_t)n;
	w[1] = 1000u * k.reads;
	w[2] = group == k.multiplex_group ? 600u * k.reads : 1000u * k.reads;
	size_t bytes = (3 + 2 * (size_t)n) * sizeof(uint64_t);
	if (bytes > len)
		return -1;
	memcpy(buf, w, bytes);
	return (long)bytes;
}

static void *fake_mmap_page(int fd, size_t len)
{
	(void)fd;
	(void)len;
	return NULL;   /* no user page: the driver reads with read() */
}

static void fake_munmap_page(void *page, size_t len)
{
	(void)page;
	(void)len;
}

static int fake_close(int fd)
{
	fd -= 3;
	if (fd < 0 || fd >= k.n_fd || !k.open[fd])
		return -1;
	k.open[fd] = false;
	k.n_open--;
	k.closes++;
	return 0;
}

static const struct bt_perf_sys fake_sys = {
	fake_open, fake_ioctl, fake_read, fake_mmap_page, fake_munmap_page, fake_close,
};

static void body(void *arg)
{
	k.work += *(const uint64_t *)arg;
}

struct rig {
	struct bt_pmu pmu;
	struct bt_event ev[4];
	const struct bt_event *evp[4];
	struct bt_plan plan;
	struct bt_plan_scratch scratch;
	struct bt_measure_opts o;
};

/* Intel, 2 general counters and fixed 0-2: three events that need the
 * general counters (umask 2, 4, 6: distinct scales) and instructions on
 * fixed counter 0 make two groups. */
static bool rig_init(struct rig *r)
{
	memset(r, 0, sizeof(*r));
	r->pmu.arch = bt_arch_cpuid_host();
	r->pmu.driver = &bt_pmu_perf_driver;
	r->pmu.caps.kind = BT_PMU_INTEL_ARCH;
	r->pmu.caps.version = 4;
	r->pmu.caps.num_gp = 2;
	r->pmu.caps.gp_mask = 0x3;
	r->pmu.caps.gp_width = 48;
	r->pmu.caps.num_fixed = 3;
	r->pmu.caps.fixed_mask = 0x7;
	r->pmu.caps.fixed_width = 48;
	r->ev[0] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0, 0, 0x3);
	r->ev[1] = fx_gp("EVENT_A", 0xD0, 0x02, 0, 0x3);
	r->ev[2] = fx_gp("EVENT_B", 0xD1, 0x04, 0, 0x3);
	r->ev[3] = fx_gp("EVENT_C", 0xD2, 0x06, 0, 0x3);
	fx_ptrs(r->ev, 4, r->evp);
	bt_measure_opts_defaults(&r->o);
	return bt_plan_events(r->evp, 4, &r->pmu.caps, NULL, &r->scratch, &r->plan) == BT_OK;
}

static bool same_affinity(const cpu_set_t *a)
{
	cpu_set_t now;
	return sched_getaffinity(0, sizeof(now), &now) == 0 && CPU_EQUAL(&now, a);
}

TEST(every_planned_group_is_one_pinned_perf_group_and_counts_are_calibrated)
{
	static struct rig r;
	struct bt_measurement m;
	uint64_t per_run = 10000;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };
	cpu_set_t before;

	fake_reset();
	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	CHECK(rig_init(&r));
	CHECK_EQ_INT(r.plan.n_groups, 2);
	bt_perf_set_sys(&fake_sys);
	bt_status st = bt_measure(&r.pmu, &r.plan, r.evp, &wl, &r.o, &m);
	bt_perf_set_sys(NULL);
	CHECK_MSG(st == BT_OK, "%s", m.error);
	CHECK_EQ_INT(k.groups_opened, 2);
	CHECK(!k.bad_leader_flags && !k.bad_member_flags);
	CHECK_EQ_INT(k.enables, 2);
	CHECK_EQ_INT(k.n_open, 0);            /* everything closed */
	CHECK_EQ_INT(k.closes, k.n_fd);
	/* Fixed counters 0-2 and at most 2 general-counter events per group. */
	CHECK(k.max_open <= 5);
	CHECK(same_affinity(&before));
	/* Between the window's two snapshots lies one read's cost (5): the
	 * calibration counts it and it is subtracted, leaving the body's work
	 * times the event's scale. */
	CHECK_EQ_U64(m.ev[0].median, 10000);
	CHECK_EQ_U64(m.ev[0].overhead, 5);
	CHECK_EQ_U64(m.ev[1].median, 20000);
	CHECK_EQ_U64(m.ev[2].median, 40000);
	CHECK_EQ_U64(m.ev[3].median, 60000);
	CHECK_EQ_U64(m.ev[3].overhead, 30);
	CHECK_EQ_U64(m.inst_median, 10000);
	CHECK_EQ_INT(m.n_flagged, 0);
	bt_measurement_free(&m);
}

TEST(a_group_in_error_state_is_an_error_naming_it)
{
	static struct rig r;
	struct bt_measurement m;
	uint64_t per_run = 100;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };

	fake_reset();
	k.error_state_group = 1;
	CHECK(rig_init(&r));
	bt_perf_set_sys(&fake_sys);
	bt_status st = bt_measure(&r.pmu, &r.plan, r.evp, &wl, &r.o, &m);
	bt_perf_set_sys(NULL);
	CHECK(st != BT_OK);
	CHECK_MSG(strstr(m.error, "counter group 1 could not be scheduled") != NULL, "%s", m.error);
	CHECK_EQ_INT(k.n_open, 0);
	bt_measurement_free(&m);
}

TEST(a_multiplexed_group_is_an_error_never_scaled)
{
	static struct rig r;
	struct bt_measurement m;
	uint64_t per_run = 100;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };

	fake_reset();
	k.multiplex_group = 0;
	CHECK(rig_init(&r));
	bt_perf_set_sys(&fake_sys);
	bt_status st = bt_measure(&r.pmu, &r.plan, r.evp, &wl, &r.o, &m);
	bt_perf_set_sys(NULL);
	CHECK(st != BT_OK);
	CHECK_MSG(strstr(m.error, "counter group 0 was enabled") != NULL &&
		  strstr(m.error, "multiplexed") != NULL, "%s", m.error);
	CHECK_EQ_INT(k.n_open, 0);
	bt_measurement_free(&m);
}

TEST(an_event_the_kernel_refuses_is_an_error_naming_group_and_event)
{
	static struct rig r;
	struct bt_measurement m;
	uint64_t per_run = 100;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };
	cpu_set_t before;

	fake_reset();
	k.refuse_config = 0x06D2;      /* EVENT_C */
	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	CHECK(rig_init(&r));
	bt_perf_set_sys(&fake_sys);
	bt_status st = bt_measure(&r.pmu, &r.plan, r.evp, &wl, &r.o, &m);
	bt_perf_set_sys(NULL);
	CHECK(st != BT_OK);
	/* the group, its events and the kernel's answer */
	CHECK_MSG(strstr(m.error, "counter group ") && strstr(m.error, "EVENT_C=0x6d2]") &&
		  strstr(m.error, "perf_event_open of EVENT_C (type 4, config 0x6d2, config1 0x0) "
			 "failed: EINVAL"), "%s", m.error);
	CHECK_EQ_INT(k.n_open, 0);
	CHECK(same_affinity(&before));
	bt_measurement_free(&m);
}

/* The run's os_pmu on a kernel tree (tests/data/sysfs/skx-6.6) behind the
 * made-up system calls: the probe opens, the process is pinned to the CPU
 * it is on, and the caps and facts are the kernel's (the NMI watchdog's
 * fixed counter 1 gone, the filter in place). The host's own CPU gives the
 * core kind; the PMU is SKX's from its CPUID subset. */
TEST(os_pmu_plans_for_the_kernel_facts_and_says_them)
{
	static struct bt_dump_decision dd;
	struct bt_cpuid l0a;
	unsigned c;
	struct bt_diag d = { "" };
	struct bt_cpu_info ci;
	struct bt_pmu pmu;
	char counted_by[320];
	cpu_set_t before;

	CHECK(sched_getaffinity(0, sizeof(before), &before) == 0);
	if (bt_detect_dump_cpu("tests/data/cpuid/skx-subset.cpuid@0", &dd, &l0a, &c, &d) != BT_OK) {
		bt_test_fail(__FILE__, __LINE__, "%s", d.text);
		return;
	}
	bt_cpu_detect(bt_arch_cpuid_host(), NULL, &ci);
	ci.pmu = dd.ci.pmu;
	memset(&pmu, 0, sizeof(pmu));
	fake_reset();
	bt_perf_set_sys(&fake_sys);
	bt_perf_set_kernel_root("tests/data/sysfs/skx-6.6");
	bt_status st = bt_perf_os_pmu(&ci, &pmu, counted_by, sizeof(counted_by), &d);
	bt_perf_set_kernel_root(NULL);
	bt_perf_set_sys(NULL);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(k.n_open, 0);               /* the probe's fd closed */
	CHECK(pmu.driver == &bt_pmu_perf_driver && pmu.caps.os_filter != NULL);
	CHECK_EQ_U64(pmu.caps.fixed_mask, 0x5);
	CHECK(pmu.n_facts >= 5);
	bool wd = false, ver = false;
	for (int i = 0; i < pmu.n_facts; i++) {
		wd |= strstr(pmu.facts[i], "nmi_watchdog 1: it holds fixed counter 1") != NULL;
		ver |= strstr(pmu.facts[i], "Linux 6.6.0-32-amd64") != NULL;
	}
	CHECK(wd && ver);
	CHECK(strstr(counted_by, "counted by Linux perf_event") == counted_by);
	/* pinned to one CPU now; put back for the other tests */
	cpu_set_t now;
	CHECK(sched_getaffinity(0, sizeof(now), &now) == 0 && CPU_COUNT(&now) == 1);
	CHECK(sched_setaffinity(0, sizeof(before), &before) == 0);
}

/*
 * Skylake-SP with SMT on through the perf driver: the sibling probe's two
 * members in every group, their counts to the measurement, and the tree
 * the evaluation then takes, against Linux perf's level-1 formulas worked
 * by hand from the same medians (tools/perf/pmu-events/arch/x86/skylakex/
 * skx-metrics.json: tma_info_core_core_clks = CPU_CLK_UNHALTED.THREAD / 2 *
 * (1 + ONE_THREAD_ACTIVE / REF_XCLK) per thread, slots = 4 x that,
 * frontend IDQ_UOPS_NOT_DELIVERED.CORE / slots, bad speculation
 * (UOPS_ISSUED.ANY - UOPS_RETIRED.RETIRE_SLOTS + 4 * (RECOVERY_CYCLES_ANY
 * / 2 if #SMT_on else RECOVERY_CYCLES)) / slots, retiring RETIRE_SLOTS /
 * slots). The made-up core's rates per unit of work: cycles 100 (the
 * thread's and, the sibling active only inside them, any thread's),
 * ONE_THREAD_ACTIVE 0 (busy sibling) or 3 (idle), REF_XCLK 3, REF_TSC 90:
 * 30 TSC ticks per reference tick, which the part enumerates as
 * `enumerated` (pmu/sibling.h derives REF_XCLK from fixed counter 2 at it,
 * and the plan counts REF_XCLK once to check it).
 */
static unsigned event_at(const struct bt_model *m, const uint16_t *idx, unsigned n, const char *ev)
{
	unsigned j = 0;
	while (j < n && strcmp(bt_model_event(m, idx[j])->name, ev) != 0)
		j++;
	CHECK_MSG(j < n, "%s not among the level-1 events", ev);
	return j < n ? j : 0;
}

static void sibling_tree_of(const char *model_id, uint64_t ota_rate, uint32_t enumerated, int want_ht,
			    double *ret_worst)
{
	/* Haswell's INT_MISC.RECOVERY_CYCLES is 0DH umask 3 with cmask 1
	 * (its IDQ.MS_UOPS 0x3079 also counts here); Skylake's umask 1. */
	bool hsw = strcmp(model_id, "HSW") == 0;
	const struct rate rates[] = {
		{ 0x003c, 100 }, { 0x20003c, 100 }, { 0x00c0, 80 }, { 0x0300, 90 },
		{ 0x019c, 20 }, { 0x010e, 150 }, { 0x02c2, 120 },
		{ hsw ? 0x0100030d : 0x010d, 5 }, { hsw ? 0x0120030d : 0x20010d, 10 },
		{ 0x023c, ota_rate }, { 0x013c, 3 }, { 0x3079, 7 }, { 0, 0 },
	};
	static struct bt_event twin[BT_PLAN_MAX_EVENTS];
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	static uint16_t idx[BT_PLAN_MAX_EVENTS * 4];
	static struct bt_plan plan;
	static struct bt_plan_scratch scratch;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_pmu pmu = { .arch = bt_arch_cpuid_host(), .driver = &bt_pmu_perf_driver };
	struct bt_model *model = NULL;
	struct bt_diag d = { "" };
	uint64_t per_run = 10;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };
	double kc[BT_CONST_COUNT];
	unsigned n = 0;

	*ret_worst = INFINITY;
	pmu.caps.kind = BT_PMU_INTEL_ARCH;
	pmu.caps.version = 4;
	pmu.caps.num_gp = 4;
	pmu.caps.gp_mask = 0xF;
	pmu.caps.gp_width = 48;
	pmu.caps.num_fixed = 3;
	pmu.caps.fixed_mask = 0x7;
	pmu.caps.fixed_width = 48;
	pmu.caps.sibling_probe = true;
	pmu.caps.tsc_per_xclk_num = enumerated;
	pmu.caps.tsc_per_xclk_den = 1;
	pmu.caps.tsc_per_xclk_from = "test";
	CHECK(bt_model_open(bt_builtin_find(model_id), &model, &d) == BT_OK);
	if (!model)
		return;
	for (int i = 0; i < BT_CONST_COUNT; i++)
		kc[i] = NAN;
	CHECK(bt_model_events_up_to_level(model, 1, kc, idx, &n) == BT_OK);
	for (unsigned i = 0; i < n; i++) {
		evp[i] = bt_model_event(model, idx[i]);
		if (bt_event_fixed_to_gp(evp[i], &pmu.caps, &twin[i]))
			evp[i] = &twin[i];
	}
	int n_plan = bt_sibling_add_check(evp, (int)n, &pmu.caps, NULL, &scratch);
	CHECK_EQ_INT(n_plan, (int)n + 1); /* level 1 has room for it */
	CHECK(bt_plan_events(evp, n_plan, &pmu.caps, NULL, &scratch, &plan) == BT_OK);
	CHECK(plan.has_sibling_gp && !plan.has_xclk_gp);
	fake_reset();
	k.rates = rates;
	bt_measure_opts_defaults(&o);
	o.xclk_event = &bt_sibling_xclk_event;
	bt_perf_set_sys(&fake_sys);
	bt_status st = bt_measure(&pmu, &plan, evp, &wl, &o, &m);
	bt_perf_set_sys(NULL);
	CHECK_MSG(st == BT_OK, "%s", m.error);
	if (st != BT_OK) {
		bt_model_close(model);
		return;
	}
	struct bt_sibling_sums sums = { 0 };
	struct bt_xclk_ratio x;
	for (int i = 0; i < m.n_runs; i++)
		bt_sibling_add(&sums, &m.runs[i]);
	bt_xclk_ratio_decide(&pmu.caps, &sums, &x);
	CHECK(sums.probed && sums.ref_tsc > 0 && sums.check_xclk > 0);
	CHECK_MSG(fabs(x.counted - 30) < 1e-9, "counted %g TSC ticks per REF_XCLK tick", x.counted);
	CHECK_EQ_INT(x.disagrees, enumerated != 30);
	CHECK_MSG(x.used == 30, "used %g (enumerated %u)", x.used, enumerated);
	struct bt_counts *c = bt_counts_new(model);
	struct bt_result *r = bt_result_new(model);
	double v[BT_PLAN_MAX_EVENTS] = { 0 };
	for (unsigned i = 0; i < n; i++) {
		c->events[idx[i]] = (double)m.ev[i].median;
		v[i] = (double)m.ev[i].median;
	}
	c->constants[BT_C_SMT_SIBLING_ACTIVE] = bt_sibling_active(&sums, x.used);
	CHECK(bt_evaluate(model, c, r) == BT_OK);
	CHECK_EQ_INT(r->smt.formulas, want_ht);
#define EV(ev) v[event_at(model, idx, n, ev)]
	/* perf's REF_XCLK: counted (3 per unit of work), beside the same
	 * runs' ONE_THREAD_ACTIVE */
	double ota = (double)sums.ota, xclk = (double)sums.ref_tsc / 30;
	double slots = 4 * (EV("CPU_CLK_UNHALTED.THREAD") / 2 * (1 + ota / xclk));
	double rec = want_ht ? EV("INT_MISC.RECOVERY_CYCLES_ANY") / 2 : EV("INT_MISC.RECOVERY_CYCLES");
	double fe = EV("IDQ_UOPS_NOT_DELIVERED.CORE") / slots;
	double bs = (EV("UOPS_ISSUED.ANY") - EV("UOPS_RETIRED.RETIRE_SLOTS") + 4 * rec) / slots;
	double ret = EV("UOPS_RETIRED.RETIRE_SLOTS") / slots;
#undef EV
	const struct { const char *node; double want; } hand[] = {
		{ "Frontend_Bound", fe }, { "Bad_Speculation", bs }, { "Retiring", ret },
		{ "Backend_Bound", 1 - fe - bs - ret },
	};
	double worst = 0;
	for (size_t i = 0; i < BT_ARRAY_SIZE(hand); i++) {
		int node = bt_model_node_find(model, hand[i].node);
		CHECK(node >= 0);
		if (node < 0)
			continue;
		double e = fabs(r->value[node] - hand[i].want) / fabs(hand[i].want);
		worst = e > worst ? e : worst;
	}
	*ret_worst = worst;
	bt_result_free(r);
	bt_counts_free(c);
	bt_measurement_free(&m);
	bt_model_close(model);
}

static void sibling_tree(uint64_t ota_rate, uint32_t enumerated, int want_ht, double *ret_worst)
{
	sibling_tree_of("SKX", ota_rate, enumerated, want_ht, ret_worst);
}

/* Haswell: the same CORE_CLKS and level-1 forms over Haswell's events
 * (perf's haswell metrics; pmu-tools hsw_client_ratios.py CORE_CLKS, its
 * per-thread form THREAD / 2 * (1 + ONE_THREAD_ACTIVE / REF_XCLK), and
 * Recovery_Cycles RECOVERY_CYCLES_ANY / 2 with SMT): busy and idle sibling. */
TEST(hsw_busy_sibling_through_the_perf_driver_gives_perfs_smt_tree)
{
	double worst;
	sibling_tree_of("HSW", 0, 30, 1, &worst);
	CHECK_MSG(worst < 1e-9, "worst %g", worst);
	printf("# HSW busy sibling: worst relative difference from perf's formula by hand %g\n", worst);
	sibling_tree_of("HSW", 3, 30, 0, &worst);
	CHECK_MSG(worst < 1e-9, "worst %g", worst);
}

TEST(skx_busy_sibling_through_the_perf_driver_gives_perfs_smt_tree)
{
	double worst;
	sibling_tree(0, 30, 1, &worst);   /* 10 x 100 cycles -> perf's core clocks 500 */
	CHECK_MSG(worst < 1e-9, "worst %g", worst);
	sibling_tree(3, 30, 0, &worst);   /* idle sibling: the per-thread tree */
	CHECK_MSG(worst < 1e-9, "worst %g", worst);
	/* A part that enumerates a wrong ratio (45): the count checks it and
	 * is used, so the idle sibling is still idle (at 45, REF_XCLK would be
	 * 2/3 of the count, ONE_THREAD_ACTIVE above it, and the ratio's error
	 * would go unseen). */
	sibling_tree(3, 45, 0, &worst);
	CHECK_MSG(worst < 1e-9, "worst %g", worst);
}

/*
 * Pin first, then detect, on a hybrid part through the kernel double's
 * Alder Lake tree (tests/data/sysfs/adl-6.6: cpu_core 0-11 type 4,
 * cpu_atom 12-19 type 10) with each CPU's CPUID from adl-subset.cpuid
 * (SIMULATED CPUs: the test's sched_getcpu, affinity and CPUID). The
 * model was chosen on CPU 0, a P-core; the scheduler then moves the
 * thread to CPU 12, an E-core, before the backend is set up. The P-core's
 * target is planned on a cpu_core CPU, pinned there, with no refusal; the
 * E-core asked for next (--cpu 12) gets cpu_atom's type, and each
 * session's groups carry the type of the PMU of the CPU they count on.
 */
static int fake_cpu, fake_saved = -1;

static int fake_current(void)
{
	return fake_cpu;
}

static int fake_pin(int cpu, bool for_good)
{
	if (!for_good && fake_saved < 0)
		fake_saved = fake_cpu;
	fake_cpu = cpu;
	return 0;
}

static int fake_unpin(void)
{
	if (fake_saved >= 0)
		fake_cpu = fake_saved;
	fake_saved = -1;
	return 0;
}

static void fake_detect(struct bt_cpu_info *ci, struct bt_cpuid *l0a)
{
	char spec[96];
	static struct bt_dump_decision dd;
	struct bt_diag d = { "" };
	unsigned c;
	snprintf(spec, sizeof(spec), "tests/data/cpuid/adl-subset.cpuid@%d", fake_cpu);
	memset(ci, 0, sizeof(*ci));
	if (bt_detect_dump_cpu(spec, &dd, l0a, &c, &d) == BT_OK)
		*ci = dd.ci;
}

static const struct bt_perf_cpus fake_cpus = { fake_current, fake_pin, fake_unpin, fake_detect };

static bool has_fact(const struct bt_pmu *p, const char *s)
{
	for (int i = 0; i < p->n_facts; i++)
		if (strstr(p->facts[i], s))
			return true;
	return false;
}

/* Two events on each PMU: instructions (fixed counter 0) and a general
 * one; every attr opened has the PMU's type. */
static void types_on(const struct bt_pmu *pmu, int cpu, uint32_t want)
{
	static struct rig r;
	struct bt_measurement m;
	uint64_t per_run = 100;
	struct bt_measure_workload wl = { .run = body, .arg = &per_run };
	CHECK(rig_init(&r));
	r.pmu = *pmu;
	r.pmu.caps.gp_mask &= 0x3;
	CHECK(bt_plan_events(r.evp, 4, &r.pmu.caps, NULL, &r.scratch, &r.plan) == BT_OK);
	fake_reset();
	fake_cpu = cpu;
	CHECK_MSG(bt_measure(&r.pmu, &r.plan, r.evp, &wl, &r.o, &m) == BT_OK, "%s", m.error);
	int wrong = 0;
	for (int i = 0; i < k.n_fd; i++)
		wrong += k.attr[i].type != want;
	CHECK_MSG(k.n_fd > 0 && wrong == 0, "CPU %d: %d of %d attrs not of type %u", cpu, wrong, k.n_fd,
		  want);
	printf("# CPU %d: %d attrs in %d groups, every one of type %u\n", cpu, k.n_fd, k.groups_opened,
	       want);
	bt_measurement_free(&m);
}

TEST(hybrid_migration_between_detection_and_counting_counts_the_right_kind)
{
	static struct bt_dump_decision p, e;
	struct bt_cpuid l0a;
	unsigned c;
	struct bt_diag d = { "" };
	struct bt_pmu pp, pe;
	char by[320];

	CHECK(bt_detect_dump_cpu("tests/data/cpuid/adl-subset.cpuid@0", &p, &l0a, &c, &d) == BT_OK);
	CHECK(bt_detect_dump_cpu("tests/data/cpuid/adl-subset.cpuid@12", &e, &l0a, &c, &d) == BT_OK);
	fake_reset();
	bt_perf_set_sys(&fake_sys);
	bt_perf_set_kernel_root("tests/data/sysfs/adl-6.6");
	bt_perf_set_cpus(&fake_cpus);
	fake_cpu = 12;                       /* moved after the model was chosen on CPU 0 */
	memset(&pp, 0, sizeof(pp));
	memset(&pe, 0, sizeof(pe));
	bt_status st = bt_perf_os_pmu(&p.ci, &pp, by, sizeof(by), &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(fake_cpu, 0);           /* pinned, for good, to a cpu_core CPU */
	CHECK(has_fact(&pp, "PMU cpu_core, type 4"));
	st = bt_perf_os_pmu(&e.ci, &pe, by, sizeof(by), &d);   /* --cpu 12 */
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(fake_cpu, 0);           /* the E-core's detection gave CPU 0 back */
	CHECK(has_fact(&pe, "PMU cpu_atom, type 10"));
	if (st == BT_OK) {
		types_on(&pp, 0, PERF_TYPE_RAW);
		types_on(&pe, 12, 10);
	}
	bt_perf_set_cpus(NULL);
	bt_perf_set_kernel_root(NULL);
	bt_perf_set_sys(NULL);
}
