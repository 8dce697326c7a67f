/* SPDX-License-Identifier: MIT */
/*
 * baretop-host fleet DIR... [--db FILE] [--csv [FILE]] [--k K] [--node NODE] [--quiet] [--outliers]
 *
 * Imports every results file (*.json, recursively) under the given folders
 * (the \baretop\results folders of many machines, copied off their ESPs)
 * into one SQLite file or PostgreSQL server (fleet/store.h,
 * docs/fleet-schema.md), then prints the fleet
 * summary (fleet/summary.h) of the whole database. A file is imported once:
 * its run id is the key, so importing a folder again adds nothing; a file
 * whose run id another file already brought is named with that file. A
 * file that does not parse (truncated, malformed) or is not a results file
 * is named on stderr and skipped; the import goes on.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/fleet-record.h"
#include "analysis/results-read.h"
#include "metrics/robust-stats.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/next-to-binary.h"
#include "tools/baretop-host/fleet/sql.h"
#include "tools/baretop-host/fleet/store.h"
#include "tools/baretop-host/fleet/summary.h"
#include "tools/baretop-host/host-args.h"

BT_HOST_COMMAND(fleet, "fleet DIR... [--db F|URI] [--csv [F]] [--k K]",
		"import results files of many machines into SQLite or PostgreSQL; fleet medians and outliers")

static const struct host_opt opts[] = {
	{ "db", NULL, HOST_VALUE, "FILE|URI",
	  "the database: a SQLite file (default: baretop-fleet.db next to the\n"
	  "baretop-host binary, build/baretop-fleet.db: never the working\n"
	  "directory), or a PostgreSQL server: postgresql://USER@HOST/DB\n"
	  "(libpq URI; postgres:// too; a unix socket: ?host=SOCKET_FOLDER)" },
	{ "csv", NULL, HOST_OUTPUT, "FILE", "also write the summary table as CSV" },
	{ "k", NULL, HOST_VALUE, "K",
	  "outlier limit in median absolute deviations (default 7;\n"
	  "when the MAD is 0: 0.8453 x the mean absolute deviation)" },
	{ "node", NULL, HOST_VALUE, "NODE", "summarise only this Top-Down node (status 2 if the database has none)" },
	{ "quiet", "q", HOST_FLAG, NULL, "no text table (the import lines and --csv still)" },
	{ "outliers", NULL, HOST_FLAG, NULL,
	  "only the rows where a machine or a firmware/microcode group stands\n"
	  "out (text and CSV; a group row comes with its fleet row)" },
	{ "import-only", NULL, HOST_FLAG, NULL,
	  "import, print the import and database lines, no summary (for\n"
	  "collectors feeding one server; exit 0, or 3 when files were skipped)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"fleet",
	"fleet [DIR|FILE]... [options]",
	"  imports every results file (*.json, recursively) under each DIR into the fleet\n"
	"  database, a SQLite file or a PostgreSQL server (Engines below; schema:\n"
	"  docs/fleet-schema.md), keyed by run id: importing a file again\n"
	"  adds nothing. Truncated or malformed files are named and skipped. Then prints, per\n"
	"  workload (with its parameters), model and Top-Down node, the fleet median and MAD\n"
	"  over machines, the machines more than K MADs from the median, and the same per\n"
	"  firmware version and microcode group; then the fleet's bottleneck path per\n"
	"  workload. With no DIR, only the summary of the database.\n"
	"  Engines: SQLite (a file, one importer at a time) for one team's folders and\n"
	"  up to some 10^4 runs; PostgreSQL (--db postgresql://...) for many collectors\n"
	"  and 10^5-10^6 runs: run `fleet DIR --db URI --import-only` on every collector\n"
	"  with the same URI; each file is one transaction, a run is stored once however\n"
	"  many import it at once, and the summary is computed by the server. A run of\n"
	"  the default suite at level 3 (a 2.2 MB results file) costs some 84 KB in\n"
	"  SQLite and 62 KB in PostgreSQL; the rest stays in the results file.\n"
	"  docs/fleet-schema.md.",
	opts,
	"FILE - is standard output.\n"
	"Exit status: 0 done, no machine stands out; 1 done, some machine stands out (found);\n"
	"2 not done: bad arguments, a database error, out of memory; 3 done but some files\n"
	"were skipped (named on stderr; 3 is given even when machines stand out).",
};
HOST_ARGS_REGISTER(args)

/* DIR/baretop-fleet.db for the folder DIR that holds this binary, as `run`
 * puts its results next to it (cmd-run.c): the working directory may be
 * the repository or any folder the user happens to be in. */
static const char *default_db(void)
{
	/* the one default database of this process, returned by pointer */
	static char path[PATH_MAX + 32];

	return host_path_next_to_binary("baretop-fleet.db", path, sizeof(path)) == 0 ? path : NULL;
}

