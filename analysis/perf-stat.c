/* SPDX-License-Identifier: MIT */
/*
 * perf stat -x, / -j output -> counts (perf-stat.h). Field order from
 * tools/perf/Documentation/perf-stat.txt ("CSV FORMAT", "JSON FORMAT") and
 * util/stat-display.c (print_running: run time then percent running;
 * "<not counted>", "<not supported>").
 */
#include "analysis/perf-stat.h"
#include "base/array.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/json-read.h"
#include "metrics/event-name.h"

#define NOT_COUNTED "<not counted>"
#define NOT_SUPPORTED "<not supported>"

/* A whole-field number: no trailing text, finite, not negative. */
static bool parse_number(const char *s, size_t len, double *ret)
{
	char buf[64];
	char *end;
	if (len == 0 || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = 0;
	/* strtod also takes "inf", "nan" and hex floats; perf prints none of them */
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)buf[i]) && buf[i] != '.' && buf[i] != 'e' && buf[i] != 'E' &&
		    buf[i] != '+' && buf[i] != '-')
			return false;
	double v = strtod(buf, &end);
	if (end != buf + len || !isfinite(v) || v < 0)
		return false;
	*ret = v;
	return true;
}

static bool field_is(const char *s, size_t len, const char *lit)
{
	return strlen(lit) == len && !memcmp(s, lit, len);
}

/* Value field shared by both layouts: a number or perf's two markers. */
static bool parse_value(const char *s, size_t len, struct bt_perf_stat_row *r)
{
	r->value = NAN;
	if (field_is(s, len, NOT_COUNTED)) {
		r->state = BT_PERF_NOT_COUNTED;
		return true;
	}
	if (field_is(s, len, NOT_SUPPORTED)) {
		r->state = BT_PERF_NOT_SUPPORTED;
		return true;
	}
	r->state = BT_PERF_COUNTED;
	return parse_number(s, len, &r->value);
}

/* Percent running is 0..100 (perf prints %.2f). */
static bool check_pcnt(double p)
{
	return p >= 0 && p <= 100;
}

#define MAX_FIELDS 16

/*
 * One -x, line. perf does not quote fields, and an event written as
 * "cpu/event=0x3c,umask=0x0/" holds commas: the event field runs to the
 * closing '/' of such a term list.
 * Returns 1 = a row, 0 = skip (metric-only line), -1 = malformed (d set).
 */
/* What this reader takes, for the messages that refuse other layouts. */
#define ONLY_DEFAULT_AGGREGATION \
	"only perf stat's default aggregation is read (every CPU and thread summed into one " \
	"row per event; -I intervals are read, one tree each): run perf stat without it"
static const char *csv_layout_option(const char *s, size_t len);
static int parse_csv_fields(struct bt_arena *a, const char *s, size_t len, const char *name,
			    unsigned line, struct bt_perf_stat_row *r, struct bt_diag *d);

/* A field that can only be a count: a number or perf's two markers. */
static bool value_like(const char *s, size_t len)
{
	double v;
	return len && (field_is(s, len, NOT_COUNTED) || field_is(s, len, NOT_SUPPORTED) ||
		       parse_number(s, len, &v));
}

/*
 * One -x, line; *interval: -1 not known yet, 0 default output, 1 -I
 * output, whose lines start with the interval's timestamp ("1.001,
 * COUNT,UNIT,EVENT,..."). The first line with two leading fields decides:
 * a timestamp then a count is -I (the second field of default output is
 * the unit, never a number).
 */
static int parse_csv_line(struct bt_arena *a, const char *s, size_t len, const char *name,
			  unsigned line, int *interval, struct bt_perf_stat_row *r, struct bt_diag *d)
{
	const char *c1 = memchr(s, ',', len);
	r->interval = NAN;
	r->rl_source = -1;
	if (c1 && c1 > s) {
		const char *f1 = c1 + 1;
		const char *c2 = memchr(f1, ',', len - (size_t)(f1 - s));
		size_t l1 = c2 ? (size_t)(c2 - f1) : len - (size_t)(f1 - s);
		double t;
		/* -I with -A or --per-*: the timestamp, then what the row is of */
		bool is_interval = parse_number(s, (size_t)(c1 - s), &t) &&
				   (value_like(f1, l1) || csv_layout_option(f1, len - (size_t)(f1 - s)));
		if (*interval < 0 && l1)
			*interval = is_interval;
	}
	size_t skip = 0;
	if (*interval == 1) {
		if (!c1 || !parse_number(s, (size_t)(c1 - s), &r->interval)) {
			bt_diag_set(d, "%s:%u: interval output (perf stat -I) without a timestamp first", name,
				    line);
			return -1;
		}
		skip = (size_t)(c1 + 1 - s);
	}
	const char *layout = csv_layout_option(s + skip, len - skip);
	if (layout) {
		size_t l0 = strcspn(s + skip, ",");
		bt_diag_set(d, "%s:%u: '%.*s': a row of perf stat %s; " ONLY_DEFAULT_AGGREGATION, name, line,
			    (int)(l0 > 60 ? 60 : l0), s + skip, layout);
		return -1;
	}
	return parse_csv_fields(a, s + skip, len - skip, name, line, r, d);
}

