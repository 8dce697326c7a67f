/* SPDX-License-Identifier: MIT */
/*
 * metrics/gen/mapfile.c from Intel's mapfile.csv: each "core"/"hybridcore"
 * row whose events file is the events file of a built-in model becomes a
 * CPUID -> model row. AMD rows come from Linux perf's x86 mapfile.csv
 * (tools/perf/pmu-events/arch/x86/mapfile.csv), which is not in the
 * reference copy: AuthenticAMD-25-([245][[:xdigit:]]|[[:xdigit:]]) is Zen 3,
 * every other AuthenticAMD-25-* is amdzen4, AuthenticAMD-26-* is amdzen5.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/array.h"
#include "base/json-read.h"
#include "tools/gen-models/gen.h"

static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

struct row {
	char key[64];
	char vendor[16];
	unsigned family, model, steppings, core_type, native_model;
	const char *id;
};

/* Perfmon folders whose core is one of ours under another name. */
static const struct {
	const char *events_file, *model_id;
} aliases[] = {
	/* Cascade Lake is a Skylake-SP core (the issue: "SKX (also CLX)") */
	{ "intel/CLX/events/cascadelakex_core.json", "SKX" },
};

static int split_csv(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		fields[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = 0;
		p = c + 1;
	}
	char *nl = strpbrk(fields[n - 1], "\r\n");
	if (nl)
		*nl = 0;
	return n;
}

/* "GenuineIntel-6-55-[01234]" */
static int parse_key(const char *key, struct row *r)
{
	char buf[64];
	copy_str(buf, sizeof(buf), key);
	char *f = strchr(buf, '-');
	if (!f)
		return -1;
	*f++ = 0;
	copy_str(r->vendor, sizeof(r->vendor), buf);
	char *m = strchr(f, '-');
	if (!m)
		return -1;
	*m++ = 0;
	r->family = (unsigned)strtoul(f, NULL, 10);
	char *s = strchr(m, '-');
	if (s)
		*s++ = 0;
	char *end;
	r->model = (unsigned)strtoul(m, &end, 16);
	if (*end || end == m)
		return -1;
	r->steppings = 0xFFFF;
	if (s) {
		r->steppings = 0;
		const char *p = s;
		int set = *p == '[';
		if (set)
			p++;
		for (; *p && *p != ']'; p++) {
			char d[2] = { *p, 0 };
			unsigned v = (unsigned)strtoul(d, &end, 16);
			if (*end)
				return -1;
			r->steppings |= 1u << v;
			if (!set)
				break;
		}
	}
	copy_str(r->key, sizeof(r->key), key);
	return 0;
}

static const char *model_for(const char *events_rel, const char *metrics_rel,
			     const struct bt_model_def *const *defs, unsigned n_defs)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(aliases); i++)
		if (!strcmp(aliases[i].events_file, events_rel))
			return aliases[i].model_id;
	const char *found = NULL;
	for (unsigned i = 0; i < bt_model_recipe_count; i++) {
		const struct bt_model_recipe *r = &bt_model_recipes[i];
		if (!r->events[0] || strcmp(r->events[0], events_rel))
			continue;
		int built = 0;
		for (unsigned k = 0; k < n_defs; k++)
			built |= !strcmp(defs[k]->id, r->id);
		if (!built)
			continue;
		/* several models share an events file (SPR, SPR-HBM): the metrics
		 * row of the same CPU decides */
		if (metrics_rel && r->metrics[0] && !strcmp(r->metrics[0], metrics_rel))
			return r->id;
		if (!found)
			found = r->id;
	}
	return found;
}

