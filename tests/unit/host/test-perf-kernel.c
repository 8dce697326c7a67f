/* SPDX-License-Identifier: MIT */
/*
 * The perf_event backend planned for the kernel's facts (host/perf-kernel.c,
 * host/perf-plan.c), checked against the kernel double written from Linux's
 * source (tests/unit/lib/perf-kernel-double.c; SIMULATED: no real kernel),
 * on the kernel trees of tests/data/sysfs/ and the CPUID subsets of
 * tests/data/cpuid/ (no ../shared needed):
 *   - the facts reader: values at Linux's paths, located errors;
 *   - each rule of the double fires on a group built to break it, so a
 *     plan it accepts was checked by rules that can fail;
 *   - every model's plan (levels 1-3 and full, SMT on and off) under each
 *     kernel flavour: every group opens and schedules (no error state, no
 *     EINVAL/EACCES/ENXIO, not inactive, counts what was asked) or its
 *     events were refused before counting, by name. The table is printed
 *     ("# table ...": tests/suite/77-perf-kernel-double.sh shows it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/detect-dump.h"
#include "base/array.h"
#include "arch/cpuid-dump.h"
#include "host/perf-plan.h"
#include "metrics/model.h"
#include "tests/unit/lib/perf-kernel-double.h"
#include "tests/unit/lib/test.h"

#define SYSFS "tests/data/sysfs/"
#define CPUID "tests/data/cpuid/"

static bool load_kernel(const char *flavour, struct bt_perf_kernel *k)
{
	char root[256];
	struct bt_diag d = { "" };
	snprintf(root, sizeof(root), SYSFS "%s", flavour);
	bt_status st = bt_perf_kernel_read(root, k, &d);
	if (st != BT_OK)
		bt_test_fail(__FILE__, __LINE__, "%s: %s", flavour, d.text);
	return st == BT_OK;
}

/* The double's machine: the CPU's raw CPUID leaves, read from the dump
 * here (not through the backend). */
static bool load_machine(const char *dump, unsigned cpu, const struct bt_perf_kernel *k,
			 struct kd_machine *m)
{
	char path[256];
	snprintf(path, sizeof(path), CPUID "%s", dump);
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	struct bt_cpuid_dump dd;
	struct bt_diag d = { "" };
	if (bt_cpuid_dump_parse(buf, n, &dd, &d) != BT_OK)
		return false;
	memset(m, 0, sizeof(*m));
	m->k = k;
	m->cpu = cpu;
	bool found = false;
	for (size_t g = 0; g < dd.n_groups; g++)
		for (size_t i = 0; i < dd.groups[g].n_cpus; i++) {
			const struct bt_cpuid_dump_group *G = &dd.groups[g];
			if (G->cpus[i] == 0)
				m->l0a_boot = bt_cpuid_dump_get(G, 0x0A, 0);
			if (G->cpus[i] != cpu)
				continue;
			found = true;
			struct bt_cpuid l0 = bt_cpuid_dump_get(G, 0, 0), l1 = bt_cpuid_dump_get(G, 1, 0);
			m->amd = l0.ebx == 0x68747541;           /* "Auth" */
			m->hypervisor = l1.ecx >> 31 & 1;
			m->l0a = bt_cpuid_dump_get(G, 0x0A, 0);
			m->l23 = bt_cpuid_dump_get(G, 0x23, 0);
			m->l23_1 = bt_cpuid_dump_get(G, 0x23, 1);
			m->e22 = bt_cpuid_dump_get(G, 0x80000022u, 0);
		}
	bt_cpuid_dump_free(&dd);
	return found;
}

static bool target_for(const char *flavour, const char *dump, unsigned cpu,
		       struct bt_perf_kernel *k, struct bt_perf_target *t, struct bt_dump_decision *dd)
{
	char spec[256];
	struct bt_cpuid l0a;
	struct bt_diag d = { "" };
	unsigned c;
	if (!load_kernel(flavour, k))
		return false;
	snprintf(spec, sizeof(spec), CPUID "%s@%u", dump, cpu);
	if (bt_detect_dump_cpu(spec, dd, &l0a, &c, &d) != BT_OK ||
	    bt_perf_target_init(t, k, &dd->ci, &l0a, c, &d) != BT_OK) {
		bt_test_fail(__FILE__, __LINE__, "%s on %s: %s", flavour, spec, d.text);
		return false;
	}
	return true;
}

