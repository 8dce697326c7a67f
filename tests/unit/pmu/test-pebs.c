/* SPDX-License-Identifier: MIT */
/*
 * The timed-PEBS driver (pmu/pebs.c) against the simulated PMU, whose
 * registers and records are written independently (arch/sim, from the SDM
 * and Linux ds.c): the gate (PERF_CAPABILITIES[17], architectural PEBS
 * refused by its CPUID bits), one sampling window's statistics, every
 * register restored, the record reader's bits, and a fault injected on each
 * access to the new MSRs (IA32_DS_AREA, MSR_PEBS_DATA_CFG,
 * IA32_PEBS_ENABLE, and MSR_PEBS_FRONTEND for a FRONTEND_RETIRED.* event),
 * read and write: an error naming the MSR, the register
 * file as found. Expected latencies are the ones the test's latency model
 * hands the sim.
 */
#include <math.h>

#include "arch/sim/sim.h"
#include "pmu/pebs.h"
#include "pmu/pmu-caps.h"
#include "synth/count-sources.h"
#include "tests/unit/lib/test.h"

static struct bt_sim sim;
static void noop(void *arg) { (void)arg; }

/* 0: 10 * (n % 5 + 1); 1: MSR_PEBS_FRONTEND's value at the assist (which
 * sub-event the record was taken under); else this constant */
static uint32_t lat_mode;
static uint32_t latency(void *ctx, unsigned i, uint64_t evtsel, uint64_t frontend, uint64_t n)
{
	(void)ctx; (void)i; (void)evtsel;
	if (lat_mode == 1)
		return (uint32_t)frontend;
	return lat_mode ? lat_mode : (uint32_t)(10 * (n % 5 + 1));
}

static struct bt_arch *setup(const char *preset, uint64_t count, struct bt_pmu_caps *caps)
{
	static struct bt_sim_count src[1];
	static struct bt_sim_source source;
	struct bt_sim_config cfg = *bt_sim_preset(preset);
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	src[0].ev.source = BT_SRC_PMC;
	src[0].ev.code = 0xC5; /* BR_MISP_RETIRED.ALL_BRANCHES */
	src[0].ev.fixed = -1;
	src[0].count = count;
	source = (struct bt_sim_source){ src, 1, 0, noop };
	bt_sim_set_source(&sim, &source);
	sim.pebs_latency = latency;
	bt_pmu_caps_detect(&sim.arch, caps);
	return &sim.arch;
}

/* FRONTEND_RETIRED.L1I_MISS and .L2_MISS as Intel's event file for the
 * Lunar Lake P-core (lunarlake_lioncove_core.json) spells them: EventCode
 * 0xC6, UMask 0x03, MSRIndex 0x3F7, MSRValue 0x12 and 0x13 (MSR_PEBS_FRONTEND
 * EVTSEL, SDM table "MSR_PEBS_FRONTEND Layout"). The sim counts each only
 * while MSR_PEBS_FRONTEND holds its value. */
#define FE_L1I 0x12u
#define FE_L2 0x13u
static struct bt_arch *setup_fe(const char *preset, struct bt_pmu_caps *caps)
{
	static struct bt_sim_count src[2];
	static struct bt_sim_source source;
	struct bt_sim_config cfg;
	/* a preset, or a model CPU (synth/model-cpus.c: "GNR") */
	if (bt_sim_preset(preset))
		cfg = *bt_sim_preset(preset);
	else
		CHECK(bt_sim_config_for_model(preset, &cfg));
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	for (unsigned k = 0; k < 2; k++) {
		src[k].ev.source = BT_SRC_PMC;
		src[k].ev.code = 0xC6;
		src[k].ev.umask = 0x03;
		src[k].ev.fixed = -1;
		src[k].ev.msr_index = 0x3F7;
		src[k].ev.msr_value = k ? FE_L2 : FE_L1I;
		src[k].count = k ? 2500 : 5500;
	}
	source = (struct bt_sim_source){ src, 2, 0, noop };
	bt_sim_set_source(&sim, &source);
	sim.pebs_latency = latency;
	bt_pmu_caps_detect(&sim.arch, caps);
	return &sim.arch;
}

