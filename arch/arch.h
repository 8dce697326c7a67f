/* SPDX-License-Identifier: MIT */
/*
 * The one seam through which baretop executes instructions that touch the
 * hardware: CPUID, RDMSR, WRMSR, RDPMC, RDTSC, XGETBV/XSETBV, CR4, interrupt
 * masking, the counting window, and reading the page tables (CR3). Two
 * backends implement it:
 *
 *   arch/arch-hw-ring0.c  the real instructions (ring 0, UEFI). RDMSR/WRMSR/
 *                   RDPMC/XSETBV go through the fault guard, so a #GP or #UD
 *                   comes back as BT_ERR_FAULT instead of killing the machine.
 *   arch/arch-cpuid-host.c  Linux user space: CPUID, RDTSC, XGETBV only.
 *   arch/sim/       a model of the Intel SDM / AMD APM register semantics,
 *                   hosted or in the EFI app, never chosen automatically.
 *
 * Nothing outside the backends executes these instructions (cf. EDK2's
 * AsmReadMsr64 filter hooks: all MSR traffic can be traced in one place).
 */
#ifndef ARCH_ARCH_H
#define ARCH_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "base/status.h"

struct bt_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

/* Exception vectors the fault guard turns into BT_ERR_FAULT. */
enum {
	BT_VEC_UD = 6,  /* invalid opcode (RDPMC under QEMU TCG, XSETBV w/o OSXSAVE) */
	BT_VEC_GP = 13, /* general protection (reserved MSR bits, missing MSR) */
	BT_VEC_PF = 14, /* page fault (only the page-table walk's loads catch it) */
};

struct bt_arch;

/* The body of a counting window: runs between the start and stop writes. */
typedef void bt_window_fn(void *arg);

struct bt_arch_ops {
	void (*cpuid)(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret);
	bt_status (*rdmsr)(struct bt_arch *a, uint32_t msr, uint64_t *ret);
	bt_status (*wrmsr)(struct bt_arch *a, uint32_t msr, uint64_t value);
	/* ECX as the instruction takes it: bit 30 selects the fixed counters,
	 * bit 29 reads PERF_METRICS (SDM vol. 2B, RDPMC; see pmu/msr.h). */
	bt_status (*rdpmc)(struct bt_arch *a, uint32_t ecx, uint64_t *ret);
	uint64_t (*rdtsc)(struct bt_arch *a);
	bt_status (*xgetbv)(struct bt_arch *a, uint32_t xcr, uint64_t *ret);
	bt_status (*xsetbv)(struct bt_arch *a, uint32_t xcr, uint64_t value);
	uint64_t (*read_cr4)(struct bt_arch *a);
	void (*write_cr4)(struct bt_arch *a, uint64_t value);
	/* Mask maskable interrupts; returns the state irq_restore needs. */
	uint64_t (*irq_save)(struct bt_arch *a);
	void (*irq_restore)(struct bt_arch *a, uint64_t state);
	/*
	 * The counting window: WRMSR(msr, start); fn(arg); WRMSR(msr, stop),
	 * with as few other instructions in between as the backend can manage
	 * (the hardware one is a short assembly routine; see its comment for
	 * the count). Returns BT_ERR_FAULT if either write faults.
	 */
	bt_status (*run_window)(struct bt_arch *a, uint32_t msr, uint64_t start,
				uint64_t stop, bt_window_fn *fn, void *arg);
	/*
	 * The size of the page that maps `linear` in the current address
	 * space, read from the paging structures CR3 points to (4- or 5-level,
	 * CR4.LA57), and the number of levels. May be NULL: as
	 * BT_ERR_UNSUPPORTED (arch/paging.h).
	 */
	bt_status (*page_size)(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
			       unsigned *ret_levels);
	/*
	 * May be NULL (nothing to do; the hardware has nothing to do). Says
	 * that the next window runs only iterations [begin, end) of the
	 * `total` of its body: pmu/measure.c splits a long run into several
	 * windows. The simulated PMU counts that share of its source's counts
	 * per window, so the windows of one split run add up to exactly one
	 * whole run (arch/sim/sim-count.c).
	 */
	void (*window_part)(struct bt_arch *a, uint64_t begin, uint64_t end, uint64_t total);
};

