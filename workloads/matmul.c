/* SPDX-License-Identifier: MIT */
/*
 * The matrix-multiply case study of the Top-Down paper (Yasin, ISPASS 2014,
 * section 5.5 and the slides' table): C = A x B on n x n doubles, row-major.
 *
 *   multiply1  i-j-k, the textbook order. The innermost loop walks a column
 *              of B: one new cache line (and, for large n, one new page) per
 *              iteration, n*8 bytes apart. Paper: MEM Bound 0.71, IPC 0.17.
 *   multiply2  i-k-j (loop interchange). The innermost loop streams a row of
 *              B and a row of C with unit stride. Paper: 11.8x faster, now
 *              Core Bound (Ports Utilization 0.64), IPC 1.19.
 *   multiply3  multiply2 vectorised: AVX-512 (8 doubles), AVX (4) or SSE2
 *              (2), chosen from the CPU facts the caller passes. Paper:
 *              16.5x over multiply1, fewer instructions for the same work
 *              (IPC 0.80), partly memory bound again (MEM Bound 0.21).
 *
 * The paper does not print n; it says "big matrices in memory". The default
 * n = 2048 doubles (3 x 32 MiB) is the size of Intel's VTune "matrix" sample
 * from which multiply1/2/3 take their names, far beyond any L3 of its time.
 *
 * All three compute exactly the same C: the inputs are small integers
 * (-4..4), so every product and partial sum is an integer below 2^53 and
 * exact in binary64, whatever the order of summation. The checksum hashes C
 * converted to int64, row-major, so the three give the same value.
 *
 * C accumulates (c += a*b, as in the paper), so each run first zeroes C:
 * n*n stores, a small fixed part of the n^3 work, identical in all three.
 */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define SEED_A 0x4D4154524958412Dull  /* "MATRIX A-" */
#define SEED_B 0x4D4154524958422Dull  /* "MATRIX B-" */

enum mm_isa { ISA_AUTO, ISA_SSE2, ISA_AVX, ISA_AVX512 };
static const char *const isa_names[] = { "auto", "sse2", "avx", "avx512", NULL };

/* Rows [i0, i1) of C += A x B (a whole run: 0, n). */
typedef void mm_kernel(size_t n, size_t i0, size_t i1, const double *restrict a,
		       const double *restrict b, double *restrict c);

struct matmul {
	size_t n;
	double *a, *b, *c;
	struct bt_wl_buf buf_a, buf_b, buf_c;
	const struct bt_wl_env *env;
	mm_kernel *kernel;       /* multiply3: the chosen vector kernel */
	enum mm_isa isa;         /* multiply3: what it resolved to */
	bool isa_was_auto;
	/* The rows a run computes (set_range: the window cap splits a long run
	 * by rows); [0, n) is the whole run, and only the part that starts at
	 * row 0 zeroes C. */
	size_t row_begin, row_end;
};

/* Element (i, j) of an input: (rand_at(seed, i*n + j) mod 9) - 4. */
static void fill_input(double *m, size_t n, uint64_t seed)
{
	for (size_t k = 0; k < n * n; k++)
		m[k] = (double)((int64_t)(bt_wl_rand_at(seed, k) % 9) - 4);
}

static void zero_c(struct matmul *m)
{
	memset(m->c, 0, m->n * m->n * sizeof(double));
}

/* ------------------------------------------------------------ kernels */

BT_WL_SCALAR_FN
static void multiply1_run(void *state)
{
	struct matmul *m = state;
	const size_t n = m->n;
	const double *restrict a = m->a, *restrict b = m->b;
	double *restrict c = m->c;

	if (m->row_begin == 0)
		zero_c(m);
	for (size_t i = m->row_begin; i < m->row_end; i++) {
		for (size_t j = 0; j < n; j++) {
			BT_WL_SCALAR_LOOP
			for (size_t k = 0; k < n; k++)
				c[i * n + j] += a[i * n + k] * b[k * n + j];
		}
	}
}

