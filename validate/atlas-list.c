/* SPDX-License-Identifier: MIT */
/*
 * The atlas's event list: Intel's perfmon events JSON for the core, or a
 * Linux perf JSON array of either vendor's events, read as untrusted input. The encodings are
 * the vendor readers' (metrics/event-vendor.c: EventCode, UMask, UMaskExt,
 * CounterMask, Invert, EdgeDetect, AnyThread, Equal, TakenAlone, Counter
 * with "Fixed counter N", CounterHTOff, MSRIndex/MSRValue), so each field
 * is decoded in one place; this file adds what the atlas decides from
 * them: which events it refuses, and why.
 *
 * PEBS-only events: the current lists have no field that says so ("PEBS":
 * "2" of older lists also marks events that count without PEBS, see
 * base/event.h BT_EVF_PEBS_ONLY); the events that do need PEBS armed are
 * the load-latency ones, refused here for their extra MSR (0x3F6).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json-read.h"
#include "metrics/event-name.h"
#include "validate/atlas.h"

static const char *msr_reason(struct bt_arena *a, const struct bt_event *e)
{
	switch (e->msr_index) {
	case 0x1A6:
	case 0x1A7:
		return bt_arena_printf(a, "OFFCORE_RESPONSE: counts only with MSR_OFFCORE_RSP_%d "
				       "(MSRIndex 0x%X) = MSRValue 0x%llX programmed beside its event "
				       "select; the atlas programs event selects only", e->msr_index - 0x1A6,
				       e->msr_index, (unsigned long long)e->msr_value);
	case 0x3F6:
		return bt_arena_printf(a, "load latency: counts only with MSR_PEBS_LD_LAT (MSRIndex "
				       "0x3F6) = 0x%llX and PEBS armed for its counter (SDM vol. 3B "
				       "\"Load Latency Performance Monitoring Facility\"); the atlas "
				       "counts without PEBS", (unsigned long long)e->msr_value);
	case 0x3F7:
		return bt_arena_printf(a, "frontend: counts only with MSR_PEBS_FRONTEND (MSRIndex "
				       "0x3F7) = 0x%llX; the atlas programs event selects only",
				       (unsigned long long)e->msr_value);
	default:
		return bt_arena_printf(a, "needs MSR 0x%X (MSRIndex) = 0x%llX; the atlas programs "
				       "event selects only", e->msr_index,
				       (unsigned long long)e->msr_value);
	}
}

const char *bt_atlas_refusal(struct bt_arena *a, const struct bt_event *e)
{
	if (e->msr_index)
		return msr_reason(a, e);
	if (!e->counters && e->fixed == BT_EV_NO_FIXED)
		return "the list gives it no counter (\"Counter\")";
	return NULL;
}

static bool is_one(const struct bt_json *item, const char *key)
{
	const char *s = bt_json_get_str(item, key);
	return s && strcmp(s, "1") == 0;
}

bt_status bt_atlas_list_load(const char *path, struct bt_atlas_list *l, struct bt_diag *d)
{
	struct bt_event_table t = { 0 };
	struct bt_json *root;
	bt_status st;

	memset(l, 0, sizeof(*l));
	bt_arena_init(&l->arena);
	l->file = bt_arena_strdup(&l->arena, path);
	if ((st = bt_json_load_file(&l->arena, path, &root, d)) != BT_OK)
		return st;
	bool object = root->type == BT_JSON_OBJECT;
	if (!object && root->type != BT_JSON_ARRAY) {
		bt_diag_set(d, "%s:%u:%u: not an event list (Intel: {\"Header\":..., \"Events\": "
			    "[...]}; AMD: a Linux perf JSON array)", path, root->line, root->col);
		return BT_ERR_INVALID;
	}
	/* An array is Linux perf's form of either vendor's list: Intel's events
	 * name their counters ("Counter": "0,1,2,3"), AMD's never do (their
	 * counters are interchangeable), so one "Counter" makes it Intel's:
	 * read as AMD's, 0xC4/0x00 would be AMD's taken branches. */
	bool intel = object;
	for (size_t i = 0; !object && i < root->u.arr.n && !intel; i++)
		intel = bt_json_get(root->u.arr.items[i], "Counter") != NULL;
	l->format = object ? "intel-perfmon" : intel ? "linux-perf-intel" : "linux-perf-amd";
	l->version = object ? bt_json_get_str(bt_json_get(root, "Header"), "Version") : NULL;
	st = intel ? bt_events_load_intel(&l->arena, path, &t, d)
		   : bt_events_load_perf(&l->arena, path, &t, d);
	if (st != BT_OK)
		return st;
	l->v = bt_arena_alloc(&l->arena, (t.n ? t.n : 1) * sizeof(*l->v));
	if (!l->v) {
		bt_diag_set(d, "%s: out of memory", path);
		return BT_ERR_NOMEM;
	}
	const struct bt_json *items = object ? bt_json_get(root, "Events") : root;
	for (size_t i = 0; i < t.n; i++) {
		struct bt_atlas_event *e = &l->v[l->n++];
		e->name = t.events[i].name;
		e->ev = t.events[i];
		e->refused = bt_atlas_refusal(&l->arena, &e->ev);
	}
	/* "Deprecated": the readers keep the first definition of a name, in
	 * the file's order, so the table follows the items with the repeats
	 * left out. */
	int k = 0;
	for (size_t i = 0; intel && items && items->type == BT_JSON_ARRAY && i < items->u.arr.n; i++) {
		const char *name = bt_json_get_str(items->u.arr.items[i], "EventName");
		if (k < l->n && name && strcmp(l->v[k].name, name) == 0)
			l->v[k++].deprecated = is_one(items->u.arr.items[i], "Deprecated");
	}
	return BT_OK;
}

void bt_atlas_list_free(struct bt_atlas_list *l)
{
	bt_arena_free(&l->arena);
	memset(l, 0, sizeof(*l));
}
