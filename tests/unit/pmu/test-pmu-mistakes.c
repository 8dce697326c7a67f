/* SPDX-License-Identifier: MIT */
/*
 * Each known class of programming mistake, injected through the driver's
 * test-only mutation switches (struct bt_pmu_mutation, struct
 * bt_plan_mutation), is caught by the simulated PMU: a #GP, a wrong count or
 * a recorded sequence violation. Every test also runs the same measurement
 * without the mutation and requires it to be clean, so a test that cannot
 * fail would show up as a failing clean run or a passing mutated one.
 */
#include "pmu/pmu-caps.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_plan plan;
static struct bt_plan_scratch scratch;
static struct bt_pmu_counts counts;

struct outcome {
	bool faulted;        /* the driver reported a fault / error */
	int wrong_counts;    /* counts that differ from the source */
	int violations;      /* sequence violations the sim recorded */
	bool restored;
	char msg[256];
};

static bool caught(const struct outcome *o)
{
	return o->faulted || o->wrong_counts > 0 || o->violations > 0;
}

static bool clean(const struct outcome *o)
{
	return !caught(o) && o->restored;
}

/* Plan and measure `ev` on `preset`, twice over (the second group run sees
 * the state the first left), with the given mutations. */
static struct outcome measure(const char *preset, struct bt_event *ev, int n,
			      const struct bt_pmu_mutation *m, const struct bt_plan_mutation *pm,
			      uint64_t counter_start)
{
	struct outcome o;
	memset(&o, 0, sizeof(o));
	static struct bt_sim sim;
	static const struct bt_event *evp[FX_MAX];
	static struct bt_sim_count src[FX_MAX];
	CHECK(bt_sim_init(&sim, bt_sim_preset(preset)) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	fx_ptrs(ev, n, evp);
	CHECK(bt_sim_generate_counts(evp, (size_t)n, 7, src) == BT_OK);
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	bt_sim_set_source(&sim, &source);
	struct bt_plan_opts popts = { .mutation = pm };
	bt_plan_events(evp, n, &caps, &popts, &scratch, &plan);
	struct bt_sim_regs before, after;
	bt_sim_snapshot(&sim, &before);
	struct bt_pmu_session s;
	struct bt_pmu_session_opts opts = { .mutation = m, .counter_start = counter_start };
	if (bt_pmu_open(&s, &sim.arch, &caps, &opts) != BT_OK)
		o.faulted = true;
	for (int rep = 0; rep < 2 && !o.faulted; rep++)
		for (int g = 0; g < plan.n_groups && !o.faulted; g++) {
			if (bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts) != BT_OK) {
				o.faulted = true;
				snprintf(o.msg, sizeof(o.msg), "%s", bt_pmu_error(&s));
				break;
			}
			for (int i = 0; i < n; i++)
				if (counts.measured[i] && evp[i]->source != BT_SRC_TSC &&
				    counts.count[i] != src[i].count)
					o.wrong_counts++;
		}
	bt_pmu_close(&s);
	bt_sim_snapshot(&sim, &after);
	o.restored = bt_sim_regs_equal(&before, &after, NULL, 0);
	o.violations = sim.n_violations;
	if (!o.msg[0] && sim.n_violations)
		snprintf(o.msg, sizeof(o.msg), "%s", sim.violations[0]);
	bt_sim_free(&sim);
	return o;
}

static int skl_events(struct bt_event *ev)
{
	const struct bt_sim_config *c = bt_sim_preset("skl");
	return fx_filter_msrs(ev, fx_skl_set(ev), c);
}

#define EXPECT_CAUGHT(o) CHECK_MSG(caught(&(o)), "mistake not caught")
#define EXPECT_CLEAN(expr)                                                              \
	do {                                                                            \
		struct outcome o_ = (expr);                                             \
		CHECK_MSG(clean(&o_), "clean run not clean: faulted=%d wrong=%d viol=%d restored=%d %s", \
			  o_.faulted, o_.wrong_counts, o_.violations, o_.restored, o_.msg); \
	} while (0)

TEST(mistake_wrong_rdpmc_fixed_counter_bit)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_pmu_mutation m = { .rdpmc_no_fixed_bit = true };
	struct outcome bad = measure("skl", ev, n, &m, NULL, 0);
	struct outcome good = measure("skl", ev, n, NULL, NULL, 0);
	EXPECT_CAUGHT(bad);
	/* Reading "fixed counter i" as general counter i gives another count. */
	CHECK(bad.wrong_counts > 0 || bad.faulted);
	EXPECT_CLEAN(good);
}

