/* SPDX-License-Identifier: MIT */
/*
 * The built-in workloads, hosted: every one runs (quick preset) twice with
 * the same checksum, multiply1/2/3 agree, and each checksum equals a value
 * this file computes independently from the workload's documented
 * definition (inputs, arithmetic, hash) -- never a value copied from a run.
 *
 * The generator and hash below are re-implementations from their published
 * definitions (SplitMix64; word-wise FNV-1a with a fold, wl-common.h), and
 * the seeds are the documented inputs of each workload.
 */
#include <math.h>
#include <stdlib.h>

#include "tests/unit/lib/test.h"
#include "base/array.h"
#include "host/env-host.h"
#include "workloads/wl-common.h"
#include "workloads/workload.h"

/* ------------------------------------------------------------ independent reference */

static uint64_t ref_splitmix(uint64_t seed, uint64_t k)
{
	uint64_t z = seed + (k + 1) * 0x9E3779B97F4A7C15ull;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

struct ref_hash {
	uint64_t h;
};

static void ref_hash_init(struct ref_hash *r)
{
	r->h = 0xCBF29CE484222325ull;
}

static void ref_hash_add(struct ref_hash *r, uint64_t v)
{
	r->h ^= v;
	r->h *= 0x100000001B3ull;
	r->h ^= r->h >> 32;
}

static uint64_t ref_hash_of(const uint64_t *v, size_t n)
{
	struct ref_hash r;

	ref_hash_init(&r);
	for (size_t i = 0; i < n; i++)
		ref_hash_add(&r, v[i]);
	return r.h;
}

/* ------------------------------------------------------------ running */

static struct bt_wl_env host_env;
static struct bt_wl_host host_state;
static bool env_ready;

static const struct bt_wl_env *env(void)
{
	if (!env_ready) {
		bt_wl_env_host_init(&host_env, &host_state);
		env_ready = true;
	}
	return &host_env;
}

/* Run `spec` (quick preset + overrides) `runs` times; checksum of the last run. */
static bool run_spec(const char *spec, int runs, uint64_t *ret_sum, bool *ret_skipped)
{
	struct bt_wl_config cfg;
	struct bt_wl_instance inst;
	struct bt_diag d;
	uint64_t first = 0;
	bt_status s;

	*ret_skipped = false;
	s = bt_wl_config_from_spec(&cfg, spec, BT_WL_QUICK, &d);
	CHECK_MSG(s == BT_OK, "%s: %s", spec, d.text);
	if (s != BT_OK)
		return false;
	s = bt_wl_setup(&inst, &cfg, env(), &d);
	if (s == BT_ERR_UNSUPPORTED) {
		*ret_skipped = true;
		printf("# %s: %s\n", spec, d.text);
		return false;
	}
	CHECK_MSG(s == BT_OK, "%s: setup: %s", spec, d.text);
	if (s != BT_OK)
		return false;
	for (int r = 0; r < runs; r++) {
		uint64_t sum;

		s = bt_wl_before_run(&inst, &d);
		CHECK_MSG(s == BT_OK, "%s: before_run: %s", spec, d.text);
		bt_wl_run(&inst);
		s = bt_wl_after_run(&inst, &d);
		CHECK_MSG(s == BT_OK, "%s: after_run: %s", spec, d.text);
		sum = bt_wl_checksum(&inst);
		if (r == 0)
			first = sum;
		CHECK_MSG(sum == first, "%s: run %d checksum 0x%llx != first 0x%llx", spec, r,
			  (unsigned long long)sum, (unsigned long long)first);
	}
	bt_wl_teardown(&inst);
	*ret_sum = first;
	return true;
}

static uint64_t checksum_of(const char *spec)
{
	uint64_t sum = 0;
	bool skipped;

	run_spec(spec, 1, &sum, &skipped);
	return sum;
}

TEST(every_workload_runs_twice_with_the_same_checksum)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);
	int skipped_count = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t a = 0, b = 0;
		bool skipped;

		/* Twice in one instance, then once more in a fresh instance. */
		if (!run_spec(all[i]->name, 2, &a, &skipped)) {
			skipped_count += skipped;
			continue;
		}
		run_spec(all[i]->name, 1, &b, &skipped);
		CHECK_MSG(a == b, "%s: fresh setup gives 0x%llx, first gave 0x%llx", all[i]->name,
			  (unsigned long long)b, (unsigned long long)a);
	}
	/* Only the two-core workloads may be skipped, and only on one CPU. */
	CHECK(skipped_count == 0 || env()->cpu.logical_cpus < 2);
}

