/* SPDX-License-Identifier: MIT */
/*
 * What baretop does on a machine of many CPUs, on the machine double
 * (host/machine-double.h): one test per defect of the many-CPU review, each
 * on a machine that shows that defect alone (the other knobs forgiving:
 * pi=forgiving lets non-blocking MP calls through as OVMF does, a 32 KiB AP
 * stack as OVMF's), with the expectation taken from the PI spec, EDK2's
 * MpInitLib and the SDM, not from baretop's output.
 */
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "base/array.h"
#include "host/mp-double.h"
#include "synth/sim-run.h"
#include "tests/unit/lib/machine-run.h"
#include "tests/unit/lib/test.h"

#define QUICK "--quick --reps 1 --warmups 0"

static bool ran(const struct bt_json *o)
{
	return o && strcmp(md_str(o, "state", NULL), "ran") == 0;
}

/* No AP ran past its firmware stack, and no PI rule was broken. */
static void check_firmware_rules(struct md_run *r)
{
	char v[1200];

	for (uint32_t c = 0; c < bt_md_cpu_count(r->md); c++) {
		struct bt_mpd_ap_record rec;
		bt_mpd_record(bt_md_mp(r->md), c, &rec);
		CHECK_MSG(rec.overflows == 0, "CPU %u ran past its %u-byte AP stack: %s", c,
			  bt_mpd_config(bt_md_mp(r->md))->ap_stack, rec.last);
	}
	CHECK_MSG(bt_mpd_violations(bt_md_mp(r->md), v, sizeof(v)) == 0, "PI rules broken:\n%s", v);
}

/*
 * 1. A counted workload on an AP of firmware with 4 KiB AP stacks (Intel
 * server boards' PcdCpuApStackSize, WhitleyOpenBoardPkg) must fit the
 * firmware's stack: MpLib.c packs them side by side, so running past one
 * is another AP's stack.
 */
TEST(defect1_ap_stack_4k_overflow)
{
	struct md_run r;

	if (!md_run(&r, "2x1,cpu=skl,ap-stack=4096,pi=forgiving",
		    "--sim=skl -w alu-independent --level 1 " QUICK " --cpu 1"))
		return;
	check_firmware_rules(&r);
	CHECK_MSG(ran(md_outcome(&r, "alu-independent", 1)), "alu-independent on CPU 1: %s",
		  md_str(md_outcome(&r, "alu-independent", 1), "reason", NULL));
	md_run_free(&r);
}

/*
 * 2. After a fault on an AP, nothing may hand over with that AP inside
 * baretop: with PcdCpuApLoopMode 2 (MWAIT) MpInitChangeApLoopCallback
 * waits for it at ExitBootServices forever. Either it came back (the
 * hand-over check passes) or the program says it did not
 * (aps_unaccounted), which makes the end a reset.
 */
TEST(defect2_ap_fault_then_handover)
{
	struct md_run r;
	char why[600];

	if (!md_run(&r, "2x1,cpu=skl,loop=mwait,pi=forgiving,ap-stack=32768",
		    "--fault-selftest-ap --no-workloads"))
		return;
	bool handover = bt_md_handover(r.md, why, sizeof(why));
	CHECK_MSG(handover || r.plat.aps_unaccounted, "hand-over with an AP left behind "
		  "(aps_unaccounted %u): %s", r.plat.aps_unaccounted, why);
	md_run_free(&r);
}

/*
 * 3. Timed PEBS of a workload measured on CPU 2 of a hybrid Lunar Lake
 * (P-cores 0-3, E-cores 4-7) samples CPU 2's PMU: the records are written
 * by the PMU of the CPU that runs the workload, and CPU 0's (baretop's)
 * never sees them.
 */