static int parse_csv_fields(struct bt_arena *a, const char *s, size_t len, const char *name,
			    unsigned line, struct bt_perf_stat_row *r, struct bt_diag *d)
{
	const char *f[MAX_FIELDS];
	size_t fl[MAX_FIELDS];
	unsigned nf = 0;
	size_t i = 0;
	while (nf < MAX_FIELDS) {
		size_t start = i;
		if (nf == 2) {
			/* "pmu/terms/mods": skip to the closing '/' first */
			size_t k = i;
			while (k < len && (isalnum((unsigned char)s[k]) || s[k] == '_'))
				k++;
			if (k > i && k < len && s[k] == '/') {
				const char *close = memchr(s + k + 1, '/', len - k - 1);
				if (!close) {
					bt_diag_set(d, "%s:%u: event '%.*s' has no closing '/'", name, line,
						    (int)(len - i > 60 ? 60 : len - i), s + i);
					return -1;
				}
				i = (size_t)(close - s);
			}
		}
		while (i < len && s[i] != ',')
			i++;
		f[nf] = s + start;
		fl[nf] = i - start;
		nf++;
		if (i >= len)
			break;
		i++; /* the comma */
	}
	if (nf < 3) {
		if (nf == 1 && fl[0] == 0)
			return 0;
		bt_diag_set(d, "%s:%u: %u field%s; perf stat -x, prints counter-value,unit,event,"
			    "run-time,percent-running[,metric-value,metric-unit]", name, line, nf,
			    nf == 1 ? "" : "s");
		return -1;
	}
	if (fl[0] == 0 && fl[2] == 0)
		return 0; /* a metric printed on its own line, earlier fields empty */
	if (fl[2] == 0) {
		bt_diag_set(d, "%s:%u: no event name (third field)", name, line);
		return -1;
	}
	if (!parse_value(f[0], fl[0], r)) {
		bt_diag_set(d, "%s:%u: counter value '%.*s' is not a number, <not counted> or "
			    "<not supported>", name, line, (int)(fl[0] > 60 ? 60 : fl[0]), f[0]);
		return -1;
	}
	r->unit = bt_arena_strndup(a, f[1], fl[1]);
	r->event = bt_arena_strndup(a, f[2], fl[2]);
	if (!r->unit || !r->event) {
		bt_diag_set(d, "%s:%u: out of memory", name, line);
		return -1;
	}
	unsigned k = 3;
	/* with -r, the variance "x.xx%" comes after the event */
	if (k < nf && fl[k] && f[k][fl[k] - 1] == '%')
		k++;
	r->runtime = -1;
	r->pcnt_running = 100;
	if (k < nf && fl[k]) {
		if (!parse_number(f[k], fl[k], &r->runtime)) {
			bt_diag_set(d, "%s:%u: counter run time '%.*s' is not a number", name, line,
				    (int)(fl[k] > 60 ? 60 : fl[k]), f[k]);
			return -1;
		}
	}
	k++;
	if (k < nf && fl[k]) {
		if (!parse_number(f[k], fl[k], &r->pcnt_running) || !check_pcnt(r->pcnt_running)) {
			bt_diag_set(d, "%s:%u: percent running '%.*s' is not a number in 0..100", name,
				    line, (int)(fl[k] > 60 ? 60 : fl[k]), f[k]);
			return -1;
		}
	}
	return 1;
}

/* Keys of -j output that mean a layout other than the default aggregation,
 * and the perf stat option that prints them (tools/perf/util/stat-display.c
 * print_aggr_id_json: "cpu" for --no-aggr/-A, "thread" for --per-thread,
 * "core", "die", "socket", "node", "cluster", "cache" for --per-*, and
 * "cgroup" for -G). */
static const struct {
	const char *key, *option;
} other_layout_keys[] = {
	{ "cpu", "-A (--no-aggr: one row per CPU)" },
	{ "core", "--per-core" },
	{ "die", "--per-die" },
	{ "socket", "--per-socket" },
	{ "node", "--per-node" },
	{ "thread", "--per-thread" },
	{ "cgroup", "-G (--for-each-cgroup)" },
	{ "cluster", "--per-cluster" },
	{ "cache", "--per-cache" },
};


static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* The first field of a -x, row when it names what the row aggregates over
 * instead of being the counter value (tools/perf/util/stat-display.c
 * print_aggr_id_std/csv): "CPU3" (-A), "S0", "S0-D0", "S0-D0-C1", "N0",
 * "S0-D0-L3-ID0" (--per-socket, --per-die, --per-core, --per-node,
 * --per-cache: then the number of CPUs aggregated), "comm-pid"
 * (--per-thread). NULL when the row is a default one. */
