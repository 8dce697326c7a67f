/* SPDX-License-Identifier: MIT */
/*
 * Two load/store hazards of the memory-ordering buffer, in inline assembly
 * (in C the compiler would forward the stored value in a register, or move
 * the load above the store, and the hazard would disappear).
 *
 *   store-fwd-block  a 1-byte store followed by an 8-byte load of the same
 *       address. A load can take its data from an in-flight store only if
 *       the store covers every byte the load reads (Intel optimization
 *       manual, "Store Forwarding"; AMD Software Optimization Guide,
 *       "Store-to-Load Forwarding"); here it cannot, so the load waits until
 *       the store has been written to the L1. The load's value is the next
 *       store's data, so each iteration pays the whole penalty.
 *       store_bytes=8 is the control: an 8-byte store, forwarded normally,
 *       with the same instruction count.
 *
 *   4k-alias  store to dst[i], then load src[i] with src = dst + 4096: the
 *       load's address bits 11:0 equal those of the older store, which the
 *       load/store unit compares first (partial address match); the load is
 *       held or re-issued until the full addresses show no overlap (Intel
 *       optimization manual, "4-KByte Aliasing"; event
 *       LD_BLOCKS_PARTIAL.ADDRESS_ALIAS). offset=4160 is the control: the
 *       same loop with no partial match against any store in flight.
 *
 * Both reset their memory at the start of a run, so every run is identical.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define SEED_ALIAS 0x344B2D414C494153ull   /* "4K-ALIAS" */
#define FWD_PATTERN 0x1122334455667788ull
#define ALIAS_SPAN 1024                    /* bytes stored per lap: 128 qwords */

struct hazard {
	uint64_t iterations, laps, k, start;
	bool narrow;              /* store-fwd: 1-byte store (else 8-byte) */
	uint64_t offset;          /* 4k-alias: src - dst in bytes */
	struct bt_wl_buf buf;
	const struct bt_wl_env *env;
	uint8_t *mem;
	uint64_t result;          /* of the last run */
};

static void hazard_teardown(void *state)
{
	struct hazard *st = state;

	bt_wl_buf_free(&st->buf, st->env);
	free(st);
}

/* ------------------------------------------------------------ store-fwd-block */

static void store_fwd_run(void *state)
{
	struct hazard *st = state;
	uint64_t x = st->start, n = st->iterations;
	uint64_t pattern = FWD_PATTERN;

	memcpy(st->mem, &pattern, sizeof pattern);
	if (st->narrow) {
		__asm__ volatile(
			"1:\n\t"
			"movb %b[x], (%[p])\n\t"     /* 1-byte store */
			"movq (%[p]), %[x]\n\t"      /* 8-byte load: not forwardable */
			"add %[k], %[x]\n\t"
			"dec %[n]\n\t"
			"jnz 1b\n\t"
			: [x] "+r"(x), [n] "+r"(n)
			: [p] "r"(st->mem), [k] "r"(st->k)
			: "cc", "memory");
	} else {
		__asm__ volatile(
			"1:\n\t"
			"movq %[x], (%[p])\n\t"      /* 8-byte store */
			"movq (%[p]), %[x]\n\t"      /* 8-byte load: forwarded */
			"add %[k], %[x]\n\t"
			"dec %[n]\n\t"
			"jnz 1b\n\t"
			: [x] "+r"(x), [n] "+r"(n)
			: [p] "r"(st->mem), [k] "r"(st->k)
			: "cc", "memory");
	}
	st->result = x;
}

static uint64_t store_fwd_checksum(const void *state)
{
	const struct hazard *st = state;
	uint64_t mem;

	memcpy(&mem, st->mem, sizeof mem);
	return bt_wl_hash(bt_wl_hash(BT_WL_HASH_INIT, st->result), mem);
}

static bt_status store_fwd_setup(const uint64_t *values, const struct bt_wl_env *env,
				 void **ret_state, struct bt_diag *d)
{
	struct hazard *st = calloc(1, sizeof *st);
	bt_status s;

	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->iterations = values[0];
	st->narrow = values[1] == 0;
	st->start = 0x0123456789ABCDEFull;
	st->k = 0x9E3779B97F4A7C15ull;
	s = bt_wl_buf_alloc(&st->buf, env, 64, 64);
	if (s != BT_OK) {
		hazard_teardown(st);
		return s;
	}
	st->mem = st->buf.p;
	memset(st->mem, 0, 64);
	*ret_state = st;
	return BT_OK;
}

/* ------------------------------------------------------------ 4k-alias */

