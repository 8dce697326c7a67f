/* SPDX-License-Identifier: MIT */
/*
 * For every simulated PMU kind: detection from the sim's CPUID yields the
 * configured caps; the driver plans, programs, runs and reads, and gets back
 * exactly the counts the source supplied (incl. wrap-around and PERF_METRICS
 * scaling); and the register file afterwards equals the one before.
 */
#include "pmu/pmu-caps.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/pmu-fixtures.h"

static struct bt_plan plan;
static struct bt_pmu_counts counts;

struct run_result {
	bool ok;
	int groups, bound;
	int mismatches;
	bool regs_restored;
	char msg[256];
};

static const struct bt_sim_source empty_source = { NULL, 0, 0, NULL };

/* Measure every group; for parts without a global enable subtract an
 * empty-workload calibration run (see amd-pmu.c). */
static struct run_result run_all(const char *preset, uint64_t counter_start, bool use_rdmsr)
{
	struct run_result r;
	memset(&r, 0, sizeof(r));
	static struct bt_sim sim;
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	static struct bt_sim_count src[FX_MAX];
	const struct bt_sim_config *cfg = bt_sim_preset(preset);
	if (!cfg || bt_sim_init(&sim, cfg) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "no preset %s", preset);
		return r;
	}
	struct bt_pmu_caps caps;
	bt_sim_detect_caps(&sim, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	if (bt_sim_generate_counts(evp, (size_t)n, 42, src) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "generate failed");
		goto out;
	}
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	if (bt_plan_events(evp, n, &caps, NULL, &plan) != BT_OK ||
	    bt_plan_validate(&plan, evp, n, &caps, NULL, r.msg, sizeof(r.msg)) != BT_OK)
		goto out;
	r.groups = plan.n_groups;
	r.bound = plan.lower_bound;

	struct bt_sim_regs before, after;
	bt_sim_snapshot(&sim, &before);
	struct bt_pmu_session s;
	struct bt_pmu_session_opts opts = { .counter_start = counter_start, .use_rdmsr = use_rdmsr };
	if (bt_pmu_open(&s, &sim.arch, &caps, &opts) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "open: %s", bt_pmu_error(&s));
		goto out;
	}
	bool calibrate = caps.kind == BT_PMU_AMD_LEGACY || caps.kind == BT_PMU_AMD_CORE_EXT;
	for (int g = 0; g < plan.n_groups; g++) {
		uint64_t base[BT_PLAN_MAX_EVENTS] = { 0 };
		if (calibrate) {
			bt_sim_set_source(&sim, &empty_source);
			if (bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts) != BT_OK)
				break;
			for (int i = 0; i < n; i++)
				base[i] = counts.count[i];
		}
		bt_sim_set_source(&sim, &source);
		if (bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts) != BT_OK)
			break;
		for (int i = 0; i < n; i++) {
			if (!counts.measured[i] || evp[i]->source == BT_SRC_TSC)
				continue;
			uint64_t got = counts.count[i] - (evp[i]->source == BT_SRC_PMC ? base[i] : 0);
			if (got != src[i].count) {
				if (!r.mismatches)
					snprintf(r.msg, sizeof(r.msg), "group %d %s: %llu != %llu", g,
						 evp[i]->name, (unsigned long long)got,
						 (unsigned long long)src[i].count);
				r.mismatches++;
			}
		}
		if (plan.perf_metrics && counts.slots == 0)
			r.mismatches++;
	}
	bool failed = s.failed;
	if (failed)
		snprintf(r.msg, sizeof(r.msg), "%s", bt_pmu_error(&s));
	bt_pmu_close(&s);
	bt_sim_snapshot(&sim, &after);
	r.regs_restored = bt_sim_regs_equal(&before, &after, r.msg[0] ? NULL : r.msg, sizeof(r.msg));
	if (sim.n_violations && !r.msg[0])
		snprintf(r.msg, sizeof(r.msg), "violation: %s", sim.violations[0]);
	if (sim.source_error[0] && !r.msg[0])
		snprintf(r.msg, sizeof(r.msg), "%s", sim.source_error);
	r.ok = !failed && !sim.n_violations && !sim.source_error[0] && !s.warning[0];
out:
	bt_sim_free(&sim);
	return r;
}

#define CHECK_EXACT(preset, start, rdmsr)                                              \
	do {                                                                           \
		struct run_result r = run_all(preset, start, rdmsr);                   \
		CHECK_MSG(r.ok && r.mismatches == 0 && r.regs_restored && r.groups > 0, \
			  "%s: ok=%d mismatches=%d restored=%d groups=%d: %s", preset,  \
			  r.ok, r.mismatches, r.regs_restored, r.groups, r.msg);        \
		CHECK_MSG(r.groups == r.bound, "%s: %d groups, bound %d", preset,       \
			  r.groups, r.bound);                                           \
	} while (0)

