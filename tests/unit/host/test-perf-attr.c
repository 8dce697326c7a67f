/* SPDX-License-Identifier: MIT */
/*
 * The perf_event backend's pure half (host/perf-attr.c): planned groups as
 * perf_event_attr arrays, and the group read() buffer back as counts. The
 * expected configs are written from the Intel SDM's IA32_PERFEVTSELx
 * layout (event [7:0], umask [15:8], edge 18, inv 23, cmask [31:24]), AMD's
 * PerfEvtSel (EventSelect[11:8] at [35:32]), and the Linux kernel's
 * pseudo-encodings: fixed counters 0x00c0 / 0x003c / 0x0300 / 0x0400
 * (arch/x86/events/intel/core.c, FIXED_EVENT_CONSTRAINT), TOPDOWN.SLOTS
 * 0x0400 as the group leader of the metric events 0x8000 + (field << 8)
 * (arch/x86/include/asm/perf_event.h INTEL_TD_SLOTS, INTEL_TD_METRIC_*;
 * core.c intel_pmu_hw_config: "The metric events require a slots group
 * leader"); read_format as perf_event_open(2) lays out PERF_FORMAT_GROUP.
 * Also the provenance line, against uname(2) and /proc/cpuinfo.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "arch/arch-cpuid-host.h"
#include "host/perf-attr.h"
#include "pmu/intel-uarch.h"
#include "host/perf-pmu.h"
#include "tests/unit/lib/pmu-fixtures.h"
#include "tests/unit/lib/test.h"

static struct bt_pmu_caps intel_caps(void)
{
	struct bt_pmu_caps c;
	memset(&c, 0, sizeof(c));
	c.kind = BT_PMU_INTEL_ARCH;
	c.version = 5;
	c.num_gp = 8;
	c.gp_mask = 0xFF;
	c.gp_width = 48;
	c.num_fixed = 4;
	c.fixed_mask = 0xF;
	c.fixed_width = 48;
	c.perf_metrics = true;
	c.perf_metrics_fields = 4;
	c.uarch = BT_UARCH_ICL;
	return c;
}

/* Events of the Intel plan below: index = plan event. */
enum { E_INST, E_L1MISS, E_OCR, E_RET, E_FE, E_STALLS, E_EDGE, E_SUP, N_EV };

struct intel_fixture {
	struct bt_event ev[N_EV];
	const struct bt_event *evp[N_EV];
	struct bt_plan *plan;
	struct bt_pmu_caps caps;
};

/* Two groups by hand (the translation is under test, not the planner):
 * group 0: OCR on counter 0, MEM_LOAD_RETIRED.L1_MISS on counter 2;
 * group 1: CYCLE_ACTIVITY.STALLS_MEM_ANY (cmask 20) on counter 1, an
 * edge+inv event on 3, a ring-0-only event on 4; every group carries
 * fixed counters 0-3 and PERF_METRICS fields 0 and 2. */