TEST(mistake_sign_extended_pmc_write_without_full_width)
{
	/* nhm: no IA32_A_PMCx. A start value of 2^31 written through IA32_PMCx
	 * becomes 0xFFFF80000000 (bit 31 sign-extended to 48 bits, SDM 20.2.6);
	 * a driver assuming it was stored as is gets every count wrong. */
	static struct bt_event ev[FX_MAX];
	int n = fx_filter_msrs(ev, fx_skl_set(ev), bt_sim_preset("nhm"));
	struct bt_pmu_mutation m = { .pmc_write_assume_full = true };
	struct outcome bad = measure("nhm", ev, n, &m, NULL, 0x80000000ull);
	struct outcome good = measure("nhm", ev, n, NULL, NULL, 0x80000000ull);
	EXPECT_CAUGHT(bad);
	CHECK(bad.wrong_counts > 0);
	EXPECT_CLEAN(good);
}

TEST(mistake_full_width_alias_without_capability_faults)
{
	/* Writing IA32_A_PMC0 on a part without PERF_CAPABILITIES[13] is #GP. */
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("nhm")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, MSR_IA32_A_PMC0, 5) == BT_ERR_FAULT);
	CHECK_EQ_INT(sim.arch.fault_vector, BT_VEC_GP);
	CHECK(bt_wrmsr(&sim.arch, MSR_IA32_PMC0, 0x80000000ull) == BT_OK);
	uint64_t v;
	CHECK(bt_rdmsr(&sim.arch, MSR_IA32_PMC0, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xFFFF80000000ull);
	bt_sim_free(&sim);
}

TEST(mistake_wrong_fixed_control_field_offset)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_pmu_mutation m = { .fixed_ctrl_3bit_stride = true };
	struct outcome bad = measure("skl", ev, n, &m, NULL, 0);
	EXPECT_CAUGHT(bad);
	EXPECT_CLEAN(measure("skl", ev, n, NULL, NULL, 0));
	/* On a v5 part the misplaced bits land on AnyThread bits, which are
	 * deprecated there (CPUID.0AH:EDX[15]). No manual says writing them
	 * faults, so the sim ignores them: the mistake shows as wrong counts
	 * (fixed counter 1 counts ring 0 only, 2 ring > 0 only, 3 nothing). */
	static struct bt_event ie[FX_MAX];
	int ni = fx_icl_set(ie);
	struct outcome bad5 = measure("icl", ie, ni, &m, NULL, 0);
	CHECK(!bad5.faulted);
	CHECK(bad5.wrong_counts >= 3);
	CHECK(bad5.restored);
}

TEST(mistake_enabling_before_programming)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_pmu_mutation m = { .enable_before_program = true };
	struct outcome bad = measure("skl", ev, n, &m, NULL, 0);
	EXPECT_CAUGHT(bad);
	/* The sim sees selectors rewritten while enabled, and the counters
	 * count the driver's own programming. */
	CHECK(bad.violations > 0);
	CHECK(bad.wrong_counts > 0);
	EXPECT_CLEAN(measure("skl", ev, n, NULL, NULL, 0));
}

TEST(mistake_not_stopping_first)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_pmu_mutation m = { .no_stop_first = true };
	struct outcome bad = measure("skl", ev, n, &m, NULL, 0);
	EXPECT_CAUGHT(bad);
}

TEST(mistake_not_resetting_perf_metrics_with_slots)
{
	/* The sim starts with PERF_METRICS holding fractions of an earlier
	 * SLOTS; resetting only FIXED_CTR3 leaves them stale. */
	static struct bt_event ev[FX_MAX];
	int n = fx_icl_set(ev);
	struct bt_pmu_mutation m = { .slots_reset_without_pm = true };
	struct outcome bad = measure("icl", ev, n, &m, NULL, 0);
	EXPECT_CAUGHT(bad);
	CHECK(bad.violations > 0);
	CHECK(bad.wrong_counts > 0);
	EXPECT_CLEAN(measure("icl", ev, n, NULL, NULL, 0));
}

TEST(mistake_missing_amd_event_bits_35_32_for_0x1a0)
{
	static struct bt_event ev[FX_MAX];
	int n = fx_zen4_set(ev);
	struct bt_pmu_mutation m = { .amd_drop_event_hi = true };
	struct outcome bad = measure("zen4", ev, n, &m, NULL, 0);
	EXPECT_CAUGHT(bad);
	/* de_no_dispatch_per_slot.* (0x1A0) programmed as 0xA0 count nothing. */
	CHECK(bad.wrong_counts >= 3);
	EXPECT_CLEAN(measure("zen4", ev, n, NULL, NULL, 0));
}