TEST(facts_read_at_linux_paths)
{
	static struct bt_perf_kernel k;
	if (!load_kernel("adl-6.6", &k))
		return;
	CHECK_EQ_INT(k.n_pmus, 2);
	CHECK(k.hybrid);
	const struct bt_pk_pmu *core = bt_pk_pmu_named(&k, "cpu_core"), *atom = bt_pk_pmu_named(&k, "cpu_atom");
	CHECK(core && atom);
	if (!core || !atom)
		return;
	CHECK_EQ_INT(core->type, 4);
	CHECK_EQ_INT(atom->type, 10);
	CHECK(bt_pk_pmu_for_cpu(&k, 11) == core);
	CHECK(bt_pk_pmu_for_cpu(&k, 12) == atom);
	CHECK(bt_pk_pmu_for_cpu(&k, 20) == NULL);
	CHECK_STR(core->pmu_name, "alderlake_hybrid");
	CHECK(core->ev_slots && core->ev_td_mem_bound && !atom->ev_slots);
	/* format/event "config:0-7", umask 8-15, edge 18, pc 19, inv 23, cmask 24-31 */
	CHECK_EQ_U64(atom->mask[0], 0xFF8CFFFFull);
	CHECK_EQ_U64(bt_pk_format_named(core, "frontend")->mask, 0xFFFFFFull);
	CHECK(bt_pk_format_named(atom, "frontend") == NULL);
	CHECK(bt_pk_format_named(core, "any") == NULL);   /* AnyThread deprecated (v5) */
	CHECK_EQ_INT(k.nmi_watchdog, 1);
	CHECK_EQ_INT(k.paranoid, 2);
	CHECK_EQ_INT(k.smt_active, 1);
	CHECK(k.caps_known && !bt_pk_perfmon_capable(&k));
	CHECK_STR(k.osrelease, "6.6.0-32-amd64");
	CHECK(bt_pk_version_at_least(&k, 6, 6) && !bt_pk_version_at_least(&k, 6, 11));
	if (!load_kernel("lnl-6.12", &k))
		return;
	core = bt_pk_pmu_named(&k, "cpu_core");
	/* umask2_show: "config:8-15,40-47"; eq config:36 */
	CHECK(core && bt_pk_format_named(core, "umask")->mask == (0xFF00ull | 0xFFull << 40));
	CHECK(core && bt_pk_format_named(core, "eq")->mask == 1ull << 36);
	if (!load_kernel("genoa-6.6", &k))
		return;
	/* amd/core.c: event config:0-7,32-35, umask, edge, inv, cmask (no pc) */
	CHECK_EQ_U64(bt_pk_pmu_named(&k, "cpu")->mask[0], 0xFF84FFFFull | 0xFull << 32);
}

static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

