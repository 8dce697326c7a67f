/* SPDX-License-Identifier: MIT */
/*
 * The atlas's outputs: the console summary, the "atlas" JSON object (the
 * results file and `baretop-host atlas --json`) and the validation spec
 * generated from it (docs/validate-spec.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "validate/atlas.h"

void bt_atlas_raw_event(const struct bt_event *e, const char *name, char *buf, size_t len)
{
	size_t u = (size_t)snprintf(buf, len, "cpu/event=0x%x,umask=0x%02x", e->code, e->umask);
#define PUT(...)                                                          \
	do {                                                              \
		if (u < len)                                              \
			u += (size_t)snprintf(buf + u, len - u, __VA_ARGS__); \
	} while (0)
	if (e->umask_ext)
		PUT(",umask2=0x%02x", e->umask_ext);
	if (e->cmask)
		PUT(",cmask=%u", e->cmask);
	if (e->flags & BT_EVF_INV)
		PUT(",inv");
	if (e->flags & BT_EVF_EDGE)
		PUT(",edge");
	if (e->flags & BT_EVF_ANY)
		PUT(",any");
	if (e->flags & BT_EVF_EQ)
		PUT(",eq");
	if (e->flags & BT_EVF_ALONE)
		PUT(",alone");
	/* name= only for a name the perf syntax can hold (an untrusted list may
	 * spell one with '/', ',' or '='): the encoding alone otherwise. */
	bool plain = name && *name;
	for (const char *c = name; plain && *c; c++)
		plain = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
			*c == '.' || *c == '_' || *c == '-' || *c == ':';
	if (plain)
		PUT(",name=%s", name);
	PUT("/");
#undef PUT
}

void bt_atlas_print(FILE *f, const struct bt_atlas *a)
{
	/* A built-in list's text already gives its count and version. */
	const char *ver = a->list->version && !strstr(a->list->file, a->list->version)
				  ? a->list->version : NULL;
	char count[32];
	snprintf(count, sizeof(count), ", %d events", a->n);
	if (strncmp(a->list->file, "built-in ", 9) == 0 && strstr(a->list->file, count))
		fprintf(f, "atlas         %s%s: %s\n", a->simulated ? "SIMULATED " : "",
			a->pmu ? a->pmu : "PMU", a->list->file);
	else
		fprintf(f, "atlas         %s%s: %d events of %s%s%s\n", a->simulated ? "SIMULATED " : "",
			a->pmu ? a->pmu : "PMU", a->n, a->list->file, ver ? " version " : "",
			ver ? ver : "");
	fprintf(f, "atlas         classes:");
	for (int c = 0; c <= BT_ATLAS_NOT_MEASURED; c++)
		if (a->counts[c])
			fprintf(f, " %s %d", bt_atlas_class_name((enum bt_atlas_class)c), a->counts[c]);
	fprintf(f, "\n");
	fprintf(f, "atlas         invariants: %d checked, %d violated, %d not checkable\n", a->inv_run,
		a->inv_violated, a->inv_not_checkable);
	for (int i = 0; i < a->n_inv; i++)
		if (a->inv[i].state == BT_INV_VIOLATED)
			fprintf(f, "atlas         VIOLATED %s: %s: %s\n", a->inv[i].event,
				a->inv[i].invariant, a->inv[i].detail);
	fprintf(f, "atlas         windows: %llu run, lower bound %llu (%d groups in %d batches, "
		"lower bound %d)%s\n", (unsigned long long)a->windows_run,
		(unsigned long long)a->windows_lower_bound, a->groups, a->batches, a->lower_bound,
		a->budget_cut ? "; the --budget ran out: some events not measured" : "");
	fprintf(f, "atlas         time: estimated %.1f s, took %.1f s", a->est_seconds, a->seconds);
	for (int k = 0; k < a->n_kernels; k++)
		fprintf(f, "%s %s %.2f/%.2f", k ? "," : "; per kernel, estimated/took s:",
			a->kernels[k]->name, a->est_kernel_s[k], a->took_kernel_s[k]);
	fprintf(f, "\n");
}