struct files {
	char **v;
	size_t n, cap;
};

static bt_status add_file(struct files *f, const char *path)
{
	char **v = bt_fleet_grow(f->v, &f->cap, f->n, sizeof(*f->v));
	if (!v)
		return BT_ERR_NOMEM;
	f->v = v;
	if (!(f->v[f->n] = strdup(path)))
		return BT_ERR_NOMEM;
	f->n++;
	return BT_OK;
}

static int ends_with_json(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* Collects *.json under path (symbolic links to folders are not followed,
 * so a loop cannot make the walk endless). BT_ERR_IO (named on stderr) when
 * path or a folder below it is unreadable: the walk goes on; BT_ERR_NOMEM
 * stops it. */
static bt_status walk(const char *path, struct files *f, int depth)
{
	struct stat sb;
	if (lstat(path, &sb) != 0) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", path, strerror(errno));
		return BT_ERR_IO;
	}
	if (S_ISREG(sb.st_mode))
		return depth == 0 || ends_with_json(path) ? add_file(f, path) : BT_OK;
	if (!S_ISDIR(sb.st_mode) || depth > 32)
		return BT_OK;
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", path, strerror(errno));
		return BT_ERR_IO;
	}
	bt_status rc = BT_OK;
	struct dirent *e;
	while (rc != BT_ERR_NOMEM && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		char *p = malloc(len);
		if (!p) {
			rc = BT_ERR_NOMEM;
			break;
		}
		snprintf(p, len, "%s/%s", path, e->d_name);
		bt_status one = walk(p, f, depth + 1);
		if (one != BT_OK)
			rc = one;
		free(p);
	}
	closedir(d);
	return rc;
}

