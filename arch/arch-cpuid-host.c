/* SPDX-License-Identifier: MIT */
/*
 * A hosted backend for Linux user space: CPUID, RDTSC and XGETBV are real
 * (they work in ring 3), everything privileged refuses with
 * BT_ERR_UNSUPPORTED.
 * It lets `baretop-host detect` show what baretop would see of this CPU
 * from CPUID alone; counting needs the EFI app (or the simulated PMU).
 */
#include "arch/arch-cpuid-host.h"

static void host_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret)
{
	(void)a;
	__asm__ volatile("cpuid"
			 : "=a"(ret->eax), "=b"(ret->ebx), "=c"(ret->ecx), "=d"(ret->edx)
			 : "a"(leaf), "c"(subleaf));
}

static uint64_t host_rdtsc(struct bt_arch *a)
{
	uint32_t lo, hi;

	(void)a;
	/* Fenced on both sides, as the hardware backend (SDM vol. 2B, RDTSC). */
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

/* XGETBV runs in ring 3 once the OS set CR4.OSXSAVE (CPUID.01H:ECX[27]),
 * which every x86-64 Linux with AVX support does. */
static bt_status host_xgetbv(struct bt_arch *a, uint32_t xcr, uint64_t *ret)
{
	struct bt_cpuid r;
	uint32_t lo, hi;

	host_cpuid(a, 1, 0, &r);
	if (!(r.ecx & (1u << 27)))
		return BT_ERR_UNSUPPORTED;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
	*ret = (uint64_t)hi << 32 | lo;
	return BT_OK;
}

uint64_t bt_arch_host_user_rdpmc(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return (uint64_t)hi << 32 | lo;
}

static bt_status refuse_rd(struct bt_arch *a, uint32_t x, uint64_t *ret)
{
	(void)a; (void)x; (void)ret;
	return BT_ERR_UNSUPPORTED;
}

static bt_status refuse_wr(struct bt_arch *a, uint32_t x, uint64_t v)
{
	(void)a; (void)x; (void)v;
	return BT_ERR_UNSUPPORTED;
}

static uint64_t no_cr4(struct bt_arch *a)
{
	(void)a;
	return 0;
}

static void no_write_cr4(struct bt_arch *a, uint64_t v)
{
	(void)a; (void)v;
}

static uint64_t no_irq_save(struct bt_arch *a)
{
	(void)a;
	return 0;
}

static void no_irq_restore(struct bt_arch *a, uint64_t s)
{
	(void)a; (void)s;
}

static bt_status no_window(struct bt_arch *a, uint32_t msr, uint64_t start, uint64_t stop,
			   bt_window_fn *fn, void *arg)
{
	(void)a; (void)msr; (void)start; (void)stop; (void)fn; (void)arg;
	return BT_ERR_UNSUPPORTED;
}

/* Ring 3 cannot read CR3 (MOV from CR3 raises #GP at CPL 3): the page
 * sizes of hosted memory come from /proc/self/smaps in host/ instead. */
static bt_status no_page_size(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
			      unsigned *ret_levels)
{
	(void)a; (void)linear; (void)ret_bytes; (void)ret_levels;
	return BT_ERR_UNSUPPORTED;
}

static const struct bt_arch_ops host_ops = {
	.cpuid = host_cpuid,
	.rdmsr = refuse_rd,
	.wrmsr = refuse_wr,
	.rdpmc = refuse_rd,
	.rdtsc = host_rdtsc,
	.xgetbv = host_xgetbv,
	.xsetbv = refuse_wr,
	.read_cr4 = no_cr4,
	.write_cr4 = no_write_cr4,
	.irq_save = no_irq_save,
	.irq_restore = no_irq_restore,
	.run_window = no_window,
	.page_size = no_page_size,
};

struct bt_arch *bt_arch_cpuid_host(void)
{
	static struct bt_arch a = {
		.name = "hosted (CPUID only, no MSR access)",
		.simulated = false,
		.ops = &host_ops,
	};
	return &a;
}