TEST(defect3_pebs_on_the_measured_cpu)
{
	struct md_run r;

	if (!md_run(&r, "cpuid=tests/data/cpuid/lnl-subset.cpuid,pi=forgiving,ap-stack=32768",
		    "--sim -w ptr-chase-dram " QUICK " --cpu 2"))
		return;
	const struct bt_json *o = md_outcome(&r, "ptr-chase-dram", 2);
	CHECK_MSG(ran(o), "ptr-chase-dram on CPU 2: %s", md_str(o, "reason", NULL));
	struct bt_md_pmu_totals t0, t2;
	bt_md_pmu_totals(r.md, 0, &t0);
	bt_md_pmu_totals(r.md, 2, &t2);
	uint64_t on0 = t0.pebs_records, on2 = t2.pebs_records;
	CHECK_MSG(on2 > 0 && on0 == 0, "PEBS records: %llu on CPU 2 (measured), %llu on CPU 0 "
		  "(baretop's)", (unsigned long long)on2, (unsigned long long)on0);
	const struct bt_json *rl = bt_json_get(bt_json_get(bt_json_get(o, "counted"),
							   "retire_latency"),
					       "MEM_LOAD_RETIRED.L3_HIT");
	CHECK_MSG(strcmp(md_str(rl, "source", NULL), "measured") == 0,
		  "MEM_LOAD_RETIRED.L3_HIT:R on CPU 2: %s", md_str(rl, "source", NULL));
	md_run_free(&r);
}

/*
 * 4. --cpu all on 2 cores x 2 threads: CPU 1 is the SMT sibling of CPU 0,
 * where baretop's BSP runs, and spins in the firmware's wait while an AP
 * works (MpLib.c StartupThisAPWorker: `do CheckThisAP while
 * EFI_NOT_READY`): its windows share the core with a busy thread, so the
 * per-thread formulas (HYPERTHREADING_ON = 0, "the sibling idles") do not
 * hold there. It is left out with a reason, or its tree says it is
 * perturbed.
 */
TEST(defect4_bsp_sibling)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl,pi=forgiving,ap-stack=32768",
		    "--sim=skl -w alu-independent --level 1 " QUICK " --cpu all"))
		return;
	for (unsigned c = 2; c < 4; c++)
		CHECK_MSG(ran(md_outcome(&r, "alu-independent", c)), "CPU %u: %s", c,
			  md_str(md_outcome(&r, "alu-independent", c), "reason", NULL));
	const struct bt_json *o = md_outcome(&r, "alu-independent", 1);
	bool left_out = !ran(o) && strstr(md_str(o, "reason", NULL), "sibling");
	bool labelled = ran(o) && strstr(md_str(o, "counted", "input"), "perturbed");
	CHECK_MSG(left_out || labelled, "CPU 1 (the BSP's SMT sibling) measured as if its "
		  "sibling idled: state %s, reason \"%s\", input \"%s\"", md_str(o, "state", NULL),
		  md_str(o, "reason", NULL), md_str(o, "counted", "input"));
	md_run_free(&r);
}

/*
 * 5. The counter health check of the E-cores must run on an E-core: with
 * general counter 2 of every E-core stuck (and the P-cores healthy), a
 * workload measured on CPU 4 is counted without counter 2.
 */
TEST(defect5_health_on_its_kind)
{
	struct md_run r;

	if (!md_run(&r, "cpuid=tests/data/cpuid/lnl-subset.cpuid,pi=forgiving,ap-stack=32768,"
			"defect=4-7:stuck-counter:2",
		    "--sim -w alu-independent --level 1 " QUICK " --cpu 4"))
		return;
	const struct bt_json *o = md_outcome(&r, "alu-independent", 4);
	CHECK_MSG(ran(o), "CPU 4: %s", md_str(o, "reason", NULL));
	CHECK_MSG(strstr(md_str(o, "counted", "input"), "general counter 2 of CPU 4 left out"),
		  "CPU 4's tree, counted with the E-cores' stuck counter 2: input \"%s\"",
		  md_str(o, "counted", "input"));
	md_run_free(&r);
}

