/* SPDX-License-Identifier: MIT */
/*
 * Loading a model from vendor files at run time (and in tools/gen-models):
 * a recipe names the files and how to read them; the loader returns a
 * struct bt_model_def in an arena, exactly what the generated tables hold.
 *
 * Formats:
 *   BT_FMT_PERFMON    Intel perfmon native metrics (<uarch>_metrics.json:
 *                     Category "TMA" metrics, Formula in aliases, Threshold
 *                     with ThresholdMetrics by LegacyName) + core events file(s).
 *   BT_FMT_PERF_JSON  Linux perf metrics JSON (Intel perf-format files for IVB
 *                     and the hybrid E-cores, AMD pipeline.json/recommended.json)
 *                     + the events files (Intel perfmon or perf AMD format).
 * Only stdio is used, so the EFI app can pass files from the ESP.
 */
#ifndef METRICS_LOAD_H
#define METRICS_LOAD_H

#include "base/arena.h"
#include "base/diag.h"
#include "metrics/model-def.h"
#include "base/status.h"

enum bt_model_format {
	BT_FMT_PERFMON,
	BT_FMT_PERF_JSON,
};

#define BT_RECIPE_MAX_FILES 8

struct bt_model_recipe {
	const char *id;
	const char *vendor;          /* "GenuineIntel" / "AuthenticAMD" */
	const char *uarch;           /* human name */
	uint8_t format;              /* enum bt_model_format */
	uint8_t pipeline_width;
	uint8_t ecore;               /* an E-core (Atom) model: perf-JSON node names take
				      * the E-core spellings (Cisc, not CISC) */
	const char *metrics[BT_RECIPE_MAX_FILES]; /* metric files, NULL-terminated */
	const char *events[BT_RECIPE_MAX_FILES];  /* event files, NULL-terminated */
	const char *unit;            /* perf JSON: only metrics with this "Unit" (cpu_atom);
				      * NULL = only metrics without a Unit */
	const char *name_prefix;     /* perf JSON: only metrics named so ("tma_"); NULL = all */
	const char *exclude_groups;  /* perf JSON: ';'-list of MetricGroups to leave out */
	const char *cpi_formula;     /* canonical CPI formula when the vendor has no CPI metric */
};

/* Node-name spelling of perf-JSON metric names (tma_ifetch_latency -> IFetch_Latency). */
struct bt_name_spelling {
	const char *lower;   /* name without "tma_" */
	const char *spelled;
	uint8_t family;      /* 'O' override, 'E' E-core file, 'P' P-core files */
};
/* The recipes of the built-in models (file names relative to the reference root). */
extern const struct bt_model_recipe bt_model_recipes[];
extern const unsigned bt_model_recipe_count;
const struct bt_model_recipe *bt_recipe_find(const char *id);

/*
 * Loads the files of r (each path prefixed with "root/" unless root is NULL)
 * into a model definition allocated in a. Errors name the file, line and
 * column, or the model and node.
 */
bt_status bt_model_load(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			struct bt_model_def **ret_def, struct bt_diag *d);

/* Diagnostics the loader accepted but the user should know about (info metrics
 * whose events have no encoding, ...): one line each, in load order. */
struct bt_load_notes {
	unsigned n;
	const char *lines[256];
};
bt_status bt_model_load_noted(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			      struct bt_model_def **ret_def, struct bt_load_notes *notes,
			      struct bt_diag *d);

/* The same with an explicit spelling dictionary for perf-JSON node names
 * (tools/gen-models passes the one it derives; the others use the one it
 * wrote, metrics/gen/tma-names.c, bt_tma_names_packed in model-pack.h). */
bt_status bt_model_load_ex(struct bt_arena *a, const struct bt_model_recipe *r, const char *root,
			   const struct bt_name_spelling *names, unsigned n_names,
			   struct bt_model_def **ret_def, struct bt_load_notes *notes,
			   struct bt_diag *d);

/* Writes the TMA spelling of a perf name (without "tma_") into out. */
void bt_tma_spell(const struct bt_name_spelling *dict, unsigned n, int ecore, const char *lower,
		  char *out, size_t size);

#endif