BT_WL_SCALAR_FN
static void multiply2_run(void *state)
{
	struct matmul *m = state;
	const size_t n = m->n;
	const double *restrict a = m->a, *restrict b = m->b;
	double *restrict c = m->c;

	if (m->row_begin == 0)
		zero_c(m);
	for (size_t i = m->row_begin; i < m->row_end; i++) {
		for (size_t k = 0; k < n; k++) {
			BT_WL_SCALAR_LOOP
			for (size_t j = 0; j < n; j++)
				c[i * n + j] += a[i * n + k] * b[k * n + j];
		}
	}
}

/*
 * multiply3's kernels: multiply2's loop order, the j loop W doubles at a
 * time with a(i,k) broadcast, unrolled by two vectors (as a compiler's
 * vectoriser would) so loop overhead does not dominate. Separate multiply and
 * add (no FMA): AVX has none, and the results are exact either way. Unaligned
 * loads/stores because rows are only 8-byte aligned when n is odd.
 */
static void mm3_sse2(size_t n, size_t i0, size_t i1, const double *restrict a,
		const double *restrict b, double *restrict c)
{
	for (size_t i = i0; i < i1; i++) {
		double *restrict ci = c + i * n;

		for (size_t k = 0; k < n; k++) {
			const double *restrict bk = b + k * n;
			const double aik = a[i * n + k];
			const __m128d va = _mm_set1_pd(aik);
			size_t j = 0;

			for (; j + 4 <= n; j += 4) {
				__m128d c0 = _mm_loadu_pd(ci + j), c1 = _mm_loadu_pd(ci + j + 2);

				c0 = _mm_add_pd(c0, _mm_mul_pd(va, _mm_loadu_pd(bk + j)));
				c1 = _mm_add_pd(c1, _mm_mul_pd(va, _mm_loadu_pd(bk + j + 2)));
				_mm_storeu_pd(ci + j, c0);
				_mm_storeu_pd(ci + j + 2, c1);
			}
			for (; j < n; j++)
				ci[j] += aik * bk[j];
		}
	}
}

__attribute__((target("avx")))
static void mm3_avx(size_t n, size_t i0, size_t i1, const double *restrict a,
		const double *restrict b, double *restrict c)
{
	for (size_t i = i0; i < i1; i++) {
		double *restrict ci = c + i * n;

		for (size_t k = 0; k < n; k++) {
			const double *restrict bk = b + k * n;
			const double aik = a[i * n + k];
			const __m256d va = _mm256_set1_pd(aik);
			size_t j = 0;

			for (; j + 8 <= n; j += 8) {
				__m256d c0 = _mm256_loadu_pd(ci + j), c1 = _mm256_loadu_pd(ci + j + 4);

				c0 = _mm256_add_pd(c0, _mm256_mul_pd(va, _mm256_loadu_pd(bk + j)));
				c1 = _mm256_add_pd(c1, _mm256_mul_pd(va, _mm256_loadu_pd(bk + j + 4)));
				_mm256_storeu_pd(ci + j, c0);
				_mm256_storeu_pd(ci + j + 4, c1);
			}
			for (; j < n; j++)
				ci[j] += aik * bk[j];
		}
	}
	/* Leave the upper YMM halves clean: with a dirty upper state, later
	 * legacy-SSE code pays state-transition penalties or false
	 * dependencies on Intel cores (Intel optimization manual, "Mixing AVX
	 * code with SSE code"). The compiler also emits vzeroupper on return. */
	_mm256_zeroupper();
}

__attribute__((target("avx512f")))
static void mm3_avx512(size_t n, size_t i0, size_t i1, const double *restrict a,
		const double *restrict b, double *restrict c)
{
	for (size_t i = i0; i < i1; i++) {
		double *restrict ci = c + i * n;

		for (size_t k = 0; k < n; k++) {
			const double *restrict bk = b + k * n;
			const double aik = a[i * n + k];
			const __m512d va = _mm512_set1_pd(aik);
			size_t j = 0;

			for (; j + 16 <= n; j += 16) {
				__m512d c0 = _mm512_loadu_pd(ci + j), c1 = _mm512_loadu_pd(ci + j + 8);

				c0 = _mm512_add_pd(c0, _mm512_mul_pd(va, _mm512_loadu_pd(bk + j)));
				c1 = _mm512_add_pd(c1, _mm512_mul_pd(va, _mm512_loadu_pd(bk + j + 8)));
				_mm512_storeu_pd(ci + j, c0);
				_mm512_storeu_pd(ci + j + 8, c1);
			}
			for (; j < n; j++)
				ci[j] += aik * bk[j];
		}
	}
	_mm256_zeroupper();
}

