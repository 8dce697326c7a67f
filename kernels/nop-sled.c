/* SPDX-License-Identifier: MIT */
/*
 * A long NOP sled: a fixed run of 4096 one-byte NOPs (0x90) in the text,
 * entered by an indirect jump n bytes before its end, so exactly n NOPs
 * execute (0 <= n <= 4096) with no loop and no branch among them: the
 * decoder and the µop cache see straight-line code. (No executable memory
 * is allocated: the sled is assembled once with .rept.)
 */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

#define SLED_NOPS 4096

__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_nop_sled\n"
	".type bt_kbody_nop_sled, @function\n"
	"bt_kbody_nop_sled:\n"
	"	movq 0(%rdi), %rax\n"        /* n */
	"	leaq 2f(%rip), %rdx\n"       /* the end of the sled */
	"	subq %rax, %rdx\n"           /* n one-byte NOPs before it */
	"	jmp *%rdx\n"
	"	.rept 4096\n"                /* = SLED_NOPS */
	"	nop\n"
	"	.endr\n"
	"2:	ret\n"
	".size bt_kbody_nop_sled, .-bt_kbody_nop_sled\n");

void bt_kbody_nop_sled(void *arg);

const struct bt_kernel bt_kernel_nop_sled = {
	.name = "nop-sled",
	.summary = "n one-byte NOPs in a straight line (a 4096-NOP sled entered n bytes before its end)",
	.n_means = "NOPs",
	.n_default = SLED_NOPS, .n_quick = 1000, .n_min = 0, .n_max = SLED_NOPS,
	.run = bt_kbody_nop_sled,
	.counts = BT_KCOUNTS(
		/* MOV, LEA, SUB, JMP *reg, n x NOP, RET */
		{ BT_KC_INSTRUCTIONS, 5, 1 },
		{ BT_KC_BRANCHES, 2, 0 },
		{ BT_KC_INDIRECT, 1, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_COND, 0, 0 },
		{ BT_KC_JMP_DIRECT, 0, 0 },
		{ BT_KC_LOADS, 2, 0 },      /* the MOV from the state, the RET */
		{ BT_KC_STORES, 0, 0 }
	),
};
