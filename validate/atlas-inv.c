/* SPDX-License-Identifier: MIT */
/*
 * The atlas's invariants: relations that hold whatever an event counts,
 * so they find broken events without knowing their meaning. Each is
 * judged in every kernel window (each kernel at n and 2n) on counts
 * corrected for the empty window, with a tolerance of the counts' spread
 * over the runs plus the window's own cycles (its overhead: the empty
 * window's cycle count) plus one; violated in one window is violated.
 *
 *   cmask<=cycles   a listed event with CMASK >= 1 (with or without INV,
 *                   with E) increments at most once per cycle (SDM vol. 3B
 *                   20.2.1.1, CMASK): count <= unhalted core cycles;
 *   c1<=cycles      the event at CMASK=1 likewise;
 *   c1<=count       a cycle with at least one occurrence adds at least one
 *                   to the event's own count (CMASK 0 counts occurrences):
 *                   the CMASK=1 count is at most the event's;
 *   c1+c1:inv=cycles  CMASK=1 counts the cycles with >= 1 occurrence, and
 *                   with INV those with fewer (0): together every cycle;
 *   edge<=c1        E counts deasserted-to-asserted transitions of the
 *                   same condition: at most one per asserted cycle;
 *   anythread>=thread  AnyThread counts both threads of the core, this
 *                   thread among them;
 *   fixed=arch-event  fixed counters 0, 1 and 3 count what 0xC0/0x00,
 *                   0x3C/0x00 and 0xA4/0x01 (Topdown Slots, where
 *                   enumerated) count (SDM vol. 3B Table 20-2);
 *   within[0,width*cycles]  no event of a core `width` issue slots wide
 *                   counts more than width per cycle. This one is a bound
 *                   of the core's front end and retirement: an event that
 *                   counts per execution port or per byte may exceed it
 *                   on real parts, and the violation then says so.
 *
 * On the simulated PMU an encoding its rules do not model counts 0 in
 * every form, so its invariants are "not checkable" (with that reason),
 * never held or violated by a rule that is not there.
 */
#include <stdlib.h>
#include <string.h>

#include "validate/atlas-internal.h"

struct inv_ctx {
	struct bt_atlas *a;
	int cap;
};

static struct bt_atlas_invariant *add(struct inv_ctx *c, const char *event, const char *inv)
{
	struct bt_atlas *a = c->a;
	if (a->n_inv == c->cap) {
		int cap = c->cap ? 2 * c->cap : 512;
		struct bt_atlas_invariant *v = realloc(a->inv, (size_t)cap * sizeof(*v));
		if (!v)
			return NULL;
		a->inv = v;
		c->cap = cap;
	}
	struct bt_atlas_invariant *r = &a->inv[a->n_inv++];
	memset(r, 0, sizeof(*r));
	r->event = event;
	r->invariant = inv;
	return r;
}

static double spread(const struct bt_atlas_count *c)
{
	return (double)(c->max - c->min);
}

enum rel { LE, EQ_SUM, GE, EQ };

/* Judges x REL y (EQ_SUM: x + x2 = cycles) in every window where all were
 * measured; the first violation's numbers go into r->detail. */
static void judge(struct bt_atlas *a, struct bt_atlas_invariant *r, const struct bt_atlas_probe *x,
		  const struct bt_atlas_probe *x2, const struct bt_atlas_probe *y, enum rel rel,
		  double ymul)
{
	int windows = 0;
	for (int ki = 0; ki < a->n_kernels; ki++)
		for (int si = 0; si < 2; si++) {
			const struct bt_atlas_count *cx = &x->c[ki][si];
			const struct bt_atlas_count *cx2 = x2 ? &x2->c[ki][si] : NULL;
			const struct bt_atlas_count *cy = y ? &y->c[ki][si] : NULL;
			if (!cx->measured || (cx2 && !cx2->measured) || (cy && !cy->measured))
				continue;
			double vx = (double)cx->median, vy = cy ? (double)cy->median : (double)cx->cycles;
			double tol = spread(cx) + (cx2 ? spread(cx2) : 0) +
				     (cy ? spread(cy) : (double)cx->cycles_spread) +
				     (double)cx->cycles_overhead + 1;
			if (x2)
				vx += (double)cx2->median;
			vy *= ymul;
			bool ok = rel == LE ? vx <= vy + tol : rel == GE ? vx + tol >= vy
				: vx >= vy - tol && vx <= vy + tol;
			windows++;
			if (!ok && r->state != BT_INV_VIOLATED) {
				r->state = BT_INV_VIOLATED;
				snprintf(r->detail, sizeof(r->detail), "%s n=%llu: %.0f %s %.0f "
					 "(tolerance %.0f)", a->kernels[ki]->name,
					 (unsigned long long)(a->sizes[ki] * (uint64_t)(si + 1)), vx,
					 rel == LE ? "> bound" : rel == GE ? "< bound" : "!=", vy, tol);
			}
		}
	if (!windows) {
		r->state = BT_INV_NOT_CHECKABLE;
		snprintf(r->detail, sizeof(r->detail), "not counted in any window");
	} else if (r->state != BT_INV_VIOLATED) {
		snprintf(r->detail, sizeof(r->detail), "held in %d window(s)", windows);
	}
}