/*
 * 6. Strict PI firmware (baretop runs after ReadyToBoot): only blocking
 * StartupThisAP / StartupAllAPs. A job on an AP, a two-core workload's
 * partner and --copies must all run.
 */
TEST(defect6_strict_pi_blocking_only)
{
	static const char *const runs[][2] = {
		{ "alu-independent", "-w alu-independent --cpu 2" },
		{ "false-sharing", "-w false-sharing" },
		{ "alu-independent", "-w alu-independent --copies 2" },
	};

	for (size_t k = 0; k < BT_ARRAY_SIZE(runs); k++) {
		struct md_run r;
		char args[256];

		snprintf(args, sizeof(args), "--sim=skl --level 1 " QUICK " %s", runs[k][1]);
		if (!md_run(&r, "2x2,cpu=skl,ap-stack=32768", args))
			return;
		CHECK_MSG(md_outcomes(&r) == 1, "%s: %u outcomes", runs[k][1], md_outcomes(&r));
		const struct bt_json *w = bt_json_get(bt_json_get(r.results, "run"), "workloads");
		const struct bt_json *o = w && w->u.arr.n ? w->u.arr.items[0] : NULL;
		CHECK_MSG(ran(o), "%s: %s: %s", runs[k][1], md_str(o, "state", NULL),
			  md_str(o, "reason", NULL));
		check_firmware_rules(&r);
		md_run_free(&r);
	}
}

/* ------------------------------------------------------------ beyond the defects */

/* A number member of an object, or -1. */
static double num(const struct bt_json *o, const char *k1, const char *k2)
{
	const struct bt_json *v = bt_json_get(o, k1);

	if (k2)
		v = bt_json_get(v, k2);
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : -1;
}

/*
 * --cpu all on 2 cores x 2 threads with 4 KiB AP stacks: a tree per CPU
 * but the BSP's sibling, each AP job's stack figures in the results, and
 * no more than the firmware's 4 KiB used of its AP stack -- by baretop's
 * own figure and by the double's painted one, which also counts the
 * firmware's frames above the procedure.
 */
TEST(cpu_all_per_cpu_trees_and_ap_stacks_within_4k)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl,ap-stack=4096",
		    "--sim=skl -w alu-independent --level 1 " QUICK " --cpu all"))
		return;
	check_firmware_rules(&r);
	CHECK_EQ_INT(md_outcomes(&r), 4);
	for (unsigned c = 0; c < 4; c++) {
		const struct bt_json *o = md_outcome(&r, "alu-independent", c);
		if (c == 1) {
			CHECK_MSG(!ran(o) && strstr(md_str(o, "reason", NULL), "SMT sibling"),
				  "CPU 1: %s", md_str(o, "reason", NULL));
			continue;
		}
		CHECK_MSG(ran(o) && bt_json_get(o, "counted"), "CPU %u: %s", c,
			  md_str(o, "reason", NULL));
		char want[32];
		snprintf(want, sizeof(want), "on CPU %u,", c);
		CHECK_MSG(strstr(md_str(o, "counted", "input"), want), "CPU %u's tree: input \"%s\"",
			  c, md_str(o, "counted", "input"));
		if (c == 0) {
			CHECK_MSG(!bt_json_get(o, "ap_stack"), "baretop's own CPU has no AP job");
			continue;
		}
		double fw = num(o, "ap_stack", "firmware_used_bytes");
		double used = num(o, "ap_stack", "used_bytes"), size = num(o, "ap_stack", "size_bytes");
		struct bt_mpd_ap_record rec;
		bt_mpd_record(bt_md_mp(r.md), c, &rec);
		CHECK_MSG(fw > 0 && fw + BT_MPD_FW_FRAME <= rec.stack_peak && rec.stack_peak <= 4096,
			  "CPU %u: baretop used %.0f bytes of the firmware's AP stack; the double saw "
			  "%u of 4096 in use (%u of them its own frames)", c, fw, rec.stack_peak,
			  BT_MPD_FW_FRAME);
		/* the measuring engine's frames are far above 4 KiB: they are on
		 * baretop's stack, which they fit */
		CHECK_MSG(used > 8192 && used < size &&
			  bt_json_get(bt_json_get(o, "ap_stack"), "overflow")->type == BT_JSON_FALSE,
			  "CPU %u: %.0f of baretop's %.0f-byte AP stack", c, used, size);
	}
	char why[400];
	CHECK_MSG(bt_md_handover(r.md, why, sizeof(why)), "%s", why);
	md_run_free(&r);
}

