/* SPDX-License-Identifier: MIT */
/*
 * Privileged instructions that may fault, each in a tiny function with a
 * known faulting address and a known resume address. When one of them raises
 * #GP or #UD (the page-table load also #PF), the fault guard (efi/fault-guard.c, through
 * bt_hw_fault_fixup() in arch/arch-hw-ring0.c) sets RIP to the resume label
 * and RAX to the vector, so the function returns the vector to its C caller
 * instead of the machine dying in the firmware's exception handler.
 *
 * Convention (System V AMD64, as the rest of baretop; only EFI services use
 * the Microsoft ABI): each function returns 0 on success, else the vector.
 * Only RAX, RCX, RDX and the argument registers are touched, so the resume
 * path needs no cleanup: the stack is exactly as at the faulting instruction.
 */

	.text

/* uint32_t bt_hw_rdmsr(uint32_t msr, uint64_t *ret) */
	.globl	bt_hw_rdmsr
	.globl	bt_hw_rdmsr_insn
	.globl	bt_hw_rdmsr_resume
	.type	bt_hw_rdmsr, @function
bt_hw_rdmsr:
	movl	%edi, %ecx
bt_hw_rdmsr_insn:
	rdmsr
	shlq	$32, %rdx
	orq	%rdx, %rax		/* RDMSR zero-extends EAX into RAX */
	movq	%rax, (%rsi)
	xorl	%eax, %eax
bt_hw_rdmsr_resume:
	ret
	.size	bt_hw_rdmsr, . - bt_hw_rdmsr

/* uint32_t bt_hw_wrmsr(uint32_t msr, uint64_t value) */
	.globl	bt_hw_wrmsr
	.globl	bt_hw_wrmsr_insn
	.globl	bt_hw_wrmsr_resume
	.type	bt_hw_wrmsr, @function
bt_hw_wrmsr:
	movl	%edi, %ecx
	movq	%rsi, %rax
	movq	%rsi, %rdx
	shrq	$32, %rdx
bt_hw_wrmsr_insn:
	wrmsr
	xorl	%eax, %eax
bt_hw_wrmsr_resume:
	ret
	.size	bt_hw_wrmsr, . - bt_hw_wrmsr

/* uint32_t bt_hw_rdpmc(uint32_t ecx, uint64_t *ret) */
	.globl	bt_hw_rdpmc
	.globl	bt_hw_rdpmc_insn
	.globl	bt_hw_rdpmc_resume
	.type	bt_hw_rdpmc, @function
bt_hw_rdpmc:
	movl	%edi, %ecx
	/* LFENCE on both sides: RDPMC is not serializing (SDM vol. 2B, RDPMC),
	 * so without them it may read the counter before earlier instructions
	 * have retired or let later ones start first. */
	lfence
bt_hw_rdpmc_insn:
	rdpmc
	lfence
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
bt_hw_rdpmc_resume:
	ret
	.size	bt_hw_rdpmc, . - bt_hw_rdpmc

/* uint32_t bt_hw_load64(uint64_t addr, uint64_t *ret): an 8-byte load from
 * a paging-structure entry. The tables are identity-mapped under UEFI
 * (UEFI 2.10, 2.3.4), so this cannot fault there; a table outside the map
 * would raise #PF, a non-canonical address #GP, and the walk then reports
 * it instead of the machine stopping in the firmware's handler. */
	.globl	bt_hw_load64
	.globl	bt_hw_load64_insn
	.globl	bt_hw_load64_resume
	.type	bt_hw_load64, @function
bt_hw_load64:
bt_hw_load64_insn:
	movq	(%rdi), %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
bt_hw_load64_resume:
	ret
	.size	bt_hw_load64, . - bt_hw_load64

/* uint32_t bt_hw_xgetbv(uint32_t xcr, uint64_t *ret) */
	.globl	bt_hw_xgetbv
	.globl	bt_hw_xgetbv_insn
	.globl	bt_hw_xgetbv_resume
	.type	bt_hw_xgetbv, @function
bt_hw_xgetbv:
	movl	%edi, %ecx
bt_hw_xgetbv_insn:
	xgetbv				/* #UD unless CR4.OSXSAVE is set */
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, (%rsi)
	xorl	%eax, %eax
bt_hw_xgetbv_resume:
	ret
	.size	bt_hw_xgetbv, . - bt_hw_xgetbv