static void multiply3_run(void *state)
{
	struct matmul *m = state;

	if (m->row_begin == 0)
		zero_c(m);
	m->kernel(m->n, m->row_begin, m->row_end, m->a, m->b, m->c);
}

/* The window cap's split (struct bt_workload set_range): by rows of C,
 * each computed whole by the part it is in, in the same order. */
static uint64_t matmul_rows(const void *state)
{
	return ((const struct matmul *)state)->n;
}

static void matmul_set_range(void *state, uint64_t begin, uint64_t end)
{
	struct matmul *m = state;

	if (begin <= end && end <= m->n) {
		m->row_begin = (size_t)begin;
		m->row_end = (size_t)end;
	}
}

/* ------------------------------------------------------------ life cycle */

static void matmul_teardown(void *state)
{
	struct matmul *m = state;

	bt_wl_buf_free(&m->buf_a, m->env);
	bt_wl_buf_free(&m->buf_b, m->env);
	bt_wl_buf_free(&m->buf_c, m->env);
	free(m);
}

static bt_status matmul_setup_common(uint64_t n, const struct bt_wl_env *env,
				     struct matmul **ret, struct bt_diag *d)
{
	size_t bytes = (size_t)(n * n * sizeof(double));
	struct matmul *m = calloc(1, sizeof *m);
	bt_status s;

	if (!m)
		return BT_ERR_NOMEM;
	m->n = (size_t)n;
	m->env = env;
	s = bt_wl_buf_alloc(&m->buf_a, env, bytes, 64);
	if (s == BT_OK)
		s = bt_wl_buf_alloc(&m->buf_b, env, bytes, 64);
	if (s == BT_OK)
		s = bt_wl_buf_alloc(&m->buf_c, env, bytes, 64);
	if (s != BT_OK) {
		char size[32];

		matmul_teardown(m);
		bt_wl_format_bytes(size, sizeof size, 3 * (uint64_t)bytes);
		return bt_wl_fail(s, d, "matrices of n=%llu need %s: %s",
				  (unsigned long long)n, size, bt_status_str(s));
	}
	m->a = m->buf_a.p;
	m->b = m->buf_b.p;
	m->c = m->buf_c.p;
	fill_input(m->a, m->n, SEED_A);
	fill_input(m->b, m->n, SEED_B);
	zero_c(m);
	m->row_end = m->n;
	*ret = m;
	return BT_OK;
}

static bt_status scalar_setup(const uint64_t *values, const struct bt_wl_env *env,
			      void **ret_state, struct bt_diag *d)
{
	struct matmul *m;
	bt_status s = matmul_setup_common(values[0], env, &m, d);

	if (s == BT_OK)
		*ret_state = m;
	return s;
}

static bt_status multiply3_setup(const uint64_t *values, const struct bt_wl_env *env,
				 void **ret_state, struct bt_diag *d)
{
	enum mm_isa isa = (enum mm_isa)values[1];
	struct matmul *m;
	bt_status s;

	if (isa == ISA_AVX512 && !env->cpu.isa.avx512f)
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "multiply3: isa=avx512, but AVX-512F is not usable on this CPU");
	if (isa == ISA_AVX && !env->cpu.isa.avx)
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "multiply3: isa=avx, but AVX is not usable on this CPU");
	s = matmul_setup_common(values[0], env, &m, d);
	if (s != BT_OK)
		return s;
	m->isa_was_auto = isa == ISA_AUTO;
	if (isa == ISA_AUTO)
		isa = env->cpu.isa.avx512f ? ISA_AVX512 : env->cpu.isa.avx ? ISA_AVX : ISA_SSE2;
	m->isa = isa;
	m->kernel = isa == ISA_AVX512 ? mm3_avx512 : isa == ISA_AVX ? mm3_avx : mm3_sse2;
	*ret_state = m;
	return BT_OK;
}

static uint64_t matmul_checksum(const void *state)
{
	const struct matmul *m = state;
	uint64_t h = BT_WL_HASH_INIT;

	for (size_t k = 0; k < m->n * m->n; k++)
		h = bt_wl_hash(h, (uint64_t)(int64_t)m->c[k]);
	return h;
}