TEST(malformed_facts_are_located_errors)
{
	char dir[] = "/tmp/bt-perf-kernel-XXXXXX";
	static struct bt_perf_kernel k;
	struct bt_diag d = { "" };
	uint8_t w;
	uint64_t m;
	int col;
	const char *what;

	CHECK(bt_pk_parse_format("config:0-7,32-35\n", &w, &m, &col, &what) && w == 0 &&
	      m == (0xFFull | 0xFull << 32));
	CHECK(bt_pk_parse_format("config1:0-63", &w, &m, &col, &what) && w == 1 && m == ~0ull);
	CHECK(!bt_pk_parse_format("config:9-3", &w, &m, &col, &what) && col == 10);
	CHECK(!bt_pk_parse_format("config:64", &w, &m, &col, &what) && col == 8);
	CHECK(!bt_pk_parse_format("conf:1", &w, &m, &col, &what) && col == 1);
	CHECK(!bt_pk_parse_format("config:1,1", &w, &m, &col, &what));
	CHECK(mkdtemp(dir) != NULL);
	put_file(dir, "sys/bus/event_source/devices/cpu/type", "4x\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "/sys/bus/event_source/devices/cpu/type:1:2: unexpected 'x'"), "%s", d.text);
	put_file(dir, "sys/bus/event_source/devices/cpu/type", "4\n");
	put_file(dir, "sys/bus/event_source/devices/cpu/format/umask", "config:8-15,40-4\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "format/umask:1:16: expected a bit range"), "%s", d.text);
	put_file(dir, "sys/bus/event_source/devices/cpu/format/umask", "config:8-15\n");
	put_file(dir, "proc/sys/kernel/perf_event_paranoid", "2\n3\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "perf_event_paranoid:2:1: more than one line"), "%s", d.text);
	put_file(dir, "proc/sys/kernel/perf_event_paranoid", "-1\n");
	put_file(dir, "proc/self/status", "Name:\tx\nCapEff:\t00000040000000zz\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "proc/self/status:2:23: CapEff is not 16 hex digits"), "%s", d.text);
	put_file(dir, "proc/self/status", "Name:\tx\nCapEff:\t0000004000000000\n");
	put_file(dir, "sys/bus/event_source/devices/cpu_atom/type", "10\n");
	put_file(dir, "sys/bus/event_source/devices/cpu_atom/cpus", "4-2\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "cpu_atom/cpus:1:4: expected a CPU range"), "%s", d.text);
	put_file(dir, "sys/bus/event_source/devices/cpu_atom/cpus", "2-4,7\n");
	CHECK(bt_perf_kernel_read(dir, &k, &d) == BT_OK);
	CHECK(k.paranoid == -1 && k.cap_perfmon && bt_pk_perfmon_capable(&k));
	CHECK(bt_pk_pmu_for_cpu(&k, 7) && bt_pk_pmu_for_cpu(&k, 5) == NULL);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

/* One member by hand, as perf-attr.c would make it. */
static void member(struct bt_perf_member *m, uint32_t type, uint64_t config, bool leader, const char *what)
{
	memset(m, 0, sizeof(*m));
	m->attr.size = sizeof(m->attr);
	m->attr.type = type;
	m->attr.config = config;
	m->attr.exclude_kernel = 1;
	m->attr.exclude_hv = 1;
	m->attr.pinned = leader;
	m->attr.disabled = leader;
	snprintf(m->what, sizeof(m->what), "%s", what);
}

TEST(each_rule_of_the_double_fires)
{
	static struct bt_perf_kernel k;
	struct kd_machine m;
	struct bt_perf_member g[12];
	char why[256];

	/* SKX, watchdog on fixed counter 1: fixed 0/2 and 4 general events
	 * fit; a fifth general event (the task's cycles) does not. */
	CHECK(load_kernel("skx-6.6", &k) && load_machine("skx-subset.cpuid", 0, &k, &m));
	member(&g[0], 4, 0x00c0, true, "inst");
	member(&g[1], 4, 0x0300, false, "ref");
	member(&g[2], 4, 0x01c2, false, "a");
	member(&g[3], 4, 0x01c4, false, "b");
	member(&g[4], 4, 0x01c5, false, "c");
	member(&g[5], 4, 0x010e, false, "d");
	CHECK_EQ_INT(kd_open_group(&m, g, 6, why, sizeof(why)), KD_OK);
	member(&g[6], 4, 0x003c, false, "cycles");
	CHECK_EQ_INT(kd_open_group(&m, g, 7, why, sizeof(why)), KD_ERROR_STATE);
	/* without the watchdog, cycles takes fixed counter 1 */
	k.nmi_watchdog = 0;
	CHECK_EQ_INT(kd_open_group(&m, g, 7, why, sizeof(why)), KD_OK);
	k.nmi_watchdog = 1;
	/* 0x0300 is a pseudo-encoding: fixed counter 2 only; two of them cannot be */
	member(&g[2], 4, 0x0300, false, "ref2");
	CHECK_EQ_INT(kd_open_group(&m, g, 3, why, sizeof(why)), KD_EINVAL);
	/* AnyThread: EACCES at paranoid 2, fine with CAP_PERFMON */
	member(&g[1], 4, 0x0020003c, false, "any");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EACCES);
	k.cap_perfmon = true;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_OK);
	k.cap_perfmon = false;
	/* ring 0 only: exclude_kernel clear needs paranoid <= 1; all rings excluded counts nothing */
	member(&g[1], 4, 0x01c4, false, "sup");
	g[1].attr.exclude_kernel = 0;
	g[1].attr.exclude_user = 1;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EACCES);
	g[1].attr.exclude_kernel = 1;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_WRONG);
	/* config1 on an event without an extra register is ignored; OCR's beyond its mask is EINVAL */
	member(&g[1], 4, 0x01c4, false, "c1");
	g[1].attr.config1 = 0x10;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_WRONG);
	member(&g[1], 4, 0x01b7, false, "ocr");
	g[1].attr.config1 = 1ull << 40;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EINVAL);
	g[1].attr.config1 = 0x10001;
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_OK);
	/* under a hypervisor the extra MSR is not writable */
	CHECK(load_kernel("kvm-skx-6.6", &k) && load_machine("kvm-skx-guest.cpuid", 0, &k, &m));
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_ENXIO);

	/* HSW with SMT on: an exclusive D1H halves 4 general counters to 2 */
	CHECK(load_kernel("hsw-6.6", &k) && load_machine("hsw-subset.cpuid", 0, &k, &m));
	member(&g[0], 4, 0x00c0, true, "inst");
	member(&g[1], 4, 0x01d1, false, "excl");
	member(&g[2], 4, 0x01c4, false, "b");
	CHECK_EQ_INT(kd_open_group(&m, g, 3, why, sizeof(why)), KD_OK);
	member(&g[3], 4, 0x01c5, false, "c");
	CHECK_EQ_INT(kd_open_group(&m, g, 4, why, sizeof(why)), KD_ERROR_STATE);
	CHECK_MSG(strstr(why, "halved"), "%s", why);
	member(&g[1], 4, 0x01c2, false, "not excl");
	CHECK_EQ_INT(kd_open_group(&m, g, 4, why, sizeof(why)), KD_OK);
	/* L1D_PEND_MISS.PENDING is counter 2 only: two of them cannot be */
	member(&g[1], 4, 0x0148, false, "pend");
	member(&g[2], 4, 0x0148 | 1ull << 24, false, "pend:c1");
	CHECK_EQ_INT(kd_open_group(&m, g, 3, why, sizeof(why)), KD_EINVAL);

	/* ADL: a raw (type 4) group on an E-core never runs; cpu_atom's type does */
	CHECK(load_kernel("adl-6.6", &k) && load_machine("adl-subset.cpuid", 12, &k, &m));
	member(&g[0], 4, 0x00c0, true, "inst");
	CHECK_EQ_INT(kd_open_group(&m, g, 1, why, sizeof(why)), KD_INACTIVE);
	member(&g[0], 10, 0x00c0, true, "inst");
	CHECK_EQ_INT(kd_open_group(&m, g, 1, why, sizeof(why)), KD_OK);
	member(&g[1], 4, 0x01c4, false, "mixed");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EINVAL);
	/* the P-core's slots and metric pseudo-events; metric without slots leader */
	CHECK(load_machine("adl-subset.cpuid", 0, &k, &m));
	member(&g[0], 4, 0x0400, true, "slots");
	member(&g[1], 4, 0x8000, false, "retiring");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_OK);
	member(&g[0], 4, 0x00c0, true, "inst");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EINVAL);

	/* LNL on 6.6: umask2 and eq dropped silently (WRONG), no slots */
	CHECK(load_kernel("lnl-6.6", &k) && load_machine("lnl-subset.cpuid", 0, &k, &m));
	member(&g[0], 4, 0x00c0, true, "inst");
	member(&g[1], 4, 0x01d1 | 1ull << 40, false, "umask2");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_WRONG);
	member(&g[1], 4, 0x01a8 | 1ull << 36 | 8ull << 24, false, "eq");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_WRONG);
	member(&g[1], 4, 0x0400, false, "slots");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_EINVAL);
	/* ... kept on 6.12 */
	CHECK(load_kernel("lnl-6.12", &k) && load_machine("lnl-subset.cpuid", 0, &k, &m));
	member(&g[1], 4, 0x01d1 | 1ull << 40, false, "umask2");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_OK);
	/* Skymont's fixed counter 5 (0x019c) on 6.12's cpu_atom */
	CHECK(load_machine("lnl-subset.cpuid", 4, &k, &m));
	member(&g[0], 10, 0x00c0, true, "inst");
	member(&g[1], 10, 0x019c, false, "fe bound");
	CHECK_EQ_INT(kd_open_group(&m, g, 2, why, sizeof(why)), KD_OK);

	/* Genoa: 6 counters, one the watchdog's */
	CHECK(load_kernel("genoa-6.6", &k) && load_machine("genoa-subset.cpuid", 0, &k, &m));
	for (int i = 0; i < 6; i++)
		member(&g[i], 4, 0xC0 + (uint64_t)i, i == 0, "e");
	CHECK_EQ_INT(kd_open_group(&m, g, 5, why, sizeof(why)), KD_OK);
	CHECK_EQ_INT(kd_open_group(&m, g, 6, why, sizeof(why)), KD_ERROR_STATE);
}

