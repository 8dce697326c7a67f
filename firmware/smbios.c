/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "firmware/smbios.h"

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static uint8_t sum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

bt_status bt_smbios_parse_entry(const uint8_t *p, size_t avail, struct bt_smbios_entry *ret,
				struct bt_diag *d)
{
	memset(ret, 0, sizeof(*ret));
	if (avail >= 0x18 && memcmp(p, "_SM3_", 5) == 0) {
		/* 3.x 64-bit entry point (DSP0134 5.2.2): length at 06h. */
		uint8_t len = p[6];

		if (len < 0x18 || len > avail) {
			bt_diag_set(d, "SMBIOS 3 entry point: length 0x%x is not possible", len);
			return BT_ERR_INVALID;
		}
		if (sum(p, len) != 0) {
			bt_diag_set(d, "SMBIOS 3 entry point: checksum does not add up");
			return BT_ERR_INVALID;
		}
		ret->is_64bit = true;
		ret->major = p[7];
		ret->minor = p[8];
		ret->table_length = rd32(p + 0x0C);
		ret->table_address = rd64(p + 0x10);
		return BT_OK;
	}
	if (avail >= 0x1F && memcmp(p, "_SM_", 4) == 0) {
		/* 2.1 32-bit entry point (DSP0134 5.2.1): length at 05h, an
		 * intermediate "_DMI_" anchor with its own checksum at 10h.
		 * The structure is 1Fh bytes, but version 2.1 of the
		 * specification gave its length as 1Eh (DSP0134 5.2.1 notes
		 * it), and firmware written to it says 1Eh: that length is
		 * accepted and the checksum taken over the length stated, as
		 * Linux's dmi_present does (1Eh to 20h). The intermediate
		 * checksum covers 10h..1Eh whatever the stated length, so 1Fh
		 * bytes must be readable in any case. */
		uint8_t len = p[5];

		if (len < 0x1E || len > 0x20 || len > avail) {
			bt_diag_set(d, "SMBIOS entry point: length 0x%x is not possible", len);
			return BT_ERR_INVALID;
		}
		if (sum(p, len) != 0 || memcmp(p + 0x10, "_DMI_", 5) != 0 || sum(p + 0x10, 0x0F) != 0) {
			bt_diag_set(d, "SMBIOS entry point: checksum or _DMI_ anchor wrong");
			return BT_ERR_INVALID;
		}
		ret->major = p[6];
		ret->minor = p[7];
		ret->table_length = rd16(p + 0x16);
		ret->table_address = rd32(p + 0x18);
		return BT_OK;
	}
	bt_diag_set(d, "no SMBIOS entry point anchor (_SM3_ or _SM_)");
	return BT_ERR_INVALID;
}

void bt_smbios_uuid_str(const uint8_t u[16], uint8_t major, uint8_t minor, char out[37])
{
	uint8_t b[16];
	bool zero = true, ones = true;

	for (int i = 0; i < 16; i++) {
		zero &= u[i] == 0x00;
		ones &= u[i] == 0xFF;
	}
	if (zero || ones) {
		out[0] = '\0';
		return;
	}
	memcpy(b, u, 16);
	if (major > 2 || (major == 2 && minor >= 6)) {
		/* time_low, time_mid, time_hi_and_version are stored
		 * little-endian (DSP0134 7.2.1, RFC 4122 fields). */
		uint8_t t;
		t = b[0]; b[0] = b[3]; b[3] = t;
		t = b[1]; b[1] = b[2]; b[2] = t;
		t = b[4]; b[4] = b[5]; b[5] = t;
		t = b[6]; b[6] = b[7]; b[7] = t;
	}
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
}

/* One structure: its formatted area f[0..flen) and its string set
 * s[0..slen), the strings' NULs included. */
struct structure {
	const uint8_t *f;
	size_t flen;
	const char *s;
	size_t slen;
};

/* String number `n` (1-based; 0 = none) into out, printable ASCII only
 * (anything else becomes '?'), trailing spaces dropped; "" when absent. */
