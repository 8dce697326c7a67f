/* SPDX-License-Identifier: MIT */
/*
 * CPU facts read from CPUID that more than one room needs: the vendor and
 * the hybrid core type. They live here, beside the instruction that reads
 * them, so that the driver (pmu/) and the simulated PMU (arch/sim/) name
 * them the same way without depending on each other. What a PMU can do is
 * pmu/'s (pmu/pmu-caps.h); these are only the facts around it.
 */
#ifndef ARCH_CPUID_H
#define ARCH_CPUID_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/arch.h"

enum bt_vendor {
	BT_VENDOR_UNKNOWN = 0,
	BT_VENDOR_INTEL,
	BT_VENDOR_AMD,
};

/* CPUID.1AH:EAX[31:24], the core type of a hybrid Intel part. */
enum bt_core_type {
	BT_CORE_TYPE_NONE = 0,    /* not hybrid, or not reported */
	BT_CORE_TYPE_ATOM = 0x20, /* E-core (Gracemont, Crestmont, Skymont) */
	BT_CORE_TYPE_CORE = 0x40, /* P-core (Golden Cove, Redwood Cove, Lion Cove) */
};

/* The vendor named by CPUID.0H:EBX,EDX,ECX ("GenuineIntel", "AuthenticAMD";
 * Hygon's Zen-derived parts count as AMD). */
enum bt_vendor bt_vendor_from_cpuid(const struct bt_cpuid *leaf0);

#endif
