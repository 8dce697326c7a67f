/* SPDX-License-Identifier: MIT */
/*
 * Retire-latency files (metrics/retire-latency-file.h) and the order of the
 * sources: a value given is never replaced by the file's; the file comes
 * before the published means, which fill only what nothing else gave. The expected numbers are the
 * ones written into the files here.
 */
#include <math.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "metrics/retire-latency-file.h"
#include "tests/unit/lib/test.h"

static int parse(struct bt_arena *a, const char *text, struct bt_rl_file *f, struct bt_diag *d)
{
	return bt_rl_file_parse(a, text, strlen(text), "t.json", f, d) == BT_OK;
}

TEST(intel_layout_and_flat_layout)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_rl_file f;

	/* Intel's layout (graniterapids_retire_latency.json) */
	CHECK(parse(&a, "{\"Platform\": {\"Model\": \"173\"}, \"Data\": {"
			"\"BR_MISP_RETIRED.RET_COST\": {\"MIN\": 9, \"MAX\": 400, \"MEAN\": 27.5},"
			"\"MEM_INST_RETIRED.LOCK_LOADS:retire_latency\": {\"MEAN\": 40}}}", &f, &d));
	CHECK_EQ_INT(f.n, 2);
	CHECK_STR(f.layout, "Intel retire-latency JSON");
	const struct bt_rl_entry *e = bt_rl_file_find(&f, "BR_MISP_RETIRED.RET_COST");
	CHECK(e && e->mean == 27.5 && e->min == 9 && e->max == 400);
	e = bt_rl_file_find(&f, "MEM_INST_RETIRED.LOCK_LOADS");
	CHECK(e && e->mean == 40 && isnan(e->min) && isnan(e->max));
	/* flat, alone or as a count file's member; perf's ":R" spelling */
	CHECK(parse(&a, "{\"BR_MISP_RETIRED.RET_COST:R\": 12}", &f, &d));
	CHECK_STR(f.layout, "flat");
	CHECK(bt_rl_file_find(&f, "BR_MISP_RETIRED.RET_COST")->mean == 12);
	CHECK(parse(&a, "{\"counts\": {}, \"retire_latency\": {\"X\": 3}}", &f, &d));
	CHECK(f.n == 1 && bt_rl_file_find(&f, "X")->mean == 3);
	/* perf's -1 is "not measured", never a latency; nor is a string */
	CHECK(!parse(&a, "{\"X\": -1}", &f, &d));
	CHECK(strstr(d.text, "X") != NULL);
	CHECK(!parse(&a, "{\"Data\": {\"X\": {\"MIN\": 1}}}", &f, &d));
	CHECK(!parse(&a, "{\"X\": \"7\"}", &f, &d));
	CHECK(!parse(&a, "[1, 2]", &f, &d));
	bt_arena_free(&a);
}

TEST(file_before_published_means)
{
	const struct bt_model_def *def = bt_builtin_find("GNR");
	struct bt_model *m;
	struct bt_diag d = { "" };
	struct bt_arena a = { 0 };
	struct bt_rl_file f;
	CHECK(def && bt_model_open(def, &m, &d) == BT_OK);
	if (!def)
		return;
	struct bt_counts *c = bt_counts_new(m);
	unsigned n = bt_model_retire_latency_count(m);
	CHECK(n > 2);
	const char *given = bt_model_retire_latency_name(m, 0), *other = bt_model_retire_latency_name(m, 1);
	char text[512];
	snprintf(text, sizeof(text), "{\"%s\": 1.5, \"%s\": 2.5}", given, other);
	CHECK(parse(&a, text, &f, &d));
	/* given with the counts: kept */
	CHECK(bt_counts_set_retire_latency(c, given, 99) == BT_OK);
	CHECK_EQ_INT(c->retire_latency_source[0], BT_RL_GIVEN);
	/* nothing else: the file fills the other one */
	CHECK_EQ_INT(bt_rl_file_apply(&f, c), 1);
	CHECK(c->retire_latency[0] == 99 && c->retire_latency[1] == 2.5);
	CHECK_EQ_INT(c->retire_latency_source[1], BT_RL_FILE);
	CHECK_STR(bt_rl_source_name(BT_RL_FILE), "file");
	/* the file comes before the published means (a user's own
	 * measurement beats a stand-in): GNR publishes most inputs (not
	 * all); the file gives one it publishes and one it does not, the
	 * published means fill the rest */
	bt_counts_reset(c);
	int ip = -1, iq = -1, ir = -1;
	for (unsigned i = 0; i < n; i++) {
		int pub = !isnan(bt_model_retire_latency_published(m, i));
		if (pub && ip < 0)
			ip = (int)i;
		else if (pub && ir < 0)
			ir = (int)i;
		if (!pub && iq < 0)
			iq = (int)i;
	}
	CHECK(ip >= 0 && iq >= 0 && ir >= 0);
	if (ip < 0 || iq < 0 || ir < 0)
		goto out;
	snprintf(text, sizeof(text), "{\"%s\": 1.5, \"%s\": 2.5}", bt_model_retire_latency_name(m, (unsigned)ip),
		 bt_model_retire_latency_name(m, (unsigned)iq));
	CHECK(parse(&a, text, &f, &d));
	CHECK_EQ_INT(bt_rl_file_apply(&f, c), 2);
	unsigned filled = bt_counts_use_default_retire_latencies(c);
	CHECK(filled > 0 && filled < n - 2);
	CHECK_EQ_INT(c->retire_latency_source[ip], BT_RL_FILE);
	CHECK(c->retire_latency[ip] == 1.5);
	CHECK_EQ_INT(c->retire_latency_source[iq], BT_RL_FILE);
	CHECK(c->retire_latency[iq] == 2.5);
	CHECK_EQ_INT(c->retire_latency_source[ir], BT_RL_PUBLISHED);
	CHECK(c->retire_latency[ir] == bt_model_retire_latency_published(m, (unsigned)ir));
out:
	bt_counts_free(c);
	bt_model_close(m);
	bt_arena_free(&a);
}