TEST(target_rules)
{
	static struct bt_perf_kernel k;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;

	/* SKX: the watchdog's fixed counter 1 goes, 4 general counters stay */
	if (!target_for("skx-6.6", "skx-subset.cpuid", 0, &k, &t, &dd))
		return;
	CHECK_EQ_U64(t.caps.fixed_mask, 0x5);
	CHECK_EQ_U64(t.caps.gp_mask, 0xF);
	CHECK(t.wd_fixed1 && t.attr.type == 4);
	/* Genoa: one general counter less, no SMI counter */
	if (!target_for("genoa-6.6", "genoa-subset.cpuid", 0, &k, &t, &dd))
		return;
	CHECK_EQ_U64(t.caps.gp_mask, 0x1F);
	CHECK(!t.caps.amd_smi_rx && t.wd_gp);
	/* ADL E-core: cpu_atom's type */
	if (!target_for("adl-6.6", "adl-subset.cpuid", 13, &k, &t, &dd))
		return;
	CHECK_EQ_INT(t.attr.type, 10);
	CHECK_STR(t.pmu->name, "cpu_atom");
	/* ... the P-core: slots and 8 PERF_METRICS fields */
	if (!target_for("adl-6.6", "adl-subset.cpuid", 1, &k, &t, &dd))
		return;
	CHECK(t.caps.perf_metrics && t.caps.perf_metrics_fields == 8 && (t.caps.fixed_mask & 8));
	/* HSW with SMT on: D0H-D3H planned alone */
	if (!target_for("hsw-6.6", "hsw-subset.cpuid", 0, &k, &t, &dd))
		return;
	CHECK(t.excl_alone);
	/* LNL on 6.6: the generic PMU's 8 general counters, fixed 0-2 (1 the watchdog's) */
	if (!target_for("lnl-6.6", "lnl-subset.cpuid", 0, &k, &t, &dd))
		return;
	CHECK(t.generic);
	CHECK_EQ_U64(t.caps.gp_mask, 0xFF);
	CHECK_EQ_U64(t.caps.fixed_mask, 0x5);
	/* LNL 6.12 E-core: Skymont's fixed 4-6 with Linux's encodings */
	if (!target_for("lnl-6.12", "lnl-subset.cpuid", 5, &k, &t, &dd))
		return;
	CHECK_EQ_U64(t.caps.fixed_mask, 0x75);
	CHECK_EQ_U64(t.attr.fixed_config[5], 0x019c);
	/* CPUID read on a P-core, pinned to an E-core: refused */
	{
		struct bt_cpu_info p = dd.ci;
		struct bt_diag d = { "" };
		struct bt_cpuid l0a = { 0, 0, 0, 0 };
		p.core_type = BT_CORE_TYPE_CORE;
		CHECK(bt_perf_target_init(&t, &k, &p, &l0a, 5, &d) == BT_ERR_INVALID);
		CHECK_MSG(strstr(d.text, "CPUID was read on another CPU"), "%s", d.text);
	}
}