static void intel_fixture(struct intel_fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->caps = intel_caps();
	f->ev[E_INST] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0, 0, 0xFF);
	f->ev[E_L1MISS] = fx_gp("MEM_LOAD_RETIRED.L1_MISS", 0xD1, 0x08, 0, 0xFF);
	f->ev[E_OCR] = fx_msr(fx_gp("OCR.DEMAND_DATA_RD.ANY_RESPONSE", 0xB7, 0x01, 0, 0xFF),
			      0x1A6, 0x10001, 0xBB);
	f->ev[E_RET] = fx_pm("PERF_METRICS.RETIRING", BT_PM_RETIRING);
	f->ev[E_FE] = fx_pm("PERF_METRICS.FRONTEND_BOUND", BT_PM_FRONTEND_BOUND);
	f->ev[E_STALLS] = fx_gp("CYCLE_ACTIVITY.STALLS_MEM_ANY", 0xA3, 0x14, 0x14, 0xFF);
	f->ev[E_EDGE] = fx_gp("MACHINE_CLEARS.COUNT", 0xC3, 0x01, 1, 0xFF);
	f->ev[E_EDGE].flags |= BT_EVF_EDGE | BT_EVF_INV;
	f->ev[E_SUP] = fx_gp("BR_INST_RETIRED.ALL_BRANCHES:SUP", 0xC4, 0x00, 0, 0xFF);
	f->ev[E_SUP].flags |= BT_EVF_SUP;
	for (int i = 0; i < N_EV; i++)
		f->evp[i] = &f->ev[i];
	struct bt_plan *p = calloc(1, sizeof(*p));
	f->plan = p;
	p->n_events = N_EV;
	for (int i = 0; i < N_EV; i++)
		p->ev[i].group = -1;
	p->ev[E_INST].place = BT_PLACE_FIXED;
	p->ev[E_INST].counter = 0;
	p->ev[E_RET].place = BT_PLACE_PERF_METRICS;
	p->ev[E_RET].counter = BT_PM_RETIRING;
	p->ev[E_FE].place = BT_PLACE_PERF_METRICS;
	p->ev[E_FE].counter = BT_PM_FRONTEND_BOUND;
	p->n_groups = 2;
	p->fixed_mask = 0xF;
	p->perf_metrics = true;
	p->num_gp = 8;
	p->groups[0].n_gp = 2;
	p->groups[0].gp[0].event = E_OCR;
	p->groups[0].gp[0].counter = 0;
	p->groups[0].gp[1].event = E_L1MISS;
	p->groups[0].gp[1].counter = 2;
	p->groups[1].n_gp = 3;
	p->groups[1].gp[0].event = E_STALLS;
	p->groups[1].gp[0].counter = 1;
	p->groups[1].gp[1].event = E_EDGE;
	p->groups[1].gp[1].counter = 3;
	p->groups[1].gp[2].event = E_SUP;
	p->groups[1].gp[2].counter = 4;
	int ev_of[] = { E_OCR, E_L1MISS, E_STALLS, E_EDGE, E_SUP };
	int grp_of[] = { 0, 0, 1, 1, 1 };
	int ctr_of[] = { 0, 2, 1, 3, 4 };
	for (int k = 0; k < 5; k++) {
		p->ev[ev_of[k]].place = BT_PLACE_GP;
		p->ev[ev_of[k]].group = (int16_t)grp_of[k];
		p->ev[ev_of[k]].counter = (uint8_t)ctr_of[k];
	}
}

static void check_common(const struct bt_perf_member *m, int n)
{
	for (int i = 0; i < n; i++) {
		CHECK_EQ_U64(m[i].attr.type, PERF_TYPE_RAW);
		CHECK_EQ_U64(m[i].attr.size, sizeof(struct perf_event_attr));
		/* GROUP (8) | ID (4) | TOTAL_TIME_ENABLED (1) | TOTAL_TIME_RUNNING (2) */
		CHECK_EQ_U64(m[i].attr.read_format, 0xF);
		/* user mode only, except an event that counts ring 0 only
		 * (exclude_user and exclude_kernel both would count nothing) */
		CHECK_EQ_U64(m[i].attr.exclude_kernel, !m[i].attr.exclude_user);
		CHECK_EQ_U64(m[i].attr.exclude_hv, 1);
		CHECK_EQ_U64(m[i].attr.pinned, i == 0);
		CHECK_EQ_U64(m[i].attr.disabled, i == 0);
		CHECK_EQ_U64(m[i].attr.sample_period, 0);
		CHECK_EQ_U64(m[i].attr.inherit, 0);
	}
}

