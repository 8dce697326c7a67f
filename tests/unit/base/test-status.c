/* SPDX-License-Identifier: MIT */
#include "base/status.h"
#include "tests/unit/lib/test.h"

TEST(every_status_has_a_distinct_phrase)
{
	for (int a = BT_OK; a <= BT_ERR_INTERNAL; a++) {
		CHECK(strcmp(bt_status_str((bt_status)a), "unknown status") != 0);
		for (int b = a + 1; b <= BT_ERR_INTERNAL; b++)
			CHECK(strcmp(bt_status_str((bt_status)a), bt_status_str((bt_status)b)) != 0);
	}
}
