/* SPDX-License-Identifier: MIT */
/*
 * REP string kernels: one REP MOVSB / REP STOSB of n bytes.
 *
 * A REP-prefixed string instruction is one instruction however many bytes
 * it moves (SDM vol. 2B, "REP/REPE/REPZ/REPNE/REPNZ": the prefix repeats the
 * one string instruction), and INST_RETIRED counts it once on silicon.
 * Emulators see it differently, as measured here: QEMU TCG's -icount and
 * valgrind both count n + 1 executions of the REP instruction for n bytes
 * (one per byte, and the final one that finds RCX = 0), valgrind with one
 * data read and/or write and one conditional branch per execution. The
 * kernels therefore also declare rep_instructions (1) and rep_iterations
 * (n), so a checker can turn "instructions" into what an emulator counts:
 *     emulated = instructions - rep_instructions + (rep_iterations + 1)
 *              = instructions + rep_iterations   (one REP per kernel).
 * That REP counts 1 on silicon is not checkable here (kernels/README.md).
 */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

/* buf = n source bytes followed by n destination bytes; aux[0] = destination. */
__asm__(".text\n"
	".p2align 4\n"
	".globl bt_kbody_rep_movsb\n"
	".type bt_kbody_rep_movsb, @function\n"
	"bt_kbody_rep_movsb:\n"
	"	movq 0(%rdi), %rcx\n"        /* n bytes */
	"	movq 8(%rdi), %rsi\n"        /* buf: source */
	"	movq 24(%rdi), %rdi\n"       /* aux[0]: destination (last use of the state) */
	"	rep movsb\n"
	"	ret\n"
	".size bt_kbody_rep_movsb, .-bt_kbody_rep_movsb\n"
	"\n"
	".p2align 4\n"
	".globl bt_kbody_rep_stosb\n"
	".type bt_kbody_rep_stosb, @function\n"
	"bt_kbody_rep_stosb:\n"
	"	movq 0(%rdi), %rcx\n"        /* n bytes */
	"	xorl %eax, %eax\n"           /* the byte stored */
	"	movq 8(%rdi), %rdi\n"        /* buf */
	"	rep stosb\n"
	"	ret\n"
	".size bt_kbody_rep_stosb, .-bt_kbody_rep_stosb\n");

void bt_kbody_rep_movsb(void *arg);
void bt_kbody_rep_stosb(void *arg);

static bt_status setup_movsb(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			     struct bt_diag *d)
{
	bt_status s = bt_kernel_alloc_buf(st, 2 * st->n, "rep-movsb", d);

	if (s == BT_OK)
		st->aux[0] = (uint64_t)(uintptr_t)((char *)st->buf + st->n);
	return s;
}

static bt_status setup_stosb(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			     struct bt_diag *d)
{
	return bt_kernel_alloc_buf(st, st->n, "rep-stosb", d);
}

/* Loads and stores are not declared: a REP MOVSB is one instruction that
 * reads and writes n bytes; which of "instructions that load" (1) or
 * "accesses" (n) an event counts is the event's definition to state. */
const struct bt_kernel bt_kernel_rep_movsb = {
	.name = "rep-movsb",
	.summary = "one REP MOVSB of n bytes: 5 instructions on silicon (the REP is 1)",
	.n_means = "bytes",
	.n_default = 1 << 20, .n_quick = 4096, .n_min = 1, .n_max = 1 << 26,
	.setup = setup_movsb,
	.run = bt_kbody_rep_movsb,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		/* 3 MOV + REP MOVSB + RET */
		{ BT_KC_INSTRUCTIONS, 5, 0 },
		{ BT_KC_REP_INSTRUCTIONS, 1, 0 },
		{ BT_KC_REP_ITERATIONS, 0, 1 },
		{ BT_KC_BRANCHES, 1, 0 },
		{ BT_KC_COND, 0, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_INDIRECT, 0, 0 }
	),
};

const struct bt_kernel bt_kernel_rep_stosb = {
	.name = "rep-stosb",
	.summary = "one REP STOSB of n bytes: 5 instructions on silicon (the REP is 1)",
	.n_means = "bytes",
	.n_default = 1 << 20, .n_quick = 4096, .n_min = 1, .n_max = 1 << 26,
	.setup = setup_stosb,
	.run = bt_kbody_rep_stosb,
	.teardown = bt_kernel_free_buf,
	.counts = BT_KCOUNTS(
		/* MOV, XOR, MOV, REP STOSB, RET */
		{ BT_KC_INSTRUCTIONS, 5, 0 },
		{ BT_KC_REP_INSTRUCTIONS, 1, 0 },
		{ BT_KC_REP_ITERATIONS, 0, 1 },
		{ BT_KC_BRANCHES, 1, 0 },
		{ BT_KC_COND, 0, 0 },
		{ BT_KC_NEAR_RETURNS, 1, 0 },
		{ BT_KC_NEAR_CALLS, 0, 0 },
		{ BT_KC_INDIRECT, 0, 0 }
	),
};
