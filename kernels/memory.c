/* SPDX-License-Identifier: MIT */
/*
 * Memory kernels, n accesses each:
 *   load-stride   n 8-byte loads 64 bytes apart (one per cache line);
 *   store-stride  n 8-byte stores 64 bytes apart;
 *   l1d-miss      n loads walking a working set of at least 8 x L1D (the
 *                 next power of two), 97 lines apart: an odd number of lines,
 *                 so the walk visits every line before it returns to one, and
 *                 a stride beyond the L1 stride prefetchers' reach (2 KiB);
 *   dtlb-walk     n loads over 16 MiB, 4 KiB + 64 bytes apart. On 4 KiB
 *                 pages (4096 of them) every load is on the next page, and
 *                 a page comes back only after ~4000 others (beyond the DTLB
 *                 and STLB). On 2 MiB pages the same 16 MiB are 8 pages, on
 *                 1 GiB pages 1 or 2, which every DTLB holds: no load walks.
 *                 UEFI firmware maps memory so (EDK2's DXE IPL builds its
 *                 1:1 map from 1 GiB or 2 MiB pages, splitting only around
 *                 address 0, the stack guard and GHCB pages:
 *                 CreateIdentityMappingPageTables in MdeModulePkg/Core/
 *                 DxeIplPeim/X64/VirtualMemory.c), so page_loads is declared
 *                 per page size, and the caller reads the buffer's pages
 *                 from the page tables (arch/paging.h). No stride and size
 *                 would walk on 2 MiB pages within a firmware's memory: an
 *                 STLB of 1536 entries (Skylake) needs > 3 GiB.
 *
 * "loads" and "stores" count instructions that read / write data memory,
 * including the stack accesses of CALL, RET, PUSH, POP: that is what
 * cachegrind's Dr and Dw count (one per instruction here: no instruction
 * below both reads and writes). Intel's MEM_INST_RETIRED.ALL_LOADS /
 * ALL_STORES also count retired instructions with a load / store µop; whether
 * the RET's stack read is among them is not checkable without silicon, so a
 * spec should compare slopes (the c1 part: n) or subtract c0.
 */
#include <string.h>

#include "kernels/kernel.h"
#include "kernels/kernels.h"

#define LINE 64
#define L1D_DEFAULT (48 * 1024)
#define WALK_LINES_APART 97
#define DTLB_BYTES (16u << 20)
#define DTLB_STRIDE (4096 + LINE)

__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_load_stride\n"
	".type bt_kbody_load_stride, @function\n"
	"bt_kbody_load_stride:\n"
	"	movq 0(%rdi), %rcx\n"        /* n >= 1 */
	"	movq 8(%rdi), %rsi\n"        /* buf: n lines */
	"1:	movq (%rsi), %rax\n"
	"	addq $64, %rsi\n"            /* = LINE */
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_load_stride, .-bt_kbody_load_stride\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_store_stride\n"
	".type bt_kbody_store_stride, @function\n"
	"bt_kbody_store_stride:\n"
	"	movq 0(%rdi), %rcx\n"
	"	movq 8(%rdi), %rsi\n"
	"1:	movq %rcx, (%rsi)\n"
	"	addq $64, %rsi\n"
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_store_stride, .-bt_kbody_store_stride\n");

/* The walk over a power-of-two working set: offset = (offset + stride) & mask.
 * aux[0] = mask (bytes - 1), aux[1] = stride. One copy per kernel (per-function
 * profilers tell them apart). */
#define WALK_BODY(sym)                                                          \
	".text\n"                                                               \
	".p2align 4\n"                                                          \
	".globl " sym "\n"                                                      \
	".type " sym ", @function\n"                                            \
	sym ":\n"                                                               \
	"	movq 0(%rdi), %rcx\n"                                           \
	"	movq 8(%rdi), %rsi\n"                                           \
	"	movq 24(%rdi), %rdx\n"                                          \
	"	movq 32(%rdi), %r8\n"                                           \
	"	xorl %eax, %eax\n"                                              \
	"1:	movq (%rsi,%rax), %r9\n"                                        \
	"	addq %r8, %rax\n"                                               \
	"	andq %rdx, %rax\n"                                              \
	"	decq %rcx\n"                                                    \
	"	jnz 1b\n"                                                       \
	"	ret\n"                                                          \
	".size " sym ", .-" sym "\n"

__asm__(WALK_BODY("bt_kbody_l1d_miss") WALK_BODY("bt_kbody_dtlb_walk"));

void bt_kbody_load_stride(void *arg);
void bt_kbody_store_stride(void *arg);
void bt_kbody_l1d_miss(void *arg);
void bt_kbody_dtlb_walk(void *arg);

static bt_status setup_lines(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			     struct bt_diag *d)
{
	return bt_kernel_alloc_buf(st, st->n * LINE, "load/store-stride", d);
}