static struct bt_pebs_job fe_job(uint64_t value)
{
	return (struct bt_pebs_job){ .evtsel = 0xC6 | 0x03 << 8, .extra_msr = 0x3F7,
				     .extra_value = value, .counter = 2, .sample_after = 1000,
				     .slots = 64, .fn = noop, .arg = NULL };
}

static struct bt_pebs_job job(unsigned counter, uint64_t after, unsigned slots)
{
	return (struct bt_pebs_job){ .evtsel = 0xC5, .counter = counter, .sample_after = after,
				     .slots = slots, .fn = noop, .arg = NULL };
}

TEST(gate_on_perf_capabilities_bit17)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_arch *a = setup("lnl-p", 0, &caps);
	CHECK(bt_pebs_supported(a, &caps, &d) == BT_OK);
	bt_sim_free(&sim);
	a = setup("spr", 0, &caps);
	CHECK(bt_pebs_supported(a, &caps, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "[17]") != NULL);
	bt_sim_free(&sim);
}

/* PEBS itself, as Linux decides it (arch/x86/kernel/cpu/intel.c
 * init_intel: X86_FEATURE_PEBS needs X86_FEATURE_DS and IA32_MISC_ENABLE[12]
 * "PEBS unavailable" clear): a part whose PERF_CAPABILITIES offer timed
 * PEBS but that has no PEBS facility (the sim's ldlat) is refused, by
 * CPUID.01H:EDX[21] where its CPUID is made up (no DS), by
 * IA32_MISC_ENABLE[12] where it answers as Lunar Lake (DS set). */
TEST(gate_on_ds_and_misc_enable_pebs_unavailable)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_sim_config cfg = *bt_sim_preset("lnl-p");
	cfg.ldlat = false;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &caps);
	CHECK(bt_pebs_supported(&sim.arch, &caps, &d) == BT_ERR_UNSUPPORTED);
	CHECK_MSG(strstr(d.text, "IA32_MISC_ENABLE[12]") != NULL, "%s", d.text);
	bt_sim_free(&sim);
	cfg.part = NULL; /* made-up CPUID: DS only with the sim's PEBS */
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &caps);
	d.text[0] = '\0';
	CHECK(bt_pebs_supported(&sim.arch, &caps, &d) == BT_ERR_UNSUPPORTED);
	CHECK_MSG(strstr(d.text, "CPUID.01H:EDX[21]") != NULL, "%s", d.text);
	bt_sim_free(&sim);
}

/* Architectural PEBS: CPUID.23H.0:EAX[4] and [5] (Linux: pebs_caps_subleaf,
 * pebs_cnts_subleaf), added to the sim's answers. */
static const struct bt_arch_ops *real_ops;
static void cpuid_arch_pebs(struct bt_arch *a, uint32_t leaf, uint32_t sub, struct bt_cpuid *r)
{
	real_ops->cpuid(a, leaf, sub, r);
	if (leaf == 0 && r->eax < 0x23)
		r->eax = 0x23;
	if (leaf == 0x23 && sub == 0)
		r->eax |= 3u << 4;
}

TEST(architectural_pebs_is_refused_naming_the_cpuid_bits)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	static struct bt_arch_ops ops;
	struct bt_arch *a = setup("lnl-p", 0, &caps);
	real_ops = a->ops;
	ops = *a->ops;
	ops.cpuid = cpuid_arch_pebs;
	a->ops = &ops;
	CHECK(bt_pebs_supported(a, &caps, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "CPUID.23H.0:EAX[4]/[5]") != NULL);
	a->ops = real_ops;
	bt_sim_free(&sim);
}

