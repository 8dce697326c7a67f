/* SPDX-License-Identifier: MIT */
/*
 * The built-in models packed: what tools/gen-models writes into metrics/gen/
 * and bt_model_unpack() turns back into the struct bt_model_def the loaders
 * build (metrics/model-def.h), byte for byte the same text.
 *
 * Why packed: written out as struct bt_model_def, the 22 models took 2.2 MB
 * of data plus one relocation per string pointer, because every formula is
 * the vendor's fully inlined text and the same sub-expressions recur dozens
 * of times per formula and across models. Packed, all models share
 *   - one string pool: every name (nodes, events, constants) once, NUL
 *     terminated, addressed by 32-bit offsets;
 *   - one expression DAG: every distinct sub-expression once, as a fixed-size
 *     record (operator + operand indices), hash-consed by the generator, so a
 *     repeated sub-expression costs nothing;
 *   - one event table: every distinct event encoding once;
 * and a model is its node records (offsets and DAG indices) and the indices
 * of its events. No pointers, hence no relocations, except a few per model.
 *
 * Unpacking rebuilds each formula's expression tree from the DAG and prints
 * it with the canonical printer (bt_expr_print), so a built-in model reaches
 * bt_model_open() as the same canonical text a run-time load gives: one code
 * path. The generator checks that printing the parsed text gives the text
 * back, and that unpacking its tables gives the loaded models exactly.
 */
#ifndef METRICS_MODEL_PACK_H
#define METRICS_MODEL_PACK_H

#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"
#include "metrics/expr.h" /* enum bt_expr_op */
#include "metrics/model-def.h"

#define BT_PACK_NONE UINT32_MAX /* no string / no formula */

/*
 * One sub-expression (op is enum bt_expr_op, never BT_X_IDENT). Operands are
 * indices of earlier records (an operand's index is below its user's):
 *   BT_X_NUM                 the double's bits: a = low 32, b = high 32;
 *                            is_float as in struct bt_expr
 *   BT_X_EVENT RL CONST REF  a = string offset of the name
 *   BT_X_NA                  nothing
 *   nargs 1 or 2             a, b = operand records
 *   nargs > 2 (if, min/max)  a = offset in the argument list table
 */
struct bt_pack_expr {
	uint8_t op;
	uint8_t is_float;
	uint16_t nargs;
	uint32_t a, b;
};

/* struct bt_event with its name as a string offset. */
struct bt_pack_event {
	uint64_t msr_value;
	uint32_t name;
	uint32_t counters, counters_ht_off;
	uint16_t flags, code, code2, msr_index;
	uint8_t source, umask, umask_ext, cmask;
	int8_t fixed;
	uint8_t pm_field;
};

/* struct bt_node_def: strings as offsets, formulas as DAG records. */
struct bt_pack_node {
	uint32_t name, parent;                        /* string offsets (parent may be NONE) */
	uint32_t formula, threshold, threshold_literal; /* DAG records, or NONE */
	uint8_t kind, level, percent;
};

struct bt_pack_retire_latency {
	uint32_t event; /* string offset */
	double cycles;
};

/* The tables all built-in models share (metrics/gen/pack.c). */
struct bt_pack_tables {
	const char *strings;
	uint32_t strings_size;
	const struct bt_pack_expr *exprs;
	uint32_t n_exprs;
	const uint32_t *args;
	uint32_t n_args;
	const struct bt_pack_event *events;
	uint32_t n_events;
};

/* The built-in models' tables (metrics/gen/pack.c). */
extern const struct bt_pack_tables bt_pack_builtin;

/* One model's part (counts are in its struct bt_model_def). */
struct bt_model_pack {
	const struct bt_pack_tables *tables;
	const struct bt_pack_node *nodes;    /* n_nodes */
	const uint16_t *events;              /* n_events indices into tables->events */
	const struct bt_pack_retire_latency *retire_latency; /* n_retire_latency */
};

/*
 * The full definition of a packed model (def->pack set, def->nodes NULL):
 * a copy of def with nodes, events and retire latencies unpacked into a
 * (names point into the string pool, formulas are canonical text in a).
 * BT_ERR_INVALID when the tables are inconsistent, BT_ERR_NOMEM.
 */
bt_status bt_model_unpack(struct bt_arena *a, const struct bt_model_def *def,
			  struct bt_model_def **ret, struct bt_diag *d);

#endif
