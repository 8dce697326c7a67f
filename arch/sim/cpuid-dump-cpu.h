/* SPDX-License-Identifier: MIT */
#ifndef ARCH_ARCH_CPUID_DUMP_H
#define ARCH_ARCH_CPUID_DUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"
#include "arch/cpuid-dump.h"

/*
 * A backend that answers CPUID from one group of a CPUID dump: detection run
 * on it decides what baretop would decide on that machine. A dump holds no
 * MSRs: IA32_PERF_CAPABILITIES reads `perf_capabilities` when
 * has_perf_capabilities (a value assumed by the caller, who says so), every
 * other MSR access raises #GP, RDPMC #UD, and the TSC reads 0.
 */
struct bt_arch_dump {
	struct bt_arch arch;
	const struct bt_cpuid_dump_group *group;
	bool has_perf_capabilities;
	uint64_t perf_capabilities;
};

void bt_arch_dump_init(struct bt_arch_dump *a, const struct bt_cpuid_dump_group *g);

#endif
