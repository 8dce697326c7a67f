/* SPDX-License-Identifier: MIT */
/*
 * The known-count kernels, hosted: the table is well formed (unique kernel
 * names, unique and documented count names, sizes inside their ranges),
 * every kernel sets up, runs and tears down at two sizes (leak-free under
 * ASan: `make SAN=1 check`), sizes outside n_min..n_max are refused, and
 * the ISA-gated kernels refuse a CPU without their ISA. Whether the
 * declared counts are TRUE is checked by counters baretop did not write:
 * tests/suite/36-kernel-census.sh (cachegrind) and
 * tests/suite/56-kernel-icount.sh (QEMU -icount).
 */
#include "app/kernel-cpu.h"
#include "base/array.h"
#include "app/kernel-ticks.h"
#include "arch/arch-cpuid-host.h"
#include "kernels/kernel.h"
#include "kernels/kernels.h"
#include "tests/unit/lib/test.h"

static const char *const documented[] = {
	BT_KC_INSTRUCTIONS, BT_KC_BRANCHES, BT_KC_COND, BT_KC_COND_TAKEN, BT_KC_COND_NOT_TAKEN,
	BT_KC_JMP_DIRECT, BT_KC_NEAR_CALLS, BT_KC_NEAR_RETURNS, BT_KC_INDIRECT, BT_KC_LOADS,
	BT_KC_STORES, BT_KC_RANDOM_COND, BT_KC_DIVIDES, BT_KC_REP_INSTRUCTIONS,
	BT_KC_REP_ITERATIONS, BT_KC_LINE_LOADS, BT_KC_PAGE_LOADS, BT_KC_DEP_CHAIN,
	BT_KC_FP_SCALAR_SINGLE, BT_KC_FP_SCALAR_DOUBLE, BT_KC_FP_128_SINGLE, BT_KC_FP_128_DOUBLE,
	BT_KC_FP_256_SINGLE, BT_KC_FP_256_DOUBLE, BT_KC_FP_512_SINGLE, BT_KC_FP_512_DOUBLE,
	BT_KC_FP_FMA, BT_KC_FP_FLOPS,
};

static bool is_documented(const char *name)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(documented); i++)
		if (strcmp(documented[i], name) == 0)
			return true;
	return false;
}

static int n_counts(const struct bt_kernel *k)
{
	int n = 0;

	while (n < BT_KERNEL_MAX_COUNTS && k->counts[n].name)
		n++;
	return n;
}

TEST(table_is_well_formed)
{
	CHECK(bt_n_kernels >= 28);
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		int nc = n_counts(k);

		CHECK(bt_kernel_find(k->name) == k);
		CHECK(k->summary && k->summary[0] && k->n_means && k->n_means[0] && k->run);
		for (int j = i + 1; j < bt_n_kernels; j++)
			CHECK_MSG(strcmp(k->name, bt_kernels[j]->name) != 0, "kernel %s twice", k->name);
		/* The table has room for its end marker. */
		CHECK_MSG(nc < BT_KERNEL_MAX_COUNTS, "%s: %d counts, no end marker", k->name, nc);
		CHECK_MSG(k->n_min <= k->n_quick && k->n_quick <= k->n_max, "%s: n_quick", k->name);
		CHECK_MSG(k->n_min <= k->n_default && k->n_default <= k->n_max, "%s: n_default",
			  k->name);
		CHECK_MSG(bt_kernel_ticks_size(k, 2) == 2 * bt_kernel_ticks_size(k, 1) &&
				  bt_kernel_ticks_size(k, 2) <= k->n_max &&
				  bt_kernel_ticks_size(k, 1) >= k->n_min,
			  "%s: the two check sizes", k->name);
		int64_t v;
		CHECK_MSG(bt_kernel_count(k, BT_KC_INSTRUCTIONS, 1, &v), "%s: no instruction count",
			  k->name);
		for (int c = 0; c < nc; c++) {
			CHECK_MSG(is_documented(k->counts[c].name), "%s: count name '%s' is not in "
				  "kernel.h", k->name, k->counts[c].name);
			for (int e = c + 1; e < nc; e++)
				CHECK_MSG(strcmp(k->counts[c].name, k->counts[e].name) != 0,
					  "%s declares %s twice", k->name, k->counts[c].name);
			for (int e = 0; k->paged && e < BT_KERNEL_MAX_PAGED && k->paged[e].count.name; e++)
				CHECK_MSG(strcmp(k->counts[c].name, k->paged[e].count.name) != 0,
					  "%s declares %s with and without a page size", k->name,
					  k->counts[c].name);
		}
	}
}

