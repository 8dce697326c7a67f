/* SPDX-License-Identifier: MIT */
/*
 * The hardware backend of arch/arch.h: real instructions at ring 0 (EFI app
 * only). MSR, RDPMC and XSETBV accesses are guarded: the platform's #GP/#UD
 * handler calls bt_hw_fault_fixup(), which resumes the faulting stub with
 * the vector as its return value.
 */
#ifndef ARCH_ARCH_HW_H
#define ARCH_ARCH_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"

/* The hardware backend (a single instance; the fault state is per call). */
struct bt_arch *bt_arch_hw(void);

/*
 * Called by the platform's exception handler. If *rip is one of the guarded
 * instructions, moves *rip to its resume point, sets *rax to the vector and
 * returns true; otherwise returns false and changes nothing.
 */
bool bt_hw_fault_fixup(uint8_t vector, uint64_t *rip, uint64_t *rax);

/*
 * The platform says whether its fault guard is in place. Until it is, the
 * backend refuses every instruction that can fault (BT_ERR_UNSUPPORTED):
 * an unguarded #GP at ring 0 would end in the firmware's dead loop.
 */
void bt_arch_hw_set_guarded(bool guarded);
bool bt_arch_hw_guarded(void);

/* Executes UD2 through the guard: returns 6 (#UD) when the guard works.
 * Only call it when bt_arch_hw_guarded(). For the self-test. */
uint32_t bt_hw_ud2(void);
/* UD2 outside the guard: an unexpected exception, for --fault-selftest-ap. */
void bt_hw_ud2_unguarded(void);

/*
 * A 64-bit random value from RDRAND, where CPUID says the instruction
 * exists and it delivers within 10 tries; false otherwise (the caller falls
 * back to a weaker source). Not a guarded instruction: RDRAND cannot fault
 * once CPUID reports it. For the EFI app's stack-protector canary.
 */
bool bt_hw_rdrand64(uint64_t *ret);

/*
 * Stopping this CPU for good, from the platform's exception handler.
 * bt_hw_park_forever masks interrupts first (CLI; HLT in a loop): an AP that
 * faulted may not return into the firmware's MP services, and nothing may
 * wake it into code that is no longer in a known state. bt_hw_halt_forever
 * leaves RFLAGS.IF as it is (HLT in a loop): the BSP's last resort after a
 * fault while reporting a fault, or a power-off that returned. An NMI or SMI
 * still resumes after HLT, hence the loops (SDM vol. 2A, HLT).
 */
_Noreturn void bt_hw_park_forever(void);
_Noreturn void bt_hw_halt_forever(void);

#endif