/* The refusals the LNL 6.6 plan must have, by name and reason. */
TEST(lnl_on_6_6_refuses_umask2_and_eq_by_name)
{
	static struct bt_perf_kernel k;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	struct bt_diag d = { "" };
	if (!target_for("lnl-6.6", "lnl-subset.cpuid", 0, &k, &t, &dd))
		return;
	struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
	CHECK(mp && bt_perf_plan_model(&t, "LNL-LNC", 0, false, mp, &d) == BT_OK);
	int umask2 = 0, eq = 0;
	for (int i = 0; mp && i < mp->n; i++) {
		if (mp->plan.ev[i].place != BT_PLACE_UNMEASURABLE)
			continue;
		const struct bt_event *e = mp->planned[i];
		if (e->umask_ext) {
			umask2++;
			CHECK_MSG(strstr(mp->plan.ev[i].reason, "umask2 (config:40-47)"), "%s: %s", e->name,
				  mp->plan.ev[i].reason);
		}
		if (e->flags & BT_EVF_EQ) {
			eq++;
			CHECK_MSG(strstr(mp->plan.ev[i].reason, "eq (config:36)"), "%s: %s", e->name,
				  mp->plan.ev[i].reason);
		}
	}
	/* every umask2 / eq event of the model is refused (none is planned) */
	for (int i = 0; mp && i < mp->n; i++)
		if (mp->planned[i]->umask_ext || (mp->planned[i]->flags & BT_EVF_EQ))
			CHECK_MSG(mp->plan.ev[i].place == BT_PLACE_UNMEASURABLE, "%s planned",
				  mp->planned[i]->name);
	CHECK(umask2 > 0 && eq > 0);
	if (mp)
		bt_perf_model_plan_close(mp);
	free(mp);
}

static const struct flavour {
	const char *tree, *dump;
	unsigned cpus[3];
	int n_cpus;
	bool kvm_filter;   /* the host denies UOPS_ISSUED.ANY and RETIRE_SLOTS */
} flavours[] = {
	{ "skx-6.6", "skx-subset.cpuid", { 0 }, 1, false },
	{ "hsw-6.6", "hsw-subset.cpuid", { 0 }, 1, false },
	{ "adl-6.6", "adl-subset.cpuid", { 0, 12 }, 2, false },
	{ "lnl-6.6", "lnl-subset.cpuid", { 0, 4 }, 2, false },
	{ "lnl-6.11", "lnl-subset.cpuid", { 0, 4 }, 2, false },
	{ "lnl-6.12.7", "lnl-subset.cpuid", { 0, 4 }, 2, false },
	{ "lnl-6.12", "lnl-subset.cpuid", { 0, 4 }, 2, false },
	{ "lnl-6.14", "lnl-subset.cpuid", { 0, 4 }, 2, false },
	{ "arlh-6.13", "arlh-subset.cpuid", { 0, 2, 14 }, 3, false },
	{ "mtl-6.3", "mtl-subset.cpuid", { 0, 2 }, 2, false },
	{ "mtl-6.8", "mtl-subset.cpuid", { 0, 2 }, 2, false },
	{ "genoa-6.6", "genoa-subset.cpuid", { 0 }, 1, false },
	{ "kvm-skx-6.6", "kvm-skx-guest.cpuid", { 0 }, 1, false },
	{ "kvm-skx-6.6", "kvm-skx-guest.cpuid", { 0 }, 1, true },
};
static const uint16_t table_deny[] = { 0x010e, 0x02c2 };

/* The planner's question to a running kernel under a hypervisor (the
 * event alone, opened and closed), answered by the double. */
static int kd_try(void *ctx, struct perf_event_attr *a, uint64_t *count)
{
	struct bt_perf_member one = { .attr = *a };
	char why[300];
	snprintf(one.what, sizeof(one.what), "tried alone");
	one.attr.pinned = 1;
	*count = 0;
	switch (kd_open_group(ctx, &one, 1, why, sizeof(why))) {
	case KD_OK:
		*count = kd_counts_on_loop(ctx, a) ? BT_PERF_TRY_LOOP : 0;
		return 0;
	case KD_ENXIO:
		return ENXIO;
	case KD_EACCES:
		return EACCES;
	case KD_ENOENT:
		return ENOENT;
	default:
		return EINVAL;
	}
}

