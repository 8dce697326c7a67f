/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "app/kernel-ticks.h"

#include "app/kernel-cpu.h"
#include "arch/xstate.h"
#include "pmu/measure.h"

#define TICK_WARMUPS 1
#define TICK_REPS 3

uint64_t bt_kernel_ticks_size(const struct bt_kernel *k, int which)
{
	uint64_t n1 = k->n_quick ? k->n_quick : 1;

	if (2 * n1 > k->n_max)
		n1 = k->n_max / 2;
	return which == 2 ? 2 * n1 : n1;
}

/* For a kernel with counts declared per page size: the pages that mapped
 * its buffer, where they were read, and what the counts are on them. */
static void print_pages(const struct bt_kernel *k, const struct bt_kernel_state *st, FILE *f)
{
	if (!bt_kernel_count_per_page(k, NULL))
		return;
	fprintf(f, "kernel-ticks-pages %s %llu %llu %llu %llu %llu", k->name,
		(unsigned long long)st->n, (unsigned long long)st->buf_bytes,
		(unsigned long long)st->pages.smallest, (unsigned long long)st->pages.largest,
		(unsigned long long)st->pages.pages);
	for (int i = 0; k->paged && i < BT_KERNEL_MAX_PAGED && k->paged[i].count.name; i++) {
		const char *name = k->paged[i].count.name;
		int64_t v;
		bool first = true;

		for (int j = 0; j < i; j++)
			if (strcmp(k->paged[j].count.name, name) == 0)
				first = false;
		if (!first)
			continue;
		if (bt_kernel_count_on(k, name, st->n, &st->pages, &v))
			fprintf(f, " %s=%lld", name, (long long)v);
		else
			fprintf(f, " %s=undeclared", name);
	}
	fprintf(f, " source: %s\n", st->pages.source);
}

static bt_status time_one(struct bt_arch *arch, const struct bt_kernel *k, uint64_t n,
			  const struct bt_kernel_cpu *cpu, FILE *f)
{
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };
	struct bt_timing t;
	bt_status s = bt_kernel_setup(k, n, cpu, &st, &d);

	if (s == BT_ERR_UNSUPPORTED) {
		fprintf(f, "kernel-ticks-skip %s %s\n", k->name, d.text);
		return BT_OK;
	}
	if (s != BT_OK) {
		fprintf(f, "kernel-ticks-error %s %s\n", k->name, d.text);
		return s;
	}
	struct bt_measure_workload wl = { .run = k->run, .arg = &st };
	s = bt_time_workload(arch, &wl, TICK_WARMUPS, TICK_REPS, true, &t, &d);
	if (s == BT_OK)
		fprintf(f, "kernel-ticks %s %llu %llu %llu %u\n", k->name, (unsigned long long)n,
			(unsigned long long)t.min, (unsigned long long)t.max, t.runs);
	else
		fprintf(f, "kernel-ticks-error %s %s\n", k->name, d.text);
	print_pages(k, &st, f);
	bt_kernel_teardown(k, &st);
	return s;
}

bt_status bt_kernel_ticks_run(struct bt_arch *arch,
			      void (*pages)(const void *addr, uint64_t len, struct bt_page_span *ret),
			      FILE *f)
{
	struct bt_xstate xs;
	struct bt_kernel_cpu cpu;
	bt_status worst = BT_OK;

	/* The AVX / AVX-512 kernels need their register state enabled. */
	bt_xstate_enable(arch, &xs);
	bt_kernel_cpu_detect(arch, &cpu);
	cpu.pages = pages;
	fprintf(f, "kernel-ticks-cpu avx=%d fma=%d avx512f=%d l1d=%llu (%s)\n", cpu.isa.avx,
		cpu.isa.fma, cpu.isa.avx512f, (unsigned long long)cpu.l1d_bytes, xs.note);
	for (int i = 0; i < bt_n_kernels; i++) {
		for (int which = 1; which <= 2; which++) {
			const struct bt_kernel *k = bt_kernels[i];
			bt_status s = time_one(arch, k, bt_kernel_ticks_size(k, which), &cpu, f);

			if (s != BT_OK)
				worst = s;		}
	}
	fprintf(f, "kernel-ticks-done\n");
	fflush(f);
	bt_xstate_restore(arch, &xs);
	return worst;
}
