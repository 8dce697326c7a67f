/* SPDX-License-Identifier: MIT */
/*
 * Known-count kernels: small pieces of code whose architectural event counts
 * are known exactly (or as a stated range) as formulas of one size
 * parameter n. They are what `--validate` runs to show that a PMU event
 * counts what its definition says.
 *
 * Each kernel declares its counts as data next to its code, as
 *
 *     count = c0 + c1 * n        (per run of the measured body)
 *
 * under a name from the list below (BT_KC_*), so a validation spec can say
 * "INST_RETIRED.ANY must equal k.instructions" for any kernel. c0 includes
 * everything the body executes from its first instruction to its `ret`
 * (the window's own call and the driver's instructions are the window
 * overhead, measured by calibration and subtracted: pmu/measure.h).
 *
 * Bodies whose instruction sequence matters are written as file-scope
 * assembly, so gcc and clang, hosted and EFI builds run the same bytes and
 * the same counts hold for all of them.
 *
 * The declarations are checked against counters baretop did not write: the
 * instruction count by QEMU's -icount TSC (EFI build), instructions,
 * conditional/indirect branches and data reads/writes by valgrind's
 * cachegrind (hosted build); kernels/README.md lists what each check covers
 * and which declarations neither can verify.
 */
#ifndef KERNELS_KERNEL_H
#define KERNELS_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "arch/cpuid.h"
#include "arch/paging.h"

/* Names of declared counts (the `name` of struct bt_kcount); a kernel
 * declares only those it knows exactly. More may be added: a spec names a
 * count by its string, never by its index. */
#define BT_KC_INSTRUCTIONS   "instructions"     /* instructions retired (a REP string op is 1) */
#define BT_KC_BRANCHES       "branches"         /* all branch instructions retired */
#define BT_KC_COND           "cond"             /* conditional branches (Jcc) retired */
#define BT_KC_COND_TAKEN     "cond_taken"
#define BT_KC_COND_NOT_TAKEN "cond_not_taken"
#define BT_KC_JMP_DIRECT     "jmp_direct"       /* unconditional direct near jumps */
#define BT_KC_NEAR_CALLS     "near_calls"       /* direct and indirect near calls */
#define BT_KC_NEAR_RETURNS   "near_returns"
#define BT_KC_INDIRECT       "indirect"         /* indirect near jumps and calls (not RET) */
#define BT_KC_LOADS          "loads"            /* instructions that read data memory, RET and POP included */
#define BT_KC_STORES         "stores"           /* instructions that write data memory, CALL and PUSH included */
#define BT_KC_RANDOM_COND    "random_cond"      /* conditional branches with PRNG directions */
#define BT_KC_DIVIDES        "divides"          /* integer divide instructions */
/* String, memory and divide kernels: */
#define BT_KC_REP_INSTRUCTIONS "rep_instructions" /* REP-prefixed string instructions retired (each 1) */
#define BT_KC_REP_ITERATIONS "rep_iterations"   /* their element iterations: emulators (QEMU TCG icount,
						 * valgrind) execute a REP iterations + 1 times */
#define BT_KC_LINE_LOADS     "line_loads"       /* loads each to a line not touched for >= 8 x L1D bytes */
#define BT_KC_PAGE_LOADS     "page_loads"       /* loads each to a page (of the size mapping the
						 * kernel's buffer) not touched for > 4000 loads */
#define BT_KC_DEP_CHAIN      "dep_chain"        /* dependent 1-cycle-latency ALU ops (cycles >= this) */
/* FP_ARITH_INST_RETIRED semantics (event 0xC7 in Intel's perfmon event
 * lists): one per computational FP instruction of that width and precision
 * (ADD SUB MUL DIV MIN MAX SQRT, HADD HSUB SUBADD for packed ones; not moves,
 * logic, compares, conversions), FM(N)ADD/SUB and DPP counting 2. Per
 * instruction, not per element. (The lists ask for MXCSR.DAZ/FTZ: the FP
 * kernels compute on zeros, so no denormal ever occurs.) */
#define BT_KC_FP_SCALAR_SINGLE "fp_scalar_single"
#define BT_KC_FP_SCALAR_DOUBLE "fp_scalar_double"
#define BT_KC_FP_128_SINGLE  "fp_128_single"
#define BT_KC_FP_128_DOUBLE  "fp_128_double"
#define BT_KC_FP_256_SINGLE  "fp_256_single"
#define BT_KC_FP_256_DOUBLE  "fp_256_double"
#define BT_KC_FP_512_SINGLE  "fp_512_single"
#define BT_KC_FP_512_DOUBLE  "fp_512_double"
#define BT_KC_FP_FMA         "fp_fma"           /* FMA instructions (each already counts 2 above) */
#define BT_KC_FP_FLOPS       "fp_flops"         /* element operations: lanes x (2 for an FMA, else 1) */

#define BT_KERNEL_MAX_COUNTS 24

