/* SPDX-License-Identifier: MIT */
/*
 * The event atlas (--atlas, `baretop-host atlas`): every event of a part's
 * event list counted over the known-count kernels at two sizes (n, 2n) and
 * the empty window, in counter groups the planner makes at its lower bound
 * (pmu/plan.h), measured by the engine --validate uses (pmu/measure.h: the
 * window calibrated around kernel `empty`, warm-ups, repetitions). Each
 * event gets a class (zero, constant, linear with its slope and the
 * declared count it equals, nonlinear, noisy, refused with the reason,
 * "not modelled" on the simulated PMU), and invariants that hold whatever
 * an event counts are checked on derived encodings of it (CMASK=1, INV, E;
 * SDM vol. 3B 20.2.1.1): each violation names the event and the invariant.
 *
 * atlas-list.c reads the list (untrusted input), atlas.c plans, measures
 * and classifies, atlas-inv.c judges the invariants, atlas-out.c writes
 * the JSON, the console summary and the validation spec generated from it.
 */
#ifndef VALIDATE_ATLAS_H
#define VALIDATE_ATLAS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/event.h"
#include "base/json-write.h"
#include "base/status.h"
#include "arch/arch.h"
#include "kernels/kernel.h"
#include "pmu/cpu-info.h"

/* ------------------------------------------------------------ the list */

struct bt_atlas_event {
	const char *name;          /* as the list spells it */
	struct bt_event ev;        /* encoded exactly as the list says */
	bool deprecated;           /* "Deprecated": "1" (still counted) */
	const char *refused;       /* NULL: counted; else why not */
};

struct bt_atlas_list {
	struct bt_arena arena;
	const char *file;          /* where it came from */
	const char *format;        /* "intel-perfmon", "linux-perf-intel" or "linux-perf-amd" */
	const char *version;       /* the list's Header.Version, or NULL */
	int n;
	struct bt_atlas_event *v;
};

/* Reads an event list: Intel's perfmon events JSON for the core ({"Header":
 * ..., "Events": [...]}) or a Linux perf JSON array (Intel's when an event
 * names its "Counter", else AMD's). The file is
 * untrusted: a malformed field is BT_ERR_INVALID with file:line:col (exit
 * 2). Events are refused by name with the reason where the atlas cannot
 * count them as the list encodes them (an extra MSR: MSRIndex/MSRValue;
 * no counter listed). */
bt_status bt_atlas_list_load(const char *path, struct bt_atlas_list *l, struct bt_diag *d);
void bt_atlas_list_free(struct bt_atlas_list *l);
/* Why the atlas does not count e as the list encodes it (an extra MSR, no
 * counter), or NULL: the one rule for read and built-in lists. */
const char *bt_atlas_refusal(struct bt_arena *a, const struct bt_event *e);
/* The built-in list (atlas-builtin.c): the part's full core list where one
 * is built in for model_id (a metrics/recipes.c id; validate/atlas-pack.h,
 * the same list bt_atlas_list_load reads from the file it was generated
 * from), else Intel's architectural events the core enumerates and its
 * fixed counters, or AMD's six core events every family 17h+ part has.
 * model_id may be NULL. Other parts' lists come from --events-file. */
bt_status bt_atlas_list_builtin(const char *model_id, const struct bt_pmu_caps *caps,
				struct bt_atlas_list *l, struct bt_diag *d);
/* The model ids with a built-in full list, ", "-separated (for --help). */
const char *bt_atlas_builtin_parts(void);

/* ------------------------------------------------------------ a run */

enum bt_atlas_class {
	BT_ATLAS_ZERO = 0,         /* 0 in every window */
	BT_ATLAS_CONSTANT,         /* the same in the empty window and both sizes */
	BT_ATLAS_LINEAR,           /* count(2n) - count(n) = count(n) - count(0) */
	BT_ATLAS_NONLINEAR,        /* grows with n, not in proportion */
	BT_ATLAS_NOISY,            /* spread above the threshold */
	BT_ATLAS_REFUSED,          /* not counted: why */
	BT_ATLAS_NOT_MODELLED,     /* simulated PMU: its rules do not model it */
	BT_ATLAS_NOT_MEASURED,     /* the budget or the PMU left it out: why */
};

const char *bt_atlas_class_name(enum bt_atlas_class c);

enum bt_atlas_inv_state { BT_INV_HELD = 0, BT_INV_VIOLATED, BT_INV_NOT_CHECKABLE };
const char *bt_atlas_inv_state_name(enum bt_atlas_inv_state s);

/* A kernel window's figures of one encoding (corrected: minus the empty
 * window; overhead is the empty window's own count). */
struct bt_atlas_count {
	bool measured;
	bool clamped;
	uint64_t median, min, max, overhead;
	uint64_t cycles, cycles_spread, cycles_overhead; /* the same measurement's cycles */
};

#define BT_ATLAS_MAX_KERNELS 8
#define BT_ATLAS_MAX_MATCH 8 /* call-ret: calls, returns, loads, stores all 1 per iteration */

