/* SPDX-License-Identifier: MIT */
/*
 * The built-in spec: the architectural events of this vendor's PMU, each
 * paired with a known-count kernel and an expectation (exact where the
 * kernel declares the count, a plausibility range where only the
 * micro-architecture decides, said so in the report). Intel: the events of
 * CPUID.0AH:EBX that the PMU reports available (SDM vol. 3B, "Pre-defined
 * Architectural Performance Events"); AMD: the core events every family
 * 17h+ part has (APM vol. 2 sec. 13.2 and the PPRs: 0x76, 0xC0, 0xC2..0xC4,
 * 0xC8).
 */
#ifndef VALIDATE_BUILTIN_SPEC_H
#define VALIDATE_BUILTIN_SPEC_H

#include "base/status.h"
#include "pmu/cpu-info.h"
#include "validate/spec.h"

bt_status bt_vspec_builtin(const struct bt_pmu_caps *caps, struct bt_vspec *s);

/*
 * The events the model's Top-Down level-1 and level-2 formulas use (what
 * the tree will count on this part), each over the DEC/JNZ loop: an exact or
 * ranged expectation where the event's meaning gives one (instructions,
 * branches, mispredicts, cycles by name), otherwise a plausibility bound
 * that says so: at most 8 x core cycles (no core this model describes
 * issues, dispatches or retires more than 8 per cycle) or, for a count of
 * cycles (INT_MISC.RECOVERY_CYCLES), at most the core cycles. constants:
 * the model's constants (bt_model_events_up_to_level), may be NULL.
 */
struct bt_model;
bt_status bt_vspec_builtin_model(const struct bt_model *m, const double *constants,
				 const struct bt_pmu_caps *caps, struct bt_vspec *s);
/* The same for the events of every tree node of level <= level (--bring-up:
 * all the levels the run may reach). */
bt_status bt_vspec_builtin_model_level(const struct bt_model *m, unsigned level,
				       const double *constants, const struct bt_pmu_caps *caps,
				       struct bt_vspec *s);

#endif
