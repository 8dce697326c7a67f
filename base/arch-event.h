/* SPDX-License-Identifier: MIT */
/*
 * The pre-defined architectural performance events of Intel processors, by
 * the bit CPUID enumerates them with (Intel SDM vol. 3B, "Pre-defined
 * Architectural Performance Events"; CPUID.0AH:EBX and CPUID.23H.03H:EAX):
 * bits 0-6 since perfmon v1, 7 Topdown Slots, 8-11 the Topdown level-1
 * events, 12 LBR inserts. One table for the two rooms that name them: pmu/
 * (which of them a core enumerates) and metrics/ (the architectural
 * Top-Down model, metrics/arch-model.h).
 */
#ifndef BASE_ARCH_EVENT_H
#define BASE_ARCH_EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct bt_arch_event {
	const char *name;   /* the SDM's name, as baretop spells events */
	uint8_t code, umask;
};

#define BT_ARCH_EV_CORE_CYCLES   0
#define BT_ARCH_EV_INSTRUCTIONS  1
#define BT_ARCH_EV_TD_SLOTS      7
#define BT_ARCH_EV_TD_BE_BOUND   8
#define BT_ARCH_EV_TD_BAD_SPEC   9
#define BT_ARCH_EV_TD_FE_BOUND   10
#define BT_ARCH_EV_TD_RETIRING   11
#define BT_ARCH_EV_COUNT         13

/* The event of CPUID bit `bit`, or NULL past the last one known. */
const struct bt_arch_event *bt_arch_event(unsigned bit);

/* What a core enumerates that the architectural Top-Down model depends on
 * (filled by pmu/ from its caps, read by metrics/arch-model.h). */
struct bt_arch_td {
	bool known;              /* filled from a CPU (else: nothing is known) */
	uint32_t events;         /* bit x: architectural event x available */
	bool events_23h;         /* from CPUID.23H.03H (else CPUID.0AH) */
	uint8_t slots_per_cycle; /* CPUID.23H.00H:ECX[7:0] SLOTS_PER_CYC */
	uint32_t fixed_mask;     /* fixed counters that exist */
	uint8_t perf_metrics_fields; /* 0: no PERF_METRICS; 4 or 8 fields */
};

#endif