TEST(intel_perf_metrics_group_has_slots_leader_then_fixed_gp_and_metrics)
{
	struct intel_fixture f;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	int n = -1;

	intel_fixture(&f);
	bt_status st = bt_perf_group_attrs(f.plan, 0, f.evp, &f.caps, 0xF, true, NULL, m, &n, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(n, 8);
	check_common(m, n);
	static const uint64_t want[8] = {
		0x0400,           /* TOPDOWN.SLOTS, the leader */
		0x00c0, 0x003c, 0x0300,
		0x01B7,           /* OCR: umask 1, event 0xB7 */
		0x08D1,           /* MEM_LOAD_RETIRED.L1_MISS */
		0x8000, 0x8200,   /* retiring, frontend bound */
	};
	static const uint8_t role[8] = { BT_PERF_FIXED, BT_PERF_FIXED, BT_PERF_FIXED, BT_PERF_FIXED,
					 BT_PERF_GP, BT_PERF_GP, BT_PERF_METRIC, BT_PERF_METRIC };
	static const uint8_t index[8] = { 3, 0, 1, 2, 0, 2, 0, 2 };
	for (int i = 0; i < 8 && i < n; i++) {
		CHECK_EQ_U64(m[i].attr.config, want[i]);
		CHECK_EQ_INT(m[i].role, role[i]);
		CHECK_EQ_INT(m[i].index, index[i]);
	}
	/* OFFCORE_RSP_0's value goes in config1; nothing else has one. */
	CHECK_EQ_U64(m[4].attr.config1, 0x10001);
	for (int i = 0; i < n; i++)
		if (i != 4)
			CHECK_EQ_U64(m[i].attr.config1, 0);
	/* No ring, interrupt or enable bit: the kernel owns them (it refuses
	 * any filter bit on the topdown events, core.c X86_ALL_EVENT_FLAGS). */
	for (int i = 0; i < n; i++)
		CHECK_EQ_U64(m[i].attr.config & ((1u << 16) | (1u << 17) | (1u << 20) | (1u << 22)), 0);
	free(f.plan);
}

TEST(intel_filters_cmask_edge_inv_and_ring_0_only)
{
	struct intel_fixture f;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	int n = -1;

	intel_fixture(&f);
	bt_status st = bt_perf_group_attrs(f.plan, 1, f.evp, &f.caps, 0xF, true, NULL, m, &n, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(n, 1 + 3 + 3 + 2);
	check_common(m, n);
	/* cmask 0x14 [31:24], umask 0x14, event 0xA3 */
	CHECK_EQ_U64(m[4].attr.config, 0x140014A3);
	CHECK_EQ_INT(m[4].index, 1);
	/* cmask 1, inv (23), edge (18), umask 1, event 0xC3 */
	CHECK_EQ_U64(m[5].attr.config, 0x01000000u | (1u << 23) | (1u << 18) | 0x01C3);
	/* :SUP counts ring 0 only: user mode excluded, ring 0 counted (both
	 * excluded would count nothing; the plan asked the kernel's
	 * permission, perf_allow_kernel: host/perf-plan.c). */
	CHECK_EQ_U64(m[6].attr.config, 0x00C4);
	CHECK_EQ_U64(m[6].attr.exclude_user, 1);
	CHECK_EQ_U64(m[6].attr.exclude_kernel, 0);
	CHECK_EQ_U64(m[4].attr.exclude_user, 0);
	free(f.plan);
}

TEST(without_perf_metrics_the_instructions_counter_leads)
{
	struct intel_fixture f;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	int n = -1;

	intel_fixture(&f);
	f.plan->perf_metrics = false;
	bt_status st = bt_perf_group_attrs(f.plan, 0, f.evp, &f.caps, 0x7, false, NULL, m, &n, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(n, 3 + 2);
	check_common(m, n);
	CHECK_EQ_U64(m[0].attr.config, 0x00c0);
	CHECK_EQ_U64(m[1].attr.config, 0x003c);
	CHECK_EQ_U64(m[2].attr.config, 0x0300);
	for (int i = 0; i < n; i++)
		CHECK(m[i].role != BT_PERF_METRIC && m[i].attr.config != 0x0400);
	free(f.plan);
}

TEST(count_kernel_clears_exclude_kernel)
{
	struct intel_fixture f;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	struct bt_perf_attr_opts o = { .count_kernel = true };
	int n = -1;

	intel_fixture(&f);
	CHECK(bt_perf_group_attrs(f.plan, 0, f.evp, &f.caps, 0xF, true, &o, m, &n, &d) == BT_OK);
	for (int i = 0; i < n; i++) {
		CHECK_EQ_U64(m[i].attr.exclude_kernel, 0);
		CHECK_EQ_U64(m[i].attr.exclude_hv, 1);
	}
	free(f.plan);
}

TEST(refusals_name_the_problem)
{
	struct intel_fixture f;
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	int n = -1;

	intel_fixture(&f);
	/* PERF_METRICS without SLOTS: the kernel would refuse the metric events. */
	CHECK(bt_perf_group_attrs(f.plan, 0, f.evp, &f.caps, 0x7, true, NULL, m, &n, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "TOPDOWN.SLOTS") != NULL);
	CHECK_EQ_INT(n, 0);
	/* A fixed counter the kernel has no pseudo-encoding for. */
	d.text[0] = '\0';
	CHECK(bt_perf_group_attrs(f.plan, 0, f.evp, &f.caps, 0x1F, false, NULL, m, &n, &d) ==
	      BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "fixed counter 4") != NULL);
	/* No such group. */
	CHECK(bt_perf_group_attrs(f.plan, 2, f.evp, &f.caps, 0xF, true, NULL, m, &n, &d) == BT_ERR_INVALID);
	CHECK(bt_perf_group_attrs(f.plan, -1, f.evp, &f.caps, 0xF, true, NULL, m, &n, &d) == BT_ERR_INVALID);
	free(f.plan);
}

TEST(amd_group_leads_with_its_first_event_and_carries_retired_instructions)
{
	struct bt_pmu_caps c;
	struct bt_event ev[2];
	const struct bt_event *evp[2] = { &ev[0], &ev[1] };
	struct bt_plan *p = calloc(1, sizeof(*p));
	struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	struct bt_diag d = { "" };
	int n = -1;

	memset(&c, 0, sizeof(c));
	c.kind = BT_PMU_AMD_V2;
	c.num_gp = 6;
	c.gp_mask = 0x3F;
	c.gp_width = 48;
	/* A 12-bit event select: [11:8] go to PerfEvtSel[35:32] (AMD APM
	 * vol. 2, 13.2.1). */
	ev[0] = fx_gp("ex_ret_ops_example", 0x1C1, 0x00, 0, 0x3F);
	ev[1] = fx_gp("ls_dmnd_fills_from_sys.example", 0x043, 0x48, 0, 0x3F);
	p->n_events = 2;
	p->n_groups = 1;
	p->num_gp = 6;
	p->has_inst_gp = true;
	p->inst_gp = 5;
	p->groups[0].n_gp = 2;
	p->groups[0].gp[0].event = 0;
	p->groups[0].gp[0].counter = 0;
	p->groups[0].gp[1].event = 1;
	p->groups[0].gp[1].counter = 1;
	for (int i = 0; i < 2; i++) {
		p->ev[i].place = BT_PLACE_GP;
		p->ev[i].group = 0;
		p->ev[i].counter = (uint8_t)i;
	}
	bt_status st = bt_perf_group_attrs(p, 0, evp, &c, 0, false, NULL, m, &n, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	CHECK_EQ_INT(n, 3);
	check_common(m, n);
	CHECK_EQ_U64(m[0].attr.config, (1ull << 32) | 0xC1);
	CHECK_EQ_U64(m[1].attr.config, 0x4843);
	CHECK_EQ_U64(m[2].attr.config, 0xC0);   /* PMCx0C0 on the reserved counter */
	CHECK_EQ_INT(m[2].role, BT_PERF_GP);
	CHECK_EQ_INT(m[2].index, 5);
	free(p);
}

/* A PERF_FORMAT_GROUP | ID | TOTAL_TIME_* buffer as perf_event_open(2)
 * lays it out: nr, time_enabled, time_running, then {value, id} each. */
static size_t group_buf(uint64_t *w, uint64_t nr, uint64_t enabled, uint64_t running,
			const uint64_t *values, const uint64_t *ids)
{
	w[0] = nr;
	w[1] = enabled;
	w[2] = running;
	for (uint64_t i = 0; i < nr; i++) {
		w[3 + 2 * i] = values[i];
		w[4 + 2 * i] = ids[i];
	}
	return (3 + 2 * nr) * sizeof(uint64_t);
}

TEST(read_group_returns_values_in_member_order)
{
	uint64_t w[16], out[3] = { 0 };
	const uint64_t ids[3] = { 101, 102, 107 }, vals[3] = { 5000000, 12345678901ull, 0 };
	struct bt_diag d = { "" };

	size_t bytes = group_buf(w, 3, 987654, 987654, vals, ids);
	CHECK(bt_perf_read_group(w, bytes, 3, ids, "counter group 0", out, &d) == BT_OK);
	CHECK_EQ_U64(out[0], 5000000);
	CHECK_EQ_U64(out[1], 12345678901ull);
	CHECK_EQ_U64(out[2], 0);
}

TEST(read_group_refuses_multiplexed_unscheduled_and_malformed_reads)
{
	uint64_t w[16], out[3];
	const uint64_t ids[3] = { 101, 102, 107 }, vals[3] = { 1, 2, 3 };
	struct bt_diag d = { "" };

	/* Enabled longer than running: multiplexed, never scaled. */
	size_t bytes = group_buf(w, 3, 2000000, 1500000, vals, ids);
	CHECK(bt_perf_read_group(w, bytes, 3, ids, "counter group 2", out, &d) == BT_ERR_FULL);
	CHECK(strstr(d.text, "counter group 2") != NULL);
	CHECK(strstr(d.text, "2000000") && strstr(d.text, "1500000"));
	/* Off by one nanosecond is still not all the time. */
	bytes = group_buf(w, 3, 1000, 999, vals, ids);
	CHECK(bt_perf_read_group(w, bytes, 3, ids, "g", out, &d) == BT_ERR_FULL);
	/* A pinned group in error state reads as end of file. */
	d.text[0] = '\0';
	CHECK(bt_perf_read_group(w, 0, 3, ids, "counter group 5", out, &d) == BT_ERR_FULL);
	CHECK(strstr(d.text, "counter group 5") && strstr(d.text, "could not be scheduled"));
	/* Fewer counters than the group has. */
	bytes = group_buf(w, 2, 10, 10, vals, ids);
	CHECK(bt_perf_read_group(w, bytes, 3, ids, "g", out, &d) == BT_ERR_INVALID);
	/* nr says 3 but the bytes hold 2. */
	bytes = group_buf(w, 3, 10, 10, vals, ids);
	CHECK(bt_perf_read_group(w, bytes - 16, 3, ids, "g", out, &d) == BT_ERR_INVALID);
	/* Not a whole number of words; shorter than the header. */
	CHECK(bt_perf_read_group(w, bytes - 1, 3, ids, "g", out, &d) == BT_ERR_INVALID);
	CHECK(bt_perf_read_group(w, 16, 3, ids, "g", out, &d) == BT_ERR_INVALID);
	/* Another event's id in a slot. */
	const uint64_t other[3] = { 101, 999, 107 };
	bytes = group_buf(w, 3, 10, 10, vals, other);
	CHECK(bt_perf_read_group(w, bytes, 3, ids, "g", out, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "999") != NULL);
}

TEST(provenance_names_the_kernel_and_the_hypervisor_never_bare_metal)
{
	char buf[512], want[256];
	struct utsname u;

	CHECK(uname(&u) == 0);
	bt_perf_provenance(bt_arch_cpuid_host(), buf, sizeof(buf));
	snprintf(want, sizeof(want), "counted by Linux perf_event (the kernel's driver, not "
		 "baretop's), kernel %s", u.release);
	CHECK_MSG(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
	CHECK(strstr(buf, "bare metal") == NULL && strstr(buf, "bare-metal") == NULL);
	/* The hypervisor bit as Linux reports it: the "hypervisor" cpu flag. */
	bool hv = false;
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			hv = strstr(line, " hypervisor") != NULL;
			break;
		}
	if (f)
		fclose(f);
	CHECK_MSG((strstr(buf, "under a hypervisor (CPUID 0x40000000: \"") != NULL) == hv, "%s", buf);
	/* A short buffer is cut, never overrun. */
	char small[24];
	bt_perf_provenance(bt_arch_cpuid_host(), small, sizeof(small));
	CHECK_EQ_INT(strlen(small), sizeof(small) - 1);
}

/* TOPDOWN.SLOTS and PERF_METRICS as the kernel publishes them: event
 * files named as in /sys/bus/event_source/devices/cpu/events. */
static void touch(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs("event=0x00,umask=0x80\n", f);
		fclose(f);
	}
}

TEST(perf_metrics_as_the_kernel_exposes_them)
{
	char dir[] = "/tmp/bt-perf-events-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct bt_pmu_caps c = intel_caps();

	/* Nothing published: no SLOTS (fixed counter 3 dropped), no metrics. */
	bt_perf_caps_from_sysfs(&c, dir);
	CHECK_EQ_U64(c.fixed_mask, 0x7);
	CHECK_EQ_INT(c.num_fixed, 3);
	CHECK(!c.perf_metrics);
	CHECK_EQ_INT(c.perf_metrics_fields, 0);
	/* slots and the level-1 metrics (Ice Lake). */
	c = intel_caps();
	touch(dir, "slots");
	touch(dir, "topdown-retiring");
	CHECK_STR(bt_perf_caps_from_sysfs(&c, dir), "the kernel exposes TOPDOWN.SLOTS and 4 PERF_METRICS fields");
	CHECK_EQ_U64(c.fixed_mask, 0xF);
	CHECK(c.perf_metrics);
	CHECK_EQ_INT(c.perf_metrics_fields, 4);
	/* and level 2 (Sapphire Rapids and later). */
	touch(dir, "topdown-mem-bound");
	CHECK(bt_perf_caps_from_sysfs(&c, dir) != NULL);
	CHECK_EQ_INT(c.perf_metrics_fields, 8);
	/* CPUID said PERF_METRICS is off: the kernel's word is taken. */
	c = intel_caps();
	c.perf_metrics = false;
	bt_perf_caps_from_sysfs(&c, dir);
	CHECK(c.perf_metrics);
	/* AMD is left alone. */
	struct bt_pmu_caps a;
	memset(&a, 0, sizeof(a));
	a.kind = BT_PMU_AMD_V2;
	a.gp_mask = 0x3F;
	CHECK_STR(bt_perf_caps_from_sysfs(&a, dir), "");
	CHECK_EQ_U64(a.gp_mask, 0x3F);
	CHECK(!a.perf_metrics);
	const char *names[] = { "slots", "topdown-retiring", "topdown-mem-bound" };
	for (int i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}