TEST(mistake_more_events_in_a_group_than_counters)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_plan_mutation pm = { .extra_counters = 1 };
	/* The validator rejects the plan... */
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	static const struct bt_event *evp[FX_MAX];
	fx_ptrs(ev, n, evp);
	struct bt_plan_opts popts = { .mutation = &pm };
	bt_plan_events(evp, n, &caps, &popts, &scratch, &plan);
	struct bt_diag d = { "" };
	CHECK(bt_plan_validate(&plan, evp, n, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "general counter") != NULL);
	/* ...and if programmed anyway, the driver refuses before touching any
	 * MSR: counter 4 does not exist (it does not rely on a #GP). */
	struct outcome bad = measure("skl", ev, n, NULL, &pm, 0);
	CHECK(bad.faulted);
	CHECK_MSG(strstr(bad.msg, "general counter 4") && strstr(bad.msg, "nothing programmed"),
		  "%s", bad.msg);
	CHECK(bad.restored);
	EXPECT_CLEAN(measure("skl", ev, n, NULL, NULL, 0));
}

TEST(mistake_not_restoring_is_visible)
{
	static struct bt_event ev[FX_MAX];
	int n = skl_events(ev);
	struct bt_pmu_mutation m = { .no_restore = true };
	struct outcome bad = measure("skl", ev, n, &m, NULL, 0);
	CHECK(!bad.restored);
}

/* Reserved bits and missing registers fault where the manuals say. */
TEST(sim_faults_where_the_manuals_say)
{
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("icl")) == BT_OK);
	struct bt_arch *a = &sim.arch;
	uint64_t v;
	CHECK(bt_wrmsr(a, MSR_IA32_PERFEVTSEL0, 1ull << 32) == BT_ERR_FAULT);     /* reserved */
	/* AnyThread deprecated (CPUID.0AH:EDX[15]): accepted, no #GP asserted
	 * without a manual saying so (test-pmu-sim: it has no effect). */
	CHECK(bt_wrmsr(a, MSR_IA32_PERFEVTSEL0, EVTSEL_ANY | 0x3C) == BT_OK);
	CHECK(bt_wrmsr(a, MSR_IA32_PERFEVTSEL0, 0) == BT_OK);
	CHECK(bt_wrmsr(a, MSR_IA32_PERFEVTSEL0, EVTSEL_EQ | 0x3C) == BT_ERR_FAULT);  /* no CPUID.23H */
	CHECK(bt_wrmsr(a, MSR_IA32_PERFEVTSEL0 + 8, 0) == BT_ERR_FAULT);          /* 8 counters */
	CHECK(bt_rdpmc(a, 8, &v) == BT_ERR_FAULT);
	CHECK(bt_rdpmc(a, (1u << 30) | 4, &v) == BT_ERR_FAULT);                  /* 4 fixed */
	CHECK(bt_rdpmc(a, (1u << 29) | 1, &v) == BT_ERR_FAULT);
	CHECK(bt_rdpmc(a, 1u << 29, &v) == BT_OK);
	CHECK(bt_wrmsr(a, MSR_IA32_FIXED_CTR_CTRL, 1ull << 16) == BT_ERR_FAULT);  /* field 4 */
	CHECK(bt_wrmsr(a, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 8) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 48) == BT_OK);      /* PERF_METRICS */
	CHECK(bt_wrmsr(a, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 40) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, MSR_IA32_PERF_GLOBAL_STATUS, 0) == BT_ERR_FAULT);       /* RO */
	CHECK(bt_wrmsr(a, MSR_PERF_METRICS, 1ull << 40) == BT_ERR_FAULT);         /* 4 fields on ICL */
	CHECK(bt_wrmsr(a, MSR_PEBS_LD_LAT, 1ull << 16) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, MSR_IA32_FIXED_CTR0, 1ull << 48) == BT_ERR_FAULT);      /* beyond width */
	CHECK(bt_rdmsr(a, 0x12345, &v) == BT_ERR_FAULT);
	bt_sim_free(&sim);

	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, MSR_PERF_METRICS, &v) == BT_ERR_FAULT);         /* no capability */
	CHECK(bt_wrmsr(&sim.arch, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 48) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, MSR_IA32_PERFEVTSEL0, EVTSEL_ANY | 0x3C) == BT_OK); /* v4 */
	bt_sim_free(&sim);

	struct bt_sim_config c = *bt_sim_preset("skl");
	c.pdcm = false;
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, MSR_IA32_PERF_CAPABILITIES, &v) == BT_ERR_FAULT);
	bt_sim_free(&sim);

	CHECK(bt_sim_init(&sim, bt_sim_preset("amd-legacy")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_CORE_EVTSEL0, 0) == BT_ERR_FAULT);       /* no extension */
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_PERF_GLOBAL_CTL, 0) == BT_ERR_FAULT);    /* no PerfMonV2 */
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_PERFEVTSEL0, 1ull << 19) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_PERFEVTSEL0, 0xFull << 32 | 0xA0) == BT_OK);
	bt_sim_free(&sim);
	CHECK(bt_sim_init(&sim, bt_sim_preset("zen4")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_PERF_GLOBAL_CTL, 1ull << 6) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, MSR_AMD_CORE_EVTSEL0 + 2 * 6, 0) == BT_ERR_FAULT);
	CHECK(bt_rdpmc(&sim.arch, 6, &v) == BT_ERR_FAULT);
	bt_sim_free(&sim);
}

