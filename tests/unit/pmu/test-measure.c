/* SPDX-License-Identifier: MIT */
/*
 * The measurement engine against the simulated PMU: every event's count
 * comes back exactly as the source supplied it (after the calibration
 * removed the sim's modelled foreign activity), retries replace runs that
 * disagree on instructions or saw an SMI the counters were not frozen for
 * (or with no instruction count to judge it), persistent disagreement is
 * flagged, and a fault leaves every register as it was.
 */
#include <stdlib.h>

#include "pmu/measure.h"
#include "base/array.h"
#include "pmu/pmu-caps.h"
#include "arch/arch-cpuid-host.h"
#include "pmu/plan.h"
#include "pmu/pmu-driver.h"
#include "arch/sim/sim.h"
#include "synth/count-sources.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

/* The simulated workload: its identity is its address (sim source "body"). */
static void sim_workload(void *arg)
{
	(void)arg;
}

struct setup {
	struct bt_sim sim;
	struct bt_pmu pmu;          /* the sim's arch and the caps detected there */
	struct bt_event ev[FX_MAX];
	const struct bt_event *evp[FX_MAX];
	struct bt_sim_count src[FX_MAX];
	struct bt_sim_source source;
	struct bt_plan plan;
	struct bt_plan_scratch scratch;
	int n;
};

static bool prepare(struct setup *t, const char *preset)
{
	memset(t, 0, sizeof(*t));
	if (bt_sim_init(&t->sim, bt_sim_preset(preset)) != BT_OK)
		return false;
	t->pmu.arch = &t->sim.arch;
	bt_pmu_caps_detect(&t->sim.arch, &t->pmu.caps);
	t->n = fx_set_for(&t->sim.cfg, t->ev);
	fx_ptrs(t->ev, t->n, t->evp);
	if (bt_sim_generate_counts(t->evp, (size_t)t->n, 7, t->src) != BT_OK)
		return false;
	t->source = (struct bt_sim_source){ t->src, (size_t)t->n, 0, sim_workload };
	bt_sim_set_source(&t->sim, &t->source);
	return bt_plan_events(t->evp, t->n, &t->pmu.caps, NULL, &t->scratch, &t->plan) == BT_OK;
}

static int index_of_fixed(const struct setup *t, int fixed)
{
	for (int i = 0; i < t->n; i++)
		if (t->ev[i].source == BT_SRC_PMC && t->ev[i].fixed == fixed && !t->ev[i].flags &&
		    !t->ev[i].cmask)
			return i;
	return -1;
}

/* Checks every measured PMC / PERF_METRICS event against the source. */
static void check_exact(const struct setup *t, const struct bt_measurement *m, const char *preset)
{
	int compared = 0;

	for (int i = 0; i < t->n; i++) {
		uint8_t s = t->ev[i].source;
		if (s != BT_SRC_PMC && s != BT_SRC_PERF_METRICS)
			continue;
		CHECK_MSG(m->ev[i].measured, "%s: %s not measured", preset, t->ev[i].name);
		CHECK_MSG(m->ev[i].median == t->src[i].count && m->ev[i].min == t->src[i].count &&
				  m->ev[i].max == t->src[i].count,
			  "%s: %s median %llu min %llu max %llu, source %llu", preset,
			  t->ev[i].name, (unsigned long long)m->ev[i].median,
			  (unsigned long long)m->ev[i].min, (unsigned long long)m->ev[i].max,
			  (unsigned long long)t->src[i].count);
		compared++;
	}
	CHECK_MSG(compared >= 5, "%s: only %d events compared", preset, compared);
}

TEST(every_event_comes_back_exactly_on_each_pmu_kind)
{
	const char *presets[] = { "skl", "icl", "spr", "adl-e", "zen4", "zen2", "amd-legacy", "nhm" };

	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		static struct setup t;
		struct bt_measurement m;
		struct bt_measure_opts o;
		struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };
		struct bt_sim_regs before, after;
		char diff[200] = "";

		CHECK_MSG(prepare(&t, presets[p]), "%s: setup", presets[p]);
		bt_measure_opts_defaults(&o);
		o.reps = 3;
		bt_sim_snapshot(&t.sim, &before);
		bt_status st = bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m);
		CHECK_MSG(st == BT_OK, "%s: %s", presets[p], m.error);
		if (st == BT_OK) {
			check_exact(&t, &m, presets[p]);
			CHECK_EQ_INT(m.n_runs, t.plan.n_groups * 3);
			CHECK_EQ_INT(m.n_flagged, 0);
			CHECK_EQ_INT(m.n_retried, 0);
		}
		bt_sim_snapshot(&t.sim, &after);
		CHECK_MSG(bt_sim_regs_equal(&before, &after, diff, sizeof(diff)), "%s: %s",
			  presets[p], diff);
		CHECK_MSG(t.sim.n_violations == 0, "%s: %s", presets[p], t.sim.violations[0]);
		bt_measurement_free(&m);
		bt_sim_free(&t.sim);
	}
}

/* The empty-window calibration is what makes AMD without a global enable
 * exact: without it, each counter also counts the driver's enable writes. */
TEST(without_calibration_amd_legacy_counts_the_driver_writes)
{
	static struct setup t;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };
	int off = 0;

	CHECK(prepare(&t, "amd-legacy"));
	bt_measure_opts_defaults(&o);
	o.calib_runs = 0;
	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	for (int i = 0; i < t.n; i++)
		if (t.ev[i].source == BT_SRC_PMC && m.ev[i].median != t.src[i].count)
			off++;
	CHECK_MSG(off > 0, "no counter included the enable writes: the sim would not "
			   "catch a missing calibration");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

struct disturb {
	struct setup *t;
	int calls;
	int smi_on_call;          /* that window sees an SMI; -1 = every window */
	int skew_inst_on_call;    /* that window retires 1 % more instructions */
	int inst_index;
	uint64_t inst_count;
	int skew_from_call;
};

/* An SMI injected in one call's run (sim smi_after): right after the nth
 * access (op, msr) from the start of that call. on_call 0: none. */
static struct {
	int on_call;
	uint8_t op;
	uint32_t msr, nth;
} gap;