struct bt_arch {
	const char *name;              /* "hardware" or "simulated" */
	bool simulated;                /* every output labels simulated counts */
	const struct bt_arch_ops *ops;
	void *ctx;                     /* backend state */
	uint8_t fault_vector;          /* vector of the last BT_ERR_FAULT */
	uint64_t fault_count;          /* faults seen since the backend started */
};

static inline void bt_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf,
			    struct bt_cpuid *ret)
{
	a->ops->cpuid(a, leaf, subleaf, ret);
}

static inline bt_status bt_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *ret)
{
	return a->ops->rdmsr(a, msr, ret);
}

static inline bt_status bt_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t value)
{
	return a->ops->wrmsr(a, msr, value);
}

static inline bt_status bt_rdpmc(struct bt_arch *a, uint32_t ecx, uint64_t *ret)
{
	return a->ops->rdpmc(a, ecx, ret);
}

static inline uint64_t bt_rdtsc(struct bt_arch *a)
{
	return a->ops->rdtsc(a);
}

/* XCR0 and CR4 (arch/xstate.c enables the AVX state with them). XGETBV and
 * XSETBV raise #UD while CR4.OSXSAVE is clear, XSETBV #GP for an invalid
 * XCR0 combination (SDM vol. 2, XGETBV/XSETBV; vol. 1, 13.3): both come
 * back as BT_ERR_FAULT. */
static inline bt_status bt_xgetbv(struct bt_arch *a, uint32_t xcr, uint64_t *ret)
{
	return a->ops->xgetbv(a, xcr, ret);
}

static inline bt_status bt_xsetbv(struct bt_arch *a, uint32_t xcr, uint64_t value)
{
	return a->ops->xsetbv(a, xcr, value);
}

static inline uint64_t bt_read_cr4(struct bt_arch *a)
{
	return a->ops->read_cr4(a);
}

static inline void bt_write_cr4(struct bt_arch *a, uint64_t value)
{
	a->ops->write_cr4(a, value);
}

/* Masks maskable interrupts; the returned state goes to bt_irq_restore. */
static inline uint64_t bt_irq_save(struct bt_arch *a)
{
	return a->ops->irq_save(a);
}

static inline void bt_irq_restore(struct bt_arch *a, uint64_t state)
{
	a->ops->irq_restore(a, state);
}

/* The part of its body the next window runs (bt_arch_ops.window_part). */
static inline void bt_window_part(struct bt_arch *a, uint64_t begin, uint64_t end,
				  uint64_t total)
{
	if (a->ops->window_part)
		a->ops->window_part(a, begin, end, total);
}

/* The counting window (bt_arch_ops.run_window). */
static inline bt_status bt_run_window(struct bt_arch *a, uint32_t msr, uint64_t start,
				      uint64_t stop, bt_window_fn *fn, void *arg)
{
	return a->ops->run_window(a, msr, start, stop, fn, arg);
}

/*
 * The page size (4 KiB, 2 MiB, 1 GiB) mapping a linear address of baretop's
 * own memory (arch/paging.h): ring 0 walks the tables CR3 points to, which
 * UEFI identity-maps (UEFI 2.10, 2.3.4), reading each entry through the
 * fault guard (#PF or #GP: BT_ERR_FAULT). BT_ERR_UNSUPPORTED where the
 * backend cannot read them: hosted (ring 3 cannot read CR3; host/ asks
 * /proc/self/smaps instead), the simulated PMU (which models no paging),
 * or the guard not yet in place. BT_ERR_NOT_FOUND: not mapped.
 */
static inline bt_status bt_page_size(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
				     unsigned *ret_levels)
{
	if (!a->ops->page_size)
		return BT_ERR_UNSUPPORTED;
	return a->ops->page_size(a, linear, ret_bytes, ret_levels);
}

/* "#GP" / "#UD" / "#6"... for messages about the last fault. */
const char *bt_fault_name(uint8_t vector);

#endif
