/* SPDX-License-Identifier: MIT */
/* The boot state variable's bytes against the table of app/README.md. */
#include <string.h>

#include "app/boot-state.h"
#include "tests/unit/lib/test.h"

/* Written from the documented table by hand, field by field (little-endian). */
static const uint8_t golden[BT_BOOT_STATE_SIZE] = {
	'B', 'A', 'S', 'T',     /* 0  magic */
	0x02, 0x00,             /* 4  version 2 */
	0x48, 0x00,             /* 6  length 72 */
	0x09, 0x00, 0x05, 0x00, /* 8  flags: in progress, hand over next; BootNext entry 5 */
	0x05, 0x00, 0x00, 0x00, /* 12 boots 5 */
	0x03, 0x00, 0x00, 0x00, /* 16 runs 3 */
	0x02, 0x00, 0x00, 0x00, /* 20 completed 2 */
	0x01, 0x00, 0x00, 0x00, /* 24 hung 1 */
	0x34, 0x12, 0x00, 0x00, /* 28 last sequence 0x1234 */
	0x04, 0x00, 0x00, 0x00, /* 32 last status hung */
	0x00, 0x01, 0x00, 0x00, /* 36 boots since run 256 */
	0x01, 0x00, 0x00, 0x00, /* 40 resets in a row 1 */
	0x02, 0x00, 0x00, 0x00, /* 44 BootNext failures 2 */
	0x07, 0x00, 0x00, 0x00, 0x2a, 0x00, 0x00, 0x00, /* 48 reset count: boot 42, call 7 */
	0x03, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x00, /* 56 BootNext count: boot 41, call 3 */
	0xef, 0xbe, 0xad, 0xde, 0x78, 0x56, 0x34, 0x12, /* 64 run tag 0x12345678deadbeef */
};

static const struct bt_boot_state golden_state = {
	.flags = BT_BOOT_STATE_IN_PROGRESS | BT_BOOT_STATE_HAND_OVER_NEXT | 5u << 16, .boots = 5,
	.runs = 3, .completed = 2, .hung = 1, .last_seq = 0x1234,
	.last_status = BT_BOOT_STATUS_HUNG, .boots_since_run = 256, .resets = 1,
	.bootnext_failures = 2, .reset_count = 42ull << 32 | 7, .bootnext_count = 41ull << 32 | 3,
	.run_tag = 0x12345678deadbeefull,
};

/* Version 1 (40 bytes), as baretop before version 2 wrote it: its fields
 * read as version 2's first ten, the 12-bit boot number of its BootNext
 * attempt (bits 4-15) dropped, the rest 0. */
static const uint8_t golden_v1[BT_BOOT_STATE_V1_SIZE] = {
	'B', 'A', 'S', 'T', 0x01, 0x00, 0x28, 0x00,
	0x23, 0x01, 0x05, 0x00, /* 8  flags: in progress, BootNext tried in boot 0x12, entry 5 */
	0x05, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x34, 0x12, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x00, 0x00,
};

TEST(reads_version_1)
{
	struct bt_boot_state s;
	struct bt_diag d;
	unsigned v = 0;

	CHECK_EQ_INT(bt_boot_state_decode_v(golden_v1, sizeof(golden_v1), &s, &v, &d), BT_OK);
	CHECK_EQ_U64(v, 1);
	CHECK_EQ_U64(s.flags, BT_BOOT_STATE_IN_PROGRESS | BT_BOOT_STATE_BOOTNEXT_TRIED | 5u << 16);
	CHECK(s.boots == 5 && s.runs == 3 && s.completed == 2 && s.hung == 1);
	CHECK(s.last_seq == 0x1234 && s.last_status == BT_BOOT_STATUS_HUNG);
	CHECK_EQ_U64(s.boots_since_run, 256);
	CHECK(s.resets == 0 && s.reset_count == 0 && s.bootnext_count == 0 && s.run_tag == 0);
	/* written back, it is version 2 */
	uint8_t out[BT_BOOT_STATE_SIZE];
	bt_boot_state_encode(&s, out);
	CHECK(out[4] == 2 && out[6] == BT_BOOT_STATE_SIZE);
	/* a version 1 of 72 bytes, or a version 2 of 40, is neither */
	uint8_t b[BT_BOOT_STATE_SIZE];
	memcpy(b, golden, sizeof(b));
	b[4] = 1;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(b), &s, &d), BT_ERR_INVALID);
	CHECK_EQ_INT(bt_boot_state_decode(golden, BT_BOOT_STATE_V1_SIZE, &s, &d), BT_ERR_INVALID);
}

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
	b[4] = 3;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "version 3") != NULL);
	b[4] = 2;
	b[6] = 73;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_ERR_INVALID);
	b[6] = 72;
	CHECK_EQ_INT(bt_boot_state_decode(b, sizeof(golden), &s, &d), BT_OK);
}
