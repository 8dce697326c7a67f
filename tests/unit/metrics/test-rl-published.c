/* SPDX-License-Identifier: MIT */
/*
 * Published retire latencies (metrics/rl-published.h) and what each node
 * says it rests on (enum bt_node_latency, metrics/eval-latency.c).
 *
 * The numbers expected here are typed from the publishers' files, not taken
 * from baretop's table: pmu-tools at commit 2568760f (lnl-retlat.json,
 * arl-retlat.json, mtl-retlat.json: "MEAN", "MIN", "MAX" of the events
 * below) and, with ../shared/reference, every entry of Intel's
 * graniterapids_retire_latency.json read here. The node kinds follow from
 * Intel's LNL formulas: L3_Hit_Latency tests its latency (`if rl >= 0 else`
 * the cap), Ret_Mispredicts multiplies by it with no test, Contested_Accesses
 * reads the XSNP_MISS and XSNP_HITM latencies.
 */
#include <math.h>
#include <stdlib.h>

#include "base/json-read.h"
#include "base/array.h"
#include "metrics/builtin.h"
#include "metrics/load.h"
#include "metrics/model.h"
#include "metrics/rl-published.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/vector-walk.h"

static const struct bt_retire_latency_default *published(const struct bt_model_def *def, const char *ev)
{
	for (unsigned i = 0; i < def->n_retire_latency; i++)
		if (!strcmp(def->retire_latency[i].event, ev))
			return &def->retire_latency[i];
	return NULL;
}

TEST(pmu_tools_means_as_published)
{
	static const struct {
		const char *model, *event;
		double mean, min, max; /* -1: the file gives none */
	} want[] = {
		{ "LNL-LNC", "MEM_LOAD_RETIRED.L3_HIT", 7.77, 0, 65535 },
		{ "LNL-LNC", "MEM_LOAD_RETIRED.L2_HIT", 3.12, 0, 65535 },
		{ "LNL-LNC", "BR_MISP_RETIRED.COND_NTAKEN_COST", 6.17, 0, 4347 },
		{ "ARL-LNC", "MEM_LOAD_RETIRED.L3_HIT", 18.1, 0, 4608 },
		{ "ARL-LNC", "BR_MISP_RETIRED.COND_NTAKEN_COST", 6.24, 0, 844 },
		{ "MTL-RWC", "MEM_LOAD_RETIRED.L3_HIT", 30.22, 0, 65535 },
		{ "MTL-RWC", "MEM_LOAD_RETIRED.L2_HIT", 20.0, -1, -1 },
		{ "MTL-RWC", "MEM_INST_RETIRED.SPLIT_LOADS", 29.28, 0, 65535 },
	};
	struct bt_arena a = { 0 };
	for (unsigned k = 0; k < BT_ARRAY_SIZE(want); k++) {
		struct bt_model_def def = { .id = want[k].model };
		CHECK(bt_rl_published_set(&a, &def) == BT_OK);
		const struct bt_retire_latency_default *e = published(&def, want[k].event);
		CHECK_MSG(e != NULL, "%s %s not published", want[k].model, want[k].event);
		if (!e)
			continue;
		/* the double strtod makes of the published decimal, exactly */
		CHECK_MSG(e->cycles == want[k].mean, "%s %s: %.17g", want[k].model, want[k].event, e->cycles);
		CHECK(e->min == want[k].min && e->max == want[k].max);
		CHECK(strstr(def.retire_latency_source, "pmu-tools") != NULL);
	}
	/* a model nobody publishes latencies for has none */
	struct bt_model_def spr = { .id = "SPR" };
	CHECK(bt_rl_published_set(&a, &spr) == BT_OK && spr.n_retire_latency == 0 && !spr.retire_latency);
	bt_arena_free(&a);
}

TEST(intel_file_entry_for_entry)
{
	const char *ref = bt_reference_dir();
	if (!ref) {
		bt_test_skip("../shared/reference is absent: Intel's file cannot be read");
		return;
	}
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	char path[8192];
	snprintf(path, sizeof(path), "%.4000s/intel/GNR/metrics/graniterapids_retire_latency.json", ref);
	struct bt_json *root;
	CHECK(bt_json_load_file(&a, path, &root, &d) == BT_OK);
	const struct bt_json *data = bt_json_get(root, "Data");
	struct bt_model_def def = { .id = "GNR" };
	CHECK(data && bt_rl_published_set(&a, &def) == BT_OK);
	CHECK_EQ_INT(def.n_retire_latency, data ? (int)data->u.obj.n : -1);
	for (size_t i = 0; data && i < data->u.obj.n; i++) {
		const struct bt_json *e = data->u.obj.values[i];
		const struct bt_retire_latency_default *p = published(&def, data->u.obj.keys[i]);
		CHECK_MSG(p && p->cycles == bt_json_get(e, "MEAN")->u.num.value &&
				  p->min == bt_json_get(e, "MIN")->u.num.value &&
				  p->max == bt_json_get(e, "MAX")->u.num.value,
			  "GNR %s", data->u.obj.keys[i]);
	}
	CHECK(strstr(def.retire_latency_source, "graniterapids_retire_latency.json V1.08") != NULL);
	bt_arena_free(&a);
}

