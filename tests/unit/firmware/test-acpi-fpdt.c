/* SPDX-License-Identifier: MIT */
/* The FPDT walk over a hand-built physical memory: RSDP, XSDT, FPDT and
 * FBPT laid out from the ACPI 6.x tables (5.2.5.3, 5.2.8, 5.2.23), with
 * the broken variants a firmware (or an attacker) could present. */
#include "firmware/acpi-fpdt.h"
#include "base/array.h"
#include "firmware/bli.h"
#include "tests/unit/lib/test.h"

#define BASE 0x7f000000ull
#define RSDP (BASE + 0x000)
#define XSDT (BASE + 0x100)
#define OTHR (BASE + 0x200)
#define FPDT (BASE + 0x300)
#define FBPT (BASE + 0x400)

/* Room for an FBPT padded past 64 KiB; `limit` is how much of it reads
 * (4 KiB unless a test says otherwise), `widest` the largest read asked. */
static uint8_t mem[0x20000];
static size_t limit, widest;

static bool rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (len > widest)
		widest = len;
	if (addr < BASE || addr - BASE > limit || len > limit - (addr - BASE))
		return false;
	memcpy(buf, mem + (addr - BASE), len);
	return true;
}

static uint8_t *at(uint64_t a) { return mem + (a - BASE); }
static void w32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static void w64(uint8_t *p, uint64_t v) { w32(p, (uint32_t)v); w32(p + 4, (uint32_t)(v >> 32)); }

static void checksum(uint8_t *p, size_t n, size_t at_off)
{
	uint8_t s = 0;

	p[at_off] = 0;
	for (size_t i = 0; i < n; i++)
		s = (uint8_t)(s + p[i]);
	p[at_off] = (uint8_t)(0x100 - s);
}

static void table_header(uint64_t a, const char *sig, uint32_t len)
{
	memcpy(at(a), sig, 4);
	w32(at(a) + 4, len);
	at(a)[8] = 1;
}

static void build(void)
{
	memset(mem, 0, sizeof(mem));
	limit = 0x1000;
	widest = 0;
	/* RSDP, revision 2. */
	memcpy(at(RSDP), "RSD PTR ", 8);
	at(RSDP)[15] = 2;
	w32(at(RSDP) + 20, 36);
	w64(at(RSDP) + 24, XSDT);
	checksum(at(RSDP), 20, 8);
	checksum(at(RSDP), 36, 32);
	/* XSDT with two entries: another table, then the FPDT. */
	table_header(XSDT, "XSDT", 36 + 16);
	w64(at(XSDT) + 36, OTHR);
	w64(at(XSDT) + 44, FPDT);
	checksum(at(XSDT), 36 + 16, 9);
	table_header(OTHR, "APIC", 36);
	/* FPDT: an S3 pointer record (type 1) first, then the basic boot
	 * pointer record (type 0, length 16, pointer at 8). */
	table_header(FPDT, "FPDT", 36 + 16 + 16);
	at(FPDT)[36] = 1; at(FPDT)[38] = 16; at(FPDT)[39] = 1;
	w64(at(FPDT) + 36 + 8, 0xdeadbeef);
	at(FPDT)[52] = 0; at(FPDT)[54] = 16; at(FPDT)[55] = 1;
	w64(at(FPDT) + 52 + 8, FBPT);
	checksum(at(FPDT), 36 + 32, 9);
	/* FBPT: header, then the basic boot performance data record
	 * (type 2, length 48, revision 2). */
	memcpy(at(FBPT), "FBPT", 4);
	w32(at(FBPT) + 4, 8 + 48);
	uint8_t *r = at(FBPT) + 8;
	r[0] = 2; r[2] = 48; r[3] = 2;
	w64(r + 8, 1111111);
	w64(r + 16, 2222222);
	w64(r + 24, 3333333);
	w64(r + 32, 0);
	w64(r + 40, 0);
}

TEST(reads_the_basic_boot_record)
{
	struct bt_fpdt f;

	build();
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK_MSG(f.present, "absent: %s", f.reason);
	CHECK_EQ_U64(f.fbpt_address, FBPT);
	CHECK_EQ_U64(f.reset_end_ns, 1111111);
	CHECK_EQ_U64(f.os_loader_load_image_start_ns, 2222222);
	CHECK_EQ_U64(f.os_loader_start_image_start_ns, 3333333);
	CHECK_EQ_U64(f.exit_boot_services_entry_ns, 0);
}

TEST(says_why_when_absent)
{
	struct bt_fpdt f;

	build();
	w64(at(XSDT) + 44, OTHR); /* no FPDT among the tables */
	checksum(at(XSDT), 52, 9);
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present);
	CHECK(strstr(f.reason, "no FPDT among the 2 tables") != NULL);

	build();
	at(RSDP)[15] = 0; /* ACPI 1.0 */
	checksum(at(RSDP), 20, 8);
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "no XSDT"));

	build();
	at(XSDT)[40] ^= 1; /* XSDT checksum wrong */
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "checksum"));

	build();
	at(FPDT)[52] = 3; /* no basic boot pointer record */
	checksum(at(FPDT), 68, 9);
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "pointer record"));

	build();
	at(FBPT + 8)[0] = 7; /* no data record */
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "data record"));

	bt_acpi_fpdt_read(0, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "RSDP"));
}

