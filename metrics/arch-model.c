/* SPDX-License-Identifier: MIT */
/*
 * The architectural Top-Down model (metrics/arch-model.h).
 *
 * Level 1 from the architectural events (SDM vol. 3B, "Pre-defined
 * Architectural Performance Events": 8 Topdown Backend Bound A4H/02H, 9
 * Topdown Bad Speculation 73H/00H, 10 Topdown Frontend Bound 9CH/01H, 11
 * Topdown Retiring C2H/02H), each divided by the slots: SLOTS_PER_CYC x
 * core cycles where CPUID.23H.00H:ECX[7:0] is non-zero, as Intel's E-core
 * models divide by width x CPU_CLK_UNHALTED.CORE, else Topdown Slots
 * (A4H/01H, fixed counter 3) -- except where PERF_METRICS is read: there
 * the slots are always TOPDOWN.SLOTS (below). Bad Speculation is counted where enumerated;
 * else derived as the slots the other three leave, clamped at 0 -- an
 * approximation: a published model's corrections of its own events (e.g.
 * UOP_DROPPING on Golden Cove and later) cannot be applied to these.
 *
 * Where the core has PERF_METRICS, levels 1 and 2 come from its fields with
 * the formulas every published P-core model shares (LNL-LNC, ARL-LNC,
 * MTL-RWC, GNR, SPR: each field over the sum of the four level-1 fields;
 * the second child of each level-1 node as parent minus first child,
 * clamped at 0). The architectural level-1 events the core enumerates are
 * counted beside them, each over TOPDOWN.SLOTS as an Info node
 * ("Arch_Frontend_Bound", ...) that cross-checks its PERF_METRICS node
 * (bt_node_def.cross_check; the rule and its tolerance: rules.c). The
 * denominator is TOPDOWN.SLOTS even where SLOTS_PER_CYC is enumerated:
 * PERF_METRICS' fields are fractions of fixed counter 3 (SDM vol. 3B,
 * "Performance Metrics"), and with SMT a thread's slots are not width x
 * its unhalted cycles when the sibling is busy, so width x cycles would
 * give the two sides different bases and spurious CROSS verdicts. Bad
 * Speculation is cross-checked only where 73H/00H is enumerated: derived
 * from the other three it would repeat their checks, not add one.
 *
 * Thresholds are not the CPU's: they are those of the published models
 * for the same nodes, and the model's source says whose -- LNL-LNC's for
 * the slots-event and PERF_METRICS variants (a P-core's Top-Down), LNL-SKT's
 * for the SLOTS_PER_CYC variant (an E-core's).
 */
#include "metrics/arch-model.h"
#include "base/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"

#define HAS(t, bit) (((t)->events >> (bit)) & 1u)

/* PERF_METRICS is read: at least the 4 level-1 fields, and fixed counter 3
 * (TOPDOWN.SLOTS), the count those fields are fractions of. */
static bool pm_variant(const struct bt_arch_td *t)
{
	return t->perf_metrics_fields >= 4 && ((t->fixed_mask >> 3) & 1);
}

enum bt_arch_slots bt_arch_td_slots(const struct bt_arch_td *t)
{
	if (!t || !t->known)
		return BT_ARCH_SLOTS_NONE;
	/* Where PERF_METRICS is read, everything is over its own base. */
	if (pm_variant(t))
		return BT_ARCH_SLOTS_EVENT;
	if (t->slots_per_cycle && ((t->fixed_mask >> 1) & 1 || HAS(t, BT_ARCH_EV_CORE_CYCLES)))
		return BT_ARCH_SLOTS_PER_CYCLE;
	if ((t->fixed_mask >> 3) & 1 || HAS(t, BT_ARCH_EV_TD_SLOTS))
		return BT_ARCH_SLOTS_EVENT;
	return BT_ARCH_SLOTS_NONE;
}

const char *bt_arch_slots_name(enum bt_arch_slots s)
{
	switch (s) {
	case BT_ARCH_SLOTS_PER_CYCLE: return "SLOTS_PER_CYC x core cycles (fixed counter 1)";
	case BT_ARCH_SLOTS_EVENT: return "Topdown Slots (fixed counter 3 / A4H/01H)";
	case BT_ARCH_SLOTS_NONE: break;
	}
	return "none";
}

