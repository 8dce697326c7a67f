/* SPDX-License-Identifier: MIT */
/*
 * Cycle kernels, n iterations each:
 *   add-chain  8 dependent ADDs per iteration (each needs the previous
 *              one's result; ADD has a 1-cycle latency on every x86 core
 *              since the P6), so core cycles >= dep_chain = 8n, and about
 *              that much: the loop's DEC/JNZ run beside the chain. A spec
 *              states cycles ≈ dep_chain as a range, and that doubling n
 *              doubles the cycles.
 *   div-chain  one 64-bit DIV per iteration whose dividend is the previous
 *              quotient (ORed with a large constant, so every divide has
 *              the same-sized operands): divides = n, for the divider-active
 *              cycles event (ARITH.DIVIDER_ACTIVE) and latency ranges.
 */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_add_chain\n"
	".type bt_kbody_add_chain, @function\n"
	"bt_kbody_add_chain:\n"
	"	movq 0(%rdi), %rcx\n"        /* n >= 1 */
	"	xorl %eax, %eax\n"
	"	movl $1, %edx\n"
	"1:	addq %rdx, %rax\n"           /* 8 x RAX += RDX: one chain through RAX */
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	addq %rdx, %rax\n"
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_add_chain, .-bt_kbody_add_chain\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_div_chain\n"
	".type bt_kbody_div_chain, @function\n"
	"bt_kbody_div_chain:\n"
	"	movq 0(%rdi), %rcx\n"
	"	movl $7, %r8d\n"                          /* the divisor */
	"	movabsq $0x4000000000000000, %r9\n"       /* keeps the dividend 63 bits wide */
	"	movq %r9, %rax\n"
	"1:	xorl %edx, %edx\n"                        /* RDX:RAX = the dividend */
	"	divq %r8\n"
	"	orq %r9, %rax\n"
	"	decq %rcx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size bt_kbody_div_chain, .-bt_kbody_div_chain\n");

void bt_kbody_add_chain(void *arg);
void bt_kbody_div_chain(void *arg);

const struct bt_kernel bt_kernel_add_chain = {
	.name = "add-chain",
	.summary = "8n dependent ADDs: cycles ~ 8n",
	.n_means = "iterations",
	.n_default = 1000000, .n_quick = 10000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_add_chain,
	.counts = BT_KCOUNTS(
		/* MOV, XOR, MOV + n x (8 ADD, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 4, 10 },
		{ BT_KC_DEP_CHAIN, 0, 8 },
		{ BT_KC_BRANCHES, 1, 1 },
		{ BT_KC_COND, 0, 1 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_INDIRECT, 0, 0 },
		{ BT_KC_DIVIDES, 0, 0 },
		{ BT_KC_LOADS, 2, 0 },
		{ BT_KC_STORES, 0, 0 }
	),
};

const struct bt_kernel bt_kernel_div_chain = {
	.name = "div-chain",
	.summary = "n dependent 64-bit DIVs",
	.n_means = "divides",
	.n_default = 100000, .n_quick = 2000, .n_min = 1, .n_max = UINT64_C(1) << 40,
	.run = bt_kbody_div_chain,
	.counts = BT_KCOUNTS(
		/* MOV, MOV, MOVABS, MOV + n x (XOR, DIV, OR, DEC, JNZ) + RET */
		{ BT_KC_INSTRUCTIONS, 5, 5 },
		{ BT_KC_DIVIDES, 0, 1 },
		{ BT_KC_BRANCHES, 1, 1 },
		{ BT_KC_COND, 0, 1 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_INDIRECT, 0, 0 },
		{ BT_KC_LOADS, 2, 0 },
		{ BT_KC_STORES, 0, 0 }
	),
};
