/* SPDX-License-Identifier: MIT */
/*
 * baretop-host counts RESULTS.json... [--out-dir DIR]
 *
 * Turns the counted workloads of baretop results files (copied off the ESP)
 * into count files (../shared/testdata/tma/FORMAT.md), one per workload and
 * CPU, so that `replay` can evaluate the same counts again later: with a
 * newer model, with vendor files (--load), at another level, as JSON.
 *
 * A count file holds what the tree was evaluated with: each event's median
 * (overhead-corrected) count, the constants and the retire latencies. The
 * numbers are copied as they are written in the results file, digit for
 * digit, so replaying one reproduces the results file's tree exactly. The
 * file says where its counts come from ("kind": measured or simulated, and
 * a "source" object); replay prints that. Files are created, never
 * replaced: an existing name is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/json-write.h"
#include "metrics/builtin.h"
#include "base/json-read.h"
#include "analysis/results-read.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"

BT_HOST_COMMAND(counts, "counts RESULTS.json... [--out-dir DIR]",
		"write the counts of baretop results files as count files, for replay")

static const struct host_opt opts[] = {
	{ "out-dir", NULL, HOST_VALUE, "DIR",
	  "where the count files go (default: the working directory); created\n"
	  "with its parents when missing, as baretop's --results-dir" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"counts",
	"counts RESULTS.json... [--out-dir DIR]",
	"  writes one count file per counted workload and CPU of each baretop results\n"
	"  file (the NNNNNN.json files under \\baretop\\results on the ESP) into DIR,\n"
	"  named RESULTS-wK-WORKLOAD-cpuN.json; `baretop-host replay` evaluates them\n"
	"  again. Existing files are not replaced.",
	opts,
	"Exit status: 0 written, 2 bad arguments, a file that cannot be read or converted,\n"
	"a count file that exists already, no counted workload, or an output folder that\n"
	"cannot be made.",
};
HOST_ARGS_REGISTER(args)

/* A JSON value copied as written: numbers keep their digits. */
static void copy_number(struct bt_jw *j, const char *key, const struct bt_json *v)
{
	if (v->type == BT_JSON_NUMBER)
		bt_jw_raw(j, key, v->u.num.text);
	else
		bt_jw_null(j, key);
}

/* Letters, digits, '-' and '_' kept, anything else '_': safe in a file name. */
static void safe_name(char *out, size_t cap, const char *s)
{
	size_t k = 0;
	for (; s && *s && k + 1 < cap; s++)
		out[k++] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
					  (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'
				  ? *s : '_');
	out[k] = '\0';
}

static int write_new_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		fprintf(stderr, "baretop-host: cannot create %s: %s\n", path,
			errno == EEXIST ? "it exists already (count files are never replaced)"
					: strerror(errno));
		return -1;
	}
	size_t len = strlen(text), done = 0;
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (close(fd) != 0 || done != len) {
		fprintf(stderr, "baretop-host: cannot write %s\n", path);
		unlink(path);
		return -1;
	}
	return 0;
}

/* One workload entry's "counted" object as a count file. */
static void render(struct bt_strbuf *sb, const char *results, const struct bt_json *root,
		   const struct bt_json *w, const struct bt_json *counted, const char *model)
{
	struct bt_jw j;
	const struct bt_json *counting = bt_json_get(bt_json_get(root, "run"), "counting");
	const struct bt_json *events = bt_json_member(counted, "events", BT_JSON_OBJECT);
	const struct bt_json *consts = bt_json_member(counted, "constants", BT_JSON_OBJECT);
	const struct bt_json *rl = bt_json_member(counted, "retire_latency", BT_JSON_OBJECT);
	const struct bt_json *sim = bt_json_get(counted, "simulated");
	const struct bt_json *pm = bt_json_get(counting, "perf_metrics");
	const struct bt_json *smt = consts ? bt_json_get(consts, "HYPERTHREADING_ON") : NULL;
	const struct bt_json *cpu = bt_json_get(w, "cpu");
	char case_name[160];
	bool simulated = sim && sim->type == BT_JSON_TRUE;

	snprintf(case_name, sizeof(case_name), "%s@cpu%s", bt_json_get_str(w, "name"),
		 cpu && cpu->type == BT_JSON_NUMBER ? cpu->u.num.text : "?");
	bt_jw_init(&j, sb);
	bt_jw_object(&j, NULL);
	bt_jw_str(&j, "model", model);
	bt_jw_str(&j, "case", case_name);
	bt_jw_str(&j, "kind", simulated ? "baretop results: SIMULATED PMU, not measured on hardware"
					: "baretop results: measured");
	bt_jw_object(&j, "source");
	bt_jw_str(&j, "results_file", results);
	if (bt_json_get(root, "sequence"))
		copy_number(&j, "sequence", bt_json_get(root, "sequence"));
	bt_jw_str(&j, "workload", bt_json_get_str(w, "name"));
	bt_jw_str(&j, "params", bt_json_get_str(w, "params"));
	if (cpu)
		copy_number(&j, "cpu", cpu);
	bt_jw_str(&j, "input", bt_json_get_str(counted, "input"));
	bt_jw_str(&j, "model_source", bt_json_get_str(counting, "model_source"));
	bt_jw_str(&j, "cpu_signature", bt_json_get_str(bt_json_get(root, "cpu"), "signature"));
	bt_jw_bool(&j, "simulated", simulated);
	bt_jw_end(&j);
	bt_jw_bool(&j, "smt_on", smt && smt->type == BT_JSON_NUMBER && smt->u.num.value != 0);
	bt_jw_bool(&j, "use_perf_metrics", pm && pm->type == BT_JSON_TRUE);
	bt_jw_object(&j, "counts");
	for (size_t i = 0; events && i < events->u.obj.n; i++) {
		const struct bt_json *median = bt_json_get(events->u.obj.values[i], "median");
		if (median)
			copy_number(&j, events->u.obj.keys[i], median);
	}
	bt_jw_end(&j);
	bt_jw_object(&j, "constants");
	for (size_t i = 0; consts && i < consts->u.obj.n; i++)
		copy_number(&j, consts->u.obj.keys[i], consts->u.obj.values[i]);
	bt_jw_end(&j);
	bt_jw_object(&j, "retire_latency");
	/* format 3: {EVENT: {"mean": m, ..., "source": s}} (null mean = not
	 * measured); format 2: {EVENT: cycles} */
	for (size_t i = 0; rl && i < rl->u.obj.n; i++) {
		const struct bt_json *v = rl->u.obj.values[i];
		const struct bt_json *mean = v->type == BT_JSON_OBJECT ? bt_json_get(v, "mean") : v;
		if (mean && mean->type == BT_JSON_NUMBER)
			copy_number(&j, rl->u.obj.keys[i], mean);
	}
	bt_jw_end(&j);
	bt_jw_end(&j);
	bt_sb_putc(sb, '\n');
}

