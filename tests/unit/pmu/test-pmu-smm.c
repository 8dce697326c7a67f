/* SPDX-License-Identifier: MIT */
/*
 * SMIs and the counting window:
 *   - IA32_DEBUGCTL.FREEZE_WHILE_SMM (bit 14) set by read-modify-write when
 *     IA32_PERF_CAPABILITIES[12] says it exists, so an SMI handler's work is
 *     not counted; DEBUGCTL put back at close, also after a fault;
 *   - MSR_SMI_COUNT probed once at open: where it faults, the session runs
 *     without SMI counts and says so instead of aborting every window;
 *   - the per-run TSC read last before and first after the window.
 * Expected values come from the simulated PMU's configuration (SMIs per
 * window x counts per SMI, ticks per window and per access) and from the
 * SDM's DEBUGCTL bit list (sim-regs.h), never from the driver's output.
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

/* What measuring every group of a preset's event set gave. */
struct smm_run {
	bool ok;                  /* open, every group and close succeeded */
	char msg[256];
	char warning[256];
	int runs;
	int frozen_runs;          /* runs with counts.smm_frozen */
	int smi_runs;             /* runs with counts.has_smi_count */
	uint64_t smi_total;
	int pmc_events;           /* PMC events compared with the source */
	int excess_mismatch;      /* PMC events whose count - source != want_excess */
	char first_mismatch[160];
	uint64_t tsc_delta;       /* of the last run */
	uint64_t window_ticks;    /* TSC ticks the sim adds per window */
	bool restored;
	char diff[160];
};

/* Measure every group on a sim made from cfg. PMC events must count their
 * source count plus want_excess (SMM counts); PERF_METRICS is exact. */
static struct smm_run measure(const struct bt_sim_config *cfg, const struct bt_pmu_session_opts *opts,
			      uint64_t want_excess)
{
	struct smm_run r;
	memset(&r, 0, sizeof(r));
	if (bt_sim_init(&sim, cfg) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "bad sim config");
		return r;
	}
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	if (bt_sim_generate_counts(evp, (size_t)n, 5, src) != BT_OK ||
	    bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "plan failed");
		return r;
	}
	r.window_ticks = cfg->tsc_per_window;
	for (int i = 0; i < n; i++)
		if (evp[i]->source == BT_SRC_TSC)
			r.window_ticks = src[i].count; /* the sim's window takes the source's */
	static struct bt_sim_source source;
	source = (struct bt_sim_source){ src, (size_t)n, 0, NULL };
	bt_sim_set_source(&sim, &source);
	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
	struct bt_pmu_session s;
	bt_status st = bt_pmu_open(&s, &sim.arch, &caps, opts);
	for (int g = 0; st == BT_OK && g < plan.n_groups; g++) {
		st = bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts);
		if (st != BT_OK)
			break;
		r.runs++;
		r.frozen_runs += counts.smm_frozen;
		r.smi_runs += counts.has_smi_count;
		r.smi_total += counts.smi_delta;
		r.tsc_delta = counts.tsc_delta;
		for (int i = 0; i < n; i++) {
			if (!counts.measured[i] || (evp[i]->source != BT_SRC_PMC &&
						    evp[i]->source != BT_SRC_PERF_METRICS))
				continue;
			uint64_t want = src[i].count + (evp[i]->source == BT_SRC_PMC ? want_excess : 0);
			r.pmc_events += evp[i]->source == BT_SRC_PMC;
			if (counts.count[i] != want && r.excess_mismatch++ == 0)
				snprintf(r.first_mismatch, sizeof(r.first_mismatch),
					 "%s: %llu, want %llu (source %llu)", evp[i]->name,
					 (unsigned long long)counts.count[i], (unsigned long long)want,
					 (unsigned long long)src[i].count);
		}
	}
	if (st != BT_OK)
		snprintf(r.msg, sizeof(r.msg), "%s", bt_pmu_error(&s));
	bt_status cst = bt_pmu_close(&s);
	if (cst != BT_OK && st == BT_OK)
		snprintf(r.msg, sizeof(r.msg), "close: %s", bt_pmu_error(&s));
	snprintf(r.warning, sizeof(r.warning), "%s", bt_pmu_session_warnings(&s));
	r.ok = st == BT_OK && cst == BT_OK;
	r.restored = bt_sim_restored(&sim, &before, r.diff, sizeof(r.diff));
	return r;
}

static int count_log(uint8_t op, uint32_t index, bool faulted_only)
{
	int k = 0;
	for (size_t i = 0; i < sim.log_len; i++)
		k += sim.log[i].op == op && sim.log[i].index == index &&
		     (!faulted_only || sim.log[i].faulted);
	return k;
}