/* The three events level 1 cannot do without. */
static const struct { unsigned bit; const char *name; } need[] = {
	{ BT_ARCH_EV_TD_FE_BOUND, "Frontend Bound (bit 10)" },
	{ BT_ARCH_EV_TD_BE_BOUND, "Backend Bound (bit 8)" },
	{ BT_ARCH_EV_TD_RETIRING, "Retiring (bit 11)" },
};

bool bt_arch_td_usable(const struct bt_arch_td *t, char *why, size_t why_len)
{
	if (!t || !t->known) {
		snprintf(why, why_len, "no CPUID facts to decide the architectural Top-Down events");
		return false;
	}
	/* Even with PERF_METRICS (whose fields are not enumerated), ARCH is
	 * for a core that enumerates the level-1 events: they are what says
	 * the core implements the architectural Top-Down accounting. */
	char miss[160] = "";
	size_t n = 0;
	for (size_t i = 0; i < BT_ARRAY_SIZE(need); i++)
		if (!HAS(t, need[i].bit) && n < sizeof(miss))
			n += (size_t)snprintf(miss + n, sizeof(miss) - n, "%s%s", n ? ", " : "",
					      need[i].name);
	if (miss[0]) {
		snprintf(why, why_len, "the CPU does not enumerate the architectural Top-Down "
			 "event%s %s (CPUID.%s = 0x%x)",
			 strchr(miss, ',') ? "s" : "", miss, t->events_23h ? "23H.03H:EAX" :
			 "0AH (available bits)", t->events);
		return false;
	}
	if (bt_arch_td_slots(t) == BT_ARCH_SLOTS_NONE) {
		snprintf(why, why_len, "no slot count: SLOTS_PER_CYC (CPUID.23H.00H:ECX) is 0 and "
			 "neither Topdown Slots nor fixed counter 3 exists");
		return false;
	}
	return true;
}

/* The cycles and instructions events as the published models name and
 * encode them (fixed counters 1 and 0: event code 0, umask = counter + 1,
 * the pseudo-encoding of the fixed counters in Intel's event files). */
static const struct bt_arch_event ev_cycles = { "CPU_CLK_UNHALTED.THREAD", 0x3C, 0x00 };
static const struct bt_arch_event ev_inst = { "INST_RETIRED.ANY", 0xC0, 0x00 };
static const struct bt_arch_event ev_slots_fixed = { "TOPDOWN.SLOTS", 0xA4, 0x01 };

unsigned bt_arch_td_events(const struct bt_arch_td *t, const struct bt_arch_event **out,
			   unsigned max)
{
	unsigned n = 0;
	if (!bt_arch_td_usable(t, NULL, 0))  /* the reason is not wanted here */
		return 0;
#define PUT(e) do { if (n < max) out[n] = (e); n++; } while (0)
	PUT(&ev_inst);
	PUT(&ev_cycles);
	enum bt_arch_slots s = bt_arch_td_slots(t);
	if (s == BT_ARCH_SLOTS_EVENT)
		PUT((t->fixed_mask >> 3) & 1 ? &ev_slots_fixed : bt_arch_event(BT_ARCH_EV_TD_SLOTS));
	/* With PERF_METRICS the events are the cross-checks of its fields. */
	PUT(bt_arch_event(BT_ARCH_EV_TD_FE_BOUND));
	PUT(bt_arch_event(BT_ARCH_EV_TD_BE_BOUND));
	if (HAS(t, BT_ARCH_EV_TD_BAD_SPEC))
		PUT(bt_arch_event(BT_ARCH_EV_TD_BAD_SPEC));
	PUT(bt_arch_event(BT_ARCH_EV_TD_RETIRING));
#undef PUT
	return n;
}

/* The built variants, for the life of the program (models are opened from
 * one thread; see metrics/builtin.c). */
static struct bt_arena arena;
static struct {
	struct bt_arch_td key;
	const struct bt_model_def *def;
} built[16];