static int convert(const char *results, const char *out_dir, int *ret_written)
{
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_results_doc doc = { 0 };
	int rc = 0;

	bt_arena_init(&a);
	bool loaded = bt_results_doc_load(&a, results, &doc, &d) == BT_OK;
	if (!loaded || !bt_json_member(doc.run, "workloads", BT_JSON_ARRAY)) {
		if (loaded)
			bt_diag_set(&d, "%s is not a baretop results file (\"format\": "
					"\"baretop-results\" with run.workloads)", results);
		fprintf(stderr, "baretop-host: %s\n", d.text);
		bt_arena_free(&a);
		return 1;
	}
	const struct bt_json *root = doc.root, *run = doc.run;
	/* A model loaded from vendor files is not a built-in id: the count
	 * file then names none, and replay needs --model or --load. */
	const char *model = bt_json_get_str(bt_json_get(run, "counting"), "model");
	if (model && !bt_builtin_find(model))
		model = NULL;
	char stem[128];
	const char *base = strrchr(results, '/');
	base = base ? base + 1 : results;
	size_t blen = strlen(base);
	if (blen > 5 && !strcmp(base + blen - 5, ".json"))
		blen -= 5;
	snprintf(stem, sizeof(stem), "%.*s", (int)blen, base);
	safe_name(stem, sizeof(stem), stem);
	int n_counted = 0;
	for (size_t k = 0; k < doc.n_workloads; k++) {
		const struct bt_json *w = doc.workloads[k].entry;
		const struct bt_json *counted = doc.workloads[k].counted;
		if (!counted)
			continue;
		n_counted++;
		char name[64], path[4096];
		const struct bt_json *cpu = bt_json_get(w, "cpu");
		safe_name(name, sizeof(name), bt_json_get_str(w, "name"));
		snprintf(path, sizeof(path), "%s/%s-w%zu-%s-cpu%s.json", out_dir, stem, k, name,
			 cpu && cpu->type == BT_JSON_NUMBER ? cpu->u.num.text : "x");
		struct bt_strbuf sb = { 0 };
		render(&sb, results, root, w, counted, model);
		if (sb.oom) {
			fprintf(stderr, "baretop-host: out of memory\n");
			rc = 1;
		} else if (write_new_file(path, bt_sb_str(&sb)) == 0) {
			printf("%s\n", path);
			(*ret_written)++;
		} else {
			rc = 1;
		}
		bt_sb_free(&sb);
	}
	if (!n_counted)
		fprintf(stderr, "baretop-host: %s: no workload was counted (%s)\n", results,
			bt_json_get_str(run, "not_counted_reason") ? bt_json_get_str(run,
									 "not_counted_reason")
								   : "no counts in the file");
	bt_arena_free(&a);
	return rc;
}

static int cmd_counts(int argc, char **argv)
{
	const char *out_dir = ".";
	int n_files = 0, rc = 0, written = 0;

	char **files = calloc((size_t)argc, sizeof(*files));
	struct host_args it;
	const char *v;
	int k;

	if (!files)
		return 1;
	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == 0) {
			out_dir = v;
		} else if (k == HOST_ARGS_POSITIONAL) {
			files[n_files++] = (char *)v;
		} else {
			free(files);
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
		}
	}
	if (!n_files) {
		free(files);
		return host_usage_error(&args, "no RESULTS.json given");
	}
	if (!host_make_dirs("counts", out_dir)) {
		free(files);
		return HOST_EXIT_USAGE;
	}
	for (int i = 0; i < n_files; i++)
		if (convert(files[i], out_dir, &written) != 0)
			rc = HOST_EXIT_USAGE;
	free(files);
	return rc ? rc : written ? HOST_EXIT_OK : HOST_EXIT_USAGE;
}