TEST(one_window_statistics_and_everything_restored)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 5500, &caps);
	/* state left by someone else (counter 3 stopped first): kept */
	CHECK(bt_wrmsr(a, 0x38F, 0) == BT_OK);
	CHECK(bt_wrmsr(a, 0x600, 0x0000123456780000ull) == BT_OK);
	CHECK(bt_wrmsr(a, 0x186 + 3, 0x4300C0) == BT_OK);
	CHECK(bt_wrmsr(a, 0x4C1 + 3, 777) == BT_OK);
	bt_sim_snapshot(&sim, &before);
	lat_mode = 0;
	struct bt_pebs_job j = job(3, 1000, 64);
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	/* 5500 counts, a record per 1000: 5, latencies 10, 20, 30, 40, 50 */
	CHECK_EQ_U64(s.samples, 5);
	CHECK_NEAR(s.mean, 30, 0, 1e-12);
	CHECK_NEAR(s.median, 30, 0, 1e-12);
	CHECK_EQ_INT(s.min, 10);
	CHECK_EQ_INT(s.max, 50);
	CHECK_EQ_U64(s.saturated, 0);
	CHECK_EQ_U64(s.dropped, 0);
	CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
	CHECK_MSG(sim.n_violations == 0, "violation: %s", sim.violations[0]);
	/* saturated latencies are counted as such */
	lat_mode = 70000;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK_EQ_U64(s.saturated, 5);
	CHECK_EQ_INT(s.max, 65535);
	/* too small a sample-after for the buffer: said */
	j = job(3, 100, 8);
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK_EQ_U64(s.samples, 8);
	CHECK(s.dropped);
	bt_sim_free(&sim);
}

/* The ranges a split run was given, in order. */
static uint64_t ranges[16][2];
static unsigned n_ranges;
static void record_range(void *ctx, uint64_t b, uint64_t e)
{
	(void)ctx;
	if (n_ranges < 16) {
		ranges[n_ranges][0] = b;
		ranges[n_ranges][1] = e;
	}
	n_ranges++;
}

TEST(split_run_samples_what_the_whole_run_does)
{
	/* --max-window-ms: the run of 102 iterations in 4 windows, [0, 25),
	 * [25, 51), [51, 76), [76, 102) (floor(102 w / 4), as the counting
	 * runs split), then (0, 102) again. The sim counts each window's share
	 * of the 5500 (arch/sim window_part), the counter and the DS index
	 * carry on between windows: the same 5 records, latencies 10..50, as
	 * one whole window; every register restored. */
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 5500, &caps);
	bt_sim_snapshot(&sim, &before);
	lat_mode = 0;
	struct bt_pebs_job j = job(1, 1000, 64);
	j.windows = 4;
	j.iterations = 102;
	j.set_range = record_range;
	j.mask_interrupts = true;
	n_ranges = 0;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK_EQ_INT(s.windows, 4);
	CHECK_EQ_INT(n_ranges, 5);
	static const uint64_t want[5][2] = { { 0, 25 }, { 25, 51 }, { 51, 76 }, { 76, 102 },
					     { 0, 102 } };
	for (unsigned k = 0; k < 5 && k < n_ranges; k++)
		CHECK_MSG(ranges[k][0] == want[k][0] && ranges[k][1] == want[k][1],
			  "range %u: [%llu, %llu)", k, (unsigned long long)ranges[k][0],
			  (unsigned long long)ranges[k][1]);
	CHECK_EQ_U64(s.samples, 5);
	CHECK_NEAR(s.mean, 30, 0, 1e-12);
	CHECK_EQ_INT(s.min, 10);
	CHECK_EQ_INT(s.max, 50);
	CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
	CHECK_MSG(sim.n_violations == 0, "violation: %s", sim.violations[0]);
	/* a body that cannot be split (no set_range), or fewer iterations
	 * than windows: one whole window */
	j.set_range = NULL;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK_EQ_INT(s.windows, 1);
	CHECK_EQ_U64(s.samples, 5);
	j.set_range = record_range;
	j.iterations = 3;
	n_ranges = 0;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK_EQ_INT(s.windows, 1);
	CHECK_EQ_INT(n_ranges, 0);
	bt_sim_free(&sim);
}

