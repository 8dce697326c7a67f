/* SPDX-License-Identifier: MIT */
/* SMBIOS entry points and structure tables built by hand, byte by byte from
 * DSP0134 3.x's layouts (not from the parser), including hostile lengths. */
#include <stdlib.h>

#include "firmware/run-id.h"
#include "firmware/smbios.h"
#include "tests/unit/lib/test.h"

struct tab {
	uint8_t b[4096];
	size_t n;
};

static void put(struct tab *t, const void *p, size_t n)
{
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

/* A structure: formatted area f (type, length, handle already in it), then
 * the strings (NULL-terminated list) and the double NUL. */
static void structure(struct tab *t, const uint8_t *f, size_t flen, const char *const *strs)
{
	put(t, f, flen);
	if (!strs || !strs[0]) {
		put(t, "\0\0", 2);
		return;
	}
	for (; *strs; strs++)
		put(t, *strs, strlen(*strs) + 1);
	put(t, "", 1);
}

static void w16(uint8_t *p, unsigned v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void w32(uint8_t *p, uint32_t v) { w16(p, v & 0xFFFF); w16(p + 2, v >> 16); }

static void fix_checksum(uint8_t *p, size_t n, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)(0x100 - s);
}

/* A machine like a 2-socket server: types 0, 1, 2, two 4s, three 17s
 * (one empty, one with the extended size), 127. */
static void server(struct tab *t)
{
	uint8_t f0[0x1A] = { 0, 0x1A, 0, 0, 1, 2, 0, 0xF0, 3 };
	static const char *const s0[] = { "Vendor Inc.", "2.19.1  ", "03/14/2025", NULL };
	uint8_t f1[0x1B] = { 1, 0x1B, 1, 0, 1, 2, 3, 4 };
	static const char *const s1[] = { "Maker", "Box 1", "v1", "SER-1", "SKU9", "Fam", NULL };
	uint8_t f2[0x0F] = { 2, 0x0F, 2, 0, 1, 2, 3, 4 };
	static const char *const s2[] = { "BoardCo", "BRD", "B1", "BSER", NULL };
	uint8_t f4[0x30] = { 4, 0x30, 4, 0, 1, 3, 0xB3, 2 };
	static const char *const s4a[] = { "CPU0", "Intel(R) Corporation", NULL };
	static const char *const s4b[] = { "CPU1", "Intel(R) Corporation", NULL };
	uint8_t f17[0x28] = { 17, 0x28, 0x11, 0 };
	uint8_t f127[4] = { 127, 4, 0xFF, 0xFF };

	t->n = 0;
	structure(t, f0, sizeof(f0), s0);
	/* UUID 00112233-4455-6677-8899-aabbccddeeff stored per 2.6+: the
	 * first three fields little-endian. */
	static const uint8_t uuid[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
					  0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	memcpy(f1 + 8, uuid, 16);
	f1[0x19] = 5;
	f1[0x1A] = 6;
	structure(t, f1, sizeof(f1), s1);
	structure(t, f2, sizeof(f2), s2);
	/* Type 4: version string 3 at 10h (absent: only 2 strings given
	 * here, so string 3 does not exist), speeds, 0xFF core count with
	 * Core Count 2 = 300 (3.0). */
	f4[0x10] = 0;
	w16(f4 + 0x14, 4000);
	w16(f4 + 0x16, 2100);
	f4[0x23] = 0xFF;
	f4[0x25] = 0xFF;
	w16(f4 + 0x2A, 300);
	w16(f4 + 0x2E, 600);
	structure(t, f4, sizeof(f4), s4a);
	w16(f4 + 0x16, 0);
	f4[0x23] = 28;
	f4[0x25] = 56;
	structure(t, f4, sizeof(f4), s4b);
	/* DIMM A: 16 GiB, speed 3200, configured 2933. */
	w16(f17 + 0x0C, 16384);
	w16(f17 + 0x15, 3200);
	w16(f17 + 0x20, 2933);
	structure(t, f17, sizeof(f17), NULL);
	/* empty slot */
	w16(f17 + 0x0C, 0);
	structure(t, f17, sizeof(f17), NULL);
	/* DIMM C: 64 GiB through Extended Size (7FFFh then 1Ch). */
	w16(f17 + 0x0C, 0x7FFF);
	w32(f17 + 0x1C, 65536);
	w16(f17 + 0x20, 2666);
	structure(t, f17, sizeof(f17), NULL);
	structure(t, f127, sizeof(f127), NULL);
}

TEST(parses_every_type_of_a_server_table)
{
	struct tab t;
	struct bt_smbios s;

	server(&t);
	bt_smbios_parse_table(t.b, t.n, 3, 2, &s);
	CHECK(s.present);
	CHECK_EQ_INT(s.n_structures, 9);
	CHECK_STR(s.bios.vendor, "Vendor Inc.");
	CHECK_STR(s.bios.version, "2.19.1");   /* trailing spaces dropped */
	CHECK_STR(s.bios.release_date, "03/14/2025");
	CHECK_STR(s.system.manufacturer, "Maker");
	CHECK_STR(s.system.product, "Box 1");
	CHECK_STR(s.system.version, "v1");
	CHECK_STR(s.system.serial, "SER-1");
	CHECK_STR(s.system.uuid, "00112233-4455-6677-8899-aabbccddeeff");
	CHECK_STR(s.system.sku, "SKU9");
	CHECK_STR(s.system.family, "Fam");
	CHECK_STR(s.board.manufacturer, "BoardCo");
	CHECK_STR(s.board.serial, "BSER");
	CHECK_EQ_INT(s.n_processors, 2);
	CHECK_STR(s.processor[0].socket, "CPU0");
	CHECK_STR(s.processor[0].manufacturer, "Intel(R) Corporation");
	CHECK_STR(s.processor[0].version, "");
	CHECK_EQ_INT(s.processor[0].max_speed_mhz, 4000);
	CHECK_EQ_INT(s.processor[0].current_speed_mhz, 2100);
	CHECK_EQ_INT(s.processor[0].core_count, 300);
	CHECK_EQ_INT(s.processor[0].thread_count, 600);
	CHECK_STR(s.processor[1].socket, "CPU1");
	CHECK_EQ_INT(s.processor[1].core_count, 28);
	CHECK_EQ_INT(s.processor[1].thread_count, 56);
	CHECK_EQ_INT(s.memory.dimm_slots, 3);
	CHECK_EQ_INT(s.memory.dimms_populated, 2);
	CHECK_EQ_U64(s.memory.total_mib, 16384 + 65536);
	CHECK_EQ_INT(s.memory.speed_mts, 2933);
}

TEST(uuid_byte_order_depends_on_the_version)
{
	static const uint8_t u[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
				       0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff };
	uint8_t zero[16] = { 0 }, ones[16];
	char out[37];

	bt_smbios_uuid_str(u, 2, 6, out);
	CHECK_STR(out, "00112233-4455-6677-8899-aabbccddeeff");
	bt_smbios_uuid_str(u, 2, 5, out);   /* before 2.6: as stored */
	CHECK_STR(out, "33221100-5544-7766-8899-aabbccddeeff");
	bt_smbios_uuid_str(zero, 3, 0, out);
	CHECK_STR(out, "");
	memset(ones, 0xFF, sizeof(ones));
	bt_smbios_uuid_str(ones, 3, 0, out);
	CHECK_STR(out, "");
}

TEST(kib_granularity_and_unknown_sizes)
{
	struct tab t = { .n = 0 };
	struct bt_smbios s;
	uint8_t f17[0x22] = { 17, 0x22, 0, 0 };

	w16(f17 + 0x0C, 0x8000 | 2048);   /* 2048 KiB = 2 MiB */
	structure(&t, f17, sizeof(f17), NULL);
	w16(f17 + 0x0C, 0xFFFF);          /* installed, size unknown */
	structure(&t, f17, sizeof(f17), NULL);
	bt_smbios_parse_table(t.b, t.n, 3, 0, &s);
	CHECK_EQ_INT(s.memory.dimm_slots, 2);
	CHECK_EQ_INT(s.memory.dimms_populated, 2);
	CHECK_EQ_U64(s.memory.total_mib, 2);
}

TEST(hostile_lengths_stop_the_walk_inside_the_bytes)
{
	struct tab t;
	struct bt_smbios s;

	server(&t);
	/* Every truncation of the table: never a read past the end (ASan),
	 * never more structures than fit. */
	for (size_t n = 0; n <= t.n; n++) {
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, t.b, n);
		bt_smbios_parse_table(copy, n, 3, 2, &s);
		CHECK(s.n_structures <= 9);
		CHECK(s.present == (s.n_structures > 0));
		free(copy);
	}
	/* A structure length below 4 or past the end. */
	server(&t);
	t.b[1] = 3;
	bt_smbios_parse_table(t.b, t.n, 3, 2, &s);
	CHECK(!s.present);
	CHECK(strstr(s.reason, "length 3") != NULL);
	server(&t);
	t.b[1] = 0xFF;
	bt_smbios_parse_table(t.b, 0x40, 3, 2, &s);
	CHECK(!s.present);
	/* A string number beyond the set: "" (absent), not garbage. */
	server(&t);
	t.b[4] = 9;
	bt_smbios_parse_table(t.b, t.n, 3, 2, &s);
	CHECK_STR(s.bios.vendor, "");
	/* Unterminated strings at the end of the table. */
	struct tab u = { .n = 0 };
	uint8_t f0[0x12] = { 0, 0x12, 0, 0, 1 };
	put(&u, f0, sizeof(f0));
	put(&u, "abc", 3);
	bt_smbios_parse_table(u.b, u.n, 3, 0, &s);
	CHECK(!s.present);
	CHECK(strstr(s.reason, "not terminated") != NULL);
}

TEST(entry_points_32_and_64_bit)
{
	uint8_t e3[0x18] = { '_', 'S', 'M', '3', '_', 0, 0x18, 3, 4, 0, 1, 0 };
	uint8_t e2[0x1F] = { '_', 'S', 'M', '_', 0, 0x1F, 2, 8 };
	struct bt_smbios_entry e;
	struct bt_diag d;

	w32(e3 + 0x0C, 0x1234);
	w32(e3 + 0x10, 0x7ff00000u);
	w32(e3 + 0x14, 0x1);
	fix_checksum(e3, sizeof(e3), 5);
	CHECK(bt_smbios_parse_entry(e3, sizeof(e3), &e, &d) == BT_OK);
	CHECK(e.is_64bit);
	CHECK_EQ_INT(e.major, 3);
	CHECK_EQ_INT(e.minor, 4);
	CHECK_EQ_U64(e.table_length, 0x1234);
	CHECK_EQ_U64(e.table_address, 0x17ff00000ull);
	e3[0x10] ^= 1; /* checksum now wrong */
	CHECK(bt_smbios_parse_entry(e3, sizeof(e3), &e, &d) == BT_ERR_INVALID);
	e3[0x10] ^= 1;
	CHECK(bt_smbios_parse_entry(e3, 0x10, &e, &d) == BT_ERR_INVALID); /* too short */

	memcpy(e2 + 0x10, "_DMI_", 5);
	w16(e2 + 0x16, 0x300);
	w32(e2 + 0x18, 0xF0000);
	fix_checksum(e2 + 0x10, 0x0F, 5);
	fix_checksum(e2, sizeof(e2), 4);
	CHECK(bt_smbios_parse_entry(e2, sizeof(e2), &e, &d) == BT_OK);
	CHECK(!e.is_64bit);
	CHECK_EQ_INT(e.major, 2);
	CHECK_EQ_INT(e.minor, 8);
	CHECK_EQ_U64(e.table_length, 0x300);
	CHECK_EQ_U64(e.table_address, 0xF0000);
	e2[0x15] ^= 1; /* intermediate checksum wrong */
	CHECK(bt_smbios_parse_entry(e2, sizeof(e2), &e, &d) == BT_ERR_INVALID);
	CHECK(bt_smbios_parse_entry((const uint8_t *)"nothing here at all, no anchor!!", 32, &e, &d) ==
	      BT_ERR_INVALID);
}

/* SMBIOS 2.1 misstated the entry point's length as 1Eh (DSP0134 5.2.1 says
 * so); firmware built to it writes 1Eh and checksums 1Eh bytes, the
 * intermediate _DMI_ checksum still covering 10h..1Eh. Linux's dmi_present
 * accepts lengths 1Eh..20h. */
TEST(entry_point_2_1_with_length_1e)
{
	uint8_t e2[0x1F] = { '_', 'S', 'M', '_', 0, 0x1E, 2, 1 };
	struct bt_smbios_entry e;
	struct bt_diag d;

	memcpy(e2 + 0x10, "_DMI_", 5);
	w16(e2 + 0x16, 0x1A0);
	w32(e2 + 0x18, 0xE8000);
	w16(e2 + 0x1C, 12);
	e2[0x1E] = 0x21; /* BCD revision 2.1: outside the stated length */
	fix_checksum(e2 + 0x10, 0x0F, 5);
	fix_checksum(e2, 0x1E, 4);
	CHECK(bt_smbios_parse_entry(e2, sizeof(e2), &e, &d) == BT_OK);
	CHECK(!e.is_64bit);
	CHECK_EQ_INT(e.major, 2);
	CHECK_EQ_INT(e.minor, 1);
	CHECK_EQ_U64(e.table_length, 0x1A0);
	CHECK_EQ_U64(e.table_address, 0xE8000);

	/* The checksum is taken over the stated length: one summed over 1Fh
	 * bytes while the length says 1Eh does not add up. */
	fix_checksum(e2, 0x1F, 4);
	CHECK(bt_smbios_parse_entry(e2, sizeof(e2), &e, &d) == BT_ERR_INVALID);

	/* 1Dh is too short for the fields, 21h beyond what any version says. */
	for (unsigned bad = 0x1D; bad <= 0x21; bad += 4) {
		uint8_t big[0x21];

		memset(big, 0, sizeof(big));
		memcpy(big, e2, sizeof(e2));
		big[5] = (uint8_t)bad;
		fix_checksum(big + 0x10, 0x0F, 5);
		fix_checksum(big, bad, 4);
		CHECK(bt_smbios_parse_entry(big, sizeof(big), &e, &d) == BT_ERR_INVALID);
		CHECK(strstr(d.text, "length") != NULL);
	}
}

TEST(run_id_prefers_uuid_then_serials)
{
	struct bt_smbios s;
	char id[BT_RUN_ID_MAX];

	memset(&s, 0, sizeof(s));
	s.present = true;
	snprintf(s.system.uuid, sizeof(s.system.uuid), "00112233-4455-6677-8899-aabbccddeeff");
	snprintf(s.system.serial, sizeof(s.system.serial), "SER 1/2");
	snprintf(s.board.serial, sizeof(s.board.serial), "B#7");
	bt_run_id(&s, 12, "2026-11-24T17:31:54+01:00", id);
	CHECK_STR(id, "00112233-4455-6677-8899-aabbccddeeff-000012-20261124T173154");
	s.system.uuid[0] = '\0';
	bt_run_id(&s, 1, "2026-11-24T17:31:54", id);
	CHECK_STR(id, "sn-SER_1_2-000001-20261124T173154");
	s.system.serial[0] = '\0';
	bt_run_id(&s, 1, NULL, id);
	CHECK_STR(id, "board-B_7-000001-notime");
	s.present = false;
	bt_run_id(&s, 999999, "garbage", id);
	CHECK_STR(id, "unidentified-999999-notime");
}