/* Counts declared per page size: documented names, ranges of powers of
 * two that do not overlap for one name, and room for the end marker. */
TEST(per_page_counts_are_well_formed)
{
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		int np = 0;

		while (k->paged && np < BT_KERNEL_MAX_PAGED && k->paged[np].count.name)
			np++;
		CHECK_MSG(np < BT_KERNEL_MAX_PAGED, "%s: no end marker", k->name);
		for (int c = 0; c < np; c++) {
			const struct bt_kcount_paged *a = &k->paged[c];

			CHECK_MSG(is_documented(a->count.name), "%s: '%s'", k->name, a->count.name);
			CHECK_MSG(a->page_lo >= 4096 && a->page_lo <= a->page_hi &&
					  !(a->page_lo & (a->page_lo - 1)) &&
					  !(a->page_hi & (a->page_hi - 1)),
				  "%s: %s pages %llu..%llu", k->name, a->count.name,
				  (unsigned long long)a->page_lo, (unsigned long long)a->page_hi);
			for (int e = c + 1; e < np; e++) {
				const struct bt_kcount_paged *b = &k->paged[e];
				CHECK_MSG(strcmp(a->count.name, b->count.name) != 0 ||
						  a->page_hi < b->page_lo || b->page_hi < a->page_lo,
					  "%s declares %s twice for one page size", k->name,
					  a->count.name);
			}
		}
	}
}

/* Relations between counts that must hold for any n where all are declared. */
TEST(declarations_agree_with_each_other)
{
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		int64_t cond, t, nt, br, calls, rets, ins;

		for (uint64_t n = 1; n <= 1000; n *= 10) {
			if (bt_kernel_count(k, BT_KC_COND, n, &cond) &&
			    bt_kernel_count(k, BT_KC_COND_TAKEN, n, &t) &&
			    bt_kernel_count(k, BT_KC_COND_NOT_TAKEN, n, &nt))
				CHECK_MSG(cond == t + nt && t >= 0 && nt >= 0, "%s n=%llu: taken + "
					  "not taken != cond", k->name, (unsigned long long)n);
			if (bt_kernel_count(k, BT_KC_BRANCHES, n, &br) &&
			    bt_kernel_count(k, BT_KC_COND, n, &cond) &&
			    bt_kernel_count(k, BT_KC_NEAR_RETURNS, n, &rets))
				CHECK_MSG(br >= cond + rets, "%s: branches < cond + returns", k->name);
			if (bt_kernel_count(k, BT_KC_NEAR_CALLS, n, &calls) &&
			    bt_kernel_count(k, BT_KC_NEAR_RETURNS, n, &rets))
				CHECK_MSG(rets == calls + 1, "%s: every call returns, and the body's "
					  "own RET", k->name);
			CHECK(bt_kernel_count(k, BT_KC_INSTRUCTIONS, n, &ins) && ins >= 1);
		}
	}
	/* One worked by hand: MOV + 5 x (DEC, JNZ) + RET. */
	int64_t v = 0;
	CHECK(bt_kernel_count(&bt_kernel_loop_dec_jnz, BT_KC_INSTRUCTIONS, 5, &v));
	CHECK_EQ_U64(v, 12);
	CHECK(!bt_kernel_count(&bt_kernel_loop_dec_jnz, "no-such-count", 5, &v));
}

