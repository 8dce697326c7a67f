/* SPDX-License-Identifier: MIT */
/*
 * Validation specs: what to check, as data (docs/validate-spec.md). A spec
 * is a JSON document
 *
 *   { "format": "baretop-validate-spec", "checks": [ ENTRY, ... ] }
 *
 * and each ENTRY names an event (raw, in perf syntax, or a name of the
 * model's event list), a known-count kernel with its size, and what the
 * event must count there. The built-in specs (builtin-spec.c) are the same
 * structure, made in code. Every error names the file, the entry's index
 * and the field ("spec.json: checks[3] (line 12): \"expect\": ...").
 */
#ifndef VALIDATE_SPEC_H
#define VALIDATE_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

#define BT_VSPEC_TEXT 160
/* A bound against a hostile file, above the atlas's spec of any part's
 * full core list (an SPR list has about 1,200 events, some 600 of them
 * linear): docs/validate-spec.md. */
#define BT_VSPEC_MAX_ENTRIES 4096

enum bt_vexpect_kind {
	BT_VEXP_EXACT,      /* measured = expr (within tolerance_pct) */
	BT_VEXP_RANGE,      /* lo <= measured <= hi */
	BT_VEXP_RELATION,   /* measured = k * other event (within tol_pct) */
	BT_VEXP_LE,         /* measured <= k * other event */
};

struct bt_vspec_entry {
	int index;                      /* position in "checks" */
	uint32_t line;                  /* of the entry in its file (0: built in) */
	char event[BT_VSPEC_TEXT];      /* raw perf syntax or a model event name */
	char kernel[32];
	uint64_t n, n_quick;            /* 0: the kernel's default / quick size */
	enum bt_vexpect_kind kind;
	char expr[2][BT_VSPEC_TEXT];    /* EXACT: [0]; RANGE: [0] lo, [1] hi */
	char of[BT_VSPEC_TEXT];         /* RELATION / LE: the other event */
	double k;                       /* RELATION / LE factor (default 1) */
	double tolerance_pct;           /* PASS within this (default 0) */
	double warn_pct;                /* WARN within this (>= tolerance_pct) */
	bool plausibility;              /* only a plausibility bound: said so in the report */
	char note[120];
};

struct bt_vspec {
	char file[128];                 /* where it came from ("built-in ..." for ours) */
	int n;
	struct bt_vspec_entry *v;       /* malloc'd */
};

void bt_vspec_init(struct bt_vspec *s, const char *file);
void bt_vspec_free(struct bt_vspec *s);
bt_status bt_vspec_add(struct bt_vspec *s, const struct bt_vspec_entry *e);

/* Parses a spec document text[0..len) named `file` in messages, appending
 * its entries to s. BT_ERR_INVALID with a located message on any error
 * (nothing is appended then). */
bt_status bt_vspec_parse(const char *text, size_t len, const char *file, struct bt_vspec *s,
			 struct bt_diag *d);
/* Reads the file (stdio: hosted, or the ESP through newlib) and parses it. */
bt_status bt_vspec_load(const char *path, struct bt_vspec *s, struct bt_diag *d);

/* "exact k.cond", "range 0.25*k.random_cond .. 0.75*k.random_cond", ... */
void bt_vspec_expected_text(const struct bt_vspec_entry *e, char *buf, size_t len);

#endif
