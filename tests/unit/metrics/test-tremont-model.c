/* SPDX-License-Identifier: MIT */
/*
 * TNT, Tremont's level 1 from its model-specific TOPDOWN_* events
 * (metrics/tremont-model.c), against values worked out by hand from chosen
 * counts and the rules: the events and encodings Linux gives Tremont
 * (arch/x86/events/intel/core.c tnt_events_attrs: 71H/00H, C2H/00H,
 * 73H/06H, 74H/00H), each over 4 x CPU_CLK_UNHALTED.CORE, thresholds as
 * ARCH takes them for an E-core (LNL-SKT's: 0.2, 0.15, 0.1, 0.75); and
 * its selection by core lineage (Linux intel-family.h: INTEL_ATOM_TREMONT
 * 6-96, _L 6-9C, _D 6-86), before ARCH and before "none".
 */
#include <math.h>
#include <string.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/model.h"
#include "metrics/select.h"
#include "metrics/tremont-model.h"
#include "tests/unit/lib/test.h"

static const char *const ev[] = { "CPU_CLK_UNHALTED.CORE", "INST_RETIRED.ANY",
	"TOPDOWN_FE_BOUND.ALL", "TOPDOWN_BAD_SPECULATION.ALL", "TOPDOWN_BE_BOUND.ALL",
	"TOPDOWN_RETIRING.ALL" };
#define N_EV (BT_ARRAY_SIZE(ev))

/* Every node's value and flag for counts v (in the order of ev). */
static bool evaluate(const double *v, const char *const *names, double *val, bool *flag,
		     unsigned n)
{
	struct bt_model *m;
	struct bt_diag d = { "" };
	if (bt_model_open(bt_tremont_model(), &m, &d) != BT_OK) {
		printf("# open: %s\n", d.text);
		return false;
	}
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	for (unsigned i = 0; i < N_EV; i++)
		CHECK_MSG(bt_counts_set_event(c, ev[i], v[i]) == BT_OK, "event %s", ev[i]);
	bt_evaluate(m, c, r);
	bool ok = true;
	for (unsigned i = 0; i < n; i++) {
		int k = bt_model_node_find(m, names[i]);
		ok &= k >= 0;
		val[i] = k >= 0 ? r->value[k] : NAN;
		flag[i] = k >= 0 && r->flag[k];
	}
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
	return ok;
}

TEST(the_model_as_linux_and_intel_name_its_events)
{
	const struct bt_model_def *def = bt_tremont_model();
	CHECK_STR(def->id, "TNT");
	CHECK_STR(def->uarch, "Tremont model-specific Top-Down events (Linux core.c)");
	CHECK_EQ_INT(def->pipeline_width, 4);
	CHECK(strstr(def->source, "LNL-SKT's") != NULL);
	CHECK(strstr(def->source, "c2208046bba6") != NULL);
	/* Linux's encodings (core.c td_*_tnt), Intel's names (elkhartlake). */
	static const struct { const char *name; unsigned code, umask; } want[] = {
		{ "TOPDOWN_FE_BOUND.ALL", 0x71, 0x00 },
		{ "TOPDOWN_RETIRING.ALL", 0xC2, 0x00 },
		{ "TOPDOWN_BAD_SPECULATION.ALL", 0x73, 0x06 },
		{ "TOPDOWN_BE_BOUND.ALL", 0x74, 0x00 },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(want); i++) {
		const struct bt_event *e = NULL;
		for (unsigned k = 0; k < def->n_events; k++)
			if (strcmp(def->events[k].name, want[i].name) == 0)
				e = &def->events[k];
		CHECK_MSG(e && e->code == want[i].code && e->umask == want[i].umask &&
			  e->fixed == BT_EV_NO_FIXED && e->counters == 0xF,
			  "%s", want[i].name);
	}
	/* Found by id like a built-in model, whatever the case. */
	CHECK(bt_builtin_find("tnt") == def);
	CHECK(bt_builtin_find("TNT") == def);
}