TEST(reader_takes_the_latency_from_bits_47_32)
{
	/* record size 32 (63:48), latency 0x1234 (47:32), groups 0x5 (31:0):
	 * reading 63:48 gives 32, 31:16 gives 0, 15:0 gives 5 */
	uint64_t buf[8] = { (32ull << 48) | (0x1234ull << 32) | 0x5, 1, 1, 1,
			    (32ull << 48) | (0xFFFFull << 32), 2, 2, 2 };
	uint32_t lat[4];
	CHECK_EQ_INT(bt_pebs_latencies(buf, sizeof(buf), lat, 4), 2);
	CHECK_EQ_INT(lat[0], 0x1234);
	CHECK_EQ_INT(lat[1], 65535);
	/* a size that is not a record: stop there */
	buf[4] = (12ull << 48) | (7ull << 32);
	CHECK_EQ_INT(bt_pebs_latencies(buf, sizeof(buf), lat, 4), 1);
	/* a 48-byte record (another group present) is stepped over whole */
	uint64_t b2[10] = { (48ull << 48) | (9ull << 32) | 1, 0, 0, 0, 0, 0,
			    (32ull << 48) | (11ull << 32), 0, 0, 0 };
	CHECK_EQ_INT(bt_pebs_latencies(b2, sizeof(b2), lat, 4), 2);
	CHECK_EQ_INT(lat[1], 11);
}

TEST(frontend_event_sampled_under_its_msr_value_and_the_msr_restored)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	uint64_t v = 0;
	for (unsigned p = 0; p < 2; p++) {
		struct bt_arch *a = setup_fe(p ? "GNR" : "lnl-p", &caps);
		/* someone else's value (DSB_MISS, 0x11): kept */
		CHECK(bt_wrmsr(a, 0x3F7, 0x11) == BT_OK);
		bt_sim_snapshot(&sim, &before);
		lat_mode = 1; /* each record's latency is the MSR's value at its assist */
		struct bt_pebs_job j = fe_job(FE_L2);
		CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
		/* 2500 L2 misses, a record per 1000: 2, both taken under 0x13 */
		CHECK_EQ_U64(s.samples, 2);
		CHECK_EQ_INT(s.min, FE_L2);
		CHECK_EQ_INT(s.max, FE_L2);
		CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
		CHECK(bt_rdmsr(a, 0x3F7, &v) == BT_OK && v == 0x11);
		j = fe_job(FE_L1I);
		CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
		CHECK_EQ_U64(s.samples, 5);
		CHECK_NEAR(s.mean, FE_L1I, 0, 1e-12);
		/* without the MSR programmed, the event counts what 0x11 selects:
		 * nothing here, so no record */
		j.extra_msr = 0;
		CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
		CHECK_EQ_U64(s.samples, 0);
		/* a reserved bit (7: not in Linux intel_lnc/gnr_extra_regs'
		 * 0x7fff1f for 0x03c6) #GPs: an error naming the MSR, all restored */
		j = fe_job(0x80 | FE_L1I);
		CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) != BT_OK);
		CHECK_MSG(strstr(d.text, "MSR_PEBS_FRONTEND") != NULL, "message '%s'", d.text);
		CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
		CHECK_MSG(sim.n_violations == 0, "violation: %s", sim.violations[0]);
		bt_sim_free(&sim);
	}
	lat_mode = 0;
}

TEST(load_latency_and_offcore_events_are_refused_by_name_touching_nothing)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 5500, &caps);
	bt_sim_snapshot(&sim, &before);
	struct bt_pebs_job j = job(0, 1000, 64);
	j.extra_msr = 0x3F6;
	j.extra_value = 32;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_ERR_UNSUPPORTED);
	CHECK_MSG(strstr(d.text, "MSR_PEBS_LD_LAT") != NULL, "message '%s'", d.text);
	j.extra_msr = 0x1A6;
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_ERR_UNSUPPORTED);
	CHECK_MSG(strstr(d.text, "MSR_OFFCORE_RSP_0") != NULL, "message '%s'", d.text);
	CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "touched: %s", why);
	bt_sim_free(&sim);
}

