/* SPDX-License-Identifier: MIT */
/* The page-table walk (arch/paging.h); no instruction here touches the
 * hardware: the backend passes the registers and the entry reader. */
#include <stdio.h>
#include <string.h>

#include "arch/paging.h"

/* SDM vol. 3A, 4.5: bit 0 present in every entry; bit 7 (PS) maps a page
 * in a PDPTE (1 GiB, Table 4-16) and a PDE (2 MiB, Table 4-18), and is
 * reserved (must be 0) in PML5Es and PML4Es (Tables 4-14, 4-15). */
#define PTE_P  (UINT64_C(1) << 0)
#define PTE_PS (UINT64_C(1) << 7)

static const char *const names[6] = { "", "PTE", "PDE", "PDPTE", "PML4E", "PML5E" };

static bt_status why(struct bt_diag *d, bt_status st, const char *fmt, const char *entry,
		     uint64_t a, uint64_t b)
{
	if (d)
		bt_diag_set(d, fmt, entry, (unsigned long long)a, (unsigned long long)b);
	return st;
}

bt_status bt_paging_walk(const struct bt_paging_regs *r, uint64_t linear, bt_pte_read_fn *read,
			 void *ctx, uint64_t *ret_bytes, unsigned *ret_levels, struct bt_diag *d)
{
	unsigned levels = (r->cr4 & BT_CR4_LA57) ? 5 : 4;
	unsigned bits = r->phys_bits ? r->phys_bits : 52;

	if (!(r->cr4 & BT_CR4_PAE)) {
		if (d)
			bt_diag_set(d, "CR4.PAE is clear: not 4- or 5-level paging");
		return BT_ERR_UNSUPPORTED;
	}
	if (bits > 52)
		bits = 52;
	/* Bits MAXPHYADDR-1:12 of CR3 and of every entry hold a physical
	 * address (4.5.2, 4.5.4); below them CR3 has PCD/PWT or the PCID, and
	 * the entries their flags. */
	uint64_t addr_mask = ((UINT64_C(1) << bits) - 1) & ~UINT64_C(0xfff);
	/* Canonical: bits 63:48 (4-level) or 63:57 (5-level) copy the top
	 * translated bit (SDM vol. 1, 3.3.7.1). */
	unsigned top = levels == 5 ? 56 : 47;
	uint64_t high = linear >> top;
	if (high != 0 && high != (UINT64_MAX >> top)) {
		if (d)
			bt_diag_set(d, "0x%llx is not canonical under %u-level paging",
				    (unsigned long long)linear, levels);
		return BT_ERR_INVALID;
	}
	uint64_t table = r->cr3 & addr_mask;
	for (unsigned level = levels; level >= 1; level--) {
		/* 9 bits of the linear address per level, above the 12-bit
		 * page offset: PML5 56:48, PML4 47:39, PDPT 38:30, PD 29:21,
		 * PT 20:12. */
		unsigned shift = 12 + 9 * (level - 1);
		uint64_t at = table + ((linear >> shift) & 511) * 8, e = 0;
		bt_status st = read(ctx, at, &e);

		if (st != BT_OK)
			return why(d, st, "reading the %s at 0x%llx (for 0x%llx) failed",
				   names[level], at, linear);
		if (!(e & PTE_P))
			return why(d, BT_ERR_NOT_FOUND, "the %s 0x%llx for 0x%llx is not present",
				   names[level], e, linear);
		if (e & PTE_PS) {
			if (level >= 4)
				return why(d, BT_ERR_INVALID, "the %s 0x%llx for 0x%llx has the "
					   "reserved PS bit set", names[level], e, linear);
			if (level == 3 || level == 2) {
				*ret_bytes = UINT64_C(1) << shift;
				*ret_levels = levels;
				return BT_OK;
			}
			/* In a PTE, bit 7 is PAT, not a page size. */
		}
		if (level == 1) {
			*ret_bytes = BT_PAGE_4K;
			*ret_levels = levels;
			return BT_OK;
		}
		table = e & addr_mask;
	}
	return BT_ERR_INTERNAL; /* not reached: level 1 returns */
}

void bt_page_size_text(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= BT_PAGE_1G && bytes % BT_PAGE_1G == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(bytes / BT_PAGE_1G));
	else if (bytes >= (UINT64_C(1) << 20) && bytes % (UINT64_C(1) << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
}

void bt_page_span_sizes(const struct bt_page_span *s, char *buf, size_t len)
{
	char a[24], b[24];

	if (!s->smallest || !s->largest) {
		snprintf(buf, len, "unknown");
		return;
	}
	bt_page_size_text(s->smallest, a, sizeof(a));
	bt_page_size_text(s->largest, b, sizeof(b));
	if (s->smallest == s->largest)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s..%s", a, b);
}

void bt_page_span_read(struct bt_arch *a, const void *addr, uint64_t len,
		       struct bt_page_span *ret)
{
	uint64_t p = (uint64_t)(uintptr_t)addr, end = p + len;
	unsigned levels = 0;

	memset(ret, 0, sizeof(*ret));
	if (!len) {
		snprintf(ret->source, sizeof(ret->source), "unknown: an empty range");
		return;
	}
	while (p < end) {
		uint64_t bytes = 0;
		bt_status st = bt_page_size(a, p, &bytes, &levels);

		if (st != BT_OK || !bytes || (bytes & (bytes - 1))) {
			memset(ret, 0, sizeof(*ret));
			if (st == BT_ERR_UNSUPPORTED)
				snprintf(ret->source, sizeof(ret->source), "unknown: the %s backend "
					 "cannot read the page tables", a->name);
			else
				snprintf(ret->source, sizeof(ret->source), "unknown: the page-table "
					 "walk for 0x%llx: %s%s%s", (unsigned long long)p,
					 bt_status_str(st), st == BT_ERR_FAULT ? " " : "",
					 st == BT_ERR_FAULT ? (a->fault_vector == BT_VEC_PF ? "#PF"
							       : bt_fault_name(a->fault_vector)) : "");
			return;
		}
		if (!ret->smallest || bytes < ret->smallest)
			ret->smallest = bytes;
		if (bytes > ret->largest)
			ret->largest = bytes;
		ret->pages++;
		p = (p & ~(bytes - 1)) + bytes;
	}
	snprintf(ret->source, sizeof(ret->source), "page tables (CR3, %u-level paging)", levels);
}
