/* SPDX-License-Identifier: MIT */
/*
 * gen-models REFERENCE_DIR OUT_DIR
 *
 * Loads every recipe of metrics/recipes.c from the vendor files with the
 * run-time loaders (metrics/load*.c) and writes the committed tables:
 *   OUT_DIR/pack.c         the tables all models share (metrics/model-pack.h):
 *                          string pool, expression DAG, event encodings
 *   OUT_DIR/model-<id>.c   one model each (its nodes and events, packed)
 *   OUT_DIR/models.c       the list of built-in models
 *   OUT_DIR/tma-names.c    TMA spellings of perf-JSON metric names (strings in pack.c)
 *   OUT_DIR/mapfile.c      CPUID -> model
 * Same input, same bytes (tests/suite/20-models-regen.sh checks it).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/load.h"
#include "tools/gen-models/gen.h"

/*
 * pmu-tools spellings (the node names of the test vectors) that no vendor
 * native metrics file carries. Everything else is the native MetricName or,
 * for names pmu-tools does not know, the perf name with each part
 * capitalised (Info_Bottleneck_%_Dtlb_Miss_Bound_Cycles).
 */
static const struct bt_name_spelling overrides[] = {
	/* perf-only metric: capitalised, not the native "MUX" */
	{ "info_system_mux", "Info_System_Mux", 'O' },
	{ "info_machine_clear_bound_machine_clears_disamb_pki",
	  "Info_Machine_Clear_Bound_Machine_Clears_Disamb_PKI", 'O' },
	{ "info_machine_clear_bound_machine_clears_mrn_pki",
	  "Info_Machine_Clear_Bound_Machine_Clears_MRN_PKI", 'O' },
	{ "info_machine_clear_bound_machine_clears_monuke_pki",
	  "Info_Machine_Clear_Bound_Machine_Clears_Monuke_PKI", 'O' },
	{ "info_arith_inst_mix_ipfparith", "Info_Arith_Inst_Mix_IpFPArith", 'O' },
	{ "info_arith_inst_mix_ipfparith_avx256", "Info_Arith_Inst_Mix_IpFPArith_AVX256", 'O' },
};

static struct bt_name_spelling dict[4096];
static unsigned n_dict;

static void dict_add(const char *spelled, char family, struct bt_arena *a)
{
	char lower[256];
	size_t i;
	for (i = 0; spelled[i] && i + 1 < sizeof(lower); i++)
		lower[i] = (char)tolower((unsigned char)spelled[i]);
	lower[i] = 0;
	for (unsigned k = 0; k < n_dict; k++)
		if (dict[k].family == family && !strcmp(dict[k].lower, lower))
			return; /* first spelling wins */
	if (n_dict < BT_ARRAY_SIZE(dict)) {
		dict[n_dict].lower = bt_arena_strdup(a, lower);
		dict[n_dict].spelled = spelled;
		dict[n_dict].family = (uint8_t)family;
		n_dict++;
	}
}

