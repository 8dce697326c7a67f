/* SPDX-License-Identifier: MIT */
/*
 * baretop-host export RESULTS.json [--workload NAME] [--toplev-csv [FILE]]
 *                                  [--perf-json [FILE]]
 *
 * Writes one counted workload of a results file in the shapes other tools
 * read (FILE "-" = standard output):
 *
 * --toplev-csv: pmu-tools toplev's CSV (toplev -x, without -I/--per-*):
 *   Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle
 *   one row per computed node the run measured (a tree node "not_measured"
 *   is left out: drill-down and --level N leave nodes out, and a value
 *   such a node has comes from events counted for others; the console
 *   does not list it either), tree nodes first in tree order, then the
 *   Info_/Bottleneck_ metrics. Area is toplev's full name, the node's
 *   ancestors joined by '.' ("Frontend_Bound.Fetch_Latency.ICache_Misses").
 *   Tree nodes are fractions: Value is in percent, Unit "%" (toplev says
 *   "% Slots", "% Clocks" or "% Stalls" by the node's domain, which the
 *   results file does not carry); metrics keep their own scale and have
 *   no unit. Description says where the counts come from when they were
 *   not measured on hardware ("SIMULATED" or "replayed", first), the
 *   level, whether the vendor threshold flags it ("flagged") and its CPI
 *   share. Sample and Stddev are empty
 *   (baretop samples nothing; per-event spread is in the results file and
 *   --perf-json), Multiplex is always 100 (baretop never multiplexes: each
 *   group is a run of its own), Bottleneck is "<==" on the deepest node of
 *   the bottleneck path, as toplev marks it, Idle empty.
 *   Retire latencies (TMA 5 models' EVENT:R inputs), a side section toplev
 *   does not have: after the metrics, one row per input with a value,
 *   Area "EVENT:R", Value the mean latency in core cycles, Unit "cycles",
 *   Description "retire latency; source S" (measured, published, file,
 *   given) with, where sampled, the samples, median, min, max and
 *   saturated records; Multiplex 100, the rest empty.
 *
 * --perf-json: `perf stat -j` lines, one per counted event:
 *   {"counter-value" : "N.000000", "unit" : "", "event" : "EVENT",
 *    "event-runtime" : NS, "pcnt-running" : 100.00}
 *   counter-value the median overhead-corrected count the tree was
 *   evaluated with (a string, as perf writes it), the event in baretop's
 *   canonical spelling (../shared/testdata/tma/FORMAT.md; `replay
 *   --perf-stat` reads it back), event-runtime the median window of the runs
 *   that counted the event's group in ns (TSC ticks when the TSC frequency
 *   is unknown), pcnt-running 100.00. Counts of the simulated PMU (or
 *   replayed counts) are not counts of a counter that ran: their lines have
 *   no pcnt-running but "provenance" : "SIMULATED: ..." (or "replayed:
 *   ..."), and event-runtime is the simulated time (the workload model's
 *   cycles at the simulated CPU's clock, the counted workload's tsc_hz).
 *   Where the run measured the SMT sibling (counted.smt_probe, which
 *   decided HYPERTHREADING_ON), two lines CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE
 *   and CPU_CLK_UNHALTED.REF_XCLK with the totals that decided it
 *   (REF_XCLK mostly derived from fixed counter 2, its "provenance" says
 *   so: sibling_lines), so that `replay --perf-stat` takes the formulas
 *   the run took.
 *   Then one line per retire-latency input with a value, as perf stat
 *   --record-tpebs prints an event with the R modifier (its value is the
 *   mean retire latency, tools/perf/util/intel-tpebs.c): "event" :
 *   "EVENT:R", "counter-value" the mean (all its digits: the round trip
 *   through `replay --perf-stat` is exact), no event-runtime, and
 *   "retire-latency" : {"source", "samples", "median", "min", "max",
 *   "saturated"} from the results file (null where not sampled), which
 *   `replay --perf-stat` reads back with its source.
 *
 * The workload is --workload NAME, else the only counted one.
 *
 * Counts an operating system's driver made (run.counting.counted_by:
 * `run --backend=perf`) are not baretop's: both outputs then start with a
 * line "# counted by Linux perf_event (...)", which perf's own CSV and
 * `replay --perf-stat` skip as a comment. A workload measured PERTURBED
 * (its "perturbed": something it could not stop ran on its core) gets a
 * comment line "# workload NAME on CPU N PERTURBED: why" the same way.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json-read.h"
#include "base/array.h"
#include "base/strbuf.h"
#include "analysis/results-read.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "analysis/json-file.h"
#include "pmu/sibling.h"
#include "report/tree.h"

BT_HOST_COMMAND(export, "export RESULTS.json [--toplev-csv [F]] [--perf-json [F]]",
		"a counted workload as toplev-shaped CSV or perf-stat-shaped JSON lines")

static const struct host_opt opts[] = {
	{ "workload", NULL, HOST_VALUE, "NAME", "the counted workload to export (default: the only one)" },
	{ "toplev-csv", NULL, HOST_OUTPUT, "FILE",
	  "toplev's CSV: Area,Value,Unit,Description,Sample,Stddev,\n"
	  "Multiplex,Bottleneck,Idle (tree values in percent); retire latencies\n"
	  "last, Area EVENT:R, Unit cycles, source in Description" },
	{ "perf-json", NULL, HOST_OUTPUT, "FILE",
	  "perf stat -j lines: one object per counted event, then one per\n"
	  "retire latency (EVENT:R, as perf stat --record-tpebs prints it)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"export",
	"export RESULTS.json [--workload NAME] [--toplev-csv [FILE]] [--perf-json [FILE]]",
	"  one counted workload of a results file in the shapes other tools read.",
	opts,
	"FILE - is standard output. At least one of --toplev-csv and --perf-json.\n"
	"Exit status: 0 written, 2 bad arguments, a file that cannot be read or written,\n"
	"or no such counted workload.",
};
HOST_ARGS_REGISTER(args)

static double num(const struct bt_json *v, double dflt)
{
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : dflt;
}

/* "A.B.C": the node's ancestors joined by '.', toplev's full_name. */
static void full_name(const struct bt_json *nodes, const char *name, char *out, size_t len)
{
	const char *chain[16];
	int n = 0;
	while (name && n < 16) {
		chain[n++] = name;
		const struct bt_json *nd = bt_json_get(nodes, name);
		name = nd ? bt_json_get_str(nd, "parent") : NULL;
	}
	size_t o = 0;
	out[0] = 0;
	for (int k = n - 1; k >= 0 && o < len; k--)
		o += (size_t)snprintf(out + o, len - o, "%s%s", chain[k], k ? "." : "");
}