/* uint32_t bt_hw_xsetbv(uint32_t xcr, uint64_t value) */
	.globl	bt_hw_xsetbv
	.globl	bt_hw_xsetbv_insn
	.globl	bt_hw_xsetbv_resume
	.type	bt_hw_xsetbv, @function
bt_hw_xsetbv:
	movl	%edi, %ecx
	movq	%rsi, %rax
	movq	%rsi, %rdx
	shrq	$32, %rdx
bt_hw_xsetbv_insn:
	xsetbv				/* #GP for an invalid XCR0 combination */
	xorl	%eax, %eax
bt_hw_xsetbv_resume:
	ret
	.size	bt_hw_xsetbv, . - bt_hw_xsetbv

/* uint32_t bt_hw_ud2(void): always raises #UD; the fault guard's self-test. */
	.globl	bt_hw_ud2
	.globl	bt_hw_ud2_insn
	.globl	bt_hw_ud2_resume
	.type	bt_hw_ud2, @function
bt_hw_ud2:
	xorl	%eax, %eax
bt_hw_ud2_insn:
	ud2
bt_hw_ud2_resume:
	ret
	.size	bt_hw_ud2, . - bt_hw_ud2

/* void bt_hw_ud2_unguarded(void): UD2 with no resume address, so the fault
 * guard treats it as the unexpected exception it is. Only for the self-test
 * of how baretop handles a crash on an AP (--fault-selftest-ap). */
	.globl	bt_hw_ud2_unguarded
	.type	bt_hw_ud2_unguarded, @function
bt_hw_ud2_unguarded:
	ud2
	ret
	.size	bt_hw_ud2_unguarded, . - bt_hw_ud2_unguarded

/*
 * uint32_t bt_hw_run_window(uint32_t msr, uint64_t start, uint64_t stop,
 *                           void (*fn)(void *), void *arg)
 *
 * The counting window: WRMSR(msr, start); fn(arg); WRMSR(msr, stop).
 * WRMSR to the global-control MSRs is serializing (SDM vol. 3A, "Serializing
 * Instructions"), so nothing after the start write begins before counting is
 * on, and nothing before the stop write is still in flight when it stops.
 * LFENCEs outside the window keep the set-up and tear-down out of it.
 *
 * Instructions retired while counting that are not the workload's: between
 * the two WRMSRs there are exactly
 *     call *%r13          1
 *     movl %ebx, %ecx     2   (WRMSR takes ECX, EDX:EAX, all caller-saved,
 *     movl %r12d, %eax    3    so they must be reloaded after the call)
 *     movl %r15d, %edx    4
 * plus, depending on the microarchitecture, the start and/or stop WRMSR
 * themselves. tests/suite checks this count on the built binary. The body's
 * own prologue/epilogue and RET belong to the workload function and are
 * removed by calibrating with an empty body.
 *
 * Returns 0, or the vector if a WRMSR faulted (then the workload did not run,
 * or ran with counting possibly on: the caller must stop and restore).
 */
	.globl	bt_hw_run_window
	.globl	bt_hw_window_start_insn
	.globl	bt_hw_window_stop_insn
	.globl	bt_hw_window_start_resume
	.globl	bt_hw_window_stop_resume
	.type	bt_hw_run_window, @function
bt_hw_run_window:
	pushq	%rbx
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15			/* 5 pushes: RSP is 16-byte aligned for the call */
	movl	%edi, %ebx		/* msr */
	movl	%edx, %r12d		/* stop[31:0] */
	movq	%rdx, %r15
	shrq	$32, %r15		/* stop[63:32] */
	movq	%rcx, %r13		/* fn */
	movq	%r8, %r14		/* arg */
	movl	%edi, %ecx
	movq	%rsi, %rax
	movq	%rsi, %rdx
	shrq	$32, %rdx
	movq	%r14, %rdi		/* fn's argument, loaded before counting starts */
	lfence
bt_hw_window_start_insn:
	wrmsr				/* ---- counting starts ---- */
	call	*%r13
	movl	%ebx, %ecx
	movl	%r12d, %eax
	movl	%r15d, %edx
bt_hw_window_stop_insn:
	wrmsr				/* ---- counting stops ---- */
	lfence
	xorl	%eax, %eax
	jmp	1f
bt_hw_window_start_resume:		/* the start WRMSR faulted: fn did not run */
	jmp	1f
bt_hw_window_stop_resume:		/* the stop WRMSR faulted */
1:	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	ret
	.size	bt_hw_run_window, . - bt_hw_run_window

	.section .note.GNU-stack, "", @progbits
