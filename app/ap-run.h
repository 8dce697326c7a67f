/* SPDX-License-Identifier: MIT */
/*
 * One job on an AP, on a stack baretop allocates, and the way back to the
 * firmware after a fault in it.
 *
 * The stack. Firmware hands the procedure of an MP call the AP's own
 * stack: PcdCpuApStackSize bytes, side by side with the other APs' and no
 * guard page unless PcdCpuStackGuard (EDK2 UefiCpuPkg/Library/MpInitLib/
 * MpLib.c MpInitLibInitialize); Intel server boards set 0x1000
 * (edk2-platforms WhitleyOpenBoardPkg), FSP boards 0x2000, OVMF 0x8000.
 * baretop's deepest path on an AP (the measuring engine's 10 KB frame and
 * its calibration's 4 KB, pmu/measure.c) needs several times the smallest,
 * so bt_ap_run_entry switches to a stack of its own at once
 * (arch/stack-call.h) and the job runs there; on the firmware's stack stay
 * only the platform's procedure, this entry and the switch's saves. Both
 * are measured: the firmware stack from the procedure's entry to the
 * switch, baretop's by painting it before the job and finding the deepest
 * byte written after. The lowest BT_AP_STACK_GUARD bytes are painted too
 * and must come back unchanged: a job that reached them is reported as an
 * overflow (the stack is heap memory; there is no page to unmap here).
 *
 * The way back. An exception on an AP runs on the stack the AP was on,
 * which is baretop's (CpuExceptionHandlerLib X64 CommonInterruptEntry
 * switches stacks only for the vectors of PcdCpuStackSwitchExceptionList
 * when PcdCpuStackGuard is set), and the handler registered for it may
 * change the context IRETQ resumes with (RIP and RSP included). The
 * platform's handler asks bt_ap_fault_recover: when the faulting RSP lies
 * in one of the stacks below, the fault is recorded and the context moved
 * to the switch's resume point with the firmware stack's saved RSP, so the
 * job's call returns 1 on the firmware's stack with the registers, RFLAGS
 * and floating-point controls the AP had before the job. Then, in normal
 * context and on baretop's stack again, the job's abandon cleanups run
 * (the PMU session closed, its MSRs restored; the vector state put back),
 * and the procedure returns to the MP driver like any other. This is safe
 * because a job calls no firmware service (only WhoAmI, before the
 * switch): the frames left behind are baretop's own, on baretop's stack,
 * and hold no lock or state of the firmware's; the firmware's part of the
 * AP stack was never written by the job; and the exception entry itself
 * completes (the handler returns; IRETQ). A fault while the cleanups run
 * is handled the same way, once: the remaining cleanups are skipped and
 * the CPU is reported as not accounted for (its PMU may still be
 * baretop's). A fault with RSP outside these stacks (in the procedure or
 * the switch itself) is not recoverable here: the platform parks the CPU
 * and the blocking call's timeout ends it (the firmware then resets the
 * AP with INIT).
 */
#ifndef APP_AP_RUN_H
#define APP_AP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/stack-call.h"
#include "base/status.h"

/* baretop's stack for one AP job, and the painted guard below it. */
#define BT_AP_STACK_BYTES (64u * 1024u)
#define BT_AP_STACK_GUARD 4096u
#define BT_AP_RUN_CLEANUPS 4

/* A fault on an AP, as the platform's handler saw it. */
struct bt_ap_fault {
	uint8_t vector;
	uint64_t rip, cr2;
	uint64_t image_offset;         /* RIP - baretop's image base; 0: outside it */
	const char *fatal;             /* not an exception: a failed check's text, or NULL */
	const char *detail;
};

/* What one job used of the two stacks. */
struct bt_ap_stack_use {
	uint32_t used;                 /* bytes of baretop's AP stack, at the deepest */
	uint32_t size;                 /* BT_AP_STACK_BYTES */
	bool overflow;                 /* it reached the guard bytes */
	uint32_t fw_used;              /* bytes of the firmware's AP stack baretop used */
};

struct bt_ap_run {
	/* set by bt_ap_run_prepare */
	void (*fn)(void *);
	void *arg;
	uint8_t *mem;                  /* guard, then the stack */
	uint8_t *top;
	struct bt_stack_call sc;
	struct bt_ap_run *next;
	/* set on the AP */
	uint64_t entry_sp;
	bool entered, returned;
	volatile uint32_t faults;      /* 1: the job faulted; 2: its cleanup too */
	struct bt_ap_fault fault;
	void (*cleanup[BT_AP_RUN_CLEANUPS])(void *);
	void *cleanup_arg[BT_AP_RUN_CLEANUPS];
	unsigned n_cleanup;
	/* set by bt_ap_run_finish */
	struct bt_ap_stack_use use;
};

/* On the BSP, before the MP call: a stack for fn(arg), painted, and the
 * run registered for the fault handler. BT_ERR_NOMEM. */
bt_status bt_ap_run_prepare(struct bt_ap_run *r, void (*fn)(void *), void *arg);
/* On the AP, on the firmware's stack, from the platform's procedure:
 * entry_sp is the stack pointer that procedure was called with. */
void bt_ap_run_entry(struct bt_ap_run *r, uint64_t entry_sp);
/* On the BSP after the MP call: unregistered, its stack measured and
 * freed (r->use). */
void bt_ap_run_finish(struct bt_ap_run *r);

/* From a job on an AP: fn(arg) runs if the job is abandoned after a
 * fault (last registered first). false when the caller is not a job on
 * one of these stacks (the BSP: the platform's set_park_cleanup then). */
bool bt_ap_run_on_abandon(void (*fn)(void *), void *arg);
/* The last one registered, when the job got past what it protected;
 * false when the caller is not a job on one of these stacks. */
bool bt_ap_run_drop_abandon(void);

/* The platform's exception handler on an AP: true when the fault is on a
 * job's stack (rsp), with *ret_rip / *ret_rsp the context to resume. */
bool bt_ap_fault_recover(const struct bt_ap_fault *f, uint64_t rsp, uint64_t *ret_rip,
			 uint64_t *ret_rsp);
/* A failed check on an AP, in normal context: abandons the job it is in
 * (does not return) or returns false when it is in none. */
bool bt_ap_abandon_here(const struct bt_ap_fault *f);

#endif