static bt_status disturb_before(void *ctx, struct bt_diag *diag)
{
	struct disturb *d = ctx;
	int call = ++d->calls;

	(void)diag;
	d->t->sim.cfg.smi_per_window = d->smi_on_call == -1 || call == d->smi_on_call;
	/* skew_inst_on_call: that call; skew_from_call (if set): also every
	 * call from there on (the retries come after the first pass). */
	bool skew = call == d->skew_inst_on_call ||
		    (d->skew_from_call && call >= d->skew_from_call);
	if (d->inst_index >= 0)
		d->t->src[d->inst_index].count =
			skew ? d->inst_count + d->inst_count / 100 : d->inst_count;
	if (call == gap.on_call) {
		d->t->sim.smi_op = gap.op;
		d->t->sim.smi_msr = gap.msr;
		d->t->sim.smi_after = gap.nth;
	}
	return BT_OK;
}

static void run_disturbed(struct disturb *d, struct bt_measurement *m)
{
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, disturb_before, NULL, d, 0, NULL };

	bt_measure_opts_defaults(&o);
	o.reps = 3;
	d->t->sim.cfg.smi_count = true;
	o.pmu.read_smi_count = true;
	CHECK_EQ_INT(bt_measure(&d->t->pmu, &d->t->plan, d->t->evp, &wl, &o, m),
		     BT_OK);
}

/* With an instruction count to judge a run by, an SMI alone does not make
 * it run again; it is counted and reported. */
TEST(an_smi_alone_does_not_repeat_a_run_whose_counts_agree)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 3, 0, -1, 0, 0 };

	CHECK(prepare(&t, "skl"));
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 0);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_INT(m.n_smi_runs, 1);
	check_exact(&t, &m, "skl+smi");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* An SMI together with disagreeing instructions: the run is repeated
 * (after a warm-up) and the agreeing retry replaces it. */
TEST(an_smi_with_disagreeing_counts_is_retried_and_the_retry_kept)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 4, 4, -1, 0, 0 };

	CHECK(prepare(&t, "skl"));
	d.inst_index = index_of_fixed(&t, 0);
	CHECK(d.inst_index >= 0);
	d.inst_count = t.src[d.inst_index].count;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_INT(m.n_smi_runs, 0);
	int k;
	for (k = 0; k < m.n_runs && !m.runs[k].why[0]; k++)
		;
	CHECK(k < m.n_runs && strstr(m.runs[k].why, "SMI") && strstr(m.runs[k].why, "instructions"));
	check_exact(&t, &m, "skl+smi+skew");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

TEST(an_instruction_count_outlier_is_retried)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 0, 4, -1, 0, 0 };

	CHECK(prepare(&t, "skl"));
	d.inst_index = index_of_fixed(&t, 0);
	CHECK(d.inst_index >= 0);
	d.inst_count = t.src[d.inst_index].count;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_U64(m.inst_min, d.inst_count);
	CHECK_EQ_U64(m.inst_max, d.inst_count);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* Instructions that disagree in every retry: flagged after the retries. */
TEST(a_persistent_disagreement_is_flagged_after_the_retries)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 0, 0, -1, 0, 0 };

	CHECK(prepare(&t, "skl"));
	d.inst_index = index_of_fixed(&t, 0);
	d.inst_count = t.src[d.inst_index].count;
	/* The first pass is 1 warm-up + 3 runs per group; one run of it
	 * disagrees, and so does every retry after it. */
	d.skew_inst_on_call = 4;
	d.skew_from_call = t.plan.n_groups * 4 + 1;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 1);
	for (int k = 0; k < m.n_runs; k++)
		if (m.runs[k].flagged)
			CHECK(m.runs[k].attempts == 1 + BT_MEASURE_MAX_RETRIES_DEFAULT &&
			      strstr(m.runs[k].why, "instructions") != NULL);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* Without FREEZE_WHILE_SMM (the Nehalem-class preset has no
 * PERF_CAPABILITIES[12]) an SMI's handler is counted by every counter. Its
 * instructions here are far inside the 0.1 % tolerance, so the instruction
 * count alone would keep the run; the SMI itself must repeat it, and the
 * clean retry replaces it, so every event comes back exact. */
TEST(an_smi_in_an_unfrozen_window_is_retried_even_when_instructions_agree)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 3, 0, -1, 0, 0 };

	CHECK(prepare(&t, "nhm"));
	CHECK(!t.pmu.caps.has_perf_capabilities ||
	      !(t.pmu.caps.perf_capabilities & (1ull << 12))); /* no SMM freeze here */
	int inst = index_of_fixed(&t, 0);
	CHECK(inst >= 0);
	/* The handler's work: 1 part in 10^5 of the instructions, at least 1. */
	t.sim.cfg.smm_counts_per_smi = t.src[inst].count / 100000 + 1;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_INT(m.n_smi_runs, 0);
	int k;
	for (k = 0; k < m.n_runs && !m.runs[k].why[0]; k++)
		;
	CHECK(k < m.n_runs && strstr(m.runs[k].why, "not frozen") != NULL);
	check_exact(&t, &m, "nhm+smi");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* The source entry AMD's retired instructions (0xC0, no umask) count. */
static int index_of_gp(const struct setup *t, uint16_t code, uint8_t umask)
{
	for (int i = 0; i < t->n; i++)
		if (t->ev[i].source == BT_SRC_PMC && t->ev[i].fixed < 0 && t->ev[i].code == code &&
		    t->ev[i].umask == umask && !t->ev[i].flags && !t->ev[i].cmask)
			return i;
	return -1;
}

/*
 * AMD has no fixed counter 0, so without a counter of its own no AMD run
 * would be judged. Every AMD group now also counts Retired
 * Instructions (PMCx0C0) on a general counter the plan reserves; a run
 * whose count disagrees with the others is repeated and the agreeing retry
 * kept, on Zen 4 (PerfMonV2) and on the legacy four counters alike.
 */