/* Where the counts come from when not from hardware ("" when measured). */
static const char *provenance = "";

static void toplev_row(FILE *f, const struct bt_json *nodes, const char *name, const struct bt_json *nd,
		       const char *bottleneck)
{
	const char *kind = bt_json_get_str(nd, "kind");
	int tree = kind && !strcmp(kind, "tree");
	double v = num(bt_json_get(nd, "value"), NAN);
	char area[512], val[64], desc[160];
	if (tree)
		full_name(nodes, name, area, sizeof(area));
	else
		snprintf(area, sizeof(area), "%s", name);
	/* a share within rounding of 0 is 0, as the evaluator makes it
	 * (metrics/model.h BT_SHARE_ROUNDING; older results files kept it) */
	if (tree && fabs(v) < BT_SHARE_ROUNDING)
		v = 0;
	snprintf(val, sizeof(val), "%.17g", tree ? v * 100 : v);
	const struct bt_json *th = bt_json_get(nd, "thresh");
	const struct bt_json *cs = bt_json_get(nd, "cpi_share");
	size_t o = 0;
	if (*provenance)
		o += (size_t)snprintf(desc, sizeof(desc), "%s; ", provenance);
	if (tree)
		o += (size_t)snprintf(desc + o, sizeof(desc) - o, "level %g",
				      num(bt_json_get(nd, "level"), 0));
	else
		o += (size_t)snprintf(desc + o, sizeof(desc) - o, "%s metric", kind ? kind : "");
	if (th && th->type == BT_JSON_TRUE && o < sizeof(desc))
		o += (size_t)snprintf(desc + o, sizeof(desc) - o, "; flagged");
	if (cs && cs->type == BT_JSON_NUMBER && o < sizeof(desc))
		snprintf(desc + o, sizeof(desc) - o, "; CPI share %.4f", cs->u.num.value);
	bt_csv_put_field(f, area, 0);
	bt_csv_put_field(f, val, 0);
	bt_csv_put_field(f, tree ? "%" : "", 0);
	bt_csv_put_field(f, desc, 0);
	bt_csv_put_field(f, "", 0);           /* Sample */
	bt_csv_put_field(f, "", 0);           /* Stddev */
	bt_csv_put_field(f, "100", 0);        /* Multiplex */
	bt_csv_put_field(f, bottleneck && !strcmp(bottleneck, name) ? "<==" : "", 0);
	bt_csv_put_field(f, "", 1);           /* Idle */
}

