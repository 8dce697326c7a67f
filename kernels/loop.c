/* SPDX-License-Identifier: MIT */
/*
 * The two simplest kernels:
 *   empty         the body of a calibration window: only RET;
 *   loop-dec-jnz  n iterations of DEC/JNZ (the exact instruction count of
 *                 kvm-unit-tests' and PAPI's first checks).
 * Bodies are file-scope assembly: the same bytes under gcc and clang.
 * The argument (SysV: RDI) is a struct bt_kernel_state *, n at offset 0.
 */
#include <stddef.h>

#include "kernels/kernel.h"
#include "kernels/kernels.h"

_Static_assert(offsetof(struct bt_kernel_state, n) == 0, "asm bodies read n at 0(%rdi)");

__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_empty\n"
	".type bt_kbody_empty, @function\n"
	"bt_kbody_empty:\n"
	"	ret\n"
	".size bt_kbody_empty, .-bt_kbody_empty\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_loop_dec_jnz\n"
	".type bt_kbody_loop_dec_jnz, @function\n"
	"bt_kbody_loop_dec_jnz:\n"
	"	movq (%rdi), %rcx\n"         /* n >= 1 (n_min) */
	"1:	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_loop_dec_jnz, .-bt_kbody_loop_dec_jnz\n");

void bt_kbody_empty(void *arg);
void bt_kbody_loop_dec_jnz(void *arg);

const struct bt_kernel bt_kernel_empty = {
	.name = "empty",
	.summary = "RET only: the body of a calibration window",
	.n_means = "unused",
	.n_default = 1, .n_quick = 1, .n_min = 0, .n_max = UINT64_MAX,
	.run = bt_kbody_empty,
	.counts = BT_KCOUNTS(
		{ BT_KC_INSTRUCTIONS, 1, 0 },
		{ BT_KC_BRANCHES, 1, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_COND, 0, 0 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_INDIRECT, 0, 0 },   /* RET is not counted as indirect */
		{ BT_KC_LOADS, 1, 0 },      /* the RET reads its return address */
		{ BT_KC_STORES, 0, 0 }
	),
};

const struct bt_kernel bt_kernel_loop_dec_jnz = {
	.name = "loop-dec-jnz",
	.summary = "n iterations of DEC/JNZ: 2n+2 instructions, n conditional branches",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_loop_dec_jnz,
	.counts = BT_KCOUNTS(
		/* MOV + n x (DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 2, 2 },
		{ BT_KC_COND, 0, 1 },
		{ BT_KC_COND_TAKEN, -1, 1 },
		{ BT_KC_COND_NOT_TAKEN, 1, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_JMP_DIRECT, 0, 0 },
		{ BT_KC_INDIRECT, 0, 0 },
		{ BT_KC_BRANCHES, 1, 1 },   /* the JNZs and the RET */
		{ BT_KC_LOADS, 2, 0 },      /* the MOV from the state, the RET */
		{ BT_KC_STORES, 0, 0 }
	),
};