TEST(hostile_lengths_and_pointers)
{
	struct bt_fpdt f;

	build();
	w32(at(FBPT) + 4, 0x2000); /* past readable memory within the read window */
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "cannot be read"));

	build();
	at(FBPT + 8)[2] = 200; /* record longer than the table */
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present);

	build();
	at(FPDT)[38] = 0; /* a zero-length record must not loop forever */
	checksum(at(FPDT), 68, 9);
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present);

	build();
	w32(at(XSDT) + 4, 36 + 8 * 100000); /* XSDT beyond the entry limit */
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "length"));
}

/* EDK2 with performance logging pads the FBPT with room for its records
 * (well past 64 KiB); the basic boot data record still comes first. A
 * large table must read as present, and only a bounded prefix is read,
 * whatever length the table claims (it is untrusted). */
TEST(large_fbpt_reads_its_first_record)
{
	static const uint32_t lengths[] = { 0x10000, 0x10001, 0x18000, 0xFFFFFFF0u };
	struct bt_fpdt f;

	for (size_t i = 0; i < BT_ARRAY_SIZE(lengths); i++) {
		build();
		limit = sizeof(mem); /* the padded table is all there */
		w32(at(FBPT) + 4, lengths[i]);
		/* an extended record after the basic one, as EDK2 appends */
		uint8_t *x = at(FBPT) + 8 + 48;
		x[0] = 0x10; x[1] = 0x10; x[2] = 40; x[3] = 2;
		bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
		CHECK_MSG(f.present, "FBPT of %u bytes absent: %s", (unsigned)lengths[i], f.reason);
		CHECK_EQ_U64(f.reset_end_ns, 1111111);
		CHECK_EQ_U64(f.os_loader_start_image_start_ns, 3333333);
		CHECK_MSG(widest <= 4096, "read %zu bytes at once for a %u-byte FBPT", widest,
			  (unsigned)lengths[i]);
	}

	/* The data record behind other records inside the first 4 KiB is
	 * found too; a record running past what was read ends the walk. */
	build();
	limit = sizeof(mem);
	w32(at(FBPT) + 4, 0x11000);
	memmove(at(FBPT) + 8 + 1000, at(FBPT) + 8, 48);
	memset(at(FBPT) + 8, 0, 48);
	at(FBPT)[8] = 0x10; at(FBPT)[8 + 2] = 200; /* 5 records of 200 bytes */
	for (int k = 1; k < 5; k++)
		at(FBPT)[8 + 200 * k] = 0x10, at(FBPT)[8 + 200 * k + 2] = 200;
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK_MSG(f.present, "absent: %s", f.reason);
	CHECK_EQ_U64(f.reset_end_ns, 1111111);

	build();
	limit = sizeof(mem);
	w32(at(FBPT) + 4, 0x11000);
	at(FBPT)[8] = 0x10; at(FBPT)[8 + 2] = 255;
	for (int k = 1; k < 20; k++) /* 255-byte records up to the window's edge */
		at(FBPT)[8 + 255 * k] = 0x10, at(FBPT)[8 + 255 * k + 2] = 255;
	bt_acpi_fpdt_read(RSDP, rd, NULL, &f);
	CHECK(!f.present && strstr(f.reason, "data record"));
}

TEST(boot_loader_interface_values)
{
	/* "12345" and "systemd-boot 254" in UTF-16LE, NUL-terminated. */
	uint8_t v[64];
	const char *s = "12345";
	size_t n = 0;
	uint64_t us = 0;
	char text[32];

	for (; s[n]; n++) { v[2 * n] = (uint8_t)s[n]; v[2 * n + 1] = 0; }
	v[2 * n] = v[2 * n + 1] = 0;
	CHECK(bt_bli_usec(v, 2 * n + 2, &us));
	CHECK_EQ_U64(us, 12345);
	CHECK(!bt_bli_usec(v, 2 * n + 1, &us));   /* odd length */
	v[2] = 'x';
	CHECK(!bt_bli_usec(v, 2 * n + 2, &us));   /* not a number */
	CHECK(!bt_bli_usec(v, 0, &us));           /* empty */
	const char *big = "99999999999999999999"; /* > UINT64_MAX */
	for (n = 0; big[n]; n++) { v[2 * n] = (uint8_t)big[n]; v[2 * n + 1] = 0; }
	CHECK(!bt_bli_usec(v, 2 * n, &us));
	v[0] = 's'; v[1] = 0; v[2] = 0xe9; v[3] = 0x00; v[4] = 0; v[5] = 0;
	CHECK(bt_bli_string(v, 6, text, sizeof(text)));
	CHECK_STR(text, "s?");
}
