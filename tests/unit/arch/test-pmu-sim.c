/* SPDX-License-Identifier: MIT */
/*
 * For every simulated PMU kind: detection from the sim's CPUID yields the
 * configured caps; the driver plans, programs, runs and reads, and gets back
 * exactly the counts the source supplied (incl. wrap-around and PERF_METRICS
 * scaling); and the register file afterwards equals the one before.
 */
#include "pmu/pmu-caps.h"
#include "base/array.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_plan plan;
static struct bt_plan_scratch scratch;
static struct bt_pmu_counts counts;

struct run_result {
	bool ok;
	int groups, bound;
	int mismatches;
	bool regs_restored;
	int unmeasured;
	char msg[400];
};

static const struct bt_sim_source empty_source = { NULL, 0, 0, NULL };

/* The session's warnings are exactly those the state left by firmware
 * calls for: counters enabled before baretop, on
 * perfmon v4+ (IA32_PERF_GLOBAL_INUSE), and PEBS armed where it exists. */
static bool warnings_as_expected(const struct bt_sim_config *c, const char *warning)
{
	bool intel = c->vendor == BT_VENDOR_INTEL;
	bool inuse = intel && c->version >= 4 &&
		     (c->initial & (BT_SIM_INIT_RUNNING | BT_SIM_INIT_FW_COUNTERS));
	bool pebs = intel && c->ldlat && (c->initial & BT_SIM_INIT_PEBS);
	int parts = warning[0] ? 1 : 0;
	for (const char *p = warning; (p = strstr(p, "; ")) != NULL; p += 2)
		parts++;
	return (strstr(warning, "IA32_PERF_GLOBAL_INUSE (0x392) = ") != NULL) == inuse &&
	       (strstr(warning, "IA32_PEBS_ENABLE (0x3F1) was 0x1") != NULL) == pebs &&
	       parts == inuse + pebs;
}

/* Measure every group; for parts without a global enable subtract an
 * empty-workload calibration run (see amd-pmu.c). The register file must
 * come back as found, allowing only what counters left running by firmware
 * counted while still configured as found (bt_sim_restored). */
static struct run_result run_cfg(const struct bt_sim_config *cfg, uint64_t counter_start,
				 bool use_rdmsr)
{
	struct run_result r;
	memset(&r, 0, sizeof(r));
	static struct bt_sim sim;
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	static struct bt_sim_count src[FX_MAX];
	if (!cfg || bt_sim_init(&sim, cfg) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "no such preset");
		return r;
	}
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	if (bt_sim_generate_counts(evp, (size_t)n, 42, src) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "generate failed");
		goto out;
	}
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	struct bt_diag vd = { "" };
	if (bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) != BT_OK ||
	    bt_plan_validate(&plan, evp, n, &caps, NULL, &scratch, &vd) != BT_OK) {
		snprintf(r.msg, sizeof(r.msg), "%.*s", (int)sizeof(r.msg) - 1, vd.text);
		goto out;
	}
	r.groups = plan.n_groups;
	r.bound = plan.lower_bound;
	for (int i = 0; i < n; i++)
		if (evp[i]->source == BT_SRC_PMC || evp[i]->source == BT_SRC_PERF_METRICS)
			r.unmeasured += plan.ev[i].place == BT_PLACE_UNMEASURABLE;

	struct bt_sim_regs before;
	bt_sim_checkpoint(&sim, &before);
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
	r.regs_restored = bt_sim_restored(&sim, &before, r.msg[0] ? NULL : r.msg, sizeof(r.msg));
	if (sim.n_violations && !r.msg[0])
		snprintf(r.msg, sizeof(r.msg), "violation: %s", sim.violations[0]);
	if (sim.source_error[0] && !r.msg[0])
		snprintf(r.msg, sizeof(r.msg), "%s", sim.source_error);
	bool warned_right = warnings_as_expected(cfg, s.warning);
	if (!warned_right && !r.msg[0])
		snprintf(r.msg, sizeof(r.msg), "warning: '%.200s'", s.warning);
	r.ok = !failed && !sim.n_violations && !sim.source_error[0] && warned_right;
out:
	bt_sim_free(&sim);
	return r;
}

static struct run_result run_all(const char *preset, uint64_t counter_start, bool use_rdmsr)
{
	return run_cfg(bt_sim_preset(preset), counter_start, use_rdmsr);
}