struct bt_kcount {
	const char *name;           /* BT_KC_* or another documented name */
	int64_t c0, c1;             /* count = c0 + c1 * n */
};

/*
 * A count that holds only when every page mapping the kernel's buffer is
 * page_lo to page_hi bytes (a TLB-miss count: UEFI maps memory with 2 MiB
 * and 1 GiB pages, hosted Linux with 4 KiB ones or THP). A kernel may
 * declare the same name once per page-size range (ranges that do not
 * overlap); where the pages are unknown, or mixed across two ranges, the
 * count is not declared.
 */
struct bt_kcount_paged {
	struct bt_kcount count;
	uint64_t page_lo, page_hi;
};

#define BT_KERNEL_MAX_PAGED 4

/* What the caller tells a kernel about the CPU (from CPUID and XCR0,
 * established outside kernels/: kernels never execute CPUID) and how to
 * learn which pages map a buffer (kernels never read page tables). */
struct bt_kernel_cpu {
	struct bt_cpu_features isa; /* which vector ISA is usable (arch/cpuid.h) */
	uint64_t l1d_bytes;         /* 0 = unknown: kernels that need it use 48 KiB */
	/* The pages that map [addr, addr + len) (struct bt_platform's
	 * memory_pages: the page tables under UEFI, /proc/self/smaps hosted).
	 * bt_kernel_setup asks it for the buffer of a kernel that declares
	 * counts per page size. NULL: the pages stay unknown. */
	void (*pages)(const void *addr, uint64_t len, struct bt_page_span *ret);
};

/* A kernel's state between setup and teardown: what its body reads. */
struct bt_kernel_state {
	uint64_t n;
	void *buf;                  /* kernel-owned memory (malloc), or NULL */
	uint64_t buf_bytes;
	uint64_t aux[8];            /* kernel-specific words the body reads */
	uint64_t sink;              /* results the body leaves (keeps work alive) */
	/* The pages mapping buf, for a kernel with counts declared per page
	 * size (read after setup, through bt_kernel_cpu.pages); else unknown. */
	struct bt_page_span pages;
};

struct bt_kernel {
	const char *name;           /* "loop-dec-jnz" */
	const char *summary;        /* one line */
	const char *n_means;        /* what n counts: "iterations", "bytes", ... */
	uint64_t n_default, n_quick, n_min, n_max;
	/* Allocates what the body needs; BT_ERR_UNSUPPORTED (with a message)
	 * when the CPU lacks something (AVX-512...). NULL: nothing to set up. */
	bt_status (*setup)(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			   struct bt_diag *d);
	bt_window_fn *run;          /* the measured body; arg = struct bt_kernel_state * */
	void (*teardown)(struct bt_kernel_state *st);  /* NULL: nothing */
	/* The declared counts, BT_KCOUNTS(...): at most BT_KERNEL_MAX_COUNTS
	 * - 1, then the end marker (name == NULL) the macro adds. */
	const struct bt_kcount *counts;
	/* Counts declared per page size of the buffer, BT_KPAGED(...), or
	 * NULL; a name is either here or in counts, never in both. */
	const struct bt_kcount_paged *paged;
};

/* A kernel's counts and paged counts as arrays of their own length with an
 * end marker, not fixed arrays in struct bt_kernel: 24 + 4 slots in each
 * of 28 kernels would be 23 KB of baretop.efi, mostly zeros. */
#define BT_KCOUNTS(...) ((const struct bt_kcount[]){ __VA_ARGS__, { NULL, 0, 0 } })
#define BT_KPAGED(...) ((const struct bt_kcount_paged[]){ __VA_ARGS__, { { NULL, 0, 0 }, 0, 0 } })

/* Every built-in kernel, in a stable order. */
extern const struct bt_kernel *const bt_kernels[];
extern const int bt_n_kernels;

const struct bt_kernel *bt_kernel_find(const char *name);

/* The declared count `name` at size n; false when the kernel does not
 * declare it, or declares it only per page size (bt_kernel_count_on). */
bool bt_kernel_count(const struct bt_kernel *k, const char *name, uint64_t n, int64_t *ret);

/* As bt_kernel_count, for a buffer mapped by `pages` (NULL: unknown): a
 * count declared per page size is declared when one of its entries covers
 * both the smallest and the largest page of the buffer. */
bool bt_kernel_count_on(const struct bt_kernel *k, const char *name, uint64_t n,
			const struct bt_page_span *pages, int64_t *ret);

/* Whether k declares `name` (NULL: any count) only per page size. */
bool bt_kernel_count_per_page(const struct bt_kernel *k, const char *name);

/* setup (with st->n = n) / teardown, checking n against n_min..n_max. */
bt_status bt_kernel_setup(const struct bt_kernel *k, uint64_t n, const struct bt_kernel_cpu *cpu,
			  struct bt_kernel_state *st, struct bt_diag *d);
void bt_kernel_teardown(const struct bt_kernel *k, struct bt_kernel_state *st);

#endif
