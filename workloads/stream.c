/* SPDX-License-Identifier: MIT */
/*
 * Streaming bandwidth over arrays much larger than the last-level cache.
 *
 *   stream-read   sum of a uint64 array, four independent accumulators so
 *                 the adds never limit the rate (McCalpin's STREAM has no
 *                 read-only kernel; this is the common "read" variant).
 *   stream-triad  a[i] = b[i] + s * c[i] (McCalpin's STREAM Triad) on
 *                 doubles: two read streams and one write stream, which on
 *                 x86 also reads a's lines for ownership before writing.
 *
 * Unit-stride, independent accesses: the hardware prefetchers and many
 * outstanding misses saturate the memory bandwidth, unlike the pointer
 * chase, which saturates latency.
 *
 * The data are small integers (exact in binary64), so the triad's results
 * and the read sum are the same on every build. The checksum hashes the
 * read sum, or the whole of a[] as int64.
 */
#include <stdlib.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define SEED_STREAM 0x53545245414D2D31ull  /* "STREAM-1" */

struct stream {
	size_t n;                 /* elements per array */
	uint64_t laps;
	double scalar;            /* triad's s, read from memory so it is not folded */
	uint64_t *src;            /* read */
	double *a, *b, *c;        /* triad */
	struct bt_wl_buf buf[3];
	const struct bt_wl_env *env;
	uint64_t sum;             /* read: result of the last run */
};

static void stream_read_run(void *state)
{
	struct stream *st = state;
	const uint64_t *restrict src = st->src;
	const size_t n = st->n;
	uint64_t total = 0;

	for (uint64_t lap = 0; lap < st->laps; lap++) {
		uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
		size_t i = 0;

		for (; i + 4 <= n; i += 4) {
			s0 += src[i];
			s1 += src[i + 1];
			s2 += src[i + 2];
			s3 += src[i + 3];
		}
		for (; i < n; i++)
			s0 += src[i];
		total += s0 + s1 + s2 + s3;
		/* Each lap must really read the array again. */
		BT_WL_MEMORY_BARRIER();
	}
	st->sum = total;
}

static void stream_triad_run(void *state)
{
	struct stream *st = state;
	double *restrict a = st->a;
	const double *restrict b = st->b, *restrict c = st->c;
	const size_t n = st->n;

	for (uint64_t lap = 0; lap < st->laps; lap++) {
		const double s = st->scalar;

		for (size_t i = 0; i < n; i++)
			a[i] = b[i] + s * c[i];
		BT_WL_MEMORY_BARRIER();
	}
}

static void stream_teardown(void *state)
{
	struct stream *st = state;

	for (int i = 0; i < 3; i++)
		bt_wl_buf_free(&st->buf[i], st->env);
	free(st);
}

static bt_status stream_alloc(struct stream *st, int count, size_t bytes, struct bt_diag *d)
{
	for (int i = 0; i < count; i++) {
		bt_status s = bt_wl_buf_alloc(&st->buf[i], st->env, bytes, 64);

		if (s != BT_OK) {
			char text[32];

			bt_wl_format_bytes(text, sizeof text, (uint64_t)bytes * (uint64_t)count);
			return bt_wl_fail(s, d, "cannot allocate %s of arrays", text);
		}
	}
	return BT_OK;
}

static bt_status stream_read_setup(const uint64_t *values, const struct bt_wl_env *env,
				   void **ret_state, struct bt_diag *d)
{
	struct stream *st = calloc(1, sizeof *st);
	bt_status s;

	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->n = (size_t)(values[0] / sizeof(uint64_t));
	st->laps = values[1];
	s = stream_alloc(st, 1, (size_t)values[0], d);
	if (s != BT_OK) {
		stream_teardown(st);
		return s;
	}
	st->src = st->buf[0].p;
	for (size_t i = 0; i < st->n; i++)
		st->src[i] = bt_wl_rand_at(SEED_STREAM, i) & 0xFFFF;
	*ret_state = st;
	return BT_OK;
}

static bt_status stream_triad_setup(const uint64_t *values, const struct bt_wl_env *env,
				    void **ret_state, struct bt_diag *d)
{
	struct stream *st = calloc(1, sizeof *st);
	bt_status s;

	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->n = (size_t)(values[0] / sizeof(double));
	st->laps = values[1];
	st->scalar = 3.0;
	s = stream_alloc(st, 3, (size_t)values[0], d);
	if (s != BT_OK) {
		stream_teardown(st);
		return s;
	}
	st->a = st->buf[0].p;
	st->b = st->buf[1].p;
	st->c = st->buf[2].p;
	for (size_t i = 0; i < st->n; i++) {
		uint64_t r = bt_wl_rand_at(SEED_STREAM, i);

		st->a[i] = 0.0;
		st->b[i] = (double)(r & 0xFF);          /* b in 0..255 */
		st->c[i] = (double)((r >> 8) & 0xFF);   /* c in 0..255 */
	}
	*ret_state = st;
	return BT_OK;
}

static uint64_t stream_read_checksum(const void *state)
{
	const struct stream *st = state;

	return bt_wl_hash(BT_WL_HASH_INIT, st->sum);
}

static uint64_t stream_triad_checksum(const void *state)
{
	const struct stream *st = state;
	uint64_t h = BT_WL_HASH_INIT;

	for (size_t i = 0; i < st->n; i++)
		h = bt_wl_hash(h, (uint64_t)(int64_t)st->a[i]);
	return h;
}

static const struct bt_wl_param read_params[] = {
	{ .name = "size", .kind = BT_WL_PARAM_BYTES, .def = 128ull << 20, .quick = 1ull << 20,
	  .min = 64, .max = 1ull << 32, .multiple = 64,
	  .help = "bytes in the array (several times the L3)" },
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 4, .quick = 2, .min = 1,
	  .max = 1000000, .help = "passes over the array per run" },
};

static const struct bt_wl_param triad_params[] = {
	{ .name = "size", .kind = BT_WL_PARAM_BYTES, .def = 64ull << 20, .quick = 1ull << 20,
	  .min = 64, .max = 1ull << 32, .multiple = 64,
	  .help = "bytes in EACH of the three arrays" },
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 4, .quick = 2, .min = 1,
	  .max = 1000000, .help = "passes over the arrays per run" },
};

const struct bt_workload bt_wl_stream_read = {
	.name = "stream-read",
	.summary = "sequential read of a 128 MiB array (memory read bandwidth)",
	.signature_intel = "Backend_Bound > Memory_Bound > DRAM_Bound (L3_Miss_Bound on SPR+) > MEM_Bandwidth",
	.signature_amd = "backend_bound > backend_bound_memory",
	.params = read_params, .n_params = BT_ARRAY_SIZE(read_params),
	.setup = stream_read_setup, .run = stream_read_run,
	.checksum = stream_read_checksum, .teardown = stream_teardown,
};

const struct bt_workload bt_wl_stream_triad = {
	.name = "stream-triad",
	.summary = "STREAM triad a = b + s*c over 3 x 64 MiB (read+write bandwidth)",
	.signature_intel = "Backend_Bound > Memory_Bound > DRAM_Bound > MEM_Bandwidth, "
			   "some Store_Bound from the write stream",
	.signature_amd = "backend_bound > backend_bound_memory",
	.params = triad_params, .n_params = BT_ARRAY_SIZE(triad_params),
	.setup = stream_triad_setup, .run = stream_triad_run,
	.checksum = stream_triad_checksum, .teardown = stream_teardown,
};
