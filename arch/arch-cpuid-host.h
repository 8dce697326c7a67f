/* SPDX-License-Identifier: MIT */
#ifndef ARCH_ARCH_CPUID_HOST_H
#define ARCH_ARCH_CPUID_HOST_H

#include "arch/arch.h"

/* Linux user space: real CPUID and RDTSC; MSRs, RDPMC, XSETBV refused. */
struct bt_arch *bt_arch_cpuid_host(void);

/* RDPMC of counter `ecx` in ring 3, for Linux perf_event's self-monitoring
 * (host/perf-pmu.c): call it only for a counter whose mmap'd
 * perf_event_mmap_page says cap_user_rdpmc, with ecx = index - 1. The
 * kernel then has CR4.PCE set for this task; otherwise RDPMC raises #GP
 * (SDM vol. 2B, RDPMC), which hosted is SIGSEGV. */
uint64_t bt_arch_host_user_rdpmc(uint32_t ecx);

#endif
