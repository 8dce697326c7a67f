/* SPDX-License-Identifier: MIT */
/* The CPUID-dump backend: see arch/sim/cpuid-dump-cpu.h. */
#include "arch/sim/cpuid-dump-cpu.h"

#include <string.h>

#include "arch/sim/sim-regs.h"

static void dump_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret)
{
	const struct bt_arch_dump *d = a->ctx;
	*ret = bt_cpuid_dump_get(d->group, leaf, subleaf);
}

static bt_status gp(struct bt_arch *a)
{
	a->fault_vector = BT_VEC_GP;
	a->fault_count++;
	return BT_ERR_FAULT;
}

static bt_status dump_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *ret)
{
	const struct bt_arch_dump *d = a->ctx;
	if (msr == SIM_IA32_PERF_CAPABILITIES && d->has_perf_capabilities) {
		*ret = d->perf_capabilities;
		return BT_OK;
	}
	return gp(a);
}

static bt_status dump_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t v)
{
	(void)msr; (void)v;
	return gp(a);
}

static bt_status dump_rdpmc(struct bt_arch *a, uint32_t ecx, uint64_t *ret)
{
	(void)ecx; (void)ret;
	a->fault_vector = BT_VEC_UD;
	a->fault_count++;
	return BT_ERR_FAULT;
}

static uint64_t dump_rdtsc(struct bt_arch *a)
{
	(void)a;
	return 0;
}

static bt_status dump_xgetbv(struct bt_arch *a, uint32_t xcr, uint64_t *ret)
{
	(void)a; (void)xcr; (void)ret;
	return BT_ERR_UNSUPPORTED;
}

static bt_status dump_xsetbv(struct bt_arch *a, uint32_t xcr, uint64_t v)
{
	(void)a; (void)xcr; (void)v;
	return BT_ERR_UNSUPPORTED;
}

static uint64_t dump_read_cr4(struct bt_arch *a)
{
	(void)a;
	return 0;
}

static void dump_write_cr4(struct bt_arch *a, uint64_t v)
{
	(void)a; (void)v;
}

static uint64_t dump_irq_save(struct bt_arch *a)
{
	(void)a;
	return 0;
}

static void dump_irq_restore(struct bt_arch *a, uint64_t s)
{
	(void)a; (void)s;
}

static bt_status dump_window(struct bt_arch *a, uint32_t msr, uint64_t start, uint64_t stop,
			     bt_window_fn *fn, void *arg)
{
	(void)msr; (void)start; (void)stop; (void)fn; (void)arg;
	return gp(a);
}

static const struct bt_arch_ops dump_ops = {
	.cpuid = dump_cpuid,
	.rdmsr = dump_rdmsr,
	.wrmsr = dump_wrmsr,
	.rdpmc = dump_rdpmc,
	.rdtsc = dump_rdtsc,
	.xgetbv = dump_xgetbv,
	.xsetbv = dump_xsetbv,
	.read_cr4 = dump_read_cr4,
	.write_cr4 = dump_write_cr4,
	.irq_save = dump_irq_save,
	.irq_restore = dump_irq_restore,
	.run_window = dump_window,
};

void bt_arch_dump_init(struct bt_arch_dump *a, const struct bt_cpuid_dump_group *g)
{
	memset(a, 0, sizeof(*a));
	a->arch.name = "CPUID dump";
	a->arch.ops = &dump_ops;
	a->arch.ctx = a;
	a->group = g;
}
