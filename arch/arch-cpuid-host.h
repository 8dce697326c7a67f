/* SPDX-License-Identifier: MIT */
#ifndef ARCH_ARCH_CPUID_HOST_H
#define ARCH_ARCH_CPUID_HOST_H

#include "arch/arch.h"

/* Linux user space: real CPUID and RDTSC; MSRs, RDPMC, XSETBV refused. */
struct bt_arch *bt_arch_cpuid_host(void);

#endif
