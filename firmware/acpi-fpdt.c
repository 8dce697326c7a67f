/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/acpi-fpdt.h"

#define HDR 36 /* the ACPI system description table header (5.2.6) */

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

__attribute__((format(printf, 2, 3)))
static void absent(struct bt_fpdt *r, const char *fmt, ...)
{
	va_list ap;

	r->present = false;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/* Reads the table at addr whose header says `sig`; returns it (malloc'd)
 * with the length read, or NULL with the reason. A length above max is
 * refused as broken, except with `window`: then any length is accepted and
 * only the table's first min(length, max) bytes are read (no checksum can
 * be checked on part of a table, so window excludes checksum). */
static uint8_t *read_table(bt_phys_read_fn *read, void *ctx, uint64_t addr, const char *sig,
			   size_t max, bool checksum, bool window, size_t *ret_len,
			   struct bt_fpdt *r)
{
	uint8_t hdr[8];
	uint8_t *t;
	uint32_t len;

	if (!addr || !read(ctx, addr, hdr, sizeof(hdr))) {
		absent(r, "the %s at 0x%llx cannot be read", sig, (unsigned long long)addr);
		return NULL;
	}
	if (memcmp(hdr, sig, 4) != 0) {
		absent(r, "no %s signature at 0x%llx", sig, (unsigned long long)addr);
		return NULL;
	}
	len = rd32(hdr + 4);
	if (len < 8 || (len > max && !window) || (checksum && len < HDR)) {
		absent(r, "the %s's length %u is not possible", sig, (unsigned)len);
		return NULL;
	}
	if (len > max)
		len = (uint32_t)max;
	t = malloc(len);
	if (!t) {
		absent(r, "out of memory reading the %s", sig);
		return NULL;
	}
	if (!read(ctx, addr, t, len)) {
		free(t);
		absent(r, "the %s at 0x%llx cannot be read", sig, (unsigned long long)addr);
		return NULL;
	}
	if (checksum && sum(t, len) != 0) {
		free(t);
		absent(r, "the %s's checksum does not add up", sig);
		return NULL;
	}
	*ret_len = len;
	return t;
}

/* The FPDT's address among the XSDT's entries, or 0 (reason set). */
static uint64_t find_fpdt(bt_phys_read_fn *read, void *ctx, uint64_t rsdp_addr, struct bt_fpdt *r)
{
	uint8_t rsdp[36], sig[4];
	uint8_t *xsdt;
	size_t xlen = 0;
	uint64_t found = 0, xsdt_addr;

	/* RSDP (5.2.5.3): "RSD PTR ", checksum over the first 20 bytes;
	 * revision 2+ adds Length (14h), XsdtAddress (18h) and an extended
	 * checksum over the whole structure. */
	if (!rsdp_addr || !read(ctx, rsdp_addr, rsdp, 20)) {
		absent(r, "no ACPI RSDP");
		return 0;
	}
	if (memcmp(rsdp, "RSD PTR ", 8) != 0 || sum(rsdp, 20) != 0) {
		absent(r, "the ACPI RSDP's signature or checksum is wrong");
		return 0;
	}
	if (rsdp[15] < 2) {
		absent(r, "ACPI 1.0 RSDP (revision %u): no XSDT", rsdp[15]);
		return 0;
	}
	if (!read(ctx, rsdp_addr, rsdp, sizeof(rsdp)) || rd32(rsdp + 20) < 36 ||
	    sum(rsdp, 36) != 0) {
		absent(r, "the ACPI RSDP's extended checksum is wrong");
		return 0;
	}
	xsdt_addr = rd64(rsdp + 24);
	xsdt = read_table(read, ctx, xsdt_addr, "XSDT", HDR + 8 * BT_ACPI_XSDT_MAX_ENTRIES, true,
			  false, &xlen, r);
	if (!xsdt)
		return 0;
	for (size_t off = HDR; off + 8 <= xlen; off += 8) {
		uint64_t a = rd64(xsdt + off);

		if (a && read(ctx, a, sig, 4) && memcmp(sig, "FPDT", 4) == 0) {
			found = a;
			break;
		}
	}
	if (!found)
		absent(r, "no FPDT among the %zu tables of the XSDT: the firmware publishes no "
			  "boot performance record", (xlen - HDR) / 8);
	free(xsdt);
	return found;
}

void bt_acpi_fpdt_read(uint64_t rsdp_addr, bt_phys_read_fn *read, void *ctx, struct bt_fpdt *ret)
{
	uint64_t fpdt_addr, fbpt_addr = 0;
	uint8_t *fpdt, *fbpt;
	size_t flen = 0, blen = 0;
	bool record = false;

	memset(ret, 0, sizeof(*ret));
	fpdt_addr = find_fpdt(read, ctx, rsdp_addr, ret);
	if (!fpdt_addr)
		return;
	fpdt = read_table(read, ctx, fpdt_addr, "FPDT", BT_ACPI_FPDT_MAX, true, false, &flen, ret);
	if (!fpdt)
		return;
	/* Performance records (5.2.23.3): Type (word), Length (byte),
	 * Revision (byte). Type 0000h is the Firmware Basic Boot Performance
	 * Pointer Record, 16 bytes: its FBPT pointer at offset 8. */
	for (size_t off = HDR; off + 4 <= flen;) {
		uint16_t type = rd16(fpdt + off);
		uint8_t len = fpdt[off + 2];

		if (len < 4 || len > flen - off)
			break;
		if (type == 0x0000 && len >= 16) {
			fbpt_addr = rd64(fpdt + off + 8);
			break;
		}
		off += len;
	}
	free(fpdt);
	if (!fbpt_addr) {
		absent(ret, "the FPDT has no basic boot performance pointer record");
		return;
	}
	ret->fbpt_address = fbpt_addr;
	/* The FBPT (5.2.23.5): "FBPT", Length, then records; no checksum.
	 * Only its first window is read, whatever its length: the basic boot
	 * record comes first, and a padded table (EDK2's performance logging)
	 * must not read as absent. The walk below stays inside what was read. */
	fbpt = read_table(read, ctx, fbpt_addr, "FBPT", BT_ACPI_FBPT_WINDOW, false, true, &blen, ret);
	if (!fbpt)
		return;
	/* Firmware Basic Boot Performance Data Record (5.2.23.5, Table
	 * 5.xx): type 0002h, length 48, then at offset 8 Reset End, 16 OS
	 * Loader LoadImage Start, 24 OS Loader StartImage Start, 32
	 * ExitBootServices Entry, 40 ExitBootServices Exit (ns, UINT64). */
	for (size_t off = 8; off + 4 <= blen;) {
		uint16_t type = rd16(fbpt + off);
		uint8_t len = fbpt[off + 2];

		if (len < 4 || len > blen - off)
			break;
		if (type == 0x0002 && len >= 48) {
			const uint8_t *p = fbpt + off;

			ret->reset_end_ns = rd64(p + 8);
			ret->os_loader_load_image_start_ns = rd64(p + 16);
			ret->os_loader_start_image_start_ns = rd64(p + 24);
			ret->exit_boot_services_entry_ns = rd64(p + 32);
			ret->exit_boot_services_exit_ns = rd64(p + 40);
			record = true;
			break;
		}
		off += len;
	}
	free(fbpt);
	if (!record) {
		absent(ret, "the FBPT has no basic boot performance data record");
		return;
	}
	ret->present = true;
	ret->reason[0] = '\0';
}