/* The programming sequence itself: stop, program, one write to start, one
 * to stop, reads after the stop. */
TEST(sequence_stop_program_one_start_one_stop)
{
	static struct bt_sim sim;
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = skl_events(ev);
	fx_ptrs(ev, n, evp);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
	bt_sim_log_clear(&sim);
	struct bt_pmu_session s;
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_OK);
	CHECK(bt_pmu_close(&s) == BT_OK);
	long stop = bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, MSR_IA32_PERF_GLOBAL_CTRL);
	long first_sel = bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, MSR_IA32_PERFEVTSEL0);
	long begin = bt_sim_log_find(&sim, 0, BT_SIM_WINDOW_BEGIN, MSR_IA32_PERF_GLOBAL_CTRL);
	long end = bt_sim_log_find(&sim, 0, BT_SIM_WINDOW_END, MSR_IA32_PERF_GLOBAL_CTRL);
	CHECK(stop >= 0 && sim.log[stop].value == 0);
	CHECK(first_sel > stop);
	CHECK(begin > first_sel && end == begin + 1);      /* nothing else inside the window */
	CHECK(sim.log[begin - 1].op == BT_SIM_WRMSR && sim.log[begin - 1].value != 0);
	CHECK(sim.log[end + 1].op == BT_SIM_WRMSR && sim.log[end + 1].value == 0);
	/* Only one GLOBAL_CTRL write between the stop at open and the window. */
	int writes = 0;
	for (long i = stop + 1; i < begin; i++)
		writes += sim.log[i].op == BT_SIM_WRMSR && sim.log[i].index == MSR_IA32_PERF_GLOBAL_CTRL;
	CHECK_EQ_INT(writes, 1);
	/* Every write to a register is preceded by a read of it (saved first). */
	for (size_t i = 0; i < sim.log_len; i++) {
		if (sim.log[i].op != BT_SIM_WRMSR || sim.log[i].index == MSR_IA32_PERF_GLOBAL_OVF_CTRL ||
		    sim.log[i].index == MSR_IA32_PERF_GLOBAL_STATUS_SET)
			continue;
		uint32_t save = sim.log[i].index;
		if (save >= MSR_IA32_A_PMC0 && save < MSR_IA32_A_PMC0 + 16)
			save = save - MSR_IA32_A_PMC0 + MSR_IA32_PMC0;
		long rd = bt_sim_log_find(&sim, 0, BT_SIM_RDMSR, save);
		CHECK_MSG(rd >= 0 && (size_t)rd < i, "write of 0x%X at %zu not saved first", save, i);
	}
	bt_sim_free(&sim);
}

/* Finding 15: a counter the PMU lacks must be refused before any MSR is
 * written, not left to a #GP: on AMD's legacy PMU "PerfEvtSel4" would be
 * 0xC0010004, which is PerfCtr0, and the write would not fault. */
TEST(program_refuses_counters_the_pmu_lacks_before_any_write)
{
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	static struct bt_sim sim;
	int n = 0;
	for (int i = 0; i < 5; i++) {
		static char names[5][16];
		snprintf(names[i], sizeof(names[i]), "E%d", i);
		ev[n++] = fx_gp(names[i], (uint16_t)(0x40 + i), 0x00, 0, 0x3F);
	}
	fx_ptrs(ev, n, evp);
	CHECK(bt_sim_init(&sim, bt_sim_preset("amd-legacy")) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	struct bt_plan_mutation pm = { .extra_counters = 1 };
	struct bt_plan_opts popts = { .mutation = &pm };
	bt_plan_events(evp, n, &caps, &popts, &scratch, &plan);
	CHECK_EQ_INT(plan.n_groups, 1);                   /* all five in one group */
	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
	struct bt_pmu_session s;
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	size_t mark = sim.log_len;
	CHECK(bt_pmu_program(&s, &plan, 0, evp) == BT_ERR_INVALID);
	CHECK_MSG(strstr(bt_pmu_error(&s), "general counter 4") &&
		  strstr(bt_pmu_error(&s), "nothing programmed"), "%s", bt_pmu_error(&s));
	CHECK_EQ_INT(sim.log_len, mark);                   /* not a single access */
	CHECK(bt_pmu_close(&s) == BT_OK);
	CHECK(bt_sim_restored(&sim, &before, NULL, 0));
	bt_sim_free(&sim);
}
