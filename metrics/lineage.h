/* SPDX-License-Identifier: MIT */
/*
 * Which core a CPU model is built from, for the parts Intel's perfmon
 * mapfile has no row for: a known core in a new package gets the published
 * model of that core (applied by bt_model_select()); a new core gets only a
 * suggestion, the nearest published model by core lineage, which is never
 * applied without the user asking for it (--model ID).
 */
#ifndef METRICS_LINEAGE_H
#define METRICS_LINEAGE_H

#include <stdint.h>

struct bt_cpu_facts;

struct bt_core_lineage {
	const char *vendor;
	uint16_t family;          /* display family: never assumed to be 6 */
	uint8_t model;            /* display model */
	uint8_t core_type;        /* CPUID.1AH EAX[31:24]; 0 = any */
	uint32_t native_model;    /* CPUID.1AH EAX[23:0]; 0 = any */
	const char *part;         /* "Bartlett Lake" */
	const char *core;         /* "Raptor Cove" */
	const char *model_id;     /* the model of this very core (its published one, or
				   * TNT for Tremont's own events), or NULL */
	const char *nearest;      /* the nearest published model by lineage, or NULL */
	const char *source;       /* where the core's name comes from */
};

/* The row for these facts, or NULL. */
const struct bt_core_lineage *bt_core_lineage_of(const struct bt_cpu_facts *cpu);

/*
 * The nearest published model to suggest for a CPU no model covers (NULL:
 * none known), with why in *why (the lineage row's core, or the core type
 * alone for a hybrid core no row names). Only ever a suggestion.
 */
const char *bt_model_suggest(const struct bt_cpu_facts *cpu, const char **why);

#endif