/* ", name V" for a number in a retire-latency entry (nothing when null). */
static void rl_stat(struct bt_strbuf *sb, const struct bt_json *e, const char *key)
{
	const struct bt_json *v = bt_json_get(e, key);
	if (v && v->type == BT_JSON_NUMBER)
		bt_sb_printf(sb, ", %s %.17g", key, v->u.num.value);
}

/* Entry i of a results file's retire_latency object when it has a value:
 * its statistics object, mean and source; false to skip it. */
static bool latency_entry(const struct bt_json *rl, size_t i, const struct bt_json **e,
			  double *mean, const char **src)
{
	*e = rl->u.obj.values[i];
	*mean = num(bt_json_get(*e, "mean"), NAN);
	*src = bt_json_get_str(*e, "source");
	return !isnan(*mean) && *src;
}

/* The side section: one row per retire-latency input with a value. */
static void toplev_latencies(FILE *f, const struct bt_json *rl)
{
	for (size_t i = 0; rl && rl->type == BT_JSON_OBJECT && i < rl->u.obj.n; i++) {
		const struct bt_json *e;
		double mean;
		const char *src;
		if (!latency_entry(rl, i, &e, &mean, &src))
			continue;
		char area[200], val[64];
		/* the source and the key come from the file: any length */
		struct bt_strbuf desc = { 0 };
		snprintf(area, sizeof(area), "%s:R", rl->u.obj.keys[i]);
		snprintf(val, sizeof(val), "%.17g", mean);
		if (*provenance)
			bt_sb_printf(&desc, "%s; ", provenance);
		bt_sb_printf(&desc, "retire latency; source %s", src);
		static const char *const stats[] = { "samples", "median", "min", "max", "saturated" };
		for (size_t k = 0; k < BT_ARRAY_SIZE(stats); k++)
			rl_stat(&desc, e, stats[k]);
		bt_csv_put_field(f, area, 0);
		bt_csv_put_field(f, val, 0);
		bt_csv_put_field(f, "cycles", 0);
		bt_csv_put_field(f, bt_sb_str(&desc), 0);
		bt_sb_free(&desc);
		bt_csv_put_field(f, "", 0);           /* Sample */
		bt_csv_put_field(f, "", 0);           /* Stddev */
		bt_csv_put_field(f, "100", 0);        /* Multiplex */
		bt_csv_put_field(f, "", 0);           /* Bottleneck */
		bt_csv_put_field(f, "", 1);           /* Idle */
	}
}

/* Tree nodes depth-first in the document's order (parents before their
 * children there), each node's children after it, as toplev lists them. */
static void toplev_subtree(FILE *f, const struct bt_json *nodes, const char *parent,
			   const char *bottleneck, int depth)
{
	for (size_t i = 0; depth < 16 && i < nodes->u.obj.n; i++) {
		const struct bt_json *nd = nodes->u.obj.values[i];
		const char *kind = bt_json_get_str(nd, "kind"), *p = bt_json_get_str(nd, "parent");
		if (!kind || strcmp(kind, "tree") || (parent ? !p || strcmp(p, parent) : p != NULL))
			continue;
		/* only what the run measured: a node left out (drill-down,
		 * --level N) may have a value from events counted for others,
		 * which the console does not show either */
		const char *state = bt_json_get_str(nd, "state");
		if (!isnan(num(bt_json_get(nd, "value"), NAN)) && !(state && !strcmp(state, "not_measured")))
			toplev_row(f, nodes, nodes->u.obj.keys[i], nd, bottleneck);
		toplev_subtree(f, nodes, nodes->u.obj.keys[i], bottleneck, depth + 1);
	}
}

