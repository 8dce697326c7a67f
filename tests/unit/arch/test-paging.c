/* SPDX-License-Identifier: MIT */
/*
 * The page-table walk (arch/paging.c) over tables this test builds by hand
 * from SDM vol. 3A, 4.5 (4-level and 5-level paging): a 1 GiB page from a
 * PDPTE with PS, a 2 MiB page from a PDE with PS, 4 KiB pages from a page
 * table, an entry not present, the reserved PS bit of a PML4E, a
 * non-canonical address, a fault while reading an entry; and the span of a
 * range over a fake backend (the 16 MiB dtlb-walk buffer on 2 MiB pages is
 * 8 pages, on 4 KiB pages 4096).
 */
#include <string.h>

#include "arch/paging.h"
#include "tests/unit/lib/test.h"

#define P  UINT64_C(0x1)
#define RW UINT64_C(0x2)
#define PS UINT64_C(0x80)
#define XD (UINT64_C(1) << 63)

/* Physical memory of 8 tables of 512 entries at 0x1000, 0x2000, ... */
struct mem {
	uint64_t t[8][512];
	int reads, fail_at;   /* fail_at: the read number that faults (0: none) */
};

static bt_status rd(void *ctx, uint64_t phys, uint64_t *ret)
{
	struct mem *m = ctx;
	uint64_t i = phys / 0x1000 - 1, off = phys % 0x1000;

	if (++m->reads == m->fail_at || i >= 8 || off % 8)
		return BT_ERR_FAULT;
	*ret = m->t[i][off / 8];
	return BT_OK;
}

#define TABLE(n) (UINT64_C(0x1000) * (n)) /* table n (1-based) */

/*
 * 4-level: PML4 = table 1; PML4[0] -> PDPT (2); PDPT[0] = a 1 GiB page at
 * 0, PDPT[1] -> PD (3); PD[0] = a 2 MiB page at 1 GiB, PD[1] -> PT (4) whose
 * entries 0..255 are present 4 KiB pages (the PAT bit, 7, set in entry 3:
 * in a PTE it is not a page size).
 */
static void build4(struct mem *m)
{
	memset(m, 0, sizeof(*m));
	m->t[0][0] = TABLE(2) | P | RW;
	m->t[1][0] = 0 | P | RW | PS;
	m->t[1][1] = TABLE(3) | P | RW | XD;
	m->t[2][0] = UINT64_C(0x40000000) | P | RW | PS | XD;
	m->t[2][1] = TABLE(4) | P | RW;
	for (int i = 0; i < 256; i++)
		m->t[3][i] = (UINT64_C(0x40200000) + 0x1000 * (uint64_t)i) | P | RW;
	m->t[3][3] |= PS;
}

static bt_status walk(struct mem *m, uint64_t cr3, uint64_t cr4, uint64_t linear,
		      uint64_t *bytes, unsigned *levels)
{
	struct bt_paging_regs r = { .cr3 = cr3, .cr4 = cr4, .phys_bits = 46 };
	struct bt_diag d = { "" };

	*bytes = 0;
	*levels = 0;
	return bt_paging_walk(&r, linear, rd, m, bytes, levels, &d);
}

TEST(four_level_page_sizes)
{
	static struct mem m; /* 32 KiB: off the stack */
	uint64_t b;
	unsigned l;
	/* CR3 with PCID 5 in bits 11:0 (CR4.PCIDE, bit 17): not an address. */
	uint64_t cr3 = TABLE(1) | 5, cr4 = BT_CR4_PAE | (UINT64_C(1) << 17);

	build4(&m);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x1234, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_1G);
	CHECK_EQ_INT(l, 4);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x3fffffff, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_1G);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x40000000 + 0x1fffff, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_2M);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x40200000 + 0x3008, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_4K);               /* PAT set: still 4 KiB */
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x40200000 + 255 * 0x1000, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_4K);
	/* PT entry 256, PD entry 2, PDPT entry 2, PML4 entry 1: not present. */
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x40200000 + 256 * 0x1000, &b, &l), BT_ERR_NOT_FOUND);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x40400000, &b, &l), BT_ERR_NOT_FOUND);
	CHECK_EQ_INT(walk(&m, cr3, cr4, 0x80000000, &b, &l), BT_ERR_NOT_FOUND);
	CHECK_EQ_INT(walk(&m, cr3, cr4, UINT64_C(1) << 39, &b, &l), BT_ERR_NOT_FOUND);
}

TEST(the_walk_reads_one_entry_per_level)
{
	static struct mem m;
	uint64_t b;
	unsigned l;

	build4(&m);
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, 0x40200000, &b, &l), BT_OK);
	CHECK_EQ_INT(m.reads, 4);                  /* PML4E, PDPTE, PDE, PTE */
	m.reads = 0;
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, 0x40000000, &b, &l), BT_OK);
	CHECK_EQ_INT(m.reads, 3);                  /* the PDE maps the page */
	/* A read that faults (the third: the PDE) is the walk's result. */
	m.reads = 0;
	m.fail_at = 3;
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, 0x40200000, &b, &l), BT_ERR_FAULT);
	CHECK_EQ_U64(b, 0);
}

