/* SPDX-License-Identifier: MIT */
/* The host-side report's pieces: HTML escaping, stacked-bar geometry, the
 * diff verdict, reading a results document back and a node's spread. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/html-escape.h"
#include "analysis/page.h"
#include "analysis/results-diff.h"
#include "analysis/svg-bar.h"
#include "tests/unit/lib/test.h"

static char *escaped(const char *s)
{
	static char out[512];
	struct bt_strbuf sb = { 0 };
	bt_html_escape(&sb, s);
	snprintf(out, sizeof(out), "%s", bt_sb_str(&sb));
	bt_sb_free(&sb);
	return out;
}

TEST(html_escape_hostile_names)
{
	CHECK_STR(escaped("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
	CHECK_STR(escaped("a&b \"q\" 'x'"), "a&amp;b &quot;q&quot; &#39;x&#39;");
	CHECK_STR(escaped("&amp;"), "&amp;amp;");
	CHECK_STR(escaped("tab\there\nnl"), "tab\there\nnl");
	CHECK_STR(escaped("bell\a del\x7f"), "bell&#xFFFD; del&#xFFFD;");
	CHECK_STR(escaped("Frontend_Bound"), "Frontend_Bound");
	CHECK_STR(escaped(""), "");
	struct bt_strbuf sb = { 0 };
	bt_html_escape(&sb, NULL);
	CHECK(sb.n == 0);
	bt_html_printf(&sb, "%s=%d", "<a>", 5);
	CHECK_STR(bt_sb_str(&sb), "&lt;a&gt;=5");
	bt_sb_free(&sb);
}

/* The segments tile the bar: contiguous, lengths summing to the bar, shares to 1. */
static void check_tiles(const double *v, int n, double start, double len)
{
	struct bt_bar_seg seg[8];
	double total = bt_bar_layout(v, n, start, len, seg), sum = 0, shares = 0, want = 0;
	for (int i = 0; i < n; i++)
		want += isnan(v[i]) || v[i] < 0 ? 0 : v[i];
	CHECK_NEAR(total, want, 1e-12, 0);
	for (int i = 0; i < n; i++) {
		CHECK(seg[i].len >= 0);
		CHECK_NEAR(seg[i].start, i ? seg[i - 1].start + seg[i - 1].len : start, 1e-12, 1e-12);
		sum += seg[i].len;
		shares += seg[i].share;
		if (total > 0 && !(isnan(v[i]) || v[i] < 0))
			CHECK_NEAR(seg[i].len, len * v[i] / total, 1e-9, 1e-9);
	}
	if (total > 0) {
		CHECK_NEAR(sum, len, 1e-12, 0);
		CHECK_NEAR(seg[n - 1].start + seg[n - 1].len, start + len, 1e-15, 0); /* the last is pinned */
		CHECK_NEAR(shares, 1, 1e-12, 0);
	} else {
		CHECK(sum == 0 && shares == 0);
	}
}

TEST(svg_bar_sums_to_100_percent)
{
	const double skl[4] = { 0.02, 0.005, 0.92, 0.055 };  /* multiply1 on the simulated SKL */
	check_tiles(skl, 4, 10, 980);
	const double off[4] = { 0.1, 0.2, 0.3, 0.39 };       /* level 1 summing to 99 % */
	check_tiles(off, 4, 0, 100);
	const double bad[5] = { NAN, -0.2, 0.5, 0, 0.25 };   /* NaN and negative count as 0 */
	check_tiles(bad, 5, 3, 700);
	struct bt_bar_seg seg[5];
	bt_bar_layout(bad, 5, 3, 700, seg);
	CHECK(seg[0].len == 0 && seg[1].len == 0 && seg[3].len == 0);
	CHECK_NEAR(seg[2].len, 700 * 2.0 / 3, 1e-12, 0);
	const double zero[3] = { 0, 0, NAN };
	check_tiles(zero, 3, 0, 100);
	srand(7);
	for (int k = 0; k < 2000; k++) {
		double v[6];
		for (int i = 0; i < 6; i++)
			v[i] = rand() % 4 == 0 ? 0 : (double)rand() / RAND_MAX * pow(10, rand() % 7 - 3);
		check_tiles(v, 1 + k % 6, (double)(k % 13), 1 + k % 997);
	}
}

