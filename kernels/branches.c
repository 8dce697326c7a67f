/* SPDX-License-Identifier: MIT */
/*
 * Branch kernels, n iterations each:
 *   branch-mix  one direct JMP, one not-taken and one taken Jcc per
 *               iteration (each Jcc skips a UD2, so a wrong direction would
 *               fault instead of miscounting);
 *   call-ret    one direct near CALL to a leaf that RETurns;
 *   indirect    one JMP *reg and one CALL *reg (to a RET) per iteration;
 *               the targets are loaded from a table in memory, not made by
 *               LEA: a translator that folds constants (valgrind's VEX)
 *               would turn the first JMP *reg after a LEA into a direct
 *               jump and count one indirect branch less.
 * Every body ends with the loop's DEC/JNZ (taken n-1 times) and its RET.
 * "branches" is every branch instruction retired (BR_INST_RETIRED.ALL_BRANCHES:
 * Jcc, JMP, CALL, RET, direct and indirect).
 */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_branch_mix\n"
	".type bt_kbody_branch_mix, @function\n"
	"bt_kbody_branch_mix:\n"
	"	movq 0(%rdi), %rcx\n"        /* n >= 1 */
	"	xorl %eax, %eax\n"
	"1:	jmp 2f\n"                    /* unconditional, direct */
	"	ud2\n"
	"2:	cmpl $1, %eax\n"             /* EAX = 0: not equal */
	"	je 3f\n"                     /* never taken */
	"	jne 3f\n"                    /* always taken */
	"	ud2\n"
	"3:	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_branch_mix, .-bt_kbody_branch_mix\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_call_ret\n"
	".type bt_kbody_call_ret, @function\n"
	"bt_kbody_call_ret:\n"
	"	movq 0(%rdi), %rcx\n"
	"1:	call 5f\n"
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	"5:	ret\n"                       /* the leaf */
	".size bt_kbody_call_ret, .-bt_kbody_call_ret\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_indirect\n"
	".type bt_kbody_indirect, @function\n"
	"bt_kbody_indirect:\n"
	"	movq 0(%rdi), %rcx\n"
	"	.pushsection .data.rel.ro\n"  /* the targets, read from memory (below) */
	"	.p2align 3\n"
	".Lbt_indirect_targets:\n"
	"	.quad 2f, 5f\n"
	"	.popsection\n"
	"	movq .Lbt_indirect_targets(%rip), %rdx\n"
	"	movq .Lbt_indirect_targets+8(%rip), %rsi\n"
	"1:	jmp *%rdx\n"
	"	ud2\n"
	"2:"
	"	call *%rsi\n"
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	"5:	ret\n"                       /* the leaf */
	".size bt_kbody_indirect, .-bt_kbody_indirect\n");

void bt_kbody_branch_mix(void *arg);
void bt_kbody_call_ret(void *arg);
void bt_kbody_indirect(void *arg);

const struct bt_kernel bt_kernel_branch_mix = {
	.name = "branch-mix",
	.summary = "per iteration one JMP, one not-taken and one taken Jcc",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_branch_mix,
	.counts = BT_KCOUNTS(
		/* MOV, XOR + n x (JMP, CMP, JE, JNE, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 3, 6 },
		{ BT_KC_BRANCHES, 1, 4 },            /* JMP, JE, JNE, JNZ; RET */
		{ BT_KC_COND, 0, 3 },
		{ BT_KC_COND_TAKEN, -1, 2 },         /* JNE n, JNZ n-1 */
		{ BT_KC_COND_NOT_TAKEN, 1, 1 },      /* JE n, the last JNZ */
		{ BT_KC_JMP_DIRECT, 0, 1 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_INDIRECT, 0, 0 },
		{ BT_KC_LOADS, 2, 0 },               /* the MOV from the state, the RET */
		{ BT_KC_STORES, 0, 0 }
	),
};

const struct bt_kernel bt_kernel_call_ret = {
	.name = "call-ret",
	.summary = "per iteration one direct near CALL and its RET",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_call_ret,
	.counts = BT_KCOUNTS(
		/* MOV + n x (CALL, RET, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 2, 4 },
		{ BT_KC_BRANCHES, 1, 3 },
		{ BT_KC_COND, 0, 1 },
		{ BT_KC_COND_TAKEN, -1, 1 },
		{ BT_KC_COND_NOT_TAKEN, 1, 0 },
		{ BT_KC_JMP_DIRECT, 0, 0 },
		{ BT_KC_NEAR_CALLS, 0, 1 },
		{ BT_KC_NEAR_RETURNS, 1, 1 },
		{ BT_KC_INDIRECT, 0, 0 },
		{ BT_KC_LOADS, 2, 1 },               /* MOV, every RET reads its return address */
		{ BT_KC_STORES, 0, 1 }              /* every CALL writes one */
	),
};

const struct bt_kernel bt_kernel_indirect = {
	.name = "indirect",
	.summary = "per iteration one JMP *reg and one CALL *reg (to a RET)",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_indirect,
	.counts = BT_KCOUNTS(
		/* MOV, MOV, MOV + n x (JMP *, CALL *, RET, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 4, 5 },
		{ BT_KC_BRANCHES, 1, 4 },
		{ BT_KC_COND, 0, 1 },
		{ BT_KC_COND_TAKEN, -1, 1 },
		{ BT_KC_COND_NOT_TAKEN, 1, 0 },
		{ BT_KC_JMP_DIRECT, 0, 0 },
		{ BT_KC_NEAR_CALLS, 0, 1 },
		{ BT_KC_NEAR_RETURNS, 1, 1 },
		{ BT_KC_INDIRECT, 0, 2 },
		{ BT_KC_LOADS, 4, 1 },               /* 3 MOV, the RETs */
		{ BT_KC_STORES, 0, 1 }
	),
};
