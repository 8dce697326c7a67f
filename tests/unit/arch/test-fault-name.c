/* SPDX-License-Identifier: MIT */
/* bt_fault_name: the names messages give a fault's vector. */
#include "arch/arch.h"
#include "tests/unit/lib/test.h"

TEST(guarded_vectors_have_their_mnemonics)
{
	CHECK(strcmp(bt_fault_name(BT_VEC_UD), "#UD") == 0);
	CHECK(strcmp(bt_fault_name(BT_VEC_GP), "#GP") == 0);
}

TEST(every_other_vector_is_its_number)
{
	for (unsigned v = 0; v < 256; v++) {
		char want[8];

		if (v == BT_VEC_UD || v == BT_VEC_GP)
			continue;
		snprintf(want, sizeof(want), "#%u", v);
		CHECK_MSG(strcmp(bt_fault_name((uint8_t)v), want) == 0, "vector %u: \"%s\"", v,
			  bt_fault_name((uint8_t)v));
	}
}

TEST(names_are_constants_not_one_shared_buffer)
{
	/* Two calls do not overwrite each other (the PMU code formats fault
	 * names on other CPUs too). */
	const char *a = bt_fault_name(1), *b = bt_fault_name(200);

	CHECK(strcmp(a, "#1") == 0);
	CHECK(strcmp(b, "#200") == 0);
	CHECK(a != b);
}
