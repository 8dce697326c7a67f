/* SPDX-License-Identifier: MIT */
/*
 * Which page sizes map a piece of baretop's memory, read from the paging
 * structures (SDM vol. 3A, ch. 4 "Paging", 4.5 "4-Level Paging and 5-Level
 * Paging").
 *
 * Why it matters: UEFI firmware maps memory 1:1 with the largest pages it
 * can. EDK2's DXE IPL builds the identity map with 1 GiB pages where the CPU
 * has them (PcdUse1GPageTable) and 2 MiB pages otherwise, splitting to 4 KiB
 * only around address 0, the stack guard and GHCB pages
 * (CreateIdentityMappingPageTables / ToSplitPageTable in
 * MdeModulePkg/Core/DxeIplPeim/X64/VirtualMemory.c); memory protection
 * policies may split more later. So a kernel that means to miss the TLB on
 * every load (kernels/memory.c, dtlb-walk: 4 KiB apart over 16 MiB) walks
 * only 8 pages of 2 MiB there, or a single 1 GiB page: its expectation
 * depends on what the tables say for its buffer, which is read here.
 *
 * The walk itself is a pure function over a reader of 8-byte entries, so
 * it is unit-tested against tables a test builds; the ring-0 backend gives
 * it CR3, CR4 and a guarded load (a table outside the identity map raises
 * #PF, caught as BT_ERR_FAULT instead of ending in the firmware's dead loop).
 */
#ifndef ARCH_PAGING_H
#define ARCH_PAGING_H

#include <stddef.h>
#include <stdint.h>

#include "arch/arch.h"
#include "base/diag.h"

#define BT_PAGE_4K UINT64_C(0x1000)
#define BT_PAGE_2M UINT64_C(0x200000)
#define BT_PAGE_1G UINT64_C(0x40000000)

/* CR4 bits the walk reads (SDM vol. 3A, 2.5 "Control Registers"). */
#define BT_CR4_PAE  (UINT64_C(1) << 5)
#define BT_CR4_LA57 (UINT64_C(1) << 12)

/* The registers a walk starts from. */
struct bt_paging_regs {
	uint64_t cr3, cr4;
	unsigned phys_bits;   /* MAXPHYADDR (CPUID.80000008H:EAX[7:0]); 0: 52 */
};

/* Reads the 8-byte paging-structure entry at physical address `phys`. */
typedef bt_status bt_pte_read_fn(void *ctx, uint64_t phys, uint64_t *ret);

/*
 * The size of the page that maps `linear` (BT_PAGE_4K, _2M or _1G) under
 * 4-level or 5-level paging (CR4.LA57), and the number of levels in
 * *ret_levels. BT_ERR_UNSUPPORTED when CR4.PAE is clear (not IA-32e
 * paging), BT_ERR_INVALID for a non-canonical address or a reserved PS bit
 * in a PML5E/PML4E, BT_ERR_NOT_FOUND for an entry that is not present; an
 * error of `read` is returned as it is. The reason goes to d (may be NULL).
 */
bt_status bt_paging_walk(const struct bt_paging_regs *r, uint64_t linear, bt_pte_read_fn *read,
			 void *ctx, uint64_t *ret_bytes, unsigned *ret_levels, struct bt_diag *d);

/* The pages over a range of memory. */
struct bt_page_span {
	uint64_t smallest, largest;  /* page sizes in bytes; both 0: unknown */
	uint64_t pages;              /* distinct pages the range touches (0: unknown) */
	char source[128];            /* where they were read, or why they are unknown */
};

/* Fills *ret for [addr, addr + len) with bt_page_size() on backend a, one
 * call per page. Unknown (with the reason in source) when the backend
 * cannot read the tables or any page of the range fails. */
void bt_page_span_read(struct bt_arch *a, const void *addr, uint64_t len,
		       struct bt_page_span *ret);

/* "4 KiB", "2 MiB", "4 KiB..2 MiB", "unknown" for messages. */
void bt_page_span_sizes(const struct bt_page_span *s, char *buf, size_t len);

/* "4 KiB" / "2 MiB" / "1 GiB" / "<n> bytes". */
void bt_page_size_text(uint64_t bytes, char *buf, size_t len);

#endif
