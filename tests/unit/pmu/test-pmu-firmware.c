/* SPDX-License-Identifier: MIT */
/*
 * Counters and PEBS someone else left armed:
 *   - on perfmon v4+ IA32_PERF_GLOBAL_INUSE is read at open and the
 *     counters firmware left enabled are named in the session's warnings
 *     (as Linux's check_hw_exists() warns and goes on); v2/v3 never touch
 *     0x392, and a stale disabled selector (which INUSE also marks) is not
 *     reported;
 *   - where PEBS exists (CPUID.01H:EDX[21] and IA32_MISC_ENABLE[12] clear)
 *     IA32_PEBS_ENABLE is saved, cleared for the session, and put back at
 *     close, also when the session fails half way.
 * Expected values come from the simulated PMU's configuration and the
 * SDM's register definitions (arch/sim/sim-regs.h), never from the driver.
 */
#include "pmu/pmu-caps.h"
#include "base/array.h"
#include "pmu/pmu-session.h"
#include "arch/sim/sim-regs.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_sim sim;
static struct bt_plan plan;
static struct bt_plan_scratch scratch;
static struct bt_pmu_counts counts;
static struct bt_event ev[FX_MAX];
static const struct bt_event *evp[FX_MAX];
static struct bt_sim_count src[FX_MAX];

/* What IA32_PEBS_ENABLE held while each window ran. */
static uint64_t pebs_in_window;
static int windows;

static void body(void *arg)
{
	(void)arg;
	pebs_in_window |= sim.regs.pebs_enable;
	windows++;
}

struct fw_run {
	bool ok;
	char msg[256];
	char warning[512];
	bool restored;
	char diff[160];
};

/* Open, measure every group (counters starting 16 counts below the wrap,
 * so that every used counter overflows in the window), close. */
static struct fw_run measure(const struct bt_sim_config *cfg)
{
	struct fw_run r;
	memset(&r, 0, sizeof(r));
	pebs_in_window = 0;
	windows = 0;
	if (bt_sim_init(&sim, cfg) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "bad sim config");
		return r;
	}
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	if (bt_sim_generate_counts(evp, (size_t)n, 9, src) != BT_OK ||
	    bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "plan failed");
		return r;
	}
	static struct bt_sim_source source;
	source = (struct bt_sim_source){ src, (size_t)n, 0, body };
	bt_sim_set_source(&sim, &source);
	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
	struct bt_pmu_session_opts o = { .counter_start = (1ull << 48) - 16 };
	struct bt_pmu_session s;
	bt_status st = bt_pmu_open(&s, &sim.arch, &caps, &o);
	for (int g = 0; st == BT_OK && g < plan.n_groups; g++)
		st = bt_pmu_measure_group(&s, &plan, g, evp, body, NULL, &counts);
	if (st != BT_OK)
		snprintf(r.msg, sizeof(r.msg), "%s", bt_pmu_error(&s));
	bt_status cst = bt_pmu_close(&s);
	snprintf(r.warning, sizeof(r.warning), "%s", bt_pmu_session_warnings(&s));
	r.ok = st == BT_OK && cst == BT_OK;
	r.restored = bt_sim_restored(&sim, &before, r.diff, sizeof(r.diff));
	return r;
}

static int count_log(uint8_t op, uint32_t index)
{
	int k = 0;
	for (size_t i = 0; i < sim.log_len; i++)
		k += sim.log[i].op == op && sim.log[i].index == index;
	return k;
}

/* Firmware armed PEBS on counter 0: no window runs with it armed (else an
 * overflow writes a PEBS record into firmware's DS area: the sim records
 * that as a violation), the warnings name the register, and it is set
 * again after close. */
TEST(firmware_pebs_enable_is_cleared_for_the_session_and_restored)
{
	const char *presets[] = { "nhm", "skl", "icl", "spr", "adl-e", "lnl-p" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		struct bt_sim_config c = *bt_sim_preset(presets[p]);
		c.initial = BT_SIM_INIT_PEBS;
		struct fw_run r = measure(&c);
		CHECK_MSG(r.ok && windows > 0, "%s: %s", presets[p], r.msg);
		CHECK_MSG(pebs_in_window == 0, "%s: IA32_PEBS_ENABLE 0x%llx in a window", presets[p],
			  (unsigned long long)pebs_in_window);
		CHECK_MSG(sim.n_violations == 0, "%s: %s", presets[p], sim.violations[0]);
		CHECK_MSG(strstr(r.warning, "IA32_PEBS_ENABLE (0x3F1) was 0x1") != NULL, "%s: '%s'",
			  presets[p], r.warning);
		CHECK_EQ_U64(sim.regs.pebs_enable, 1);
		CHECK_MSG(r.restored, "%s: %s", presets[p], r.diff);
		bt_sim_free(&sim);
	}
}

/* A fault after the clear aborts the session: close still re-arms PEBS as
 * firmware left it. */
TEST(pebs_enable_is_restored_when_the_session_fails)
{
	struct bt_sim_config c = *bt_sim_preset("skl");
	c.initial = BT_SIM_INIT_PEBS;
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
	sim.fault_msr_armed = true;
	sim.fault_msr = SIM_IA32_FIXED_CTR_CTRL;
	sim.fault_op = BT_SIM_WRMSR;
	struct bt_pmu_session s;
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	CHECK_EQ_U64(sim.regs.pebs_enable, 0);
	CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_ERR_FAULT);
	sim.fault_msr_armed = false;
	bt_pmu_close(&s);
	CHECK_EQ_U64(sim.regs.pebs_enable, 1);
	char diff[160] = "";
	CHECK_MSG(bt_sim_restored(&sim, &before, diff, sizeof(diff)), "%s", diff);
	bt_sim_free(&sim);
}