TEST(diff_classification)
{
	/* equal, to within 1e-12 relative */
	CHECK(bt_diff_classify(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, true) == BT_DIFF_SAME);
	CHECK(bt_diff_classify(0.5, 0.4, 0.6, 0.5 + 1e-14, 0.5, 0.5, true) == BT_DIFF_SAME);
	/* no spread: any real difference is beyond it */
	CHECK(bt_diff_classify(0.46, 0.46, 0.46, 0.30, 0.30, 0.30, true) == BT_DIFF_BEYOND);
	CHECK(bt_diff_classify(0.46, 0.46, 0.46, 0.46 + 1e-9, 0.46 + 1e-9, 0.46 + 1e-9, true) == BT_DIFF_BEYOND);
	/* each median outside the other's range */
	CHECK(bt_diff_classify(0.40, 0.38, 0.42, 0.50, 0.47, 0.53, true) == BT_DIFF_BEYOND);
	/* ranges overlap, but each value is outside the other range: still beyond */
	CHECK(bt_diff_classify(0.40, 0.35, 0.46, 0.50, 0.45, 0.55, true) == BT_DIFF_BEYOND);
	/* B's value inside A's range: within */
	CHECK(bt_diff_classify(0.40, 0.35, 0.52, 0.50, 0.49, 0.51, true) == BT_DIFF_WITHIN);
	/* A's value inside B's range: within */
	CHECK(bt_diff_classify(0.40, 0.39, 0.41, 0.50, 0.30, 0.60, true) == BT_DIFF_WITHIN);
	/* a value on the edge of the other's range is inside it */
	CHECK(bt_diff_classify(0.40, 0.40, 0.40, 0.50, 0.40, 0.50, true) == BT_DIFF_WITHIN);
	/* no spread known: not judged; NaN bounds stand for the value */
	CHECK(bt_diff_classify(0.40, 0.40, 0.40, 0.50, 0.50, 0.50, false) == BT_DIFF_UNJUDGED);
	CHECK(bt_diff_classify(0.40, NAN, NAN, 0.50, NAN, NAN, true) == BT_DIFF_BEYOND);
	/* one side only, neither */
	CHECK(bt_diff_classify(0.40, 0.4, 0.4, NAN, NAN, NAN, true) == BT_DIFF_ONLY_A);
	CHECK(bt_diff_classify(NAN, NAN, NAN, 0.1, 0.1, 0.1, true) == BT_DIFF_ONLY_B);
	CHECK(bt_diff_classify(NAN, NAN, NAN, NAN, NAN, NAN, true) == BT_DIFF_NEITHER);
	CHECK_STR(bt_diff_class_name(BT_DIFF_BEYOND), "beyond spread");
}

/* A results document by hand: SKL's Store_Bound is
 * EXE_ACTIVITY.BOUND_ON_STORES / CPU_CLK_UNHALTED.THREAD (skylake_metrics.json),
 * so its spread is exactly the event's min and max over the clocks. */
static const char doc_text[] =
	"{\"format\": \"baretop-results\", \"simulated\": true, \"cpu\": {\"brand\": \"b\"},"
	" \"run\": {\"counting\": {\"model\": \"SKL\", \"model_source\": \"x TmaVersion 5.01\","
	"   \"pmu\": \"sim\", \"tolerance\": 0.001},"
	"  \"workloads\": ["
	"   {\"name\": \"w\", \"cpu\": 0, \"params\": \"<p>\", \"counted\": {"
	"     \"events\": {\"CPU_CLK_UNHALTED.THREAD\": {\"median\": 1000, \"min\": 1000, \"max\": 1000, \"group\": -1},"
	"                \"EXE_ACTIVITY.BOUND_ON_STORES\": {\"median\": 100, \"min\": 80, \"max\": 130, \"group\": 0}},"
	"     \"constants\": {\"HYPERTHREADING_ON\": 0},"
	"     \"tree\": {\"model\": \"SKL\", \"cpi\": 2, \"bottleneck_path\": [\"Backend_Bound\"], \"nodes\": {"
	"       \"Backend_Bound\": {\"value\": null, \"kind\": \"tree\", \"level\": 1, \"parent\": null, \"thresh\": false, \"state\": \"missing\"},"
	"       \"Memory_Bound\": {\"value\": null, \"kind\": \"tree\", \"level\": 2, \"parent\": \"Backend_Bound\", \"state\": \"missing\"},"
	"       \"Store_Bound\": {\"value\": 0.1, \"kind\": \"tree\", \"level\": 3, \"parent\": \"Memory_Bound\", \"state\": \"ok\"},"
	"       \"Info_Thread_CPI\": {\"value\": 2, \"kind\": \"info\", \"level\": 0, \"parent\": null}}}}},"
	"   {\"name\": \"w\", \"cpu\": 1, \"counted\": null}]}}";

