/* SPDX-License-Identifier: MIT */
/*
 * Event names: the canonical spelling of ../shared/testdata/tma/FORMAT.md,
 *   EVENT[:c<N>][:i<N>][:e<N>][:eq<N>][:u0x<hh>][:ocr_msr_val=0x<hex>][:<other>...][:SUP|:USER]
 * the vendor spellings that map onto it (perfmon ":i1:c1", ":sup",
 * ":perf_metrics", ":retire_latency"; perf "cpu@EV\,cmask\=0x6\,inv@",
 * "cpu_atom@EV@k", "EV:u", "msr@tsc@"), and the encoding of a canonical name
 * from a vendor event table: the modifiers override the base event's fields.
 */
#ifndef METRICS_EVENT_NAME_H
#define METRICS_EVENT_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/event.h"
#include "base/status.h"

#define BT_EVENT_NAME_MAX 256

struct bt_event_mods {
	int cmask;          /* -1 = not given */
	int inv, edge, eq;  /* -1 = not given, else the value */
	int umask;          /* -1 = not given */
	int has_ocr;
	uint64_t ocr;       /* :ocr_msr_val= */
	int priv;           /* 0, BT_EVF_SUP or BT_EVF_USER */
	int percore;        /* :percore (core-wide count, SMT) */
	int perf_metrics;   /* perfmon ":perf_metrics" marker (dropped from the canonical name) */
	int retire_latency; /* perfmon ":retire_latency": the name denotes a latency, not a count */
	char other[96];     /* further qualifiers verbatim, each with its leading ':' */
};

/* Splits "BASE:mod:..." (perfmon or canonical spelling) into base and modifiers. */
bt_status bt_event_name_parse(const char *name, char *base, size_t base_size, struct bt_event_mods *m,
			 struct bt_diag *d);
/* Canonical spelling of base + modifiers. */
void bt_event_format(char *out, size_t size, const char *base, const struct bt_event_mods *m);
/* perfmon or canonical spelling -> canonical (also reports the markers in *m). */
bt_status bt_event_canonical(const char *name, char *out, size_t size, struct bt_event_mods *m,
			     struct bt_diag *d);
/* A perf-JSON event token (as lexed, backslash escapes still in) -> canonical
 * name: "cpu@EV\,cmask\=0x6@" -> "EV:c6", "cpu_atom@EV@k" -> "EV:SUP",
 * "msr@tsc@" -> "TSC", "power@energy\-pkg@" -> "power@energy-pkg@". */
bt_status bt_event_from_perf(const char *token, char *out, size_t size, struct bt_diag *d);

/* A vendor event file, loaded: encodings by EventName. */
struct bt_event_table {
	size_t n;
	struct bt_event *events;
	const char *files;      /* for messages */
	/* name -> events[] in O(1) (open addressing, index + 1, 0 empty), kept
	 * by the loaders; bt_events_find searches linearly when it does not
	 * cover all n (a table built by hand) */
	uint32_t *slot;
	size_t cap, indexed;
};
/* (Re)builds t's name index in a, after events were added by hand. */
bt_status bt_events_reindex(struct bt_arena *a, struct bt_event_table *t);

/* Appends the events of an Intel perfmon events file (core events). */
bt_status bt_events_load_intel(struct bt_arena *a, const char *path, struct bt_event_table *t,
			       struct bt_diag *d);
/* Appends the events of a Linux perf AMD JSON file (array of EventName/EventCode/UMask). */
bt_status bt_events_load_perf(struct bt_arena *a, const char *path, struct bt_event_table *t,
			      struct bt_diag *d);
const struct bt_event *bt_events_find(const struct bt_event_table *t, const char *name);

/*
 * The full encoding of a canonical event name: pseudo-events (TSC,
 * duration_time, PERF_METRICS.*), uncore/system events (UNC_*, FREERUN_*,
 * pmu@...@ names other than cpu) and core events from the table with the
 * modifiers applied. BT_ERR_NOT_FOUND when a core event is not in the table.
 * ret->name is set to a copy of the canonical name in a.
 */
bt_status bt_event_encode(struct bt_arena *a, const struct bt_event_table *t, const char *canonical,
			  struct bt_event *ret, struct bt_diag *d);

#endif