#define SMM_COUNTS(c) ((uint64_t)(c).smi_per_window * (c).smm_counts_per_smi)

/* Change 1. Every preset with IA32_PERF_CAPABILITIES[12]: two SMIs land in
 * every window, yet every count is exactly the workload's: the session set
 * FREEZE_WHILE_SMM, says so per run, and DEBUGCTL is as found afterwards. */
TEST(smm_freeze_keeps_the_smi_handler_out_of_the_counts)
{
	const char *presets[] = { "skl", "icl", "spr", "adl-p", "adl-e", "lnl-p" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		struct bt_sim_config c = *bt_sim_preset(presets[p]);
		CHECK_MSG(c.freeze_while_smm && c.smm_counts_per_smi > 0, "%s", presets[p]);
		c.smi_per_window = 2;
		c.initial = BT_SIM_INIT_DEBUGCTL;
		struct smm_run r = measure(&c, NULL, 0);
		CHECK_MSG(r.ok && r.runs > 0, "%s: %s", presets[p], r.msg);
		CHECK_MSG(r.pmc_events > 3 && r.excess_mismatch == 0, "%s: %d of %d wrong: %s",
			  presets[p], r.excess_mismatch, r.pmc_events, r.first_mismatch);
		CHECK_MSG(r.frozen_runs == r.runs, "%s: %d of %d runs frozen", presets[p],
			  r.frozen_runs, r.runs);
		CHECK_MSG(r.restored, "%s: %s", presets[p], r.diff);
		CHECK_MSG(!r.warning[0], "%s: %s", presets[p], r.warning);
		CHECK_EQ_U64(sim.regs.debugctl, SIM_DBG_LBR | SIM_DBG_FREEZE_LBRS_ON_PMI);
		bt_sim_free(&sim);
	}
}

/* The difference is observable: without the freeze (a part without
 * PERF_CAPABILITIES[12], or opts.count_in_smm), every PMC event counts its
 * source plus the SMI handler's counts, and DEBUGCTL is never touched. */
TEST(without_the_freeze_each_smi_adds_its_handler_counts)
{
	struct bt_sim_config c = *bt_sim_preset("nhm");
	CHECK(!c.freeze_while_smm);
	c.smi_per_window = 2;
	struct smm_run r = measure(&c, NULL, SMM_COUNTS(c));
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_MSG(r.pmc_events > 3 && r.excess_mismatch == 0, "nhm: %s", r.first_mismatch);
	CHECK_EQ_INT(r.frozen_runs, 0);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_IA32_DEBUGCTL, false) +
		     count_log(BT_SIM_WRMSR, SIM_IA32_DEBUGCTL, false), 0);
	bt_sim_free(&sim);

	c = *bt_sim_preset("skl");
	c.smi_per_window = 3;
	struct bt_pmu_session_opts o = { .count_in_smm = true };
	r = measure(&c, &o, SMM_COUNTS(c));
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_MSG(r.pmc_events > 3 && r.excess_mismatch == 0, "skl count_in_smm: %s",
		  r.first_mismatch);
	CHECK_EQ_INT(r.frozen_runs, 0);
	CHECK_EQ_INT(count_log(BT_SIM_WRMSR, SIM_IA32_DEBUGCTL, false), 0);
	bt_sim_free(&sim);
}

/* DEBUGCTL's other bits belong to firmware or a debugger: the write keeps
 * them (read first), and close puts the register back -- also when a
 * fault aborts the session half way. A bit firmware already set is left
 * alone. */
