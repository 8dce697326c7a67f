/* SPDX-License-Identifier: MIT */
/* What the known-count kernels are told about the CPU (struct bt_kernel_cpu),
 * read here because kernels/ never executes CPUID. */
#ifndef APP_KERNEL_CPU_H
#define APP_KERNEL_CPU_H

#include "arch/arch.h"
#include "kernels/kernel.h"

/* From CPUID leaves 1, 7 and 4, and XCR0 when CR4.OSXSAVE is set: AVX, FMA
 * and AVX-512F count only with their register state enabled in XCR0 (call
 * after bt_xstate_enable on bare metal; an OS has done it hosted). */
void bt_kernel_cpu_detect(struct bt_arch *a, struct bt_kernel_cpu *ret);

#endif
