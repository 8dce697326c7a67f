/* SPDX-License-Identifier: MIT */
/*
 * Filtered fixed-counter events move to the architectural general-counter
 * event (Intel SDM vol. 3B, "Pre-defined Architectural Performance Events":
 * Instructions Retired C0H/00H, UnHalted Core Cycles 3CH/00H).
 */
#include "pmu/event-encode.h"
#include "pmu/plan.h"
#include "tests/unit/lib/test.h"

static struct bt_pmu_caps skl_caps(void)
{
	struct bt_pmu_caps c;

	memset(&c, 0, sizeof(c));
	c.kind = BT_PMU_INTEL_ARCH;
	c.version = 4;
	c.num_gp = 4;
	c.gp_mask = 0xf;
	c.num_fixed = 3;
	c.fixed_mask = 0x7;
	return c;
}

/* As Intel's SKL event file describes them: pseudo-codes 00H, "Fixed counter N". */
static struct bt_event fixed_event(const char *name, uint8_t umask, int fixed, uint16_t flags)
{
	struct bt_event e;

	memset(&e, 0, sizeof(e));
	e.name = name;
	e.source = BT_SRC_PMC;
	e.code = 0x00;
	e.umask = umask;
	e.fixed = (int8_t)fixed;
	e.flags = flags;
	return e;
}

TEST(thread_any_becomes_unhalted_core_cycles_with_anythread)
{
	struct bt_pmu_caps caps = skl_caps();
	struct bt_event e = fixed_event("CPU_CLK_UNHALTED.THREAD_ANY", 0x02, 1, BT_EVF_ANY), g;

	CHECK(bt_event_fixed_to_gp(&e, &caps, &g));
	CHECK_EQ_U64(g.code, 0x3C);
	CHECK_EQ_U64(g.umask, 0x00);
	CHECK(g.flags & BT_EVF_ANY);
	CHECK_EQ_INT(g.fixed, BT_EV_NO_FIXED);
	CHECK_EQ_U64(g.counters, 0xf);
	CHECK_STR(g.name, "CPU_CLK_UNHALTED.THREAD_ANY");
}

TEST(ring_filtered_instructions_become_event_c0)
{
	struct bt_pmu_caps caps = skl_caps();
	struct bt_event e = fixed_event("INST_RETIRED.ANY:SUP", 0x01, 0, BT_EVF_SUP), g;

	CHECK(bt_event_fixed_to_gp(&e, &caps, &g));
	CHECK_EQ_U64(g.code, 0xC0);
	CHECK_EQ_U64(g.umask, 0x00);
	CHECK(g.flags & BT_EVF_SUP);
}

TEST(what_the_fixed_counter_counts_as_is_stays_there)
{
	struct bt_pmu_caps caps = skl_caps();
	struct bt_event g;
	struct bt_event plain = fixed_event("CPU_CLK_UNHALTED.THREAD", 0x02, 1, 0);
	/* Reference cycles: 3CH/01H counts at the bus rate, not the TSC's. */
	struct bt_event ref_sup = fixed_event("CPU_CLK_UNHALTED.REF_TSC:SUP", 0x03, 2, BT_EVF_SUP);

	CHECK(!bt_event_fixed_to_gp(&plain, &caps, &g));
	CHECK(!bt_event_fixed_to_gp(&ref_sup, &caps, &g));
	caps.kind = BT_PMU_AMD_V2; /* no fixed counters on AMD */
	struct bt_event any = fixed_event("CPU_CLK_UNHALTED.THREAD_ANY", 0x02, 1, BT_EVF_ANY);
	CHECK(!bt_event_fixed_to_gp(&any, &caps, &g));
}

/* An OS driver's form (caps.os_filter) applies to the twin, not to the
 * fixed-counter event it replaced. */
static bool moves_to_counter_2(const struct bt_os_event_filter *f, const struct bt_event *e,
			       struct bt_event *ret)
{
	(void)f;
	if (e->fixed != BT_EV_NO_FIXED)
		return false;
	*ret = *e;
	ret->counters = 0x4;
	return true;
}

TEST(counted_form_is_the_twin_then_the_drivers)
{
	struct bt_pmu_caps caps = skl_caps();
	struct bt_event any = fixed_event("CPU_CLK_UNHALTED.THREAD_ANY", 0x02, 1, BT_EVF_ANY), g;
	struct bt_event plain = fixed_event("CPU_CLK_UNHALTED.THREAD", 0x02, 1, 0);

	CHECK(bt_plan_counted_form(&any, &caps, &g));
	CHECK_EQ_U64(g.code, 0x3C);
	CHECK(g.flags & BT_EVF_ANY);
	CHECK_EQ_U64(g.counters, 0xf);
	CHECK(!bt_plan_counted_form(&plain, &caps, &g));

	struct bt_os_event_filter f = { .adapt = moves_to_counter_2 };
	caps.os_filter = &f;
	CHECK(bt_plan_counted_form(&any, &caps, &g));
	CHECK_EQ_U64(g.code, 0x3C);
	CHECK_EQ_U64(g.counters, 0x4);
	CHECK(!bt_plan_counted_form(&plain, &caps, &g));
}