TEST(level1_worked_out_by_hand)
{
	static const char *const names[] = { "Frontend_Bound", "Bad_Speculation", "Backend_Bound",
		"Retiring", "IPC", "CPI", "Slots_Accounted" };
	double val[7];
	bool flag[7];
	/* 1000 cycles x 4 = 4000 slots: FE 600, BS 1000, BE 1400, RET 1000;
	 * 1200 instructions. */
	const double v[] = { 1000, 1200, 600, 1000, 1400, 1000 };
	CHECK(evaluate(v, names, val, flag, 7));
	CHECK_NEAR(val[0], 0.15, 1e-12, 1e-15);
	CHECK_NEAR(val[1], 0.25, 1e-12, 1e-15);
	CHECK_NEAR(val[2], 0.35, 1e-12, 1e-15);
	CHECK_NEAR(val[3], 0.25, 1e-12, 1e-15);
	CHECK_NEAR(val[4], 1.2, 1e-12, 1e-15);
	CHECK_NEAR(val[5], 1000.0 / 1200, 1e-12, 1e-15);
	CHECK_NEAR(val[6], 1.0, 1e-12, 1e-15);
	/* 0.15 <= 0.2: FE not flagged; BS 0.25 > 0.15, BE 0.35 > 0.1 flagged;
	 * RET 0.25 <= 0.75 not. */
	CHECK(!flag[0] && flag[1] && flag[2] && !flag[3]);

	/* The four short of 4 per cycle (a wrong width would show so): 3000
	 * of 4000 slots accounted; each share still over 4 x cycles. FE 400,
	 * BS 100, BE 2000, RET 500. */
	const double w[] = { 1000, 500, 400, 100, 2000, 500 };
	CHECK(evaluate(w, names, val, flag, 7));
	CHECK_NEAR(val[0], 0.1, 1e-12, 1e-15);
	CHECK_NEAR(val[1], 0.025, 1e-12, 1e-15);
	CHECK_NEAR(val[2], 0.5, 1e-12, 1e-15);
	CHECK_NEAR(val[3], 0.125, 1e-12, 1e-15);
	CHECK_NEAR(val[6], 0.75, 1e-12, 1e-15);
	CHECK(!flag[0] && !flag[1] && flag[2] && !flag[3]);
}

TEST(bottleneck_is_the_largest_flagged_level1_node)
{
	struct bt_model *m;
	struct bt_diag d = { "" };
	CHECK(bt_model_open(bt_tremont_model(), &m, &d) == BT_OK);
	if (!m)
		return;
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	/* 4000 slots: FE 1000 (0.25, > 0.2), BS 700 (0.175, > 0.15), BE 300
	 * (0.075, not > 0.1), RET 2000 (0.5): the path is Frontend_Bound. */
	const double v[] = { 1000, 2000, 1000, 700, 300, 2000 };
	for (unsigned i = 0; i < N_EV; i++)
		bt_counts_set_event(c, ev[i], v[i]);
	bt_evaluate(m, c, r);
	CHECK_EQ_INT(r->path_len, 1);
	if (r->path_len >= 1)
		CHECK_EQ_INT(r->path[0], bt_model_node_find(m, "Frontend_Bound"));
	CHECK_EQ_INT(r->path_largest_share, 0);
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
}

static const char *pick(unsigned family, unsigned model, const struct bt_arch_td *td)
{
	struct bt_cpu_facts f = { .vendor = "GenuineIntel", .family = family, .model = model,
				  .stepping = 1, .arch_td = td };
	const struct bt_model_def *def;
	struct bt_diag d = { "" };
	return bt_model_select(&f, NULL, &def, &d) == BT_OK ? def->id : "none";
}

TEST(selected_by_core_lineage_before_arch)
{
	/* What the Elkhart Lake dump enumerates: 0AH length 7, EBX 0 -> 7Fh,
	 * no leaf 23H, fixed 0-2: no architectural Top-Down events. */
	const struct bt_arch_td ehl = { .known = true, .events = 0x7F, .fixed_mask = 0x7 };
	CHECK_STR(pick(6, 0x96, &ehl), "TNT");   /* Elkhart Lake */
	CHECK_STR(pick(6, 0x9C, &ehl), "TNT");   /* Jasper Lake */
	CHECK_STR(pick(6, 0x86, &ehl), "TNT");   /* Snow Ridge / Jacobsville */
	CHECK_STR(pick(6, 0x96, NULL), "TNT");
	/* Even a Tremont that enumerated the architectural events would keep
	 * its own (lineage comes before ARCH). */
	const struct bt_arch_td rich = { .known = true, .events = 0x1F7F, .events_23h = true,
					 .slots_per_cycle = 4, .fixed_mask = 0x7 };
	CHECK_STR(pick(6, 0x96, &rich), "TNT");
	/* The same model numbers in another family are not Tremont. */
	CHECK_STR(pick(19, 0x96, &ehl), "none");
	/* Goldmont Plus (6-7A), Tremont's predecessor: still none. */
	CHECK_STR(pick(6, 0x7A, &ehl), "none");
	/* Forced by id. */
	struct bt_cpu_facts f = { .vendor = "GenuineIntel", .family = 6, .model = 0x1A };
	const struct bt_model_def *def = NULL;
	struct bt_diag d = { "" };
	CHECK(bt_model_select(&f, "tnt", &def, &d) == BT_OK && def == bt_tremont_model());
	/* and listed where the models are listed */
	CHECK(bt_model_select(&f, NULL, &def, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, " TNT") != NULL);
}