/* The database's counts, the notes of the import and the shared UUIDs. */
static void print_database(struct bt_fleet_store *db)
{
	struct bt_diag d = { "" };
	long long c[BT_FC_N];
	for (int i = 0; i < BT_FC_N; i++)
		if (db->e->query_one(db, BT_FLEET_COUNT_SQL[i], NULL, &c[i], NULL, 0, &d) != BT_OK)
			c[i] = -1;
	long long sim = c[BT_FC_SIMULATED];
	printf("database      %lld machines (%lld without SMBIOS identity), %lld runs (%lld SIMULATED), "
	       "%lld workloads, %lld node values, %lld event counts, %lld firmware versions, %lld microcode "
	       "revisions\n",
	       c[BT_FC_MACHINES], c[BT_FC_NOSMBIOS], c[BT_FC_RUNS], sim, c[BT_FC_WORKLOADS], c[BT_FC_NODES],
	       c[BT_FC_EVENTS], c[BT_FC_FIRMWARE_VERSIONS], c[BT_FC_MICROCODES]);
	if (sim > 0)
		printf("SIMULATED     %lld of the runs counted with the simulated PMU or replayed counts: their "
		       "values are not measurements\n", sim);
	long long shared = 0, n;
	char first[128];
	if (db->e->query_one(db, BT_FLEET_SHARED_UUIDS_SQL, NULL, &shared, NULL, 0, &d) == BT_OK && shared > 0 &&
	    db->e->query_one(db, BT_FLEET_SHARED_UUID_FIRST_SQL, NULL, &n, first, sizeof(first), &d) == BT_OK)
		printf("shared UUID   %s%s: a placeholder SMBIOS UUID, not one machine's; its machines told "
		       "apart by system serial, board serial, firmware and microcode\n", first,
		       shared > 1 ? " and others" : "");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmd_fleet(int argc, char **argv)
{
	const char *db_path = NULL, *csv = NULL;
	struct bt_fleet_summary_opts o = { .k = BT_OUTLIER_K_DEFAULT, .text = stdout };
	struct files files = { 0 };
	char **dirs = calloc((size_t)argc, sizeof(*dirs));
	int n_dirs = 0, rc = 0;
	bool import_only = false, k_given = false;
	/* whatever stops the command (a database error, out of memory) is
	 * status 2, "not done", never 1, which says a machine stands out */
	if (!dirs) {
		fprintf(stderr, "baretop-host: fleet: out of memory\n");
		return HOST_EXIT_USAGE;
	}
	struct host_args it;
	const char *v;
	int k;
	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		char *end;
		switch (k) {
		case 0:
			db_path = v;
			break;
		case 1:
			csv = v;
			break;
		case 2:
			k_given = true;
			o.k = strtod(v, &end);
			if (end == v || *end || !(o.k > 0) || !(o.k < 1e6)) {
				free(dirs);
				return host_usage_error(&args, "--k '%s': a positive number of MADs expected", v);
			}
			break;
		case 3:
			o.node = v;
			break;
		case 4:
			o.text = NULL;
			break;
		case 5:
			o.only_outliers = true;
			break;
		case 6:
			import_only = true;
			break;
		case HOST_ARGS_POSITIONAL:
			dirs[n_dirs++] = (char *)v;
			break;
		default:
			free(dirs);
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
		}
	}
	if (import_only && (csv || k_given || o.node || !o.text || o.only_outliers)) {
		free(dirs);
		return host_usage_error(&args, "--import-only prints no summary: --csv, --k, --node, --quiet "
					"and --outliers would be ignored");
	}
	if (!db_path && !(db_path = default_db())) {
		free(dirs);
		return host_usage_error(&args, "no /proc/self/exe to find the default database: give --db FILE");
	}
	if (csv && !host_output_ok("fleet", csv)) {
		free(dirs);
		return HOST_EXIT_USAGE;
	}
	struct bt_diag d = { "" };
	struct bt_fleet_store *db;
	bt_status st = bt_fleet_store_open(db_path, &db, &d);
	if (st != BT_OK) {
		fprintf(stderr, "baretop-host: fleet: %s\n", d.text);
		free(dirs);
		return HOST_EXIT_USAGE;
	}
	int walk_failed = 0;
	for (int i = 0; i < n_dirs && st != BT_ERR_NOMEM; i++) {
		st = walk(dirs[i], &files, 0);
		walk_failed |= st != BT_OK;
	}
	free(dirs);
	if (st == BT_ERR_NOMEM) {
		fprintf(stderr, "baretop-host: fleet: listing the files: out of memory\n");
		rc = HOST_EXIT_USAGE;
	}
	if (files.n)  /* qsort of no array: NULL is not allowed even for 0 elements */
		qsort(files.v, files.n, sizeof(*files.v), cmp_str);
	size_t imported = 0, already = 0, skipped = 0, same_id = 0;
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
			/* provenance from every label of the file (results-read.c) */
			run.simulated |= (int)doc.simulated;
			for (size_t wi = 0; wi < run.n_workloads; wi++)
				run.workloads[wi].simulated |= doc.simulated && run.workloads[wi].counted;
			struct bt_fleet_import_note note;
			st = bt_fleet_import(db, &run, files.v[i], &note, &d);
			if (st != BT_OK) {
				fprintf(stderr, "baretop-host: fleet: %s\n", d.text);
				rc = HOST_EXIT_USAGE;
			} else if (note.what == BT_FLEET_IMPORTED) {
				imported++;
			} else if (note.what == BT_FLEET_ALREADY) {
				already++;
			} else {
				/* one run, two files: counted once, and said */
				same_id++;
				fprintf(stderr, "baretop-host: fleet: %s: run id %s is already stored from %s: "
						"counted once\n", files.v[i], run.run_id, note.other);
			}
			if (st == BT_OK && note.uuid_serial[0])
				fprintf(stderr, "baretop-host: fleet: %s: SMBIOS UUID %s (serial %s) is also the UUID of "
						"serial %s: a UUID two machines share; counted as the machine %s\n",
					files.v[i], run.sys_uuid, run.sys_serial, note.uuid_serial, run.machine_key);
		}
		bt_arena_free(&a);
	}
	if (rc == 0 && (st = db->e->finish(db, &d)) != BT_OK) {
		fprintf(stderr, "baretop-host: fleet: %s: %s\n", db->where, d.text);
		rc = HOST_EXIT_USAGE;
	}
	printf("import        %zu results files: %zu imported, %zu already in %s, %zu skipped", files.n,
	       imported, already, db->where, skipped);
	if (same_id)
		printf(", %zu with the run id of another file (counted once, named on stderr)", same_id);
	printf("\n");
	print_database(db);
	struct host_output cf = { 0 };
	if (rc == 0 && csv) {
		if (!host_output_begin(&cf, "fleet", csv))
			rc = HOST_EXIT_USAGE;
		o.csv = cf.f;
	}
	size_t outliers = 0;
	if (rc == 0 && !import_only) {
		d.text[0] = 0;
		st = bt_fleet_summary(db, &o, &outliers, &d);
		if (st != BT_OK) {
			fprintf(stderr, "baretop-host: fleet: %s\n", d.text[0] ? d.text : bt_status_str(st));
			rc = HOST_EXIT_USAGE;
		} else {
			printf("%soutliers      %zu machine%s stand%s out (k = %g MADs)\n", o.text ? "\n" : "",
			       outliers, outliers == 1 ? "" : "s", outliers == 1 ? "s" : "", o.k);
		}
	}
	if (cf.f && !host_output_end(&cf, rc == 0))
		rc = HOST_EXIT_USAGE;
	bt_fleet_store_close(db);
	for (size_t i = 0; i < files.n; i++)
		free(files.v[i]);
	free(files.v);
	if (rc == 0 && (skipped || walk_failed))
		rc = HOST_EXIT_PARTIAL;
	else if (rc == 0 && outliers > 0)
		rc = HOST_EXIT_FOUND;
	return rc;
}