/* ------------------------------------------------------------ matrix multiply */

/* C = A x B in int64, j-k-i order (neither of the workload's orders). */
static uint64_t ref_matmul_checksum(size_t n)
{
	int64_t *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b);
	int64_t *c = calloc(n * n, sizeof *c);
	struct ref_hash h;

	for (size_t k = 0; k < n * n; k++) {
		a[k] = (int64_t)(ref_splitmix(0x4D4154524958412Dull, k) % 9) - 4;
		b[k] = (int64_t)(ref_splitmix(0x4D4154524958422Dull, k) % 9) - 4;
	}
	for (size_t j = 0; j < n; j++)
		for (size_t k = 0; k < n; k++)
			for (size_t i = 0; i < n; i++)
				c[i * n + j] += a[i * n + k] * b[k * n + j];
	ref_hash_init(&h);
	for (size_t k = 0; k < n * n; k++)
		ref_hash_add(&h, (uint64_t)c[k]);
	free(a);
	free(b);
	free(c);
	return h.h;
}

TEST(multiply1_2_3_give_the_independent_product_for_every_isa)
{
	static const unsigned sizes[] = { 1, 2, 7, 16, 37, 128 };
	static const char *const isas[] = { "sse2", "avx", "avx512" };

	for (size_t s = 0; s < BT_ARRAY_SIZE(sizes); s++) {
		char spec[64];
		uint64_t expected = ref_matmul_checksum(sizes[s]);

		snprintf(spec, sizeof spec, "multiply1:n=%u", sizes[s]);
		CHECK_EQ_U64(checksum_of(spec), expected);
		snprintf(spec, sizeof spec, "multiply2:n=%u", sizes[s]);
		CHECK_EQ_U64(checksum_of(spec), expected);
		snprintf(spec, sizeof spec, "multiply3:n=%u", sizes[s]);
		CHECK_EQ_U64(checksum_of(spec), expected);
		for (size_t i = 0; i < BT_ARRAY_SIZE(isas); i++) {
			bool usable = i == 0 || (i == 1 && env()->cpu.isa.avx) ||
				      (i == 2 && env()->cpu.isa.avx512f);

			if (!usable)
				continue;
			snprintf(spec, sizeof spec, "multiply3:n=%u,isa=%s", sizes[s], isas[i]);
			CHECK_EQ_U64(checksum_of(spec), expected);
		}
	}
	if (!env()->cpu.isa.avx512f)
		printf("# the AVX-512 kernel was not run: this CPU has no AVX-512F\n");
}

TEST(multiply3_refuses_an_isa_the_cpu_lacks)
{
	struct bt_wl_env e = *env();
	struct bt_wl_config cfg;
	struct bt_wl_instance inst;
	struct bt_diag d;

	e.cpu.isa.avx = false;
	e.cpu.isa.avx512f = false;
	CHECK(bt_wl_config_from_spec(&cfg, "multiply3:n=8,isa=avx", BT_WL_QUICK, &d) == BT_OK);
	CHECK(bt_wl_setup(&inst, &cfg, &e, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "AVX") != NULL);
	/* auto falls back to SSE2 and says so. */
	CHECK(bt_wl_config_from_spec(&cfg, "multiply3:n=8", BT_WL_QUICK, &d) == BT_OK);
	CHECK(bt_wl_setup(&inst, &cfg, &e, &d) == BT_OK);
	CHECK(strstr(inst.note, "isa=sse2 (auto)") != NULL);
	bt_wl_teardown(&inst);
}

/* ------------------------------------------------------------ pointer chase */

