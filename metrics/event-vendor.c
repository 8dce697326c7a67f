/* SPDX-License-Identifier: MIT */
/*
 * Event encodings from the vendor event files, and the encoding of a
 * canonical event name (base event + modifiers).
 *
 * Intel perfmon fields (../shared/reference/intel/<UARCH>/events/NAME_core.json):
 *   EventCode "0xB7, 0xBB" / "0x2A,0x2B": two codes, one per OFFCORE_RSP MSR
 *   (MSRIndex "0x1a6,0x1a7") -> code, code2, msr_index 0x1A6 (0x1A7 goes with
 *   code2); UMask, UMaskExt, CounterMask, Invert, EdgeDetect, AnyThread,
 *   Equal, TakenAlone; Counter "0,1,2,3" or "Fixed counter N"; CounterHTOff;
 *   MSRIndex/MSRValue (0x3F6 load latency, 0x3F7 frontend).
 * Linux perf AMD JSON: EventCode (12 bits; bits 11:8 go to PerfEvtSel[35:32],
 *   AMD APM vol. 2 sec. 13.2.1) and UMask; any of the six core counters.
 */
#include "metrics/event-name.h"
#include "base/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json-read.h"

static int parse_num(const char *s, uint64_t *ret)
{
	if (!s)
		return -1;
	while (*s == ' ')
		s++;
	if (!*s)
		return -1;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	while (*end == ' ')
		end++;
	if (*end && *end != ',')
		return -1;
	*ret = v;
	return 0;
}

/* "0x2A,0x2B" -> first and (optional) second number */
static int parse_pair(const char *s, uint64_t *first, uint64_t *second)
{
	*second = 0;
	if (parse_num(s, first) < 0)
		return -1;
	const char *comma = strchr(s, ',');
	if (comma && parse_num(comma + 1, second) < 0)
		return -1;
	return 0;
}

/* "0,1,2,3" (or "0-3") -> bitmask; "Fixed counter N" -> *fixed = N */
static int parse_counters(const char *s, uint32_t *mask, int8_t *fixed)
{
	*mask = 0;
	if (!s)
		return -1;
	if (strncmp(s, "Fixed counter ", 14) == 0) {
		uint64_t n;
		if (parse_num(s + 14, &n) < 0 || n > 31)
			return -1;
		if (fixed)
			*fixed = (int8_t)n;
		return 0;
	}
	const char *p = s;
	while (*p) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p)
			return -1;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p)
				return -1;
		}
		if (hi > 31 || lo > hi)
			return -1;
		for (unsigned long i = lo; i <= hi; i++)
			*mask |= 1u << i;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
		while (*p == ' ')
			p++;
	}
	return 0;
}

static size_t name_hash(const char *name)
{
	uint64_t h = 1469598103934665603ull;          /* FNV-1a */
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return (size_t)(h ^ (h >> 32));
}

/* Adds events[i] to the index (which has room). */
static void index_put(struct bt_event_table *t, size_t i)
{
	size_t k = name_hash(t->events[i].name) & (t->cap - 1);
	while (t->slot[k])
		k = (k + 1) & (t->cap - 1);
	t->slot[k] = (uint32_t)(i + 1);
}

bt_status bt_events_reindex(struct bt_arena *a, struct bt_event_table *t)
{
	size_t cap = 64;
	while (cap < 2 * (t->n + 1))
		cap *= 2;
	if (t->n >= UINT32_MAX)
		return BT_ERR_FULL;
	uint32_t *slot = bt_arena_alloc(a, cap * sizeof(*slot));
	if (!slot)
		return BT_ERR_NOMEM;
	memset(slot, 0, cap * sizeof(*slot));
	t->slot = slot;
	t->cap = cap;
	for (size_t i = 0; i < t->n; i++)
		index_put(t, i);
	t->indexed = t->n;
	return BT_OK;
}

/* Appends ev (room is there: grow) and indexes it; an events file of
 * 40,000 events took seconds with a linear search per event. */
static bt_status append(struct bt_arena *a, struct bt_event_table *t, const struct bt_event *ev)
{
	t->events[t->n++] = *ev;
	if (t->indexed + 1 != t->n || 2 * t->n > t->cap)
		return bt_events_reindex(a, t);
	index_put(t, t->n - 1);
	t->indexed = t->n;
	return BT_OK;
}