TEST(an_amd_run_whose_instructions_disagree_is_retried)
{
	const char *presets[] = { "zen4", "amd-legacy", "zen2" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		static struct setup t;
		struct bt_measurement m;
		struct disturb d = { &t, 0, 0, 4, -1, 0, 0 };

		CHECK(prepare(&t, presets[p]));
		CHECK_MSG(t.plan.has_inst_gp, "%s: no counter reserved for 0xC0", presets[p]);
		d.inst_index = index_of_gp(&t, 0xC0, 0x00);
		CHECK(d.inst_index >= 0);
		d.inst_count = t.src[d.inst_index].count;
		run_disturbed(&d, &m);
		CHECK_MSG(m.n_retried == 1 && m.n_flagged == 0, "%s: retried %d flagged %d",
			  presets[p], m.n_retried, m.n_flagged);
		int k;
		for (k = 0; k < m.n_runs && !m.runs[k].why[0]; k++)
			;
		CHECK_MSG(k < m.n_runs && strstr(m.runs[k].why, "instructions +1.0"),
			  "%s: '%s'", presets[p], k < m.n_runs ? m.runs[k].why : "no run retried");
		/* The runs report the instruction count they were judged by. */
		for (int r = 0; r < m.n_runs; r++)
			CHECK(m.runs[r].has_inst && m.runs[r].inst == d.inst_count);
		CHECK_EQ_U64(m.inst_min, d.inst_count);
		CHECK_EQ_U64(m.inst_max, d.inst_count);
		check_exact(&t, &m, presets[p]);
		bt_measurement_free(&m);
		bt_sim_free(&t.sim);
	}
}

/* The same instruction skew, every retry too: flagged, as on Intel. */
TEST(a_persistent_amd_disagreement_is_flagged)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 0, 0, -1, 0, 0 };

	CHECK(prepare(&t, "zen4"));
	d.inst_index = index_of_gp(&t, 0xC0, 0x00);
	CHECK(d.inst_index >= 0);
	d.inst_count = t.src[d.inst_index].count;
	d.skew_inst_on_call = 4;
	d.skew_from_call = t.plan.n_groups * 4 + 1;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 1);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/*
 * The SMI count on AMD is PMCx02B "SMIs received",
 * listed for Zen 2 and Zen 3 (Linux perf amdzen2/ and amdzen3/memory.json
 * ls_smi_rx), Zen 4 (amdzen4/core.json) and Zen 5 (amdzen5/load-store.json),
 * on a second reserved counter. One SMI lands in one window: that run
 * reports it and, the counters having counted the handler (AMD cannot
 * freeze them in SMM), is repeated and the clean retry kept. Family 10h
 * (amd-legacy) is in no such list: no counter is reserved for it and no
 * run has an SMI count.
 */
TEST(amd_smis_are_counted_where_the_family_has_pmcx02b)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 3, 0, -1, 0, 0 };

	CHECK(prepare(&t, "zen4"));
	CHECK(t.pmu.caps.amd_smi_rx && t.plan.has_smi_gp && t.plan.smi_gp != t.plan.inst_gp);
	/* A handler small enough that the instruction count alone keeps it. */
	int inst = index_of_gp(&t, 0xC0, 0x00);
	CHECK(inst >= 0);
	t.sim.cfg.smm_counts_per_smi = t.src[inst].count / 100000 + 1;
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 1);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_INT(m.n_smi_runs, 0); /* the kept runs saw none */
	int k;
	for (k = 0; k < m.n_runs && !m.runs[k].why[0]; k++)
		;
	CHECK_MSG(k < m.n_runs && strstr(m.runs[k].why, "SMI"), "'%s'",
		  k < m.n_runs ? m.runs[k].why : "no run retried");
	for (int r = 0; r < m.n_runs; r++)
		CHECK(m.runs[r].has_smi && m.runs[r].smi == 0);
	check_exact(&t, &m, "zen4+smi");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);

	/* An SMI in every window: each run reports exactly one. */
	struct disturb every = { &t, 0, -1, 0, -1, 0, 0 };
	CHECK(prepare(&t, "zen4"));
	run_disturbed(&every, &m);
	CHECK_EQ_INT(m.n_smi_runs, m.n_runs);
	for (int r = 0; r < m.n_runs; r++)
		CHECK(m.runs[r].has_smi && m.runs[r].smi == 1);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);

	const char *none[] = { "amd-legacy" };
	for (size_t p = 0; p < 1; p++) {
		struct disturb one = { &t, 0, 3, 0, -1, 0, 0 };
		CHECK(prepare(&t, none[p]));
		CHECK(!t.pmu.caps.amd_smi_rx && !t.plan.has_smi_gp);
		run_disturbed(&one, &m);
		for (int r = 0; r < m.n_runs; r++)
			CHECK_MSG(!m.runs[r].has_smi, "%s: run %d has an SMI count", none[p], r);
		bt_measurement_free(&m);
		bt_sim_free(&t.sim);
	}
}

/* Every window has an SMI but the counts agree: no retries, all reported. */
TEST(smis_in_every_window_are_counted_not_retried)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, -1, 0, -1, 0, 0 };

	CHECK(prepare(&t, "skl"));
	run_disturbed(&d, &m);
	CHECK_EQ_INT(m.n_retried, 0);
	CHECK_EQ_INT(m.n_smi_runs, m.n_runs);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/*
 * SMIs outside the window. With FREEZE_WHILE_SMM
 * (the Skylake-and-later presets) RSM sets IA32_PERF_GLOBAL_CTRL's enables
 * to 1 (SDM vol. 3B "Filtering of SMM Handler Overhead"): an SMI between
 * the programming and the start write, or between the stop write and the
 * counter reads, leaves the armed counters counting the session's own
 * accesses (one count each in the sim), far inside the instruction
 * tolerance. The run must be repeated and the retry kept, so every event
 * comes back exact; `retried` 0: the SMI came after the run's last read,
 * which must stay exact, and so must the next run.
 */