TEST(cyclic_permutation_is_one_cycle_through_every_element)
{
	static const uint32_t sizes[] = { 1, 2, 3, 64, 1000, 65536 };

	for (size_t s = 0; s < BT_ARRAY_SIZE(sizes); s++) {
		uint32_t n = sizes[s], at = 0, steps = 0;
		uint32_t *next = malloc(n * sizeof *next);
		uint8_t *seen = calloc(n, 1);

		bt_wl_cyclic_permutation(next, n, 12345 + s);
		do {
			CHECK(next[at] < n);
			CHECK(!seen[at]);
			seen[at] = 1;
			at = next[at];
			steps++;
		} while (at != 0 && steps <= n);
		CHECK_EQ_INT(steps, n);
		for (uint32_t i = 0; i < n; i++)
			CHECK(seen[i]);
		free(next);
		free(seen);
	}
}

TEST(ptr_chase_sums_every_node_index_once_per_lap)
{
	static const char *const names[] = { "ptr-chase-l1", "ptr-chase-l2", "ptr-chase-l3",
					     "ptr-chase-dram" };

	for (size_t w = 0; w < BT_ARRAY_SIZE(names); w++) {
		for (uint64_t laps = 1; laps <= 3; laps++) {
			uint64_t nodes = 4096 / 64, sum = laps * nodes * (nodes - 1) / 2;
			uint64_t expect[2] = { sum, 0 };   /* back at node 0 after whole laps */
			char spec[96];

			snprintf(spec, sizeof spec, "%s:size=4K,steps=%llu", names[w],
				 (unsigned long long)(laps * nodes));
			CHECK_EQ_U64(checksum_of(spec), ref_hash_of(expect, 2));
		}
	}
}

/* ------------------------------------------------------------ streams */

TEST(stream_checksums_match_the_definition)
{
	const uint64_t seed = 0x53545245414D2D31ull, n = (64 << 10) / 8;
	uint64_t sum = 0;
	struct ref_hash h;

	for (uint64_t i = 0; i < n; i++)
		sum += ref_splitmix(seed, i) & 0xFFFF;
	sum *= 3;   /* laps */
	CHECK_EQ_U64(checksum_of("stream-read:size=64K,laps=3"), ref_hash_of(&sum, 1));

	ref_hash_init(&h);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t r = ref_splitmix(seed, i);

		ref_hash_add(&h, (r & 0xFF) + 3 * ((r >> 8) & 0xFF));
	}
	CHECK_EQ_U64(checksum_of("stream-triad:size=64K,laps=2"), h.h);
}

/* ------------------------------------------------------------ branches */

TEST(branch_mispredict_counts_each_direction)
{
	static const unsigned pcts[] = { 0, 50, 100, 7 };

	for (size_t p = 0; p < BT_ARRAY_SIZE(pcts); p++) {
		uint64_t entries = 5000, laps = 3, taken = 0, v[2];
		char spec[96];

		for (uint64_t i = 0; i < entries; i++)
			taken += ref_splitmix(0x4252414E43482D31ull, i) % 100 < pcts[p];
		v[0] = laps * (entries - taken);          /* not taken: + 1 */
		v[1] = laps * taken << 32;                /* taken: + 2^32 */
		snprintf(spec, sizeof spec, "branch-mispredict:entries=%llu,laps=%llu,taken_pct=%u",
			 (unsigned long long)entries, (unsigned long long)laps, pcts[p]);
		CHECK_EQ_U64(checksum_of(spec), ref_hash_of(v, 2));
		if (pcts[p] == 50)
			CHECK(taken > entries * 45 / 100 && taken < entries * 55 / 100);
	}
}

/* ------------------------------------------------------------ code footprint */