static bt_status grow(struct bt_arena *a, struct bt_event_table *t, size_t more)
{
	struct bt_event *ev = bt_arena_alloc(a, (t->n + more) * sizeof(*ev));
	if (!ev)
		return BT_ERR_NOMEM;
	if (t->n)
		memcpy(ev, t->events, t->n * sizeof(*ev));
	t->events = ev;
	return BT_OK;
}

static void note_file(struct bt_arena *a, struct bt_event_table *t, const char *path)
{
	const char *f = t->files ? bt_arena_printf(a, "%s, %s", t->files, path) : bt_arena_strdup(a, path);
	if (f)
		t->files = f;
}

#define FIELD_ERR(name, what)                                                         \
	do {                                                                          \
		bt_diag_set(d, "%s:%u:%u: event %s: bad %s", path, item->line, item->col, \
			    name, what);                                              \
		return BT_ERR_INVALID;                                                \
	} while (0)

static int flag_field(const struct bt_json *item, const char *key)
{
	const char *s = bt_json_get_str(item, key);
	return s && strcmp(s, "1") == 0;
}

bt_status bt_events_load_intel(struct bt_arena *a, const char *path, struct bt_event_table *t,
			       struct bt_diag *d)
{
	struct bt_json *root;
	bt_status s = bt_json_load_file(a, path, &root, d);
	if (s != BT_OK)
		return s;
	/* Intel's perfmon file ({"Header": ..., "Events": [...]}), or its
	 * events as an array, as Linux perf keeps them (tools/perf/pmu-events/
	 * arch/x86/PART/NAME.json): the same fields either way. */
	const struct bt_json *list = root->type == BT_JSON_ARRAY ? root : bt_json_get(root, "Events");
	if (!list || list->type != BT_JSON_ARRAY) {
		bt_diag_set(d, "%s:%u:%u: no \"Events\" array", path, root->line, root->col);
		return BT_ERR_INVALID;
	}
	if ((s = grow(a, t, list->u.arr.n)) != BT_OK) {
		bt_diag_set(d, "%s: out of memory", path);
		return s;
	}
	for (size_t i = 0; i < list->u.arr.n; i++) {
		const struct bt_json *item = list->u.arr.items[i];
		const char *name = bt_json_get_str(item, "EventName");
		if (!name) {
			bt_diag_set(d, "%s:%u:%u: event without EventName", path, item->line, item->col);
			return BT_ERR_INVALID;
		}
		if (bt_events_find(t, name))
			continue; /* first definition wins */
		struct bt_event ev = { .fixed = BT_EV_NO_FIXED, .source = BT_SRC_PMC };
		uint64_t code, code2, v, v2;
		if (parse_pair(bt_json_get_str(item, "EventCode"), &code, &code2) < 0 || code > 0xFFF ||
		    code2 > 0xFFF)
			FIELD_ERR(name, "EventCode");
		ev.code = (uint16_t)code;
		ev.code2 = (uint16_t)code2;
		if (parse_num(bt_json_get_str(item, "UMask"), &v) < 0 || v > 0xFF)
			FIELD_ERR(name, "UMask");
		ev.umask = (uint8_t)v;
		const char *ext = bt_json_get_str(item, "UMaskExt");
		if (ext) {
			if (parse_num(ext, &v) < 0 || v > 0xFF)
				FIELD_ERR(name, "UMaskExt");
			ev.umask_ext = (uint8_t)v;
		}
		const char *cm = bt_json_get_str(item, "CounterMask");
		if (cm) {
			if (parse_num(cm, &v) < 0 || v > 0xFF)
				FIELD_ERR(name, "CounterMask");
			ev.cmask = (uint8_t)v;
		}
		if (flag_field(item, "Invert"))
			ev.flags |= BT_EVF_INV;
		if (flag_field(item, "EdgeDetect"))
			ev.flags |= BT_EVF_EDGE;
		if (flag_field(item, "AnyThread"))
			ev.flags |= BT_EVF_ANY;
		if (flag_field(item, "Equal"))
			ev.flags |= BT_EVF_EQ;
		if (flag_field(item, "TakenAlone"))
			ev.flags |= BT_EVF_ALONE;
		if (parse_counters(bt_json_get_str(item, "Counter"), &ev.counters, &ev.fixed) < 0)
			FIELD_ERR(name, "Counter");
		const char *ht = bt_json_get_str(item, "CounterHTOff");
		if (ht && parse_counters(ht, &ev.counters_ht_off, NULL) < 0)
			FIELD_ERR(name, "CounterHTOff");
		const char *mi = bt_json_get_str(item, "MSRIndex");
		if (mi) {
			if (parse_pair(mi, &v, &v2) < 0 || v > 0xFFFF)
				FIELD_ERR(name, "MSRIndex");
			ev.msr_index = (uint16_t)v;
		}
		const char *mv = bt_json_get_str(item, "MSRValue");
		if (mv && ev.msr_index) {
			if (parse_num(mv, &ev.msr_value) < 0)
				FIELD_ERR(name, "MSRValue");
		}
		ev.name = name;
		if (append(a, t, &ev) != BT_OK) {
			bt_diag_set(d, "%s: out of memory", path);
			return BT_ERR_NOMEM;
		}
	}
	note_file(a, t, path);
	return BT_OK;
}