TEST(debugctl_is_read_modify_written_and_restored_also_on_abort)
{
	const uint64_t found = SIM_DBG_LBR | SIM_DBG_FREEZE_LBRS_ON_PMI;
	struct bt_sim_config c = *bt_sim_preset("skl");
	c.initial = BT_SIM_INIT_DEBUGCTL;
	struct smm_run r = measure(&c, NULL, 0);
	CHECK_MSG(r.ok, "%s", r.msg);
	long rd = bt_sim_log_find(&sim, 0, BT_SIM_RDMSR, SIM_IA32_DEBUGCTL);
	long wr = bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, SIM_IA32_DEBUGCTL);
	long begin = bt_sim_log_find(&sim, 0, BT_SIM_WINDOW_BEGIN, SIM_IA32_PERF_GLOBAL_CTRL);
	CHECK(rd >= 0 && wr > rd && begin > wr);
	CHECK(rd >= 0 && sim.log[rd].value == found);
	CHECK(wr >= 0 && sim.log[wr].value == (found | SIM_DBG_FREEZE_WHILE_SMM));
	/* Exactly the set and the restore. */
	CHECK_EQ_INT(count_log(BT_SIM_WRMSR, SIM_IA32_DEBUGCTL, false), 2);
	CHECK_EQ_U64(sim.regs.debugctl, found);
	bt_sim_free(&sim);

	/* A fault while programming aborts the session: close still restores. */
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
	CHECK(bt_pmu_session_smm_frozen(&s) &&
	      sim.regs.debugctl == (found | SIM_DBG_FREEZE_WHILE_SMM));
	CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_ERR_FAULT);
	sim.fault_msr_armed = false;
	bt_pmu_close(&s);
	CHECK_EQ_U64(sim.regs.debugctl, found);
	char diff[160] = "";
	CHECK_MSG(bt_sim_restored(&sim, &before, diff, sizeof(diff)), "%s", diff);
	bt_sim_free(&sim);

	/* Already set by firmware: reported frozen, nothing written. */
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	sim.regs.debugctl = found | SIM_DBG_FREEZE_WHILE_SMM;
	bt_sim_checkpoint(&sim, &before);
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	CHECK(bt_pmu_session_smm_frozen(&s));
	CHECK(bt_pmu_close(&s) == BT_OK);
	CHECK_EQ_INT(count_log(BT_SIM_WRMSR, SIM_IA32_DEBUGCTL, false), 0);
	CHECK(bt_sim_restored(&sim, &before, NULL, 0));
	bt_sim_free(&sim);
}

/* A VMM may advertise PERF_CAPABILITIES[12] and still refuse the bit: the
 * session measures without the freeze, says which access faulted, and
 * leaves DEBUGCTL as found. */
TEST(debugctl_refused_the_session_counts_on_and_says_so)
{
	struct bt_sim_config c = *bt_sim_preset("skl");
	c.smi_per_window = 1;
	/* By hand rather than measure(): the fault is armed on the sim. */
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	CHECK(bt_sim_generate_counts(evp, (size_t)n, 5, src) == BT_OK);
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	bt_sim_set_source(&sim, &source);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
	sim.fault_msr_armed = true;
	sim.fault_msr = SIM_IA32_DEBUGCTL;
	sim.fault_op = BT_SIM_WRMSR;
	struct bt_pmu_session s;
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, NULL) == BT_OK);
	CHECK(!bt_pmu_session_smm_frozen(&s));
	const char *warning = bt_pmu_session_warnings(&s);
	CHECK_MSG(strstr(warning, "WRMSR IA32_DEBUGCTL (0x1D9) raised #GP") &&
		  strstr(warning, "not frozen in SMM"), "%s", warning);
	for (int g = 0; g < plan.n_groups; g++) {
		CHECK_MSG(bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts) == BT_OK,
			  "%s", bt_pmu_error(&s));
		CHECK(!counts.smm_frozen);
	}
	CHECK(bt_pmu_close(&s) == BT_OK);
	sim.fault_msr_armed = false;
	CHECK_EQ_INT(count_log(BT_SIM_WRMSR, SIM_IA32_DEBUGCTL, false), 1); /* the refused one */
	CHECK(bt_sim_restored(&sim, &before, NULL, 0));
	bt_sim_free(&sim);
}

/* The simulated register against the SDM's bit list (vol. 4 Table 2-2
 * at 1D9H): bits 0, 1, 6-13 writable (13: Nehalem and later), 14 only with
 * PERF_CAPABILITIES[12], everything else #GP in the sim (2 and 15 need
 * CPUID features the sim does not report). */
TEST(sim_debugctl_reserved_bits_and_the_capability_bit)
{
	static const struct { const char *preset; uint64_t writable; bool cap12; } cases[] = {
		{ "core2", 0x1FC3, false },
		{ "nhm", 0x3FC3, false },
		{ "skl", 0x7FC3, true },
		{ "lnl-p", 0x7FC3, true },
	};
	for (size_t k = 0; k < BT_ARRAY_SIZE(cases); k++) {
		CHECK(bt_sim_init(&sim, bt_sim_preset(cases[k].preset)) == BT_OK);
		uint64_t cap;
		CHECK(bt_rdmsr(&sim.arch, MSR_IA32_PERF_CAPABILITIES, &cap) == BT_OK);
		CHECK_MSG(((cap >> 12) & 1) == cases[k].cap12, "%s: 0x%llx", cases[k].preset,
			  (unsigned long long)cap);
		for (unsigned b = 0; b < 64; b++) {
			bool want_ok = (cases[k].writable >> b) & 1;
			bt_status st = bt_wrmsr(&sim.arch, MSR_IA32_DEBUGCTL, 1ull << b);
			CHECK_MSG((st == BT_OK) == want_ok, "%s: DEBUGCTL bit %u: %s", cases[k].preset,
				  b, bt_status_str(st));
			if (st != BT_OK)
				CHECK_EQ_INT(sim.arch.fault_vector, BT_VEC_GP);
		}
		bt_sim_free(&sim);
	}
	/* The driver's and the sim's facts agree (they are kept apart). */
	CHECK_EQ_U64(MSR_IA32_DEBUGCTL, SIM_IA32_DEBUGCTL);
	CHECK_EQ_U64(DEBUGCTL_FREEZE_WHILE_SMM, SIM_DBG_FREEZE_WHILE_SMM);
	CHECK_EQ_U64(PERF_CAP_FREEZE_WHILE_SMM, SIM_CAP_SMM_FREEZE);
}