static const char *csv_layout_option(const char *s, size_t len)
{
	const char *c = memchr(s, ',', len);
	size_t l0 = c ? (size_t)(c - s) : len;
	if (!c || !l0 || value_like(s, l0))
		return NULL;
	if (l0 > 3 && !strncmp(s, "CPU", 3) && all_digits(s + 3, l0 - 3))
		return "-A (--no-aggr: one row per CPU)";
	if (l0 > 1 && s[0] == 'N' && all_digits(s + 1, l0 - 1))
		return "--per-node";
	if (l0 > 1 && s[0] == 'S' && isdigit((unsigned char)s[1])) {
		unsigned dashes = 0;
		for (size_t i = 0; i < l0; i++)
			dashes += s[i] == '-';
		bool cache = memchr(s, 'L', l0) != NULL;
		return cache ? "--per-cache" : dashes == 0 ? "--per-socket" : dashes == 1 ? "--per-die"
								     : "--per-core";
	}
	/* comm-pid then the count */
	const char *dash = NULL;
	for (size_t i = l0; i > 0; i--)
		if (s[i - 1] == '-') {
			dash = s + i - 1;
			break;
		}
	if (dash && all_digits(dash + 1, (size_t)(s + l0 - dash - 1)))
		return "--per-thread";
	return NULL;
}

/* One -j line. Same return convention as parse_csv_line. */
static int parse_json_line(struct bt_arena *a, const char *s, size_t len, const char *name,
			   unsigned line, struct bt_perf_stat_row *r, struct bt_diag *d)
{
	struct bt_json *o;
	struct bt_diag jd = { "" };
	if (bt_json_parse(a, s, len, "", &o, &jd) != BT_OK || o->type != BT_JSON_OBJECT) {
		/* jd reads ":1:COL: what" (the line parsed as a file of its own) */
		unsigned col = 0;
		int skip = 0;
		if (sscanf(jd.text, ":1:%u: %n", &col, &skip) < 1 || !skip)
			skip = 0;
		bt_diag_set(d, "%s:%u: not a JSON object on one line (perf stat -j)%s%.0u%s%s", name,
			    line, col ? ", column " : "", col, jd.text[skip] ? ": " : "", jd.text + skip);
		return -1;
	}
	for (size_t k = 0; k < BT_ARRAY_SIZE(other_layout_keys); k++)
		if (bt_json_get(o, other_layout_keys[k].key)) {
			bt_diag_set(d, "%s:%u: \"%s\": a row of perf stat %s; " ONLY_DEFAULT_AGGREGATION,
				    name, line, other_layout_keys[k].key, other_layout_keys[k].option);
			return -1;
		}
	const struct bt_json *iv = bt_json_get(o, "interval");
	r->interval = NAN;
	r->rl_source = -1;
	const struct bt_json *rl = bt_json_get(o, "retire-latency");
	if (rl) {
		/* baretop's export: where the latency came from (results files'
		 * counted.retire_latency source names) */
		const char *src = rl->type == BT_JSON_OBJECT ? bt_json_get_str(rl, "source") : NULL;
		for (int k = BT_RL_GIVEN; src && k <= BT_RL_FILE; k++)
			if (!strcmp(src, bt_rl_source_name((enum bt_rl_source)k)))
				r->rl_source = (int8_t)k;
		if (r->rl_source < 0) {
			bt_diag_set(d, "%s:%u: \"retire-latency\" needs a \"source\" of measured, "
				    "published, file or given", name, line);
			return -1;
		}
	}
	if (iv && (iv->type != BT_JSON_NUMBER || !(iv->u.num.value >= 0) || !isfinite(iv->u.num.value))) {
		bt_diag_set(d, "%s:%u: \"interval\" is not a number of seconds", name, line);
		return -1;
	}
	const struct bt_json *cv = bt_json_get(o, "counter-value");
	const struct bt_json *ev = bt_json_get(o, "event");
	if (!cv && !ev)
		return 0; /* metric-only object */
	if (!cv || !ev || ev->type != BT_JSON_STRING || !ev->u.str.len ||
	    strlen(ev->u.str.s) != ev->u.str.len) {
		bt_diag_set(d, "%s:%u: an event row needs \"counter-value\" and a non-empty string "
			    "\"event\"", name, line);
		return -1;
	}
	bool ok;
	if (cv->type == BT_JSON_STRING) {
		ok = parse_value(cv->u.str.s, cv->u.str.len, r);
	} else if (cv->type == BT_JSON_NUMBER) {
		r->state = BT_PERF_COUNTED;
		r->value = cv->u.num.value;
		ok = isfinite(r->value) && r->value >= 0;
	} else {
		ok = false;
	}
	if (!ok) {
		bt_diag_set(d, "%s:%u: \"counter-value\" is not a number, <not counted> or "
			    "<not supported>", name, line);
		return -1;
	}
	r->event = ev->u.str.s;
	if (iv)
		r->interval = iv->u.num.value;
	const char *unit = bt_json_get_str(o, "unit");
	r->unit = unit ? unit : "";
	r->runtime = -1;
	r->pcnt_running = 100;
	const struct bt_json *rt = bt_json_get(o, "event-runtime");
	if (!rt)
		rt = bt_json_get(o, "runtime"); /* the name perf-stat.txt documents */
	const struct bt_json *pc = bt_json_get(o, "pcnt-running");
	if (rt) {
		if (rt->type != BT_JSON_NUMBER || !(rt->u.num.value >= 0)) {
			bt_diag_set(d, "%s:%u: \"event-runtime\" is not a number", name, line);
			return -1;
		}
		r->runtime = rt->u.num.value;
	}
	if (pc) {
		if (pc->type != BT_JSON_NUMBER || !check_pcnt(pc->u.num.value)) {
			bt_diag_set(d, "%s:%u: \"pcnt-running\" is not a number in 0..100", name, line);
			return -1;
		}
		r->pcnt_running = pc->u.num.value;
	}
	return 1;
}

