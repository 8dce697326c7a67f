/* SPDX-License-Identifier: MIT */
/* What the known-count kernels are told about the CPU (struct bt_kernel_cpu),
 * read here because kernels/ never executes CPUID. */
#ifndef APP_KERNEL_CPU_H
#define APP_KERNEL_CPU_H

#include "arch/arch.h"
#include "kernels/kernel.h"

/* The usable vector ISA (bt_cpu_features_read, arch/cpuid.h: AVX, FMA and
 * AVX-512F count only with their register state enabled in XCR0, so call
 * after bt_xstate_enable on bare metal; an OS has done it hosted) and the
 * L1D size from CPUID leaf 4. */
void bt_kernel_cpu_detect(struct bt_arch *a, struct bt_kernel_cpu *ret);

#endif