TEST(every_preset_detects_the_caps_it_models)
{
	for (int i = 0; bt_sim_preset_names[i]; i++) {
		static struct bt_sim sim;
		const struct bt_sim_config *c = bt_sim_preset(bt_sim_preset_names[i]);
		CHECK(c != NULL);
		CHECK(bt_sim_init(&sim, c) == BT_OK);
		CHECK(sim.arch.simulated);
		CHECK_STR(sim.arch.name, "simulated");
		struct bt_pmu_caps caps;
		bt_sim_detect_caps(&sim, &caps);
		CHECK_EQ_INT(caps.num_gp, sim.cfg.num_gp);
		CHECK_EQ_INT(caps.gp_width, sim.cfg.gp_width);
		if (c->vendor == BT_VENDOR_INTEL) {
			CHECK_EQ_INT(caps.kind, BT_PMU_INTEL_ARCH);
			CHECK_EQ_INT(caps.version, c->version);
			CHECK_EQ_INT(caps.num_fixed, c->num_fixed);
			CHECK_EQ_INT(caps.fixed_width, c->fixed_width);
			CHECK_EQ_INT(caps.full_width_write, c->full_width);
			CHECK_EQ_INT(caps.perf_metrics, c->perf_metrics);
			CHECK_EQ_INT(caps.any_thread_deprecated, c->any_deprecated);
			CHECK_EQ_INT(caps.umask2, c->umask2_eq);
			CHECK_EQ_INT(caps.eq, c->umask2_eq);
		} else {
			CHECK_EQ_INT(caps.kind, c->amd_v2 ? BT_PMU_AMD_V2 : c->amd_core_ext ?
					 BT_PMU_AMD_CORE_EXT : BT_PMU_AMD_LEGACY);
		}
		bt_sim_free(&sim);
	}
}

TEST(skl_counts_exact_and_state_restored) { CHECK_EXACT("skl", 0, false); }
TEST(core2_v2_two_counters_exact) { CHECK_EXACT("core2", 0, false); }
TEST(nhm_v3_no_full_width_exact) { CHECK_EXACT("nhm", 0, false); }
TEST(icl_perf_metrics_scaled_exactly) { CHECK_EXACT("icl", 0, false); }
TEST(spr_eight_metrics_exact) { CHECK_EXACT("spr", 0, false); }
TEST(adl_p_hybrid_core_exact) { CHECK_EXACT("adl-p", 0, false); }
TEST(adl_e_hybrid_atom_exact) { CHECK_EXACT("adl-e", 0, false); }
TEST(lnl_p_perfmon_v6_exact) { CHECK_EXACT("lnl-p", 0, false); }
TEST(zen4_perfmon_v2_exact) { CHECK_EXACT("zen4", 0, false); }
TEST(zen2_core_extension_exact_after_calibration) { CHECK_EXACT("zen2", 0, false); }
TEST(amd_legacy_exact_after_calibration) { CHECK_EXACT("amd-legacy", 0, false); }
TEST(reads_through_rdmsr_too) { CHECK_EXACT("skl", 0, true); CHECK_EXACT("icl", 0, true); }

/* Counters start 1000 below 2^width, every count is > 1000: each counter
 * wraps once and the delta is taken modulo 2^width. On nhm (no full-width
 * writes) 2^48 - 1000 survives the 32-bit sign extension. */
TEST(wrap_around_handled_full_width) { CHECK_EXACT("skl", (1ull << 48) - 1000, false); }
TEST(wrap_around_handled_sign_extended) { CHECK_EXACT("nhm", (1ull << 48) - 1000, false); }
TEST(wrap_around_handled_amd) { CHECK_EXACT("zen4", (1ull << 48) - 1000, false); }
TEST(wrap_around_with_perf_metrics) { CHECK_EXACT("icl", (1ull << 48) - 1000, false); }

TEST(perf_metrics_bytes_reproduce_the_source_slot_counts)
{
	/* Hand case: SLOTS = 1000, fields 51, 102, 0, 255 -> floor(1000*b/255). */
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, 51), 200);
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, 102), 400);
	CHECK_EQ_U64(bt_perf_metrics_slots(1000, 255), 1000);
	CHECK_EQ_U64(bt_perf_metrics_slots(7, 100), 2);
	CHECK_EQ_U64(bt_perf_metrics_slots((1ull << 60) + 5, 255), (1ull << 60) + 5);
	/* The sim reports counts it cannot represent: 3 slots of SLOTS=1000 is
	 * not floor(1000*b/255) for any byte. */
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("icl")) == BT_OK);
	sim.regs.fixed_ctr[3] = 1000;
	sim.pm_acc[0] = 3;
	bt_sim_pm_update(&sim);
	CHECK(sim.source_error[0] != 0);
	bt_sim_free(&sim);
}

TEST(tsc_aperf_mperf_smi_per_run)
{
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	sim.cfg.smi_per_window = 1;
	struct bt_pmu_caps caps;
	bt_sim_detect_caps(&sim, &caps);
	struct bt_event ev[2] = { fx_src("TSC", BT_SRC_TSC), fx_src("duration_time", BT_SRC_DURATION) };
	const struct bt_event *evp[2] = { &ev[0], &ev[1] };
	struct bt_sim_count src[1] = { { ev[0], 3000000 } };
	struct bt_sim_source source = { src, 1, 0, NULL };
	bt_sim_set_source(&sim, &source);
	CHECK(bt_plan_events(evp, 2, &caps, NULL, &plan) == BT_OK);
	CHECK_EQ_INT(plan.n_groups, 1);
	struct bt_pmu_session s;
	struct bt_pmu_session_opts o = { .read_aperf_mperf = true, .read_smi_count = true,
					 .tsc_hz = 1000000000 };
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, &o) == BT_OK);
	CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_OK);
	/* TSC: the window's 3e6 ticks plus the few accesses between the TSC
	 * reads and the window (tsc_per_access each), no more than 10 of them. */
	CHECK(counts.tsc_delta >= 3000000 && counts.tsc_delta <= 3000000 + 10 * sim.cfg.tsc_per_access);
	CHECK(counts.measured[0] && counts.count[0] == counts.tsc_delta);
	CHECK(counts.measured[1] && counts.count[1] == counts.tsc_delta); /* 1 GHz: ns = ticks */
	CHECK(counts.has_aperf_mperf && counts.mperf_delta == 3000000);
	CHECK(counts.has_smi_count && counts.smi_delta == 1);
	CHECK(bt_pmu_close(&s) == BT_OK);
	bt_sim_free(&sim);
}