bt_status bt_perf_stat_parse(struct bt_arena *a, const char *text, size_t len, const char *name,
			     struct bt_perf_stat *ret, struct bt_diag *d)
{
	size_t n_lines = 1;
	for (size_t i = 0; i < len; i++)
		n_lines += text[i] == '\n';
	struct bt_perf_stat f = { .path = name };
	f.rows = bt_arena_alloc(a, n_lines * sizeof(*f.rows));
	if (!f.rows) {
		bt_diag_set(d, "%s: out of memory", name);
		return BT_ERR_NOMEM;
	}
	int layout = 0; /* 0 = not known yet, 1 = CSV, 2 = JSON */
	int interval = -1; /* CSV: -I output or not (parse_csv_line) */
	unsigned line = 0;
	for (size_t pos = 0; pos < len;) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		pos += l + 1;
		line++;
		if (l && s[l - 1] == '\r')
			l--;
		size_t lead = 0;
		while (lead < l && (s[lead] == ' ' || s[lead] == '\t'))
			lead++;
		if (lead == l || s[lead] == '#')
			continue; /* blank, or perf's "# started on ..." */
		int this_layout = s[lead] == '{' ? 2 : 1;
		if (layout && this_layout != layout) {
			bt_diag_set(d, "%s:%u: a %s line in a %s file", name, line,
				    this_layout == 2 ? "JSON (-j)" : "CSV (-x,)",
				    layout == 2 ? "JSON (-j)" : "CSV (-x,)");
			return BT_ERR_INVALID;
		}
		layout = this_layout;
		struct bt_perf_stat_row *r = &f.rows[f.n];
		memset(r, 0, sizeof(*r));
		r->line = line;
		int k = layout == 2 ? parse_json_line(a, s + lead, l - lead, name, line, r, d)
				    : parse_csv_line(a, s + lead, l - lead, name, line, &interval, r, d);
		if (k < 0)
			return BT_ERR_INVALID;
		if (k && f.n && isnan(r->interval) != isnan(f.rows[0].interval)) {
			bt_diag_set(d, "%s:%u: %s interval timestamp, unlike line %u", name, line,
				    isnan(r->interval) ? "no" : "an", f.rows[0].line);
			return BT_ERR_INVALID;
		}
		f.n += (size_t)k;
	}
	if (!f.n) {
		bt_diag_set(d, "%s: no event rows (is this perf stat -x, or -j output?)", name);
		return BT_ERR_INVALID;
	}
	f.json = layout == 2;
	if (!isnan(f.rows[0].interval)) {
		/* the distinct timestamps in file order; perf prints an interval's
		 * rows together, so a timestamp seen before is that interval's */
		f.intervals = bt_arena_alloc(a, f.n * sizeof(*f.intervals));
		if (!f.intervals) {
			bt_diag_set(d, "%s: out of memory", name);
			return BT_ERR_NOMEM;
		}
		for (size_t i = 0; i < f.n; i++) {
			size_t k = 0;
			while (k < f.n_intervals && f.intervals[k] != f.rows[i].interval)
				k++;
			if (k == f.n_intervals)
				f.intervals[f.n_intervals++] = f.rows[i].interval;
		}
	}
	*ret = f;
	return BT_OK;
}

bt_status bt_perf_stat_read(struct bt_arena *a, const char *path, struct bt_perf_stat *ret,
			    struct bt_diag *d)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(a, path, &text, &len, d);
	if (s != BT_OK)
		return s;
	return bt_perf_stat_parse(a, text, len, path, ret, d);
}

/* ---------------------------------------------------------------- matching */

/* The encoding facts a perf event string carries. */
#define ENC_FLAGS (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_ANY | BT_EVF_EQ | BT_EVF_SUP | BT_EVF_USER)

/* Every counter event of the model with exactly this encoding. Events
 * that also need an extra MSR (offcore response, load latency) or count
 * core-wide cannot be told from the encoding alone, so they never match. */
