/* SPDX-License-Identifier: MIT */
/*
 * Calling a function on another stack, and abandoning such a call.
 *
 * Firmware gives an AP a small stack: EDK2's MpInitLib packs the APs' stacks
 * of PcdCpuApStackSize side by side with no guard page unless
 * PcdCpuStackGuard is set (UefiCpuPkg/Library/MpInitLib/MpLib.c
 * MpInitLibInitialize: one buffer of ApStackSize * CPUs), and real boards set
 * 0x1000 or 0x2000 where OVMF has 0x8000. baretop's deepest path on an AP
 * needs several times that, so the job runs on a stack baretop allocates
 * (app/ap-stack.h) and only this switch uses the firmware's.
 *
 * bt_stack_call saves the callee-saved registers, RFLAGS, MXCSR and the x87
 * control word on the caller's stack (what the System V ABI has a callee
 * preserve), records that stack pointer in sc, and calls fn(arg) with RSP =
 * top; it returns 0 when fn returns. To abandon the call (a fault in fn on
 * an AP, which may not stay inside baretop: app/ap-stack.h), execution
 * resumes at bt_stack_resume_address() with RSP = sc->saved_rsp: either the
 * exception handler puts both into the context the exception returns with,
 * or bt_stack_abandon does so from normal context. bt_stack_call then returns
 * 1 with the registers, flags and floating-point controls restored, as if fn
 * had returned; nothing of the firmware's part of the stack was touched.
 * fn's frames are left as they were, on the other stack.
 *
 * x86-64 System V only (both builds). A CET shadow stack would not match an
 * abandoned call's returns; neither firmware baretop runs under nor Linux
 * user space enables one for it.
 */
#ifndef ARCH_STACK_CALL_H
#define ARCH_STACK_CALL_H

#include <stdint.h>

struct bt_stack_call {
	/* Set by bt_stack_call: the caller's stack pointer below what it
	 * saved; the lowest point of the caller's stack the switch uses. */
	uint64_t saved_rsp;
};

/* fn(arg) with RSP = top (16-byte aligned, the highest address + 1):
 * 0 when fn returned, 1 when the call was abandoned. */
int bt_stack_call(struct bt_stack_call *sc, void (*fn)(void *), void *arg, void *top);

/* Where an abandoned call resumes, with RSP = sc->saved_rsp. */
uint64_t bt_stack_resume_address(void);

/* From fn (or anything it called), in normal context: abandon the call. */
_Noreturn void bt_stack_abandon(const struct bt_stack_call *sc);

/* Bytes the switch itself keeps on the caller's stack below its return
 * address (six registers, RFLAGS, MXCSR and the x87 control word). */
#define BT_STACK_CALL_SAVED 64u

#endif
