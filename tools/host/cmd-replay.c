/* SPDX-License-Identifier: MIT */
/*
 * baretop-host replay FILE [--json] [--model ID] [--level N] [--info]
 *                          [--flagged] [--load REFDIR] [--default-retire-latency]
 *
 * Evaluates a count file (../shared/testdata/tma/FORMAT.md) with a built-in
 * model (or one loaded from vendor files with --load) and prints the tree.
 * The output says the counts are replayed: nothing is measured here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/counts-file.h"
#include "metrics/report.h"
#include "tools/host/command.h"
#include "tools/host/model-open-host.h"

BT_HOST_COMMAND(replay, "replay FILE [--json] [--model ID]",
		"evaluate a count file and print the Top-Down tree")

static void usage(FILE *f)
{
	fprintf(f, "usage: baretop-host replay FILE [options]\n"
		   "  --json                 every node's value, flag, level and parent as JSON\n"
		   "  --model ID             model to use (default: the file's \"model\")\n"
		   "  --level N              tree levels 1..N only\n"
		   "  --info                 also list Info_/Bottleneck_ metrics (text)\n"
		   "  --flagged              text: expand only flagged nodes\n"
		   "  --load REFDIR          load the model from vendor files under REFDIR\n"
		   "  --default-retire-latency  use the vendor's published retire latencies\n"
		   "                         where the file has none\n");
}

static int cmd_replay(int argc, char **argv)
{
	const char *file = NULL, *model_id = NULL, *load = NULL;
	int json = 0, default_rl = 0;
	struct bt_report_opts opts = { 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--info")) {
			opts.info = 1;
		} else if (!strcmp(a, "--flagged")) {
			opts.flagged_only = 1;
		} else if (!strcmp(a, "--default-retire-latency")) {
			default_rl = 1;
		} else if (!strcmp(a, "--model") && i + 1 < argc) {
			model_id = argv[++i];
		} else if (!strcmp(a, "--load") && i + 1 < argc) {
			load = argv[++i];
		} else if (!strcmp(a, "--level") && i + 1 < argc) {
			opts.max_level = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] != '-' && !file) {
			file = a;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!file) {
		usage(stderr);
		return 2;
	}
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_count_file cf;
	int rc = 1;
	struct bt_model *m = NULL;
	struct bt_counts *c = NULL;
	struct bt_result *r = NULL;
	if (bt_count_file_read(&a, file, &cf, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		goto out;
	}
	if (!model_id)
		model_id = cf.model;
	if (!model_id) {
		fprintf(stderr, "baretop-host: %s names no model; use --model ID\n", file);
		goto out;
	}
	if (host_open_model(model_id, load, &a, &m) < 0)
		goto out;
	c = bt_counts_new(m);
	r = bt_result_new(m);
	if (!c || !r) {
		fprintf(stderr, "baretop-host: out of memory\n");
		goto out;
	}
	bt_count_file_apply(&cf, c, NULL, &d);
	if (default_rl)
		bt_counts_use_default_retire_latencies(c);
	bt_evaluate(m, c, r);
	char label[600];
	snprintf(label, sizeof(label), "replayed counts from %s%s%s%s%s (not measured by baretop)%s",
		 file, cf.case_name ? ", case " : "", cf.case_name ? cf.case_name : "",
		 cf.kind ? ", " : "", cf.kind ? cf.kind : "", load ? "; model loaded from vendor files" : "");
	opts.input_label = label;
	bt_status s = json ? bt_report_json(stdout, m, r, &opts) : bt_report_text(stdout, m, r, &opts);
	rc = s == BT_OK ? 0 : 1;
out:
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
	return rc;
}
