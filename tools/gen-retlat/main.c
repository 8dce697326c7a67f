/* SPDX-License-Identifier: MIT */
/*
 * gen-retlat REFERENCE_DIR OUT_DIR [PMU_TOOLS_DIR PMU_TOOLS_COMMIT]
 *
 * The published retire latencies (metrics/rl-published.h) as baretop's own
 * compact tables: per model, each event's mean and, where given, minimum
 * and maximum in cycles; nothing else of the files.
 *
 *  OUT_DIR/rl-intel.c      from Intel perfmon under REFERENCE_DIR: every
 *                          "retire latency" row of intel/mapfile.csv, for
 *                          the built-in model whose core events file the
 *                          mapfile's "core" row of the same family-model
 *                          names (Granite Rapids: Linux perf's
 *                          RetirementLatencyMean/Min/Max are these numbers)
 *  OUT_DIR/rl-pmu-tools.c  with PMU_TOOLS_DIR (a pmu-tools tree, at commit
 *                          PMU_TOOLS_COMMIT): the <cpu>-retlat.json that
 *                          toplev loads by default (toplev.py
 *                          load_default_retlat) for the models below, where
 *                          Intel publishes none
 *
 * Each mean is kept in hundredths of a cycle, taken from the JSON number's
 * text (every published mean has two decimals; the generator stops on one
 * that has more), so the table holds exactly the published number. Same input, same bytes
 * (tests/suite/20-models-regen.sh regenerates and compares).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/array.h"
#include "base/json-read.h"
#include "metrics/load.h"
#include "metrics/model.h"

/*
 * pmu-tools' files by model. toplev picks "<cpu>-retlat.json" by its CPU
 * name (lnl, arl, mtl) and uses lnl_lnc_ratios for Arrow Lake's P-core
 * ("ARL uses LNL models, but own retlat file", toplev.py model_setup).
 * Its gnr-retlat.json is not taken: Intel publishes Granite Rapids' own.
 */
static const struct {
	const char *model, *file;
} pmu_tools[] = {
	{ "LNL-LNC", "lnl-retlat.json" },
	{ "ARL-LNC", "arl-retlat.json" },
	{ "MTL-RWC", "mtl-retlat.json" },
};

#define MAX_EVENTS 256
#define MAX_MODELS 32

struct row {
	const char *event;
	const char *mean, *min, *max; /* the JSON number texts; "-1" where absent */
};

struct table {
	const char *model, *source;
	struct row rows[MAX_EVENTS];
	unsigned n;
};

static void die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "gen-retlat: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static int cmp_row(const void *x, const void *y)
{
	return strcmp(((const struct row *)x)->event, ((const struct row *)y)->event);
}

/* A cycle count a Timed PEBS record can hold, as the file writes it. */
static const char *number(const struct bt_json *v, const char *path, const char *ev, int whole)
{
	if (!v)
		return "-1";
	if (bt_json_num_check(v, 0, 65535, whole) != BT_JSON_NUM_OK || !v->u.num.text)
		die("%s: %s: not a number of cycles from 0 to 65535", path, ev);
	return v->u.num.text;
}

/* {"Data": {EVENT: {"MEAN": x, "MIN": a, "MAX": b, ...}}} -> t */
static void read_table(struct bt_arena *a, const char *path, struct table *t, const char **tma)
{
	struct bt_diag d = { "" };
	struct bt_json *root;
	if (bt_json_load_file(a, path, &root, &d) != BT_OK)
		die("%s: %s", path, d.text);
	const struct bt_json *data = bt_json_get(root, "Data");
	if (!data || data->type != BT_JSON_OBJECT || data->u.obj.n > MAX_EVENTS)
		die("%s: no \"Data\" object of at most 256 events%s", path, "");
	for (size_t i = 0; i < data->u.obj.n; i++) {
		const struct bt_json *e = data->u.obj.values[i];
		const char *ev = data->u.obj.keys[i];
		struct row *r = &t->rows[t->n++];
		r->event = ev;
		r->mean = number(bt_json_get(e, "MEAN"), path, ev, 0);
		r->min = number(bt_json_get(e, "MIN"), path, ev, 1);
		r->max = number(bt_json_get(e, "MAX"), path, ev, 1);
		if (!strcmp(r->mean, "-1"))
			die("%s: %s: no MEAN", path, ev);
		double mean = atof(r->mean), lo = atof(r->min), hi = atof(r->max);
		if ((lo >= 0 && lo > mean) || (hi >= 0 && hi < mean))
			die("%s: %s: MEAN outside MIN..MAX", path, ev);
	}
	qsort(t->rows, t->n, sizeof(t->rows[0]), cmp_row);
	if (tma)
		*tma = bt_json_get_str(bt_json_get(root, "Platform"), "TMA version");
}