static unsigned match_encoding(const struct bt_model *m, const struct bt_event *e, bool amd, uint16_t *ret)
{
	unsigned n = 0;
	/*
	 * Intel's fixed counters 0 and 1 count what two architectural events
	 * count on a general counter (SDM Vol. 3B, "Association of
	 * Fixed-Function Performance Counters with Architectural Performance
	 * Events"): instructions retired, 0xC0/0x00, and core cycles,
	 * 0x3C/0x00. The model names them with perfmon's pseudo-encodings
	 * (INST_RETIRED.ANY 0x00/0x01, CPU_CLK_UNHALTED.THREAD 0x00/0x02), so
	 * perf's r00c0 or cpu/event=0x3c,umask=0x0/ names them too. Fixed
	 * counter 2 (reference cycles at the TSC rate) has no general-counter
	 * event of that rate.
	 */
	int fixed_twin = amd || e->umask || e->umask_ext || e->cmask ? -1
			 : e->code == 0xC0 ? 0
			 : e->code == 0x3C ? 1
					   : -1;
	if (e->source != BT_SRC_PMC || e->msr_index)
		return 0;
	for (unsigned i = 0; i < bt_model_event_count(m); i++) {
		const struct bt_event *ev = bt_model_event(m, i);
		if (ev->source != BT_SRC_PMC || ev->msr_index || (ev->flags & BT_EVF_PERCORE))
			continue;
		bool same = ev->code == e->code && ev->umask == e->umask && ev->umask_ext == e->umask_ext &&
			    ev->cmask == e->cmask;
		bool twin = fixed_twin >= 0 && ev->fixed == fixed_twin && ev->code == 0;
		if ((same || twin) && (ev->flags & ENC_FLAGS) == (e->flags & ENC_FLAGS))
			ret[n++] = (uint16_t)i;
	}
	return n;
}

/* perf's event modifiers after ':' or the closing '/': u, k and those that
 * do not change a count (h, p, P, G, H). -1 = not modifiers. */
static int perf_modifiers(const char *s)
{
	int u = 0, k = 0;
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s == 'u')
			u = 1;
		else if (*s == 'k')
			k = 1;
		else if (!strchr("hpPGH", *s))
			return -1;
	}
	return u == k ? 0 : u ? BT_EVF_USER : BT_EVF_SUP;
}

static const char *priv_suffix(int priv)
{
	return priv == BT_EVF_USER ? "u" : priv == BT_EVF_SUP ? "k" : "";
}

/* The caller's encoding parser (pmu/'s bt_event_parse_encoding) on one
 * spelling, and the model events with that encoding. A spelling the parser
 * rejects is a malformed row (BT_ERR_INVALID, its message in d) when
 * malformed_is_error, else an unused one (a raw config with bits perf
 * itself would drop, such as USR/OS, is not worth failing an import). priv:
 * perf's :u/:k written apart from the spelling (BT_EVF_USER / BT_EVF_SUP). */
static bt_status match_parsed(const struct bt_model *m, const struct bt_perf_match *pm,
			      const char *shown, const char *spelling, int priv, bool malformed_is_error,
			      uint16_t *ret, unsigned *ret_n, struct bt_diag *d)
{
	if (!pm || !pm->parse) {
		bt_diag_set(d, "'%s': encodings are not matched here (no event parser given)", shown);
		return BT_OK;
	}
	struct bt_event e;
	struct bt_diag pd = { "" };
	bool amd = !strcmp(bt_model_def(m)->vendor, "AuthenticAMD");
	if (pm->parse(spelling, amd, &e, &pd) != BT_OK) {
		bt_diag_set(d, "'%s': %s", shown, pd.text);
		return malformed_is_error ? BT_ERR_INVALID : BT_OK;
	}
	e.flags |= (uint16_t)priv;
	if (e.msr_index) {
		bt_diag_set(d, "'%s': events with an extra MSR (offcore_rsp, ldlat, frontend) are "
			    "not matched by encoding: name the event", shown);
		return BT_OK;
	}
	*ret_n = match_encoding(m, &e, amd, ret);
	if (!*ret_n)
		bt_diag_set(d, "'%s': no event of model %s has this encoding", shown, bt_model_def(m)->id);
	return BT_OK;
}

/* The terms perf prints that name a core event's encoding; the parser
 * reads them (and perf's `config=`, turned into rHEX). Others (config1,
 * period, ...) leave the row unused, with the reason. */
static bool perf_term_known(const char *t, size_t len)
{
	static const char *const known[] = { "event", "umask", "cmask", "inv", "edge", "any",
					     "name", "ldlat", "frontend", "offcore_rsp" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(known); i++)
		if (strlen(known[i]) == len && !memcmp(t, known[i], len))
			return true;
	return false;
}

static bt_status match_name(const struct bt_model *m, const struct bt_perf_match *pm, const char *name,
			    uint16_t *ret, unsigned *ret_n, struct bt_diag *d, int depth);