TEST(fault_on_each_new_msr_access_is_an_error_and_restores)
{
	static const struct {
		uint32_t msr;
		const char *name;
	} msrs[] = { { 0x600, "IA32_DS_AREA" }, { 0x3F2, "MSR_PEBS_DATA_CFG" },
		     { 0x3F1, "IA32_PEBS_ENABLE" }, { 0x3F7, "MSR_PEBS_FRONTEND" } };
	for (unsigned k = 0; k < 4; k++)
		for (uint8_t op = BT_SIM_RDMSR; op <= BT_SIM_WRMSR; op++) {
			struct bt_pmu_caps caps;
			struct bt_diag d = { "" };
			struct bt_pebs_stats s;
			struct bt_sim_regs before;
			char why[200];
			/* MSR_PEBS_FRONTEND is touched only for a FRONTEND_RETIRED job */
			bool fe = msrs[k].msr == 0x3F7;
			struct bt_arch *a = fe ? setup_fe("lnl-p", &caps) : setup("lnl-p", 5500, &caps);
			if (fe)
				CHECK(bt_wrmsr(a, 0x3F7, 0x11) == BT_OK);
			bt_sim_snapshot(&sim, &before);
			sim.fault_msr = msrs[k].msr;
			sim.fault_op = op;
			sim.fault_msr_armed = true;
			struct bt_pebs_job j = fe ? fe_job(FE_L1I) : job(0, 1000, 64);
			CHECK_MSG(bt_pebs_sample(a, &caps, &j, &s, &d) != BT_OK, "%s %s: no error",
				  msrs[k].name, op == BT_SIM_RDMSR ? "read" : "write");
			CHECK_MSG(strstr(d.text, msrs[k].name) != NULL, "%s: message '%s'", msrs[k].name,
				  d.text);
			sim.fault_msr_armed = false;
			CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)),
				  "%s %s: not restored: %s", msrs[k].name, op == BT_SIM_RDMSR ? "read" : "write",
				  why);
			bt_sim_free(&sim);
		}
}

/* Perfmon v6 (Lunar Lake's 10 general counters): counter 9 exists only in
 * the 0x19xx range (Linux intel_pmu_v6_addr_offset; the sim #GPs a legacy
 * address past IA32_PERFEVTSEL7), and a sampling on it programs and
 * restores it there; a counter the bitmap does not enumerate is refused. */
TEST(v6_counters_at_the_addresses_the_part_enumerates)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 5500, &caps);
	CHECK(caps.version >= 6 && ((caps.gp_mask >> 9) & 1));
	bt_sim_snapshot(&sim, &before);
	lat_mode = 0;
	struct bt_pebs_job j = job(9, 1000, 64);
	CHECK_MSG(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK, "%s", d.text);
	CHECK_EQ_U64(s.samples, 5);
	CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
	CHECK(bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, 0x186 + 9) < 0);
	j = job(12, 1000, 64);
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_ERR_INVALID);
	bt_sim_free(&sim);
}

/* The sampling's own overflow and OvfBuffer bits are cleared through
 * GLOBAL_STATUS_RESET, the firmware's stale ones kept: a full buffer
 * (OvfBuffer set by the threshold) with counter 0 overflowing before. */
TEST(global_status_left_as_found_after_a_full_buffer)
{
	struct bt_pmu_caps caps;
	struct bt_diag d = { "" };
	struct bt_pebs_stats s;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 5500, &caps);
	CHECK(bt_wrmsr(a, 0x390, 1ull << 62) == BT_OK);   /* clear the stale OvfBuffer */
	CHECK(bt_wrmsr(a, 0x391, 1ull << 0) == BT_OK);    /* firmware's counter 0 overflow */
	bt_sim_snapshot(&sim, &before);
	struct bt_pebs_job j = job(3, 100, 8);            /* 55 overflows, 8 records */
	CHECK(bt_pebs_sample(a, &caps, &j, &s, &d) == BT_OK);
	CHECK(s.dropped);
	CHECK_MSG(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)), "not restored: %s", why);
	CHECK(bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, 0x390) >= 0);
	bt_sim_free(&sim);
}