static void alias_run(void *state)
{
	struct hazard *st = state;
	uint64_t *dst = (uint64_t *)st->mem;
	const uint64_t *src = (const uint64_t *)(st->mem + st->offset);
	const uint64_t count = ALIAS_SPAN / 8;
	uint64_t x = 0;

	for (uint64_t lap = 0; lap < st->laps; lap++) {
		uint64_t i = 0;

		__asm__ volatile(
			"1:\n\t"
			"movq %[x], (%[dst],%[i],8)\n\t"   /* store dst[i] */
			"addq (%[src],%[i],8), %[x]\n\t"   /* load src[i]: 4 KiB above the store */
			"inc %[i]\n\t"
			"cmp %[cnt], %[i]\n\t"
			"jb 1b\n\t"
			: [x] "+r"(x), [i] "+r"(i)
			: [dst] "r"(dst), [src] "r"(src), [cnt] "r"(count)
			: "cc", "memory");
	}
	st->result = x;
}

static uint64_t alias_checksum(const void *state)
{
	const struct hazard *st = state;
	uint64_t h = bt_wl_hash(BT_WL_HASH_INIT, st->result);

	return bt_wl_hash_words(h, (const uint64_t *)st->mem, ALIAS_SPAN / 8);
}

static bt_status alias_setup(const uint64_t *values, const struct bt_wl_env *env,
			     void **ret_state, struct bt_diag *d)
{
	struct hazard *st;
	uint64_t *src;
	bt_status s;

	if (values[0] < ALIAS_SPAN)
		return bt_wl_fail(BT_ERR_INVALID, d,
				  "4k-alias: offset=%llu must be at least the %d bytes stored per lap",
				  (unsigned long long)values[0], ALIAS_SPAN);
	st = calloc(1, sizeof *st);
	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->offset = values[0];
	st->laps = values[1];
	/* 4096-aligned so the store stream starts at a page offset of 0. */
	s = bt_wl_buf_alloc(&st->buf, NULL, (size_t)(st->offset + ALIAS_SPAN), 4096);
	if (s != BT_OK) {
		hazard_teardown(st);
		return s;
	}
	st->mem = st->buf.p;
	memset(st->mem, 0, (size_t)(st->offset + ALIAS_SPAN));
	src = (uint64_t *)(st->mem + st->offset);
	for (uint64_t i = 0; i < ALIAS_SPAN / 8; i++)
		src[i] = bt_wl_rand_at(SEED_ALIAS, i) & 0xFFFF;
	*ret_state = st;
	return BT_OK;
}

/* ------------------------------------------------------------ descriptors */

static const char *const store_bytes_choices[] = { "1", "8", NULL };

static const struct bt_wl_param store_fwd_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 4000000, .quick = 40000,
	  .min = 1, .max = 1ull << 40, .help = "store/load pairs per run" },
	{ .name = "store_bytes", .kind = BT_WL_PARAM_CHOICE, .def = 0, .quick = 0, .min = 0,
	  .max = 1, .choices = store_bytes_choices,
	  .help = "1: narrow store, forwarding blocked; 8: forwarded (control)" },
};

static const struct bt_wl_param alias_params[] = {
	{ .name = "offset", .kind = BT_WL_PARAM_BYTES, .def = 4096, .quick = 4096,
	  .min = ALIAS_SPAN, .max = 1u << 20, .multiple = 8,
	  .help = "bytes from the store stream to the load stream; 4160 = no-alias control" },
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 32768, .quick = 256, .min = 1,
	  .max = 1ull << 34, .help = "passes of 128 store/load pairs per run" },
};

const struct bt_workload bt_wl_store_fwd_block = {
	.name = "store-fwd-block",
	.summary = "1-byte store then 8-byte load of it (store forwarding fails)",
	.signature_intel = "Backend_Bound > Memory_Bound > L1_Bound > Store_Fwd_Blk",
	.signature_amd = "backend_bound > backend_bound_memory",
	.params = store_fwd_params, .n_params = BT_ARRAY_SIZE(store_fwd_params),
	.setup = store_fwd_setup, .run = store_fwd_run, .checksum = store_fwd_checksum,
	.teardown = hazard_teardown,
};

const struct bt_workload bt_wl_alias_4k = {
	.name = "4k-alias",
	.summary = "store then load 4096 bytes above it (false store-load dependence)",
	.signature_intel = "Backend_Bound > Memory_Bound > L1_Bound > 4K_Aliasing (a node up to ICL/TGL; "
			   "from Golden Cove on no node: look at L1_Bound)",
	.signature_amd = "no dedicated node; no penalty measured on Zen 3 (offset=4096 vs the 4160 control within noise)",
	.params = alias_params, .n_params = BT_ARRAY_SIZE(alias_params),
	.setup = alias_setup, .run = alias_run, .checksum = alias_checksum,
	.teardown = hazard_teardown,
};