#define CHECK_RESULT(r, what)                                                          \
	do {                                                                           \
		CHECK_MSG(r.ok && r.mismatches == 0 && r.regs_restored && r.groups > 0, \
			  "%s: ok=%d mismatches=%d restored=%d groups=%d: %s", what,    \
			  r.ok, r.mismatches, r.regs_restored, r.groups, r.msg);        \
		CHECK_MSG(r.groups == r.bound, "%s: %d groups, bound %d", what,         \
			  r.groups, r.bound);                                           \
	} while (0)

#define CHECK_EXACT(preset, start, rdmsr)                                              \
	do {                                                                           \
		struct run_result r = run_all(preset, start, rdmsr);                   \
		CHECK_RESULT(r, preset);                                               \
		CHECK_MSG(r.unmeasured == 0, "%s: %d events unmeasurable", preset,      \
			  r.unmeasured);                                                \
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
		bt_pmu_caps_detect(&sim.arch, &caps);
		CHECK_EQ_INT(caps.num_gp, sim.cfg.num_gp);
		CHECK_EQ_INT(caps.gp_width, sim.cfg.gp_width);
		if (c->vendor == BT_VENDOR_INTEL) {
			CHECK_EQ_INT(caps.kind, BT_PMU_INTEL_ARCH);
			CHECK_EQ_INT(caps.version, c->version);
			/* CPUID.0AH:EDX[4:0] contiguous counters, v5+ the ECX bitmap. */
			uint32_t fixed = (1u << c->num_fixed) - 1;
			if (c->version >= 5)
				fixed |= c->fixed_bitmap;
			CHECK_MSG(caps.fixed_mask == fixed, "%s: fixed mask 0x%x, modelled 0x%x",
				  c->name, caps.fixed_mask, fixed);
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
	bt_pmu_caps_detect(&sim.arch, &caps);
	struct bt_event ev[2] = { fx_src("TSC", BT_SRC_TSC), fx_src("duration_time", BT_SRC_DURATION) };
	const struct bt_event *evp[2] = { &ev[0], &ev[1] };
	struct bt_sim_count src[1] = { { ev[0], 3000000 } };
	struct bt_sim_source source = { src, 1, 0, NULL };
	bt_sim_set_source(&sim, &source);
	CHECK(bt_plan_events(evp, 2, &caps, NULL, &scratch, &plan) == BT_OK);
	CHECK_EQ_INT(plan.n_groups, 1);
	struct bt_pmu_session s;
	struct bt_pmu_session_opts o = { .read_aperf_mperf = true, .read_smi_count = true,
					 .tsc_hz = 1000000000 };
	CHECK(bt_pmu_open(&s, &sim.arch, &caps, &o) == BT_OK);
	CHECK(bt_pmu_measure_group(&s, &plan, 0, evp, NULL, NULL, &counts) == BT_OK);
	/* TSC: the window's 3e6 ticks, the SMI handler's time (the TSC runs
	 * through SMM, frozen counters or not) and the few accesses between the
	 * TSC reads and the window (tsc_per_access each), no more than 10. */
	uint64_t smm = sim.cfg.smm_tsc_per_smi;
	CHECK(smm > 0);
	CHECK(counts.tsc_delta >= 3000000 + smm &&
	      counts.tsc_delta <= 3000000 + smm + 10 * sim.cfg.tsc_per_access);
	CHECK(counts.measured[0] && counts.count[0] == counts.tsc_delta);
	CHECK(counts.measured[1] && counts.count[1] == counts.tsc_delta); /* 1 GHz: ns = ticks */
	CHECK(counts.has_aperf_mperf && counts.mperf_delta == 3000000 + smm);
	CHECK(counts.has_smi_count && counts.smi_delta == 1);
	CHECK(bt_pmu_close(&s) == BT_OK);
	bt_sim_free(&sim);
}

/* The state firmware leaves is not always idle. Every preset,
 * from every "left by firmware" state (counters enabled and counting,
 * overflow bits, CTR_Frz/LBR_Frz, CondChgd/ASCI, firmware's own counters
 * with a PMI, PEBS armed, and all at once): exact counts, the register file
 * as found afterwards, and a warning exactly where counters were in use or
 * PEBS armed. */
TEST(every_preset_from_every_state_left_by_firmware)
{
	static const uint8_t states[] = {
		BT_SIM_INIT_RUNNING, BT_SIM_INIT_OVERFLOW, BT_SIM_INIT_FROZEN,
		BT_SIM_INIT_CONDCHGD, BT_SIM_INIT_FW_COUNTERS, BT_SIM_INIT_PEBS, BT_SIM_INIT_ALL,
	};
	for (int p = 0; bt_sim_preset_names[p]; p++)
		for (size_t k = 0; k < sizeof(states); k++) {
			struct bt_sim_config c = *bt_sim_preset(bt_sim_preset_names[p]);
			c.initial = states[k];
			struct run_result r = run_cfg(&c, 0, false);
			char what[64];
			snprintf(what, sizeof(what), "%s, initial 0x%X", c.name, states[k]);
			CHECK_RESULT(r, what);
		}
}

/* The checkpoint allowance is exact, not a loophole: with counters left
 * running, a driver that restores them and then lets them count its own
 * further accesses with another configuration is caught, and counting as
 * found after the checkpoint is the only difference allowed. */
TEST(restore_check_allows_only_counting_as_found)
{
	static struct bt_sim sim;
	struct bt_sim_config c = *bt_sim_preset("skl");
	c.initial = BT_SIM_INIT_RUNNING;
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	struct bt_sim_regs cp;
	bt_sim_checkpoint(&sim, &cp);
	uint64_t v;
	/* Three reads, counted by every running counter (noise 1 each). */
	for (int i = 0; i < 3; i++)
		CHECK(bt_rdmsr(&sim.arch, 0x38E, &v) == BT_OK);
	CHECK(bt_sim_restored(&sim, &cp, NULL, 0));
	CHECK_EQ_U64(sim.regs.ctr[0], cp.ctr[0] + 3);
	/* Reprogram counter 0 (still enabled): what it counts now is not the
	 * firmware's, and writing it back does not undo that. */
	CHECK(bt_wrmsr(&sim.arch, 0x186, cp.evtsel[0] ^ 0x1) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, 0x38E, &v) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x186, cp.evtsel[0]) == BT_OK);
	CHECK(!bt_sim_restored(&sim, &cp, NULL, 0));
	bt_sim_free(&sim);
}

