/* SPDX-License-Identifier: MIT */
/*
 * baretop-host diff A.json B.json [--text [FILE]] [--html [FILE]] [--csv [FILE]]
 *
 * Two results files compared node by node (analysis/results-diff.h): for each
 * workload counted in both and each tree node, A's value, B's value, B - A
 * and whether the difference is beyond the run-to-run spread. For A/B of
 * firmware, microcode, stepping or a code change. Exit status as diff(1):
 * 0 nothing beyond the spread, 1 something is, 2 trouble.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/results-diff.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/page-out.h"

BT_HOST_COMMAND(diff, "diff A.json B.json [--html [F]] [--csv [F]]",
		"compare two results files node by node against the run-to-run spread")

static const struct host_opt opts[] = {
	{ "text", NULL, HOST_OUTPUT, "FILE", "text (the default when no format is given)" },
	{ "html", NULL, HOST_OUTPUT, "FILE", "the diff and both files' reports as one self-contained HTML page" },
	{ "csv", NULL, HOST_OUTPUT, "FILE",
	  "workload,node,level,a,a_lo,a_hi,b,b_lo,b_hi,difference,verdict\n"
	  "(values as fractions; a_lo..a_hi is A's spread)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"diff",
	"diff A.json B.json [--text [FILE]] [--html [FILE]] [--csv [FILE]]",
	"  per workload counted in both files (matched by name, NAME@cpuN when a name ran on\n"
	"  several CPUs) and per tree node: A's value, B's value, B - A and a verdict, sorted\n"
	"  by |B - A|, largest first:\n"
	"    beyond spread  A's value is outside B's spread AND B's value is outside A's\n"
	"    within spread  they differ, but not beyond the spread\n"
	"    same           equal to within 1e-12 (relative)\n"
	"    not judged     they differ and no spread could be derived (a model from vendor files)\n"
	"    only in A / only in B  a value on one side only (not measured on the other)\n"
	"  A node's spread: results files keep each event's min, median and max over the runs,\n"
	"  not every run's counts, so the node's formula is evaluated again (built-in model)\n"
	"  with one event at a time at its min and at its max, the others at their medians;\n"
	"  the spread is the range of those values and of the node's reported value.",
	opts,
	"FILE - is standard output; the separated form --csv FILE takes the next word unless it\n"
	"starts with '-'; a results file is never written over.\n"
	"Exit status: 0 no node beyond the spread, 1 some node beyond it (found), 2 bad\n"
	"arguments or a file that cannot be read or written.",
};
HOST_ARGS_REGISTER(args)

static int cmd_diff(int argc, char **argv)
{
	char *files[2];
	struct bt_page_args o = { .files = files, .max_files = 2 };
	int r = bt_host_page_args(argc, argv, 0, &o, &args);
	if (r > 0)
		return HOST_EXIT_OK;
	if (r < 0)
		return HOST_EXIT_USAGE;
	if (o.n_files != 2)
		return host_usage_error(&args, "two files A.json and B.json expected, not %zu", o.n_files);
	struct bt_arena a;
	struct bt_page p;
	struct bt_diff df;
	bt_arena_init(&a);
	int rc = 2;
	if (bt_host_page_load(&a, files, 2, &p) < 0)
		goto out;
	if (bt_host_page_diff(&a, &p, &df) < 0)
		goto out;
	p.diff_only = 1;
	if (bt_host_page_write("diff", &p, o.text, o.html, o.csv) < 0)
		goto out;
	if (!df.n_workloads) {
		fprintf(stderr, "baretop-host: no workload is counted in both %s and %s\n", files[0], files[1]);
		goto out;
	}
	rc = df.n_class[BT_DIFF_BEYOND] ? 1 : 0;
out:
	bt_arena_free(&a);
	return rc;
}