/* A walk buffer written once (hosted: a calloc'd page not yet written may
 * be the shared zero page, whose lines would all hit). */
static bt_status setup_walk(struct bt_kernel_state *st, uint64_t bytes, uint64_t stride,
			    const char *who, struct bt_diag *d)
{
	bt_status s = bt_kernel_alloc_buf(st, bytes, who, d);

	if (s != BT_OK)
		return s;
	memset(st->buf, 1, (size_t)bytes);
	st->aux[0] = bytes - 1;
	st->aux[1] = stride;
	return BT_OK;
}

static bt_status setup_l1d(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			   struct bt_diag *d)
{
	uint64_t l1d = cpu && cpu->l1d_bytes ? cpu->l1d_bytes : L1D_DEFAULT, bytes = 4096;

	while (bytes < 8 * l1d)
		bytes *= 2;
	return setup_walk(st, bytes, WALK_LINES_APART * LINE, "l1d-miss", d);
}

static bt_status setup_dtlb(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			    struct bt_diag *d)
{
	return setup_walk(st, DTLB_BYTES, DTLB_STRIDE, "dtlb-walk", d);
}

#define LOOP_BRANCHES                                                    \
	{ BT_KC_BRANCHES, 1, 1 },                                        \
	{ BT_KC_COND, 0, 1 },                                            \
	{ BT_KC_COND_TAKEN, -1, 1 },                                     \
	{ BT_KC_COND_NOT_TAKEN, 1, 0 },                                  \
	{ BT_KC_NEAR_CALLS, 0, 0 },                                      \
	{ BT_KC_NEAR_RETURNS, 1, 0 },                                    \
	{ BT_KC_INDIRECT, 0, 0 }

const struct bt_kernel bt_kernel_load_stride = {
	.name = "load-stride",
	.summary = "n 8-byte loads 64 bytes apart",
	.n_means = "loads",
	.n_default = 100000, .n_quick = 2000, .n_min = 1, .n_max = 1 << 20,
	.setup = setup_lines,
	.run = bt_kbody_load_stride,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		/* MOV, MOV + n x (MOV load, ADD, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 3, 4 },
		{ BT_KC_LOADS, 3, 1 },
		{ BT_KC_STORES, 0, 0 },
		LOOP_BRANCHES
	),
};

const struct bt_kernel bt_kernel_store_stride = {
	.name = "store-stride",
	.summary = "n 8-byte stores 64 bytes apart",
	.n_means = "stores",
	.n_default = 100000, .n_quick = 2000, .n_min = 1, .n_max = 1 << 20,
	.setup = setup_lines,
	.run = bt_kbody_store_stride,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		/* MOV, MOV + n x (MOV store, ADD, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 3, 4 },
		{ BT_KC_LOADS, 3, 0 },
		{ BT_KC_STORES, 0, 1 },
		LOOP_BRANCHES
	),
};

#define WALK_COUNTS                                                      \
	/* 4 MOV, XOR + n x (MOV load, ADD, AND, DEC, JNZ) + RET */      \
	{ BT_KC_INSTRUCTIONS, 6, 5 },                                    \
	{ BT_KC_LOADS, 5, 1 },                                           \
	{ BT_KC_STORES, 0, 0 },                                          \
	LOOP_BRANCHES

const struct bt_kernel bt_kernel_l1d_miss = {
	.name = "l1d-miss",
	.summary = "n loads, each to a line last touched >= 8 x L1D bytes of lines ago",
	.n_means = "loads",
	.n_default = 100000, .n_quick = 2000, .n_min = 1, .n_max = UINT64_C(1) << 32,
	.setup = setup_l1d,
	.run = bt_kbody_l1d_miss,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		WALK_COUNTS,
		{ BT_KC_LINE_LOADS, 0, 1 }
	),
};

const struct bt_kernel bt_kernel_dtlb_walk = {
	.name = "dtlb-walk",
	.summary = "n loads 4 KiB + 64 bytes apart over 16 MiB: a page walk each on 4 KiB pages",
	.n_means = "loads",
	.n_default = 100000, .n_quick = 2000, .n_min = 1, .n_max = UINT64_C(1) << 32,
	.setup = setup_dtlb,
	.run = bt_kbody_dtlb_walk,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		WALK_COUNTS
	),
	/* Per page size of the buffer (see the top of this file): on 4 KiB
	 * pages every load; on 2 MiB / 1 GiB pages none after the first touch
	 * of each of the <= 9 pages (a spec states a range for TLB misses
	 * anyway: they are the CPU's). */
	.paged = BT_KPAGED(
		{ { BT_KC_PAGE_LOADS, 0, 1 }, BT_PAGE_4K, BT_PAGE_4K },
		{ { BT_KC_PAGE_LOADS, 0, 0 }, BT_PAGE_2M, BT_PAGE_1G }
	),
};
