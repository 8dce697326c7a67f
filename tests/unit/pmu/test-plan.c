/* SPDX-License-Identifier: MIT */
/* The group planner: lower bound on hand-computed cases, optimality on
 * realistic sets, and the validator catching bad plans. */
#include "pmu/plan.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_plan plan;
static struct bt_plan_scratch scratch;

static struct bt_pmu_caps caps_of(const char *preset)
{
	static struct bt_sim sim;
	struct bt_pmu_caps caps;
	bt_sim_init(&sim, bt_sim_preset(preset));
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	return caps;
}

/* Plan, validate, and return the group count (-1 on failure). */
static int plan_ok(struct bt_event *ev, int n, const struct bt_pmu_caps *caps)
{
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	fx_ptrs(ev, n, evp);
	if (bt_plan_events(evp, n, caps, NULL, &scratch, &plan) != BT_OK)
		return -1;
	struct bt_diag d;
	if (bt_plan_validate(&plan, evp, n, caps, NULL, &scratch, &d) != BT_OK) {
		CHECK_MSG(false, "invalid plan: %s", d.text);
		return -1;
	}
	return plan.n_groups;
}

static char names[BT_PLAN_MAX_EVENTS][32];

static struct bt_event gen(int i, uint32_t mask)
{
	snprintf(names[i], sizeof(names[i]), "EV%d", i);
	return fx_gp(names[i], (uint16_t)(0x10 + i), 0x01, 0, mask);
}

TEST(bound_capacity_ten_events_four_counters)
{
	struct bt_pmu_caps caps = caps_of("skl");
	struct bt_event ev[10];
	for (int i = 0; i < 10; i++)
		ev[i] = gen(i, 0xF);
	CHECK_EQ_INT(plan_ok(ev, 10, &caps), 3);
	CHECK_EQ_INT(plan.lower_bound, 3);
	CHECK_EQ_INT(plan.bound.capacity, 3);
}

TEST(bound_hall_counter_two_only_events)
{
	/* HSW/IVB: L1D_PEND_MISS.PENDING, CYCLE_ACTIVITY.CYCLES_L1D_PENDING ...
	 * have Counter "2": three of them need three groups. */
	struct bt_pmu_caps caps = caps_of("skl");
	struct bt_event ev[8];
	for (int i = 0; i < 3; i++)
		ev[i] = gen(i, 0x4);
	for (int i = 3; i < 8; i++)
		ev[i] = gen(i, 0xF);
	CHECK_EQ_INT(plan_ok(ev, 8, &caps), 3);
	CHECK_EQ_INT(plan.bound.capacity, 2);
	CHECK_EQ_INT(plan.bound.hall, 3);
	CHECK_EQ_U64(plan.bound.hall_set, 0x4);
	/* Two on counter 0 only, three on {0,1}: S = {0,1} holds 5 -> 3. */
	ev[0] = gen(0, 0x1); ev[1] = gen(1, 0x1);
	ev[2] = gen(2, 0x3); ev[3] = gen(3, 0x3); ev[4] = gen(4, 0x3);
	CHECK_EQ_INT(plan_ok(ev, 5, &caps), 3);
	CHECK_EQ_INT(plan.bound.hall, 3);
}

TEST(bound_taken_alone_events)
{
	struct bt_pmu_caps caps = caps_of("skl");
	struct bt_event ev[7];
	for (int i = 0; i < 7; i++)
		ev[i] = gen(i, 0xF);
	ev[0].flags = BT_EVF_ALONE;
	ev[1].flags = BT_EVF_ALONE;
	/* 2 alone + ceil(5/4) = 4 */
	CHECK_EQ_INT(plan_ok(ev, 7, &caps), 4);
	CHECK_EQ_INT(plan.lower_bound, 4);
	CHECK_EQ_INT(plan.bound.alone, 2);
}