/*
 * A two-core workload asked for on baretop's CPU runs on an AP (the BSP
 * waits in the firmware's StartupAllAPs), its partner on another core and
 * not on the BSP; the output says so.
 */
TEST(two_core_workload_measured_on_an_ap_with_its_partner_elsewhere)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl", "--sim=skl -w false-sharing --level 1 " QUICK))
		return;
	CHECK_EQ_INT(md_outcomes(&r), 1);
	const struct bt_json *w = bt_json_get(bt_json_get(r.results, "run"), "workloads");
	const struct bt_json *o = w && w->u.arr.n ? w->u.arr.items[0] : NULL;
	CHECK_MSG(ran(o), "%s", md_str(o, "reason", NULL));
	double cpu = num(o, "cpu", NULL), partner = num(o, "partner_cpu", NULL);
	struct bt_cpu_location a, b;
	CHECK_MSG(cpu >= 1 && partner >= 1 && cpu != partner, "measured on %.0f, partner %.0f", cpu,
		  partner);
	if (cpu >= 1 && partner >= 1) {
		bt_md_location(r.md, (uint32_t)cpu, &a);
		bt_md_location(r.md, (uint32_t)partner, &b);
		CHECK_MSG(a.core != b.core, "the partner shares the measured CPU's core");
		CHECK_MSG(a.core != 0, "measured on the BSP's core");
	}
	CHECK(strstr(md_str(o, "placement", NULL), "an AP"));
	/* the placement names the partner's CPU */
	char want[48];
	snprintf(want, sizeof(want), "its partner on CPU %.0f", partner);
	CHECK_MSG(strstr(md_str(o, "placement", NULL), want), "placement \"%s\" lacks \"%s\"",
		  md_str(o, "placement", NULL), want);
	/* The measured CPU's SMT sibling (CPU 3) has no task: StartupAllAPs
	 * starts it too, it returns at once and halts (the double's default
	 * MWAIT loop), so the measured windows see it idle. */
	CHECK_MSG(strstr(r.out, "sibling active 0.0% of the time"), "the measured CPU's idle "
		  "sibling seen active: %s", strstr(r.out, "SMT: ") ? strstr(r.out, "SMT: ") : "");
	check_firmware_rules(&r);
	md_run_free(&r);
	/* --copies: the copy's CPU is named, off the measured CPU's core */
	if (!md_run(&r, "2x2,cpu=skl", "--sim=skl -w alu-independent --copies 2 --level 1 " QUICK))
		return;
	w = bt_json_get(bt_json_get(r.results, "run"), "workloads");
	o = w && w->u.arr.n ? w->u.arr.items[0] : NULL;
	const struct bt_json *cc = bt_json_get(o, "copy_cpus");
	CHECK_MSG(ran(o) && cc && cc->u.arr.n == 1, "copies: %s, copy_cpus %s",
		  md_str(o, "reason", NULL), cc ? "present" : "absent");
	if (cc && cc->u.arr.n == 1) {
		double copy = cc->u.arr.items[0]->u.num.value;
		snprintf(want, sizeof(want), "the other copy on CPU %.0f", copy);
		CHECK_MSG(strstr(md_str(o, "placement", NULL), want), "placement \"%s\"",
			  md_str(o, "placement", NULL));
		bt_md_location(r.md, (uint32_t)copy, &a);
		bt_md_location(r.md, (uint32_t)num(o, "cpu", NULL), &b);
		CHECK_MSG(a.core != b.core, "the copy on CPU %.0f shares the measured CPU's core",
			  copy);
	}
	md_run_free(&r);
}