/* "pmu/terms/mods" */
static bt_status match_terms(const struct bt_model *m, const struct bt_perf_match *pm, const char *ev,
			     const char *slash, uint16_t *ret, unsigned *ret_n, struct bt_diag *d,
			     int depth)
{
	char pmu[32], terms[BT_EVENT_NAME_MAX], spelling[BT_EVENT_NAME_MAX + 40];
	size_t pl = (size_t)(slash - ev);
	const char *close = strchr(slash + 1, '/');
	if (!close || pl >= sizeof(pmu) || (size_t)(close - slash - 1) >= sizeof(terms)) {
		bt_diag_set(d, "'%s': not PMU/terms/", ev);
		return BT_ERR_INVALID;
	}
	memcpy(pmu, ev, pl);
	pmu[pl] = 0;
	memcpy(terms, slash + 1, (size_t)(close - slash - 1));
	terms[close - slash - 1] = 0;
	if (!strcmp(pmu, "msr") && !strcmp(terms, "tsc"))
		return match_name(m, pm, "TSC", ret, ret_n, d, depth + 1);
	if (strcmp(pmu, "cpu") && strcmp(pmu, "cpu_core") && strcmp(pmu, "cpu_atom")) {
		bt_diag_set(d, "'%s': PMU '%s' is not the core PMU", ev, pmu);
		return BT_OK;
	}
	int priv = perf_modifiers(close + 1);
	if (priv < 0) {
		bt_diag_set(d, "'%s': modifiers '%s' not understood", ev, close + 1);
		return BT_OK;
	}
	if (!strchr(terms, '=') && !strchr(terms, ',')) {
		/* cpu_core/topdown-retiring/, cpu/inst_retired.any/u */
		char n2[BT_EVENT_NAME_MAX + 4];
		snprintf(n2, sizeof(n2), "%s%s%s", terms, priv ? ":" : "", priv_suffix(priv));
		return match_name(m, pm, n2, ret, ret_n, d, depth + 1);
	}
	if (!strncmp(terms, "config=", 7) && !strchr(terms, ',')) {
		/* perf's whole raw config: the rHEX spelling of the same bits */
		char *end;
		unsigned long long cfg = strtoull(terms + 7, &end, 0);
		if (!terms[7] || *end) {
			bt_diag_set(d, "'%s': bad value in term '%s'", ev, terms);
			return BT_ERR_INVALID;
		}
		snprintf(spelling, sizeof(spelling), "r%llx", cfg);
		return match_parsed(m, pm, ev, spelling, priv, true, ret, ret_n, d);
	}
	for (const char *t = terms; *t;) {
		size_t len = strcspn(t, ",="), all = strcspn(t, ",");
		if (!perf_term_known(t, len)) {
			bt_diag_set(d, "'%s': term '%.*s' not understood", ev, (int)all, t);
			return BT_OK;
		}
		t += all + (t[all] == ',');
	}
	snprintf(spelling, sizeof(spelling), "%s/%s/%s", pmu, terms, priv_suffix(priv));
	return match_parsed(m, pm, ev, spelling, 0, true, ret, ret_n, d);
}

/* perf's generic names and topdown-* (slot counts, FORMAT.md) -> canonical names;
 * every one that the model uses is set (THREAD and THREAD_P count the same). */
static const struct {
	const char *perf;
	const char *canonical[5];
} generic[] = {
	{ "instructions", { "INST_RETIRED.ANY", "INST_RETIRED.ANY_P", "ex_ret_instr" } },
	{ "cycles", { "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD_P", "CPU_CLK_UNHALTED.CORE",
		      "CPU_CLK_UNHALTED.CORE_P", "ls_not_halted_cyc" } },
	{ "cpu-cycles", { "CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD_P",
			  "CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.CORE_P", "ls_not_halted_cyc" } },
	{ "ref-cycles", { "CPU_CLK_UNHALTED.REF_TSC" } },
	{ "slots", { "TOPDOWN.SLOTS" } },
	{ "topdown-slots", { "TOPDOWN.SLOTS" } },
	{ "topdown-retiring", { "PERF_METRICS.RETIRING" } },
	{ "topdown-bad-spec", { "PERF_METRICS.BAD_SPECULATION" } },
	{ "topdown-fe-bound", { "PERF_METRICS.FRONTEND_BOUND" } },
	{ "topdown-be-bound", { "PERF_METRICS.BACKEND_BOUND" } },
	{ "topdown-heavy-ops", { "PERF_METRICS.HEAVY_OPERATIONS" } },
	{ "topdown-br-mispredict", { "PERF_METRICS.BRANCH_MISPREDICTS" } },
	{ "topdown-fetch-lat", { "PERF_METRICS.FETCH_LATENCY" } },
	{ "topdown-mem-bound", { "PERF_METRICS.MEMORY_BOUND" } },
	{ "duration_time", { "duration_time" } },
	{ "tsc", { "TSC" } },
};

static void add_found(const struct bt_model *m, const char *name, uint16_t *ret, unsigned *n)
{
	int i = bt_model_event_find(m, name);
	if (i >= 0)
		ret[(*n)++] = (uint16_t)i;
}

