/* SPDX-License-Identifier: MIT */
/*
 * Unpredictable branches: one conditional branch per table entry whose
 * direction is a random bit (taken with probability taken_pct/100).
 *
 * The table is 64 Ki one-byte entries by default -- far longer than any
 * branch history a predictor can correlate, and read sequentially, so it
 * costs no cache misses. At 50% nearly every other branch is mispredicted.
 * taken_pct=0 or 100 is the predictable control: the same instructions with
 * (almost) no mispredictions.
 *
 * The loop is inline assembly because a C `if` with two small arms is
 * turned into CMOV or SETcc by gcc and clang at -O2 (no branch at all). Both
 * arms have the same number of instructions (add, jmp), so the instructions
 * retired do not depend on the data, only on the table length and laps.
 * The arms add k0 (not taken) or k1 (taken) into two sums; the checksum is
 * hash(sum_not_taken, sum_taken), i.e. it counts each direction.
 */
#include <stdlib.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define SEED_BRANCH 0x4252414E43482D31ull  /* "BRANCH-1" */

struct branches {
	uint8_t *table;
	uint64_t entries, laps;
	uint64_t k0, k1;           /* what each arm adds; from memory, not folded */
	struct bt_wl_buf buf;
	const struct bt_wl_env *env;
	uint64_t sum_not_taken, sum_taken;
};

static void branches_run(void *state)
{
	struct branches *st = state;
	uint64_t a = 0, b = 0;

	for (uint64_t lap = 0; lap < st->laps; lap++) {
		uint64_t i = 0, v;

		__asm__ volatile(
			"1:\n\t"
			"movzbl (%[t],%[i]), %k[v]\n\t"
			"test %k[v], %k[v]\n\t"
			"jnz 2f\n\t"              /* the unpredictable branch */
			"add %[k0], %[a]\n\t"
			"jmp 3f\n"
			"2:\n\t"
			"add %[k1], %[b]\n\t"
			"jmp 3f\n"                /* keeps both arms the same length */
			"3:\n\t"
			"inc %[i]\n\t"
			"cmp %[n], %[i]\n\t"
			"jb 1b\n\t"
			: [a] "+r"(a), [b] "+r"(b), [i] "+r"(i), [v] "=&r"(v)
			: [t] "r"(st->table), [n] "r"(st->entries), [k0] "r"(st->k0),
			  [k1] "r"(st->k1)
			: "cc", "memory");
	}
	st->sum_not_taken = a;
	st->sum_taken = b;
}

static uint64_t branches_checksum(const void *state)
{
	const struct branches *st = state;

	return bt_wl_hash(bt_wl_hash(BT_WL_HASH_INIT, st->sum_not_taken), st->sum_taken);
}

static void branches_teardown(void *state)
{
	struct branches *st = state;

	bt_wl_buf_free(&st->buf, st->env);
	free(st);
}

static bt_status branches_setup(const uint64_t *values, const struct bt_wl_env *env,
				void **ret_state, struct bt_diag *d)
{
	struct branches *st = calloc(1, sizeof *st);
	bt_status s;

	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->entries = values[0];
	st->laps = values[1];
	st->k0 = 1;
	st->k1 = 1ull << 32;
	s = bt_wl_buf_alloc(&st->buf, env, (size_t)st->entries, 64);
	if (s != BT_OK) {
		branches_teardown(st);
		return bt_wl_fail(s, d, "cannot allocate the branch table");
	}
	st->table = st->buf.p;
	/* Entry i is 1 (taken) iff rand_at(seed, i) mod 100 < taken_pct. */
	for (uint64_t i = 0; i < st->entries; i++)
		st->table[i] = (bt_wl_rand_at(SEED_BRANCH, i) % 100) < values[2];
	*ret_state = st;
	return BT_OK;
}

static const struct bt_wl_param branch_params[] = {
	{ .name = "entries", .kind = BT_WL_PARAM_COUNT, .def = 65536, .quick = 16384,
	  .min = 1, .max = 1ull << 30, .help = "branches per lap (one table byte each)" },
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 256, .quick = 2, .min = 1,
	  .max = 1ull << 30, .help = "passes over the table per run" },
	{ .name = "taken_pct", .kind = BT_WL_PARAM_COUNT, .def = 50, .quick = 50, .min = 0,
	  .max = 100, .help = "probability (%) that a branch is taken; 0 or 100: predictable control" },
};

const struct bt_workload bt_wl_branch_mispredict = {
	.name = "branch-mispredict",
	.summary = "data-dependent branch on a random table (50% taken)",
	.signature_intel = "Bad_Speculation > Branch_Mispredicts; Frontend Branch_Resteers > Mispredicts_Resteers",
	.signature_amd = "bad_speculation > bad_speculation_mispredicts",
	.params = branch_params, .n_params = BT_ARRAY_SIZE(branch_params),
	.setup = branches_setup, .run = branches_run, .checksum = branches_checksum,
	.teardown = branches_teardown,
};