TEST(bound_extra_msr_values)
{
	struct bt_pmu_caps caps = caps_of("skl");
	struct bt_event ev[6];
	/* FRONTEND_RETIRED (0xC6/0x01 on Skylake) with three MSR_PEBS_FRONTEND
	 * values (DSB_MISS 0x11, ITLB_MISS 0x14, LATENCY_GE_4 0x400406; here
	 * not TakenAlone): one value per group. */
	ev[0] = fx_msr(fx_gp("FE.A", 0xC6, 0x01, 0, 0xF), MSR_PEBS_FRONTEND, 0x11, 0);
	ev[1] = fx_msr(fx_gp("FE.B", 0xC6, 0x01, 0, 0xF), MSR_PEBS_FRONTEND, 0x14, 0);
	ev[2] = fx_msr(fx_gp("FE.C", 0xC6, 0x01, 0, 0xF), MSR_PEBS_FRONTEND, 0x400406, 0);
	ev[3] = gen(3, 0xF);
	CHECK_EQ_INT(plan_ok(ev, 4, &caps), 3);
	CHECK_EQ_INT(plan.bound.msr, 3);
	/* Three OCR values with the 0xBB alternative: ceil(3/2) = 2 groups. */
	for (int i = 0; i < 3; i++)
		ev[i] = fx_msr(fx_gp(names[i], 0xB7, 0x01, 0, 0xF), MSR_OFFCORE_RSP_0, 0x10001ull + i, 0xBB);
	CHECK_EQ_INT(plan_ok(ev, 3, &caps), 2);
	CHECK_EQ_INT(plan.bound.msr, 2);
	/* Without the alternative code: one value per group, 3 groups. */
	for (int i = 0; i < 3; i++)
		ev[i].code2 = 0;
	CHECK_EQ_INT(plan_ok(ev, 3, &caps), 3);
	/* Same value twice shares the MSR. */
	ev[1].msr_value = ev[0].msr_value;
	ev[1].umask = 0x02;
	CHECK_EQ_INT(plan_ok(ev, 3, &caps), 2);
}

TEST(fixed_perf_metrics_free_and_unmeasurable)
{
	struct bt_pmu_caps icl = caps_of("icl"), skl = caps_of("skl");
	struct bt_event ev[6] = {
		fx_fixed("INST_RETIRED.ANY", 0xC0, 0, 0, 0),
		fx_fixed("TOPDOWN.SLOTS", 0x00, 0x04, 3, 0),
		fx_pm("PERF_METRICS.RETIRING", BT_PM_RETIRING),
		fx_src("TSC", BT_SRC_TSC),
		fx_src("UNC_CHA_CLOCKTICKS", BT_SRC_UNCORE),
		fx_src("duration_time", BT_SRC_DURATION),
	};
	CHECK_EQ_INT(plan_ok(ev, 6, &icl), 1);
	CHECK_EQ_INT(plan.lower_bound, 1);
	CHECK_EQ_INT(plan.ev[0].place, BT_PLACE_FIXED);
	CHECK_EQ_INT(plan.ev[2].place, BT_PLACE_PERF_METRICS);
	CHECK_EQ_INT(plan.ev[4].place, BT_PLACE_UNMEASURABLE);
	CHECK(strstr(plan.ev[4].reason, "uncore") != NULL);
	CHECK_EQ_INT(plan_ok(ev, 6, &skl), 1);
	CHECK_EQ_INT(plan.ev[1].place, BT_PLACE_UNMEASURABLE); /* no fixed counter 3 */
	CHECK_EQ_INT(plan.ev[2].place, BT_PLACE_UNMEASURABLE); /* no PERF_METRICS */
	CHECK_EQ_INT(plan.n_unmeasurable, 3);
}

TEST(same_encoding_counted_once)
{
	struct bt_pmu_caps caps = caps_of("skl");
	struct bt_event ev[5];
	for (int i = 0; i < 5; i++)
		ev[i] = gen(i, 0xF);
	ev[4] = ev[0];
	ev[4].name = "ALIAS_OF_EV0";
	CHECK_EQ_INT(plan_ok(ev, 5, &caps), 1);
	CHECK_EQ_INT(plan.ev[4].alias_of, 0);
}