TEST(every_kernel_runs_at_two_sizes)
{
	struct bt_kernel_cpu cpu;

	bt_kernel_cpu_detect(bt_arch_cpuid_host(), &cpu);
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];

		for (int which = 1; which <= 2; which++) {
			struct bt_kernel_state st;
			struct bt_diag d = { { 0 } };
			uint64_t n = bt_kernel_ticks_size(k, which);
			bt_status s = bt_kernel_setup(k, n, &cpu, &st, &d);

			if (s == BT_ERR_UNSUPPORTED) {
				/* Only the ISA-gated kernels may say so, with why. */
				CHECK_MSG(!cpu.isa.avx512f || !cpu.isa.avx || !cpu.isa.fma, "%s unsupported "
					  "on a CPU with every ISA", k->name);
				CHECK(d.text[0]);
				continue;
			}
			CHECK_MSG(s == BT_OK, "%s n=%llu: %s", k->name, (unsigned long long)n, d.text);
			if (s != BT_OK)
				continue;
			CHECK_EQ_U64(st.n, n);
			k->run(&st);
			k->run(&st); /* a body can run again (warm-ups, repetitions) */
			bt_kernel_teardown(k, &st);
			CHECK(st.buf == NULL && st.n == 0);
		}
	}
}

TEST(sizes_outside_the_range_are_refused)
{
	for (int i = 0; i < bt_n_kernels; i++) {
		const struct bt_kernel *k = bt_kernels[i];
		struct bt_kernel_state st;
		struct bt_diag d = { { 0 } };

		if (k->n_min > 0) {
			CHECK_EQ_INT(bt_kernel_setup(k, k->n_min - 1, NULL, &st, &d), BT_ERR_INVALID);
			CHECK(strstr(d.text, k->name) != NULL);
		}
		if (k->n_max < UINT64_MAX)
			CHECK_EQ_INT(bt_kernel_setup(k, k->n_max + 1, NULL, &st, &d), BT_ERR_INVALID);
	}
	/* The NOP sled is 4096 NOPs long. */
	CHECK_EQ_U64(bt_kernel_nop_sled.n_max, 4096);
}

TEST(isa_kernels_refuse_a_cpu_without_the_isa)
{
	const struct bt_kernel *gated[] = {
		&bt_kernel_fp_256_single, &bt_kernel_fp_256_double, &bt_kernel_fp_512_single,
		&bt_kernel_fp_512_double, &bt_kernel_fma_scalar_double, &bt_kernel_fma_256_single,
		&bt_kernel_fma_512_double,
	};
	struct bt_kernel_cpu none = { .isa.sse2 = true };
	struct bt_kernel_cpu avx_only = { .isa = { .sse2 = true, .avx = true } };

	for (size_t i = 0; i < BT_ARRAY_SIZE(gated); i++) {
		struct bt_kernel_state st;
		struct bt_diag d = { { 0 } };

		CHECK_EQ_INT(bt_kernel_setup(gated[i], 10, &none, &st, &d), BT_ERR_UNSUPPORTED);
		CHECK_EQ_INT(bt_kernel_setup(gated[i], 10, NULL, &st, &d), BT_ERR_UNSUPPORTED);
	}
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_fp_256_double, 10, &avx_only, &st, &d), BT_OK);
	bt_kernel_teardown(&bt_kernel_fp_256_double, &st);
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_fma_256_single, 10, &avx_only, &st, &d),
		     BT_ERR_UNSUPPORTED);
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_fp_512_double, 10, &avx_only, &st, &d),
		     BT_ERR_UNSUPPORTED);
	/* The SSE kernels need nothing beyond x86-64. */
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_fp_128_double, 10, &none, &st, &d), BT_OK);
	bt_kernel_teardown(&bt_kernel_fp_128_double, &st);
}

