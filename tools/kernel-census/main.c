/* SPDX-License-Identifier: MIT */
/*
 * kernel-census: the hosted driver that the suite's `kernel-census` step runs under valgrind's
 * cachegrind to count the known-count kernels with a counter baretop did
 * not write.
 *
 *   kernel-census declare     every kernel's sizes n1 = n_quick, n2 = 2 n1,
 *                             its body's symbol and its declared counts at
 *                             both sizes (what the checkers compare), and
 *                             "skip" for those that cannot run here;
 *   kernel-census run 1|2     sets up every kernel at n1 (or n2), runs each
 *                             body exactly once, tears down. Under cachegrind
 *                             each body is its own function (bt_kbody_*), so
 *                             its per-function totals are one run's counts.
 * A kernel whose setup says BT_ERR_UNSUPPORTED (AVX-512 under valgrind,
 * which hides it from CPUID) is reported as "skip" in both modes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch-cpuid-host.h"
#include "app/kernel-cpu.h"
#include "app/kernel-ticks.h"
#include "kernels/kernel.h"

/* The body's symbol: "bt_kbody_" + the kernel's name with '-' as '_'
 * (the convention every kernels/ file follows; the checker fails a kernel
 * whose symbol cachegrind does not report). */
static void body_symbol(const struct bt_kernel *k, char *buf, size_t size)
{
	snprintf(buf, size, "bt_kbody_%s", k->name);
	for (char *p = buf; *p; p++)
		if (*p == '-')
			*p = '_';
}

/* The same sizes as --kernel-ticks (app/kernel-ticks.c). */
static uint64_t size_of(const struct bt_kernel *k, int which)
{
	return bt_kernel_ticks_size(k, which);
}

/* Whether the kernel can run here (its setup at n1 succeeds). */
static bool usable(const struct bt_kernel *k, const struct bt_kernel_cpu *cpu, char *why,
		   size_t size)
{
	struct bt_kernel_state st;
	struct bt_diag d = { 0 };
	bt_status s = bt_kernel_setup(k, size_of(k, 1), cpu, &st, &d);

	if (s == BT_OK)
		bt_kernel_teardown(k, &st);
	snprintf(why, size, "%s", s == BT_OK ? "" : d.text);
	return s == BT_OK;
}

static int declare(const struct bt_kernel_cpu *cpu)
{
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		char sym[96], why[BT_DIAG_MAX];
		uint64_t n1 = size_of(k, 1), n2 = size_of(k, 2);

		body_symbol(k, sym, sizeof(sym));
		if (!usable(k, cpu, why, sizeof(why)))
			printf("skip %s %s\n", k->name, why);
		printf("kernel %s %s %llu %llu\n", k->name, sym, (unsigned long long)n1,
		       (unsigned long long)n2);
		for (int c = 0; c < BT_KERNEL_MAX_COUNTS && k->counts[c].name; c++) {
			int64_t v1, v2;

			bt_kernel_count(k, k->counts[c].name, n1, &v1);
			bt_kernel_count(k, k->counts[c].name, n2, &v2);
			printf("count %s %s %lld %lld\n", k->name, k->counts[c].name, (long long)v1,
			       (long long)v2);
		}
		/* Counts declared per page size (TLB misses: no emulator
		 * counts them) are listed with their page range. */
		for (int c = 0; k->paged && c < BT_KERNEL_MAX_PAGED && k->paged[c].count.name; c++) {
			const struct bt_kcount_paged *p = &k->paged[c];

			printf("count-pages %s %s %llu %llu %lld %lld\n", k->name, p->count.name,
			       (unsigned long long)p->page_lo, (unsigned long long)p->page_hi,
			       (long long)(p->count.c0 + p->count.c1 * (int64_t)n1),
			       (long long)(p->count.c0 + p->count.c1 * (int64_t)n2));
		}
	}
	return 0;
}

static int run(const struct bt_kernel_cpu *cpu, int which)
{
	int rc = 0;

	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		struct bt_kernel_state st;
		struct bt_diag d = { 0 };
		bt_status s = bt_kernel_setup(k, size_of(k, which), cpu, &st, &d);

		if (s == BT_ERR_UNSUPPORTED) {
			printf("skip %s %s\n", k->name, d.text);
			continue;
		}
		if (s != BT_OK) {
			fprintf(stderr, "kernel-census: %s\n", d.text);
			rc = 1;
			continue;
		}
		k->run(&st);
		bt_kernel_teardown(k, &st);
		printf("ran %s %llu\n", k->name, (unsigned long long)size_of(k, which));
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct bt_kernel_cpu cpu;

	bt_kernel_cpu_detect(bt_arch_cpuid_host(), &cpu);
	if (argc == 2 && strcmp(argv[1], "declare") == 0)
		return declare(&cpu);
	if (argc == 3 && strcmp(argv[1], "run") == 0 && (argv[2][0] == '1' || argv[2][0] == '2') &&
	    !argv[2][1])
		return run(&cpu, argv[2][0] - '0');
	fprintf(stderr, "usage: kernel-census declare | run 1|2\n");
	return 2;
}