TEST(optimal_on_realistic_sets)
{
	static struct bt_event ev[BT_PLAN_MAX_EVENTS];
	const char *presets[] = { "skl", "nhm", "icl", "spr", "adl-e", "zen4", "amd-legacy" };
	for (size_t p = 0; p < BT_ARRAY_SIZE(presets); p++) {
		const struct bt_sim_config *c = bt_sim_preset(presets[p]);
		struct bt_pmu_caps caps = caps_of(presets[p]);
		int n = fx_set_for(c, ev);
		int g = plan_ok(ev, n, &caps);
		CHECK_MSG(g == plan.lower_bound && g > 0, "%s: %d groups, bound %d", presets[p], g,
			  plan.lower_bound);
	}
	/* A model-sized set (~120 events) with HSW-like restrictions: 6 events
	 * on counter 2 only, 4 on counter 3 only, 1 on counter 1 only, 2
	 * TakenAlone, 4 OCR values, 3 MSR_PEBS_FRONTEND values, the rest on 0-3. */
	struct bt_pmu_caps caps = caps_of("skl");
	int n = 0;
	for (int i = 0; i < 6; i++) ev[n] = gen(n, 0x4), n++;
	for (int i = 0; i < 4; i++) ev[n] = gen(n, 0x8), n++;
	ev[n] = gen(n, 0x2), n++;
	for (int i = 0; i < 2; i++) ev[n] = gen(n, 0xF), ev[n].flags = BT_EVF_ALONE, n++;
	for (int i = 0; i < 4; i++)
		ev[n] = fx_msr(fx_gp(names[n], 0xB7, 0x01, 0, 0xF), MSR_OFFCORE_RSP_0,
			       0x10001ull << i, 0xBB), snprintf(names[n], 32, "OCR%d", i), n++;
	for (int i = 0; i < 3; i++)
		ev[n] = fx_msr(fx_gp(names[n], 0xC6, 0x01, 0, 0xF), MSR_PEBS_FRONTEND, 0x11u + i, 0),
		snprintf(names[n], 32, "FE%d", i), n++;
	while (n < 120)
		ev[n] = gen(n, 0xF), n++;
	int g = plan_ok(ev, n, &caps);
	CHECK_MSG(g == plan.lower_bound, "model-sized set: %d groups, bound %d", g, plan.lower_bound);
	CHECK_EQ_INT(g, 2 + 30); /* alone + ceil(118 / 4) */
	/* Same on an 8-counter ICL-like PMU with "0,1,2,3"-restricted events. */
	struct bt_pmu_caps icl = caps_of("icl");
	n = 0;
	for (int i = 0; i < 40; i++) ev[n] = gen(n, 0xF), n++;
	for (int i = 0; i < 40; i++) ev[n] = gen(n, 0xFF), n++;
	g = plan_ok(ev, n, &icl);
	CHECK_EQ_INT(g, plan.lower_bound);
	CHECK_EQ_INT(g, 10);
}