static void smi_outside_the_window(const char *preset, uint8_t op, uint32_t msr, uint32_t nth,
				   int call, int retried)
{
	static struct setup t;
	struct bt_measurement m;
	struct disturb d = { &t, 0, 0, 0, -1, 0, 0 };

	CHECK(prepare(&t, preset));
	gap.on_call = call;
	gap.op = op;
	gap.msr = msr;
	gap.nth = nth;
	run_disturbed(&d, &m);
	gap.on_call = 0;
	CHECK_MSG(t.sim.smis_injected == 1, "%s: %u SMIs injected", preset, t.sim.smis_injected);
	CHECK_MSG(m.n_retried == retried, "%s 0x%X/%u: %d runs retried, want %d", preset, msr, nth,
		  m.n_retried, retried);
	CHECK_EQ_INT(m.n_flagged, 0);
	CHECK_EQ_INT(m.n_smi_runs, 0); /* none in a kept run's window */
	int k;
	for (k = 0; k < m.n_runs && !m.runs[k].why[0]; k++)
		;
	if (retried)
		CHECK_MSG(k < m.n_runs && strstr(m.runs[k].why, "SMI outside the window") != NULL,
			  "%s: '%s'", preset, k < m.n_runs ? m.runs[k].why : "no run retried");
	check_exact(&t, &m, preset);
	CHECK_MSG(t.sim.n_violations == 0, "%s: %s", preset, t.sim.violations[0]);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* Call 2 is group 0's first kept run (1 warm-up first). Its last
 * programming write clears the overflow status (0x390). */
TEST(an_smi_between_programming_and_the_start_write_repeats_the_run)
{
	smi_outside_the_window("skl", BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1, 2, 1);
	smi_outside_the_window("icl", BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1, 2, 1);
}

/* The second GLOBAL_CTRL write of the run is the stop write: the SMI lands
 * before the window's own SMI count is read, so that count alone takes it
 * for one in the (frozen) window. After the first counter read (fixed
 * counter 0, RDPMC ECX=4000_0000H) it is outside the window's count. */
TEST(an_smi_between_the_stop_write_and_the_reads_repeats_the_run)
{
	smi_outside_the_window("skl", BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL, 2, 2, 1);
	smi_outside_the_window("spr", BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL, 2, 2, 1);
	smi_outside_the_window("skl", BT_SIM_RDPMC, RDPMC_FIXED, 1, 2, 1);
}

/* After the run's last MSR_SMI_COUNT read (the 4th of the call: before the
 * programming, around the window, after the reads) the run is complete,
 * but the restarted counters would count into the next run's programming
 * (call 3, a kept run) unless that stops them first. */
TEST(an_smi_between_two_runs_does_not_leak_into_the_next)
{
	smi_outside_the_window("skl", BT_SIM_RDMSR, MSR_SMI_COUNT, 4, 2, 0);
	smi_outside_the_window("adl-p", BT_SIM_RDMSR, MSR_SMI_COUNT, 4, 2, 0);
}

/* Without the freeze (Nehalem-class preset) GLOBAL_CTRL stays 0 around the
 * window and the counts are right, but the run is repeated all the same. */
TEST(an_smi_outside_an_unfrozen_window_repeats_the_run_too)
{
	smi_outside_the_window("nhm", BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1, 2, 1);
}

TEST(a_fault_anywhere_aborts_cleanly_and_restores_every_register)
{
	const char *presets[] = { "skl", "icl", "zen4" };

	for (size_t p = 0; p < 3; p++) {
		int aborted = 0, fired = 0;

		for (uint64_t at = 1; at < 400; at += 37) {
			static struct setup t;
			struct bt_measurement m;
			struct bt_measure_opts o;
			struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };
			struct bt_sim_regs before, after;
			char diff[200] = "";

			CHECK(prepare(&t, presets[p]));
			bt_measure_opts_defaults(&o);
			o.reps = 2;
			bt_sim_snapshot(&t.sim, &before);
			t.sim.fault_at = t.sim.access_count + at;
			bt_status st = bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m);
			bool hit = t.sim.access_count >= t.sim.fault_at; /* the access existed */
			fired += hit;
			CHECK_MSG(!hit || st != BT_OK, "%s: fault at access %llu did not abort the run",
				  presets[p], (unsigned long long)at);
			if (st != BT_OK) {
				aborted++;
				CHECK_MSG(strstr(m.error, "#GP") != NULL, "%s at %llu: '%s'", presets[p],
					  (unsigned long long)at, m.error);
			}
			bt_sim_snapshot(&t.sim, &after);
			CHECK_MSG(bt_sim_regs_equal(&before, &after, diff, sizeof(diff)),
				  "%s, fault at access %llu: %s", presets[p], (unsigned long long)at,
				  diff);
			bt_measurement_free(&m);
			bt_sim_free(&t.sim);
		}
		CHECK_MSG(fired >= 5 && aborted == fired, "%s: %d faults fired, %d aborted the run",
			  presets[p], fired, aborted);
	}
}

/* A CPU lost in mid-window (an AP that faulted and is parked) gets its
 * session closed by the park cleanup, from inside the window: that alone
 * must leave every register as it was before baretop touched it, since
 * the window's own stop write never comes. */
static struct {
	struct setup *t;
	struct bt_pmu_session *hooked;
	int opened, closed, windows;
	bool parked;
	struct bt_sim_regs at_park;
} lost;

static void lost_hook(void *ctx, struct bt_pmu_session *s)
{
	(void)ctx;
	if (s)
		lost.opened++;
	else
		lost.closed++;
	lost.hooked = s;
}

static void crashing_body(void *arg)
{
	(void)arg;
	if (++lost.windows == 3 && lost.hooked) {
		bt_pmu_close(lost.hooked); /* what close_session_on_park does */
		bt_sim_snapshot(&lost.t->sim, &lost.at_park);
		lost.parked = true;
	}
}

TEST(a_session_closed_in_mid_window_restores_every_register)
{
	const char *presets[] = { "skl", "icl", "adl-e", "amd-legacy", "zen4" };

	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		static struct setup t;
		struct bt_measurement m;
		struct bt_measure_opts o;
		struct bt_measure_workload wl = { crashing_body, NULL, NULL, NULL, NULL, 0, NULL };
		struct bt_sim_regs before;
		char diff[200] = "";

		CHECK(prepare(&t, presets[p]));
		memset(&lost, 0, sizeof(lost));
		lost.t = &t;
		bt_measure_opts_defaults(&o);
		o.reps = 2;
		o.session_hook = lost_hook;
		bt_sim_snapshot(&t.sim, &before);
		bt_status st = bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m);
		CHECK_MSG(lost.parked, "%s: the third window never came", presets[p]);
		CHECK_MSG(lost.opened == 1 && lost.closed == 1, "%s: hook opened %d closed %d",
			  presets[p], lost.opened, lost.closed);
		CHECK_MSG(bt_sim_regs_equal(&before, &lost.at_park, diff, sizeof(diff)),
			  "%s: registers at park: %s", presets[p], diff);
		/* The run itself cannot go on with a closed session. */
		CHECK_MSG(st != BT_OK, "%s: the run went on after its session was closed", presets[p]);
		bt_measurement_free(&m);
		bt_sim_free(&t.sim);
	}
}

static void spin(void *arg)
{
	volatile uint64_t *n = arg;
	for (uint64_t i = 0; i < 100000; i++)
		*n += i;
}

/* The budget's arithmetic: runs x the longest run plus the calibration
 * windows, at most what is left; an overflowing estimate never fits. */