TEST(every_plan_opens_under_every_kernel_flavour)
{
	static struct bt_perf_kernel k, k2;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	static struct bt_perf_member mem[BT_PERF_MAX_MEMBERS];
	struct kd_machine m;
	char why[300];
	int total_errors = 0;

	printf("# table %-12s %-8s %-4s %7s %8s %7s  %s\n", "flavour", "model", "cpu", "groups",
	       "refused", "errors", "(levels 1,2,3,full x SMT on,off)");
	for (size_t f = 0; f < BT_ARRAY_SIZE(flavours); f++) {
		for (int c = 0; c < flavours[f].n_cpus; c++) {
			unsigned cpu = flavours[f].cpus[c];
			if (!target_for(flavours[f].tree, flavours[f].dump, cpu, &k, &t, &dd))
				continue;
			if (!load_kernel(flavours[f].tree, &k2) || !load_machine(flavours[f].dump, cpu, &k2, &m)) {
				bt_test_fail(__FILE__, __LINE__, "%s: no machine", flavours[f].tree);
				continue;
			}
			if (flavours[f].kvm_filter) {
				m.kvm_denied = table_deny;
				m.n_kvm_denied = 2;
			}
			/* a guest asks its kernel (the double) about extra MSRs */
			if (m.hypervisor) {
				t.try_open = kd_try;
				t.try_ctx = &m;
			}
			int groups = 0, refused = 0, errors = 0;
			static const unsigned levels[4] = { 1, 2, 3, 0 };
			for (int smt = 1; smt >= 0; smt--)
				for (int l = 0; l < 4; l++) {
					struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
					struct bt_diag d = { "" };
					if (!mp)
						continue;
					bt_status st = bt_perf_plan_model(&t, dd.model, levels[l], smt, mp, &d);
					if (st != BT_OK && mp->model && levels[l] > bt_model_max_level(mp->model)) {
						bt_perf_model_plan_close(mp);
						free(mp);
						continue;   /* a model with fewer levels */
					}
					if (st != BT_OK) {
						errors++;
						printf("# %s %s level %u SMT %d: no valid plan: %s\n", flavours[f].tree,
						       dd.model, levels[l], smt, d.text);
					}
					groups += mp->plan.n_groups;
					refused += mp->plan.n_unmeasurable;
					for (int g = 0; st == BT_OK && g < mp->plan.n_groups; g++) {
						int n = 0;
						if (bt_perf_target_group(&t, &mp->plan, g, mp->planned, mem, &n, &d) != BT_OK) {
							errors++;
							printf("# %s %s group %d: %s\n", flavours[f].tree, dd.model, g, d.text);
							continue;
						}
						enum kd_result r = kd_open_group(&m, mem, n, why, sizeof(why));
						/* an event the host filters out reads 0 */
						for (int i = 0; r == KD_OK && i < n; i++)
							if (!kd_counts_on_loop(&m, &mem[i].attr)) {
								r = KD_WRONG;
								snprintf(why, sizeof(why), "%s reads 0: the host's "
									 "event filter denies it", mem[i].what);
							}
						if (r != KD_OK) {
							errors++;
							printf("# %s %s level %u SMT %d group %d: %s: %s\n#   [", flavours[f].tree,
							       dd.model, levels[l], smt, g, kd_result_name(r), why);
							for (int i = 0; i < n; i++)
								printf("%s%s=0x%llx", i ? ", " : "", mem[i].what,
								       (unsigned long long)mem[i].attr.config);
							printf("]\n");
						}
					}
					bt_perf_model_plan_close(mp);
					free(mp);
				}
			printf("# table %-12s %-8s %-4u %7d %8d %7d\n", flavours[f].kvm_filter ? "kvm-filter" :
			       flavours[f].tree, dd.model, cpu, groups, refused, errors);
			total_errors += errors;
		}
	}
	CHECK_EQ_INT(total_errors, 0);
}

/* SMT on, Skylake-SP: every group of the SMT-on plan carries the sibling
 * probe (ONE_THREAD_ACTIVE 0x023C, the event table's 0x3C umask 2; REF_XCLK
 * 0x013C, umask 1, is derived from fixed counter 2 and counted once, in
 * one group, to check the ratio) and opens and schedules pinned with the
 * NMI watchdog under the double; SMT off has no probe. Haswell with the HT
 * erratum workaround (exclusive D0H-D3H events, two general counters in
 * their groups: Linux intel_get_excl_constraints) has room for it too:
 * the exclusive event and ONE_THREAD_ACTIVE. */
static void probe_groups(const char *flavour, const char *dump, const char *model, int smt,
			 bool want_xclk_once)
{
	static struct bt_perf_kernel k, k2;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	static struct bt_perf_member mem[BT_PERF_MAX_MEMBERS];
	struct kd_machine m;
	char why[300];

	if (!target_for(flavour, dump, 0, &k, &t, &dd) || !load_kernel(flavour, &k2) ||
	    !load_machine(dump, 0, &k2, &m))
		return;
	struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
	struct bt_diag d = { "" };
	CHECK(mp && bt_perf_plan_model(&t, model, 0, smt, mp, &d) == BT_OK);
	CHECK_MSG(mp && mp->plan.has_sibling_gp == (smt == 1), "%s SMT %d: probe %d (%s)", model,
		  smt, mp ? mp->plan.has_sibling_gp : -1,
		  t.caps.sibling_probe_off ? t.caps.sibling_probe_off : "");
	int with_probe = 0, xclk_groups = 0;
	for (int g = 0; mp && g < mp->plan.n_groups; g++) {
		int n = 0, ota = 0, xclk = 0;
		CHECK(bt_perf_target_group(&t, &mp->plan, g, mp->planned, mem, &n, &d) == BT_OK);
		for (int i = 0; i < n; i++) {
			ota += mem[i].role == BT_PERF_GP && mem[i].attr.config == 0x023C;
			xclk += mem[i].role == BT_PERF_GP && mem[i].attr.config == 0x013C;
		}
		with_probe += ota == 1;
		xclk_groups += xclk;
		enum kd_result r = kd_open_group(&m, mem, n, why, sizeof(why));
		CHECK_MSG(r == KD_OK, "%s SMT %d group %d: %s: %s", model, smt, g, kd_result_name(r),
			  why);
	}
	if (mp) {
		CHECK_EQ_INT(with_probe, smt ? mp->plan.n_groups : 0);
		CHECK_EQ_INT(xclk_groups, smt && want_xclk_once ? 1 : 0);
		bt_perf_model_plan_close(mp);
	}
	free(mp);
}

