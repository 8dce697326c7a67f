/* SPDX-License-Identifier: MIT */
/*
 * baretop-host report RESULTS.json... [--text[=FILE]] [--html FILE] [--csv FILE]
 * baretop-host report --diff A.json B.json [...]
 *
 * The report of results files for people (report/page.h): text (the
 * default), one self-contained HTML page with SVG charts, or CSV. With
 * --diff, A and B are compared node by node first (report/results-diff.h).
 */
#include <stdio.h>
#include <string.h>

#include "report/results-diff.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/page-out.h"

BT_HOST_COMMAND(report, "report RESULTS.json... [--html F] [--csv F]",
		"a report of results files: text, one self-contained HTML page, or CSV")

static void usage(FILE *f)
{
	fprintf(f,
		"usage: baretop-host report RESULTS.json... [--text[=FILE]] [--html FILE] [--csv FILE]\n"
		"       baretop-host report --diff A.json B.json [--text[=FILE]] [--html FILE] [--csv FILE]\n"
		"  per counted workload: provenance (measured or SIMULATED, model, TMA version), the\n"
		"  level-1 split, the tree with values, flags, spread and the bottleneck path, the CPI\n"
		"  stack, each event's min/median/max over the runs, the run checks (instruction\n"
		"  agreement, retries, SMIs, consistency rules) and the plan (steps, groups, counters);\n"
		"  several workloads add a workload x node table. A node's spread: its formula evaluated\n"
		"  again (built-in models) with one event at a time at its min and at its max over the\n"
		"  runs, the others at their medians (results files keep no per-run count of each event).\n"
		"  --text[=FILE]  text, to standard output or FILE (the default when no format is given)\n"
		"  --html FILE    one self-contained HTML page: inline CSS and SVG, no script, font,\n"
		"                 image or network request (its Content-Security-Policy blocks them)\n"
		"  --csv FILE     one CSV table: section,file,workload,name,level,value,min,median,max,\n"
		"                 flag,detail (with --diff: the diff table, see `baretop-host diff --help`)\n"
		"  --diff A B     compare A and B node by node first (see `baretop-host diff --help`)\n"
		"RESULTS.json: a results file, or a tree `baretop-host replay --json` wrote (labelled\n"
		"replayed: a tree only, no events, checks or plan). The banner says measured, SIMULATED\n"
		"or replayed. FILE - is standard output. Tree values are fractions in CSV, percent\n"
		"elsewhere.\n");
}

static int cmd_report(int argc, char **argv)
{
	const char *text = NULL, *html = NULL, *csv = NULL;
	char *files[256];
	size_t n = 0;
	int want_diff = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--html") && i + 1 < argc) {
			html = argv[++i];
		} else if (!strcmp(a, "--csv") && i + 1 < argc) {
			csv = argv[++i];
		} else if (!strcmp(a, "--text")) {
			text = "-";
		} else if (!strncmp(a, "--text=", 7) && a[7]) {
			text = a + 7;
		} else if (!strcmp(a, "--diff")) {
			want_diff = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] != '-' && n < sizeof(files) / sizeof(files[0])) {
			files[n++] = argv[i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!n || (want_diff && n != 2)) {
		usage(stderr);
		return 2;
	}
	if (!text && !html && !csv)
		text = "-";
	struct bt_arena a;
	struct bt_page p;
	struct bt_diff df;
	bt_arena_init(&a);
	int rc = 1;
	if (bt_host_page_load(&a, files, n, &p) < 0)
		goto out;
	if (want_diff) {
		size_t na = 0;
		while (na < p.n_views && p.views[na].doc == &p.docs[0])
			na++;
		if (bt_diff_build(&a, p.views, na, p.views + na, p.n_views - na, &df) != BT_OK)
			goto out;
		df.path_a = p.docs[0].path;
	df.path_b = p.docs[1].path;
	p.diff = &df;
	}
	rc = bt_host_page_write(&p, text, html, csv) < 0 ? 1 : 0;
out:
	bt_arena_free(&a);
	return rc;
}