TEST(results_doc_and_node_spread)
{
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_json *root;
	struct bt_results_doc doc;
	bt_arena_init(&a);
	CHECK(bt_json_parse(&a, doc_text, sizeof(doc_text) - 1, "t", &root, &d) == BT_OK);
	CHECK(bt_results_doc_from_json(&a, "t.json", root, &doc, &d) == BT_OK);
	CHECK(doc.simulated);
	CHECK_EQ_INT(doc.n_workloads, 2);
	CHECK_EQ_INT(doc.n_counted, 1);
	CHECK_STR(doc.workloads[0].label, "w@cpu0");  /* the name repeats: told apart by CPU */
	CHECK_STR(bt_results_tma_version(&a, doc.model_source), "5.01");
	CHECK(bt_results_doc_counted(&doc, NULL, &d) == &doc.workloads[0]);
	CHECK(bt_results_doc_counted(&doc, "w@cpu0", &d) == &doc.workloads[0]);
	CHECK(bt_results_doc_counted(&doc, "nope", &d) == NULL);
	struct bt_view v;
	CHECK(bt_view_build(&a, &doc, &doc.workloads[0], &v, &d) == BT_OK);
	CHECK_EQ_INT(v.n_nodes, 3);                    /* tree nodes only, depth first */
	CHECK_STR(v.nodes[2].name, "Store_Bound");
	CHECK(v.nodes[0].on_path && !v.nodes[2].on_path);
	CHECK(v.nodes[2].category == BT_L1_BACKEND);
	CHECK_MSG(v.spread_known, "%s", v.spread_note);
	CHECK_NEAR(v.nodes[2].lo, 0.08, 1e-15, 0);
	CHECK_NEAR(v.nodes[2].hi, 0.13, 1e-15, 0);
	CHECK(!bt_page_listed(&v.nodes[1]) && bt_page_listed(&v.nodes[2]));
	CHECK_EQ_INT(bt_page_unlisted(&v), 2);

	/* a diff of the document with a copy whose Store_Bound moved inside
	 * and then outside the spread */
	struct bt_view v2 = v;
	struct bt_view_node nodes2[3];
	memcpy(nodes2, v.nodes, sizeof(nodes2));
	v2.nodes = nodes2;
	struct bt_diff df;
	nodes2[2].value = 0.12, nodes2[2].lo = 0.10, nodes2[2].hi = 0.14;
	CHECK(bt_diff_build(&a, &v, 1, &v2, 1, &df) == BT_OK);
	CHECK_STR(df.rows[0].node, "Store_Bound");     /* the largest |B - A| first */
	CHECK(df.rows[0].cls == BT_DIFF_WITHIN);
	CHECK_EQ_INT(df.n_class[BT_DIFF_SAME], 0);
	CHECK_EQ_INT(df.n_class[BT_DIFF_NEITHER], 2);
	nodes2[2].value = 0.2, nodes2[2].lo = 0.16, nodes2[2].hi = 0.26;
	CHECK(bt_diff_build(&a, &v, 1, &v2, 1, &df) == BT_OK);
	CHECK(df.rows[0].cls == BT_DIFF_BEYOND);
	CHECK_NEAR(df.rows[0].delta, 0.1, 1e-12, 0);

	/* the page in its three formats says SIMULATED and escapes the file's strings */
	struct bt_page p = { .docs = &doc, .n_docs = 1, .views = &v, .n_views = 1 };
	struct bt_strbuf h = { 0 }, t = { 0 }, c = { 0 };
	bt_page_html(&h, &p);
	bt_page_text(&t, &p);
	bt_page_csv(&c, &p);
	CHECK(strstr(bt_sb_str(&h), "SIMULATED &mdash; not measured on hardware") != NULL);
	CHECK(strstr(bt_sb_str(&h), "default-src 'none'; style-src 'unsafe-inline'") != NULL);
	CHECK(strstr(bt_sb_str(&h), "&lt;p&gt;") != NULL && !strstr(bt_sb_str(&h), "<p>"));
	CHECK(strstr(bt_sb_str(&t), "SIMULATED") != NULL);
	CHECK(strstr(bt_sb_str(&c), "provenance,t.json,,SIMULATED,") != NULL);
	CHECK(strstr(bt_sb_str(&c), "node,t.json,w@cpu0,Store_Bound,3,0.10000000000000001,0.080000000000000002,") != NULL);
	bt_sb_free(&h);
	bt_sb_free(&t);
	bt_sb_free(&c);
	bt_arena_free(&a);
}