static int write_toplev(FILE *f, const struct bt_json *tree, const struct bt_json *rl)
{
	const struct bt_json *nodes = bt_json_get(tree, "nodes");
	const struct bt_json *path = bt_json_get(tree, "bottleneck_path");
	const char *bottleneck = NULL;
	if (!nodes || nodes->type != BT_JSON_OBJECT)
		return -1;
	if (path && path->type == BT_JSON_ARRAY && path->u.arr.n)
		bottleneck = bt_json_str(path->u.arr.items[path->u.arr.n - 1]);
	fputs("Area,Value,Unit,Description,Sample,Stddev,Multiplex,Bottleneck,Idle\n", f);
	toplev_subtree(f, nodes, NULL, bottleneck, 0);
	for (size_t i = 0; i < nodes->u.obj.n; i++) {
		const struct bt_json *nd = nodes->u.obj.values[i];
		const char *kind = bt_json_get_str(nd, "kind");
		if (kind && (!strcmp(kind, "info") || !strcmp(kind, "bottleneck")) &&
		    !isnan(num(bt_json_get(nd, "value"), NAN)))
			toplev_row(f, nodes, nodes->u.obj.keys[i], nd, NULL);
	}
	toplev_latencies(f, rl);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median TSC window of the kept runs of one group, over every step; of
 * every run for an event no group owns (a fixed counter counts in all). */
static double group_window(const struct bt_json *steps, double group)
{
	double w[512];
	size_t n = 0;
	for (size_t s = 0; steps && s < steps->u.arr.n; s++) {
		const struct bt_json *log = bt_json_get(steps->u.arr.items[s], "run_log");
		for (size_t k = 0; log && log->type == BT_JSON_ARRAY && k < log->u.arr.n && n < 512; k++)
			if (group < 0 || num(bt_json_get(log->u.arr.items[k], "group"), -1) == group)
				w[n++] = num(bt_json_get(log->u.arr.items[k], "tsc"), 0);
	}
	if (!n)
		return 0;
	qsort(w, n, sizeof(*w), cmp_double);
	return n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
}

/* One JSON string's characters (the value between the quotes). */
static void json_chars(FILE *f, const char *p)
{
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		if ((unsigned char)*p >= 0x20)
			fputc(*p, f);
	}
}

/* One count line: the value with all its digits (%.6f for a whole count
 * below 2^53, as perf writes it; else as many as give the same double
 * back), and where it came from (source: no counter ran, so no share of
 * time running to claim; "" a count of a counter that ran). */
static void count_line(FILE *f, const char *event, double value, double runtime, const char *source)
{
	char v[64];

	snprintf(v, sizeof(v), "%.6f", value);
	if (strtod(v, NULL) != value)
		snprintf(v, sizeof(v), "%.17g", value);
	fprintf(f, "{\"counter-value\" : \"%s\", \"unit\" : \"\", \"event\" : \"", v);
	json_chars(f, event);
	fprintf(f, "\", \"event-runtime\" : %.0f, ", runtime);
	if (*source) {
		fputs("\"provenance\" : \"", f);
		json_chars(f, source);
		fputs("\"}\n", f);
	} else {
		fputs("\"pcnt-running\" : 100.00}\n", f);
	}
}

/*
 * The SMT sibling probe whose counts decided the tree's formulas
 * (counted.smt_probe, pmu/sibling.h: ONE_THREAD_ACTIVE of every run of
 * every step; REF_XCLK counted where the part has no fixed counter 2,
 * else derived from it at tsc_per_xclk TSC ticks per tick): two lines
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE and CPU_CLK_UNHALTED.REF_XCLK with
 * the totals, as perf writes an event counted over many windows,
 * event-runtime the probed runs' total time, so that `replay --perf-stat`
 * (analysis/perf-smt.h) takes the formulas the run took. REF_XCLK is
 * ref_xclk + ref_tsc / tsc_per_xclk, the sum the run divided by, with all
 * its digits (the fraction replay computes is the run's to the last bit);
 * where part of it was derived its line says so, also on hardware (no
 * counter counted it). Nothing when no run probed or the sibling was not
 * measured; a warning and nothing when the model counted ONE_THREAD_ACTIVE
 * itself (one name, two values) or the totals do not give the fraction
 * the run decided with.
 */
