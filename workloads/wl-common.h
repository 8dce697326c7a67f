/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the workload implementations (not part of the public
 * API in workload.h): deterministic random numbers, the checksum hash,
 * aligned buffers, the random cyclic permutation, error messages, and the
 * compiler controls the kernels need.
 *
 * The random numbers and the hash are specified exactly here because tests
 * re-implement them independently to compute expected checksums.
 */
#ifndef WORKLOADS_WL_COMMON_H
#define WORKLOADS_WL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "base/array.h"
#include "workloads/workload.h"

/* ------------------------------------------------------------ random numbers */

/*
 * SplitMix64 (Steele, Lea, Flood, OOPSLA 2014). Output k (k = 0, 1, ...) of a
 * generator seeded with s is bt_wl_mix64(s + (k + 1) * 0x9E3779B97F4A7C15),
 * so bt_wl_rand_at(s, k) gives the same value by random access: tables can be
 * regenerated element by element in tests.
 */
#define BT_WL_GOLDEN 0x9E3779B97F4A7C15ull

static inline uint64_t bt_wl_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static inline uint64_t bt_wl_rand_at(uint64_t seed, uint64_t k)
{
	return bt_wl_mix64(seed + (k + 1) * BT_WL_GOLDEN);
}

struct bt_wl_rng {
	uint64_t state;
};

static inline uint64_t bt_wl_rng_next(struct bt_wl_rng *r)
{
	r->state += BT_WL_GOLDEN;
	return bt_wl_mix64(r->state);
}

/* Uniform in [0, bound), bound >= 1 (Lemire's multiply-shift, no division). */
static inline uint64_t bt_wl_rng_below(struct bt_wl_rng *r, uint64_t bound)
{
	return (uint64_t)(((unsigned __int128)bt_wl_rng_next(r) * bound) >> 64);
}

/* ------------------------------------------------------------ checksum hash */

/*
 * Word-wise FNV-1a (base/hash.h) with a fold: h0 = 0xCBF29CE484222325, then for
 * each 64-bit word v: h = (h ^ v) * 0x100000001B3; h ^= h >> 32. Cheap, order sensitive,
 * and a single changed word changes the result.
 */
#define BT_WL_HASH_INIT BT_FNV1A64_INIT

static inline uint64_t bt_wl_hash(uint64_t h, uint64_t v)
{
	h = bt_fnv1a64_word(v, h);
	return h ^ (h >> 32);
}

uint64_t bt_wl_hash_words(uint64_t h, const uint64_t *v, size_t n);
/* Doubles by bit pattern (IEEE-754 binary64), so -0.0 != 0.0 and denormals count. */
uint64_t bt_wl_hash_doubles(uint64_t h, const double *v, size_t n);

/* ------------------------------------------------------------ buffers */

/*
 * A buffer aligned to `align` (a power of two, >= 64 when data_alloc is
 * used). With env->data_alloc it comes from the platform; otherwise it is
 * malloc'd with `align` bytes to spare and the pointer rounded up. C11's
 * aligned_alloc exists in glibc and in newlib 3.3.0 (on top of memalign) but
 * requires size to be a multiple of the alignment; over-allocating needs
 * neither, so the code is the same in both builds.
 */
struct bt_wl_buf {
	void *p;          /* aligned start, NULL if not allocated */
	size_t size;
	void *raw;        /* what malloc returned, or p when from env */
	bool from_env;
};

bt_status bt_wl_buf_alloc(struct bt_wl_buf *ret, const struct bt_wl_env *env,
			  size_t size, size_t align);
void bt_wl_buf_free(struct bt_wl_buf *buf, const struct bt_wl_env *env);

/* ------------------------------------------------------------ permutations */

/*
 * next[i] = successor of i in one random cycle through all n elements
 * (Sattolo's algorithm: a uniformly random cyclic permutation), so following
 * next from any element visits every element exactly once before returning.
 * n >= 1; for n == 1, next[0] = 0.
 */
void bt_wl_cyclic_permutation(uint32_t *next, uint32_t n, uint64_t seed);

/* ------------------------------------------------------------ errors */

/* Set the message in d (if not NULL) and return s. */
bt_status bt_wl_fail(bt_status s, struct bt_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "256 KiB", "1.5 MiB", "1000 B" for notes and messages. */
void bt_wl_format_bytes(char *buf, size_t len, uint64_t bytes);

/* ------------------------------------------------------------ compiler controls */

/*
 * Make the compiler materialise all memory writes made so far (and forget
 * what it knows about memory). Placed between repetitions of a pass so that
 * repeated, identical passes are not merged or dropped as dead stores.
 */
#define BT_WL_MEMORY_BARRIER() __asm__ volatile("" ::: "memory")

/*
 * Keep a loop scalar. multiply1/multiply2 are the paper's scalar kernels;
 * gcc 12 and clang 14 both auto-vectorize at -O2, which would blur the
 * multiply2 -> multiply3 step. gcc takes a function attribute, clang a loop
 * pragma (it ignores, and warns about, gcc's optimize attribute).
 */
#if defined(__clang__)
#define BT_WL_SCALAR_FN
#define BT_WL_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define BT_WL_SCALAR_FN __attribute__((optimize("no-tree-vectorize")))
#define BT_WL_SCALAR_LOOP
#endif

#endif
