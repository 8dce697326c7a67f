/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_GEN_MODELS_GEN_H
#define TOOLS_GEN_MODELS_GEN_H

#include <stdio.h>

#include "metrics/load.h"
#include "metrics/model-def.h"

/* Writes a model definition as C tables (metrics/gen/model-<id>.c). */
void gen_emit_model(FILE *f, const struct bt_model_def *def, const char *symbol);
/* The C identifier of a model: "ADL-GLC" -> "bt_model_adl_glc". */
void gen_symbol(const char *id, char *out, size_t size);
/* Writes a C string literal, split into lines of at most ~90 characters. */
void gen_emit_string(FILE *f, const char *s, const char *indent);
/* mapfile.csv -> metrics/gen/mapfile.c; returns 0 on success. */
int gen_mapfile(const char *ref, const char *out_path, const struct bt_model_def *const *defs,
		unsigned n_defs);

#endif