TEST(random_directions_are_a_fair_coin_and_fixed_ones_are_not)
{
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };
	uint64_t ones = 0, n = 100000;

	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_branch_random, n, NULL, &st, &d), BT_OK);
	for (uint64_t i = 0; i < n; i++)
		ones += ((uint8_t *)st.buf)[i];
	bt_kernel_teardown(&bt_kernel_branch_random, &st);
	CHECK_MSG(ones > n * 45 / 100 && ones < n * 55 / 100, "%llu ones of %llu",
		  (unsigned long long)ones, (unsigned long long)n);
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_branch_fixed, n, NULL, &st, &d), BT_OK);
	ones = 0;
	for (uint64_t i = 0; i < n; i++)
		ones += ((uint8_t *)st.buf)[i];
	bt_kernel_teardown(&bt_kernel_branch_fixed, &st);
	CHECK_EQ_U64(ones, n);
}

TEST(walks_cover_at_least_eight_l1d)
{
	struct bt_kernel_cpu cpu = { .l1d_bytes = 48 * 1024 };
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };

	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_l1d_miss, 100, &cpu, &st, &d), BT_OK);
	CHECK(st.buf_bytes >= 8 * cpu.l1d_bytes);
	CHECK_EQ_U64(st.aux[0], st.buf_bytes - 1);             /* a power of two */
	CHECK_EQ_U64(st.buf_bytes & (st.buf_bytes - 1), 0);
	CHECK((st.aux[1] / 64) % 2 == 1);                      /* odd lines apart: every line */
	bt_kernel_teardown(&bt_kernel_l1d_miss, &st);
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_dtlb_walk, 100, &cpu, &st, &d), BT_OK);
	CHECK(st.aux[1] > 4096 && st.aux[1] < 8192);           /* the next page each load */
	CHECK(st.buf_bytes / st.aux[1] > 4000);
	bt_kernel_teardown(&bt_kernel_dtlb_walk, &st);
}

/*
 * page_loads of dtlb-walk against the definition (kernel.h: a load to a
 * page not touched for > 4000 loads), applied to the walk the kernel's
 * setup really configures (its stride and mask, as the body uses them) in
 * steady state: loads n..2n of an endless walk, every page of size `page`
 * remembered by the last load that touched it, the buffer starting `skew`
 * bytes into a page. On 4 KiB pages every load is one; on 2 MiB pages (8 or
 * 9 of them, as UEFI maps memory) and 1 GiB pages none is.
 */
static int64_t page_loads_by_definition(const struct bt_kernel_state *st, uint64_t page,
					uint64_t skew)
{
	static int64_t last[8192]; /* 64 KiB: off the stack */
	uint64_t off = 0, mask = st->aux[0], stride = st->aux[1], n = st->n;
	int64_t hits = 0;

	for (size_t i = 0; i < BT_ARRAY_SIZE(last); i++)
		last[i] = -1;
	for (uint64_t i = 0; i < 2 * n; i++) {
		uint64_t p = (skew + off) / page;
		if (p >= BT_ARRAY_SIZE(last))
			return -1;
		if (i >= n && last[p] >= 0 && (int64_t)i - last[p] > 4000)
			hits++;
		last[p] = (int64_t)i;
		off = (off + stride) & mask;
	}
	return hits;
}

