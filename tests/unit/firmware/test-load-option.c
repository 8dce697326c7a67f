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

TEST(only_active_boot_category_entries_are_bootable)
{
	const char *why;

	CHECK(bt_load_option_bootable(0x1, &why));
	CHECK(!bt_load_option_bootable(0x0, &why));
	CHECK_STR(why, "not active");
	/* OVMF registers UiApp as LOAD_OPTION_ACTIVE | LOAD_OPTION_CATEGORY_APP */
	CHECK(!bt_load_option_bootable(0x101, &why));
	CHECK_STR(why, "category APP, not BOOT");
	CHECK(!bt_load_option_bootable(0x201, &why));
	CHECK_STR(why, "a reserved category, not BOOT");
	/* LOAD_OPTION_HIDDEN (0x8) and FORCE_RECONNECT (0x2) do not matter */
	CHECK(bt_load_option_bootable(0xb, &why));
}

/* A HD() node (UEFI 10.3.5.1), written out byte by byte: partition number,
 * start, size, a GPT GUID signature, format 2 (GPT), signature type 2. */
static void hd_node(uint8_t *n, uint32_t part, uint8_t sig0)
{
	memset(n, 0, 42);
	n[0] = 4;
	n[1] = 1;
	n[2] = 42;
	n[4] = (uint8_t)part;
	n[8] = 0x00, n[9] = 0x08;   /* start 2048 */
	n[16] = 0x00, n[17] = 0x80; /* size 32768 */
	for (int i = 0; i < 16; i++)
		n[24 + i] = (uint8_t)(sig0 + i);
	n[40] = 2;
	n[41] = 2;
}

TEST(short_form_hd_path_expanded_against_its_partition)
{
	/* Short form: HD(1, sig 0x10..) / File(\a) / End */
	uint8_t sh[42 + 8 + 4], part[8 + 42 + 4], out[128];
	size_t len = 0;

	hd_node(sh, 1, 0x10);
	memcpy(sh + 42, (const uint8_t[]){ 0x04, 0x04, 0x08, 0x00, 0x5c, 0, 0x61, 0 }, 8);
	memcpy(sh + 50, (const uint8_t[]){ 0x7f, 0xff, 0x04, 0x00 }, 4);
	/* The partition's handle: PciRoot-like ACPI node (8 bytes) / HD() / End */
	memcpy(part, (const uint8_t[]){ 0x02, 0x01, 0x08, 0x00, 1, 2, 3, 4 }, 8);
	hd_node(part + 8, 1, 0x10);
	part[8 + 8] = 0x12;              /* another start: not compared, as in EDK2 */
	memcpy(part + 50, (const uint8_t[]){ 0x7f, 0xff, 0x04, 0x00 }, 4);

	CHECK(bt_dp_is_short_hd(sh, sizeof(sh)));
	CHECK(!bt_dp_is_short_hd(part, sizeof(part)));
	CHECK_EQ_U64(bt_dp_length(sh, sizeof(sh)), sizeof(sh));
	CHECK_EQ_INT(bt_dp_expand_hd(part, sizeof(part), sh, sizeof(sh), out, sizeof(out), &len),
		     BT_OK);
	/* the partition's nodes, then File(\a) and the end node */
	CHECK_EQ_U64(len, 8 + 42 + 8 + 4);
	CHECK(memcmp(out, part, 50) == 0);
	CHECK(memcmp(out + 50, sh + 42, 12) == 0);
	CHECK_EQ_U64(bt_dp_length(out, len), len);

	/* another partition number or signature: not this partition */
	hd_node(part + 8, 2, 0x10);
	CHECK_EQ_INT(bt_dp_expand_hd(part, sizeof(part), sh, sizeof(sh), out, sizeof(out), &len),
		     BT_ERR_NOT_FOUND);
	hd_node(part + 8, 1, 0x11);
	CHECK_EQ_INT(bt_dp_expand_hd(part, sizeof(part), sh, sizeof(sh), out, sizeof(out), &len),
		     BT_ERR_NOT_FOUND);
	/* the whole disk (no HD() node last) does not match either */
	static const uint8_t disk[] = { 0x02, 0x01, 0x08, 0x00, 1, 2, 3, 4, 0x7f, 0xff, 0x04, 0x00 };
	CHECK_EQ_INT(bt_dp_expand_hd(disk, sizeof(disk), sh, sizeof(sh), out, sizeof(out), &len),
		     BT_ERR_NOT_FOUND);
	/* too small an output buffer */
	hd_node(part + 8, 1, 0x10);
	CHECK_EQ_INT(bt_dp_expand_hd(part, sizeof(part), sh, sizeof(sh), out, 20, &len),
		     BT_ERR_INVALID);
}

