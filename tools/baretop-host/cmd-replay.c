/* SPDX-License-Identifier: MIT */
/*
 * baretop-host replay FILE... [--json] [--model ID] [--level N] [--info]
 *                     [--flagged] [--load REFDIR] [--default-retire-latency]
 *                     [--out-dir DIR --base DIR]
 *
 * Evaluates count files (../shared/testdata/tma/FORMAT.md) with a built-in
 * model (or one loaded from vendor files with --load) and prints the tree.
 * The output says the counts are replayed: nothing is measured here. After
 * the tree come its consistency verdicts (metrics/rules.h; JSON:
 * "consistency"): random test vectors may violate them, real counts must not.
 * With --out-dir, each FILE's report goes to DIR/<FILE relative to --base>
 * (one process for a whole tree of cases; models are compiled once).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics/counts-file.h"
#include "analysis/perf-stat.h"
#include "metrics/retire-latency-file.h"
#include "pmu/event-encode.h"
#include "metrics/rules.h"
#include "report/consistency.h"
#include "report/tree.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "tools/baretop-host/model-open-host.h"

/* perf's encoded spellings are read by pmu/'s event parser */
static const struct bt_perf_match perf_match = { bt_event_parse_encoding };

BT_HOST_COMMAND(replay, "replay FILE... [--json] [--model ID]",
		"evaluate count files and print the Top-Down tree")

static void usage(FILE *f)
{
	fprintf(f, "usage: baretop-host replay FILE... [options]\n"
		   "  --json                 every node's value, flag, level and parent as JSON\n"
		   "  --model ID             model to use (default: the file's \"model\")\n"
		   "  --level N              tree levels 1..N only\n"
		   "  --info                 also list Info_/Bottleneck_ metrics (text)\n"
		   "  --flagged              text: expand only flagged nodes\n"
		   "  --all-rules            text: every consistency rule with its verdict\n"
		   "                         (by default the counts and each violated rule)\n"
		   "  --load REFDIR          load the model from vendor files under REFDIR\n"
		   "  --default-retire-latency  use the vendor's published retire latencies\n"
		   "  --retire-latency-file F  then latencies from F (Intel's retire-latency JSON or\n"
		   "                         {EVENT: cycles}) for those still not given\n"
		   "                         where the file has none\n"
		   "  --out-dir DIR --base B write each report to DIR/<FILE relative to B>\n"
		   "  --perf-stat FILE       read FILE as `perf stat -x,` or `perf stat -j` output\n"
		   "                         (needs --model); events by perf name, cpu/event=..,umask=../\n"
		   "                         or rNNNN; warns per multiplexed event\n"
		   "  --constant NAME=VALUE  set a model constant (HYPERTHREADING_ON, NUM_CPUS,\n"
		   "                         SYSTEM_TSC_FREQ, ...) over the file's; perf's output\n"
		   "                         carries none (repeatable)\n");
}

#define MAX_MODELS 64

struct session {
	const char *model_id, *load, *out_dir, *base, *perf_stat;
	int json, default_rl, all_rules;
	const char *rl_path;  /* --retire-latency-file */
	struct bt_rl_file rl_file;
	char **constants;     /* "NAME=VALUE" from --constant */
	int n_constants;
	struct bt_report_opts opts;
	struct bt_arena arena;
	struct {
		const char *id;
		struct bt_model *m;
		struct bt_counts *c;
		struct bt_result *r;
		struct bt_rule_set *rules;
		struct bt_consistency *cons;
	} models[MAX_MODELS];
	int n_models;
};

static int get_model(struct session *s, const char *id, int *ret)
{
	for (int i = 0; i < s->n_models; i++)
		if (!strcmp(s->models[i].id, id)) {
			*ret = i;
			return 0;
		}
	if (s->n_models == MAX_MODELS)
		return -1;
	int i = s->n_models;
	if (host_open_model(id, s->load, &s->arena, &s->models[i].m) < 0)
		return -1;
	s->models[i].id = bt_arena_strdup(&s->arena, id);
	s->models[i].c = bt_counts_new(s->models[i].m);
	s->models[i].r = bt_result_new(s->models[i].m);
	struct bt_diag d = { "" };
	if (bt_rules_derive(s->models[i].m, &s->models[i].rules, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return -1;
	}
	s->models[i].cons = bt_consistency_new(s->models[i].rules);
	if (!s->models[i].id || !s->models[i].c || !s->models[i].r || !s->models[i].cons) {
		fprintf(stderr, "baretop-host: out of memory\n");
		return -1;
	}
	s->n_models++;
	*ret = i;
	return 0;
}

/* mkdir -p of the directories in path (not the last component) */
static int make_parents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int r = mkdir(path, 0777);
		*p = '/';
		if (r < 0 && errno != EEXIST)
			return -1;
	}
	return 0;
}

