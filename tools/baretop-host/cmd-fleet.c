/* SPDX-License-Identifier: MIT */
/*
 * baretop-host fleet DIR... [--db FILE] [--csv FILE] [--k K] [--node NODE]
 *
 * Imports every results file (*.json, recursively) under the given folders
 * (the \baretop\results folders of many machines, copied off their ESPs)
 * into one SQLite database (docs/fleet-schema.md), then prints the fleet
 * summary (fleet-summary.h) of the whole database. A file is imported once:
 * its run id is the key, so importing a folder again adds nothing. A file
 * that does not parse (truncated, malformed) or is not a results file is
 * named on stderr and skipped; the import goes on.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/fleet-record.h"
#include "analysis/results-read.h"
#include "metrics/robust-stats.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/fleet-db.h"
#include "tools/baretop-host/fleet-summary.h"

BT_HOST_COMMAND(fleet, "fleet DIR... [--db F] [--csv F] [--k K]",
		"import results files of many machines into SQLite; fleet medians and outliers")

static void usage(FILE *f)
{
	fprintf(f, "usage: baretop-host fleet [DIR|FILE]... [options]\n"
		   "  imports every results file (*.json, recursively) under each DIR into a SQLite\n"
		   "  database (schema: docs/fleet-schema.md), keyed by run id: importing a file again\n"
		   "  adds nothing. Truncated or malformed files are named and skipped. Then prints, per\n"
		   "  workload (with its parameters), model and Top-Down node, the fleet median and MAD\n"
		   "  over machines, the machines more than K MADs from the median, and the same per\n"
		   "  firmware version and microcode group; then the fleet's bottleneck path per\n"
		   "  workload. With no DIR, only the summary of the database.\n"
		   "  --db FILE      the database (default: baretop-fleet.db in the working directory)\n"
		   "  --csv FILE     also write the summary table as CSV (FILE - is standard output)\n"
		   "  --k K          outlier limit in median absolute deviations (default %g;\n"
		   "                 when the MAD is 0: 0.8453 x the mean absolute deviation)\n"
		   "  --node NODE    summarise only this Top-Down node (status 2 if the database has none)\n"
		   "  --quiet        no text table (the import lines and --csv still)\n"
		   "Exit status: 0 done, 3 done but some files were skipped, 1 database error, 2 usage.\n",
		BT_OUTLIER_K_DEFAULT);
}

struct files {
	char **v;
	size_t n, cap;
};

static void add_file(struct files *f, const char *path)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		char **v = realloc(f->v, f->cap * sizeof(*v));
		if (!v) {
			fprintf(stderr, "baretop-host: out of memory\n");
			exit(1);
		}
		f->v = v;
	}
	f->v[f->n] = strdup(path);
	if (!f->v[f->n])
		exit(1);
	f->n++;
}

static int ends_with_json(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* Collects *.json under path (symbolic links to folders are not followed,
 * so a loop cannot make the walk endless). Returns -1 if path is unreadable. */
static int walk(const char *path, struct files *f, int depth)
{
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(sb.st_mode)) {
		if (depth == 0 || ends_with_json(path))
			add_file(f, path);
		return 0;
	}
	if (!S_ISDIR(sb.st_mode) || depth > 32)
		return 0;
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *p = malloc(len);
		if (!p)
			exit(1);
		snprintf(p, len, "%s/%s", path, e->d_name);
		if (walk(p, f, depth + 1) < 0)
			rc = -1;
		free(p);
	}
	closedir(d);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static long long count_rows(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long n = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return n;
}