TEST(a_group_fits_the_budget_when_its_runs_and_calibration_do)
{
	uint64_t est;

	CHECK(bt_measure_group_fits(1000, 200, 4, 40, 5, &est));   /* 800 + 200 */
	CHECK_EQ_U64(est, 1000);
	CHECK(!bt_measure_group_fits(999, 200, 4, 40, 5, &est));
	CHECK_EQ_U64(est, 1000);
	CHECK(bt_measure_group_fits(0, 0, 4, 0, 5, &est));         /* nothing timed yet */
	CHECK(!bt_measure_group_fits(UINT64_MAX, UINT64_MAX / 2, 3, 0, 0, &est));
	CHECK_EQ_U64(est, UINT64_MAX);
	CHECK(!bt_measure_group_fits(UINT64_MAX, UINT64_MAX / 2, 2, 2, 1, &est));
}

/*
 * The budget plans each group before it starts. Simulated time: a window
 * of the workload is WL ticks, a calibration window (empty body) CAL
 * ticks, and each MSR access 50 (the preset's tsc_per_access). With one
 * warm-up, 3 repetitions and 5 calibration windows a group is about
 * 5 CAL + 4 WL = 0.41 M ticks. A budget of 1.0 M holds two groups: before
 * the third, about 0.16 M is left and its estimate is 0.41 M. The events
 * of the groups run come back exactly; those of the groups left out are
 * not measured.
 */
#define WL_TICKS 100000u
#define CAL_TICKS 1000u

static void budget_setup(struct setup *t, struct bt_measure_opts *o)
{
	CHECK(prepare(t, "skl"));
	t->source.tsc_per_window = WL_TICKS;
	t->sim.cfg.tsc_per_window = CAL_TICKS;
	bt_measure_opts_defaults(o);
	o->warmups = 1;
	o->reps = 3;
	o->calib_runs = 5;
}

TEST(the_budget_runs_the_groups_that_fit_and_names_the_others)
{
	static struct setup t;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };
	struct bt_sim_regs before, after;
	char diff[200] = "";

	budget_setup(&t, &o);
	CHECK_MSG(t.plan.n_groups >= 4, "the fixture plans %d groups", t.plan.n_groups);
	o.budget_ticks = 1000000;
	bt_sim_snapshot(&t.sim, &before);
	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(m.n_groups_run, 2);
	CHECK_EQ_INT(m.n_groups_skipped, t.plan.n_groups - 2);
	CHECK_EQ_INT(m.n_runs, 2 * 3);
	CHECK_MSG(m.budget_est_ticks > m.budget_left_ticks && m.budget_est_ticks >= 4 * WL_TICKS,
		  "estimate %llu, left %llu", (unsigned long long)m.budget_est_ticks,
		  (unsigned long long)m.budget_left_ticks);
	int in_run = 0, left_out = 0;
	for (int i = 0; i < t.n; i++) {
		if (t.ev[i].source != BT_SRC_PMC || t.plan.ev[i].place != BT_PLACE_GP)
			continue;
		if (t.plan.ev[i].group < 2) {
			in_run++;
			CHECK_MSG(m.ev[i].measured && m.ev[i].median == t.src[i].count,
				  "%s (group %d)", t.ev[i].name, t.plan.ev[i].group);
		} else {
			left_out++;
			CHECK_MSG(!m.ev[i].measured, "%s of group %d measured", t.ev[i].name,
				  t.plan.ev[i].group);
		}
	}
	CHECK(in_run > 0 && left_out > 0);
	/* The fixed counters ride in every group: counted by the groups run. */
	int inst = index_of_fixed(&t, 0);
	CHECK(inst >= 0 && m.ev[inst].measured && m.ev[inst].median == t.src[inst].count);
	for (int k = 0; k < m.n_runs; k++)
		CHECK_MSG(m.runs[k].group < 2 && m.runs[k].tsc >= WL_TICKS &&
				  m.runs[k].tsc < WL_TICKS + 1000, /* the start and stop writes */
			  "run %d: group %d, tsc %llu", k, m.runs[k].group,
			  (unsigned long long)m.runs[k].tsc);
	bt_sim_snapshot(&t.sim, &after);
	CHECK_MSG(bt_sim_regs_equal(&before, &after, diff, sizeof(diff)), "%s", diff);
	CHECK_MSG(t.sim.n_violations == 0, "%s", t.sim.violations[0]);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* The first group is planned after its warm-up, the first run of this
 * workload: 5 CAL + WL leave about 0.19 M of 0.3 M, and 3 repetitions
 * need 0.3 M: nothing is measured, and the measurement says so. Without a
 * budget every group runs. */
TEST(the_first_group_is_planned_from_its_warm_up)
{
	static struct setup t;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };

	budget_setup(&t, &o);
	o.budget_ticks = 300000;
	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(m.n_groups_run, 0);
	CHECK_EQ_INT(m.n_groups_skipped, t.plan.n_groups);
	CHECK_EQ_INT(m.n_runs, 0);
	for (int i = 0; i < t.n; i++)
		CHECK_MSG(!m.ev[i].measured, "%s measured", t.ev[i].name);
	CHECK_MSG(t.sim.n_violations == 0, "%s", t.sim.violations[0]);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);

	budget_setup(&t, &o);
	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(m.n_groups_run, t.plan.n_groups);
	CHECK_EQ_INT(m.n_groups_skipped, 0);
	check_exact(&t, &m, "skl, no budget");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/*
 * The window cap splits a run into windows whose counts add up to one
 * whole run. The workload declares 8 iterations; a whole window is
 * WL_TICKS = 100000 simulated ticks, the cap 30000: the first warm-up
 * shows the run is over it, and 100000 plus a quarter over 30000 is 5
 * windows (iterations 0-1, 1-3, 3-4, 4-6, 6-8). The simulated PMU counts
 * each window's share of the workload's counts (floor(n e / 8) -
 * floor(n b / 8)), so every event must come back exactly as one whole run
 * counts it: that is the engine programming and clearing the counters once
 * per run, reading them once after its last window, and subtracting a
 * calibration split the same way. Between the windows of a run the
 * counters are stopped (the stop write of IA32_PERF_GLOBAL_CTRL, and no
 * other write to the PMU but the next start) and interrupts are open
 * (seen through an arch that wraps the sim's interrupt masking).
 */
struct split_wl {
	uint64_t ranges[64][2];
	int n_ranges;
};

