/* SPDX-License-Identifier: MIT */
/*
 * The counter health check's decision (pmu/counter-health.h) on counts
 * written by hand: which counters agree, which are named, which a plan may
 * still use. The expected verdicts follow from the rule (the largest set
 * agreeing within 0.1 %, ties to the declared count), worked out here.
 */
#include "pmu/counter-health.h"
#include "tests/unit/lib/test.h"

static struct bt_counter_health four(uint64_t a, uint64_t b, uint64_t c, uint64_t d,
				     bool fixed, uint64_t f0)
{
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	h.gp_mask = 0xF;
	h.gp[0] = a;
	h.gp[1] = b;
	h.gp[2] = c;
	h.gp[3] = d;
	h.has_fixed0 = fixed;
	h.fixed0 = f0;
	h.declared = 2000002;
	bt_counter_health_judge(&h);
	return h;
}

TEST(all_agree_pass)
{
	struct bt_counter_health h = four(2000002, 2000002, 2000002, 2000002, true, 2000002);
	CHECK_EQ_INT(h.state, BT_HEALTH_RAN);
	CHECK_EQ_U64(h.gp_fail, 0);
	CHECK(!h.fixed0_fail);
	CHECK_EQ_U64(h.consensus, 2000002);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xF), 0xF);
}

TEST(within_tolerance_pass)
{
	/* 0.1 % of 2000002 is 2000: +1999 and -2000 agree; +2200 is beyond 0.1 %
	 * of either count. */
	struct bt_counter_health h = four(2000002, 2002001, 1998002, 2000002, true, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0);
	h = four(2000002, 2002202, 2000002, 2000002, true, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0x2);
}

TEST(stuck_counter_named_and_left_out)
{
	struct bt_counter_health h = four(2000002, 0, 2000002, 2000002, true, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0x2);
	CHECK(!h.fixed0_fail);
	CHECK(strstr(h.gp_why[1], "stuck or dead") != NULL);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xF), 0xD);
	char list[200];
	bt_counter_health_failed_list(&h, list, sizeof(list));
	CHECK(strncmp(list, "general counter 1 (counted 0 of 2000002", 39) == 0);
}

TEST(double_counting_named)
{
	struct bt_counter_health h = four(2000002, 2000002, 2000002, 4000004, true, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0x8);
	CHECK(strstr(h.gp_why[3], "double-counting") != NULL);
}

TEST(dead_fixed0_named_not_a_general_counter)
{
	struct bt_counter_health h = four(2000002, 2000002, 2000002, 2000002, true, 0);
	CHECK_EQ_U64(h.gp_fail, 0);
	CHECK(h.fixed0_fail);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xF), 0xF);
}

TEST(two_against_two_goes_to_the_declared_count)
{
	/* gp0, gp1 = fixed 0 = declared; gp2, gp3 double: 3 against 2. */
	struct bt_counter_health h = four(2000002, 2000002, 4000004, 4000004, true, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0xC);
	/* Without fixed 0, 2 against 2: the declared count decides. */
	h = four(4000004, 4000004, 2000002, 2000002, false, 0);
	CHECK_EQ_U64(h.consensus, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0x3);
}

TEST(nothing_counted_fails_every_counter)
{
	struct bt_counter_health h = four(0, 0, 0, 0, true, 0);
	CHECK_EQ_U64(h.gp_fail, 0xF);
	CHECK(h.fixed0_fail);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xF), 0);
}

TEST(no_two_agree_and_none_declared_fails_all)
{
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	h.gp_mask = 0x3;
	h.gp[0] = 100;
	h.gp[1] = 300;
	bt_counter_health_judge(&h);
	CHECK_EQ_U64(h.gp_fail, 0x3);
	CHECK(h.why[0] != '\0');
	/* One of them matches the declared count: it is the right one. */
	h.declared = 300;
	bt_counter_health_judge(&h);
	CHECK_EQ_U64(h.gp_fail, 0x1);
}

TEST(gaps_in_the_mask_are_kept)
{
	/* A v6 bitmap with counter 1 absent: counter 2 stuck. */
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	h.gp_mask = 0xD;
	h.gp[0] = h.gp[3] = 5000;
	h.gp[1] = 77; /* not enumerated: ignored */
	h.gp[2] = 0;
	bt_counter_health_judge(&h);
	CHECK_EQ_U64(h.gp_fail, 0x4);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xD), 0x9);
}

