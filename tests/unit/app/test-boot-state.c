/* SPDX-License-Identifier: MIT */
/* The boot state variable's bytes against the table of app/README.md. */
#include <string.h>

#include "app/boot-state.h"
#include "tests/unit/lib/test.h"

/* Written from the documented table by hand, field by field (little-endian). */
static const uint8_t golden[BT_BOOT_STATE_SIZE] = {
	'B', 'A', 'S', 'T',     /* 0  magic */
	0x01, 0x00,             /* 4  version 1 */
	0x28, 0x00,             /* 6  length 40 */
	0x01, 0x00, 0x00, 0x00, /* 8  flags: in progress */
	0x05, 0x00, 0x00, 0x00, /* 12 boots 5 */
	0x03, 0x00, 0x00, 0x00, /* 16 runs 3 */
	0x02, 0x00, 0x00, 0x00, /* 20 completed 2 */
	0x01, 0x00, 0x00, 0x00, /* 24 hung 1 */
	0x34, 0x12, 0x00, 0x00, /* 28 last sequence 0x1234 */
	0x04, 0x00, 0x00, 0x00, /* 32 last status hung */
	0x00, 0x01, 0x00, 0x00, /* 36 boots since run 256 */
};

static const struct bt_boot_state golden_state = {
	.flags = BT_BOOT_STATE_IN_PROGRESS, .boots = 5, .runs = 3, .completed = 2, .hung = 1,
	.last_seq = 0x1234, .last_status = BT_BOOT_STATUS_HUNG, .boots_since_run = 256,
};

TEST(encodes_the_documented_layout)
{
	uint8_t buf[BT_BOOT_STATE_SIZE];

	bt_boot_state_encode(&golden_state, buf);
	CHECK(memcmp(buf, golden, sizeof(buf)) == 0);
}

TEST(decodes_the_documented_layout)
{
	struct bt_boot_state s;
	struct bt_diag d;

	CHECK_EQ_INT(bt_boot_state_decode(golden, sizeof(golden), &s, &d), BT_OK);
	CHECK(memcmp(&s, &golden_state, sizeof(s)) == 0);
	CHECK_STR(bt_boot_status_name(s.last_status), "hung");
	CHECK_STR(bt_boot_status_name(99), "unknown");
}

TEST(efivarfs_file_has_attributes_first)
{
	uint8_t file[4 + BT_BOOT_STATE_SIZE] = { 0x07, 0, 0, 0 };
	struct bt_boot_state s;
	struct bt_diag d;
	uint32_t attr = 0;

	memcpy(file + 4, golden, sizeof(golden));
	CHECK_EQ_INT(bt_boot_state_decode_efivarfs(file, sizeof(file), &attr, &s, &d), BT_OK);
	CHECK_EQ_U64(attr, 7);
	CHECK_EQ_U64(s.last_seq, 0x1234);
	CHECK_EQ_INT(bt_boot_state_decode_efivarfs(file, 3, &attr, &s, &d), BT_ERR_INVALID);
}

TEST(refuses_what_is_not_the_layout)
{
	uint8_t b[BT_BOOT_STATE_SIZE + 1];
	struct bt_boot_state s;
	struct bt_diag d;

	memcpy(b, golden, sizeof(golden));
	b[sizeof(golden)] = 0;
	CHECK_EQ_INT(bt_boot_state_decode(b, 7, &s, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "shorter") != NULL);
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden) - 1, &s, &d), BT_ERR_INVALID);
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden) + 1, &s, &d), BT_ERR_INVALID);
	b[0] = 'X';
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "magic") != NULL);
	b[0] = 'B';
	b[4] = 2;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "version 2") != NULL);
	b[4] = 1;
	b[6] = 41;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_ERR_INVALID);
	b[6] = 40;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_OK);
}