static void split_set_range(void *ctx, uint64_t begin, uint64_t end)
{
	struct split_wl *w = ctx;

	if (w->n_ranges < 64) {
		w->ranges[w->n_ranges][0] = begin;
		w->ranges[w->n_ranges][1] = end;
	}
	w->n_ranges++;
}

static struct {
	const struct bt_arch_ops *sim_ops;
	bool masked;
	int windows, windows_unmasked, opened_between;
	bool opened_since_window;
} irq_watch;

static uint64_t watch_irq_save(struct bt_arch *a)
{
	irq_watch.masked = true;
	return irq_watch.sim_ops->irq_save(a);
}

static void watch_irq_restore(struct bt_arch *a, uint64_t st)
{
	irq_watch.masked = false;
	irq_watch.opened_since_window = true;
	irq_watch.sim_ops->irq_restore(a, st);
}

static bt_status watch_run_window(struct bt_arch *a, uint32_t msr, uint64_t start,
				  uint64_t stop, bt_window_fn *fn, void *arg)
{
	irq_watch.windows++;
	irq_watch.windows_unmasked += !irq_watch.masked;
	irq_watch.opened_between += irq_watch.windows > 1 && irq_watch.opened_since_window;
	irq_watch.opened_since_window = false;
	return irq_watch.sim_ops->run_window(a, msr, start, stop, fn, arg);
}

TEST(a_split_run_counts_exactly_what_one_whole_run_counts)
{
	static struct setup t;
	static struct split_wl w;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, &w, 8, split_set_range };
	static const uint64_t want[5][2] = { { 0, 1 }, { 1, 3 }, { 3, 4 }, { 4, 6 }, { 6, 8 } };

	memset(&w, 0, sizeof(w));
	memset(&irq_watch, 0, sizeof(irq_watch));
	budget_setup(&t, &o);
	struct bt_arch_ops ops = *t.sim.arch.ops;
	irq_watch.sim_ops = t.sim.arch.ops;
	ops.irq_save = watch_irq_save;
	ops.irq_restore = watch_irq_restore;
	ops.run_window = watch_run_window;
	struct bt_arch watched = t.sim.arch;
	watched.ops = &ops;
	t.pmu.arch = &watched;
	o.max_window_ticks = 30000;
	size_t log0 = t.sim.log_len;

	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(m.chunks, 5);
	CHECK(m.whole_window_ticks >= WL_TICKS && !m.over_cap_whole);
	check_exact(&t, &m, "skl, runs split in 5 windows");
	for (int k = 0; k < m.n_runs; k++)
		CHECK_MSG(m.runs[k].tsc >= WL_TICKS && m.runs[k].tsc < WL_TICKS + 5 * 1000,
			  "run %d: tsc %llu", k, (unsigned long long)m.runs[k].tsc);
	/* set_range: the 5 parts in order, then the whole run again, per run */
	CHECK(w.n_ranges > 0 && w.n_ranges % 6 == 0);
	for (int r = 0; r < w.n_ranges && r < 64; r++) {
		int c = r % 6;
		uint64_t b = c < 5 ? want[c][0] : 0, e = c < 5 ? want[c][1] : 8;
		CHECK_MSG(w.ranges[r][0] == b && w.ranges[r][1] == e, "range %d: %llu-%llu", r,
			  (unsigned long long)w.ranges[r][0], (unsigned long long)w.ranges[r][1]);
	}
	/* every window masked, interrupts open between any two */
	CHECK_EQ_INT(irq_watch.windows_unmasked, 0);
	CHECK_EQ_INT(irq_watch.opened_between, irq_watch.windows - 1);
	/* between two windows of a run (no counter read in between): only the
	 * stop write of GLOBAL_CTRL = 0 and the next start touch the PMU */
	int gaps = 0;
	for (size_t i = log0; i < t.sim.log_len; i++) {
		if (t.sim.log[i].op != BT_SIM_WINDOW_END)
			continue;
		size_t j = i + 1;
		bool read = false, other = false;
		for (; j < t.sim.log_len && t.sim.log[j].op != BT_SIM_WINDOW_BEGIN; j++) {
			read |= t.sim.log[j].op == BT_SIM_RDPMC;
			other |= t.sim.log[j].op == BT_SIM_WRMSR && t.sim.log[j].index != 0x38F;
		}
		if (j == t.sim.log_len || read)
			continue; /* the run's last window: read, next run programmed */
		gaps++;
		CHECK_MSG(!other, "a PMU write other than GLOBAL_CTRL between two windows (log %zu)", i);
		CHECK_MSG(i + 1 < t.sim.log_len && t.sim.log[i + 1].op == BT_SIM_WRMSR &&
				  t.sim.log[i + 1].index == 0x38F && t.sim.log[i + 1].value == 0,
			  "the window at log %zu does not end with GLOBAL_CTRL = 0", i);
	}
	CHECK_MSG(gaps >= 4 * (m.n_runs + 1), "%d gaps between windows", gaps);
	CHECK_MSG(t.sim.n_violations == 0, "%s", t.sim.violations[0]);
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

/* A body that declares no iteration space runs whole over the cap, and the
 * measurement says so. */
