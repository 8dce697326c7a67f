/* SPDX-License-Identifier: MIT */
/*
 * The built-in models (metrics/gen/, written by tools/gen-models) and the
 * CPUID -> model table generated from perfmon's mapfile.csv.
 */
#ifndef METRICS_BUILTIN_H
#define METRICS_BUILTIN_H

#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "metrics/model-def.h"

/*
 * The built-in models as packed (metrics/model-pack.h): each entry holds the
 * header fields (id, vendor, uarch, source, widths, counts) but no nodes or
 * events. bt_model_open() takes an entry as it is; for the full definition
 * use bt_builtin_find() or bt_builtin_full().
 */
extern const struct bt_model_def *const bt_builtin_models[];
extern const unsigned bt_builtin_model_count;

/* Built-in model by id (case-insensitive), full definition, or NULL (none, or
 * no memory to unpack it). */
const struct bt_model_def *bt_builtin_find(const char *id);

/* The full definition of def in *ret: def itself unless it is a packed
 * built-in entry, else that model unpacked (once, kept until exit). */
bt_status bt_builtin_full(const struct bt_model_def *def, const struct bt_model_def **ret,
			 struct bt_diag *d);

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
