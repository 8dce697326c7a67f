/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_GEN_MODELS_GEN_H
#define TOOLS_GEN_MODELS_GEN_H

#include <stdio.h>

#include "metrics/load.h"
#include "metrics/model-def.h"
#include "metrics/model-pack.h"

/* The packed tables being built (pack.c). */
struct gen_pack;
/* One model packed: its header with .pack, and its part of the tables. */
struct gen_packed_model {
	struct bt_model_def def;
	struct bt_model_pack pack;
};
struct gen_pack *gen_pack_new(void);
/* Adds a loaded model to the shared tables; exits on errors. */
void gen_pack_model(struct gen_pack *p, const struct bt_model_def *def,
		    struct gen_packed_model *out);
/* Offset of s in the string pool (added once). */
uint32_t gen_pack_string(struct gen_pack *p, const char *s);
/* The shared tables as they are now. */
const struct bt_pack_tables *gen_pack_tables(struct gen_pack *p);
/* Unpacks pm (bt_model_unpack, as the built-in models are) and compares it
 * with the loaded def: 0 when identical, else messages and -1. */
int gen_pack_check(const struct gen_packed_model *pm, const struct bt_model_def *def);

/* Writes the shared tables (metrics/gen/pack.c). */
void gen_emit_pack(FILE *f, const struct bt_pack_tables *t);
/* Writes one packed model (metrics/gen/model-<id>.c). */
void gen_emit_model(FILE *f, const struct gen_packed_model *pm, const struct bt_pack_tables *t,
		    const char *symbol);
/* The C identifier of a model: "ADL-GLC" -> "bt_model_adl_glc". */
void gen_symbol(const char *id, char *out, size_t size);
/* Writes a C string literal, split into lines of at most ~90 characters. */
void gen_emit_string(FILE *f, const char *s, const char *indent);
/* mapfile.csv -> metrics/gen/mapfile.c; returns 0 on success. */
int gen_mapfile(const char *ref, const char *out_path, const struct bt_model_def *const *defs,
		unsigned n_defs);

#endif