static void sibling_lines(FILE *f, const struct bt_json *counted, const struct bt_json *steps,
			  double tsc_hz, const char *source)
{
	static const char *const names[2] = { "CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE",
					      "CPU_CLK_UNHALTED.REF_XCLK" };
	const struct bt_json *probe = bt_json_get(counted, "smt_probe");
	double active = num(bt_json_get(probe, "sibling_active"), NAN);

	if (!probe || isnan(active))
		return;
	double ota = num(bt_json_get(probe, "one_thread_active"), NAN);
	double ref_tsc = num(bt_json_get(probe, "ref_tsc"), 0);
	double ratio = num(bt_json_get(probe, "tsc_per_xclk"), NAN);
	const char *ratio_from = bt_json_get_str(probe, "tsc_per_xclk_from");
	double xclk = num(bt_json_get(probe, "ref_xclk"), 0) + (ref_tsc > 0 ? ref_tsc / ratio : 0);
	double decided = num(bt_json_get(bt_json_get(counted, "constants"), "SMT_SIBLING_ACTIVE"), NAN);
	double f_lines = bt_sibling_fraction(ota, xclk);
	if (bt_json_get(bt_json_get(counted, "events"), names[0])) {
		fprintf(stderr, "baretop-host: export: the SMT sibling probe's counts are left out: the "
			"model counted %s itself (replay with --constant SMT_SIBLING_ACTIVE=%.17g)\n",
			names[0], active);
		return;
	}
	if (f_lines != active || (!isnan(decided) && decided != active)) {
		fprintf(stderr, "baretop-host: export: the SMT sibling probe's counts are left out: "
			"they give %.17g, the run recorded %.17g and decided with SMT_SIBLING_ACTIVE=%.17g\n",
			f_lines, active, decided);
		return;
	}
	/* The probed runs' time: every kept run of every step that counted
	 * ONE_THREAD_ACTIVE, as smt_probe pools them. */
	double ticks = 0;
	for (size_t s = 0; steps && s < steps->u.arr.n; s++) {
		const struct bt_json *log = bt_json_get(steps->u.arr.items[s], "run_log");
		for (size_t k = 0; log && log->type == BT_JSON_ARRAY && k < log->u.arr.n; k++)
			if (bt_json_get(log->u.arr.items[k], "one_thread_active"))
				ticks += num(bt_json_get(log->u.arr.items[k], "tsc"), 0);
	}
	double runtime = tsc_hz > 0 ? ticks * 1e9 / tsc_hz : ticks;
	count_line(f, names[0], ota, runtime, source);
	char derived[600];
	if (ref_tsc > 0)
		snprintf(derived, sizeof(derived), "%s%sREF_XCLK derived, not counted: fixed counter 2 "
			 "(CPU_CLK_UNHALTED.REF_TSC) %.0f / %.17g TSC ticks per tick (%s)%s", source,
			 *source ? "; " : "", ref_tsc, ratio, ratio_from ? ratio_from : "?",
			 num(bt_json_get(probe, "ref_xclk"), 0) > 0 ? ", plus the REF_XCLK counted" : "");
	count_line(f, names[1], xclk, runtime, ref_tsc > 0 ? derived : source);
}

static int write_perf_json(FILE *f, const struct bt_json *counted, double tsc_hz, const char *source)
{
	const struct bt_json *events = bt_json_get(counted, "events");
	const struct bt_json *steps = bt_json_get(counted, "steps");
	if (!events || events->type != BT_JSON_OBJECT)
		return -1;
	if (steps && steps->type != BT_JSON_ARRAY)
		steps = NULL;
	for (size_t i = 0; i < events->u.obj.n; i++) {
		const struct bt_json *e = events->u.obj.values[i];
		double ticks = group_window(steps, num(bt_json_get(e, "group"), -1));
		double runtime = tsc_hz > 0 ? ticks * 1e9 / tsc_hz : ticks;
		/* canonical names hold no quote or backslash, but json_chars
		 * escapes them anyway */
		count_line(f, events->u.obj.keys[i], num(bt_json_get(e, "median"), 0), runtime, source);
	}
	sibling_lines(f, counted, steps, tsc_hz, source);
	const struct bt_json *rl = bt_json_get(counted, "retire_latency");
	for (size_t i = 0; rl && rl->type == BT_JSON_OBJECT && i < rl->u.obj.n; i++) {
		const struct bt_json *e;
		double mean;
		const char *src;
		if (!latency_entry(rl, i, &e, &mean, &src))
			continue;
		fprintf(f, "{\"counter-value\" : \"%.17g\", \"unit\" : \"\", \"event\" : \"", mean);
		json_chars(f, rl->u.obj.keys[i]);
		fputs(":R\", ", f);
		if (*source) {
			fputs("\"provenance\" : \"", f);
			json_chars(f, source);
			fputs("\", ", f);
		} else {
			fputs("\"pcnt-running\" : 100.00, ", f);
		}
		fputs("\"retire-latency\" : {\"source\" : \"", f);
		json_chars(f, src);
		fputc('"', f);
		static const char *const keys[] = { "samples", "median", "min", "max", "saturated" };
		for (unsigned k = 0; k < BT_ARRAY_SIZE(keys); k++) {
			double v = num(bt_json_get(e, keys[k]), NAN);
			if (isnan(v))
				fprintf(f, ", \"%s\" : null", keys[k]);
			else
				fprintf(f, ", \"%s\" : %.17g", keys[k], v);
		}
		fputs("}}\n", f);
	}
	return 0;
}