TEST(validator_catches_bad_plans)
{
	struct bt_pmu_caps caps = caps_of("skl");
	static struct bt_event ev[8];
	static const struct bt_event *evp[8];
	for (int i = 0; i < 4; i++)
		ev[i] = gen(i, 0xF);
	ev[0].counters = 0x4;                 /* counter 2 only */
	ev[4] = fx_msr(fx_gp("OCR.A", 0xB7, 1, 0, 0xF), MSR_OFFCORE_RSP_0, 0x10001, 0);
	ev[5] = fx_msr(fx_gp("OCR.B", 0xB7, 2, 0, 0xF), MSR_OFFCORE_RSP_0, 0x20001, 0);
	ev[6] = gen(6, 0xF);
	ev[6].flags = BT_EVF_ALONE;
	ev[7] = fx_pm("PERF_METRICS.RETIRING", 0);
	fx_ptrs(ev, 7, evp);
	CHECK(bt_plan_events(evp, 7, &caps, NULL, &scratch, &plan) == BT_OK);
	struct bt_diag d;
	CHECK(bt_plan_validate(&plan, evp, 7, &caps, NULL, &scratch, &d) == BT_OK);
	static struct bt_plan bad;

	/* 1. an event on a counter it may not use (groups and event table
	 * changed consistently) */
	bad = plan;
	int g0 = plan.ev[0].group;
	for (int i = 0; i < bad.groups[g0].n_gp; i++)
		if (bad.groups[g0].gp[i].event == 0) {
			int other = (i + 1) % bad.groups[g0].n_gp;
			uint8_t c = bad.groups[g0].gp[i].counter;
			bad.groups[g0].gp[i].counter = bad.groups[g0].gp[other].counter;
			bad.groups[g0].gp[other].counter = c;
			bad.ev[0].counter = bad.groups[g0].gp[i].counter;
			bad.ev[bad.groups[g0].gp[other].event].counter = c;
		}
	CHECK(bt_plan_validate(&bad, evp, 7, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "may not use") != NULL);

	/* 2. two OCR values on the same MSR in one group */
	bad = plan;
	int ga = plan.ev[4].group, gb = plan.ev[5].group;
	CHECK(ga != gb);
	struct bt_plan_group *G = &bad.groups[ga];
	G->gp[G->n_gp].event = 5;
	uint32_t used = 0;
	for (int i = 0; i < G->n_gp; i++) used |= 1u << G->gp[i].counter;
	int free_c = 0;
	while (used & (1u << free_c)) free_c++;
	G->gp[G->n_gp].counter = (uint8_t)free_c;
	G->n_gp++;
	CHECK(bt_plan_validate(&bad, evp, 7, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);

	/* 3. company for a TakenAlone event */
	bad = plan;
	G = &bad.groups[plan.ev[6].group];
	G->gp[1].event = 1;
	G->gp[1].counter = (uint8_t)(G->gp[0].counter == 0 ? 1 : 0);
	G->n_gp = 2;
	CHECK(bt_plan_validate(&bad, evp, 7, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);

	/* 4. an event left out */
	bad = plan;
	G = &bad.groups[plan.ev[3].group];
	for (int i = 0; i < G->n_gp; i++)
		if (G->gp[i].event == 3)
			G->gp[i] = G->gp[--G->n_gp];
	CHECK(bt_plan_validate(&bad, evp, 7, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);

	/* 5. PERF_METRICS without fixed counter 3 / the capability */
	struct bt_pmu_caps icl = caps_of("icl");
	fx_ptrs(ev, 8, evp);
	CHECK(bt_plan_events(evp, 8, &icl, NULL, &scratch, &plan) == BT_OK);
	CHECK(bt_plan_validate(&plan, evp, 8, &icl, NULL, &scratch, &d) == BT_OK);
	bad = plan;
	bad.perf_metrics = false;
	CHECK(bt_plan_validate(&bad, evp, 8, &icl, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "fixed counter 3") != NULL);

	/* 6. fewer groups than the bound */
	bad = plan;
	bad.n_groups = 1;
	CHECK(bt_plan_validate(&bad, evp, 8, &icl, NULL, &scratch, &d) == BT_ERR_INVALID);
}

/* bt_pmu_read() takes each event's count from p->ev[i].group /
 * .counter / .code2, not from the groups: a plan whose event table
 * disagrees with its groups would return one event's count as another's.
 * The validator checks the two against each other. */
TEST(validator_checks_the_event_table_against_the_groups)
{
	struct bt_pmu_caps caps = caps_of("skl");
	static struct bt_event ev[6];
	static const struct bt_event *evp[6];
	for (int i = 0; i < 4; i++)
		ev[i] = gen(i, 0xF);
	ev[4] = ev[0];
	ev[4].name = "ALIAS_OF_EV0";
	ev[5] = fx_msr(fx_gp("OCR.A", 0xB7, 1, 0, 0xF), MSR_OFFCORE_RSP_0, 0x10001, 0xBB);
	fx_ptrs(ev, 6, evp);
	CHECK(bt_plan_events(evp, 6, &caps, NULL, &scratch, &plan) == BT_OK);
	struct bt_diag d;
	CHECK(bt_plan_validate(&plan, evp, 6, &caps, NULL, &scratch, &d) == BT_OK);
	static struct bt_plan bad;

	/* Two events' counters swapped in the table only. */
	bad = plan;
	uint8_t c = bad.ev[1].counter;
	bad.ev[1].counter = bad.ev[2].counter;
	bad.ev[2].counter = c;
	CHECK(bt_plan_validate(&bad, evp, 6, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "event table"), "%s", d.text);
	/* An alias pointing at another counter than its target's. */
	bad = plan;
	bad.ev[4].counter = (uint8_t)((plan.ev[0].counter + 1) % 4);
	CHECK(bt_plan_validate(&bad, evp, 6, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	/* The table says code2 where the group programs the primary code. */
	bad = plan;
	bad.ev[5].code2 = !plan.ev[5].code2;
	CHECK(bt_plan_validate(&bad, evp, 6, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	/* Fixed counters the PMU lacks. */
	bad = plan;
	bad.fixed_mask |= 1u << 3;
	CHECK(bt_plan_validate(&bad, evp, 6, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "fixed counters"), "%s", d.text);
}

/* One counter counts identical encodings once, TakenAlone or
 * not; the counted encoding is TakenAlone if any of its events is. The
 * bound is then a true lower bound and the plan reaches it. */
TEST(identical_taken_alone_events_are_counted_once)
{
	struct bt_pmu_caps caps = caps_of("skl");
	static struct bt_event ev[4];
	/* FRONTEND_RETIRED.DSB_MISS twice (TakenAlone, SKL JSON) and once more
	 * without the flag: one counter, one group, alone. */
	for (int i = 0; i < 3; i++)
		ev[i] = fx_msr(fx_gp("FRONTEND_RETIRED.DSB_MISS", 0xC6, 0x01, 0, 0xF),
			       MSR_PEBS_FRONTEND, 0x11, 0);
	ev[0].flags = ev[1].flags = BT_EVF_ALONE;
	CHECK_EQ_INT(plan_ok(ev, 3, &caps), 1);
	CHECK_EQ_INT(plan.lower_bound, 1);
	CHECK_EQ_INT(plan.bound.alone, 1);
	CHECK_EQ_INT(plan.ev[1].alias_of, 0);
	CHECK_EQ_INT(plan.ev[2].alias_of, 0);
	/* The plain copy first: still merged, and the group stays alone. */
	ev[0].flags = 0;
	ev[2].flags = BT_EVF_ALONE;
	ev[3] = gen(3, 0xF);
	CHECK_EQ_INT(plan_ok(ev, 4, &caps), 2);
	CHECK_EQ_INT(plan.lower_bound, 2);
	CHECK_EQ_INT(plan.groups[plan.ev[0].group].n_gp, 1);
	/* The validator: an alias's TakenAlone flag keeps its target alone. */
	static const struct bt_event *evp[4];
	fx_ptrs(ev, 4, evp);
	static struct bt_plan bad;
	bad = plan;
	int ga = plan.ev[0].group, gb = plan.ev[3].group;
	struct bt_plan_group *G = &bad.groups[ga];
	G->gp[1] = bad.groups[gb].gp[0];
	G->gp[1].counter = (uint8_t)(G->gp[0].counter == 0 ? 1 : 0);
	G->n_gp = 2;
	bad.groups[gb].n_gp = 0;
	bad.ev[3].group = (int16_t)ga;
	bad.ev[3].counter = G->gp[1].counter;
	struct bt_diag d;
	CHECK(bt_plan_validate(&bad, evp, 4, &caps, NULL, &scratch, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "TakenAlone"), "%s", d.text);
}

/* The planner keeps no state of its own: what it needs is in the caller's
 * scratch, which need not be initialized. Two scratches, one full of
 * garbage, used in turn on two event sets, give byte-identical plans. */
TEST(scratch_is_the_only_state)
{
	static struct bt_event ev[BT_PLAN_MAX_EVENTS], other[BT_PLAN_MAX_EVENTS];
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS], *otherp[BT_PLAN_MAX_EVENTS];
	static struct bt_plan_scratch dirty;
	static struct bt_plan a, b, c;
	struct bt_pmu_caps caps = caps_of("skl"), icl = caps_of("icl");
	int n = fx_set_for(bt_sim_preset("skl"), ev);
	int m = fx_set_for(bt_sim_preset("icl"), other);
	fx_ptrs(ev, n, evp);
	fx_ptrs(other, m, otherp);
	memset(&dirty, 0xA5, sizeof(dirty));
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &a) == BT_OK);
	CHECK(bt_plan_events(otherp, m, &icl, NULL, &scratch, &c) == BT_OK);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &dirty, &b) == BT_OK);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	struct bt_diag d;
	CHECK_MSG(bt_plan_validate(&a, evp, n, &caps, NULL, &dirty, &d) == BT_OK,
		  "%s", d.text);
	CHECK_EQ_INT(bt_plan_lower_bound(evp, n, &caps, NULL, &dirty, NULL), a.lower_bound);
	CHECK(bt_plan_events(evp, n, &caps, NULL, NULL, &b) == BT_ERR_INVALID);
}