static bool same_variant(const struct bt_arch_td *a, const struct bt_arch_td *b)
{
	return a->events == b->events && a->slots_per_cycle == b->slots_per_cycle &&
	       a->fixed_mask == b->fixed_mask && a->perf_metrics_fields == b->perf_metrics_fields &&
	       a->events_23h == b->events_23h;
}

static struct bt_event pmc_event(const struct bt_arch_event *a)
{
	struct bt_event e = { .name = a->name, .source = BT_SRC_PMC, .code = a->code,
			      .umask = a->umask, .fixed = BT_EV_NO_FIXED, .counters = 0xFFFF };
	return e;
}

static struct bt_event fixed_event(const char *name, int fixed)
{
	struct bt_event e = { .name = name, .source = BT_SRC_PMC, .umask = (uint8_t)(fixed + 1),
			      .fixed = (int8_t)fixed };
	return e;
}

/* bt_model_open() looks events up by name in a sorted table. */
static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct bt_event *)a)->name, ((const struct bt_event *)b)->name);
}

static const char *const pm_names[8] = {
	"PERF_METRICS.RETIRING", "PERF_METRICS.BAD_SPECULATION", "PERF_METRICS.FRONTEND_BOUND",
	"PERF_METRICS.BACKEND_BOUND", "PERF_METRICS.HEAVY_OPERATIONS",
	"PERF_METRICS.BRANCH_MISPREDICTS", "PERF_METRICS.FETCH_LATENCY",
	"PERF_METRICS.MEMORY_BOUND",
};

/*
 * The PERF_METRICS variant's tree: the formulas the published P-core models
 * share, each field over the sum of the four level-1 fields, the second
 * child of each level-1 node as parent minus first child, clamped at 0;
 * thresholds as LNL-LNC's. Levels 2 need the 8-field PERF_METRICS; with 4,
 * Retiring's threshold is its own alone (no Heavy_Operations to name).
 */
static const char pm_sum[] = "(PERF_METRICS.FRONTEND_BOUND + PERF_METRICS.BAD_SPECULATION + "
			    "PERF_METRICS.RETIRING + PERF_METRICS.BACKEND_BOUND)";

/* A node is its field over the sum (`minus` NULL), or its parent's field
 * over the sum minus the named field over the sum, clamped at 0. */
static const struct {
	const char *name, *parent;
	uint8_t level;
	const char *field, *minus;
	const char *threshold;
	const char *threshold_4; /* the threshold with 4 fields, where it differs */
} pm_tree[] = {
	{ "Frontend_Bound", NULL, 1, "FRONTEND_BOUND", NULL, "$Frontend_Bound > 15", NULL },
	{ "Fetch_Latency", "Frontend_Bound", 2, "FETCH_LATENCY", NULL,
	  "$Fetch_Latency > 10 and $Frontend_Bound > 15", NULL },
	{ "Fetch_Bandwidth", "Frontend_Bound", 2, "FRONTEND_BOUND", "FETCH_LATENCY",
	  "$Fetch_Bandwidth > 20", NULL },
	{ "Bad_Speculation", NULL, 1, "BAD_SPECULATION", NULL, "$Bad_Speculation > 15", NULL },
	{ "Branch_Mispredicts", "Bad_Speculation", 2, "BRANCH_MISPREDICTS", NULL,
	  "$Branch_Mispredicts > 10 and $Bad_Speculation > 15", NULL },
	{ "Machine_Clears", "Bad_Speculation", 2, "BAD_SPECULATION", "BRANCH_MISPREDICTS",
	  "$Machine_Clears > 10 and $Bad_Speculation > 15", NULL },
	{ "Backend_Bound", NULL, 1, "BACKEND_BOUND", NULL, "$Backend_Bound > 20", NULL },
	{ "Memory_Bound", "Backend_Bound", 2, "MEMORY_BOUND", NULL,
	  "$Memory_Bound > 20 and $Backend_Bound > 20", NULL },
	{ "Core_Bound", "Backend_Bound", 2, "BACKEND_BOUND", "MEMORY_BOUND",
	  "$Core_Bound > 10 and $Backend_Bound > 20", NULL },
	{ "Retiring", NULL, 1, "RETIRING", NULL, "$Retiring > 70 or $Heavy_Operations > 10",
	  "$Retiring > 70" },
	{ "Light_Operations", "Retiring", 2, "RETIRING", "HEAVY_OPERATIONS",
	  "$Light_Operations > 60", NULL },
	{ "Heavy_Operations", "Retiring", 2, "HEAVY_OPERATIONS", NULL, "$Heavy_Operations > 10",
	  NULL },
};