/* Every event is kept (a --retire-latency-file in the publisher's own
 * layout must load: its names are known), and those no formula of the
 * model reads are reported, so that a misspelling cannot go unseen. */
static void check_inputs(struct bt_arena *a, const char *ref, const struct table *t)
{
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	const struct bt_model_recipe *r = bt_recipe_find(t->model);
	if (!r || bt_model_load(a, r, ref, &def, &d) != BT_OK)
		die("model %s: %s", t->model, d.text);
	struct bt_model *m;
	if (bt_model_open(def, &m, &d) != BT_OK)
		die("model %s: %s", t->model, d.text);
	unsigned used = 0;
	for (unsigned i = 0; i < t->n; i++) {
		int known = 0;
		for (unsigned k = 0; k < bt_model_retire_latency_count(m) && !known; k++)
			known = !strcmp(bt_model_retire_latency_name(m, k), t->rows[i].event);
		used += known;
		if (!known)
			printf("note: %s: %s is published, but no formula of the model reads its latency\n",
			       t->model, t->rows[i].event);
	}
	printf("%-8s %2u of %2u inputs published (%u in the file) <- %s\n", t->model, used,
	       bt_model_retire_latency_count(m), t->n, t->source);
	bt_model_close(m);
}

static void symbol(const char *id, char *out, size_t size)
{
	size_t n = 0;
	for (const char *p = id; *p && n + 1 < size; p++)
		out[n++] = *p == '-' ? '_' : (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	out[n] = 0;
}

/* "7.77" -> 777: every published mean has at most two decimals */
static unsigned long hundredths(const char *text, const char *model, const char *ev)
{
	const char *dot = strchr(text, '.');
	size_t dec = dot ? strlen(dot + 1) : 0;
	if (dec > 2 || strspn(text, "0123456789.") != strlen(text))
		die("%s %s: a mean with more than two decimals (the table keeps hundredths)", model, ev);
	char digits[32];
	snprintf(digits, sizeof(digits), "%.*s%s%s", (int)(dot ? (size_t)(dot - text) : strlen(text)), text,
		 dot ? dot + 1 : "", dec == 0 ? "00" : dec == 1 ? "0" : "");
	return strtoul(digits, NULL, 10);
}

static void emit(const char *path, const char *what, const char *array, struct table *t, unsigned n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("cannot write %s%s", path, "");
	/* every event name once, in the order first met */
	static const char *names[MAX_MODELS * MAX_EVENTS];
	static unsigned offset[MAX_MODELS * MAX_EVENTS];
	unsigned nn = 0, size = 0;
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < t[k].n; i++) {
			unsigned j = 0;
			while (j < nn && strcmp(names[j], t[k].rows[i].event))
				j++;
			if (j == nn) {
				names[nn] = t[k].rows[i].event;
				offset[nn++] = size;
				size += (unsigned)strlen(t[k].rows[i].event) + 1;
			}
		}
	if (size > 65535)
		die("%s: event names over 64 KiB%s", path, "");
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		   "/*\n * Generated by tools/gen-retlat from %s:\n * do not edit. Each event's published mean retire "
		   "latency in hundredths of\n * a cycle, and its minimum and maximum where given "
		   "(metrics/rl-published.h),\n * as the file writes them; nothing else of it.\n */\n"
		   "#include \"metrics/rl-published.h\"\n\nstatic const char names[] =", what);
	for (unsigned j = 0; j < nn; j++)
		fprintf(f, "\n\t\"%s\\0\"", names[j]);
	fprintf(f, ";\n");
	for (unsigned k = 0; k < n; k++) {
		char sym[32];
		symbol(t[k].model, sym, sizeof(sym));
		fprintf(f, "\n/* mean x 100, name, min, max, range given */\n"
			   "static const struct bt_rl_row %s[] = {\n", sym);
		for (unsigned i = 0; i < t[k].n; i++) {
			const struct row *r = &t[k].rows[i];
			unsigned j = 0;
			while (strcmp(names[j], r->event))
				j++;
			int range = strcmp(r->min, "-1") && strcmp(r->max, "-1");
			fprintf(f, "\t{ %lu, %u, %s, %s, %d }, /* %s %s */\n", hundredths(r->mean, t[k].model, r->event),
				offset[j], range ? r->min : "0", range ? r->max : "0", range, r->event, r->mean);
		}
		fprintf(f, "};\n");
	}
	fprintf(f, "\nconst struct bt_rl_published %s[] = {\n", array);
	for (unsigned k = 0; k < n; k++) {
		char sym[32];
		symbol(t[k].model, sym, sizeof(sym));
		fprintf(f, "\t{ \"%s\",\n\t  \"%s\",\n\t  names, %s, %u },\n", t[k].model, t[k].source, sym,
			t[k].n);
	}
	if (!n)
		fprintf(f, "\t{ NULL, NULL, NULL, NULL, 0 },\n");
	fprintf(f, "};\nconst unsigned %s_count = %u;\n", array, n);
	if (fclose(f) != 0)
		die("cannot write %s%s", path, "");
}