TEST(five_level_paging_adds_the_pml5)
{
	static struct mem m;
	uint64_t b;
	unsigned l;

	/* PML5 = table 5; PML5[0] -> the PML4 above; PML5[1] -> nothing. */
	build4(&m);
	m.t[4][0] = TABLE(1) | P | RW;
	CHECK_EQ_INT(walk(&m, TABLE(5), BT_CR4_PAE | BT_CR4_LA57, 0x40000000, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_2M);
	CHECK_EQ_INT(l, 5);
	CHECK_EQ_INT(walk(&m, TABLE(5), BT_CR4_PAE | BT_CR4_LA57, 0x40200000, &b, &l), BT_OK);
	CHECK_EQ_U64(b, BT_PAGE_4K);
	/* Bit 48 selects PML5 entry 1, canonical with 57 bits, not with 48. */
	CHECK_EQ_INT(walk(&m, TABLE(5), BT_CR4_PAE | BT_CR4_LA57, UINT64_C(1) << 48, &b, &l),
		     BT_ERR_NOT_FOUND);
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, UINT64_C(1) << 48, &b, &l), BT_ERR_INVALID);
}

TEST(malformed_tables_and_addresses_are_refused)
{
	static struct mem m;
	uint64_t b;
	unsigned l;

	build4(&m);
	/* The upper half is canonical: the walk goes to PML4 entry 256. */
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, UINT64_C(0xffff800000000000), &b, &l),
		     BT_ERR_NOT_FOUND);
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, UINT64_C(0x0000800000000000), &b, &l),
		     BT_ERR_INVALID);
	CHECK_EQ_INT(walk(&m, TABLE(1), 0, 0x1234, &b, &l), BT_ERR_UNSUPPORTED);
	m.t[0][0] |= PS;                           /* reserved in a PML4E */
	CHECK_EQ_INT(walk(&m, TABLE(1), BT_CR4_PAE, 0x1234, &b, &l), BT_ERR_INVALID);
}

/* A backend whose page_size op walks the tables of `fake`. */
static struct mem fake;

static bt_status fake_page_size(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
				unsigned *ret_levels)
{
	struct bt_paging_regs r = { .cr3 = TABLE(1), .cr4 = BT_CR4_PAE, .phys_bits = 46 };

	(void)a;
	return bt_paging_walk(&r, linear, rd, &fake, ret_bytes, ret_levels, NULL);
}

static const struct bt_arch_ops fake_ops = { .page_size = fake_page_size };

TEST(a_span_counts_the_pages_of_a_range)
{
	struct bt_arch a = { .name = "fake", .ops = &fake_ops };
	struct bt_page_span s;
	char t[40];

	/* 16 MiB at 1 GiB + 2 MiB on 2 MiB pages (PD entries 1..8): 8 pages. */
	build4(&fake);
	for (int i = 1; i <= 8; i++)
		fake.t[2][i] = (UINT64_C(0x40000000) + BT_PAGE_2M * (uint64_t)i) | P | RW | PS;
	bt_page_span_read(&a, (const void *)(uintptr_t)0x40200000, 16u << 20, &s);
	CHECK_EQ_U64(s.smallest, BT_PAGE_2M);
	CHECK_EQ_U64(s.largest, BT_PAGE_2M);
	CHECK_EQ_U64(s.pages, 8);
	CHECK(strstr(s.source, "page tables") && strstr(s.source, "4-level"));
	bt_page_span_sizes(&s, t, sizeof(t));
	CHECK_STR(t, "2 MiB");

	/* Mixed: the last 4 KiB of the 1 GiB page, then 2 MiB pages. */
	bt_page_span_read(&a, (const void *)(uintptr_t)(0x40000000 - 0x1000), 0x1000 + 1, &s);
	CHECK_EQ_U64(s.smallest, BT_PAGE_2M);
	CHECK_EQ_U64(s.largest, BT_PAGE_1G);
	CHECK_EQ_U64(s.pages, 2);
	bt_page_span_sizes(&s, t, sizeof(t));
	CHECK_STR(t, "2 MiB..1 GiB");

	/* 1 MiB of the page table's 4 KiB pages: 256 pages. */
	build4(&fake);
	bt_page_span_read(&a, (const void *)(uintptr_t)0x40200000, 1u << 20, &s);
	CHECK_EQ_U64(s.smallest, BT_PAGE_4K);
	CHECK_EQ_U64(s.largest, BT_PAGE_4K);
	CHECK_EQ_U64(s.pages, 256);

	/* One byte beyond them is not mapped: the whole span is unknown. */
	bt_page_span_read(&a, (const void *)(uintptr_t)0x40200000, (1u << 20) + 1, &s);
	CHECK_EQ_U64(s.smallest, 0);
	CHECK_EQ_U64(s.largest, 0);
	CHECK(strncmp(s.source, "unknown: ", 9) == 0);
	bt_page_span_sizes(&s, t, sizeof(t));
	CHECK_STR(t, "unknown");
}

TEST(backends_that_cannot_read_the_tables_say_so)
{
	static const struct bt_arch_ops none = { 0 };
	struct bt_arch a = { .name = "no-paging", .ops = &none };
	struct bt_page_span s;
	uint64_t b = 0;
	unsigned l = 0;

	CHECK_EQ_INT(bt_page_size(&a, 0x1000, &b, &l), BT_ERR_UNSUPPORTED);
	bt_page_span_read(&a, (const void *)(uintptr_t)0x1000, 4096, &s);
	CHECK_EQ_U64(s.largest, 0);
	CHECK(strstr(s.source, "no-paging") && strstr(s.source, "cannot read"));
}