/* LNL's P-core with every event counted (distinct counts) and the
 * constants a run gives */
struct lnl {
	struct bt_model *m;
	struct bt_counts *c;
	struct bt_result *r;
};

static int lnl_open(struct lnl *f)
{
	struct bt_diag d = { "" };
	const struct bt_model_def *def = bt_builtin_find("LNL-LNC");
	if (!def || bt_model_open(def, &f->m, &d) != BT_OK)
		return 0;
	f->c = bt_counts_new(f->m);
	f->r = bt_result_new(f->m);
	if (!f->c || !f->r)
		return 0;
	for (unsigned i = 0; i < bt_model_event_count(f->m); i++)
		f->c->events[i] = 1000000 + 7919.0 * i;
	static const struct {
		const char *name;
		double v;
	} k[] = { { "HYPERTHREADING_ON", 0 }, { "THREADS_PER_CORE", 1 }, { "SYSTEM_TSC_FREQ", 3e9 },
		  { "TSC_HZ", 3e9 }, { "DURATIONTIMEINMILLISECONDS", 1000 }, { "SOCKET_COUNT", 1 },
		  { "CORES_PER_SOCKET", 8 }, { "CHAS_PER_SOCKET", 1 }, { "NUM_CPUS", 8 }, { "CORE_WIDE", 1 } };
	for (unsigned i = 0; i < BT_ARRAY_SIZE(k); i++)
		bt_counts_set_constant(f->c, k[i].name, k[i].v);
	return 1;
}

static void lnl_close(struct lnl *f)
{
	bt_result_free(f->r);
	bt_counts_free(f->c);
	bt_model_close(f->m);
}

static int rl_index(const struct bt_model *m, const char *ev)
{
	for (unsigned i = 0; i < bt_model_retire_latency_count(m); i++)
		if (!strcmp(bt_model_retire_latency_name(m, i), ev))
			return (int)i;
	return -1;
}

static uint8_t kind(struct lnl *f, const char *node)
{
	int i = bt_model_node_find(f->m, node);
	return i >= 0 ? f->r->latency[i] : 0xff;
}

TEST(each_node_says_what_it_rests_on)
{
	struct lnl f = { 0 };
	CHECK(lnl_open(&f));
	if (!f.m)
		return;
	/* nothing given: the fallback's cap, or no value */
	CHECK(bt_evaluate(f.m, f.c, f.r) == BT_OK);
	CHECK_EQ_INT(kind(&f, "L3_Hit_Latency"), BT_LAT_CAP);
	CHECK_EQ_INT(kind(&f, "Ret_Mispredicts"), BT_LAT_MISSING);
	CHECK_EQ_INT(kind(&f, "L3_Bound"), BT_LAT_NONE);
	CHECK(f.r->n_latency[BT_LAT_CAP] > 0 && f.r->n_latency[BT_LAT_MISSING] > 0);
	CHECK_STR(bt_node_latency_name(BT_LAT_CAP), "cap");
	/* the published means: every input, every such node */
	unsigned n = bt_counts_use_default_retire_latencies(f.c);
	CHECK_EQ_INT(n, bt_model_retire_latency_count(f.m));
	CHECK(bt_evaluate(f.m, f.c, f.r) == BT_OK);
	CHECK_EQ_INT(kind(&f, "L3_Hit_Latency"), BT_LAT_PUBLISHED);
	CHECK_EQ_INT(kind(&f, "Ret_Mispredicts"), BT_LAT_PUBLISHED);
	CHECK(f.r->n_latency[BT_LAT_CAP] == 0 && f.r->n_latency[BT_LAT_MISSING] == 0 &&
	      f.r->n_latency[BT_LAT_PUBLISHED] > 0);
	/* one of Contested_Accesses' two latencies measured: still the
	 * weakest (published); both measured: measured */
	const char *xsnp[] = { "MEM_LOAD_L3_HIT_RETIRED.XSNP_MISS", "MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM" };
	int reads = 0;
	for (unsigned k = 0; k < 2; k++) {
		int i = rl_index(f.m, xsnp[k]);
		if (i < 0)
			continue;
		reads++;
		f.c->retire_latency[i] = 80;
		f.c->retire_latency_source[i] = BT_RL_MEASURED;
		CHECK(bt_evaluate(f.m, f.c, f.r) == BT_OK);
		CHECK_EQ_INT(kind(&f, "Contested_Accesses"), k < 1 ? BT_LAT_PUBLISHED : BT_LAT_MEASURED);
	}
	CHECK(reads == 2);
	/* the user's file beats a published mean */
	int i3 = rl_index(f.m, "MEM_LOAD_RETIRED.L3_HIT");
	CHECK(i3 >= 0);
	if (i3 < 0) {
		lnl_close(&f);
		return;
	}
	f.c->retire_latency[i3] = 50;
	f.c->retire_latency_source[i3] = BT_RL_FILE;
	CHECK(bt_evaluate(f.m, f.c, f.r) == BT_OK);
	CHECK_EQ_INT(kind(&f, "L3_Hit_Latency"), BT_LAT_FILE);
	lnl_close(&f);
}