TEST(dtlb_walk_page_loads_follow_the_page_size)
{
	const struct bt_kernel *k = &bt_kernel_dtlb_walk;
	struct bt_kernel_cpu cpu = { .l1d_bytes = 48 * 1024 };
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };
	const uint64_t n = 20000;
	struct bt_page_span k4 = { BT_PAGE_4K, BT_PAGE_4K, 4096, "test" };
	struct bt_page_span m2 = { BT_PAGE_2M, BT_PAGE_2M, 8, "test" };
	struct bt_page_span g1 = { BT_PAGE_1G, BT_PAGE_1G, 1, "test" };
	struct bt_page_span large = { BT_PAGE_2M, BT_PAGE_1G, 9, "test" };
	struct bt_page_span mixed = { BT_PAGE_4K, BT_PAGE_2M, 0, "test" };
	struct bt_page_span unknown = { 0, 0, 0, "unknown: test" };
	int64_t v = -1;

	CHECK_EQ_INT(bt_kernel_setup(k, n, &cpu, &st, &d), BT_OK);
	CHECK(bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &k4, &v));
	CHECK_EQ_U64(v, page_loads_by_definition(&st, BT_PAGE_4K, 0));
	CHECK_EQ_U64(v, n);
	/* 16 MiB on 2 MiB pages is 8 pages: the DTLB holds them all. */
	CHECK(bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &m2, &v));
	CHECK_EQ_U64(v, 0);
	CHECK_EQ_U64(v, page_loads_by_definition(&st, BT_PAGE_2M, 0));
	CHECK_EQ_U64(v, page_loads_by_definition(&st, BT_PAGE_2M, 0x12345 * 64));
	CHECK(bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &g1, &v));
	CHECK_EQ_U64(v, page_loads_by_definition(&st, BT_PAGE_1G, 0));
	CHECK_EQ_U64(v, 0);
	CHECK(bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &large, &v));
	CHECK_EQ_U64(v, 0);
	/* 4 KiB and 2 MiB pages in one buffer, or pages nobody read: the
	 * count is not declared (a spec's check of it SKIPs, saying why). */
	CHECK(!bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &mixed, &v));
	CHECK(!bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, &unknown, &v));
	CHECK(!bt_kernel_count_on(k, BT_KC_PAGE_LOADS, n, NULL, &v));
	CHECK(!bt_kernel_count(k, BT_KC_PAGE_LOADS, n, &v));
	/* The counts that do not depend on the pages do not change. */
	CHECK(bt_kernel_count_on(k, BT_KC_LOADS, n, &m2, &v) && v == 5 + (int64_t)n);
	CHECK(bt_kernel_count(k, BT_KC_LOADS, n, &v) && v == 5 + (int64_t)n);
	CHECK(bt_kernel_count_per_page(k, BT_KC_PAGE_LOADS));
	CHECK(!bt_kernel_count_per_page(k, BT_KC_LOADS));
	CHECK(!bt_kernel_count_per_page(&bt_kernel_l1d_miss, NULL));
	/* Without a page reader the state says the pages are unknown. */
	CHECK_EQ_U64(st.pages.largest, 0);
	CHECK(strstr(st.pages.source, "unknown") != NULL);
	bt_kernel_teardown(k, &st);
}

/* A page reader that answers 2 MiB for everything. */
static void two_mib(const void *addr, uint64_t len, struct bt_page_span *ret)
{
	memset(ret, 0, sizeof(*ret));
	ret->smallest = ret->largest = BT_PAGE_2M;
	ret->pages = len / BT_PAGE_2M;
	snprintf(ret->source, sizeof(ret->source), "two_mib %p", addr);
}

TEST(setup_reads_the_pages_of_a_per_page_kernel_only)
{
	struct bt_kernel_cpu cpu = { .l1d_bytes = 48 * 1024, .pages = two_mib };
	struct bt_kernel_state st;
	struct bt_diag d = { { 0 } };
	char want[64];

	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_dtlb_walk, 100, &cpu, &st, &d), BT_OK);
	CHECK_EQ_U64(st.pages.largest, BT_PAGE_2M);
	CHECK_EQ_U64(st.pages.pages, 8);
	snprintf(want, sizeof(want), "two_mib %p", st.buf);   /* asked about its buffer */
	CHECK_STR(st.pages.source, want);
	bt_kernel_teardown(&bt_kernel_dtlb_walk, &st);
	CHECK_EQ_INT(bt_kernel_setup(&bt_kernel_l1d_miss, 100, &cpu, &st, &d), BT_OK);
	CHECK_EQ_U64(st.pages.largest, 0);                     /* not asked */
	bt_kernel_teardown(&bt_kernel_l1d_miss, &st);
}