TEST(a_run_over_the_cap_that_cannot_be_split_runs_whole)
{
	static struct setup t;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_measure_workload wl = { sim_workload, NULL, NULL, NULL, NULL, 0, NULL };

	budget_setup(&t, &o);
	o.max_window_ticks = 30000;
	CHECK_EQ_INT(bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(m.chunks, 1);
	CHECK(m.over_cap_whole && m.whole_window_ticks >= WL_TICKS);
	check_exact(&t, &m, "skl, whole over the cap");
	bt_measurement_free(&m);
	bt_sim_free(&t.sim);
}

TEST(timing_without_counters)
{
	struct bt_timing t;
	uint64_t n = 0;
	struct bt_diag d;
	struct bt_measure_workload wl = { spin, &n, NULL, NULL, NULL, 0, NULL };

	CHECK_EQ_INT(bt_time_workload(bt_arch_cpuid_host(), &wl, 1, 5, false, &t, &d), BT_OK);
	CHECK_EQ_INT(t.runs, 5);
	CHECK(t.min > 0 && t.min <= t.median && t.median <= t.max);
	CHECK_EQ_U64(n, 6ull * (100000ull * 99999ull / 2)); /* 1 warm-up + 5 runs */
	CHECK_EQ_INT(bt_time_workload(bt_arch_cpuid_host(), &wl, 0, 0, false, &t, &d),
		     BT_ERR_INVALID);
}

TEST(median_is_an_observed_value)
{
	uint64_t v[] = { 9, 1, 5, 3 };
	CHECK_EQ_U64(bt_median_u64(v, 4), 3);
	CHECK_EQ_U64(bt_median_u64(v, 3), 5);
	CHECK_EQ_U64(bt_median_u64(v, 1), 9);
}

/*
 * An operating system's driver (struct bt_pmu.driver, as host/perf-pmu.c
 * for --backend=perf): the engine opens the session with it instead of the
 * driver for caps.kind, and calibrates and subtracts exactly as on the EFI
 * path. The fake driver's window counts the body's work plus a fixed
 * overhead of its own, scaled per counter.
 */
struct fake_os {
	uint64_t work;           /* what the body did, as the counters see it */
	uint64_t last;           /* the last window's count: work + overhead */
	int opens, programs, runs, reads, restores;
	bool state_seen;
};
static struct fake_os fake_os;

static void fake_body(void *arg)
{
	fake_os.work += *(const uint64_t *)arg;
}

static bt_status fake_open(struct bt_pmu_session *s)
{
	fake_os.opens++;
	s->driver_state = &fake_os;
	return BT_OK;
}

static bt_status fake_program(struct bt_pmu_session *s)
{
	fake_os.programs++;
	fake_os.state_seen |= s->driver_state == &fake_os;
	return BT_OK;
}

static bt_status fake_run(struct bt_pmu_session *s, bt_window_fn *fn, void *arg)
{
	uint64_t w0 = fake_os.work;
	fake_os.runs++;
	s->tsc0 = 1000;
	fn(arg);
	s->tsc1 = 1500;
	fake_os.last = fake_os.work - w0 + 7; /* 7: the window's own count */
	return BT_OK;
}

static bt_status fake_read(struct bt_pmu_session *s, struct bt_pmu_counts *c)
{
	fake_os.reads++;
	for (unsigned k = 0; k < BT_PMU_MAX_GP; k++)
		if (s->gp_used & (1u << k))
			c->gp_delta[k] = fake_os.last * (k + 2);
	if (s->fixed_used & 1u)
		c->fixed_delta[0] = fake_os.last;
	return BT_OK;
}

static bt_status fake_restore(struct bt_pmu_session *s)
{
	fake_os.restores++;
	s->driver_state = NULL;
	return BT_OK;
}

static const struct bt_pmu_driver fake_os_driver = {
	.name = "fake OS driver", .kinds = 0, .fixed_counters = true,
	.open = fake_open, .program = fake_program, .run = fake_run,
	.read = fake_read, .restore = fake_restore,
};

TEST(an_os_driver_named_by_the_pmu_counts_and_is_calibrated_as_on_efi)
{
	struct bt_pmu pmu;
	struct bt_event ev[3];
	const struct bt_event *evp[3];
	static struct bt_plan plan;
	static struct bt_plan_scratch scratch;
	struct bt_measurement m;
	struct bt_measure_opts o;
	uint64_t per_run = 1000;
	struct bt_measure_workload wl = { .run = fake_body, .arg = &per_run };

	memset(&pmu, 0, sizeof(pmu));
	memset(&fake_os, 0, sizeof(fake_os));
	pmu.arch = bt_arch_cpuid_host();   /* MSRs refused: baretop's driver cannot count */
	pmu.caps.kind = BT_PMU_INTEL_ARCH;
	pmu.caps.version = 4;
	pmu.caps.num_gp = 4;
	pmu.caps.gp_mask = 0xF;
	pmu.caps.gp_width = 48;
	pmu.caps.num_fixed = 3;
	pmu.caps.fixed_mask = 0x7;
	pmu.caps.fixed_width = 48;
	ev[0] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0, 0, 0xF);
	ev[1] = fx_gp("BR_INST_RETIRED.ALL_BRANCHES", 0xC4, 0x00, 0, 0xF);
	ev[2] = fx_gp("MEM_INST_RETIRED.ALL_LOADS", 0xD0, 0x81, 0, 0xF);
	fx_ptrs(ev, 3, evp);
	CHECK(bt_plan_events(evp, 3, &pmu.caps, NULL, &scratch, &plan) == BT_OK);
	bt_measure_opts_defaults(&o);

	/* Without the OS driver the Intel driver is chosen, and its first
	 * WRMSR is refused on the hosted arch. */
	CHECK(bt_measure(&pmu, &plan, evp, &wl, &o, &m) != BT_OK);
	bt_measurement_free(&m);
	CHECK_EQ_INT(fake_os.opens, 0);

	pmu.driver = &fake_os_driver;
	CHECK_EQ_INT(bt_measure(&pmu, &plan, evp, &wl, &o, &m), BT_OK);
	CHECK_EQ_INT(fake_os.opens, 1);
	CHECK_EQ_INT(fake_os.restores, 1);
	CHECK(fake_os.state_seen);
	CHECK(fake_os.programs >= plan.n_groups);
	/* Every window's overhead (7 per unit, scaled per counter) is what the
	 * calibration counts and subtracts: the body's work is left. */
	CHECK_EQ_U64(m.ev[0].median, 1000);
	CHECK_EQ_U64(m.ev[0].overhead, 7);
	for (int i = 1; i < 3; i++) {
		CHECK_MSG(plan.ev[i].place == BT_PLACE_GP, "%s not on a general counter", ev[i].name);
		uint64_t scale = plan.ev[i].counter + 2u;
		CHECK_EQ_U64(m.ev[i].median, 1000 * scale);
		CHECK_EQ_U64(m.ev[i].overhead, 7 * scale);
	}
	CHECK_EQ_U64(m.inst_median, 1000);
	bt_measurement_free(&m);
}

/*
 * PMCx02B by family and model, as Linux perf maps its Zen event lists
 * (tools/perf/pmu-events/arch/x86/mapfile.csv: amdzen1 family 17h models
 * 00h-2Fh, amdzen2 the rest of 17h, amdzen3/amdzen4 family 19h, amdzen5
 * 1Ah) and which of them list ls_smi_rx 0x2b (all but amdzen1): the zen2
 * preset answering as each part, an SMI in every window; the SMI count
 * exactly 1 per run where the family has the event, none where not.
 */
