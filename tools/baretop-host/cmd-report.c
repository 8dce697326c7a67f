/* SPDX-License-Identifier: MIT */
/*
 * baretop-host report RESULTS.json... [--text [FILE]] [--html [FILE]] [--csv [FILE]]
 * baretop-host report --diff A.json B.json [...]
 *
 * The report of results files for people (analysis/page.h): text (the
 * default), one self-contained HTML page with SVG charts, or CSV. With
 * --diff, A and B are compared node by node first (analysis/results-diff.h).
 */
#include <stdio.h>
#include <string.h>

#include "analysis/results-diff.h"
#include "base/array.h"
#include "analysis/atlas-page.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/page-out.h"

BT_HOST_COMMAND(report, "report RESULTS.json... [--html [F]] [--csv [F]]",
		"a report of results files: text, one self-contained HTML page, or CSV")

static const struct host_opt opts[] = {
	{ "text", NULL, HOST_OUTPUT, "FILE", "text (the default when no format is given)" },
	{ "html", NULL, HOST_OUTPUT, "FILE",
	  "one self-contained HTML page: inline CSS and SVG, no script, font,\n"
	  "image or network request (its Content-Security-Policy blocks them)" },
	{ "csv", NULL, HOST_OUTPUT, "FILE",
	  "one CSV table: section,file,workload,name,level,value,min,median,max,\n"
	  "flag,detail (with --diff: the diff table, see `baretop-host diff --help`)" },
	{ "diff", NULL, HOST_FLAG, NULL,
	  "compare A and B (the two files) node by node first (see\n`baretop-host diff --help`)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"report",
	"report RESULTS.json... [--text [FILE]] [--html [FILE]] [--csv [FILE]]\n"
	"report --diff A.json B.json [--text [FILE]] [--html [FILE]] [--csv [FILE]]",
	"  per counted workload: provenance (measured or SIMULATED, model, TMA version), the\n"
	"  level-1 split, the tree with values, flags, spread and the bottleneck path, the CPI\n"
	"  stack, each event's min/median/max over the runs, the run checks (instruction\n"
	"  agreement, retries, SMIs, consistency rules) and the plan (steps, groups, counters);\n"
	"  several workloads add a workload x node table. A node's spread: its formula evaluated\n"
	"  again (built-in models) with one event at a time at its min and at its max over the\n"
	"  runs, the others at their medians (results files keep no per-run count of each event).",
	opts,
	"RESULTS.json: a results file, or a tree `baretop-host replay --json` wrote (labelled\n"
	"replayed: a tree only, no events, checks or plan). The banner says measured, SIMULATED\n"
	"or replayed. FILE - is standard output; the separated form --csv FILE takes the next\n"
	"word unless it starts with '-'; a results file is never written over. Tree values are\n"
	"fractions in CSV, percent elsewhere.\n"
	"Exit status: 0 written, 2 bad arguments or a file that cannot be read or written.",
};
HOST_ARGS_REGISTER(args)

static int report_atlas(const char *file, const struct bt_page_args *o)
{
	const char *out[3] = { o->text, o->html, o->csv };
	const enum bt_atlas_page_kind kind[3] = { BT_ATLAS_PAGE_TEXT, BT_ATLAS_PAGE_HTML,
						  BT_ATLAS_PAGE_CSV };
	int rc = HOST_EXIT_OK;

	for (int k = 0; k < 3; k++) {
		struct bt_diag d = { "" };
		if (!out[k])
			continue;
		if (!host_output_ok("report", out[k])) {
			rc = HOST_EXIT_USAGE;
			continue;
		}
		FILE *f = strcmp(out[k], "-") == 0 ? stdout : fopen(out[k], "w");
		if (!f) {
			fprintf(stderr, "baretop-host report: %s: cannot write\n", out[k]);
			rc = HOST_EXIT_USAGE;
			continue;
		}
		if (bt_atlas_page_write(file, kind[k], f, &d) != BT_OK) {
			fprintf(stderr, "baretop-host report: %s\n", d.text);
			rc = HOST_EXIT_USAGE;
		}
		if (f != stdout && fclose(f) != 0)
			rc = HOST_EXIT_USAGE;
	}
	return rc;
}

static int cmd_report(int argc, char **argv)
{
	char *files[256];
	struct bt_page_args o = { .files = files, .max_files = BT_ARRAY_SIZE(files) };
	int r = bt_host_page_args(argc, argv, 1, &o, &args);
	if (r > 0)
		return HOST_EXIT_OK;
	if (r < 0)
		return HOST_EXIT_USAGE;
	if (!o.n_files)
		return host_usage_error(&args, "no RESULTS.json given");
	if (o.want_diff && o.n_files != 2)
		return host_usage_error(&args, "--diff compares two files, not %zu", o.n_files);
	/* Two atlases with --diff: what changed (exit 1 when something did). */
	if (o.n_files == 2 && o.want_diff && bt_atlas_page_is_atlas(files[0]) &&
	    bt_atlas_page_is_atlas(files[1])) {
		bt_status st;
		struct bt_diag d = { "" };
		struct host_output out;
		int changed = 0;
		/* The diff of two atlases is a list of changed events: text only,
		 * never a page or a table that is silently not written. */
		if (o.html || o.csv)
			return host_usage_error(&args, "--diff of two atlases is text (--text [FILE]), "
						"not --%s", o.html ? "html" : "csv");
		if (!host_output_begin(&out, "report", o.text ? o.text : "-"))
			return HOST_EXIT_USAGE;
		st = bt_atlas_page_diff(files[0], files[1], out.f, &changed, &d);
		if (st != BT_OK)
			fprintf(stderr, "baretop-host report: %s\n", d.text);
		if (!host_output_end(&out, st == BT_OK) || st != BT_OK)
			return HOST_EXIT_USAGE;
		return changed ? 1 : HOST_EXIT_OK;
	}
	/* An event atlas (--atlas): its own page (analysis/atlas-page.h). */
	if (o.n_files == 1 && !o.want_diff && bt_atlas_page_is_atlas(files[0]))
		return report_atlas(files[0], &o);
	struct bt_arena a;
	struct bt_page p;
	struct bt_diff df;
	bt_arena_init(&a);
	int rc = HOST_EXIT_USAGE;
	if (bt_host_page_load(&a, files, o.n_files, &p) < 0)
		goto out;
	if (o.want_diff && bt_host_page_diff(&a, &p, &df) < 0)
		goto out;
	rc = bt_host_page_write("report", &p, o.text, o.html, o.csv) < 0 ? HOST_EXIT_USAGE : HOST_EXIT_OK;
out:
	bt_arena_free(&a);
	return rc;
}