static int cmp_dict(const void *x, const void *y)
{
	const struct bt_name_spelling *a = x, *b = y;
	if (a->family != b->family)
		return a->family == 'O' ? -1 : b->family == 'O' ? 1 : a->family - b->family;
	return strcmp(a->lower, b->lower);
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "gen-models: cannot write %s\n", path);
	return f;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen-models REFERENCE_DIR OUT_DIR\n");
		return 2;
	}
	const char *ref = argv[1], *out = argv[2];
	struct bt_arena a;
	bt_arena_init(&a);
	static struct bt_model_def *defs[64];
	static struct bt_load_notes notes;
	struct bt_diag d;
	unsigned n = bt_model_recipe_count;
	if (n > 64)
		return 1;
	/* perfmon native models first: their MetricNames spell the perf names */
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			for (size_t i = 0; i < BT_ARRAY_SIZE(overrides); i++)
				dict[n_dict++] = overrides[i];
			for (unsigned i = 0; i < n; i++)
				if (defs[i])
					for (unsigned k = 0; k < defs[i]->n_nodes; k++)
						dict_add(defs[i]->nodes[k].name,
							 bt_model_recipes[i].ecore ? 'E' : 'P', &a);
			qsort(dict, n_dict, sizeof(dict[0]), cmp_dict);
		}
		for (unsigned i = 0; i < n; i++) {
			const struct bt_model_recipe *r = &bt_model_recipes[i];
			if ((r->format == BT_FMT_PERFMON) != (pass == 0))
				continue;
			bt_status s = bt_model_load_ex(&a, r, ref, dict, n_dict, &defs[i], &notes, &d);
			if (s != BT_OK) {
				fprintf(stderr, "gen-models: %s\n", d.text);
				return 1;
			}
			for (unsigned k = 0; k < notes.n; k++)
				printf("note: %s\n", notes.lines[k]);
		}
	}
	/* all models into one set of packed tables, in recipe order; each model
	 * must unpack to exactly what the loaders built */
	struct gen_pack *pack = gen_pack_new();
	static struct gen_packed_model packed[64];
	for (unsigned i = 0; i < n; i++)
		gen_pack_model(pack, defs[i], &packed[i]);
	/* the perf-name spellings' strings go into the same pool; the perf name
	 * is the spelling in lower case, made again when loading */
	static uint32_t dict_off[BT_ARRAY_SIZE(dict)];
	for (unsigned i = 0; i < n_dict; i++) {
		char lower[256];
		size_t k;
		for (k = 0; dict[i].spelled[k] && k + 1 < sizeof(lower); k++)
			lower[k] = (char)tolower((unsigned char)dict[i].spelled[k]);
		lower[k] = 0;
		if (strcmp(lower, dict[i].lower)) {
			fprintf(stderr, "gen-models: spelling %s is not the perf name %s in lower case\n",
				dict[i].spelled, dict[i].lower);
			return 1;
		}
		dict_off[i] = gen_pack_string(pack, dict[i].spelled);
	}
	const struct bt_pack_tables *tables = gen_pack_tables(pack);
	for (unsigned i = 0; i < n; i++)
		if (gen_pack_check(&packed[i], defs[i]) < 0)
			return 1;
	FILE *pf = open_out(out, "pack.c");
	if (!pf)
		return 1;
	gen_emit_pack(pf, tables);
	if (fclose(pf) != 0)
		return 1;
	for (unsigned i = 0; i < n; i++) {
		char sym[64], file[96];
		gen_symbol(defs[i]->id, sym, sizeof(sym));
		snprintf(file, sizeof(file), "model-%s.c", sym + strlen("bt_model_"));
		for (char *p = file; *p; p++)
			if (*p == '_')
				*p = '-';
		FILE *f = open_out(out, file);
		if (!f)
			return 1;
		gen_emit_model(f, &packed[i], tables, sym);
		if (fclose(f) != 0)
			return 1;
		printf("%-8s %4u nodes %4u events  <- %s\n", defs[i]->id, defs[i]->n_nodes,
		       defs[i]->n_events, defs[i]->source);
	}
	printf("packed: %u bytes of strings, %u expression records, %u arguments, %u events\n",
	       (unsigned)tables->strings_size, (unsigned)tables->n_exprs, (unsigned)tables->n_args,
	       (unsigned)tables->n_events);
	FILE *f = open_out(out, "models.c");
	if (!f)
		return 1;
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n/* generated by tools/gen-models, do not edit */\n"
		   "#include \"metrics/builtin.h\"\n\n");
	for (unsigned i = 0; i < n; i++) {
		char sym[64];
		gen_symbol(defs[i]->id, sym, sizeof(sym));
		fprintf(f, "extern const struct bt_model_def %s;\n", sym);
	}
	fprintf(f, "\nconst struct bt_model_def *const bt_builtin_models[] = {\n");
	for (unsigned i = 0; i < n; i++) {
		char sym[64];
		gen_symbol(defs[i]->id, sym, sizeof(sym));
		fprintf(f, "\t&%s,\n", sym);
	}
	fprintf(f, "};\n\nconst unsigned bt_builtin_model_count = %u;\n", n);
	if (fclose(f) != 0)
		return 1;
	f = open_out(out, "tma-names.c");
	if (!f)
		return 1;
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		   "/* generated by tools/gen-models from the MetricNames of the perfmon native files\n"
		   " * (P: P-core files, E: E-core files) and pmu-tools spellings no vendor file\n"
		   " * carries (O), do not edit */\n"
		   "#include \"metrics/model-pack.h\"\n\n"
		   "/* the TMA spelling (offset in pack.c's strings; in lower case it is the perf\n"
		   " * name without \"tma_\"), family */\n"
		   "const struct bt_pack_spelling bt_tma_names_packed[] = {\n");
	for (unsigned i = 0; i < n_dict; i++) {
		fprintf(f, "\t{ %u, '%c' },", (unsigned)dict_off[i], dict[i].family);
		if (!strstr(dict[i].spelled, "*/"))
			fprintf(f, " /* %s */", dict[i].spelled);
		fputc('\n', f);
	}
	fprintf(f, "};\n\nconst unsigned bt_tma_name_count = %u;\n", n_dict);
	if (fclose(f) != 0)
		return 1;
	char map_path[1024];
	snprintf(map_path, sizeof(map_path), "%s/mapfile.c", out);
	if (gen_mapfile(ref, map_path, (const struct bt_model_def *const *)defs, n) < 0)
		return 1;
	bt_arena_free(&a);
	return 0;
}
