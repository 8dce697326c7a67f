/* SPDX-License-Identifier: MIT */
#include "base/near-name.h"
#include "tests/unit/lib/test.h"

static const char *nearest(const char *typed, const char *const *names, int n)
{
	struct bt_near_name nn;

	bt_near_name_init(&nn, typed);
	for (int i = 0; i < n; i++)
		bt_near_name_offer(&nn, names[i]);
	return nn.best;
}

static const char *const events[] = {
	"CYCLE_ACTIVITY.STALLS_L2_MISS", "CYCLE_ACTIVITY.STALLS_L1D_MISS",
	"CYCLE_ACTIVITY.STALLS_TOTAL", "UOPS_ISSUED.ANY",
};

TEST(a_dropped_letter_finds_the_event)
{
	const char *b = nearest("CYCLE_ACTIVITY.STALS_L2_MISS", events, 4);
	CHECK(b && strcmp(b, "CYCLE_ACTIVITY.STALLS_L2_MISS") == 0);
}

TEST(a_swapped_pair_costs_one_edit)
{
	struct bt_near_name nn;
	char buf[96];

	bt_near_name_init(&nn, "UOPS_ISUSED.ANY");
	for (int i = 0; i < 4; i++)
		bt_near_name_offer(&nn, events[i]);
	CHECK(nn.best && strcmp(nn.best, "UOPS_ISSUED.ANY") == 0);
	CHECK_EQ_INT(nn.distance, 1);
	bt_near_name_hint(&nn, buf, sizeof(buf));
	CHECK_MSG(strcmp(buf, "; did you mean 'UOPS_ISSUED.ANY'?") == 0, "got '%s'", buf);
}

TEST(a_wrong_case_is_nearest_and_said_so)
{
	static const char *const nodes[] = { "Backend_Bound", "Frontend_Bound", "Memory_Bound" };
	struct bt_near_name nn;
	char buf[96];

	bt_near_name_init(&nn, "memory_bound");
	for (int i = 0; i < 3; i++)
		bt_near_name_offer(&nn, nodes[i]);
	CHECK(nn.best && strcmp(nn.best, "Memory_Bound") == 0);
	CHECK_EQ_INT(nn.distance, 0);
	bt_near_name_hint(&nn, buf, sizeof(buf));
	CHECK(strstr(buf, "case-sensitive") != NULL);
}

TEST(an_unrelated_name_finds_nothing)
{
	char buf[16] = "x";
	struct bt_near_name nn;

	bt_near_name_init(&nn, "NoSuchNode");
	for (int i = 0; i < 4; i++)
		bt_near_name_offer(&nn, events[i]);
	CHECK(nn.best == NULL);
	bt_near_name_hint(&nn, buf, sizeof(buf));
	CHECK(buf[0] == '\0');
	/* A short name tolerates one edit, not two. */
	static const char *const kernels[] = { "empty" };
	CHECK(nearest("emtpy", kernels, 1) != NULL);
	CHECK(nearest("emx", kernels, 1) == NULL);
}

TEST(an_abbreviation_finds_the_full_name_after_closer_ones)
{
	static const char *const counts[] = { "instructions", "branches", "indirect" };
	const char *b = nearest("instrs", counts, 3);
	CHECK(b && strcmp(b, "instructions") == 0);
	/* Not an abbreviation: letters out of order, or another first letter. */
	CHECK(nearest("snirt", counts, 3) == NULL);
	static const char *const two[] = { "instructions", "instr" };
	b = nearest("instrs", two, 2);
	CHECK(b && strcmp(b, "instr") == 0);
}
