/* SPDX-License-Identifier: MIT */
/*
 * CPUID family/model (+ hybrid core type) -> Intel core microarchitecture
 * class (enum bt_intel_uarch in pmu/cpu-info.h), and the facts that follow
 * from it and that CPUID does not enumerate.
 */
#ifndef PMU_INTEL_UARCH_H
#define PMU_INTEL_UARCH_H

#include <stdint.h>

#include "pmu/cpu-info.h"

/* Display family and model (SDM vol. 2A CPUID.01H:EAX), and the hybrid
 * core type (CPUID.1AH:EAX[31:24]; 0 when not hybrid). */
enum bt_intel_uarch bt_intel_uarch_of(uint32_t family, uint32_t model, uint8_t core_type);
const char *bt_intel_uarch_name(enum bt_intel_uarch u);

/* MSR_PERF_METRICS fields that exist (0 when the class has none known). */
uint8_t bt_intel_perf_metrics_fields(enum bt_intel_uarch u);

#endif