struct bt_atlas_kernel_result {
	uint8_t cls;               /* enum bt_atlas_class */
	double slope;              /* per kernel unit (linear) */
	double intercept;          /* count(n) - slope * n, corrected */
	const char *matches[BT_ATLAS_MAX_MATCH]; /* declared counts it equals */
	int n_matches;
};

struct bt_atlas_result {
	const struct bt_atlas_event *e;
	uint8_t cls;
	double slope;
	double intercept;
	const char *slope_kernel;  /* the kernel the slope is per unit of */
	const char *matches[BT_ATLAS_MAX_MATCH];
	int n_matches;
	char why[200];
	struct bt_atlas_kernel_result k[BT_ATLAS_MAX_KERNELS];
};

struct bt_atlas_invariant {
	const char *event;         /* the list's name */
	const char *invariant;     /* "c1<=cycles", ... (atlas-inv.c) */
	uint8_t state;             /* enum bt_atlas_inv_state */
	char detail[200];
};

struct bt_atlas_opts {
	bool quick;                /* kernels' quick sizes, the quick kernel set */
	unsigned reps, warmups;
	bool mask_interrupts;
	unsigned width;            /* issue slots per cycle (model); 0: 8 */
	struct bt_kernel_cpu kcpu;
	/* The simulated PMU (NULL on hardware): takes each kernel's model
	 * before it is measured, and says which encodings it models. */
	void (*prepare)(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st);
	bool (*models)(void *ctx, const struct bt_event *e);
	void *sim_ctx;
	/* The wall clock (the platform's arch, also under --sim) and its
	 * TSC rate: the estimate, the time taken and --budget. */
	struct bt_arch *clock;
	uint64_t tsc_hz;
	uint64_t budget_ticks;     /* 0: no budget */
	FILE *out;                 /* progress and the estimate (NULL: silent) */
};

void bt_atlas_opts_defaults(struct bt_atlas_opts *o);

struct bt_atlas {
	const struct bt_atlas_list *list;
	bool simulated;
	const char *pmu;           /* what counted it */
	int n;                     /* = list->n */
	struct bt_atlas_result *res;
	int n_inv;
	struct bt_atlas_invariant *inv;
	const struct bt_kernel *kernels[BT_ATLAS_MAX_KERNELS];
	uint64_t sizes[BT_ATLAS_MAX_KERNELS];
	int n_kernels;
	/* Cost: groups and windows, planned (the lower bound) and run. */
	int encodings;             /* distinct probes planned (list + derived) */
	int batches;               /* planner calls (BT_PLAN_MAX_EVENTS each) */
	int groups, lower_bound;   /* summed over the batches */
	uint64_t windows_lower_bound, windows_planned, windows_run;
	double est_seconds, seconds;
	/* The estimate's parts (atlas.c "The estimate"), and the time each
	 * kernel's windows took (its setups, measurements and teardowns). */
	double est_runs_s, est_calib_s, est_window_s, est_session_s, est_setup_s;
	double est_window_us;      /* one window's programming and reading */
	double est_kernel_s[BT_ATLAS_MAX_KERNELS], took_kernel_s[BT_ATLAS_MAX_KERNELS];
	bool budget_cut;
	unsigned reps, warmups, calib_runs;
	int counts[BT_ATLAS_NOT_MEASURED + 1];
	int inv_run, inv_violated, inv_not_checkable;
	struct bt_arena *names;    /* the derived encodings' names */
};

/* Counts every event of l on pmu. BT_OK even when events were refused or
 * invariants violated (they are results); an error only when nothing can
 * go on (out of memory). */
bt_status bt_atlas_run(const struct bt_pmu *pmu, const struct bt_atlas_list *l,
		       const struct bt_atlas_opts *o, struct bt_atlas *ret, struct bt_diag *d);
void bt_atlas_free(struct bt_atlas *a);

/* atlas-inv.c: the invariants over the probes' counts (called by
 * bt_atlas_run). */
struct bt_atlas_probe;
bt_status bt_atlas_judge_invariants(struct bt_atlas *a, const struct bt_atlas_probe *p, int np,
				    unsigned width);

/* atlas-out.c */
void bt_atlas_print(FILE *f, const struct bt_atlas *a);
/* The "atlas" object (results file and `baretop-host atlas --json`). */
void bt_atlas_json(struct bt_jw *j, const char *key, const struct bt_atlas *a);
/* A validation spec (docs/validate-spec.md) of every linear event: its
 * encoding, the kernel, and the slope (the declared count it matched, or
 * SLOPE*n), so the next run can be validated against this one. */
/* Written whole or not at all, and never over an existing file (an earlier
 * atlas's spec is what a later boot is validated against): PATH.tmp, then
 * renamed with rename_noreplace (the platform's; NULL: the C library's
 * rename after a check that PATH does not exist). */
bt_status bt_atlas_write_spec(const struct bt_atlas *a, const char *path,
			      int (*rename_noreplace)(const char *from, const char *to),
			      struct bt_diag *d);
/* The event as raw perf syntax (pmu/event-parse.c reads it back), with
 * name=LIST_NAME. */
void bt_atlas_raw_event(const struct bt_event *e, const char *name, char *buf, size_t len);

#endif