static void str_of(const struct structure *st, size_t off, char *out, size_t outlen)
{
	size_t i = 0, k = 0;
	unsigned n;

	out[0] = '\0';
	if (off >= st->flen || (n = st->f[off]) == 0)
		return;
	for (unsigned cur = 1; cur < n; cur++) {
		while (i < st->slen && st->s[i])
			i++;
		if (++i >= st->slen)
			return;
	}
	for (; i < st->slen && st->s[i] && k + 1 < outlen; i++) {
		unsigned char c = (unsigned char)st->s[i];
		out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = '\0';
}

static uint32_t byte_at(const struct structure *st, size_t off)
{
	return off < st->flen ? st->f[off] : 0;
}

static uint32_t word_at(const struct structure *st, size_t off)
{
	return off + 2 <= st->flen ? rd16(st->f + off) : 0;
}

static uint32_t dword_at(const struct structure *st, size_t off)
{
	return off + 4 <= st->flen ? rd32(st->f + off) : 0;
}

static void type0(const struct structure *st, struct bt_smbios *r)
{
	str_of(st, 0x04, r->bios.vendor, sizeof(r->bios.vendor));
	str_of(st, 0x05, r->bios.version, sizeof(r->bios.version));
	str_of(st, 0x08, r->bios.release_date, sizeof(r->bios.release_date));
}

static void type1(const struct structure *st, struct bt_smbios *r)
{
	str_of(st, 0x04, r->system.manufacturer, sizeof(r->system.manufacturer));
	str_of(st, 0x05, r->system.product, sizeof(r->system.product));
	str_of(st, 0x06, r->system.version, sizeof(r->system.version));
	str_of(st, 0x07, r->system.serial, sizeof(r->system.serial));
	if (st->flen >= 0x18)
		bt_smbios_uuid_str(st->f + 0x08, r->major, r->minor, r->system.uuid);
	str_of(st, 0x19, r->system.sku, sizeof(r->system.sku));
	str_of(st, 0x1A, r->system.family, sizeof(r->system.family));
}

static void type2(const struct structure *st, struct bt_smbios *r)
{
	str_of(st, 0x04, r->board.manufacturer, sizeof(r->board.manufacturer));
	str_of(st, 0x05, r->board.product, sizeof(r->board.product));
	str_of(st, 0x06, r->board.version, sizeof(r->board.version));
	str_of(st, 0x07, r->board.serial, sizeof(r->board.serial));
}

static void type4(const struct structure *st, struct bt_smbios *r)
{
	struct bt_smbios_processor *p;
	uint32_t cores, threads;

	r->n_processors_seen++;
	if (r->n_processors == BT_SMBIOS_MAX_SOCKETS)
		return;
	p = &r->processor[r->n_processors++];
	str_of(st, 0x04, p->socket, sizeof(p->socket));
	str_of(st, 0x07, p->manufacturer, sizeof(p->manufacturer));
	str_of(st, 0x10, p->version, sizeof(p->version));
	p->max_speed_mhz = word_at(st, 0x14);
	p->current_speed_mhz = word_at(st, 0x16);
	/* Core and thread counts (2.5+, one byte); FFh means "see the 3.0
	 * word fields Core Count 2 (2Ah) and Thread Count 2 (2Eh)". */
	cores = byte_at(st, 0x23);
	threads = byte_at(st, 0x25);
	if (cores == 0xFF && st->flen >= 0x2C)
		cores = word_at(st, 0x2A);
	if (threads == 0xFF && st->flen >= 0x30)
		threads = word_at(st, 0x2E);
	p->core_count = cores == 0xFFFF ? 0 : cores;
	p->thread_count = threads == 0xFFFF ? 0 : threads;
}

/* Type 17 size in MiB (DSP0134 7.18.5): word at 0Ch, 0 = no device
 * installed, FFFFh = unknown, bit 15 set = KiB units; 7FFFh means the
 * size is in Extended Size (1Ch, MiB in bits 30:0). */
static uint64_t dimm_mib(const struct structure *st)
{
	uint32_t size = word_at(st, 0x0C);

	if (size == 0 || size == 0xFFFF)
		return 0;
	if (size == 0x7FFF)
		return st->flen >= 0x20 ? dword_at(st, 0x1C) & 0x7FFFFFFFu : 0;
	if (size & 0x8000)
		return (size & 0x7FFF) / 1024;
	return size;
}

static void type17(const struct structure *st, struct bt_smbios *r)
{
	uint32_t size = word_at(st, 0x0C), speed;

	r->memory.dimm_slots++;
	if (size == 0)
		return; /* an empty slot */
	r->memory.dimms_populated++;
	r->memory.total_mib += dimm_mib(st);
	/* Configured Memory Speed (20h, 2.7+) where given, else Speed (15h);
	 * FFFFh points to the 3.3 extended dword fields (58h, 54h). 0 = unknown. */
	speed = word_at(st, 0x20);
	if (speed == 0xFFFF)
		speed = dword_at(st, 0x58);
	if (speed == 0) {
		speed = word_at(st, 0x15);
		if (speed == 0xFFFF)
			speed = dword_at(st, 0x54);
	}
	if (speed > r->memory.speed_mts)
		r->memory.speed_mts = speed;
}

void bt_smbios_parse_table(const uint8_t *t, size_t len, uint8_t major, uint8_t minor,
			   struct bt_smbios *ret)
{
	size_t off = 0;
	bool seen[5] = { false };

	memset(ret, 0, sizeof(*ret));
	ret->major = major;
	ret->minor = minor;
	while (off + 4 <= len) {
		struct structure st;
		uint8_t type = t[off], flen = t[off + 1];
		size_t s, e;

		/* DSP0134 6.1.2: the formatted area is at least 4 bytes; the
		 * string set follows and ends with two NULs (two NULs also
		 * when there are no strings). */
		if (flen < 4 || flen > len - off) {
			snprintf(ret->reason, sizeof(ret->reason),
				 "structure %u at offset %zu: length %u runs outside the table",
				 ret->n_structures, off, flen);
			break;
		}
		s = off + flen;
		for (e = s; e + 1 < len && !(t[e] == 0 && t[e + 1] == 0); e++)
			;
		if (e + 1 >= len) {
			snprintf(ret->reason, sizeof(ret->reason),
				 "structure %u at offset %zu: its strings are not terminated",
				 ret->n_structures, off);
			break;
		}
		st = (struct structure){ .f = t + off, .flen = flen, .s = (const char *)t + s,
					 .slen = e + 1 - s };
		ret->n_structures++;
		switch (type) {
		case 0: if (!seen[0]) type0(&st, ret); seen[0] = true; break;
		case 1: if (!seen[1]) type1(&st, ret); seen[1] = true; break;
		case 2: if (!seen[2]) type2(&st, ret); seen[2] = true; break;
		case 4: type4(&st, ret); break;
		case 17: type17(&st, ret); break;
		}
		off = e + 2;
		if (type == 127)
			break; /* end of table */
	}
	ret->present = ret->n_structures > 0;
	if (!ret->present && !ret->reason[0])
		snprintf(ret->reason, sizeof(ret->reason), "the SMBIOS table holds no structure");
}