/* The cross-checks of the PERF_METRICS variant: each enumerated level-1
 * event over the slots of fixed counter 3, the same window's slots. */
static const struct { unsigned bit; const char *node, *arch; } pm_cross[] = {
	{ BT_ARCH_EV_TD_FE_BOUND, "Frontend_Bound", "Arch_Frontend_Bound" },
	{ BT_ARCH_EV_TD_BAD_SPEC, "Bad_Speculation", "Arch_Bad_Speculation" },
	{ BT_ARCH_EV_TD_BE_BOUND, "Backend_Bound", "Arch_Backend_Bound" },
	{ BT_ARCH_EV_TD_RETIRING, "Retiring", "Arch_Retiring" },
};

/*
 * The architectural-events variant's level 1: each event over the slots;
 * Bad_Speculation derived where 73H/00H is not enumerated. Thresholds (as
 * fractions): an E-core's published ones (LNL-SKT) where the slots are
 * width x cycles as on Intel's E-cores, a P-core's (LNL-LNC) where they are
 * the Topdown Slots event.
 */
static const struct {
	const char *name;
	unsigned bit;
	const char *thr_ecore, *thr_pcore;
} arch_tree[] = {
	{ "Frontend_Bound", BT_ARCH_EV_TD_FE_BOUND, "$Frontend_Bound > 0.2",
	  "$Frontend_Bound > 0.15" },
	{ "Bad_Speculation", BT_ARCH_EV_TD_BAD_SPEC, "$Bad_Speculation > 0.15",
	  "$Bad_Speculation > 0.15" },
	{ "Backend_Bound", BT_ARCH_EV_TD_BE_BOUND, "$Backend_Bound > 0.1", "$Backend_Bound > 0.2" },
	{ "Retiring", BT_ARCH_EV_TD_RETIRING, "$Retiring > 0.75", "$Retiring > 0.7" },
};

/* The PERF_METRICS variant: its fields, the tree above, the cross-checks. */
static const char *pm_nodes(const struct bt_arch_td *t, struct bt_node_def *nodes, unsigned *nn,
			    struct bt_event *ev, unsigned *ne, const char *slots)
{
	bool l2 = t->perf_metrics_fields >= 8;
	for (unsigned f = 0; f < t->perf_metrics_fields && f < 8; f++)
		ev[(*ne)++] = (struct bt_event){ .name = pm_names[f], .source = BT_SRC_PERF_METRICS,
						  .fixed = BT_EV_NO_FIXED, .pm_field = (uint8_t)f };
	for (size_t k = 0; k < BT_ARRAY_SIZE(pm_tree); k++) {
		if (pm_tree[k].level > 1 && !l2)
			continue;
		const char *f = pm_tree[k].field, *c = pm_tree[k].minus;
		nodes[(*nn)++] = (struct bt_node_def){
			.name = pm_tree[k].name, .parent = pm_tree[k].parent,
			.level = pm_tree[k].level, .kind = BT_NODE_TREE, .percent = 1,
			.formula = c ? bt_arena_printf(&arena, "100 * max(0, PERF_METRICS.%s / %s - "
						       "PERF_METRICS.%s / %s)", f, pm_sum, c, pm_sum)
				     : bt_arena_printf(&arena, "100 * (PERF_METRICS.%s / %s)", f, pm_sum),
			.threshold = !l2 && pm_tree[k].threshold_4 ? pm_tree[k].threshold_4
								   : pm_tree[k].threshold };
	}
	char checked[96] = "";
	size_t cn = 0;
	for (size_t k = 0; k < BT_ARRAY_SIZE(pm_cross); k++) {
		const struct bt_arch_event *a = bt_arch_event(pm_cross[k].bit);
		if (!HAS(t, pm_cross[k].bit))
			continue;
		ev[(*ne)++] = pmc_event(a);
		nodes[*nn] = (struct bt_node_def){
			.name = pm_cross[k].arch, .kind = BT_NODE_INFO,
			.formula = bt_arena_printf(&arena, "%s / %s", a->name, slots),
			.cross_check = pm_cross[k].node };
		(*nn)++;
		if (cn < sizeof(checked))
			cn += (size_t)snprintf(checked + cn, sizeof(checked) - cn, "%s%02XH/%02XH",
					       cn ? ", " : "", a->code, a->umask);
	}
	return bt_arena_printf(&arena, "CPUID-enumerated: PERF_METRICS (%u fields) over "
			       "fixed counter 3, levels 1%s with the formulas the published "
			       "P-core models share; thresholds: LNL-LNC's for the same nodes; "
			       "level 1 cross-checked by the architectural events %s",
			       t->perf_metrics_fields, l2 ? " and 2" : "",
			       checked[0] ? checked : "(none enumerated)");
}