/* With AnyThread deprecated (CPUID.0AH:EDX[15]) no manual says
 * writing the bit faults; the sim accepts it and ignores it, so an event
 * asking for AnyThread is not what such a selector counts. */
TEST(deprecated_anythread_is_ignored_not_faulted)
{
	static struct bt_sim sim;
	struct bt_event thread = fx_gp("CPU_CLK_UNHALTED.THREAD_P", 0x3C, 0x00, 0, 0xFF);
	struct bt_event any = thread;
	any.flags = BT_EVF_ANY;
	struct bt_sim_count src[2] = { { thread, 1000 }, { any, 2000 } };
	struct bt_sim_source source = { src, 2, 0, NULL };
	const char *presets[] = { "icl", "skl" };
	const uint64_t want[] = { 1000, 2000 }; /* v5 deprecated: thread only; v4: any */
	for (int p = 0; p < 2; p++) {
		CHECK(bt_sim_init(&sim, bt_sim_preset(presets[p])) == BT_OK);
		bt_sim_set_source(&sim, &source);
		struct bt_arch *a = &sim.arch;
		uint64_t v0, v1;
		CHECK(bt_wrmsr(a, 0x38F, 0) == BT_OK);
		CHECK(bt_wrmsr(a, 0x186, 0x63003C) == BT_OK);      /* EN|ANY|OS|USR, 0x3C */
		CHECK(bt_rdmsr(a, 0xC1, &v0) == BT_OK);
		CHECK(a->ops->run_window(a, 0x38F, 1, 0, NULL, NULL) == BT_OK);
		CHECK(bt_rdmsr(a, 0xC1, &v1) == BT_OK);
		CHECK_EQ_U64(v1 - v0, want[p]);
		bt_sim_free(&sim);
	}
}

/* FIXED_CTR_CTRL bit 14 is METRICS_CLEAR_EN when
 * IA32_PERF_CAPABILITIES[19] (RDPMC_METRICS_CLEAR) is set: RDPMC of
 * PERF_METRICS then clears PERF_METRICS and fixed counter 3 after the read
 * (SDM vol. 2B RDPMC). Without [19] the read leaves them. */
