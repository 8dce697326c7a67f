/* SPDX-License-Identifier: MIT */
/*
 * The counter health check (validate/health.h) end to end on the simulated
 * PMU, as app/count-health.c runs it: the expected counters follow from
 * where each injected defect acts (arch/sim/README.md), the expected count
 * from loop-dec-jnz's declared instructions (kernels/), not from the check.
 */
#include "kernels/kernel.h"
#include "base/array.h"
#include "synth/sim-run.h"
#include "validate/health.h"
#include "tests/unit/lib/test.h"

static bool check(const char *preset, const char *defects, bool rdpmc,
		  struct bt_counter_health *h)
{
	struct bt_synth_opts so = { .name = preset, .defects = defects };
	struct bt_synth *s = NULL;
	struct bt_diag d = { "" };
	if (bt_synth_new(&so, &s, &d) != BT_OK) {
		CHECK_MSG(false, "bt_synth_new %s %s: %s", preset, defects ? defects : "", d.text);
		return false;
	}
	struct bt_pmu pmu = { .arch = bt_synth_arch(s) };
	bt_synth_caps(s, &pmu.caps);
	struct bt_conformance_opts co = { .reps = 3, .quick = true, .rdpmc = rdpmc };
	bt_synth_count_conformance(s, bt_conformance_loop_n(&co));
	bt_status st = bt_counter_health_run(&pmu, &co, h, &d);
	bt_synth_free(s);
	CHECK_MSG(st == BT_OK, "%s: %s", preset, d.text);
	return st == BT_OK;
}

static uint64_t declared(void)
{
	struct bt_conformance_opts co = { .quick = true };
	int64_t v = 0;
	bt_kernel_count(bt_kernel_find("loop-dec-jnz"), BT_KC_INSTRUCTIONS,
			bt_conformance_loop_n(&co), &v);
	return (uint64_t)v;
}

TEST(healthy_presets_pass)
{
	static const char *const presets[] = { "skl", "icl", "spr", "zen4" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct bt_counter_health h;
		if (!check(presets[i], NULL, true, &h))
			continue;
		CHECK_EQ_INT(h.state, BT_HEALTH_RAN);
		CHECK_MSG(h.gp_fail == 0 && !h.fixed0_fail && !h.fixed1_fail, "%s: %s", presets[i],
			  h.why);
		CHECK_EQ_U64(h.consensus, declared());
		/* Intel: fixed counters 0 and 1 checked; AMD has none. */
		CHECK(h.has_fixed0 == (presets[i][0] != 'z'));
		CHECK(h.has_fixed1 == (presets[i][0] != 'z'));
		CHECK(h.has_fixed2 == (presets[i][0] != 'z'));
		/* TOPDOWN.SLOTS from Ice Lake on. */
		CHECK(h.has_fixed3 == (strcmp(presets[i], "icl") == 0 ||
				       strcmp(presets[i], "spr") == 0));
	}
}

TEST(stuck_counter_named)
{
	struct bt_counter_health h;
	if (check("skl", "stuck-counter:2", true, &h)) {
		CHECK_EQ_U64(h.gp_fail, 1u << 2);
		CHECK_EQ_U64(h.gp[2], 0);
		CHECK(!h.fixed0_fail && !h.fixed1_fail);
	}
	if (check("zen4", "stuck-counter:0", true, &h)) {
		CHECK_EQ_U64(h.gp_fail, 1u);
		CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0x3F), 0x3E);
	}
}

TEST(dead_fixed_counters_named)
{
	struct bt_counter_health h;
	if (check("skl", "fixed-dead:0", true, &h)) {
		CHECK(h.fixed0_fail);
		CHECK_EQ_U64(h.gp_fail, 0);
	}
	if (check("spr", "fixed-dead:1", true, &h)) {
		CHECK(h.fixed1_fail);
		CHECK(!h.fixed0_fail);
		CHECK(bt_counter_health_fixed_failed(&h));
	}
	if (check("skl", "fixed-dead:2", true, &h))
		CHECK(h.fixed2_fail && !h.fixed1_fail && !h.fixed0_fail);
	/* TOPDOWN.SLOTS: every Top-Down fraction divides by it. */
	if (check("icl", "fixed-dead:3", true, &h))
		CHECK(h.fixed3_fail && !h.fixed2_fail && !h.fixed1_fail);
}

TEST(rdpmc_defect_seen_only_through_rdpmc)
{
	/* RDPMC of a fixed counter reads the general counter of that index:
	 * the counted runs read with RDPMC, so the check must too. */
	struct bt_counter_health h;
	if (check("skl", "rdpmc-fixed-gp", true, &h))
		CHECK(h.fixed1_fail);
	if (check("skl", "rdpmc-fixed-gp", false, &h))
		CHECK(!h.fixed0_fail && !h.fixed1_fail && h.gp_fail == 0);
}

TEST(every_general_counter_doubling_fails_all)
{
	struct bt_counter_health h;
	if (check("zen4", "double-count:0xC0/0x00", true, &h)) {
		CHECK_EQ_U64(h.gp_fail, 0x3F);
		CHECK_EQ_U64(h.gp[0], 2 * declared());
	}
}