/* BmGetNextLoadOptionDevicePath's forms, by the first node (UEFI 10.3). */
TEST(device_path_forms_as_the_boot_manager_expands_them)
{
	static const uint8_t end[] = { 0x7f, 0xff, 4, 0 };
	uint8_t p[64];

	/* PciRoot(0)/Pci(2,0): ACPI first, full */
	static const uint8_t pci[] = { 2, 1, 12, 0, 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0,
				       1, 1, 6, 0, 0, 2, 0x7f, 0xff, 4, 0 };
	CHECK_EQ_INT(bt_dp_form(pci, sizeof(pci)), BT_DP_FULL);
	/* \a alone: a short-form file path */
	CHECK_EQ_INT(bt_dp_form(option + 12, 12), BT_DP_SHORT_FILE);
	/* URI (messaging 24): only the boot manager */
	memcpy(p, (const uint8_t[]){ 3, 24, 5, 0, 'x' }, 5);
	memcpy(p + 5, end, 4);
	CHECK_EQ_INT(bt_dp_form(p, 9), BT_DP_FIRMWARE_ONLY);
	/* a USB class node after PciRoot: a USB short form */
	memcpy(p, pci, 12);
	memcpy(p + 12, (const uint8_t[]){ 3, 0x0f, 11, 0, 0xff, 0xff, 0xff, 0xff, 8, 6, 0x50 }, 11);
	memcpy(p + 23, end, 4);
	CHECK_EQ_INT(bt_dp_form(p, 27), BT_DP_FIRMWARE_ONLY);
	/* malformed: no end node */
	CHECK_EQ_INT(bt_dp_form(pci, 12), BT_DP_FIRMWARE_ONLY);
}

TEST(file_appended_to_a_device_path_and_prefix)
{
	static const uint8_t dev[] = { 1, 1, 6, 0, 0, 2, 0x7f, 0xff, 4, 0 };
	uint8_t out[64];
	size_t len = 0;

	CHECK_EQ_INT(bt_dp_append_file(dev, sizeof(dev), "\\a", out, sizeof(out), &len), BT_OK);
	/* Pci node, file node 4+6 bytes (L"\\a\0"), end */
	static const uint8_t want[] = { 1, 1, 6, 0, 0, 2, 4, 4, 10, 0, '\\', 0, 'a', 0, 0, 0,
					0x7f, 0xff, 4, 0 };
	CHECK_EQ_U64(len, sizeof(want));
	CHECK(memcmp(out, want, sizeof(want)) == 0);
	CHECK(bt_dp_has_prefix(out, len, dev, sizeof(dev)));
	CHECK(!bt_dp_has_prefix(dev, sizeof(dev), out, len));
	CHECK_EQ_INT(bt_dp_append_file(dev, sizeof(dev), "\\a", out, 12, &len), BT_ERR_INVALID);
}

/* BmBoot.c mBmAutoCreateBootOptionGuid 8108ac4e-9f11-4d59-850e-e21a522c59b2,
 * as an EFI_GUID lies in memory (the first three fields little-endian). */
TEST(auto_created_option_guid_recognised)
{
	static const uint8_t g[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f, 0x59, 0x4d,
				       0x85, 0x0e, 0xe2, 0x1a, 0x52, 0x2c, 0x59, 0xb2 };
	uint8_t h[17];

	CHECK(bt_load_option_auto_created(g, 16));
	memcpy(h, g, 16);
	h[16] = 0;
	CHECK(!bt_load_option_auto_created(h, 17)); /* exactly 16 bytes */
	h[0] ^= 1;
	CHECK(!bt_load_option_auto_created(h, 16));
}