/* Change 2. MSR_SMI_COUNT does not exist here (a VMM, a part before
 * Nehalem): asked to read it, the session tries once at open, drops SMI
 * reads with a warning, and every window runs. */
TEST(missing_smi_count_is_probed_once_at_open_and_dropped_with_a_warning)
{
	struct bt_sim_config c = *bt_sim_preset("skl");
	c.smi_count = false;
	c.smi_per_window = 1;
	struct bt_pmu_session_opts o = { .read_smi_count = true, .read_aperf_mperf = true };
	struct smm_run r = measure(&c, &o, 0);
	CHECK_MSG(r.ok && r.runs == plan.n_groups, "%s", r.msg);
	CHECK_STR(r.warning, "MSR_SMI_COUNT (0x34) is not readable here: SMIs are not counted");
	CHECK_EQ_INT(r.smi_runs, 0);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_MSR_SMI_COUNT, false), 1);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_MSR_SMI_COUNT, true), 1);
	CHECK(r.restored);
	CHECK(r.excess_mismatch == 0); /* frozen: the SMIs added nothing */
	bt_sim_free(&sim);

	/* Where it exists: no warning, and every run counts its SMI. */
	c.smi_count = true;
	r = measure(&c, &o, 0);
	CHECK_MSG(r.ok, "%s", r.msg);
	CHECK_STR(r.warning, "");
	CHECK_EQ_INT(r.smi_runs, r.runs);
	CHECK_EQ_U64(r.smi_total, (uint64_t)r.runs * c.smi_per_window);
	CHECK_EQ_INT(count_log(BT_SIM_RDMSR, SIM_MSR_SMI_COUNT, true), 0);
	bt_sim_free(&sim);
}

/* Change 3. The TSC is the run's duration: the last thing read before the
 * window and the first after it, with only the start and stop writes in
 * between (APERF/MPERF/SMI_COUNT read outside; on AMD without PerfMonV2 the
 * other counters' enable and disable writes too). On the sim only the start
 * write costs ticks outside the window (tsc_per_access): the run's TSC is
 * the window's ticks plus exactly one access. */
TEST(tsc_brackets_the_window_tightly)
{
	const char *presets[] = { "nhm", "skl", "icl", "lnl-p", "amd-legacy", "zen2", "zen4" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		struct bt_sim_config c = *bt_sim_preset(presets[p]);
		struct bt_pmu_session_opts o = { .read_aperf_mperf = true,
						 .read_smi_count = c.smi_count };
		struct smm_run r = measure(&c, &o, 0);
		CHECK_MSG(r.ok, "%s: %s", presets[p], r.msg);
		CHECK_MSG(r.tsc_delta == r.window_ticks + c.tsc_per_access,
			  "%s: TSC %llu, window %llu + one access %llu", presets[p],
			  (unsigned long long)r.tsc_delta, (unsigned long long)r.window_ticks,
			  (unsigned long long)c.tsc_per_access);
		int windows = 0;
		for (size_t i = 0; i < sim.log_len; i++) {
			if (sim.log[i].op == BT_SIM_WINDOW_BEGIN) {
				windows++;
				CHECK_MSG(i >= 2 && sim.log[i - 1].op == BT_SIM_WRMSR &&
					  sim.log[i - 2].op == BT_SIM_RDTSC,
					  "%s: window %d: op %d before the start write", presets[p],
					  windows, i >= 2 ? sim.log[i - 2].op : -1);
			} else if (sim.log[i].op == BT_SIM_WINDOW_END) {
				CHECK_MSG(i + 2 < sim.log_len && sim.log[i + 1].op == BT_SIM_WRMSR &&
					  sim.log[i + 2].op == BT_SIM_RDTSC,
					  "%s: window %d: op %d after the stop write", presets[p],
					  windows, i + 2 < sim.log_len ? sim.log[i + 2].op : -1);
			}
		}
		CHECK_EQ_INT(windows, r.runs);
		bt_sim_free(&sim);
	}
}