/* Where PEBS does not exist (IA32_MISC_ENABLE[12] set, no CPUID DS: the
 * Core 2-class preset) IA32_PEBS_ENABLE is never accessed; where it exists
 * but reads 0, it is read and never written. */
TEST(pebs_enable_is_left_alone_where_there_is_no_pebs_or_nothing_armed)
{
	struct fw_run r = measure(bt_sim_preset("core2"));
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_PEBS_ENABLE) +
		     count_log(BT_SIM_WRMSR, SIM_IA32_PEBS_ENABLE), 0);
	CHECK_STR(r.warning, "");
	bt_sim_free(&sim);
	r = measure(bt_sim_preset("skl"));
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_MISC_ENABLE), 1);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_PEBS_ENABLE), 1);
	CHECK_EQ_INT(count_log(BT_SIM_WRMSR, SIM_IA32_PEBS_ENABLE), 0);
	CHECK_STR(r.warning, "");
	bt_sim_free(&sim);
}

/* Firmware's own counters (general counter 1 and fixed counter 1, enabled
 * with a PMI): the session goes on, and its warnings name
 * IA32_PERF_GLOBAL_INUSE, its value and both counters. */
TEST(counters_firmware_left_enabled_are_named_in_the_warnings)
{
	const char *presets[] = { "skl", "icl", "spr", "adl-p", "lnl-p" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		struct bt_sim_config c = *bt_sim_preset(presets[p]);
		c.initial = BT_SIM_INIT_FW_COUNTERS;
		CHECK(bt_sim_init(&sim, &c) == BT_OK);
		uint64_t inuse;
		CHECK(bt_rdmsr(&sim.arch, SIM_IA32_PERF_GLOBAL_INUSE, &inuse) == BT_OK);
		bt_sim_free(&sim);
		/* The sim's idle selectors hold stale encodings: every general
		 * counter is marked; only counter 1 is enabled. */
		CHECK_EQ_U64(inuse & SIM_INUSE_PMI, SIM_INUSE_PMI);
		CHECK_EQ_U64((inuse >> 32) & 0x7FFFFFFF, 0x2);
		struct fw_run r = measure(&c);
		CHECK_MSG(r.ok, "%s: %s", presets[p], r.msg);
		char want[256];
		snprintf(want, sizeof(want), "IA32_PERF_GLOBAL_INUSE (0x392) = 0x%llx: general counter 1 "
			 "and fixed counter 1 in use before baretop took them (firmware's? with a "
			 "PMI), put back at close", (unsigned long long)inuse);
		CHECK_STR(r.warning, want);
		CHECK_MSG(r.restored, "%s: %s", presets[p], r.diff);
		bt_sim_free(&sim);
	}
	/* Idle: stale disabled encodings only (INUSE marks them): no warning,
	 * as Linux, which warns only about enabled ones. */
	struct fw_run r = measure(bt_sim_preset("skl"));
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_PERF_GLOBAL_INUSE), 1);
	CHECK_STR(r.warning, "");
	bt_sim_free(&sim);
}

/* Perfmon v2/v3 have no IA32_PERF_GLOBAL_INUSE: never touched there, even
 * with firmware's counters running. Where a VMM reports v4 and faults on
 * it, a warning says so and the session goes on. */
TEST(v2_v3_never_touch_global_inuse_and_a_fault_on_it_is_a_warning)
{
	const char *presets[] = { "core2", "nhm" };
	for (size_t p = 0; p < 2; p++) {
		struct bt_sim_config c = *bt_sim_preset(presets[p]);
		c.initial = BT_SIM_INIT_RUNNING | BT_SIM_INIT_FW_COUNTERS;
		struct fw_run r = measure(&c);
		CHECK_MSG(r.ok, "%s: %s", presets[p], r.msg);
		CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_PERF_GLOBAL_INUSE) +
			     count_log(BT_SIM_WRMSR, SIM_IA32_PERF_GLOBAL_INUSE), 0);
		CHECK_MSG(!strstr(r.warning, "INUSE"), "%s: %s", presets[p], r.warning);
		CHECK_MSG(r.restored, "%s: %s", presets[p], r.diff);
		bt_sim_free(&sim);
	}
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	sim.fault_msr_armed = true;
	sim.fault_msr = SIM_IA32_PERF_GLOBAL_INUSE;
	sim.fault_op = BT_SIM_RDMSR;
	struct bt_pmu_session s;
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	CHECK_STR(bt_pmu_session_warnings(&s), "RDMSR IA32_PERF_GLOBAL_INUSE (0x392) raised #GP: "
		  "counters in use before baretop are not reported");
	CHECK(bt_pmu_close(&s) == BT_OK);
	bt_sim_free(&sim);
}

/* The driver's and the sim's facts agree (they are kept apart). */
TEST(driver_and_sim_agree_on_the_addresses)
{
	CHECK_EQ_U64(MSR_IA32_PERF_GLOBAL_INUSE, SIM_IA32_PERF_GLOBAL_INUSE);
	CHECK_EQ_U64(GLOBAL_INUSE_PMI, SIM_INUSE_PMI);
	CHECK_EQ_U64(MSR_IA32_MISC_ENABLE, SIM_IA32_MISC_ENABLE);
	CHECK_EQ_U64(MISC_ENABLE_PEBS_UNAVAIL, SIM_MISC_PEBS_UNAVAIL);
	CHECK_EQ_U64(MSR_IA32_PEBS_ENABLE, SIM_IA32_PEBS_ENABLE);
}