TEST(code_footprint_executes_every_generated_block_once_per_call)
{
	static const struct {
		uint64_t blocks, spacing, laps;
	} cases[] = { { 1, 16, 1 }, { 2, 16, 3 }, { 100, 4160, 2 }, { 513, 64, 5 } };

	for (size_t c = 0; c < BT_ARRAY_SIZE(cases); c++) {
		uint64_t b = cases[c].blocks, total = cases[c].laps * b * (b + 1) / 2;
		char spec[96];

		snprintf(spec, sizeof spec, "code-footprint:blocks=%llu,spacing=%llu,laps=%llu",
			 (unsigned long long)b, (unsigned long long)cases[c].spacing,
			 (unsigned long long)cases[c].laps);
		CHECK_EQ_U64(checksum_of(spec), ref_hash_of(&total, 1));
	}
}

/* ------------------------------------------------------------ ALU kernels */

static const uint64_t alu_start = 0x0123456789ABCDEFull, alu_k = 0x9E3779B97F4A7C15ull;

TEST(div_chain_matches_c_division)
{
	static const uint64_t divisors[] = { 1, 2, 7, 1000003, 0xFFFFFFFFFFFFFFFFull };

	for (size_t d = 0; d < BT_ARRAY_SIZE(divisors); d++) {
		uint64_t v[8] = { 0 }, x = alu_start | (1ull << 63), n = 777;
		char spec[96];

		for (uint64_t i = 0; i < n; i++) {
			v[1] += x % divisors[d];
			x = (x / divisors[d]) | (1ull << 63);
		}
		v[0] = x;
		snprintf(spec, sizeof spec, "div-chain:iterations=%llu,divisor=%llu",
			 (unsigned long long)n, (unsigned long long)divisors[d]);
		CHECK_EQ_U64(checksum_of(spec), ref_hash_of(v, 8));
	}
}

TEST(alu_chains_add_what_they_claim)
{
	uint64_t n = 1234, dep[8] = { alu_start + 16 * n * alu_k }, indep[8];

	CHECK_EQ_U64(checksum_of("alu-dep-chain:iterations=1234"), ref_hash_of(dep, 8));
	for (int i = 0; i < 8; i++)
		indep[i] = alu_start + (uint64_t)i + 4 * n * alu_k;
	CHECK_EQ_U64(checksum_of("alu-independent:iterations=1234"), ref_hash_of(indep, 8));
}

/* ------------------------------------------------------------ memory hazards */

TEST(store_forwarding_kernels_match_a_byte_level_model)
{
	for (int narrow = 0; narrow <= 1; narrow++) {
		uint8_t mem[8];
		uint64_t x = alu_start, pattern = 0x1122334455667788ull, word, v[2];
		char spec[96];

		memcpy(mem, &pattern, 8);
		for (int i = 0; i < 999; i++) {
			if (narrow) {
				mem[0] = (uint8_t)x;
			} else {
				for (int b = 0; b < 8; b++)
					mem[b] = (uint8_t)(x >> (8 * b));
			}
			x = 0;
			for (int b = 7; b >= 0; b--)
				x = (x << 8) | mem[b];
			x += alu_k;
		}
		word = 0;
		for (int b = 7; b >= 0; b--)
			word = (word << 8) | mem[b];
		v[0] = x;
		v[1] = word;
		snprintf(spec, sizeof spec, "store-fwd-block:iterations=999,store_bytes=%s",
			 narrow ? "1" : "8");
		CHECK_EQ_U64(checksum_of(spec), ref_hash_of(v, 2));
	}
}

TEST(alias_4k_kernel_stores_running_sums)
{
	static const unsigned offsets[] = { 4096, 4160, 1024 };

	for (size_t o = 0; o < BT_ARRAY_SIZE(offsets); o++) {
		uint64_t src[128], dst[128], x = 0, laps = 5;
		struct ref_hash h;
		char spec[96];

		for (int i = 0; i < 128; i++)
			src[i] = ref_splitmix(0x344B2D414C494153ull, (uint64_t)i) & 0xFFFF;
		for (uint64_t l = 0; l < laps; l++) {
			for (int i = 0; i < 128; i++) {
				dst[i] = x;
				x += src[i];
			}
		}
		ref_hash_init(&h);
		ref_hash_add(&h, x);
		for (int i = 0; i < 128; i++)
			ref_hash_add(&h, dst[i]);
		snprintf(spec, sizeof spec, "4k-alias:offset=%u,laps=%llu", offsets[o],
			 (unsigned long long)laps);
		CHECK_EQ_U64(checksum_of(spec), h.h);
	}
}

