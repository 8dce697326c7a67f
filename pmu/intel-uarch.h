/* SPDX-License-Identifier: MIT */
/*
 * CPUID family/model (+ hybrid core type) -> Intel core microarchitecture
 * class (enum bt_intel_uarch in pmu/cpu-info.h), and the facts that follow
 * from it and that CPUID does not enumerate.
 */
#ifndef PMU_INTEL_UARCH_H
#define PMU_INTEL_UARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/cpu-info.h"

/* Display family and model (SDM vol. 2A CPUID.01H:EAX), and the hybrid
 * core type (CPUID.1AH:EAX[31:24]; 0 when not hybrid). */
enum bt_intel_uarch bt_intel_uarch_of(uint32_t family, uint32_t model, uint8_t core_type);
const char *bt_intel_uarch_name(enum bt_intel_uarch u);

/*
 * Part-specific facts Linux perf keys on the display model (intel_pmu_init(),
 * intel_pmu_broken_perf_cap()); family 6 only, false otherwise.
 *
 * Alder Lake / Raptor Lake (6-97, 9A, B7, BA, BF): no leaf 23H, and on a
 * hybrid part leaf 0AH enumerates only the counters both core types have.
 */
bool bt_intel_is_adl_rpl(uint32_t family, uint32_t model);
/* Meteor Lake (6-AA, 6-AC): IA32_PERF_CAPABILITIES[15] always reads 0. */
bool bt_intel_perf_cap_pm_broken(uint32_t family, uint32_t model);

/*
 * The core type detection should use: CPUID.1AH:EAX[31:24] on a hybrid part
 * (CPUID.07H:EDX[15]); on an Alder/Raptor Lake model that is not hybrid (its
 * E-cores fused off or absent, e.g. i5-12400) the P-core's, as Linux
 * adl_get_hybrid_cpu_type() decides; otherwise 0.
 */
uint8_t bt_intel_effective_core_type(uint32_t family, uint32_t model, bool is_hybrid,
				     uint8_t core_type);

/* MSR_PERF_METRICS fields that exist (0 when the class has none known). */
uint8_t bt_intel_perf_metrics_fields(enum bt_intel_uarch u);

#endif