TEST(amd_smi_rx_by_family_as_linux_lists_it)
{
	static const struct { uint32_t sig; bool has; const char *part; } parts[] = {
		{ 0x00800F11, false, "17h 01h Zen (Naples)" },
		{ 0x00800F82, false, "17h 08h Zen+ (Pinnacle Ridge)" },
		{ 0x00820F01, false, "17h 20h Zen (Dali)" },
		{ 0x00830F10, true, "17h 31h Zen 2 (Rome)" },
		{ 0x00870F10, true, "17h 71h Zen 2 (Matisse)" },
		{ 0x00A00F11, true, "19h 01h Zen 3 (Milan)" },
		{ 0x00A50F00, true, "19h 50h Zen 3 (Cezanne)" },
		{ 0x00A10F11, true, "19h 11h Zen 4 (Genoa)" },
		{ 0x00B40F40, true, "1Ah 44h Zen 5 (Granite Ridge)" },
	};
	static struct setup t;
	for (size_t i = 0; i < BT_ARRAY_SIZE(parts); i++) {
		struct bt_sim_config cfg = *bt_sim_preset("zen2");
		struct bt_measurement m;
		cfg.signature = parts[i].sig;
		memset(&t, 0, sizeof(t));
		CHECK(bt_sim_init(&t.sim, &cfg) == BT_OK);
		t.pmu.arch = &t.sim.arch;
		bt_pmu_caps_detect(&t.sim.arch, &t.pmu.caps);
		CHECK_MSG(t.pmu.caps.amd_smi_rx == parts[i].has, "%s", parts[i].part);
		t.n = fx_set_for(&t.sim.cfg, t.ev);
		fx_ptrs(t.ev, t.n, t.evp);
		CHECK(bt_sim_generate_counts(t.evp, (size_t)t.n, 7, t.src) == BT_OK);
		t.source = (struct bt_sim_source){ t.src, (size_t)t.n, 0, sim_workload };
		bt_sim_set_source(&t.sim, &t.source);
		CHECK(bt_plan_events(t.evp, t.n, &t.pmu.caps, NULL, &t.scratch, &t.plan) == BT_OK);
		CHECK_MSG(t.plan.has_smi_gp == parts[i].has, "%s", parts[i].part);
		struct disturb every = { &t, 0, -1, 0, -1, 0, 0 };
		run_disturbed(&every, &m);
		for (int r = 0; r < m.n_runs; r++)
			CHECK_MSG(m.runs[r].has_smi == parts[i].has &&
					  (!parts[i].has || m.runs[r].smi == 1),
				  "%s: run %d", parts[i].part, r);
		bt_measurement_free(&m);
		bt_sim_free(&t.sim);
	}
}

/*
 * TSX force abort (the 2019 TSX microcode on Skylake-class parts:
 * CPUID.07H:EDX[13]): the microcode holds IA32_PMC3 unless
 * MSR_TSX_FORCE_ABORT[0] is set, which the sim models by counter 3
 * counting nothing of the workload then. The driver sets the bit before a
 * group counts on counter 3 (Linux intel_tfa_commit_scheduling) and puts
 * the MSR back at close: every event exact, the MSR as found, and a run
 * that never uses counter 3 never touches it.
 */
TEST(tsx_force_abort_frees_counter_3_and_is_put_back)
{
	static struct setup t;
	struct bt_measurement m;
	struct bt_measure_opts o;
	struct bt_sim_config cfg = *bt_sim_preset("skl");
	uint64_t per_run = 1;
	struct bt_measure_workload wl = { .run = sim_workload, .arg = &per_run };
	struct bt_sim_regs before;
	char diff[200] = "";

	cfg.tsx_force_abort = true;
	memset(&t, 0, sizeof(t));
	CHECK(bt_sim_init(&t.sim, &cfg) == BT_OK);
	t.pmu.arch = &t.sim.arch;
	bt_pmu_caps_detect(&t.sim.arch, &t.pmu.caps);
	CHECK(t.pmu.caps.tsx_force_abort);
	t.n = fx_set_for(&t.sim.cfg, t.ev);
	fx_ptrs(t.ev, t.n, t.evp);
	CHECK(bt_sim_generate_counts(t.evp, (size_t)t.n, 7, t.src) == BT_OK);
	t.source = (struct bt_sim_source){ t.src, (size_t)t.n, 0, sim_workload };
	bt_sim_set_source(&t.sim, &t.source);
	CHECK(bt_plan_events(t.evp, t.n, &t.pmu.caps, NULL, &t.scratch, &t.plan) == BT_OK);
	bool uses3 = false;
	for (int g = 0; g < t.plan.n_groups; g++)
		for (int k = 0; k < t.plan.groups[g].n_gp; k++)
			uses3 |= t.plan.groups[g].gp[k].counter == 3;
	CHECK(uses3);
	bt_measure_opts_defaults(&o);
	o.reps = 3;
	bt_sim_snapshot(&t.sim, &before);
	bt_status st = bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m);
	CHECK_MSG(st == BT_OK, "%s", m.error);
	if (st == BT_OK) {
		check_exact(&t, &m, "skl+tfa");
		CHECK(strstr(m.pmu_warning, "MSR_TSX_FORCE_ABORT[0]") != NULL);
		bt_measurement_free(&m);
	}
	CHECK(bt_sim_log_find(&t.sim, 0, BT_SIM_WRMSR, 0x10F) >= 0);
	bt_sim_snapshot(&t.sim, &t.sim.found);
	CHECK_MSG(bt_sim_regs_equal(&before, &t.sim.found, diff, sizeof(diff)), "%s", diff);
	bt_sim_free(&t.sim);

	/* Only counters 0-2 in the plan: MSR_TSX_FORCE_ABORT never written. */
	CHECK(bt_sim_init(&t.sim, &cfg) == BT_OK);
	t.pmu.arch = &t.sim.arch;
	bt_pmu_caps_detect(&t.sim.arch, &t.pmu.caps);
	t.pmu.caps.gp_mask = 0x7;
	t.pmu.caps.num_gp = 3;
	bt_sim_set_source(&t.sim, &t.source);
	CHECK(bt_plan_events(t.evp, t.n, &t.pmu.caps, NULL, &t.scratch, &t.plan) == BT_OK);
	st = bt_measure(&t.pmu, &t.plan, t.evp, &wl, &o, &m);
	CHECK_MSG(st == BT_OK, "%s", m.error);
	if (st == BT_OK)
		bt_measurement_free(&m);
	CHECK(bt_sim_log_find(&t.sim, 0, BT_SIM_WRMSR, 0x10F) < 0);
	bt_sim_free(&t.sim);
}