/* A file whose tree the model does not reproduce from its medians gets
 * no spread (it would be measured around another tree). */
TEST(spread_needs_the_files_own_values)
{
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_json *root;
	struct bt_results_doc doc;
	struct bt_view v;
	char *text = strdup(doc_text);
	char *p = strstr(text, "\"value\": 0.1,");
	CHECK(p != NULL);
	p[strlen("\"value\": 0.")] = '2';
	bt_arena_init(&a);
	CHECK(bt_json_parse(&a, text, strlen(text), "t", &root, &d) == BT_OK);
	CHECK(bt_results_doc_from_json(&a, "t.json", root, &doc, &d) == BT_OK);
	CHECK(bt_view_build(&a, &doc, &doc.workloads[0], &v, &d) == BT_OK);
	CHECK(!v.spread_known);
	CHECK(strstr(v.spread_note, "Store_Bound") != NULL);
	CHECK(v.nodes[2].lo == 0.2 && v.nodes[2].hi == 0.2);
	bt_arena_free(&a);
	free(text);
}

/* `replay --json` output reads as one replayed workload named by its case. */
TEST(replay_document_is_replayed)
{
	static const char t[] =
		"{\"model\": \"SKL\", \"model_source\": \"m TmaVersion 5.01\","
		" \"input\": \"replayed counts from x.json, case ptr@cpu0, measured (evaluated from the file)\","
		" \"nodes\": {\"Retiring\": {\"value\": 0.25, \"kind\": \"tree\", \"level\": 1, \"parent\": null}},"
		" \"bottleneck_path\": [], \"cpi\": 1}";
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_json *root;
	struct bt_results_doc doc;
	struct bt_view v;
	bt_arena_init(&a);
	CHECK(bt_json_parse(&a, t, sizeof(t) - 1, "r", &root, &d) == BT_OK);
	CHECK(bt_results_doc_from_json(&a, "r.json", root, &doc, &d) == BT_ERR_INVALID); /* not for counts/export */
	CHECK(bt_results_doc_from_json_any(&a, "r.json", root, &doc, &d) == BT_OK);
	CHECK(doc.replayed && !doc.simulated);
	CHECK_STR(bt_page_provenance(&doc), "replayed");
	CHECK_EQ_INT(doc.n_counted, 1);
	CHECK_STR(doc.workloads[0].label, "ptr@cpu0");
	CHECK(bt_view_build(&a, &doc, &doc.workloads[0], &v, &d) == BT_OK);
	CHECK(!v.spread_known && v.n_nodes == 1);
	struct bt_page p = { .docs = &doc, .n_docs = 1, .views = &v, .n_views = 1 };
	struct bt_strbuf h = { 0 };
	bt_page_html(&h, &p);
	CHECK(strstr(bt_sb_str(&h), "REPLAYED &mdash;") != NULL && !strstr(bt_sb_str(&h), "Measured on hardware"));
	bt_sb_free(&h);
	bt_arena_free(&a);
}

TEST(results_doc_rejects_other_files)
{
	struct bt_arena a;
	struct bt_diag d = { "" };
	struct bt_json *root;
	struct bt_results_doc doc;
	bt_arena_init(&a);
	const char t[] = "{\"model\": \"SKL\", \"counts\": {}}";
	CHECK(bt_json_parse(&a, t, sizeof(t) - 1, "c", &root, &d) == BT_OK);
	CHECK(bt_results_doc_from_json(&a, "c.json", root, &doc, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "not a baretop results file") != NULL);
	bt_arena_free(&a);
}
