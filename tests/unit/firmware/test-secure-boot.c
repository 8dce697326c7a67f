/* SPDX-License-Identifier: MIT */
/* The Secure Boot variables (UEFI 2.10 3.3): one byte, 0 or 1; absent ones
 * stay absent; the verdict follows SecureBoot, SetupMode and AuditMode. */
#include <string.h>

#include "firmware/secure-boot.h"
#include "tests/unit/lib/test.h"

TEST(decodes_one_byte_of_zero_or_one)
{
	const uint8_t zero = 0, one = 1, two = 2, pair[2] = { 1, 0 };

	CHECK_EQ_INT(bt_sb_decode(&zero, 1), 0);
	CHECK_EQ_INT(bt_sb_decode(&one, 1), 1);
	CHECK_EQ_INT(bt_sb_decode(&two, 1), BT_SB_MALFORMED);
	CHECK_EQ_INT(bt_sb_decode(pair, 2), BT_SB_MALFORMED);
	CHECK_EQ_INT(bt_sb_decode(&one, 0), BT_SB_MALFORMED);
	CHECK_EQ_INT(bt_sb_decode(NULL, 1), BT_SB_MALFORMED);
}

TEST(names_the_state_and_every_variable)
{
	struct bt_secure_boot s = { .present = true, .value = { 1, 0, BT_SB_ABSENT, BT_SB_ABSENT } };
	char t[200];

	CHECK(bt_sb_enforced(&s));
	bt_sb_text(&s, t, sizeof(t));
	CHECK_STR(t, "enforced (SecureBoot=1 SetupMode=0 AuditMode absent DeployedMode absent)");

	s.value[BT_SB_SECURE_BOOT] = 0;
	s.value[BT_SB_SETUP_MODE] = 1;
	CHECK(!bt_sb_enforced(&s));
	bt_sb_text(&s, t, sizeof(t));
	CHECK_STR(t, "setup mode (no platform key: off) (SecureBoot=0 SetupMode=1 "
		     "AuditMode absent DeployedMode absent)");

	/* Audit mode: SetupMode is 1 too (UEFI 2.10 32.3, figure of the
	 * mode transitions), images are verified but started anyway. */
	s.value[BT_SB_AUDIT_MODE] = 1;
	s.value[BT_SB_DEPLOYED_MODE] = 0;
	bt_sb_text(&s, t, sizeof(t));
	CHECK_STR(t, "audit mode (images not refused) (SecureBoot=0 SetupMode=1 AuditMode=1 "
		     "DeployedMode=0)");

	struct bt_secure_boot m = { .present = true, .value = { BT_SB_MALFORMED, 0, 0, 0 } };
	CHECK(!bt_sb_enforced(&m));
	bt_sb_text(&m, t, sizeof(t));
	CHECK_STR(t, "off (SecureBoot malformed SetupMode=0 AuditMode=0 DeployedMode=0)");
}

TEST(not_read_says_why_and_short_buffers_stay_terminated)
{
	struct bt_secure_boot s = { .present = false, .reason = "not a UEFI platform" };
	struct bt_secure_boot on = { .present = true, .value = { 1, 0, 0, 1 } };
	char t[200], small[12];

	CHECK(!bt_sb_enforced(&s));
	bt_sb_text(&s, t, sizeof(t));
	CHECK_STR(t, "not read: not a UEFI platform");
	bt_sb_text(&on, small, sizeof(small));
	CHECK_EQ_U64(strlen(small), sizeof(small) - 1);
	CHECK(strncmp(small, "enforced (S", sizeof(small) - 1) == 0);
}