bt_status bt_events_load_perf(struct bt_arena *a, const char *path, struct bt_event_table *t,
			      struct bt_diag *d)
{
	struct bt_json *root;
	bt_status s = bt_json_load_file(a, path, &root, d);
	if (s != BT_OK)
		return s;
	if (root->type != BT_JSON_ARRAY) {
		bt_diag_set(d, "%s:%u:%u: expected an array of events", path, root->line, root->col);
		return BT_ERR_INVALID;
	}
	if ((s = grow(a, t, root->u.arr.n)) != BT_OK) {
		bt_diag_set(d, "%s: out of memory", path);
		return s;
	}
	for (size_t i = 0; i < root->u.arr.n; i++) {
		const struct bt_json *item = root->u.arr.items[i];
		const char *name = bt_json_get_str(item, "EventName");
		if (!name || bt_events_find(t, name))
			continue; /* metrics files hold metrics, not events */
		struct bt_event ev = { .fixed = BT_EV_NO_FIXED, .source = BT_SRC_PMC,
				       .counters = 0x3F /* PerfCtr0..5 */ };
		uint64_t v;
		if (parse_num(bt_json_get_str(item, "EventCode"), &v) < 0 || v > 0xFFF)
			FIELD_ERR(name, "EventCode");
		ev.code = (uint16_t)v;
		const char *um = bt_json_get_str(item, "UMask");
		if (um) {
			if (parse_num(um, &v) < 0 || v > 0xFF)
				FIELD_ERR(name, "UMask");
			ev.umask = (uint8_t)v;
		}
		ev.name = name;
		if (append(a, t, &ev) != BT_OK) {
			bt_diag_set(d, "%s: out of memory", path);
			return BT_ERR_NOMEM;
		}
	}
	note_file(a, t, path);
	return BT_OK;
}

const struct bt_event *bt_events_find(const struct bt_event_table *t, const char *name)
{
	if (t->slot && t->indexed == t->n) {
		for (size_t k = name_hash(name) & (t->cap - 1); t->slot[k]; k = (k + 1) & (t->cap - 1))
			if (strcmp(t->events[t->slot[k] - 1].name, name) == 0)
				return &t->events[t->slot[k] - 1];
		return NULL;
	}
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->events[i].name, name) == 0)
			return &t->events[i];
	return NULL;
}

static const char *const pm_fields[] = {
	[BT_PM_RETIRING] = "RETIRING",
	[BT_PM_BAD_SPECULATION] = "BAD_SPECULATION",
	[BT_PM_FRONTEND_BOUND] = "FRONTEND_BOUND",
	[BT_PM_BACKEND_BOUND] = "BACKEND_BOUND",
	[BT_PM_HEAVY_OPERATIONS] = "HEAVY_OPERATIONS",
	[BT_PM_BRANCH_MISPREDICTS] = "BRANCH_MISPREDICTS",
	[BT_PM_FETCH_LATENCY] = "FETCH_LATENCY",
	[BT_PM_MEMORY_BOUND] = "MEMORY_BOUND",
};