TEST(smt_on_groups_carry_the_sibling_probe_where_it_fits)
{
	/* neither dump's part enumerates its reference clock to the perf
	 * backend (skx-subset has no leaf 15H; Haswell's is MSR_PLATFORM_INFO,
	 * not readable there): REF_XCLK is counted once */
	probe_groups("skx-6.6", "skx-subset.cpuid", "SKX", 1, true);
	probe_groups("skx-6.6", "skx-subset.cpuid", "SKX", 0, false);
	probe_groups("hsw-6.6", "hsw-subset.cpuid", "HSW", 1, true);
}

/* The double can fail: plans made the old way (CPUID's counters, the raw
 * PMU type, nothing refused) break under it as Linux would break them. */
static int errors_of(struct bt_perf_target *t, const struct kd_machine *m, const char *model,
		     unsigned level, bool smt, enum kd_result *first)
{
	static struct bt_perf_member mem[BT_PERF_MAX_MEMBERS];
	struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
	struct bt_diag d = { "" };
	char why[300];
	int errors = 0;
	*first = KD_OK;
	if (!mp)
		return -1;
	if (bt_perf_plan_model(t, model, level, smt, mp, &d) == BT_OK)
		for (int g = 0; g < mp->plan.n_groups; g++) {
			int n = 0;
			if (bt_perf_target_group(t, &mp->plan, g, mp->planned, mem, &n, &d) != BT_OK)
				continue;
			enum kd_result r = kd_open_group(m, mem, n, why, sizeof(why));
			if (r != KD_OK && !errors++)
				*first = r;
		}
	else
		errors = -1;
	bt_perf_model_plan_close(mp);
	free(mp);
	return errors;
}