TEST(metrics_clear_en_with_perf_capabilities_bit_19)
{
	static struct bt_sim sim;
	const char *presets[] = { "lnl-p", "icl" };
	for (int p = 0; p < 2; p++) {
		CHECK(bt_sim_init(&sim, bt_sim_preset(presets[p])) == BT_OK);
		struct bt_arch *a = &sim.arch;
		uint64_t caps, pm, slots;
		CHECK(bt_rdmsr(a, 0x345, &caps) == BT_OK);
		CHECK_EQ_U64(caps >> 19 & 1, p == 0);
		CHECK(bt_wrmsr(a, 0x38D, 0x3333 | 1u << 14) == BT_OK);
		CHECK(bt_rdpmc(a, 0x20000000u, &pm) == BT_OK);
		CHECK(pm != 0);
		CHECK(bt_rdpmc(a, 0x20000000u, &pm) == BT_OK);
		CHECK(bt_rdpmc(a, 0x40000003u, &slots) == BT_OK);
		CHECK_MSG(p == 0 ? pm == 0 && slots == 0 : pm != 0 && slots != 0,
			  "%s: PERF_METRICS 0x%llx SLOTS %llu after the read", presets[p],
			  (unsigned long long)pm, (unsigned long long)slots);
		bt_sim_free(&sim);
	}
}

/* IA32_PERF_GLOBAL_OVF_CTRL bit 61 (Ovf_Uncore, from 06_2EH)
 * and 55 (Trace_ToPA_PMI, Broadwell with Intel PT) exist on perfmon v3;
 * 58/59 (the freeze bits) do not before v4 (SDM vol. 4 Table 2-2). */
TEST(ovf_ctrl_bits_of_perfmon_v3)
{
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("nhm")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x390, 1ull << 61) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x390, 1ull << 55) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x390, 1ull << 59) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, 0x391, 1) == BT_ERR_FAULT);   /* no STATUS_SET on v3 */
	bt_sim_free(&sim);
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x390, 1ull << 60) == BT_OK);   /* RESET: clear ASCI */
	CHECK(bt_wrmsr(&sim.arch, 0x391, 1ull << 60) == BT_OK);   /* SET: ASCI */
	CHECK(bt_wrmsr(&sim.arch, 0x391, 1ull << 63) == BT_ERR_FAULT); /* SET: no CondChgd */
	bt_sim_free(&sim);
}

/* Whether hardware clears PERF_METRICS when FIXED_CTR3 alone
 * is written is not documented (SDM 20.3.9.3 only says to write both, SLOTS
 * first; recent KVM clears PERF_METRICS with fixed counter 3). The sim
 * keeps the stale fractions, the pessimistic reading: the driver writes
 * both, which is right under either reading (test-pmu-mistakes:
 * mistake_not_resetting_perf_metrics_with_slots). */
TEST(perf_metrics_after_a_fixed_ctr3_write_is_modelled_stale)
{
	static struct bt_sim sim;
	CHECK(bt_sim_init(&sim, bt_sim_preset("icl")) == BT_OK);
	uint64_t before, after;
	CHECK(bt_rdmsr(&sim.arch, 0x329, &before) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x30C, 0) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, 0x329, &after) == BT_OK);
	CHECK(before != 0 && after == before && sim.pm_stale);
	bt_sim_free(&sim);
}

/* With EFER.SVME = 0 a selector with HostOnly (41) or
 * GuestOnly (40) set alone counts nothing (APM vol. 2 §13.2.1; Linux
 * amd_pmu_disable_virt() masks HostOnly out for that reason); both clear or
 * both set count. The driver never sets these bits; the sim must still
 * answer as the part would. */
TEST(amd_host_only_or_guest_only_alone_count_nothing_without_svm)
{
	static struct bt_sim sim;
	struct bt_event cyc = fx_gp("ls_not_halted_cyc", 0x76, 0x00, 0, 0x3F);
	struct bt_sim_count src[1] = { { cyc, 1000 } };
	struct bt_sim_source source = { src, 1, 0, NULL };
	const struct { uint64_t bits; uint64_t want; } cases[] = {
		{ 0, 1000 }, { 1ull << 41, 0 }, { 1ull << 40, 0 }, { 3ull << 40, 1000 },
	};
	for (size_t k = 0; k < BT_ARRAY_SIZE(cases); k++) {
		CHECK(bt_sim_init(&sim, bt_sim_preset("zen4")) == BT_OK);
		bt_sim_set_source(&sim, &source);
		struct bt_arch *a = &sim.arch;
		uint64_t v0, v1;
		CHECK(bt_wrmsr(a, 0xC0000301, 0) == BT_OK);          /* PerfCntrGlobalCtl */
		/* PerfEvtSel0: EventSelect 0x76, USR, OS, EN, and the bits */
		CHECK(bt_wrmsr(a, 0xC0010200, 0x76 | 3u << 16 | 1u << 22 | cases[k].bits) == BT_OK);
		CHECK(bt_rdmsr(a, 0xC0010201, &v0) == BT_OK);
		CHECK(a->ops->run_window(a, 0xC0000301, 1, 0, NULL, NULL) == BT_OK);
		CHECK(bt_rdmsr(a, 0xC0010201, &v1) == BT_OK);
		CHECK_MSG(v1 - v0 == cases[k].want, "bits 41:40 = %llu: counted %llu, want %llu",
			  (unsigned long long)(cases[k].bits >> 40),
			  (unsigned long long)(v1 - v0), (unsigned long long)cases[k].want);
		bt_sim_free(&sim);
	}
}