/* intel/mapfile.csv: Family-model,Version,Filename,EventType,... */
static void intel(struct bt_arena *a, const char *ref, const char *out)
{
	static struct table t[MAX_MODELS];
	unsigned n = 0;
	char path[4096], line[1024];
	snprintf(path, sizeof(path), "%s/intel/mapfile.csv", ref);
	FILE *f = fopen(path, "r");
	if (!f)
		die("cannot read %s%s", path, "");
	static char fm[64][64], ver[64][64], file[64][256];
	static char core_fm[512][64], core_file[512][256];
	unsigned nrl = 0, ncore = 0;
	while (fgets(line, sizeof(line), f)) {
		char *col[7] = { 0 };
		int k = 0;
		for (char *p = line, *s; k < 7 && (s = strsep(&p, ",\r\n")) != NULL; k++)
			col[k] = s;
		if (k < 4)
			continue;
		if (!strcmp(col[3], "retire latency") && nrl < 64) {
			snprintf(fm[nrl], sizeof(fm[0]), "%s", col[0]);
			snprintf(ver[nrl], sizeof(ver[0]), "%s", col[1]);
			snprintf(file[nrl++], sizeof(file[0]), "%s", col[2]);
		} else if ((!strcmp(col[3], "core") || !strcmp(col[3], "hybridcore")) && ncore < 512) {
			snprintf(core_fm[ncore], sizeof(core_fm[0]), "%s", col[0]);
			snprintf(core_file[ncore++], sizeof(core_file[0]), "intel%s", col[2]);
		}
	}
	fclose(f);
	for (unsigned i = 0; i < nrl; i++) {
		const struct bt_model_recipe *r = NULL;
		for (unsigned c = 0; c < ncore && !r; c++) {
			if (strcmp(core_fm[c], fm[i]))
				continue;
			for (unsigned k = 0; k < bt_model_recipe_count && !r; k++)
				if (bt_model_recipes[k].events[0] &&
				    !strcmp(bt_model_recipes[k].events[0], core_file[c]))
					r = &bt_model_recipes[k];
		}
		if (!r)
			die("%s: no built-in model for %s", file[i], fm[i]);
		unsigned k = 0;
		while (k < n && strcmp(t[k].model, r->id))
			k++;
		if (k < n)
			continue; /* the same file for another stepping or model number */
		if (n == MAX_MODELS)
			die("more than 32 models%s%s", "", "");
		t[n].model = r->id;
		snprintf(path, sizeof(path), "%s/intel%s", ref, file[i]);
		const char *tma = NULL;
		read_table(a, path, &t[n], &tma);
		const char *base = strrchr(file[i], '/') ? strrchr(file[i], '/') + 1 : file[i];
		t[n].source = bt_arena_printf(a, "Intel perfmon %s %s (TMA %s), MEAN", base, ver[i],
					      tma ? tma : "?");
		check_inputs(a, ref, &t[n]);
		n++;
	}
	snprintf(path, sizeof(path), "%s/rl-intel.c", out);
	emit(path, "Intel perfmon's *_retire_latency.json (intel/mapfile.csv)", "bt_rl_intel", t, n);
}

static void pmu(struct bt_arena *a, const char *ref, const char *dir, const char *commit, const char *out)
{
	static struct table t[MAX_MODELS];
	unsigned n = 0;
	char path[4096];
	for (unsigned i = 0; i < BT_ARRAY_SIZE(pmu_tools); i++) {
		t[n].model = pmu_tools[i].model;
		snprintf(path, sizeof(path), "%s/%s", dir, pmu_tools[i].file);
		read_table(a, path, &t[n], NULL);
		t[n].source = bt_arena_printf(a, "pmu-tools %s (commit %.12s), MEAN: toplev's default",
					      pmu_tools[i].file, commit);
		check_inputs(a, ref, &t[n]);
		n++;
	}
	snprintf(path, sizeof(path), "%s/rl-pmu-tools.c", out);
	emit(path, "pmu-tools' <cpu>-retlat.json", "bt_rl_pmu_tools", t, n);
}

int main(int argc, char **argv)
{
	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: gen-retlat REFERENCE_DIR OUT_DIR [PMU_TOOLS_DIR PMU_TOOLS_COMMIT]\n");
		return 2;
	}
	struct bt_arena a = { 0 };
	intel(&a, argv[1], argv[2]);
	if (argc == 5)
		pmu(&a, argv[1], argv[3], argv[4], argv[2]);
	bt_arena_free(&a);
	return 0;
}