static void matmul_describe_size(const struct matmul *m, char *buf, size_t len,
				 const char *prefix)
{
	char size[32];

	bt_wl_format_bytes(size, sizeof size, 3 * (uint64_t)m->n * m->n * sizeof(double));
	snprintf(buf, len, "%s%s in three matrices", prefix, size);
}

static void scalar_describe(const void *state, const struct bt_wl_env *env, char *buf, size_t len)
{
	matmul_describe_size(state, buf, len, "scalar; ");
}

static void multiply3_describe(const void *state, const struct bt_wl_env *env, char *buf,
			       size_t len)
{
	const struct matmul *m = state;
	char prefix[64];

	snprintf(prefix, sizeof prefix, "isa=%s%s; ", isa_names[m->isa],
		 m->isa_was_auto ? " (auto)" : "");
	matmul_describe_size(m, buf, len, prefix);
}

/* ------------------------------------------------------------ descriptors */

#define N_PARAM {                                                              \
	.name = "n", .kind = BT_WL_PARAM_COUNT, .def = 2048, .quick = 128,     \
	.min = 1, .max = 4096,                                                 \
	.help = "matrix order (n x n doubles; 3 matrices of n*n*8 bytes)",     \
}

static const struct bt_wl_param scalar_params[] = { N_PARAM };
static const struct bt_wl_param multiply3_params[] = {
	N_PARAM,
	{ .name = "isa", .kind = BT_WL_PARAM_CHOICE, .def = ISA_AUTO, .quick = ISA_AUTO,
	  .min = 0, .max = 3, .choices = isa_names,
	  .help = "vector width: auto picks the widest usable (avx512 > avx > sse2)" },
};

const struct bt_workload bt_wl_multiply1 = {
	.name = "multiply1",
	.summary = "matrix multiply, naive i-j-k loop order (column walk of B)",
	.signature_intel = "Backend_Bound > Memory_Bound > DRAM_Bound (paper: MEM Bound 0.71 of 0.95 Backend); "
			   "DTLB_Load under L1_Bound as n*8 >= 4 KiB",
	.signature_amd = "backend_bound > backend_bound_memory",
	.params = scalar_params, .n_params = BT_ARRAY_SIZE(scalar_params),
	.setup = scalar_setup, .run = multiply1_run, .checksum = matmul_checksum,
	.teardown = matmul_teardown, .describe = scalar_describe,
	.iterations = matmul_rows, .set_range = matmul_set_range,
};

const struct bt_workload bt_wl_multiply2 = {
	.name = "multiply2",
	.summary = "matrix multiply, loop interchange i-k-j (unit stride), scalar",
	.signature_intel = "Backend_Bound > Core_Bound > Ports_Utilization, Retiring ~0.4 "
			   "(paper: Core Bound 0.64, Memory Bound 0.12, IPC 1.19)",
	.signature_amd = "backend_bound > backend_bound_cpu, retiring high",
	.params = scalar_params, .n_params = BT_ARRAY_SIZE(scalar_params),
	.setup = scalar_setup, .run = multiply2_run, .checksum = matmul_checksum,
	.teardown = matmul_teardown, .describe = scalar_describe,
	.iterations = matmul_rows, .set_range = matmul_set_range,
};

const struct bt_workload bt_wl_multiply3 = {
	.name = "multiply3",
	.summary = "matrix multiply, i-k-j vectorised (AVX-512/AVX/SSE2 by CPU)",
	.signature_intel = "Backend_Bound: Core_Bound (Ports_Utilization) with Memory_Bound rising "
			   "(paper: Core 0.55, MEM Bound 0.21, Retiring 0.28; FP_Vector in Retiring)",
	.signature_amd = "backend_bound: backend_bound_memory and backend_bound_cpu",
	.params = multiply3_params, .n_params = BT_ARRAY_SIZE(multiply3_params),
	.setup = multiply3_setup, .run = multiply3_run, .checksum = matmul_checksum,
	.teardown = matmul_teardown, .describe = multiply3_describe,
	.iterations = matmul_rows, .set_range = matmul_set_range,
};
