/* SPDX-License-Identifier: MIT */
/*
 * The stack switch of arch/stack-call.h, in assembly at file scope so that
 * one source builds into both the hosted library and the EFI app (the
 * Makefile builds .S files into the EFI app only). AT&T syntax, GNU as and
 * clang's integrated assembler alike.
 *
 *   bt_stack_call(sc = rdi, fn = rsi, arg = rdx, top = rcx)
 *     push the six System V callee-saved registers, RFLAGS, and a slot
 *     holding MXCSR (bytes 0-3) and the x87 control word (bytes 4-5):
 *     64 bytes (BT_STACK_CALL_SAVED); sc->saved_rsp = rsp; r12 = sc
 *     (callee-saved, so fn keeps it); rsp = top; call fn(arg); then
 *     rsp = sc->saved_rsp and return 0 through the restore below.
 *   bt_stack_resume (rsp = sc->saved_rsp, any other register state)
 *     return 1 through the same restore: MXCSR and the control word as they
 *     were (the ABI's callee-saved control bits), RFLAGS (IF and DF
 *     included), the six registers, ret.
 * `top` is 16-byte aligned, so fn starts with RSP + 8 aligned as the ABI
 * requires after a call.
 */
#include "arch/stack-call.h"

__asm__(
	"	.text\n"
	"	.globl bt_stack_call\n"
	"	.type bt_stack_call, @function\n"
	"bt_stack_call:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	pushfq\n"
	"	subq $8, %rsp\n"
	"	stmxcsr (%rsp)\n"
	"	fnstcw 4(%rsp)\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rdi, %r12\n"
	"	movq %rcx, %rsp\n"
	"	movq %rdx, %rdi\n"
	"	callq *%rsi\n"
	"	movq (%r12), %rsp\n"
	"	xorl %eax, %eax\n"
	"	jmp 1f\n"
	"	.size bt_stack_call, . - bt_stack_call\n"
	"	.globl bt_stack_resume\n"
	"	.type bt_stack_resume, @function\n"
	"bt_stack_resume:\n"
	".Lbt_stack_resume:\n"
	"	movl $1, %eax\n"
	"1:	ldmxcsr (%rsp)\n"
	"	fldcw 4(%rsp)\n"
	"	addq $8, %rsp\n"
	"	popfq\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.size bt_stack_resume, . - bt_stack_resume\n"
	"	.globl bt_stack_abandon\n"
	"	.type bt_stack_abandon, @function\n"
	"bt_stack_abandon:\n"
	"	movq (%rdi), %rsp\n"
	"	jmp .Lbt_stack_resume\n"
	"	.size bt_stack_abandon, . - bt_stack_abandon\n");

void bt_stack_resume(void);

uint64_t bt_stack_resume_address(void)
{
	return (uint64_t)(uintptr_t)bt_stack_resume;
}