/* The architectural-events variant: the four events over the slots. */
static const char *arch_nodes(const struct bt_arch_td *t, struct bt_node_def *nodes, unsigned *nn,
			      struct bt_event *ev, unsigned *ne, const char *slots)
{
	enum bt_arch_slots s = bt_arch_td_slots(t);
	bool bs_counted = HAS(t, BT_ARCH_EV_TD_BAD_SPEC);
	bool ecore = s == BT_ARCH_SLOTS_PER_CYCLE;
	const char *fe = bt_arch_event(BT_ARCH_EV_TD_FE_BOUND)->name,
		   *be = bt_arch_event(BT_ARCH_EV_TD_BE_BOUND)->name,
		   *ret_ = bt_arch_event(BT_ARCH_EV_TD_RETIRING)->name;

	for (size_t k = 0; k < BT_ARRAY_SIZE(arch_tree); k++) {
		const struct bt_arch_event *a = bt_arch_event(arch_tree[k].bit);
		bool derived = arch_tree[k].bit == BT_ARCH_EV_TD_BAD_SPEC && !bs_counted;
		if (!derived)
			ev[(*ne)++] = pmc_event(a);
		nodes[*nn] = (struct bt_node_def){
			.name = arch_tree[k].name, .level = 1, .kind = BT_NODE_TREE,
			.formula = derived ? bt_arena_printf(&arena, "max(0, %s - %s - %s - %s) / %s",
							     slots, fe, be, ret_, slots)
					   : bt_arena_printf(&arena, "%s / %s", a->name, slots),
			.threshold = ecore ? arch_tree[k].thr_ecore : arch_tree[k].thr_pcore };
		(*nn)++;
	}
	return bt_arena_printf(&arena, "CPUID-enumerated: architectural Top-Down events (%s), "
			       "slots = %s%s; Bad_Speculation %s; thresholds: %s's for the "
			       "same nodes",
			       t->events_23h ? "CPUID.23H.03H" : "CPUID.0AH",
			       ecore ? bt_arena_printf(&arena, "SLOTS_PER_CYC %u x ", t->slots_per_cycle)
				     : "",
			       ecore ? "core cycles (fixed counter 1)" : "Topdown Slots",
			       bs_counted ? "counted (73H/00H)"
					  : "derived, an approximation: slots - Frontend - "
					    "Backend - Retiring, clamped at 0 (no model-specific "
					    "correction such as UOP_DROPPING can be applied)",
			       ecore ? "LNL-SKT" : "LNL-LNC");
}