TEST(not_run_leaves_the_mask)
{
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xFF), 0xFF);
	CHECK_EQ_U64(bt_counter_health_usable_mask(NULL, 0x3F), 0x3F);
}

TEST(all_doubled_without_a_fixed_counter_fail_against_the_declared_count)
{
	/* AMD: no fixed counter; every general counter doubles 0xC0. They
	 * agree with each other, not with the loop's 2000002. */
	struct bt_counter_health h = four(4000004, 4000004, 4000004, 4000004, false, 0);
	CHECK_EQ_U64(h.gp_fail, 0xF);
	CHECK_EQ_U64(h.consensus, 0);
	CHECK(strstr(h.gp_why[0], "double-counting") != NULL);
	CHECK_EQ_U64(bt_counter_health_usable_mask(&h, 0xF), 0);
	/* Intel: fixed counter 0 alone counts the declared instructions; it is
	 * the consensus, the four general counters fail. */
	h = four(4000004, 4000004, 4000004, 4000004, true, 2000002);
	CHECK_EQ_U64(h.consensus, 2000002);
	CHECK_EQ_U64(h.gp_fail, 0xF);
	CHECK(!h.fixed0_fail);
	/* 4 % off the declared count (within 5 %) is still the consensus. */
	h = four(2080000, 2080000, 2080000, 2080000, true, 2080000);
	CHECK_EQ_U64(h.gp_fail, 0);
}

TEST(fixed2_against_the_tsc_and_fixed3_slots_per_cycle)
{
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	h.gp_mask = 0x3;
	h.gp[0] = h.gp[1] = 1000;
	h.cycles = 10000;
	h.has_fixed2 = true;
	h.tsc = 10000;
	h.fixed2 = 10199;             /* +1.99 %: within 2 % */
	h.has_fixed3 = true;
	h.fixed3 = 40000;             /* 4 slots per cycle */
	bt_counter_health_judge(&h);
	CHECK(!h.fixed2_fail && !h.fixed3_fail);
	h.fixed2 = 10201;             /* +2.01 % */
	h.fixed3 = 0;                 /* dead */
	bt_counter_health_judge(&h);
	CHECK(h.fixed2_fail);
	CHECK(h.fixed3_fail);
	CHECK(strstr(h.fixed3_why, "stuck or dead") != NULL);
	h.fixed2 = 10000;
	h.fixed3 = 90000;             /* 9 per cycle: wider than any core */
	bt_counter_health_judge(&h);
	CHECK(!h.fixed2_fail);
	CHECK(h.fixed3_fail);
	h.fixed3 = 9000;              /* 0.9 per cycle */
	bt_counter_health_judge(&h);
	CHECK(h.fixed3_fail);
	CHECK(bt_counter_health_fixed_failed(&h));
	char list[300];
	bt_counter_health_failed_list(&h, list, sizeof(list));
	CHECK(strncmp(list, "fixed counter 3 (9000 slots over 10000 cycles", 45) == 0);
}

TEST(fixed1_against_its_cycles_twin)
{
	struct bt_counter_health h;
	memset(&h, 0, sizeof(h));
	h.gp_mask = 0x3;
	h.gp[0] = h.gp[1] = 1000;
	h.has_fixed1 = true;
	h.cycles_gp = 1;
	h.cycles = 50000;
	h.fixed1 = 50499; /* +0.998 %: within 1 % */
	bt_counter_health_judge(&h);
	CHECK(!h.fixed1_fail);
	CHECK(!bt_counter_health_fixed_failed(&h));
	h.fixed1 = 0;     /* dead */
	bt_counter_health_judge(&h);
	CHECK(h.fixed1_fail);
	CHECK(bt_counter_health_fixed_failed(&h));
	CHECK(strstr(h.fixed1_why, "stuck or dead") != NULL);
	/* Its twin stuck on instructions: fixed counter 1 cannot be judged
	 * against it and fails with the reason. */
	h.fixed1 = 50000;
	h.gp[1] = 0;
	bt_counter_health_judge(&h);
	CHECK(h.fixed1_fail);
	CHECK(strstr(h.fixed1_why, "twin") != NULL);
}
