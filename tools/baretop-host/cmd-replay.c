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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "metrics/counts-file.h"
#include "analysis/perf-smt.h"
#include "analysis/perf-stat.h"
#include "metrics/retire-latency-file.h"
#include "pmu/event-encode.h"
#include "metrics/rules.h"
#include "base/near-name.h"
#include "report/consistency.h"
#include "report/tree.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "tools/baretop-host/model-open-host.h"

/* perf's encoded spellings are read by pmu/'s event parser */
static const struct bt_perf_match perf_match = { bt_event_parse_encoding };

BT_HOST_COMMAND(replay, "replay FILE... [--json[=FILE]] [--model ID]",
		"evaluate count files and print the Top-Down tree")

static const struct host_opt replay_opts[] = {
	{ "json", NULL, HOST_OUTPUT_EQ, "FILE",
	  "every node's value, flag, level and parent as JSON (instead of the\n"
	  "text); FILE only after '=' (replay --json X.json reads X.json)" },
	{ "model", NULL, HOST_VALUE, "ID", "model to use (default: the file's \"model\"; any case)" },
	{ "level", NULL, HOST_VALUE, "N", "tree levels 1..N only" },
	{ "info", NULL, HOST_FLAG, NULL, "also list Info_/Bottleneck_ metrics (text)" },
	{ "flagged", NULL, HOST_FLAG, NULL, "text: expand only flagged nodes" },
	{ "all-rules", NULL, HOST_FLAG, NULL,
	  "text: every consistency rule with its verdict (by default the\n"
	  "counts and each violated rule)" },
	{ "load", NULL, HOST_VALUE, "REFDIR", "load the model from vendor files under REFDIR" },
	{ "default-retire-latency", NULL, HOST_FLAG, NULL,
	  "use the published mean retire latencies (as a run does) where neither the\n"
	  "file nor --retire-latency-file gives one; without it a latency not given\n"
	  "is not measured (-1), the vectors' definition" },
	{ "out-dir", NULL, HOST_VALUE, "DIR",
	  "write each report to DIR/<FILE relative to --base> (made when missing)" },
	{ "base", NULL, HOST_VALUE, "B", "with --out-dir: the part of each FILE's path not repeated under DIR" },
	{ "perf-stat", NULL, HOST_VALUE, "FILE",
	  "read FILE as `perf stat -x,` or `perf stat -j` output, also interval\n"
	  "output (-I: one tree per interval; with --json an array of trees);\n"
	  "needs --model. Events by perf name, cpu/event=..,umask=../ or rUUEE;\n"
	  "warns per multiplexed event; names the events a missing node needs.\n"
	  "SMT on or off: from the SMT sibling the file measured\n"
	  "(CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and REF_XCLK, as baretop's export\n"
	  "writes them: active >= 50 % of the time takes the SMT formulas), else\n"
	  "inferred from the events perf counted (states it).\n"
	  "EVENT:R rows (perf stat --record-tpebs) are retire latencies: measured,\n"
	  "by perf tpebs" },
	{ "constant", NULL, HOST_VALUE, "NAME=VALUE",
	  "set a model constant over the file's or the inferred one (repeatable):\n"
	  "HYPERTHREADING_ON, THREADS_PER_CORE, SYSTEM_TSC_FREQ, TSC_HZ,\n"
	  "DURATIONTIMEINMILLISECONDS, SOCKET_COUNT, CORES_PER_SOCKET,\n"
	  "CHAS_PER_SOCKET, NUM_CPUS, CORE_WIDE, SMT_SIBLING_ACTIVE" },
	{ "retire-latency-file", NULL, HOST_VALUE, "F",
	  "latencies from F (Intel's retire-latency JSON or {EVENT: cycles}) for those\n"
	  "the file does not give (before --default-retire-latency's)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"replay",
	"replay FILE... [options]\n"
	"replay --perf-stat FILE --model ID [options]",
	"  evaluates count files (../shared/testdata/tma/FORMAT.md) with a built-in model\n"
	"  and prints the tree and its consistency verdicts; nothing is measured here.",
	replay_opts,
	"Exit status: 0 done, 2 bad arguments, a file that cannot be read or is malformed,\n"
	"or a report that cannot be written.",
};
HOST_ARGS_REGISTER(args)

#define MAX_MODELS 64

struct session {
	const char *model_id, *load, *out_dir, *base, *perf_stat;
	int json, default_rl, all_rules;
	const char *json_path;   /* --json=FILE: the one report goes there */
	struct host_output jout;
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
	/* a --retire-latency-file name this model does not know (a misspelling) */
	if (s->rl_path && bt_rl_file_check(&s->rl_file, s->models[i].m, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: --retire-latency-file: %s\n", d.text);
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

/* Says on stderr what became of every row of one interval (all rows
 * without -I) that perf did not count fully: missing (<not counted>,
 * <not supported>), not used by the model, or multiplexed (perf printed a
 * scaled estimate). quiet: count only (the intervals after the first). */
static void perf_rows_said(const struct bt_perf_stat *f, const struct bt_perf_row_use *uses, bool quiet,
			   unsigned *ret_used, unsigned *ret_mux, unsigned *ret_unused)
{
	unsigned used = 0, unused = 0, mux = 0;
	for (size_t r = 0; r < f->n; r++) {
		const struct bt_perf_stat_row *row = &f->rows[r];
		if (!uses[r].n_events && !uses[r].why[0])
			continue; /* another interval's row */
		if (row->state != BT_PERF_COUNTED && uses[r].first_event >= 0) {
			if (!quiet)
				fprintf(stderr, "baretop-host: %s:%u: %s: %s; nodes that need it are not "
						"computed\n", f->path, row->line, row->event, uses[r].why);
		} else if (!uses[r].n_events) {
			unused++;
			if (!quiet)
				fprintf(stderr, "baretop-host: %s:%u: %s not used: %s\n", f->path, row->line,
					row->event, uses[r].why);
		} else {
			used++;
			if (row->pcnt_running < 100) {
				mux++;
				if (!quiet)
					fprintf(stderr, "baretop-host: warning: %s:%u: %s ran %.2f%% of the "
							"time (perf multiplexed it): its count is perf's "
							"estimate, scaled up by enabled/running time\n", f->path,
						row->line, row->event, row->pcnt_running);
			}
		}
	}
	if (mux && !quiet)
		fprintf(stderr, "baretop-host: warning: %u event%s multiplexed: a node whose formula "
				"mixes them with other events combines counts taken over different "
				"intervals, so its value (and flag) can be off when the workload changes "
				"phase; group the events of a node (perf stat -e '{...}') or count fewer "
				"at once\n", mux, mux == 1 ? " was" : "s were");
	*ret_used = used;
	*ret_mux = mux;
	*ret_unused = unused;
}

/*
 * The tree nodes shown (levels up to max_level, 0 = all) that came out
 * missing, each with the events it needs that the file did not give (on
 * stderr unless quiet); returns how many distinct events the shown tree
 * needs and the file did not give: the input summary's "missing".
 */
static unsigned perf_missing_said(const struct bt_model *m, const struct bt_counts *c, const struct bt_result *r,
				  unsigned max_level, bool quiet)
{
	unsigned ne = bt_model_event_count(m), n = 0, missing = 0;
	uint16_t *ev = calloc(ne ? ne : 1, sizeof(*ev));
	if (!ev)
		return 0;
	if (bt_model_events_up_to_level(m, max_level ? max_level : bt_model_max_level(m), c->constants, ev,
					&n) == BT_OK)
		for (unsigned k = 0; k < n; k++)
			missing += isnan(c->events[ev[k]]);
	for (unsigned i = 0; !quiet && i < bt_model_node_count(m); i++) {
		const struct bt_node_def *nd = bt_model_node(m, i);
		if (!nd->level || (max_level && nd->level > max_level) || r->state[i] != BT_NODE_MISSING)
			continue;
		if (bt_model_events_for_nodes(m, &i, 1, c->constants, ev, &n) != BT_OK)
			continue;
		char names[400] = "";
		size_t len = 0;
		unsigned shown = 0, more = 0;
		for (unsigned k = 0; k < n; k++) {
			if (!isnan(c->events[ev[k]]))
				continue;
			if (shown < 4 && len < sizeof(names) - 1) {
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", shown ? ", " : "",
							bt_model_event(m, ev[k])->name);
				shown++;
			} else {
				more++;
			}
		}
		if (len >= sizeof(names))
			len = sizeof(names) - 1;
		if (shown)
			fprintf(stderr, "baretop-host: %s is missing: it needs %s%s%.0u%s, not in the file or "
					"not counted\n", nd->name, names, more ? " and " : "", more,
				more ? " more" : "");
		else
			fprintf(stderr, "baretop-host: %s is missing: a constant it needs is not given "
					"(--constant)\n", nd->name);
	}
	free(ev);
	return missing;
}

/* The report goes to DIR/<file relative to --base> with --out-dir, else
 * standard output; NULL (said) when the file cannot be made. */
static FILE *open_report(struct session *s, const char *file, char *out_path, size_t len)
{
	if (s->json_path && strcmp(s->json_path, "-"))
		return host_output_begin(&s->jout, "replay", s->json_path) ? s->jout.f : NULL;
	if (!s->out_dir)
		return stdout;
	const char *rel = file;
	size_t bl = s->base ? strlen(s->base) : 0;
	if (bl && !strncmp(file, s->base, bl))
		rel = file + bl;
	while (*rel == '/')
		rel++;
	snprintf(out_path, len, "%s/%s", s->out_dir, rel);
	FILE *out = NULL;
	if (!host_output_ok_with("replay", out_path, file))
		return NULL;
	if (make_parents(out_path) < 0 || !(out = fopen(out_path, "w")))
		fprintf(stderr, "baretop-host: cannot write %s\n", out_path);
	return out;
}

/* Ends what open_report began: a --json=FILE is written only when the
 * report was (keep). Returns false when the file could not be written. */
static bool close_report(struct session *s, FILE *out, bool keep)
{
	if (!out || out == stdout)
		return true;
	if (out == s->jout.f)
		return host_output_end(&s->jout, keep);
	return fclose(out) == 0;
}

/* --constant NAME=VALUE over whatever was there. */
static void set_constants(const struct session *s, struct bt_counts *c)
{
	for (int k = 0; k < s->n_constants; k++) {
		char name[64];
		const char *eq = strchr(s->constants[k], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - s->constants[k]), s->constants[k]);
		bt_counts_set_constant(c, name, strtod(eq + 1, NULL)); /* names checked by constant_ok */
	}
}

static bool constant_given(const struct session *s, const char *name)
{
	size_t n = strlen(name);
	for (int k = 0; k < s->n_constants; k++)
		if (!strncmp(s->constants[k], name, n) && s->constants[k][n] == '=')
			return true;
	return false;
}

/*
 * As a run does (metrics/rules.h bt_rules_untrust, app/count-run.c): the
 * nodes reading what a violated rule points at are untrusted, marked in
 * every output and never on the bottleneck path, which is taken again
 * without them. NULL when no node is (or without memory: then the tree is
 * shown as evaluated, and its violated rules say why not to trust it).
 */
static const struct bt_untrust *untrust(struct bt_arena *a, struct bt_consistency *cons,
					 const struct bt_counts *c, struct bt_result *r)
{
	const struct bt_model *m = r->model;
	unsigned nn = bt_model_node_count(m);

	if (!cons->n_violated)
		return NULL;
	struct bt_untrust *u = bt_arena_alloc(a, (nn + 1) * sizeof(*u));
	if (!u)
		return NULL;
	memset(u, 0, (nn + 1) * sizeof(*u));
	/* HYPERTHREADING_ON as the evaluation decided it from a recording's
	 * measured SMT sibling (SMT_SIBLING_ACTIVE): a node's events are its
	 * branch's only, as a run reads them (app/count-run.c). */
	double k[BT_CONST_COUNT];
	bt_smt_decided_constants(c->constants, k);
	if (!bt_rules_untrust(cons, c, r, k, NULL, u, NULL))
		return NULL;
	bt_evaluate(m, c, r);
	bt_consistency_check(cons, c, r);
	return u;
}

/* the same result object serves every file of a model: nothing untrusted yet */
static void trust_all(struct bt_result *r)
{
	memset(r->exclude, 0, bt_model_node_count(r->model));
}

/*
 * `--perf-stat FILE`: one tree, or one per interval of -I output. Which
 * formulas it takes (SMT on or off): where the file measured the SMT
 * sibling (ONE_THREAD_ACTIVE and REF_XCLK, as baretop's export writes them)
 * or --constant SMT_SIBLING_ACTIVE gives it, the sibling decides as in a
 * run (bt_smt_decide); else the formulas perf ran, read from the events it
 * counted (bt_perf_smt_inferred). Said either way; --constant
 * HYPERTHREADING_ON=N wins.
 */
static int replay_perf(struct session *s, const char *file)
{
	struct bt_arena a;
	struct bt_perf_stat f;
	struct bt_diag d = { "" };
	char out_path[4096] = "";
	int rc = HOST_EXIT_USAGE, idx;
	FILE *out = NULL;

	bt_arena_init(&a);
	if (bt_perf_stat_read(&a, file, &f, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		goto done;
	}
	if (get_model(s, s->model_id, &idx) < 0)
		goto done;
	struct bt_model *m = s->models[idx].m;
	struct bt_counts *c = s->models[idx].c;
	struct bt_result *r = s->models[idx].r;
	struct bt_consistency *cons = s->models[idx].cons;
	struct bt_perf_row_use *uses = bt_arena_alloc(&a, f.n * sizeof(*uses));
	if (!uses) {
		fprintf(stderr, "baretop-host: out of memory\n");
		goto done;
	}
	if (!(out = open_report(s, file, out_path, sizeof(out_path))))
		goto done;
	size_t n_trees = f.n_intervals ? f.n_intervals : 1;
	if (s->json && f.n_intervals)
		fprintf(out, "[\n");
	for (size_t k = 0; k < n_trees; k++) {
		bt_status st = f.n_intervals ? bt_perf_stat_apply_interval(&f, &perf_match, k, c, uses, &d)
					     : bt_perf_stat_apply(&f, &perf_match, c, uses, &d);
		if (st != BT_OK) {
			fprintf(stderr, "baretop-host: %s\n", d.text);
			goto done;
		}
		char smt[200], smt_note[320];
		double ota, xclk;
		double sib = bt_perf_sibling_active(&f, &perf_match, f.n_intervals ? &f.intervals[k] : NULL,
						    &ota, &xclk);
		/* The probe's REF_XCLK is no event of the model, but not unused. */
		for (size_t row = 0; row < f.n && !isnan(sib); row++)
			if (!uses[row].n_events && uses[row].why[0] &&
			    bt_perf_sibling_row(&perf_match, f.rows[row].event) >= 0)
				snprintf(uses[row].why, sizeof(uses[row].why), "no event of model %s: "
					 "the SMT sibling's measure, which decides the formulas (below)",
					 bt_model_def(m)->id);
		unsigned used, mux, unused;
		perf_rows_said(&f, uses, k > 0, &used, &mux, &unused);
		int on = -1;
		if (!isnan(sib)) {
			/* As the run that counted them decided (bt_smt_decide). */
			snprintf(smt, sizeof(smt), "SMT sibling measured: ONE_THREAD_ACTIVE %.0f of REF_XCLK "
				 "%.0f, active %.1f%% of the time, decides the formulas (each tree says)",
				 ota, xclk, 100 * sib);
			c->constants[BT_C_SMT_SIBLING_ACTIVE] = sib;
		} else if (constant_given(s, "SMT_SIBLING_ACTIVE")) {
			snprintf(smt, sizeof(smt), "SMT sibling as --constant SMT_SIBLING_ACTIVE gives it "
				 "decides the formulas (each tree says)");
		} else {
			on = bt_perf_smt_inferred(c, smt, sizeof(smt));
		}
		if (constant_given(s, "HYPERTHREADING_ON"))
			snprintf(smt_note, sizeof(smt_note), "%s; --constant HYPERTHREADING_ON overrides it", smt);
		else if (!isnan(sib) && constant_given(s, "SMT_SIBLING_ACTIVE"))
			snprintf(smt_note, sizeof(smt_note), "%s; --constant SMT_SIBLING_ACTIVE overrides it", smt);
		else {
			snprintf(smt_note, sizeof(smt_note), "%s", smt);
			if (on >= 0)
				c->constants[BT_C_HYPERTHREADING_ON] = on;
		}
		if (k == 0)
			fprintf(stderr, "baretop-host: %s: %s\n", file, smt_note);
		set_constants(s, c);
		unsigned n_rl = 0;
		for (size_t row = 0; row < f.n; row++)
			n_rl += uses[row].rl >= 0;
		if (s->rl_path)
			bt_rl_file_apply(&s->rl_file, c);
		if (s->default_rl)
			bt_counts_use_default_retire_latencies(c);
		trust_all(r);
		bt_evaluate(m, c, r);
		bt_consistency_check(cons, c, r);
		const struct bt_untrust *untrusted = untrust(&a, cons, c, r);
		unsigned missing = perf_missing_said(m, c, r, s->opts.max_level, k > 0);
		char interval[80] = "", label[900];
		if (f.n_intervals)
			snprintf(interval, sizeof(interval), "interval %zu of %zu, ending %.6f s; ", k + 1,
				 f.n_intervals, f.intervals[k]);
		char rl_note[120] = "";
		if (n_rl)
			snprintf(rl_note, sizeof(rl_note), ", %u of them retire latencies (EVENT:R, perf tpebs)",
				 n_rl);
		snprintf(label, sizeof(label), "replayed perf stat counts from %s (%sperf stat %s%s: %u event%s "
			 "used%s, %u multiplexed, %u missing, %u not in the model; %s; evaluated from the file: "
			 "nothing measured now)%s", file, interval, f.json ? "-j" : "-x,",
			 f.n_intervals ? " -I" : "", used, used == 1 ? "" : "s", rl_note, mux, missing, unused,
			 smt_note, s->load ? "; model loaded from vendor files" : "");
		struct bt_report_opts opts = s->opts;
		opts.input_label = label;
		opts.consistency = cons;
		opts.untrusted = untrusted;
		/* the retire latencies perf printed for EVENT:R (--record-tpebs) */
		opts.counts = c;
		opts.rl_measured_by = "perf tpebs";
		if (s->json && k)
			fprintf(out, ",\n");
		st = s->json ? bt_report_json(out, m, r, &opts) : bt_report_text(out, m, r, &opts);
		if (st != BT_OK)
			goto done;
		if (!s->json)
			bt_report_consistency_text(out, cons, r, "", s->all_rules);
		if (!s->json && k + 1 < n_trees)
			fprintf(out, "\n");
	}
	if (s->json && f.n_intervals)
		fprintf(out, "]\n");
	rc = HOST_EXIT_OK;
done:
	if (!close_report(s, out, rc == HOST_EXIT_OK))
		rc = HOST_EXIT_USAGE;
	bt_arena_free(&a);
	return rc;
}

static bool all_tree_nodes_missing(const struct bt_model *m, const struct bt_result *r)
{
	unsigned tree = 0;

	for (unsigned i = 0; i < bt_model_node_count(m); i++) {
		const struct bt_node_def *nd = bt_model_node(m, i);
		if (nd->kind != BT_NODE_TREE || !nd->level)
			continue;
		tree++;
		if (r->state[i] != BT_NODE_MISSING)
			return false;
	}
	return tree > 0;
}

static int replay_one(struct session *s, const char *file)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_count_file cf;
	int rc = 1, idx;
	bool keep = false;
	FILE *out = stdout;
	char out_path[4096] = "";
	memset(&cf, 0, sizeof(cf));
	if (s->perf_stat) {
		bt_arena_free(&a);
		return replay_perf(s, file);
	}
	if (bt_count_file_read(&a, file, &cf, &d) != BT_OK) {
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
	bt_count_file_apply(&cf, c, NULL, &d);
	snprintf(label, sizeof(label), "replayed counts from %s%s%s%s%s (evaluated from the file: nothing measured now)%s",
		 file, cf.case_name ? ", case " : "", cf.case_name ? cf.case_name : "",
		 cf.kind ? ", " : "", cf.kind ? cf.kind : "",
		 s->load ? "; model loaded from vendor files" : "");
	set_constants(s, c);
	/* as a run: a user's file before the published means */
	if (s->rl_path)
		bt_rl_file_apply(&s->rl_file, c);
	if (s->default_rl)
		bt_counts_use_default_retire_latencies(c);
	trust_all(r);
	bt_evaluate(m, c, r);
	struct bt_consistency *cons = s->models[idx].cons;
	bt_consistency_check(cons, c, r);
	struct bt_report_opts opts = s->opts;
	opts.input_label = label;
	opts.consistency = cons;
	opts.untrusted = untrust(&a, cons, c, r);
	/* a count file's latencies: absent = not measured, perf's -1 (FORMAT.md) */
	opts.perf_latency_values = !s->perf_stat;
	opts.counts = c;
	if (!(out = open_report(s, file, out_path, sizeof(out_path)))) {
		out = stdout;
		goto done;
	}
	bt_status st = s->json ? bt_report_json(out, m, r, &opts) : bt_report_text(out, m, r, &opts);
	keep = st == BT_OK;
	if (st == BT_OK && !s->json)
		bt_report_consistency_text(out, cons, r, "", s->all_rules);
	rc = st == BT_OK ? 0 : 1;
	if (rc == 0 && all_tree_nodes_missing(m, r)) {
		/* A tree of nothing but "missing" is no answer: the file holds
		 * none of the counts the formulas need (or the wrong model). */
		char need[300] = "";
		size_t u = 0;
		for (unsigned k = 0; k < r->n_missing_events && k < 4 && u < sizeof(need); k++)
			u += (size_t)snprintf(need + u, sizeof(need) - u, "%s%s", k ? ", " : "",
					      bt_model_event(m, r->missing_events[k])->name);
		fprintf(stderr, "baretop-host: %s: every node of model %s is missing: the file gives "
				"none of the counts its formulas need (%u missing%s%s%s)\n", file, id,
			r->n_missing_events, u ? ", e.g. " : "", need,
			r->n_missing_events > 4 ? ", ..." : "");
		rc = 1;
	}
done:
	if (!close_report(s, out, keep))
		rc = 1;
	bt_arena_free(&a);
	return rc;
}

/* NAME=NUMBER with a NAME the models know (metrics/model.h); otherwise a
 * usage error that names the nearest constant. */
static bool constant_ok(const char *v)
{
	const char *eq = strchr(v, '=');
	char *end = NULL;
	char name[64];

	if (eq && eq != v && eq - v < 64)
		strtod(eq + 1, &end);
	if (!end || end == eq + 1 || *end) {
		host_usage_error(&args, "--constant '%s': not NAME=NUMBER", v);
		return false;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - v), v);
	if (bt_constant_find(name) != BT_CONST_COUNT)
		return true;
	for (int c = 0; c < BT_CONST_COUNT; c++)
		if (bt_suggest_near(name, strlen(name), bt_constant_name((enum bt_constant)c))) {
			host_usage_error(&args, "--constant %s: no such constant, did you mean %s?", name,
					 bt_constant_name((enum bt_constant)c));
			return false;
		}
	host_usage_error(&args, "--constant %s: no such constant", name);
	return false;
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
	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		switch (k) {
		case 0:
			s.json = 1;
			s.json_path = v;
			break;
		case 1:
			s.model_id = v;
			break;
		case 2:
			if (!host_parse_uint("replay", "--level", v, 1, 16, &s.opts.max_level))
				goto usage;
			break;
		case 3:
			s.opts.info = 1;
			break;
		case 4:
			s.opts.flagged_only = 1;
			break;
		case 5:
			s.all_rules = 1;
			break;
		case 6:
			s.load = v;
			break;
		case 7:
			s.default_rl = 1;
			break;
		case 8:
			s.out_dir = v;
			break;
		case 9:
			s.base = v;
			break;
		case 10:
			s.perf_stat = v;
			files[n_files++] = v;
			break;
		case 11:
			if (!constant_ok(v))
				goto usage;
			s.constants[s.n_constants++] = (char *)v;
			break;
		case 12:
			s.rl_path = v;
			break;
		case HOST_ARGS_POSITIONAL:
			files[n_files++] = v;
			break;
		case HOST_ARGS_HELP:
			free(files);
			free(s.constants);
			return HOST_EXIT_OK;
		default:
			goto usage;
		}
	}
	if (s.perf_stat && (n_files != 1 || !s.model_id)) {
		host_usage_error(&args, "--perf-stat FILE takes one file and --model ID (perf's output "
				 "does not name a Top-Down model)");
		goto usage;
	}
	if (!n_files) {
		host_usage_error(&args, "no FILE given");
		goto usage;
	}
	if (n_files > 1 && !s.out_dir) {
		host_usage_error(&args, "several files need --out-dir");
		goto usage;
	}
	if (s.json && (s.opts.info || s.opts.flagged_only || s.all_rules)) {
		host_usage_error(&args, "--info, --flagged and --all-rules shape the text report; "
				 "--json holds every node and rule");
		goto usage;
	}
	if (s.json_path && strcmp(s.json_path, "-") && (n_files > 1 || s.out_dir)) {
		host_usage_error(&args, "--json=FILE writes one report; with several files or --out-dir "
				 "use --json and --out-dir");
		goto usage;
	}
	for (int i = 0; s.json_path && i < n_files; i++)
		if (host_same_file(s.json_path, files[i])) {
			host_usage_error(&args, "--json=%s would write over the input %s", s.json_path, files[i]);
			goto usage;
		}
	if (s.base && !s.out_dir) {
		host_usage_error(&args, "--base goes with --out-dir");
		goto usage;
	}
	if (s.out_dir && !host_make_dirs("replay", s.out_dir))
		goto usage;
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
			rc = HOST_EXIT_USAGE;
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
usage:
	free(files);
	free(s.constants);
	return HOST_EXIT_USAGE;
}