static const struct bt_atlas_probe *probe_of(const struct bt_atlas_probe *p, int np, int of,
					     enum bt_atlas_probe_kind kind)
{
	for (int i = 0; i < np; i++)
		if (p[i].of == of && p[i].kind == kind)
			return &p[i];
	return NULL;
}

bt_status bt_atlas_judge_invariants(struct bt_atlas *a, const struct bt_atlas_probe *p, int np,
				    unsigned width)
{
	struct inv_ctx c = { a, 0 };
	/* The probes of each list event, found once (np can be thousands). */
	int *first = malloc((size_t)(a->n ? a->n : 1) * sizeof(*first));
	if (!first)
		return BT_ERR_NOMEM;
	for (int i = 0; i < a->n; i++)
		first[i] = -1;
	for (int i = np - 1; i >= 0; i--)
		first[p[i].of] = i;

	for (int i = 0; i < a->n; i++) {
		const struct bt_atlas_result *r = &a->res[i];
		const char *name = a->list->v[i].name;
		if (r->cls == BT_ATLAS_REFUSED || first[i] < 0)
			continue;
		/* This event's probes are contiguous from first[i]. */
		const struct bt_atlas_probe *base = &p[first[i]];
		int nb = 0;
		while (first[i] + nb < np && p[first[i] + nb].of == i)
			nb++;
		const struct bt_atlas_probe *lst = probe_of(base, nb, i, BT_PROBE_LIST);
		const struct bt_atlas_probe *c1 = probe_of(base, nb, i, BT_PROBE_C1);
		const struct bt_atlas_probe *ci = probe_of(base, nb, i, BT_PROBE_C1_INV);
		const struct bt_atlas_probe *ce = probe_of(base, nb, i, BT_PROBE_C1_EDGE);
		const struct bt_atlas_probe *na = probe_of(base, nb, i, BT_PROBE_NO_ANY);
		const struct bt_atlas_probe *al = probe_of(base, nb, i, BT_PROBE_ALIAS_GP);
		const struct bt_event *ev = &a->list->v[i].ev;
		bool nm = r->cls == BT_ATLAS_NOT_MODELLED;
		struct bt_atlas_invariant *v;
#define INV(id, ...)                                                                         \
	do {                                                                                 \
		if (!(v = add(&c, name, id))) {                                              \
			free(first);                                                         \
			return BT_ERR_NOMEM;                                                 \
		}                                                                            \
		if (nm) {                                                                    \
			v->state = BT_INV_NOT_CHECKABLE;                                     \
			snprintf(v->detail, sizeof(v->detail),                               \
				 "not modelled by the simulated PMU (it counts 0 in every form)"); \
		} else {                                                                     \
			judge(a, v, __VA_ARGS__);                                            \
		}                                                                            \
	} while (0)
		if (lst && (ev->cmask || (ev->flags & BT_EVF_EDGE)))
			INV("cmask<=cycles", lst, NULL, NULL, LE, 1);
		if (c1 && ci && ce) {
			INV("c1<=cycles", c1, NULL, NULL, LE, 1);
			if (lst)
				INV("c1<=count", c1, NULL, lst, LE, 1);
			INV("c1+c1:inv=cycles", c1, ci, NULL, EQ_SUM, 1);
			INV("edge<=c1", ce, NULL, c1, LE, 1);
		}
		if (lst && na)
			INV("anythread>=thread", lst, NULL, na, GE, 1);
		if (lst && al)
			INV("fixed=arch-event", lst, NULL, al, EQ, 1);
		if (lst)
			INV("within[0,width*cycles]", lst, NULL, NULL, LE, (double)width);
#undef INV
	}
	free(first);
	for (int i = 0; i < a->n_inv; i++) {
		a->inv_run += a->inv[i].state != BT_INV_NOT_CHECKABLE;
		a->inv_violated += a->inv[i].state == BT_INV_VIOLATED;
		a->inv_not_checkable += a->inv[i].state == BT_INV_NOT_CHECKABLE;
	}
	return BT_OK;
}
