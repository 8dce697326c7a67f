/* SPDX-License-Identifier: MIT */
/*
 * The hardware backend: the only C file that executes privileged
 * instructions. The ones that can fault live in arch/x86-guarded.S.
 */
#include <stddef.h>

#include "arch/arch-hw.h"
#include "base/array.h"
#include "arch/paging.h"

/* arch/x86-guarded.S */
uint32_t bt_hw_rdmsr(uint32_t msr, uint64_t *ret);
uint32_t bt_hw_wrmsr(uint32_t msr, uint64_t value);
uint32_t bt_hw_rdpmc(uint32_t ecx, uint64_t *ret);
uint32_t bt_hw_xgetbv(uint32_t xcr, uint64_t *ret);
uint32_t bt_hw_xsetbv(uint32_t xcr, uint64_t value);
uint32_t bt_hw_load64(uint64_t addr, uint64_t *ret);
uint32_t bt_hw_run_window(uint32_t msr, uint64_t start, uint64_t stop,
			  bt_window_fn *fn, void *arg);

/* Faulting instruction -> resume address, as labels in x86-guarded.S. */
extern const char bt_hw_rdmsr_insn[], bt_hw_rdmsr_resume[];
extern const char bt_hw_wrmsr_insn[], bt_hw_wrmsr_resume[];
extern const char bt_hw_rdpmc_insn[], bt_hw_rdpmc_resume[];
extern const char bt_hw_xgetbv_insn[], bt_hw_xgetbv_resume[];
extern const char bt_hw_xsetbv_insn[], bt_hw_xsetbv_resume[];
extern const char bt_hw_load64_insn[], bt_hw_load64_resume[];
extern const char bt_hw_ud2_insn[], bt_hw_ud2_resume[];
extern const char bt_hw_window_start_insn[], bt_hw_window_start_resume[];
extern const char bt_hw_window_stop_insn[], bt_hw_window_stop_resume[];

bool bt_hw_fault_fixup(uint8_t vector, uint64_t *rip, uint64_t *rax)
{
	/* Built on each call: the code is position-independent and relocated
	 * at load time, so the addresses are only known at run time. */
	const struct {
		const char *insn, *resume;
		bool page_fault;   /* #PF is caught too (a load, not an instruction fault) */
	} fixups[] = {
		{ bt_hw_rdmsr_insn, bt_hw_rdmsr_resume, false },
		{ bt_hw_wrmsr_insn, bt_hw_wrmsr_resume, false },
		{ bt_hw_rdpmc_insn, bt_hw_rdpmc_resume, false },
		{ bt_hw_xgetbv_insn, bt_hw_xgetbv_resume, false },
		{ bt_hw_xsetbv_insn, bt_hw_xsetbv_resume, false },
		{ bt_hw_ud2_insn, bt_hw_ud2_resume, false },
		{ bt_hw_window_start_insn, bt_hw_window_start_resume, false },
		{ bt_hw_window_stop_insn, bt_hw_window_stop_resume, false },
		{ bt_hw_load64_insn, bt_hw_load64_resume, true },
	};

	if (vector != BT_VEC_GP && vector != BT_VEC_UD && vector != BT_VEC_PF)
		return false;
	for (size_t i = 0; i < BT_ARRAY_SIZE(fixups); i++) {
		if (vector == BT_VEC_PF && !fixups[i].page_fault)
			continue;
		if (*rip == (uint64_t)(uintptr_t)fixups[i].insn) {
			*rip = (uint64_t)(uintptr_t)fixups[i].resume;
			*rax = vector;
			return true;
		}
	}
	return false;
}

static bool guard_active;

void bt_arch_hw_set_guarded(bool guarded)
{
	guard_active = guarded;
}

bool bt_arch_hw_guarded(void)
{
	return guard_active;
}

static bt_status fault(struct bt_arch *a, uint32_t vector)
{
	a->fault_vector = (uint8_t)vector;
	a->fault_count++;
	return BT_ERR_FAULT;
}

static void hw_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret)
{
	__asm__ volatile("cpuid"
			 : "=a"(ret->eax), "=b"(ret->ebx), "=c"(ret->ecx), "=d"(ret->edx)
			 : "a"(leaf), "c"(subleaf));
}

static bt_status hw_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *ret)
{
	uint64_t v = 0;
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_rdmsr(msr, &v);

	if (vec)
		return fault(a, vec);
	*ret = v;
	return BT_OK;
}

static bt_status hw_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t value)
{
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_wrmsr(msr, value);

	return vec ? fault(a, vec) : BT_OK;
}

static bt_status hw_rdpmc(struct bt_arch *a, uint32_t ecx, uint64_t *ret)
{
	uint64_t v = 0;
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_rdpmc(ecx, &v);

	if (vec)
		return fault(a, vec);
	*ret = v;
	return BT_OK;
}

