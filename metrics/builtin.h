/* SPDX-License-Identifier: MIT */
/*
 * The built-in models (metrics/gen/, written by tools/gen-models) and the
 * CPUID -> model table generated from perfmon's mapfile.csv.
 */
#ifndef METRICS_BUILTIN_H
#define METRICS_BUILTIN_H

#include <stdint.h>

#include "metrics/model-def.h"

extern const struct bt_model_def *const bt_builtin_models[];
extern const unsigned bt_builtin_model_count;

/* Built-in model by id (case-insensitive), or NULL. */
const struct bt_model_def *bt_builtin_find(const char *id);

/* One row of metrics/gen/mapfile.c. */
struct bt_cpu_map_entry {
	const char *vendor;        /* "GenuineIntel" / "AuthenticAMD" */
	uint16_t family;           /* display family */
	uint8_t model_lo, model_hi; /* display model range */
	uint16_t steppings;        /* bit n set: stepping n matches */
	uint8_t core_type;         /* CPUID.1AH EAX[31:24]; 0 = any */
	uint32_t native_model;     /* CPUID.1AH EAX[23:0]; 0 = any */
	const char *model_id;      /* built-in model */
	const char *key;           /* the mapfile.csv key, for messages */
};

extern const struct bt_cpu_map_entry bt_cpu_map[];
extern const unsigned bt_cpu_map_count;

#endif