/* Issue 33 item 12: every number a latency (0..65535 cycles, what Timed
 * PEBS's 16-bit field can hold), MIN <= MEAN <= MAX, located errors. */
TEST(values_are_cycles_timed_pebs_can_record)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_rl_file f;
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "{\"Data\": {\"X\": {\"MEAN\": 1e999}}}", "t.json:1:25: X \"MEAN\" is 1e999: a number of cycles from 0 to 65535" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 1e300}}}", "t.json:1:25: X \"MEAN\" is 1e300:" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 65536}}}", "X \"MEAN\" is 65536:" },
		{ "{\"X\": 1e999}", "t.json:1:7: X is 1e999:" },
		{ "{\"X\": -0.5}", "X is -0.5:" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 5, \"MIN\": -7}}}", "t.json:1:35: X \"MIN\" is -7:" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 5, \"MAX\": -1e999}}}", "X \"MAX\" is -1e999:" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 5, \"MIN\": \"abc\"}}}", "t.json:1:35: X \"MIN\": not a number of cycles" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 5, \"MAX\": true}}}", "X \"MAX\": not a number of cycles" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 5, \"MIN\": 9, \"MAX\": 100}}}", "t.json:1:16: X: MIN 9, MEAN 5, MAX 100: MIN <= MEAN <= MAX expected" },
		{ "{\"Data\": {\"X\": {\"MEAN\": 50, \"MIN\": 9, \"MAX\": 10}}}", "X: MIN 9, MEAN 50, MAX 10:" },
		{ "{\"Data\": {\"X\": {\"MIN\": 1, \"MAX\": 9}}}", "t.json:1:16: X: no \"MEAN\"" },
		{ "{\"Data\": {\"X\": 7}}", "t.json:1:16: X: an object {\"MEAN\": cycles" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		d.text[0] = 0;
		CHECK_MSG(!parse(&a, bad[i].text, &f, &d), "%s accepted", bad[i].text);
		CHECK_MSG(strstr(d.text, bad[i].msg) != NULL, "%s: %s", bad[i].text, d.text);
	}
	/* the bounds themselves are latencies; MIN == MEAN == MAX is one sample */
	CHECK(parse(&a, "{\"Data\": {\"X\": {\"MEAN\": 65535, \"MIN\": 0, \"MAX\": 65535}}}", &f, &d));
	CHECK(parse(&a, "{\"Data\": {\"X\": {\"MEAN\": 7, \"MIN\": 7, \"MAX\": 7}}}", &f, &d));
	CHECK(parse(&a, "{\"X\": 0}", &f, &d) && f.entries[0].mean == 0);
	bt_arena_free(&a);
}

/* Issue 33 item 3: a name the model does not know is refused with the
 * nearest input; Intel's own published names load (GNR's file lists
 * BR_MISP_RETIRED.*_COST, which GNR's formulas do not use). */
TEST(names_the_model_does_not_know_are_refused)
{
	struct bt_model *gnr, *skl;
	struct bt_diag d = { "" };
	struct bt_arena a = { 0 };
	struct bt_rl_file f;
	CHECK(bt_model_open(bt_builtin_find("GNR"), &gnr, &d) == BT_OK);
	CHECK(bt_model_open(bt_builtin_find("SKL"), &skl, &d) == BT_OK);
	CHECK(parse(&a, "{\"Data\": {\"MEM_LOAD_RETIRED.L3_HIT\": {\"MEAN\": 40},\n"
			"  \"MEM_LOAD_RETIRED.L3HIT\": {\"MEAN\": 41}}}", &f, &d));
	CHECK(bt_rl_file_check(&f, gnr, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "t.json:2:29: MEM_LOAD_RETIRED.L3HIT is not a retire-latency input of model "
			  "GNR (23 inputs, 26 published); did you mean 'MEM_LOAD_RETIRED.L3_HIT'?");
	CHECK(parse(&a, "{\"mem_load_retired.l3_hit:R\": 40}", &f, &d));
	CHECK(bt_rl_file_check(&f, gnr, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "did you mean 'MEM_LOAD_RETIRED.L3_HIT'? (names are case-sensitive)") != NULL);
	/* an input of the formulas, and a published name the formulas do not use */
	CHECK(parse(&a, "{\"MEM_LOAD_RETIRED.L3_HIT:R\": 40, \"BR_MISP_RETIRED.RET_COST\": 9}", &f, &d));
	CHECK_MSG(bt_rl_file_check(&f, gnr, &d) == BT_OK, "%s", d.text);
	/* SKL has no inputs and publishes none: nothing to check against here */
	CHECK(bt_rl_file_check(&f, skl, &d) == BT_OK);
	bt_model_close(gnr);
	bt_model_close(skl);
	bt_arena_free(&a);
}