/* ------------------------------------------------------------ assists */

TEST(denormal_assist_really_computes_denormals)
{
	static const double m[4] = { 0.75, 1.25, 0.5, 1.5 };

	for (int denormal = 0; denormal <= 1; denormal++) {
		struct ref_hash h;
		char spec[96];

		ref_hash_init(&h);
		for (int i = 0; i < 512; i++) {
			double in = ldexp((double)(1 + i % 16), denormal ? -1070 : -70);
			double out = in * m[i % 4];
			uint64_t bits;

			CHECK(fpclassify(in) == (denormal ? FP_SUBNORMAL : FP_NORMAL));
			CHECK(fpclassify(out) == (denormal ? FP_SUBNORMAL : FP_NORMAL));
			memcpy(&bits, &out, sizeof bits);
			ref_hash_add(&h, bits);
		}
		snprintf(spec, sizeof spec, "denormal-assist:laps=3,denormal=%d", denormal);
		CHECK_EQ_U64(checksum_of(spec), h.h);
	}
}

static uint32_t get_mxcsr(void)
{
	uint32_t v;

	__asm__ volatile("stmxcsr %0" : "=m"(v) : : "memory");
	return v;
}

static void set_mxcsr(uint32_t v)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(v) : "memory");
}

/* A caller that left FTZ (bit 15) and DAZ (bit 6) set, and round-toward-zero
 * (RC = 11b, bits 14:13): the body still computes the denormals (the same
 * checksum as the reference, computed here under the default MXCSR), and
 * the caller gets its MXCSR back. */
TEST(denormal_assist_ignores_and_restores_the_callers_mxcsr)
{
	static const double m[4] = { 0.75, 1.25, 0.5, 1.5 };
	const uint32_t ftz_daz = 0x1F80u | (1u << 15) | (1u << 6) | (3u << 13);
	struct ref_hash h;

	CHECK_EQ_U64(get_mxcsr() & 0xFFC0u, 0x1F80u);
	ref_hash_init(&h);
	for (int i = 0; i < 512; i++) {
		double out = ldexp((double)(1 + i % 16), -1070) * m[i % 4];
		uint64_t bits;

		memcpy(&bits, &out, sizeof bits);
		ref_hash_add(&h, bits);
	}
	uint32_t before = get_mxcsr();
	set_mxcsr(ftz_daz);
	uint64_t sum = checksum_of("denormal-assist:laps=2,denormal=1");
	uint32_t after = get_mxcsr();
	set_mxcsr(before);
	CHECK_EQ_U64(sum, h.h);
	CHECK_EQ_U64(after & 0xFFC0u, ftz_daz & 0xFFC0u); /* control bits; 5:0 are sticky flags */
}

/* ------------------------------------------------------------ two cores */

TEST(two_core_workloads_count_only_the_measured_cpu)
{
	uint64_t n = 5000, x = 1, fs = n;
	bool skipped;
	uint64_t sum;

	if (env()->cpu.logical_cpus < 2) {
		bt_test_skip("one CPU: the two-core workloads need a partner");
		return;
	}
	for (uint64_t i = 0; i < 2 * n; i++)
		x *= alu_k;
	CHECK(run_spec("false-sharing:iterations=5000", 3, &sum, &skipped));
	CHECK_EQ_U64(sum, ref_hash_of(&fs, 1));
	CHECK(run_spec("false-sharing:iterations=5000,layout=padded", 2, &sum, &skipped));
	CHECK_EQ_U64(sum, ref_hash_of(&fs, 1));
	CHECK(run_spec("memory-order-clears:iterations=5000", 3, &sum, &skipped));
	CHECK_EQ_U64(sum, ref_hash_of(&x, 1));
	CHECK(run_spec("memory-order-clears:iterations=5000,layout=padded", 2, &sum, &skipped));
	CHECK_EQ_U64(sum, ref_hash_of(&x, 1));
}
