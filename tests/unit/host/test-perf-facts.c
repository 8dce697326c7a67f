/* SPDX-License-Identifier: MIT */
/*
 * The smaller kernel rules of the perf_event backend (host/perf-kernel.c,
 * host/perf-plan.c), each on a kernel tree written here at Linux's paths:
 *   - perf_event_paranoid is any int (proc_dointvec; Debian and Ubuntu
 *     use 3 and 4);
 *   - the NMI watchdog holds a counter only on the CPUs of
 *     watchdog_cpumask, and on none with watchdog 0 (kernel/watchdog.c);
 *   - CapEff counts as perfmon_capable() only in the initial user
 *     namespace (capable() asks init_user_ns);
 *   - a distribution kernel's upstream stable level from Ubuntu's
 *     /proc/version_signature or Debian's /proc/version; unknown when
 *     neither says it, and then both releases' tables apply;
 *   - the Haswell HT erratum workaround follows the boot (fixup_ht_bug:
 *     smt/control "notsupported" removes it), not SMT turned off later.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/detect-dump.h"
#include "host/perf-plan.h"
#include "tests/unit/lib/test.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void gone(const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	remove(path);
}

static bool tree_from(const char *flavour)
{
	char cmd[300];
	snprintf(root, sizeof(root), "/tmp/bt-perf-facts-XXXXXX");
	if (!mkdtemp(root))
		return false;
	snprintf(cmd, sizeof(cmd), "cp -r tests/data/sysfs/%s/. '%s'", flavour, root);
	return system(cmd) == 0;
}

static void tree_done(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

static bool read_tree(struct bt_perf_kernel *k)
{
	struct bt_diag d = { "" };
	bt_status st = bt_perf_kernel_read(root, k, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	return st == BT_OK;
}

TEST(paranoid_watchdog_mask_and_user_namespace)
{
	static struct bt_perf_kernel k;
	if (!tree_from("skx-6.6"))
		return;
	put("proc/sys/kernel/perf_event_paranoid", "4\n");
	put("proc/sys/kernel/watchdog_cpumask", "0-1,8\n");
	if (read_tree(&k)) {
		CHECK(k.paranoid_known && k.paranoid == 4);
		CHECK(bt_pk_watchdog_on(&k, 0) && bt_pk_watchdog_on(&k, 8) && !bt_pk_watchdog_on(&k, 2));
	}
	put("proc/sys/kernel/watchdog", "0\n");
	if (read_tree(&k))
		CHECK(!bt_pk_watchdog_on(&k, 0));
	/* CAP_PERFMON (38) in CapEff, in a user namespace, then in the initial one */
	put("proc/self/status", "Name:\tx\nCapEff:\t0000004000000000\n");
	put("proc/self/uid_map", "         0       1000          1\n");
	if (read_tree(&k))
		CHECK(k.cap_perfmon && k.init_userns == 0 && !bt_pk_perfmon_capable(&k));
	put("proc/self/uid_map", "         0          0 4294967295\n");
	if (read_tree(&k))
		CHECK(k.init_userns == 1 && bt_pk_perfmon_capable(&k));
	tree_done();
}

TEST(stable_level_of_distribution_kernels)
{
	static struct bt_perf_kernel k;
	static const struct bt_pk_backport fix[] = { { 12, 8 }, { 0, 0 } };
	if (!tree_from("lnl-6.12"))
		return;
	put("proc/sys/kernel/osrelease", "6.12.0-7-generic\n");
	put("proc/version_signature", "Ubuntu 6.12.0-7.7-generic 6.12.7\n");
	if (read_tree(&k))
		CHECK(k.ver_patch == 7 && bt_pk_has_change(&k, 6, 13, fix) == 0);
	put("proc/version_signature", "Ubuntu 6.12.0-9.9-generic 6.12.9\n");
	if (read_tree(&k))
		CHECK(k.ver_patch == 9 && bt_pk_has_change(&k, 6, 13, fix) == 1);
	gone("proc/version_signature");
	put("proc/version", "Linux version 6.12.0-1-amd64 (debian-kernel@lists.debian.org) #1 SMP "
			    "PREEMPT_DYNAMIC Debian 6.12.6-1 (2024-12-21)\n");
	if (read_tree(&k))
		CHECK(k.ver_patch == 6 && bt_pk_has_change(&k, 6, 13, fix) == 0);
	gone("proc/version");
	if (read_tree(&k))
		CHECK(k.ver_patch == -1 && bt_pk_has_change(&k, 6, 13, fix) == -1);
	put("proc/sys/kernel/osrelease", "6.13.0-rc4\n");
	if (read_tree(&k))
		CHECK(k.ver_patch == 0 && bt_pk_has_change(&k, 6, 13, fix) == 1);
	/* stable level unknown: both tables, so the OCR event one of them
	 * rejects is refused, naming both */
	put("proc/sys/kernel/osrelease", "6.12.0-7-generic\n");
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	struct bt_cpuid l0a;
	unsigned c;
	struct bt_diag d = { "" };
	if (read_tree(&k) && bt_detect_dump_cpu("tests/data/cpuid/lnl-subset.cpuid@0", &dd, &l0a, &c, &d) == BT_OK &&
	    bt_perf_target_init(&t, &k, &dd.ci, &l0a, c, &d) == BT_OK) {
		CHECK(t.tables.xr[0] && t.tables.xr[1]);
		struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
		int hits = 0;
		if (mp && bt_perf_plan_model(&t, "LNL-LNC", 0, false, mp, &d) == BT_OK)
			for (int i = 0; i < mp->n; i++)
				hits += strstr(mp->plan.ev[i].reason,
					       "intel_rwc_extra_regs (or the release before it)") != NULL;
		CHECK_MSG(hits > 0, "no OCR event refused with the stable level unknown");
		if (mp)
			bt_perf_model_plan_close(mp);
		free(mp);
	}
	tree_done();
}

TEST(haswell_ht_workaround_follows_the_boot)
{
	static struct bt_perf_kernel k;
	static struct bt_perf_target t;
	static struct bt_dump_decision dd;
	struct bt_cpuid l0a;
	unsigned c;
	struct bt_diag d = { "" };
	if (!tree_from("hsw-6.6") ||
	    bt_detect_dump_cpu("tests/data/cpuid/hsw-subset.cpuid@0", &dd, &l0a, &c, &d) != BT_OK)
		return;
	/* SMT turned off at run time: the workaround stays (fixup_ht_bug ran at boot) */
	put("sys/devices/system/cpu/smt/active", "0\n");
	put("sys/devices/system/cpu/smt/control", "off\n");
	CHECK(read_tree(&k) && bt_perf_target_init(&t, &k, &dd.ci, &l0a, c, &d) == BT_OK && t.excl_alone);
	/* one thread per core found at boot: no workaround */
	put("sys/devices/system/cpu/smt/control", "notsupported\n");
	CHECK(read_tree(&k) && bt_perf_target_init(&t, &k, &dd.ci, &l0a, c, &d) == BT_OK && !t.excl_alone);
	tree_done();
}