static uint64_t hw_rdtsc(struct bt_arch *a)
{
	uint32_t lo, hi;

	/* SDM vol. 2B, RDTSC: LFENCE before it so earlier instructions are
	 * done, and after it so later ones (a timed body) do not start before
	 * the counter is read. */
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static bt_status hw_xgetbv(struct bt_arch *a, uint32_t xcr, uint64_t *ret)
{
	uint64_t v = 0;
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_xgetbv(xcr, &v);

	if (vec)
		return fault(a, vec);
	*ret = v;
	return BT_OK;
}

static bt_status hw_xsetbv(struct bt_arch *a, uint32_t xcr, uint64_t value)
{
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_xsetbv(xcr, value);

	return vec ? fault(a, vec) : BT_OK;
}

static uint64_t hw_read_cr4(struct bt_arch *a)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static void hw_write_cr4(struct bt_arch *a, uint64_t value)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(value) : "memory");
}

static uint64_t hw_irq_save(struct bt_arch *a)
{
	uint64_t flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static void hw_irq_restore(struct bt_arch *a, uint64_t flags)
{
	/* RFLAGS.IF is bit 9; only re-enable what was enabled before. */
	if (flags & (1u << 9))
		__asm__ volatile("sti" : : : "memory");
}

bool bt_hw_rdrand64(uint64_t *ret)
{
	uint32_t a, b, c, d;

	/* CPUID.01H:ECX.RDRAND[bit 30] (SDM vol. 2A, CPUID, table 3-10). */
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 30)))
		return false;
	/* CF=0 means no random value was ready; Intel's DRNG software guide
	 * says to retry, and that 10 failures in a row mean a broken part. */
	for (int i = 0; i < 10; i++) {
		uint64_t v;
		uint8_t ok;

		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		if (ok) {
			*ret = v;
			return true;
		}
	}
	return false;
}

_Noreturn void bt_hw_park_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

_Noreturn void bt_hw_halt_forever(void)
{
	for (;;)
		__asm__ volatile("hlt");
}

static bt_status hw_run_window(struct bt_arch *a, uint32_t msr, uint64_t start, uint64_t stop,
			       bt_window_fn *fn, void *arg)
{
	uint32_t vec;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	vec = bt_hw_run_window(msr, start, stop, fn, arg);

	return vec ? fault(a, vec) : BT_OK;
}

/* MAXPHYADDR for the walk's address masks (SDM vol. 3A, 4.1.4). */
static unsigned hw_phys_bits(struct bt_arch *a)
{
	struct bt_cpuid r;

	hw_cpuid(a, 0x80000000, 0, &r);
	if (r.eax < 0x80000008)
		return 36; /* SDM: MAXPHYADDR is 36 where the leaf is missing */
	hw_cpuid(a, 0x80000008, 0, &r);
	return r.eax & 0xff;
}

static bt_status hw_read_pte(void *ctx, uint64_t phys, uint64_t *ret)
{
	struct bt_arch *a = ctx;
	uint32_t vec = bt_hw_load64(phys, ret);

	return vec ? fault(a, vec) : BT_OK;
}

static bt_status hw_page_size(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
			      unsigned *ret_levels)
{
	struct bt_paging_regs r;

	if (!guard_active)
		return BT_ERR_UNSUPPORTED;
	/* MOV from CR3/CR4 cannot fault at CPL 0 (SDM vol. 2B, MOV--Move
	 * to/from Control Registers: #GP only if CPL > 0). In 64-bit mode
	 * paging is on and IA-32e (CR0.PG, CR4.PAE, EFER.LME: SDM vol. 3A,
	 * 4.1.1), and UEFI identity-maps memory, so the physical addresses in
	 * the entries can be read as they are (UEFI 2.10, 2.3.4). */
	__asm__ volatile("mov %%cr3, %0" : "=r"(r.cr3));
	r.cr4 = hw_read_cr4(a);
	r.phys_bits = hw_phys_bits(a);
	return bt_paging_walk(&r, linear, hw_read_pte, a, ret_bytes, ret_levels, NULL);
}

static const struct bt_arch_ops hw_ops = {
	.cpuid = hw_cpuid,
	.rdmsr = hw_rdmsr,
	.wrmsr = hw_wrmsr,
	.rdpmc = hw_rdpmc,
	.rdtsc = hw_rdtsc,
	.xgetbv = hw_xgetbv,
	.xsetbv = hw_xsetbv,
	.read_cr4 = hw_read_cr4,
	.write_cr4 = hw_write_cr4,
	.irq_save = hw_irq_save,
	.irq_restore = hw_irq_restore,
	.run_window = hw_run_window,
	.page_size = hw_page_size,
};

struct bt_arch *bt_arch_hw(void)
{
	static struct bt_arch hw = {
		.name = "hardware",
		.simulated = false,
		.ops = &hw_ops,
	};
	return &hw;
}