bt_status bt_event_encode(struct bt_arena *a, const struct bt_event_table *t, const char *canonical,
			  struct bt_event *ret, struct bt_diag *d)
{
	char base[BT_EVENT_NAME_MAX];
	struct bt_event_mods m;
	bt_status s = bt_event_name_parse(canonical, base, sizeof(base), &m, d);
	if (s != BT_OK)
		return s;
	struct bt_event ev = { .fixed = BT_EV_NO_FIXED };
	ev.name = bt_arena_strdup(a, canonical);
	if (!ev.name)
		return BT_ERR_NOMEM;
	int plain = m.cmask < 0 && m.inv < 0 && m.edge < 0 && m.eq < 0 && m.umask < 0 &&
		    !m.has_ocr && !m.priv && !m.other[0];
	if (!strcmp(base, "TSC") || !strcmp(base, "duration_time")) {
		if (!plain) {
			bt_diag_set(d, "event %s: qualifiers not allowed", canonical);
			return BT_ERR_INVALID;
		}
		ev.source = base[0] == 'T' ? BT_SRC_TSC : BT_SRC_DURATION;
		*ret = ev;
		return BT_OK;
	}
	if (!strncmp(base, "PERF_METRICS.", 13)) {
		for (size_t i = 0; i < BT_ARRAY_SIZE(pm_fields); i++)
			if (plain && !strcmp(base + 13, pm_fields[i])) {
				ev.source = BT_SRC_PERF_METRICS;
				ev.pm_field = (uint8_t)i;
				*ret = ev;
				return BT_OK;
			}
		bt_diag_set(d, "event %s: not a PERF_METRICS field", canonical);
		return BT_ERR_INVALID;
	}
	if (!strncmp(base, "UNC_", 4) || !strncmp(base, "FREERUN_", 8) || strchr(base, '@')) {
		/* uncore, free-running or another PMU's event: counted outside the core PMU */
		ev.source = BT_SRC_UNCORE;
		*ret = ev;
		return BT_OK;
	}
	const struct bt_event *b = bt_events_find(t, base);
	if (!b) {
		bt_diag_set(d, "event %s is not in the event file%s %s", base,
			    t->files && strchr(t->files, ',') ? "s" : "", t->files ? t->files : "(none)");
		return BT_ERR_NOT_FOUND;
	}
	const char *keep = ev.name;
	ev = *b;
	ev.name = keep;
	int changes_selection = m.cmask >= 0 || m.inv >= 0 || m.edge >= 0 || m.eq >= 0 || m.umask >= 0;
	if (changes_selection && ev.fixed != BT_EV_NO_FIXED) {
		if (!ev.counters) {
			bt_diag_set(d, "event %s: %s counts only on fixed counter %d, which has no "
				    "cmask/invert/edge/umask", canonical, base, ev.fixed);
			return BT_ERR_UNSUPPORTED;
		}
		ev.fixed = BT_EV_NO_FIXED;
	}
	if (m.cmask >= 0)
		ev.cmask = (uint8_t)m.cmask;
	if (m.inv >= 0)
		ev.flags = (uint16_t)(m.inv ? ev.flags | BT_EVF_INV : ev.flags & ~BT_EVF_INV);
	if (m.edge >= 0)
		ev.flags = (uint16_t)(m.edge ? ev.flags | BT_EVF_EDGE : ev.flags & ~BT_EVF_EDGE);
	if (m.eq >= 0)
		ev.flags = (uint16_t)(m.eq ? ev.flags | BT_EVF_EQ : ev.flags & ~BT_EVF_EQ);
	if (m.umask >= 0)
		ev.umask = (uint8_t)m.umask;
	if (m.has_ocr) {
		if (ev.msr_index != 0x1A6) {
			bt_diag_set(d, "event %s: ocr_msr_val on an event without OFFCORE_RSP",
				    canonical);
			return BT_ERR_INVALID;
		}
		ev.msr_value = m.ocr;
	}
	ev.flags |= (uint8_t)m.priv;
	if (m.percore)
		ev.flags |= BT_EVF_PERCORE;
	/* qualifiers other than percore have no core-PMU encoding */
	char rest[sizeof(m.other)];
	snprintf(rest, sizeof(rest), "%s", m.other);
	char *pc = strstr(rest, ":percore");
	if (pc)
		memmove(pc, pc + 8, strlen(pc + 8) + 1);
	if (rest[0]) {
		bt_diag_set(d, "event %s: qualifier '%s' has no core PMU encoding", canonical, rest + 1);
		return BT_ERR_UNSUPPORTED;
	}
	*ret = ev;
	return BT_OK;
}