static bt_status match_name(const struct bt_model *m, const struct bt_perf_match *pm, const char *ev,
			    uint16_t *ret, unsigned *ret_n, struct bt_diag *d, int depth)
{
	char base[BT_EVENT_NAME_MAX], canon[BT_EVENT_NAME_MAX];
	*ret_n = 0;
	if (depth > 2 || strlen(ev) >= sizeof(base)) {
		bt_diag_set(d, "'%.60s': not understood", ev);
		return BT_OK;
	}
	add_found(m, ev, ret, ret_n);
	if (*ret_n)
		return BT_OK;
	if (strchr(ev, '@')) {
		/* a perf-JSON metric spelling, "cpu@EV\,cmask\=0x6@" */
		struct bt_diag d2 = { "" };
		if (bt_event_from_perf(ev, canon, sizeof(canon), &d2) == BT_OK)
			add_found(m, canon, ret, ret_n);
		if (!*ret_n)
			bt_diag_set(d, "'%s': model %s has no such event", ev, bt_model_def(m)->id);
		return BT_OK;
	}
	const char *slash = strchr(ev, '/');
	if (slash)
		return match_terms(m, pm, ev, slash, ret, ret_n, d, depth);
	/* perf modifiers after the last ':' */
	strcpy(base, ev);
	int priv = 0;
	char *colon = strrchr(base, ':');
	if (colon) {
		int p = perf_modifiers(colon + 1);
		if (p >= 0) {
			*colon = 0;
			priv = p;
		}
	}
	/* raw rNNNN */
	if (base[0] == 'r' && base[1] && strspn(base + 1, "0123456789abcdefABCDEF") == strlen(base + 1))
		return match_parsed(m, pm, ev, base, priv, false, ret, ret_n, d);
	const char *suffix = priv == BT_EVF_USER ? ":USER" : priv == BT_EVF_SUP ? ":SUP" : "";
	for (size_t g = 0; g < BT_ARRAY_SIZE(generic); g++) {
		if (strcmp(base, generic[g].perf))
			continue;
		for (int k = 0; k < 5 && generic[g].canonical[k]; k++) {
			snprintf(canon, sizeof(canon), "%s%s", generic[g].canonical[k], suffix);
			add_found(m, canon, ret, ret_n);
		}
		if (!*ret_n)
			bt_diag_set(d, "'%s': model %s uses no event perf's '%s' counts", ev,
				    bt_model_def(m)->id, base);
		return BT_OK;
	}
	/* as written (AMD names are lower case), then Intel's upper-case spelling */
	for (int pass = 0; pass < 2 && !*ret_n; pass++) {
		char n2[BT_EVENT_NAME_MAX];
		snprintf(n2, sizeof(n2), "%s", base);
		if (pass)
			for (char *p = n2; *p; p++)
				*p = (char)toupper((unsigned char)*p);
		struct bt_event_mods mods;
		struct bt_diag d2 = { "" };
		char full[BT_EVENT_NAME_MAX + 8];
		snprintf(full, sizeof(full), "%s%s", n2, suffix);
		add_found(m, full, ret, ret_n);
		if (!*ret_n && bt_event_canonical(full, canon, sizeof(canon), &mods, &d2) == BT_OK)
			add_found(m, canon, ret, ret_n);
	}
	if (!*ret_n)
		bt_diag_set(d, "'%s': model %s has no such event", ev, bt_model_def(m)->id);
	return BT_OK;
}

/* perf modifiers holding R (retire latency) and otherwise only ones that
 * do not change what is sampled (u, k, h, p, P, G, H). */
static bool rl_modifiers(const char *s, size_t n)
{
	bool r = false;
	for (size_t k = 0; k < n; k++) {
		if (s[k] == 'R')
			r = true;
		else if (!strchr("ukhpPGH", s[k]))
			return false;
	}
	return r;
}

int bt_perf_rl_match(const struct bt_model *m, const char *ev, bool *is_rl)
{
	const char *name = NULL, *end = NULL;
	size_t len = strlen(ev);
	const char *at = strchr(ev, '@'), *slash = strchr(ev, '/');
	*is_rl = false;
	if (at) {
		/* "cpu_core@EVENT@R" (perf's metric JSON) */
		const char *at2 = strchr(at + 1, '@');
		if (at2 && !strchr(at2 + 1, '@') && rl_modifiers(at2 + 1, strlen(at2 + 1))) {
			name = at + 1;
			end = at2;
		}
	} else if (slash) {
		/* "cpu_core/EVENT/R", "cpu/EVENT,name=.../R": the first term is the event */
		const char *s2 = strchr(slash + 1, '/');
		if (s2 && rl_modifiers(s2 + 1, strlen(s2 + 1))) {
			name = slash + 1;
			end = name + strcspn(name, ",/");
			if (memchr(name, '=', (size_t)(end - name)))
				name = NULL; /* event=0x..: an encoding, not a name */
		}
	} else {
		/* "EVENT:R" */
		const char *colon = strrchr(ev, ':');
		if (colon && rl_modifiers(colon + 1, len - (size_t)(colon + 1 - ev))) {
			name = ev;
			end = colon;
		}
	}
	if (!name || end <= name)
		return -1;
	*is_rl = true;
	size_t n = (size_t)(end - name);
	for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++) {
		const char *want = bt_model_retire_latency_name(m, i);
		size_t k = 0;
		/* perf prints event names in either case */
		while (k < n && want[k] && toupper((unsigned char)name[k]) == toupper((unsigned char)want[k]))
			k++;
		if (k == n && !want[k])
			return (int)i;
	}
	return -1;
}

bt_status bt_perf_event_match(const struct bt_model *m, const struct bt_perf_match *pm,
			      const char *perf_event, uint16_t *ret_events, unsigned *ret_n,
			      struct bt_diag *d)
{
	*ret_n = 0;
	return match_name(m, pm, perf_event, ret_events, ret_n, d, 0);
}