TEST(old_plans_fail_under_the_double)
{
	static struct bt_perf_kernel k, k2;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	struct kd_machine m;
	enum kd_result r;

	/* SKX planned for CPUID's fixed counter 1: the watchdog holds it */
	if (!target_for("skx-6.6", "skx-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("skx-6.6", &k2) ||
	    !load_machine("skx-subset.cpuid", 0, &k2, &m))
		return;
	t.caps.fixed_mask = t.cpuid_caps.fixed_mask;
	t.wd_fixed1 = false;
	CHECK(errors_of(&t, &m, "SKX", 3, false, &r) > 0 && r == KD_ERROR_STATE);
	/* ADL E-core opened as PERF_TYPE_RAW: the cpu_core PMU never runs there */
	if (!target_for("adl-6.6", "adl-subset.cpuid", 12, &k, &t, &dd) || !load_kernel("adl-6.6", &k2) ||
	    !load_machine("adl-subset.cpuid", 12, &k2, &m))
		return;
	t.attr.type = 0;
	CHECK(errors_of(&t, &m, "ADL-GRT", 1, false, &r) > 0 && r == KD_INACTIVE);
	/* LNL on 6.6 with nothing refused: umask2/eq/config1 events count something else */
	if (!target_for("lnl-6.6", "lnl-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("lnl-6.6", &k2) ||
	    !load_machine("lnl-subset.cpuid", 0, &k2, &m))
		return;
	t.filter.refuse = NULL;
	CHECK(errors_of(&t, &m, "LNL-LNC", 0, false, &r) > 0 && r == KD_WRONG);
	/* HSW with SMT on, exclusive events not alone: error state */
	if (!target_for("hsw-6.6", "hsw-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("hsw-6.6", &k2) ||
	    !load_machine("hsw-subset.cpuid", 0, &k2, &m))
		return;
	t.excl_alone = false;
	CHECK(errors_of(&t, &m, "HSW", 0, false, &r) > 0 && r == KD_ERROR_STATE);
	/* Genoa with the watchdog's counter planned */
	if (!target_for("genoa-6.6", "genoa-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("genoa-6.6", &k2) ||
	    !load_machine("genoa-subset.cpuid", 0, &k2, &m))
		return;
	t.caps.gp_mask = t.cpuid_caps.gp_mask;
	t.caps.num_gp = t.cpuid_caps.num_gp;
	CHECK(errors_of(&t, &m, "ZEN4", 0, false, &r) > 0 && r == KD_ERROR_STATE);
}

/* Each release's extra-register tables, by name: an event the running
 * release would reject (config1 outside the entry's valid_mask: EINVAL) or
 * count as another event (no entry: config1 ignored) is refused with the
 * table's name; the release after the fix plans it. Printed as "# refused
 * ..." for step 77. */
static bool hv_msrs;   /* the guest's hypervisor passes the extra MSRs through */
static const uint16_t *kvm_deny;   /* ... and denies these events */
static int n_kvm_deny;

static int refused_with(const char *flavour, const char *dump, unsigned cpu, const char *model,
			const char *needle)
{
	static struct bt_perf_kernel k, k2;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	static struct kd_machine m;
	struct bt_diag d = { "" };
	int hits = 0;
	if (!target_for(flavour, dump, cpu, &k, &t, &dd) || !load_kernel(flavour, &k2) ||
	    !load_machine(dump, cpu, &k2, &m))
		return -1;
	m.hv_passes_msrs = hv_msrs;
	m.kvm_denied = kvm_deny;
	m.n_kvm_denied = n_kvm_deny;
	if (m.hypervisor) {
		t.try_open = kd_try;
		t.try_ctx = &m;
	}
	struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
	if (!mp || bt_perf_plan_model(&t, model, 0, false, mp, &d) != BT_OK) {
		free(mp);
		return -1;
	}
	for (int i = 0; i < mp->n; i++) {
		const char *why = mp->plan.ev[i].reason;
		if (mp->plan.ev[i].place != BT_PLACE_UNMEASURABLE || !why || !strstr(why, needle))
			continue;
		if (hits++ < 3)
			printf("# refused %-10s %s (config1 0x%llx): %s\n", flavour, mp->planned[i]->name,
			       (unsigned long long)mp->planned[i]->msr_value, why);
	}
	printf("# refused %-10s %d events of %s by \"%s\"\n", flavour, hits, model, needle);
	bt_perf_model_plan_close(mp);
	free(mp);
	return hits;
}

TEST(release_tables_refuse_by_name_what_the_kernel_rejects)
{
	static const char mask[] = "outside the valid mask 0x3fffffffff";
	CHECK(refused_with("lnl-6.11", "lnl-subset.cpuid", 0, "LNL-LNC", mask) > 0);
	CHECK(refused_with("lnl-6.12.7", "lnl-subset.cpuid", 0, "LNL-LNC", mask) > 0);
	CHECK_EQ_INT(refused_with("lnl-6.12", "lnl-subset.cpuid", 0, "LNL-LNC", "valid mask"), 0);
	CHECK_EQ_INT(refused_with("arlh-6.13", "arlh-subset.cpuid", 0, "ARL-LNC", "valid mask"), 0);
	CHECK(refused_with("mtl-6.3", "mtl-subset.cpuid", 0, "MTL-RWC", "has no entry for event 0x03c6") > 0);
	CHECK_EQ_INT(refused_with("mtl-6.8", "mtl-subset.cpuid", 0, "MTL-RWC", "has no entry"), 0);
	/* a guest: tried alone, refused on the kernel's own answer */
	CHECK(refused_with("kvm-skx-6.6", "kvm-skx-guest.cpuid", 0, "SKX", "the kernel answered ENXIO") > 0);
	/* ... and planned where the hypervisor lets the MSRs through */
	hv_msrs = true;
	CHECK_EQ_INT(refused_with("kvm-skx-6.6", "kvm-skx-guest.cpuid", 0, "SKX", "needs MSR"), 0);
	hv_msrs = false;
	/* A guest whose host filters events out (KVM_SET_PMU_EVENT_FILTER,
	 * deny UOPS_ISSUED.ANY and UOPS_RETIRED.RETIRE_SLOTS): they open and
	 * read 0; the known loop finds them and names the filter */
	static const uint16_t deny[] = { 0x010e, 0x02c2 };
	kvm_deny = deny;
	n_kvm_deny = 2;
	CHECK_EQ_INT(refused_with("kvm-skx-6.6", "kvm-skx-guest.cpuid", 0, "SKX", "reads 0 over a known loop"), 2);
	kvm_deny = NULL;
	n_kvm_deny = 0;
	CHECK_EQ_INT(refused_with("kvm-skx-6.6", "kvm-skx-guest.cpuid", 0, "SKX", "reads 0 over a known loop"), 0);
}

/* The double can fail here too: the fixed release's tables on the release
 * before the fix are plans Linux breaks (EINVAL from the valid_mask, or
 * config1 ignored). */
TEST(the_wrong_release_tables_fail_under_the_double)
{
	static struct bt_perf_kernel k, k2, later;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	struct kd_machine m;
	enum kd_result r;

	if (!target_for("lnl-6.11", "lnl-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("lnl-6.11", &k2) ||
	    !load_machine("lnl-subset.cpuid", 0, &k2, &m) || !load_kernel("lnl-6.12", &later))
		return;
	bt_pk_tables_for(&later, t.pmu, &t.tables);
	CHECK(errors_of(&t, &m, "LNL-LNC", 0, false, &r) > 0 && r == KD_EINVAL);
	if (!target_for("mtl-6.3", "mtl-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("mtl-6.3", &k2) ||
	    !load_machine("mtl-subset.cpuid", 0, &k2, &m) || !load_kernel("mtl-6.8", &later))
		return;
	bt_pk_tables_for(&later, t.pmu, &t.tables);
	CHECK(errors_of(&t, &m, "MTL-RWC", 0, false, &r) > 0 && r == KD_WRONG);
	/* Lion Cove before 782cffeec9ad planned with its later constraints:
	 * event selects below 0x90 on counters 4-9 fail validate_group. */
	if (!target_for("lnl-6.12", "lnl-subset.cpuid", 0, &k, &t, &dd) || !load_kernel("lnl-6.12", &k2) ||
	    !load_machine("lnl-subset.cpuid", 0, &k2, &m) || !load_kernel("lnl-6.14", &later))
		return;
	bt_pk_tables_for(&later, t.pmu, &t.tables);
	CHECK(errors_of(&t, &m, "LNL-LNC", 0, false, &r) > 0);
}
