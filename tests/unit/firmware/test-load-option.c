/* SPDX-License-Identifier: MIT */
/* EFI_LOAD_OPTION and BootOrder (UEFI spec 2.10, 3.1.3), built by hand. */
#include <string.h>

#include "firmware/load-option.h"
#include "tests/unit/lib/test.h"

/* Attributes ACTIVE, description "OS", a file-path node "\a" (type 4,
 * subtype 4, 4 + 4 bytes) and the end node (7F FF 04 00), optional data
 * "xyz". */
static const uint8_t option[] = {
	0x01, 0x00, 0x00, 0x00,             /* Attributes */
	0x0c, 0x00,                         /* FilePathListLength 12 */
	'O', 0, 'S', 0, 0, 0,               /* Description L"OS" */
	0x04, 0x04, 0x08, 0x00, 0x5c, 0, 0x61, 0, /* MEDIA_FILEPATH_DP L"\\a" */
	0x7f, 0xff, 0x04, 0x00,             /* end of the device path */
	'x', 'y', 'z',
};

TEST(parses_a_load_option)
{
	struct bt_load_option lo;
	struct bt_diag d;

	CHECK_EQ_INT(bt_load_option_parse(option, sizeof(option), &lo, &d), BT_OK);
	CHECK_EQ_U64(lo.attributes, BT_LOAD_OPTION_ACTIVE);
	CHECK_STR(lo.description, "OS");
	CHECK_EQ_U64(lo.file_path_offset, 12);
	CHECK_EQ_U64(lo.file_path_length, 12);
	CHECK_EQ_U64(lo.optional_offset, 24);
	CHECK_EQ_U64(lo.optional_length, 3);
	CHECK(memcmp(option + lo.optional_offset, "xyz", 3) == 0);
}

TEST(refuses_malformed_load_options)
{
	uint8_t b[sizeof(option)];
	struct bt_load_option lo;
	struct bt_diag d;

	CHECK_EQ_INT(bt_load_option_parse(option, 10, &lo, &d), BT_ERR_INVALID); /* no NUL */
	memcpy(b, option, sizeof(b));
	b[4] = 40; /* the list runs past the end */
	CHECK_EQ_INT(bt_load_option_parse(b, sizeof(b), &lo, &d), BT_ERR_INVALID);
	memcpy(b, option, sizeof(b));
	b[20] = 0x01; /* the end node is not an end node: no end inside the list */
	CHECK_EQ_INT(bt_load_option_parse(b, sizeof(b), &lo, &d), BT_ERR_INVALID);
	memcpy(b, option, sizeof(b));
	b[14] = 2; /* a node shorter than its own header */
	CHECK_EQ_INT(bt_load_option_parse(b, sizeof(b), &lo, &d), BT_ERR_INVALID);
}

TEST(boot_order_after_current)
{
	const uint16_t order[] = { 3, 0, 7 };

	CHECK_EQ_U64(bt_boot_order_after(order, 3, 3), 1);
	CHECK_EQ_U64(bt_boot_order_after(order, 3, 7), 3);
	CHECK_EQ_U64(bt_boot_order_after(order, 3, 9), 0); /* a BootNext entry not in the order */
}
