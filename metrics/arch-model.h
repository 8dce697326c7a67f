/* SPDX-License-Identifier: MIT */
/*
 * ARCH: the architectural Top-Down model, for a core that no published
 * model covers but that enumerates the architectural Top-Down events
 * (Intel SDM vol. 3B, "Pre-defined Architectural Performance Events";
 * CPUID.0AH, CPUID.23H subleaves 0 and 3). Built from what the core
 * enumerates, so there is one model per combination (where the slots come
 * from, whether Bad Speculation is counted, PERF_METRICS), each named
 * "ARCH" and described as "architectural (CPUID-enumerated)".
 *
 * metrics/ does not decode CPUID: pmu/ fills struct bt_arch_td
 * (base/arch-event.h) from its caps (bt_arch_td_from_caps(), pmu/pmu-caps.h).
 */
#ifndef METRICS_ARCH_MODEL_H
#define METRICS_ARCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arch-event.h"
#include "base/diag.h"
#include "base/status.h"
#include "metrics/model-def.h"

#define BT_ARCH_MODEL_ID "ARCH"
#define BT_ARCH_MODEL_NAME "architectural (CPUID-enumerated)"

enum bt_arch_slots {
	BT_ARCH_SLOTS_NONE = 0,
	BT_ARCH_SLOTS_PER_CYCLE,  /* SLOTS_PER_CYC x core cycles (fixed counter 1) */
	BT_ARCH_SLOTS_EVENT,      /* Topdown Slots, A4H/01H (fixed counter 3) */
};

/* Where the slot count comes from: fixed counter 3 (TOPDOWN.SLOTS) where
 * PERF_METRICS is read (its fields are fractions of it); else
 * SLOTS_PER_CYC x cycles where it is non-zero (and fixed counter 1 or the
 * cycles event exists), else the Topdown Slots event (enumerated, or fixed
 * counter 3), else none. */
enum bt_arch_slots bt_arch_td_slots(const struct bt_arch_td *t);
const char *bt_arch_slots_name(enum bt_arch_slots s);

/* ARCH applies: at least Frontend Bound, Backend Bound and Retiring are
 * enumerated (or PERF_METRICS is there) and slots can be counted. False
 * with the reason in why (one sentence) otherwise. */
bool bt_arch_td_usable(const struct bt_arch_td *t, char *why, size_t why_len);

/* The events ARCH's level 1 counts on this core (up to max; returns how
 * many): PERF_METRICS fields are not listed, the architectural events and
 * the cycles/instructions events are. */
unsigned bt_arch_td_events(const struct bt_arch_td *t, const struct bt_arch_event **out,
			   unsigned max);

/* The ARCH model for this core, built on first use and kept for the life of
 * the program (like the unpacked built-in models). BT_ERR_UNSUPPORTED with
 * the reason when !bt_arch_td_usable(). */
bt_status bt_arch_model(const struct bt_arch_td *t, const struct bt_model_def **ret,
			struct bt_diag *d);

#endif