static int cmd_export(int argc, char **argv)
{
	const char *in = NULL, *workload = NULL, *csv = NULL, *pj = NULL;
	struct host_args it;
	const char *v;
	int opt;

	host_args_init(&it, &args, argc, argv);
	while ((opt = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (opt == 0)
			workload = v;
		else if (opt == 1)
			csv = v;
		else if (opt == 2)
			pj = v;
		else if (opt == HOST_ARGS_POSITIONAL && !in)
			in = v;
		else if (opt == HOST_ARGS_POSITIONAL)
			return host_usage_error(&args, "one RESULTS.json, not '%s' too", v);
		else
			return opt == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	if (!in)
		return host_usage_error(&args, "no RESULTS.json given");
	if (!csv && !pj)
		return host_usage_error(&args, "nothing to write: give --toplev-csv or --perf-json");
	if ((csv && !host_output_ok("export", csv)) || (pj && !host_output_ok("export", pj)))
		return HOST_EXIT_USAGE;
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_results_doc doc;
	int rc = HOST_EXIT_USAGE;
	if (bt_results_doc_load(&a, in, &doc, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		goto out;
	}
	const struct bt_results_workload *w = bt_results_doc_counted(&doc, workload, &d);
	if (!w) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		goto out;
	}
	const struct bt_json *counted = w->counted;
	const struct bt_json *tree = bt_json_get(counted, "tree");
	const struct bt_json *cpu = bt_json_get(doc.root, "cpu");
	const struct bt_json *run = bt_json_get(doc.root, "run");
	const char *counted_by = run ? bt_json_get_str(bt_json_get(run, "counting"), "counted_by") : NULL;
	/* The clock of the counted TSC ticks: the counted workload's own (a
	 * simulated CPU's stated clock), else the CPU's (older files). */
	double tsc_hz = num(bt_json_get(counted, "tsc_hz"), 0);
	if (tsc_hz <= 0)
		tsc_hz = cpu ? num(bt_json_get(cpu, "tsc_hz"), 0) : 0;
	char source[400] = "";
	const char *what = bt_json_get_str(counted, "input");
	if (w->simulated || doc.simulated)
		snprintf(source, sizeof(source), "SIMULATED: %s; event-runtime is simulated time",
			 what ? what : "counts of baretop's simulated PMU, not measured on hardware");
	if (doc.replayed)
		snprintf(source, sizeof(source), "replayed: counts from %s, not measured by this run",
			 doc.input ? doc.input : "a count file");
	provenance = *source ? (doc.replayed ? "replayed" : "SIMULATED") : "";
	const struct {
		const char *path;
		int toplev;
	} outs[2] = { { csv, 1 }, { pj, 0 } };
	rc = 0;
	for (int k = 0; k < 2; k++) {
		if (!outs[k].path)
			continue;
		struct host_output o;
		if (!host_output_begin(&o, "export", outs[k].path)) {
			rc = HOST_EXIT_USAGE;
			continue;
		}
		FILE *f = o.f;
		if (counted_by && counted_by[0])
			fprintf(f, "# %s\n", counted_by);
		if (w->perturbed)
			fprintf(f, "# workload %s on CPU %s %s%s\n", w->label, w->cpu,
				strncmp(w->perturbed, "PERTURBED", 9) ? "PERTURBED: " : "", w->perturbed);
		int r = outs[k].toplev ? (tree ? write_toplev(f, tree, bt_json_get(counted, "retire_latency")) : -1) : write_perf_json(f, counted, tsc_hz, source);
		if (r < 0)
			fprintf(stderr, "baretop-host: %s: the counted workload has no %s\n", in,
				outs[k].toplev ? "tree" : "events");
		/* a file the export could not fill is not written */
		if (!host_output_end(&o, r >= 0) || r < 0)
			rc = HOST_EXIT_USAGE;
	}
out:
	bt_arena_free(&a);
	return rc;
}