/*
 * --cpu naming baretop's own CPU for a two-core workload: the CPU that
 * starts the APs waits in the firmware while they run, so it cannot be
 * measured there. A configuration error, refused before the boot policy
 * starts (exit 2: under --run it does not use up `once`), saying what to
 * do, and never reported as "skipped: measured on the APs" with nothing
 * measured.
 */
TEST(two_core_workload_on_baretops_cpu_refused_before_running)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl", "--sim=skl -w false-sharing --level 1 " QUICK " --cpu 0"))
		return;
	CHECK_EQ_INT(r.status, 2);
	CHECK_MSG(strstr(r.out, "--cpu 0 with -w false-sharing") && strstr(r.out, "name an AP"),
		  "%s", r.out);
	CHECK_MSG(!strstr(r.out, "health "), "the counters were checked: something ran");
	CHECK_MSG(!strstr(r.out, "boot          "), "the boot policy started");
	md_run_free(&r);
}

/* An AP's SMT sibling idling in the run-loop (PcdCpuApLoopMode 3) is busy:
 * the measured CPU's PMU sees it, and the SMT sibling probe says so. */
TEST(run_loop_idle_sibling_is_measured_active)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl,loop=run", "--sim=skl -w alu-independent --level 1 " QUICK
		    " --cpu 2"))
		return;
	const struct bt_json *o = md_outcome(&r, "alu-independent", 2);
	CHECK_MSG(ran(o), "%s", md_str(o, "reason", NULL));
	CHECK_MSG(strstr(r.out, "sibling active 100.0% of the time: HYPERTHREADING_ON = 1"),
		  "CPU 2's sibling (CPU 3, in the run-loop) not measured active");
	md_run_free(&r);
	/* in the MWAIT loop the sibling idles */
	if (!md_run(&r, "2x2,cpu=skl,loop=mwait", "--sim=skl -w alu-independent --level 1 " QUICK
		    " --cpu 2"))
		return;
	CHECK(ran(md_outcome(&r, "alu-independent", 2)));
	CHECK_MSG(strstr(r.out, "sibling active 0.0% of the time: HYPERTHREADING_ON = 0"),
		  "CPU 2's sibling (CPU 3, halted in MWAIT) not measured idle");
	md_run_free(&r);
	/* the BSP's sibling, named alone: measured, marked, and its sibling busy */
	if (!md_run(&r, "2x2,cpu=skl", "--sim=skl -w alu-independent --level 1 " QUICK " --cpu 1"))
		return;
	const struct bt_json *b = md_outcome(&r, "alu-independent", 1);
	CHECK_MSG(ran(b) && strstr(md_str(b, "counted", "input"), "PERTURBED"), "CPU 1: %s / %s",
		  md_str(b, "reason", NULL), md_str(b, "counted", "input"));
	CHECK(strstr(r.out, "sibling active 100.0% of the time"));
	md_run_free(&r);
}

/*
 * Every logical CPU has its own counters (SDM Vol. 3B 20.2: the
 * architectural performance counters are per logical processor): general
 * counter 1 stuck on CPU 2 only is found by a check on CPU 2, and only
 * CPU 2's plans leave it out. A check on the first CPU of the kind (CPU 0)
 * cannot see it; CPU 2's tree would be counted with a counter reading 0.
 */