/* An SMI between two accesses (struct bt_sim
 * smi_after), on the Skylake preset (PERF_CAPABILITIES[12]). MSR_SMI_COUNT
 * counts it. With IA32_DEBUGCTL.FREEZE_WHILE_SMM the handler adds nothing
 * and RSM sets the GLOBAL_CTRL enable bits to 1 whatever they were (SDM
 * vol. 3B, the FREEZE_WHILE_SMM_EN entry of the IA32_DEBUGCTL flags and
 * "Filtering of SMM Handler Overhead"), so an armed selector counts the
 * next accesses; without the freeze the handler's work is counted by what
 * counts then, and GLOBAL_CTRL is left alone. */
TEST(sim_smi_between_accesses_follows_the_sdm)
{
	static struct bt_sim sim;
	const uint64_t sel = 0x43003C; /* EN | OS | USR, event 3CH */
	const uint64_t all = 0xFull | 0x7ull << 32; /* skl: 4 general, 3 fixed */
	uint64_t smi0, smi1, ctrl, c0, c1, v;
	for (int freeze = 0; freeze < 2; freeze++)
		for (int enabled = 0; enabled < 2; enabled++) {
			CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
			struct bt_arch *a = &sim.arch;
			CHECK(bt_wrmsr(a, 0x1D9, freeze ? 1ull << 14 : 0) == BT_OK);
			CHECK(bt_wrmsr(a, 0x38F, 0) == BT_OK);
			CHECK(bt_wrmsr(a, 0x186, sel) == BT_OK);
			CHECK(bt_wrmsr(a, 0x38F, enabled ? 1 : 0) == BT_OK);
			CHECK(bt_rdmsr(a, 0x34, &smi0) == BT_OK);
			CHECK(bt_rdmsr(a, 0xC1, &c0) == BT_OK);
			/* Armed on the second read of GLOBAL_STATUS from now. */
			sim.smi_op = BT_SIM_RDMSR;
			sim.smi_msr = 0x38E;
			sim.smi_after = 2;
			CHECK(bt_rdmsr(a, 0x38E, &v) == BT_OK);
			CHECK_EQ_INT(sim.smis_injected, 0);
			CHECK(bt_rdmsr(a, 0x38E, &v) == BT_OK);
			CHECK_EQ_INT(sim.smis_injected, 1);
			CHECK(bt_rdmsr(a, 0x34, &smi1) == BT_OK);
			CHECK(bt_rdmsr(a, 0x38F, &ctrl) == BT_OK);
			CHECK(bt_rdmsr(a, 0xC1, &c1) == BT_OK);
			CHECK_EQ_U64(smi1 - smi0, 1);
			/* Accesses counted by PMC0 while enabled (noise 1 each):
			 * enabled: the two 0x38E reads, the 0x34 read, the 0x38F
			 * read and the 0xC1 read itself; frozen and restarted: the
			 * last three. */
			uint64_t handler = !freeze && enabled ? sim.cfg.smm_counts_per_smi : 0;
			uint64_t driver = enabled ? 5 : freeze ? 3 : 0;
			CHECK_MSG(c1 - c0 == handler + driver, "freeze %d enabled %d: PMC0 +%llu, want %llu",
				  freeze, enabled, (unsigned long long)(c1 - c0),
				  (unsigned long long)(handler + driver));
			CHECK_EQ_U64(ctrl, freeze ? all : enabled ? 1 : 0);
			bt_sim_free(&sim);
		}
}