int gen_mapfile(const char *ref, const char *out_path, const struct bt_model_def *const *defs,
		unsigned n_defs)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/intel/mapfile.csv", ref);
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "gen-models: cannot open %s\n", path);
		return -1;
	}
	static char lines[1024][256];
	int n_lines = 0;
	while (n_lines < 1024 && fgets(lines[n_lines], sizeof(lines[0]), in))
		n_lines++;
	fclose(in);
	static struct row rows[512];
	int n_rows = 0;
	for (int i = 1; i < n_lines; i++) {
		char line[256], *fl[8];
		copy_str(line, sizeof(line), lines[i]);
		int nf = split_csv(line, fl, 8);
		if (nf < 4 || (strcmp(fl[3], "core") && strcmp(fl[3], "hybridcore")))
			continue;
		char events_rel[300], metrics_rel[300] = "";
		snprintf(events_rel, sizeof(events_rel), "intel%s", fl[2]);
		/* the metrics row of the same key and core type */
		for (int j = 1; j < n_lines; j++) {
			char l2[256], *f2[8];
			copy_str(l2, sizeof(l2), lines[j]);
			int n2 = split_csv(l2, f2, 8);
			if (n2 >= 4 && !strcmp(f2[0], fl[0]) && !strcmp(f2[3], "metrics") &&
			    (nf < 5 || n2 < 5 || !strcmp(f2[4], fl[4])))
				snprintf(metrics_rel, sizeof(metrics_rel), "intel%s", f2[2]);
		}
		const char *id = model_for(events_rel, metrics_rel[0] ? metrics_rel : NULL, defs, n_defs);
		if (!id)
			continue;
		struct row r = { 0 };
		if (parse_key(fl[0], &r) < 0) {
			fprintf(stderr, "gen-models: %s: cannot read key %s\n", path, fl[0]);
			return -1;
		}
		r.core_type = nf > 4 && fl[4][0] ? (unsigned)strtoul(fl[4], NULL, 16) : 0;
		r.native_model = nf > 5 && fl[5][0] ? (unsigned)strtoul(fl[5], NULL, 16) : 0;
		r.id = id;
		int dup = 0;
		for (int k = 0; k < n_rows; k++)
			dup |= !strcmp(rows[k].key, r.key) && rows[k].core_type == r.core_type &&
			       rows[k].native_model == r.native_model;
		if (!dup && n_rows < 512)
			rows[n_rows++] = r;
	}
	FILE *f = fopen(out_path, "w");
	if (!f) {
		fprintf(stderr, "gen-models: cannot write %s\n", out_path);
		return -1;
	}
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		   "/* generated by tools/gen-models from intel/mapfile.csv and Linux perf's x86\n"
		   " * mapfile.csv (AMD rows), do not edit */\n"
		   "#include \"metrics/builtin.h\"\n\n"
		   "/* vendor, family, model_lo, model_hi, steppings, core_type, native_model,\n"
		   " * model, mapfile key; the first matching row wins */\n"
		   "const struct bt_cpu_map_entry bt_cpu_map[] = {\n");
	for (int i = 0; i < n_rows; i++)
		fprintf(f, "\t{ \"%s\", %u, 0x%02x, 0x%02x, 0x%04x, 0x%02x, 0x%06x, \"%s\", \"%s\" },\n",
			rows[i].vendor, rows[i].family, rows[i].model, rows[i].model, rows[i].steppings,
			rows[i].core_type, rows[i].native_model, rows[i].id, rows[i].key);
	fprintf(f, "\t/* AMD, from Linux perf: family 0x19 models 0x00-0x0f and 0x20-0x5f are Zen 3 */\n"
		   "\t{ \"AuthenticAMD\", 25, 0x10, 0x1f, 0xffff, 0x00, 0x000000, \"ZEN4\", "
		   "\"AuthenticAMD-25-[[:xdigit:]]+\" },\n"
		   "\t{ \"AuthenticAMD\", 25, 0x60, 0xff, 0xffff, 0x00, 0x000000, \"ZEN4\", "
		   "\"AuthenticAMD-25-[[:xdigit:]]+\" },\n"
		   "\t{ \"AuthenticAMD\", 26, 0x00, 0xff, 0xffff, 0x00, 0x000000, \"ZEN5\", "
		   "\"AuthenticAMD-26-[[:xdigit:]]+\" },\n"
		   "};\n\n"
		   "const unsigned bt_cpu_map_count = sizeof(bt_cpu_map) / sizeof(bt_cpu_map[0]);\n");
	return fclose(f) == 0 ? 0 : -1;
}