static bt_status build(const struct bt_arch_td *t, struct bt_model_def **ret, struct bt_diag *d)
{
	struct bt_model_def *m = bt_arena_alloc(&arena, sizeof(*m));
	/* at most 12 tree nodes, 4 cross-checks, IPC, CPI; 3 fixed events, 8
	 * PERF_METRICS fields, 5 architectural events */
	struct bt_node_def *nodes = bt_arena_alloc(&arena, 24 * sizeof(*nodes));
	struct bt_event *ev = bt_arena_alloc(&arena, 24 * sizeof(*ev));
	if (!m || !nodes || !ev) {
		bt_diag_set(d, "model ARCH: out of memory");
		return BT_ERR_NOMEM;
	}
	memset(m, 0, sizeof(*m));
	memset(nodes, 0, 24 * sizeof(*nodes));
	unsigned nn = 0, ne = 0;
	enum bt_arch_slots s = bt_arch_td_slots(t);
	const char *cycles = ev_cycles.name;

	ev[ne++] = fixed_event(ev_inst.name, 0);
	ev[ne++] = fixed_event(cycles, 1);
	const char *slots;
	if (s == BT_ARCH_SLOTS_PER_CYCLE) {
		slots = bt_arena_printf(&arena, "(%u * %s)", t->slots_per_cycle, cycles);
	} else if ((t->fixed_mask >> 3) & 1) {
		ev[ne++] = fixed_event(ev_slots_fixed.name, 3);
		slots = ev_slots_fixed.name;
	} else {
		ev[ne++] = pmc_event(bt_arch_event(BT_ARCH_EV_TD_SLOTS));
		slots = bt_arch_event(BT_ARCH_EV_TD_SLOTS)->name;
	}

	const char *src;
	if (pm_variant(t)) {
		src = pm_nodes(t, nodes, &nn, ev, &ne, slots);
		m->flags = BT_MODEL_PERF_METRICS;
	} else {
		src = arch_nodes(t, nodes, &nn, ev, &ne, slots);
	}
	nodes[nn++] = (struct bt_node_def){
		.name = "IPC", .kind = BT_NODE_INFO,
		.formula = bt_arena_printf(&arena, "INST_RETIRED.ANY / %s", cycles) };
	nodes[nn++] = (struct bt_node_def){
		.name = "CPI", .kind = BT_NODE_INFO,
		.formula = bt_arena_printf(&arena, "%s / INST_RETIRED.ANY", cycles) };
	if (!src) {
		bt_diag_set(d, "model ARCH: out of memory");
		return BT_ERR_NOMEM;
	}
	for (unsigned i = 0; i < nn; i++)
		if (!nodes[i].formula) {
			bt_diag_set(d, "model ARCH: out of memory");
			return BT_ERR_NOMEM;
		}
	qsort(ev, ne, sizeof(ev[0]), by_name);
	m->id = BT_ARCH_MODEL_ID;
	m->vendor = "GenuineIntel";
	m->uarch = BT_ARCH_MODEL_NAME;
	m->source = src;
	/* The width is a CPUID fact (SLOTS_PER_CYC) whatever the slots are
	 * divided by; 0 (no IPC bound) where it is not enumerated. */
	m->pipeline_width = t->slots_per_cycle;
	m->cpi_node = "CPI";
	m->n_nodes = (uint16_t)nn;
	m->nodes = nodes;
	m->n_events = (uint16_t)ne;
	m->events = ev;
	*ret = m;
	return BT_OK;
}

bt_status bt_arch_model(const struct bt_arch_td *t, const struct bt_model_def **ret,
			struct bt_diag *d)
{
	char why[256];
	if (!bt_arch_td_usable(t, why, sizeof(why))) {
		bt_diag_set(d, "model ARCH: %s", why);
		return BT_ERR_UNSUPPORTED;
	}
	size_t i;
	for (i = 0; i < BT_ARRAY_SIZE(built) && built[i].def; i++)
		if (same_variant(&built[i].key, t)) {
			*ret = built[i].def;
			return BT_OK;
		}
	struct bt_model_def *m;
	bt_status st = build(t, &m, d);
	if (st != BT_OK)
		return st;
	if (i < BT_ARRAY_SIZE(built)) {
		built[i].key = *t;
		built[i].def = m;
	}
	*ret = m;
	return BT_OK;
}