/* The registers that say who else uses the PMU, as
 * the SDM defines them (arch/sim/sim-regs.h): IA32_PERF_GLOBAL_INUSE on
 * perfmon v4+ only (#GP below), derived from the selectors' event select,
 * the fixed counters' enable bits and the PMI bits (PMI_InUse at bit 63);
 * IA32_PEBS_ENABLE a plain register where PEBS exists, #GP where not, and
 * IA32_MISC_ENABLE[12] / CPUID.01H:EDX[21] saying which. */
TEST(sim_global_inuse_and_pebs_enable_as_the_sdm_defines_them)
{
	static struct bt_sim sim;
	uint64_t v;
	struct bt_cpuid id;
	/* v3: no GLOBAL_INUSE. core2: no PEBS. */
	CHECK(bt_sim_init(&sim, bt_sim_preset("nhm")) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, 0x392, &v) == BT_ERR_FAULT && sim.arch.fault_vector == BT_VEC_GP);
	CHECK(bt_rdmsr(&sim.arch, 0x1A0, &v) == BT_OK && !(v & (1ull << 12)));
	bt_cpuid(&sim.arch, 1, 0, &id);
	CHECK((id.edx >> 21) & 1);
	CHECK(bt_rdmsr(&sim.arch, 0x3F1, &v) == BT_OK);
	bt_sim_free(&sim);
	CHECK(bt_sim_init(&sim, bt_sim_preset("core2")) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, 0x1A0, &v) == BT_OK && (v & (1ull << 12)));
	bt_cpuid(&sim.arch, 1, 0, &id);
	CHECK(!((id.edx >> 21) & 1));
	CHECK(bt_rdmsr(&sim.arch, 0x3F1, &v) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, 0x3F1, 0) == BT_ERR_FAULT);
	bt_sim_free(&sim);

	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	struct bt_arch *a = &sim.arch;
	/* Idle: stale encodings in all four selectors (event select != 0). */
	CHECK(bt_rdmsr(a, 0x392, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xF);
	CHECK(bt_wrmsr(a, 0x392, 0) == BT_ERR_FAULT); /* read-only */
	CHECK(bt_wrmsr(a, 0x188, 0x00FF00) == BT_OK);  /* umask only: not in use */
	CHECK(bt_wrmsr(a, 0x189, 0x100000 | 0x3C) == BT_OK); /* INT: PMI in use */
	CHECK(bt_wrmsr(a, 0x38D, 0x8 | 0x2 << 4) == BT_OK); /* fixed 0 PMI only, 1 USR */
	CHECK(bt_rdmsr(a, 0x392, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xBull | 0x2ull << 32 | 1ull << 63);
	CHECK(bt_wrmsr(a, 0x189, 0x3C) == BT_OK);
	CHECK(bt_wrmsr(a, 0x38D, 0x2 << 4) == BT_OK);
	CHECK(bt_rdmsr(a, 0x392, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xBull | 0x2ull << 32);
	CHECK(bt_wrmsr(a, 0x3F1, 0x1) == BT_OK); /* PEBS_EN_PMC0: PMI in use */
	CHECK(bt_rdmsr(a, 0x392, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xBull | 0x2ull << 32 | 1ull << 63);
	/* PMC0 armed for PEBS overflows: the assist is a violation. */
	CHECK(bt_wrmsr(a, 0x38F, 0) == BT_OK);
	CHECK(bt_wrmsr(a, 0x186, 0x43003C) == BT_OK);
	CHECK(bt_wrmsr(a, 0x4C1, 0xFFFFFFFFFFF0ull) == BT_OK);
	CHECK_EQ_INT(sim.n_violations, 0);
	CHECK(bt_wrmsr(a, 0x38F, 1) == BT_OK);
	for (int i = 0; i < 20; i++)
		CHECK(bt_rdmsr(a, 0x38E, &v) == BT_OK); /* one count each */
	CHECK(sim.n_violations == 1 && strstr(sim.violations[0], "PEBS"));
	bt_sim_free(&sim);

	/* Firmware's states: its counters show in GLOBAL_INUSE, its PEBS bit
	 * in PEBS_ENABLE. */
	struct bt_sim_config c = *bt_sim_preset("icl");
	c.initial = BT_SIM_INIT_FW_COUNTERS | BT_SIM_INIT_PEBS;
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	CHECK(bt_rdmsr(&sim.arch, 0x392, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xFFull | 0x2ull << 32 | 1ull << 63);
	CHECK(bt_rdmsr(&sim.arch, 0x3F1, &v) == BT_OK);
	CHECK_EQ_U64(v, 1);
	bt_sim_free(&sim);
}