static int cmd_fleet(int argc, char **argv)
{
	const char *db_path = "baretop-fleet.db", *csv = NULL;
	struct bt_fleet_summary_opts o = { BT_OUTLIER_K_DEFAULT, NULL, stdout, NULL };
	struct files files = { 0 };
	char **dirs = calloc((size_t)argc, sizeof(*dirs));
	int n_dirs = 0, rc = 0;
	if (!dirs)
		return 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--db") && i + 1 < argc) {
			db_path = argv[++i];
		} else if (!strcmp(a, "--csv") && i + 1 < argc) {
			csv = argv[++i];
		} else if (!strcmp(a, "--k") && i + 1 < argc) {
			char *end;
			o.k = strtod(argv[++i], &end);
			if (*end || !(o.k > 0)) {
				fprintf(stderr, "baretop-host: fleet: --k wants a positive number, not '%s'\n", argv[i]);
				free(dirs);
				return 2;
			}
		} else if (!strcmp(a, "--node") && i + 1 < argc) {
			o.node = argv[++i];
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o.text = NULL;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			free(dirs);
			return 0;
		} else if (a[0] != '-' || !strcmp(a, "-")) {
			dirs[n_dirs++] = argv[i];
		} else {
			usage(stderr);
			free(dirs);
			return 2;
		}
	}
	struct bt_diag d = { "" };
	sqlite3 *db = bt_fleet_db_open(db_path, &d);
	if (!db) {
		fprintf(stderr, "baretop-host: fleet: %s\n", d.text);
		free(dirs);
		return 1;
	}
	int walk_failed = 0;
	for (int i = 0; i < n_dirs; i++)
		walk_failed |= walk(dirs[i], &files, 0) < 0;
	free(dirs);
	qsort(files.v, files.n, sizeof(*files.v), cmp_str);
	size_t imported = 0, already = 0, skipped = 0;
	for (size_t i = 0; i < files.n && rc == 0; i++) {
		struct bt_arena a;
		bt_arena_init(&a);
		struct bt_results_doc doc;
		char *text;
		size_t len;
		struct bt_fleet_run run;
		d.text[0] = 0;
		if (bt_file_read(&a, files.v[i], &text, &len, &d) != BT_OK ||
		    bt_results_doc_parse(&a, text, len, files.v[i], &doc, &d) != BT_OK ||
		    bt_fleet_record_of(&a, doc.root, text, len, files.v[i], &run, &d) != BT_OK) {
			/* the reader's message names the file (and line:column for a parse error) */
			int named = !strncmp(d.text, files.v[i], strlen(files.v[i]));
			fprintf(stderr, "baretop-host: fleet: skipped %s%s%s\n", named ? "" : files.v[i],
				named ? "" : ": ", d.text);
			skipped++;
		} else {
			switch (bt_fleet_db_import(db, &run, files.v[i], &d)) {
			case BT_FLEET_IMPORTED:
				imported++;
				break;
			case BT_FLEET_ALREADY:
				already++;
				break;
			case BT_FLEET_DB_ERROR:
				fprintf(stderr, "baretop-host: fleet: %s\n", d.text);
				rc = 1;
				break;
			}
		}
		bt_arena_free(&a);
	}
	if (rc == 0 && bt_fleet_db_commit(db, &d) != 0) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", db_path, d.text);
		rc = 1;
	}
	printf("import        %zu results files: %zu imported, %zu already in %s, %zu skipped\n", files.n,
	       imported, already, db_path, skipped);
	long long sim = count_rows(db, "SELECT COUNT(*) FROM runs WHERE simulated");
	printf("database      %lld machines (%lld without SMBIOS identity), %lld runs (%lld SIMULATED), "
	       "%lld workloads, %lld node values, %lld event counts, %lld firmware versions, %lld microcode "
	       "revisions\n",
	       count_rows(db, "SELECT COUNT(*) FROM machines"),
	       count_rows(db, "SELECT COUNT(*) FROM machines WHERE identity = 'no SMBIOS identity'"),
	       count_rows(db, "SELECT COUNT(*) FROM runs"), sim, count_rows(db, "SELECT COUNT(*) FROM workloads"),
	       count_rows(db, "SELECT COUNT(*) FROM nodes"), count_rows(db, "SELECT COUNT(*) FROM events"),
	       count_rows(db, "SELECT COUNT(DISTINCT version) FROM firmware"),
	       count_rows(db, "SELECT COUNT(DISTINCT IFNULL(microcode, '')) FROM runs"));
	if (sim > 0)
		printf("SIMULATED     %lld of the runs counted with the simulated PMU or replayed counts: their "
		       "values are not measurements\n", sim);
	FILE *cf = NULL;
	if (rc == 0 && csv) {
		cf = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
		if (!cf) {
			fprintf(stderr, "baretop-host: fleet: cannot write %s: %s\n", csv, strerror(errno));
			rc = 1;
		}
		o.csv = cf;
	}
	if (rc == 0) {
		int out = bt_fleet_summary(db, &o);
		if (out < 0)
			rc = out == -2 ? 2 : 1;  /* -2: --node names no node (usage) */
		else
			printf("%soutliers      %d machine%s stand%s out (k = %g MADs)\n", o.text ? "\n" : "", out,
			       out == 1 ? "" : "s", out == 1 ? "s" : "", o.k);
	}
	if (cf && cf != stdout && fclose(cf) != 0) {
		fprintf(stderr, "baretop-host: fleet: cannot write %s\n", csv);
		rc = 1;
	}
	sqlite3_close(db);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	if (rc == 0 && (skipped || walk_failed))
		rc = 3;
	return rc;
}
