/* SPDX-License-Identifier: MIT */
/*
 * CPU facts read from CPUID (and XCR0) that more than one room needs: the
 * vendor, the hybrid core type, and which vector ISA is usable. They live
 * here, beside the instruction that reads them, so that the driver (pmu/),
 * the workloads, the known-count kernels and the simulated PMU (arch/sim/)
 * name them the same way without depending on each other. What a PMU can
 * do is pmu/'s (pmu/pmu-caps.h); these are only the facts around it.
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

/*
 * Which vector ISA is usable: the CPU has it AND its register state is
 * enabled in XCR0, i.e. its instructions will not raise #UD. One struct for
 * every user (the workloads' struct bt_wl_cpu, the known-count kernels'
 * struct bt_kernel_cpu), decoded in one place.
 */
struct bt_cpu_features {
	bool sse2;           /* CPUID.01H:EDX[26] (always set on x86-64) */
	bool avx;            /* CPUID.01H:ECX[28] and XCR0[2:1] = 11b */
	bool fma;            /* AVX usable and CPUID.01H:ECX[12] */
	bool avx512f;        /* AVX usable, CPUID.(07H,0):EBX[16] and XCR0[7:5] = 111b */
};

/*
 * Decode from the CPUID leaves and XCR0 (SDM vol. 2A, CPUID; vol. 1, 13.3
 * "Enabling the XSAVE Feature Set"). `leaf7` is CPUID.(07H,0), all zero when
 * the maximum basic leaf is below 7. `xcr0` is XCR0 as XGETBV read it after
 * the caller enabled the state, 0 when it could not be read (XGETBV needs
 * CR4.OSXSAVE): the OS or the app must enable every state component of a
 * feature before its instructions stop raising #UD.
 */
void bt_cpu_features_decode(const struct bt_cpuid *leaf1, const struct bt_cpuid *leaf7,
			    uint64_t xcr0, struct bt_cpu_features *ret);

/* Read CPUID leaves 1 and 7 and, when CPUID.01H:ECX[27] says CR4.OSXSAVE is
 * set, XCR0, through the arch seam, and decode them (all false when CPUID
 * has no leaf 1). Call after bt_xstate_enable() on bare metal; an OS has
 * enabled the state hosted. */
void bt_cpu_features_read(struct bt_arch *a, struct bt_cpu_features *ret);

#endif
