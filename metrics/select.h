/* SPDX-License-Identifier: MIT */
/*
 * Choosing a built-in model from CPUID facts, the way perfmon's mapfile.csv
 * maps CPUs to files (metrics/gen/mapfile.c is generated from it). pmu/
 * detection fills struct bt_cpu_facts from struct bt_cpu_info; metrics/ does
 * not depend on pmu/.
 */
#ifndef METRICS_SELECT_H
#define METRICS_SELECT_H

#include <stdint.h>

#include "base/diag.h"
#include "base/arch-event.h"
#include "metrics/model-def.h"
#include "base/status.h"

struct bt_cpu_facts {
	const char *vendor;      /* "GenuineIntel", "AuthenticAMD" */
	uint32_t family;         /* display family (base + extended) */
	uint32_t model;          /* display model (extended << 4 | base) */
	uint32_t stepping;
	uint8_t core_type;       /* CPUID.1AH EAX[31:24] on hybrid parts (0x20 E, 0x40 P), else 0 */
	uint32_t native_model;   /* CPUID.1AH EAX[23:0], or 0 */
	/* The architectural Top-Down events the core enumerates (pmu/
	 * bt_arch_td_from_caps()), or NULL when not known: the built-in ARCH
	 * model (metrics/arch-model.h) is chosen from it for a core no
	 * published model covers, and --model ARCH needs it. */
	const struct bt_arch_td *arch_td;
};

/*
 * force_id: use this built-in model whatever the CPU (NULL = select from cpu);
 * "ARCH" builds the architectural model from cpu->arch_td. Without a force,
 * the order is: the mapfile row, the model of the core by lineage (a known
 * core in a new package, metrics/lineage.h; TNT, the Tremont core's own
 * Top-Down events, metrics/tremont-model.h), then ARCH where the core
 * enumerates the architectural Top-Down events.
 * Unknown CPU or unknown id: BT_ERR_NOT_FOUND, and the message lists the
 * available models and how to force one.
 */
bt_status bt_model_select(const struct bt_cpu_facts *cpu, const char *force_id,
			  const struct bt_model_def **ret, struct bt_diag *d);

/* "GenuineIntel-6-8F-8" style key of the facts (for messages), buf >= 48. */
void bt_cpu_facts_key(const struct bt_cpu_facts *cpu, char *buf, unsigned size);

#endif
