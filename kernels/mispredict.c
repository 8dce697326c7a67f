/* SPDX-License-Identifier: MIT */
/*
 * Misprediction kernels: the same body twice, one conditional branch per
 * iteration whose direction is read from a byte array prepared at setup.
 *   branch-fixed   every byte 1: the branch is never taken (≈ 0 mispredicts
 *                  after the first few iterations);
 *   branch-random  bytes from a seeded xorshift64 generator: each direction
 *                  is a fair coin, so a predictor mispredicts about half of
 *                  them (random_cond = n; a spec expects n/4..3n/4).
 * The Jcc's target is the next instruction, so both directions execute the
 * same instructions: the counts do not depend on the data.
 */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

#define RANDOM_SEED UINT64_C(0x9e3779b97f4a7c15)

/* One copy of the body per kernel, so a profiler that counts per function
 * (cachegrind, the `kernel-census` step) tells the two kernels apart. */
#define DIR_BODY(sym)                                                          \
	".text\n"                                                              \
	".p2align 4\n"                                                         \
	".globl " sym "\n"                                                     \
	".type " sym ", @function\n"                                           \
	sym ":\n"                                                              \
	"	movq 0(%rdi), %rcx\n"        /* n >= 1 */                          \
	"	movq 8(%rdi), %rsi\n"        /* buf: n direction bytes */          \
	"1:	movzbl (%rsi), %eax\n"                                         \
	"	incq %rsi\n"                                                   \
	"	testl %eax, %eax\n"                                            \
	"	jz 2f\n"                     /* taken when the byte is 0 */        \
	"2:	decq %rcx\n"                                                   \
	"	jnz 1b\n"                                                      \
	"	ret\n"                                                         \
	".size " sym ", .-" sym "\n"

__asm__(DIR_BODY("bt_kbody_branch_fixed") DIR_BODY("bt_kbody_branch_random"));

void bt_kbody_branch_fixed(void *arg);
void bt_kbody_branch_random(void *arg);

static bt_status setup_fixed(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			     struct bt_diag *d)
{
	bt_status s = bt_kernel_alloc_buf(st, st->n, "branch-fixed", d);

	for (uint64_t i = 0; s == BT_OK && i < st->n; i++)
		((uint8_t *)st->buf)[i] = 1;
	return s;
}

static bt_status setup_random(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			      struct bt_diag *d)
{
	bt_status s = bt_kernel_alloc_buf(st, st->n, "branch-random", d);
	uint64_t x = RANDOM_SEED;

	/* xorshift64 (Marsaglia 2003), one high bit per direction. */
	for (uint64_t i = 0; s == BT_OK && i < st->n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		((uint8_t *)st->buf)[i] = (uint8_t)(x >> 63);
	}
	return s;
}

#define DIR_COUNTS                                                       \
	/* MOV, MOV + n x (MOVZX, INC, TEST, JZ, DEC, JNZ) + RET */      \
	{ BT_KC_INSTRUCTIONS, 3, 6 },                                    \
	{ BT_KC_BRANCHES, 1, 2 },                                        \
	{ BT_KC_COND, 0, 2 },                                            \
	{ BT_KC_NEAR_CALLS, 0, 0 },                                      \
	{ BT_KC_NEAR_RETURNS, 1, 0 },                                    \
	{ BT_KC_INDIRECT, 0, 0 },                                        \
	{ BT_KC_JMP_DIRECT, 0, 0 },                                      \
	{ BT_KC_LOADS, 3, 1 },       /* 2 MOV, n MOVZX, RET */           \
	{ BT_KC_STORES, 0, 0 }

const struct bt_kernel bt_kernel_branch_fixed = {
	.name = "branch-fixed",
	.summary = "n data-directed Jcc, all not taken: ~0 mispredicts",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 30,
	.setup = setup_fixed,
	.run = bt_kbody_branch_fixed,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		DIR_COUNTS,
		{ BT_KC_COND_TAKEN, -1, 1 },         /* the JNZs */
		{ BT_KC_COND_NOT_TAKEN, 1, 1 },      /* every JZ, the last JNZ */
		{ BT_KC_RANDOM_COND, 0, 0 }
	),
};

/* Taken/not-taken are not declared: they depend on the generator's bits
 * (about n/2 each), not on a formula of n. */
const struct bt_kernel bt_kernel_branch_random = {
	.name = "branch-random",
	.summary = "n data-directed Jcc with seeded-PRNG directions: ~n/2 mispredicts",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 30,
	.setup = setup_random,
	.run = bt_kbody_branch_random,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		DIR_COUNTS,
		{ BT_KC_RANDOM_COND, 0, 1 }
	),
};