static bt_status apply_rows(const struct bt_perf_stat *f, const struct bt_perf_match *pm, const double *only,
			    struct bt_counts *c, struct bt_perf_row_use *uses, struct bt_diag *d);

bt_status bt_perf_stat_apply(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
			     struct bt_counts *c, struct bt_perf_row_use *uses, struct bt_diag *d)
{
	return apply_rows(f, pm, NULL, c, uses, d);
}

bt_status bt_perf_stat_apply_interval(const struct bt_perf_stat *f, const struct bt_perf_match *pm,
				      size_t k, struct bt_counts *c, struct bt_perf_row_use *uses,
				      struct bt_diag *d)
{
	if (k >= f->n_intervals) {
		bt_diag_set(d, "%s: no interval %zu", f->path, k + 1);
		return BT_ERR_INVALID;
	}
	return apply_rows(f, pm, &f->intervals[k], c, uses, d);
}

static bt_status apply_rows(const struct bt_perf_stat *f, const struct bt_perf_match *pm, const double *only,
			    struct bt_counts *c, struct bt_perf_row_use *uses, struct bt_diag *d)
{
	const struct bt_model *m = c->model;
	unsigned ne = bt_model_event_count(m);
	unsigned nrl = bt_model_retire_latency_count(m);
	uint16_t *idx = calloc(ne ? ne : 1, sizeof(*idx));
	unsigned *from = calloc(ne ? ne : 1, sizeof(*from)); /* 1-based row that set it */
	unsigned *rl_from = calloc(nrl ? nrl : 1, sizeof(*rl_from));
	bt_status st = BT_OK;
	if (!idx || !from || !rl_from) {
		bt_diag_set(d, "out of memory");
		st = BT_ERR_NOMEM;
		goto out;
	}
	bt_counts_reset(c);
	for (size_t r = 0; r < f->n; r++) {
		const struct bt_perf_stat_row *row = &f->rows[r];
		struct bt_perf_row_use *u = &uses[r];
		struct bt_diag md = { "" };
		unsigned n = 0;
		u->n_events = 0;
		u->first_event = -1;
		u->rl = -1;
		u->why[0] = 0;
		if (only && row->interval != *only)
			continue;
		bool is_rl;
		int li = bt_perf_rl_match(m, row->event, &is_rl);
		if (is_rl) {
			/* a retire latency (perf --record-tpebs), not a count */
			if (li < 0) {
				snprintf(u->why, sizeof(u->why), "model %s has no retire-latency input %.100s",
					 bt_model_def(m)->id, row->event);
				continue;
			}
			if (row->state != BT_PERF_COUNTED) {
				snprintf(u->why, sizeof(u->why), "perf printed %s: the latency is not measured",
					 row->state == BT_PERF_NOT_COUNTED ? NOT_COUNTED : NOT_SUPPORTED);
				continue;
			}
			if (rl_from[li] && c->retire_latency[li] != row->value) {
				bt_diag_set(d, "%s:%u: %s gives the retire latency of %s a second, different "
					    "value (first on line %u)", f->path, row->line, row->event,
					    bt_model_retire_latency_name(m, (unsigned)li),
					    f->rows[rl_from[li] - 1].line);
				st = BT_ERR_INVALID;
				goto out;
			}
			c->retire_latency[li] = row->value;
			c->retire_latency_source[li] =
				row->rl_source >= 0 ? (uint8_t)row->rl_source : (uint8_t)BT_RL_MEASURED;
			c->retire_latency_default[li] = row->rl_source == BT_RL_PUBLISHED;
			rl_from[li] = (unsigned)r + 1;
			u->rl = li;
			u->n_events = 1;
			continue;
		}
		st = bt_perf_event_match(m, pm, row->event, idx, &n, &md);
		if (st != BT_OK) {
			bt_diag_set(d, "%s:%u: %s", f->path, row->line, md.text);
			goto out;
		}
		if (!n) {
			snprintf(u->why, sizeof(u->why), "%.150s", md.text);
			continue;
		}
		u->first_event = idx[0];
		if (row->state != BT_PERF_COUNTED) {
			snprintf(u->why, sizeof(u->why), "perf printed %s: the event is missing",
				 row->state == BT_PERF_NOT_COUNTED ? NOT_COUNTED : NOT_SUPPORTED);
			continue;
		}
		for (unsigned k = 0; k < n; k++) {
			unsigned i = idx[k];
			if (from[i] && c->events[i] != row->value) {
				bt_diag_set(d, "%s:%u: %s gives %s a second, different value (first on "
					    "line %u); per-CPU or interval output? Use perf stat's "
					    "default aggregation", f->path, row->line, row->event,
					    bt_model_event(m, i)->name, f->rows[from[i] - 1].line);
				st = BT_ERR_INVALID;
				goto out;
			}
			c->events[i] = row->value;
			from[i] = (unsigned)r + 1;
		}
		u->n_events = n;
	}
out:
	free(idx);
	free(from);
	free(rl_from);
	return st;
}