void bt_atlas_json(struct bt_jw *j, const char *key, const struct bt_atlas *a)
{
	char buf[256];

	bt_jw_object(j, key);
	bt_jw_bool(j, "simulated", a->simulated);
	bt_jw_str(j, "pmu", a->pmu);
	bt_jw_object(j, "list");
	bt_jw_str(j, "file", a->list->file);
	bt_jw_str(j, "format", a->list->format);
	bt_jw_str(j, "version", a->list->version);
	bt_jw_i64(j, "events", a->n);
	bt_jw_end(j);
	bt_jw_array(j, "kernels");
	for (int k = 0; k < a->n_kernels; k++) {
		bt_jw_object(j, NULL);
		bt_jw_str(j, "kernel", a->kernels[k]->name);
		bt_jw_u64(j, "n", a->sizes[k]);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_object(j, "classes");
	for (int c = 0; c <= BT_ATLAS_NOT_MEASURED; c++)
		bt_jw_i64(j, bt_atlas_class_name((enum bt_atlas_class)c), a->counts[c]);
	bt_jw_end(j);
	bt_jw_array(j, "events");
	for (int i = 0; i < a->n; i++) {
		const struct bt_atlas_result *r = &a->res[i];
		bt_jw_object(j, NULL);
		bt_jw_str(j, "event", r->e->name);
		if (r->e->ev.fixed != BT_EV_NO_FIXED && !r->e->ev.counters)
			snprintf(buf, sizeof(buf), "fixed counter %d", r->e->ev.fixed);
		else
			bt_atlas_raw_event(&r->e->ev, NULL, buf, sizeof(buf));
		bt_jw_str(j, "encoding", buf);
		bt_jw_str(j, "class", bt_atlas_class_name((enum bt_atlas_class)r->cls));
		if (r->cls == BT_ATLAS_LINEAR) {
			bt_jw_double(j, "slope", r->slope);
			bt_jw_str(j, "per", r->slope_kernel);
		} else {
			bt_jw_null(j, "slope");
		}
		bt_jw_array(j, "matches");
		for (int m = 0; m < r->n_matches; m++)
			bt_jw_str(j, NULL, r->matches[m]);
		bt_jw_end(j);
		bt_jw_str(j, "why", r->why);
		if (r->e->deprecated)
			bt_jw_bool(j, "deprecated", true);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_array(j, "invariants");
	for (int i = 0; i < a->n_inv; i++) {
		bt_jw_object(j, NULL);
		bt_jw_str(j, "event", a->inv[i].event);
		bt_jw_str(j, "invariant", a->inv[i].invariant);
		bt_jw_str(j, "state", bt_atlas_inv_state_name((enum bt_atlas_inv_state)a->inv[i].state));
		bt_jw_str(j, "detail", a->inv[i].detail);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_object(j, "windows");
	bt_jw_u64(j, "run", a->windows_run);
	bt_jw_u64(j, "lower_bound", a->windows_lower_bound);
	bt_jw_u64(j, "planned", a->windows_planned);
	bt_jw_i64(j, "groups", a->groups);
	bt_jw_i64(j, "lower_bound_groups", a->lower_bound);
	bt_jw_i64(j, "batches", a->batches);
	bt_jw_i64(j, "encodings", a->encodings);
	bt_jw_u64(j, "reps", a->reps);
	bt_jw_u64(j, "warmups", a->warmups);
	bt_jw_u64(j, "calibration_runs", a->calib_runs);
	bt_jw_bool(j, "budget_cut", a->budget_cut);
	bt_jw_end(j);
	bt_jw_object(j, "time");
	bt_jw_double(j, "estimated_s", a->est_seconds);
	bt_jw_double(j, "actual_s", a->seconds);
	bt_jw_str(j, "assumes", "a CPU of its own: other load stretches the wall time");
	bt_jw_object(j, "estimate_parts");
	bt_jw_double(j, "kernel_runs_s", a->est_runs_s);
	bt_jw_double(j, "calibration_s", a->est_calib_s);
	bt_jw_double(j, "windows_s", a->est_window_s);
	bt_jw_double(j, "window_us", a->est_window_us);
	bt_jw_double(j, "sessions_s", a->est_session_s);
	bt_jw_double(j, "kernel_setups_s", a->est_setup_s);
	bt_jw_end(j);
	bt_jw_array(j, "kernels");
	for (int k = 0; k < a->n_kernels; k++) {
		bt_jw_object(j, NULL);
		bt_jw_str(j, "kernel", a->kernels[k]->name);
		bt_jw_double(j, "estimated_s", a->est_kernel_s[k]);
		bt_jw_double(j, "actual_s", a->took_kernel_s[k]);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_end(j);
	bt_jw_object(j, "invariant_totals");
	bt_jw_i64(j, "checked", a->inv_run);
	bt_jw_i64(j, "violated", a->inv_violated);
	bt_jw_i64(j, "not_checkable", a->inv_not_checkable);
	bt_jw_end(j);
	bt_jw_end(j);
}

/* A slope as the spec's expression: the declared count it matched
 * (k.NAME: the spec reader corrects it for the empty window as the
 * measurement does), else SLOPE*n. */
static bool file_exists(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

bt_status bt_atlas_write_spec(const struct bt_atlas *a, const char *path,
			      int (*rename_noreplace)(const char *from, const char *to),
			      struct bt_diag *d)
{
	struct bt_strbuf sb = { 0 };
	struct bt_jw j;
	char ev[320], expr[80];
	int n = 0;

	bt_jw_init(&j, &sb);
	bt_jw_object(&j, NULL);
	bt_jw_str(&j, "format", "baretop-validate-spec");
	snprintf(ev, sizeof(ev), "generated by the atlas of %s%s%s on %s%s: every event it found "
		 "linear, with its slope", a->list->file, a->list->version ? " version " : "",
		 a->list->version ? a->list->version : "", a->simulated ? "SIMULATED " : "",
		 a->pmu ? a->pmu : "PMU");
	bt_jw_str(&j, "comment", ev);
	bt_jw_array(&j, "checks");
	for (int i = 0; i < a->n; i++) {
		const struct bt_atlas_result *r = &a->res[i];
		if (r->cls != BT_ATLAS_LINEAR || !r->e->ev.counters)
			continue; /* fixed-only events have no raw encoding */
		const struct bt_kernel *k = NULL;
		uint64_t size = 0;
		for (int ki = 0; ki < a->n_kernels; ki++)
			if (strcmp(a->kernels[ki]->name, r->slope_kernel) == 0) {
				k = a->kernels[ki];
				size = a->sizes[ki];
			}
		if (!k)
			continue;
		bt_atlas_raw_event(&r->e->ev, r->e->name, ev, sizeof(ev));
		/* The slope and intercept measured (counts corrected for the
		 * empty window, as the spec's checks are): k.NAME would be
		 * corrected by `empty`'s declared count, which some kernels'
		 * counts (loads: RET reads the stack) lack. */
		double ic = fabs(r->intercept) < 0.5 ? 0 : r->intercept;
		snprintf(expr, sizeof(expr), "%.10g*n%s%.10g", r->slope, ic < 0 ? "-" : "+", fabs(ic));
		char note[160] = "";
		if (r->n_matches) {
			size_t u = (size_t)snprintf(note, sizeof(note), "slope = declared");
			for (int m = 0; m < r->n_matches && u < sizeof(note); m++)
				u += (size_t)snprintf(note + u, sizeof(note) - u, "%s k.%s",
						      m ? " =" : "", r->matches[m]);
		}
		else
			snprintf(note, sizeof(note), "slope %.6g per %s, no declared count", r->slope,
				 k->n_means);
		bt_jw_object(&j, NULL);
		bt_jw_str(&j, "event", ev);
		bt_jw_str(&j, "kernel", k->name);
		bt_jw_u64(&j, "n", k->n_default);
		bt_jw_u64(&j, "n_quick", k->n_quick);
		bt_jw_object(&j, "expect");
		bt_jw_str(&j, "exact", expr);
		bt_jw_end(&j);
		/* Real parts vary from run to run; the simulated PMU does not. */
		bt_jw_double(&j, "tolerance_pct", a->simulated ? 0 : 1);
		bt_jw_double(&j, "warn_pct", a->simulated ? 0 : 2);
		bt_jw_str(&j, "note", note);
		(void)size;
		bt_jw_end(&j);
		n++;
	}
	bt_jw_end(&j);
	bt_jw_end(&j);
	bt_sb_puts(&sb, "\n");
	(void)n;
	if (file_exists(path)) {
		bt_sb_free(&sb);
		bt_diag_set(d, "%s exists: not replaced (an earlier atlas's spec); name another file "
			    "or remove it", path);
		return BT_ERR_IO;
	}
	char tmp[512];
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		bt_sb_free(&sb);
		bt_diag_set(d, "%s: name too long", path);
		return BT_ERR_IO;
	}
	remove(tmp); /* left behind by an interrupted run, if at all */
	FILE *f = fopen(tmp, "w");
	bool ok = f && !sb.oom && fputs(bt_sb_str(&sb), f) >= 0;
	if (f && fflush(f) != 0)
		ok = false;
	if (f && fclose(f) != 0)
		ok = false;
	bt_sb_free(&sb);
	if (ok)
		ok = (rename_noreplace ? rename_noreplace(tmp, path) : rename(tmp, path)) == 0;
	if (!ok) {
		remove(tmp);
		bt_diag_set(d, "%s: cannot write the spec%s", path,
			    file_exists(path) ? " (the file appeared meanwhile: not replaced)" : "");
		return BT_ERR_IO;
	}
	return BT_OK;
}