TEST(health_check_on_every_measured_cpu)
{
	struct md_run r;

	if (!md_run(&r, "2x2,cpu=skl,pi=forgiving,ap-stack=32768,defect=2:stuck-counter:1",
		    "--sim=skl -w alu-independent --level 1 " QUICK " --cpu all"))
		return;
	for (unsigned c = 0; c < 4; c++) {
		const struct bt_json *o = md_outcome(&r, "alu-independent", c);
		if (c == 1)
			continue;   /* the BSP's sibling, left out */
		CHECK_MSG(ran(o), "CPU %u: %s", c, md_str(o, "reason", NULL));
		bool left_out = strstr(md_str(o, "counted", "input"), "general counter 1") != NULL;
		CHECK_MSG(left_out == (c == 2), "CPU %u's tree %s counter 1: input \"%s\"", c,
			  c == 2 ? "counted with its stuck" : "left out the healthy",
			  md_str(o, "counted", "input"));
	}
	const struct bt_json *hc = bt_json_get(bt_json_get(r.results, "run"),
					       "counter_health_by_cpu");
	unsigned seen = 0;
	for (size_t k = 0; hc && k < hc->u.arr.n; k++) {
		const struct bt_json *h = hc->u.arr.items[k];
		double cpu = num(h, "cpu", NULL);
		const struct bt_json *lo = bt_json_get(h, "left_out_of_plan");
		bool fail = strcmp(md_str(h, "verdict", NULL), "FAIL") == 0;
		seen |= 1u << (unsigned)cpu;
		CHECK_MSG(fail == (cpu == 2) && lo && lo->u.arr.n == (cpu == 2),
			  "CPU %.0f's check: %s", cpu, md_str(h, "verdict", NULL));
		CHECK_MSG(num(h, "elapsed_tsc_ticks", NULL) > 0, "CPU %.0f's check not timed", cpu);
	}
	CHECK_MSG(seen == 0xd, "checks recorded for the CPUs of mask 0x%x, want 0, 2, 3", seen);
	md_run_free(&r);
}

/*
 * A machine built from a CPUID dump has the topology its leaves give
 * (CPUID 0BH / 1FH, SDM Vol. 2A: the SMT level's EBX is the logical
 * processors per core): Alder Lake P's P-cores answer 2 (CPUs 0-11, six
 * cores of two threads), its E-cores 1 (CPUs 12-19, a core each). So CPU 1
 * is the SMT sibling of baretop's CPU 0, and --cpu all leaves it out.
 */
TEST(cpuid_dump_machine_has_the_dumps_smt)
{
	struct md_run r;
	struct bt_cpu_location l[20];

	if (!md_run(&r, "cpuid=tests/data/cpuid/adl-subset.cpuid",
		    "--sim -w alu-independent --level 1 " QUICK " --cpu 0,1,12,13"))
		return;
	CHECK_EQ_INT(bt_md_cpu_count(r.md), 20);
	for (uint32_t c = 0; c < 20 && c < bt_md_cpu_count(r.md); c++)
		bt_md_location(r.md, c, &l[c]);
	for (uint32_t c = 0; c < 12; c++)
		CHECK_MSG(l[c].core == c / 2 && l[c].thread == c % 2, "P-core CPU %u: core %u thread %u",
			  c, l[c].core, l[c].thread);
	for (uint32_t c = 12; c < 20; c++)
		CHECK_MSG(l[c].thread == 0 && l[c].core == c - 6, "E-core CPU %u: core %u thread %u",
			  c, l[c].core, l[c].thread);
	const struct bt_json *o = md_outcome(&r, "alu-independent", 1);
	CHECK_MSG(ran(o) && bt_json_get(o, "perturbed") &&
		  bt_json_get(o, "perturbed")->type == BT_JSON_OBJECT,
		  "CPU 1 (baretop's sibling) not marked perturbed: %s", md_str(o, "placement", NULL));
	o = md_outcome(&r, "alu-independent", 13);
	CHECK_MSG(ran(o) && bt_json_get(o, "perturbed") &&
		  bt_json_get(o, "perturbed")->type == BT_JSON_NULL,
		  "CPU 13 (an E-core) marked: %s", md_str(o, "placement", NULL));
	md_run_free(&r);
}

/*
 * An exception on an AP that baretop recovered from is in the results
 * file, not only on the console: which CPU, which exception (UD2 raises
 * #UD, vector 6: SDM Vol. 3A 6.15), where, and that it was recovered.
 */
