/* SPDX-License-Identifier: MIT */
/*
 * Linux `perf stat` output as counts, so a perf user gets the Top-Down tree
 * of a run measured under Linux (`baretop-host replay --perf-stat FILE`).
 *
 * Two layouts, one row per event (tools/perf/Documentation/perf-stat.txt):
 *   -x,  "CSV FORMAT": counter-value, unit, event, [variance% with -r],
 *        counter-run-time, percent-of-run, [metric-value, metric-unit]
 *   -j   "JSON FORMAT": one object per line, keys "counter-value" (a string),
 *        "unit", "event", "event-runtime", "pcnt-running", "variance",
 *        "metric-value", "metric-unit"
 * perf's default aggregation is read, also interval by interval (-I: a
 * leading timestamp field in -x, "interval" in -j; each interval is a
 * set of counts of its own, bt_perf_stat_apply_interval); no -A/--per-*
 * columns: an event on two rows of one interval is an error, not a sum.
 * Blank lines, '#' comments and metric-only rows (no counter value and no
 * event) are skipped. A counter value of "<not counted>" or
 * "<not supported>" makes the event missing. percent-of-run < 100 means
 * perf multiplexed the event and printed a count scaled by
 * enabled/running time (an estimate).
 *
 * Event names are matched to the model's events (bt_perf_event_match):
 *   by name      "inst_retired.any", "INST_RETIRED.ANY", "ex_ret_ops",
 *                ":u"/":k" -> ":USER"/":SUP"; perf's generic "instructions",
 *                "cycles", "ref-cycles", "slots", "topdown-*", "duration_time",
 *                "msr/tsc/"; perf-JSON spellings "cpu@EV\,cmask\=1@"
 *   by encoding  "cpu/event=0x3c,umask=0x0[,cmask=N][,inv][,edge][,any]/[uk]"
 *                (also cpu_core/ and cpu_atom/, and perf's "cpu/config=0x.../"),
 *                and raw "rUUEE" = umask << 8 | event (with cmask << 24, inv
 *                bit 23, edge bit 18, any bit 21; the vendor's layout above
 *                bit 31), which name every model event with that encoding.
 *                The spelling is parsed by the event parser the caller passes
 *                (struct bt_perf_match: pmu/'s bt_event_parse_encoding, the
 *                one parser of user-written events; metrics/ may not use
 *                pmu/ itself). Without one, only names are matched.
 *
 * Retire latencies: a row whose event carries perf's R modifier
 * ("EVENT:R", "cpu_core/EVENT/R", the perf-JSON metric spelling
 * "cpu_core@EVENT@R"; other modifiers beside R as above) is the retire
 * latency of the model's EVENT:R input, not a count: with --record-tpebs,
 * perf sets such an event's value to the mean of the retire latencies its
 * `perf record` sampled (tools/perf/util/intel-tpebs.c, evsel__tpebs_read:
 * rint(stats.mean), or min/max/last with --tpebs-mode). It is taken as
 * measured (source "measured", by "perf tpebs"), unless the row says
 * otherwise: baretop's own export (--perf-json) writes a latency line with
 * "retire-latency": {"source": ...}, which is kept. perf's output does not
 * say when it had no samples and printed its precomputed
 * RetirementLatencyMean instead (a warning on stderr only).
 */
#ifndef ANALYSIS_PERF_STAT_H
#define ANALYSIS_PERF_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/status.h"
#include "metrics/model.h"

enum bt_perf_row_state {
	BT_PERF_COUNTED = 0,
	BT_PERF_NOT_COUNTED,     /* "<not counted>": perf never got the counter running */
	BT_PERF_NOT_SUPPORTED,   /* "<not supported>": the kernel refused the event */
};

struct bt_perf_stat_row {
	unsigned line;           /* 1-based line of the file */
	const char *event;       /* as perf printed it */
	const char *unit;        /* "" when none */
	uint8_t state;           /* enum bt_perf_row_state */
	double value;            /* the count as printed (scaled when multiplexed); NaN unless counted */
	double runtime;          /* counter run time (ns); -1 when absent */
	double pcnt_running;     /* percent of the time the counter ran; 100 = not multiplexed */
	double interval;         /* -I: the interval's end in seconds since the start; NaN without -I */
	int8_t rl_source;        /* -j "retire-latency": {"source": s} as enum bt_rl_source; -1 absent */
};

struct bt_perf_stat {
	const char *path;
	bool json;               /* the -j layout (else -x,) */
	struct bt_perf_stat_row *rows;
	size_t n;
	/* -I output: the intervals' timestamps in file order (every row has
	 * one of them); n_intervals 0 without -I */
	double *intervals;
	size_t n_intervals;
};

/* Parses text[0..len); errors name "name:LINE:". Rows point into a. */
bt_status bt_perf_stat_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			     struct bt_perf_stat *ret, struct bt_diag *d);
bt_status bt_perf_stat_read(struct bt_arena *a, const char *path, struct bt_perf_stat *ret,
			    struct bt_diag *d);

/*
 * Parses one core-PMU event spelling ("cpu/TERMS/[u|k]" or "rHEX") into
 * its encoding (code, umask, umask_ext, cmask, flags, extra MSR); amd
 * selects AMD's raw-config layout. Fills ret and returns BT_OK, or says in
 * d what is wrong with the spelling.
 */
typedef bt_status bt_perf_encoding_parser(const char *spelling, bool amd, struct bt_event *ret,
					  struct bt_diag *d);

struct bt_perf_match {
	bt_perf_encoding_parser *parse;   /* NULL: encodings are not matched */
};

/*
 * The model events a perf event string names: their indexes into
 * ret_events (room for bt_model_event_count(m)), how many in *ret_n (0 =
 * the model does not use it, or the spelling is not understood; d says
 * which). BT_ERR_INVALID only for a malformed encoding.
 */
bt_status bt_perf_event_match(const struct bt_model *m, const struct bt_perf_match *pm,
			      const char *perf_event, uint16_t *ret_events, unsigned *ret_n,
			      struct bt_diag *d);

/* What became of one row in bt_perf_stat_apply. */
struct bt_perf_row_use {
	unsigned n_events;       /* model events it set (0 = unused: not in the model, or missing);
				  * 1 for a retire latency it set */
	int first_event;         /* the first of them, -1 when none */
	int rl;                  /* the retire-latency input it set, -1 when none */
	char why[160];           /* when unused */
};

/*
 * The model's retire-latency input a perf event string names with perf's R
 * modifier (see the top of this file): its index, or -1 (not an R
 * spelling, or the model has no such input: *is_rl says which).
 */
int bt_perf_rl_match(const struct bt_model *m, const char *perf_event, bool *is_rl);

/*
 * bt_counts_reset(c), then every counted row's value to the events it
 * names, and each retire-latency row's value to its input (source
 * BT_RL_MEASURED unless the row names another). uses[] (room for f->n) says per row what happened. An event that
 * two rows give different values is an error naming both lines.
 * Allocation: two scratch arrays of bt_model_event_count(m) entries
 * (calloc, freed before it returns); parsing allocates only from the arena
 * (one row per line of the file, plus the rows' strings).
 */
bt_status bt_perf_stat_apply(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
			     struct bt_counts *c, struct bt_perf_row_use *uses, struct bt_diag *d);
/* The same for interval k of -I output (rows of other intervals get
 * n_events 0 and why ""). */
bt_status bt_perf_stat_apply_interval(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
				      size_t k, struct bt_counts *c, struct bt_perf_row_use *uses,
				      struct bt_diag *d);


#endif
