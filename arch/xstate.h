/* SPDX-License-Identifier: MIT */
/*
 * Enabling the AVX and AVX-512 register state for the vectorised workloads.
 * UEFI firmware runs with SSE enabled but usually leaves CR4.OSXSAVE and
 * XCR0 at their reset values (x87 only), so VEX/EVEX instructions raise #UD
 * until the program enables the state itself. CR4 and XCR0 are per logical
 * CPU; what was changed is restored by bt_xstate_restore().
 */
#ifndef ARCH_XSTATE_H
#define ARCH_XSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"

/* XCR0 bits (Intel SDM vol. 1, 13.3 "Enabling the XSAVE Feature Set"). */
#define BT_XCR0_X87      (1ull << 0)
#define BT_XCR0_SSE      (1ull << 1)
#define BT_XCR0_AVX      (1ull << 2)  /* YMM_Hi128 */
#define BT_XCR0_OPMASK   (1ull << 5)
#define BT_XCR0_ZMM_HI256 (1ull << 6)
#define BT_XCR0_HI16_ZMM (1ull << 7)
#define BT_XCR0_AVX512   (BT_XCR0_OPMASK | BT_XCR0_ZMM_HI256 | BT_XCR0_HI16_ZMM)

#define BT_CR4_OSXSAVE   (1ull << 18)

struct bt_xstate {
	bool changed;            /* CR4 or XCR0 were written */
	uint64_t old_cr4, old_xcr0;
	bool old_xcr0_valid;
	uint64_t xcr0;           /* XCR0 now (0 if XSAVE is unavailable) */
	char note[160];          /* what was done, or why not */
};

/* Enables x87|SSE|AVX, and AVX-512 where CPUID.0DH says XCR0 supports it.
 * Never fails: when XSAVE is absent or XSETBV faults, xcr0 says what is
 * usable and note says why. */
void bt_xstate_enable(struct bt_arch *a, struct bt_xstate *ret);
void bt_xstate_restore(struct bt_arch *a, const struct bt_xstate *x);

#endif