/*
 * perf stat output into c. Says on stderr what became of every event perf
 * did not count fully: missing (<not counted>, <not supported>), not used
 * by the model, or multiplexed (perf printed a scaled estimate).
 */
static int perf_stat_apply(struct bt_arena *a, const char *file, struct bt_counts *c, char *summary,
			   size_t summary_len)
{
	struct bt_perf_stat f;
	struct bt_diag d = { "" };
	if (bt_perf_stat_read(a, file, &f, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return -1;
	}
	struct bt_perf_row_use *uses = bt_arena_alloc(a, f.n * sizeof(*uses));
	if (!uses) {
		fprintf(stderr, "baretop-host: out of memory\n");
		return -1;
	}
	if (bt_perf_stat_apply(&f, &perf_match, c, uses, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return -1;
	}
	unsigned used = 0, missing = 0, unused = 0, mux = 0;
	for (size_t r = 0; r < f.n; r++) {
		const struct bt_perf_stat_row *row = &f.rows[r];
		if (row->state != BT_PERF_COUNTED && uses[r].first_event >= 0) {
			missing++;
			fprintf(stderr, "baretop-host: %s:%u: %s: %s; nodes that need it are not computed\n",
				file, row->line, row->event, uses[r].why);
		} else if (!uses[r].n_events) {
			unused++;
			fprintf(stderr, "baretop-host: %s:%u: %s not used: %s\n", file, row->line,
				row->event, uses[r].why);
		} else {
			used++;
			if (row->pcnt_running < 100) {
				mux++;
				fprintf(stderr, "baretop-host: warning: %s:%u: %s ran %.2f%% of the time "
					"(perf multiplexed it): its count is perf's estimate, scaled up by "
					"enabled/running time\n", file, row->line, row->event,
					row->pcnt_running);
			}
		}
	}
	if (mux)
		fprintf(stderr, "baretop-host: warning: %u event%s multiplexed: a node whose formula "
				"mixes them with other events combines counts taken over different "
				"intervals, so its value (and flag) can be off when the workload changes "
				"phase; group the events of a node (perf stat -e '{...}') or count fewer "
				"at once\n", mux, mux == 1 ? " was" : "s were");
	snprintf(summary, summary_len, "perf stat %s: %u event%s used, %u multiplexed, %u missing, "
		 "%u not in the model", f.json ? "-j" : "-x,", used, used == 1 ? "" : "s", mux,
		 missing, unused);
	return 0;
}

static int replay_one(struct session *s, const char *file)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_count_file cf;
	int rc = 1, idx;
	FILE *out = stdout;
	char out_path[4096] = "";
	memset(&cf, 0, sizeof(cf));
	if (!s->perf_stat && bt_count_file_read(&a, file, &cf, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		goto done;
	}
	const char *id = s->model_id ? s->model_id : cf.model;
	if (!id) {
		fprintf(stderr, "baretop-host: %s names no model; use --model ID\n", file);
		goto done;
	}
	if (get_model(s, id, &idx) < 0)
		goto done;
	struct bt_model *m = s->models[idx].m;
	struct bt_counts *c = s->models[idx].c;
	struct bt_result *r = s->models[idx].r;
	char label[600];
	if (s->perf_stat) {
		char summary[200];
		if (perf_stat_apply(&a, file, c, summary, sizeof(summary)) != 0)
			goto done;
		snprintf(label, sizeof(label), "replayed perf stat counts from %s (%s; evaluated from the "
			 "file: nothing measured now)%s", file, summary,
			 s->load ? "; model loaded from vendor files" : "");
	} else {
		bt_count_file_apply(&cf, c, NULL, &d);
		snprintf(label, sizeof(label), "replayed counts from %s%s%s%s%s (evaluated from the file: nothing measured now)%s",
			 file, cf.case_name ? ", case " : "", cf.case_name ? cf.case_name : "",
			 cf.kind ? ", " : "", cf.kind ? cf.kind : "",
			 s->load ? "; model loaded from vendor files" : "");
	}
	for (int k = 0; k < s->n_constants; k++) {
		char name[64];
		const char *eq = strchr(s->constants[k], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - s->constants[k]), s->constants[k]);
		if (bt_counts_set_constant(c, name, strtod(eq + 1, NULL)) != BT_OK)
			fprintf(stderr, "baretop-host: model %s has no constant %s\n", id, name);
	}
	if (s->default_rl)
		bt_counts_use_default_retire_latencies(c);
	if (s->rl_path)
		bt_rl_file_apply(&s->rl_file, c);
	bt_evaluate(m, c, r);
	struct bt_consistency *cons = s->models[idx].cons;
	bt_consistency_check(cons, c, r);
	struct bt_report_opts opts = s->opts;
	opts.input_label = label;
	opts.consistency = cons;
	/* a count file's latencies: absent = not measured, perf's -1 (FORMAT.md) */
	opts.perf_latency_values = !s->perf_stat;
	opts.counts = c;
	if (s->out_dir) {
		const char *rel = file;
		size_t bl = s->base ? strlen(s->base) : 0;
		if (bl && !strncmp(file, s->base, bl))
			rel = file + bl;
		while (*rel == '/')
			rel++;
		snprintf(out_path, sizeof(out_path), "%s/%s", s->out_dir, rel);
		if (make_parents(out_path) < 0 || !(out = fopen(out_path, "w"))) {
			fprintf(stderr, "baretop-host: cannot write %s\n", out_path);
			out = stdout;
			goto done;
		}
	}
	bt_status st = s->json ? bt_report_json(out, m, r, &opts) : bt_report_text(out, m, r, &opts);
	if (st == BT_OK && !s->json)
		bt_report_consistency_text(out, cons, r, "", s->all_rules);
	rc = st == BT_OK ? 0 : 1;
done:
	if (out != stdout && fclose(out) != 0)
		rc = 1;
	bt_arena_free(&a);
	return rc;
}

static int cmd_replay(int argc, char **argv)
{
	struct session s = { 0 };
	const char **files = calloc((size_t)argc + 1, sizeof(*files));
	int n_files = 0, rc = 0;
	s.constants = calloc((size_t)argc + 1, sizeof(*s.constants));
	if (!files || !s.constants) {
		free(files);
		free(s.constants);
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			s.json = 1;
		} else if (!strcmp(a, "--info")) {
			s.opts.info = 1;
		} else if (!strcmp(a, "--all-rules")) {
			s.all_rules = 1;
		} else if (!strcmp(a, "--flagged")) {
			s.opts.flagged_only = 1;
		} else if (!strcmp(a, "--default-retire-latency")) {
			s.default_rl = 1;
		} else if (!strcmp(a, "--retire-latency-file") && i + 1 < argc) {
			s.rl_path = argv[++i];
		} else if (!strcmp(a, "--model") && i + 1 < argc) {
			s.model_id = argv[++i];
		} else if (!strcmp(a, "--load") && i + 1 < argc) {
			s.load = argv[++i];
		} else if (!strcmp(a, "--out-dir") && i + 1 < argc) {
			s.out_dir = argv[++i];
		} else if (!strcmp(a, "--perf-stat") && i + 1 < argc) {
			s.perf_stat = argv[++i];
			files[n_files++] = s.perf_stat;
		} else if (!strcmp(a, "--constant") && i + 1 < argc) {
			char *v = argv[++i], *eq = strchr(v, '='), *end = NULL;
			if (eq && eq != v && eq - v < 64)
				strtod(eq + 1, &end);
			if (!end || end == eq + 1 || *end) {
				fprintf(stderr, "baretop-host: replay: --constant '%s': not NAME=NUMBER\n", v);
				free(files);
				free(s.constants);
				return 2;
			}
			s.constants[s.n_constants++] = v;
		} else if (!strcmp(a, "--base") && i + 1 < argc) {
			s.base = argv[++i];
		} else if (!strcmp(a, "--level") && i + 1 < argc) {
			if (!host_parse_uint("replay", "--level", argv[++i], 1, 16, &s.opts.max_level)) {
				free(files);
				free(s.constants);
				return 2;
			}
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			free(files);
			free(s.constants);
			return 0;
		} else if (a[0] != '-') {
			files[n_files++] = a;
		} else {
			usage(stderr);
			free(files);
			free(s.constants);
			return 2;
		}
	}
	if (s.perf_stat && (n_files != 1 || !s.model_id)) {
		fprintf(stderr, "baretop-host: --perf-stat FILE takes one file and --model ID "
				"(perf's output does not name a Top-Down model)\n");
		free(files);
		free(s.constants);
		return 2;
	}
	if (!n_files || (n_files > 1 && !s.out_dir)) {
		if (n_files > 1)
			fprintf(stderr, "baretop-host: several files need --out-dir\n");
		usage(stderr);
		free(files);
		free(s.constants);
		return 2;
	}
	bt_arena_init(&s.arena);
	if (s.rl_path) {
		struct bt_diag d = { "" };
		if (bt_rl_file_read(&s.arena, s.rl_path, &s.rl_file, &d) != BT_OK) {
			fprintf(stderr, "baretop-host: --retire-latency-file: %s\n", d.text);
			bt_arena_free(&s.arena);
			free(files);
			free(s.constants);
			return 2;
		}
	}
	for (int i = 0; i < n_files; i++)
		if (replay_one(&s, files[i]) != 0)
			rc = 1;
	for (int i = 0; i < s.n_models; i++) {
		bt_consistency_free(s.models[i].cons);
		bt_rules_free(s.models[i].rules);
		bt_result_free(s.models[i].r);
		bt_counts_free(s.models[i].c);
		bt_model_close(s.models[i].m);
	}
	bt_arena_free(&s.arena);
	free(files);
	free(s.constants);
	return rc;
}