TEST(recovered_ap_fault_recorded_in_results)
{
	struct md_run r;

	if (!md_run(&r, "2x1,cpu=skl,loop=mwait,ap-stack=32768", "--fault-selftest-ap --no-workloads"))
		return;
	const struct bt_json *f = bt_json_get(bt_json_get(r.results, "fault_guard"), "ap_faults");
	const struct bt_json *x = f && f->type == BT_JSON_ARRAY && f->u.arr.n ? f->u.arr.items[0] : NULL;
	CHECK_MSG(x && f->u.arr.n == 1, "fault_guard.ap_faults: %s", f ? "not one record" : "absent");
	if (x) {
		CHECK_EQ_INT((int)num(x, "cpu", NULL), 1);
		CHECK_EQ_INT((int)num(x, "vector", NULL), 6);
		CHECK(bt_json_get(x, "recovered") && bt_json_get(x, "recovered")->type == BT_JSON_TRUE);
		CHECK(bt_json_get(x, "cleanup_faulted") &&
		      bt_json_get(x, "cleanup_faulted")->type == BT_JSON_FALSE);
		CHECK(strncmp(md_str(x, "rip", NULL), "0x", 2) == 0);
	}
	md_run_free(&r);
}

/* What the many-CPU options refuse, and that each refusal says why. */
TEST(cpu_options_refused_with_reasons)
{
	struct bt_md *m = NULL;
	struct bt_diag d = { "" };

	/* PxCxT has three numbers: a fourth is not silently dropped */
	CHECK_MSG(bt_md_new("2x2x2x2,cpu=skl", NULL, &m, &d) != BT_OK, "2x2x2x2 accepted");
	bt_md_free(m);
	m = NULL;
	/* an unknown preset lists every preset, not the first */
	CHECK(bt_md_new("2x2,cpu=bogus", NULL, &m, &d) != BT_OK);
	CHECK_MSG(strstr(d.text, "skl") && strstr(d.text, "zen4"), "%s", d.text);
	bt_md_free(m);

	struct md_run r;
	/* a CPU named twice would be measured twice */
	if (md_run(&r, "2x2,cpu=skl", "--sim=skl -w alu-independent " QUICK " --cpu 0,0")) {
		CHECK_EQ_INT(r.status, 2);
		CHECK_MSG(!bt_json_get(r.results, "run"), "--cpu 0,0 ran workloads");
		md_run_free(&r);
	}
	struct bt_options o;
	bt_options_defaults(&o);
	char w0[] = "--cpu", w1[] = "0,0";
	char *words[] = { w0, w1 };
	d.text[0] = '\0';
	CHECK(bt_options_parse(&o, 2, words, "command line", &d) != BT_OK);
	CHECK_MSG(strstr(d.text, "CPU 0 named twice"), "--cpu 0,0: %s", d.text);
	/* a simulated PMU that cannot be set up says why: Arrow Lake H's
	 * P-cores enumerate 10 general counters (CPUID.23H.1 EAX = 3FFH)
	 * with perfmon version 5 (CPUID.0AH EAX[7:0]) */
	struct bt_synth_opts so = { .cpuid_dump = "tests/data/cpuid/arlh-subset.cpuid@0" };
	struct bt_synth *s = NULL;
	d.text[0] = '\0';
	CHECK(bt_synth_new(&so, &s, &d) != BT_OK);
	CHECK_MSG(strstr(d.text, "10 general counters with perfmon version 5"), "%s", d.text);
	bt_synth_free(s);
	/* the host's own CPU is labelled as such beside simulated counts */
	if (md_run(&r, "2x1,cpu=skl", "--sim=skl --no-workloads")) {
		CHECK_MSG(strstr(r.out, "\nCPU (SIMULATED"), "CPU heading not labelled");
		CHECK(strncmp(md_str(bt_json_get(r.results, "cpu"), "whose", NULL), "SIMULATED", 9) == 0);
		md_run_free(&r);
	}
}
