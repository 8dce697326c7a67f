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
 *   - one node table: every distinct node (name, parent, formula and
 *     threshold records, kind, level) once;
 * and a model is the indices of its nodes and of its events. No pointers,
 * hence no relocations, except a few per model.
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

#define BT_PACK_NONE UINT32_MAX     /* no string */
#define BT_PACK_NO_EXPR UINT16_MAX  /* no formula */
/* Expression records, nodes, arguments, numbers and events are numbered in
 * 16 bits (the 22 models need about a tenth of that); the generator stops
 * with a message if a table outgrows it. Strings are 32-bit offsets. */
#define BT_PACK_MAX_INDEX (UINT16_MAX - 1)

/*
 * One sub-expression (op is enum bt_expr_op, never BT_X_IDENT). Operands are
 * indices of earlier records (an operand's index is below its user's):
 *   BT_X_NUM                 b = index in numbers[]; is_float as in struct bt_expr
 *   BT_X_EVENT RL CONST REF  b = string offset of the name
 *   BT_X_NA                  nothing
 *   BT_X_NEG BT_X_NOT        a = the operand
 *   binary, BT_X_DRATIO      a, b = the operands
 *   BT_X_IF BT_X_MIN BT_X_MAX  a = number of operands, b = offset in args[]
 */
struct bt_pack_expr {
	uint8_t op;
	uint8_t is_float;
	uint16_t a;
	uint32_t b;
};

/* struct bt_event with its name as a string offset and its (mostly zero)
 * extra-MSR value as an index in msr_values[]. */
struct bt_pack_event {
	uint32_t name;
	uint32_t counters, counters_ht_off;
	uint16_t flags, code, code2, msr_index, msr_value;
	uint8_t source, umask, umask_ext, cmask;
	int8_t fixed;
	uint8_t pm_field;
};

/* struct bt_node_def: strings as offsets, formulas as expression records.
 * Shared by the models that have the very same node (SPR and EMR, ...). */
struct bt_pack_node {
	uint32_t name, parent;                         /* parent may be BT_PACK_NONE */
	uint16_t formula, threshold, threshold_literal; /* or BT_PACK_NO_EXPR */
	uint8_t kind, level, percent;
};

/* The tables all built-in models share (metrics/gen/pack.c). */
struct bt_pack_tables {
	const char *strings;
	uint32_t strings_size;
	const struct bt_pack_expr *exprs;
	uint32_t n_exprs;
	const uint16_t *args;
	uint32_t n_args;
	const double *numbers;
	uint32_t n_numbers;
	const uint64_t *msr_values;
	uint32_t n_msr_values;
	const struct bt_pack_event *events;
	uint32_t n_events;
	const struct bt_pack_node *nodes;
	uint32_t n_nodes;
};

/* The built-in models' tables (metrics/gen/pack.c). */
extern const struct bt_pack_tables bt_pack_builtin;

/* One model's part (counts are in its struct bt_model_def). */
struct bt_model_pack {
	const struct bt_pack_tables *tables;
	const uint16_t *nodes;   /* n_nodes indices into tables->nodes */
	const uint16_t *events;  /* n_events indices into tables->events */
};

/* struct bt_name_spelling (metrics/load.h) packed: the TMA spelling as an
 * offset in bt_pack_builtin's strings; the perf name ("lower") is that
 * spelling in lower case (the generator checks it), made when loading. */
struct bt_pack_spelling {
	uint32_t spelled;
	uint8_t family;
};
extern const struct bt_pack_spelling bt_tma_names_packed[];
extern const unsigned bt_tma_name_count;

/*
 * The full definition of a packed model (def->pack set, def->nodes NULL):
 * a copy of def with nodes, events and retire latencies unpacked into a
 * (names point into the string pool, formulas are canonical text in a).
 * BT_ERR_INVALID when the tables are inconsistent, BT_ERR_NOMEM.
 */
bt_status bt_model_unpack(struct bt_arena *a, const struct bt_model_def *def,
			  struct bt_model_def **ret, struct bt_diag *d);

#endif
