/* SPDX-License-Identifier: MIT */
/*
 * Vendor-file corrections (metrics/corrections.h): the cap fix rewrites
 * exactly the defective form (texts written here), a correction is found
 * only for its file, node and exact text, and, with ../shared/reference,
 * every entry of the table matches its vendor text and rewrites as many
 * places as it says; the loaded model's source names the corrected nodes.
 */
#include "metrics/corrections.h"
#include "metrics/load.h"
#include "base/json-read.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/vector-walk.h"

static const char *F = "( ( ( c ) / d ) * e / ( 1000000000 ) / ( ( durationtimeinmilliseconds / 1000 ) ) )";

TEST(cap_fix_rewrites_only_the_defective_form)
{
	struct bt_arena a = { 0 };
	char in[1024], want[1024], other[1024];
	snprintf(in, sizeof(in), "100 * ( min( ( a * b ) , a * ( 12 * %s ) - ( 3 * %s ) ) / ( c ) )", F, F);
	snprintf(want, sizeof(want), "100 * ( min( ( a * b ) , a * ( ( 12 * %s ) - ( 3 * %s ) ) ) / ( c ) )",
		 F, F);
	struct bt_correction c = { "x.json", "N", 0, 0, BT_FIX_CAP_PARENS, 1, "-", "-", NULL, NULL };
	const char *why = "unset";
	const char *out = bt_correction_apply(&a, &c, in, &why);
	CHECK(out && why == NULL);
	CHECK_STR(out, want);
	/* GNR's correct form and a cap over two different expressions: not rewritten */
	snprintf(other, sizeof(other), "a * ( ( 37 * %s ) - ( 4.4 * %s ) )", F, F);
	out = bt_correction_apply(&a, &c, other, &why);
	CHECK(out == other && why != NULL);
	out = bt_correction_apply(&a, &c, "a * ( 12 * ( x ) ) - ( 3 * ( y ) )", &why);
	CHECK(why != NULL);
	bt_arena_free(&a);
}

TEST(replace_fix_rewrites_exactly_its_places)
{
	struct bt_arena a = { 0 };
	struct bt_correction c = { "x.json", "N", 0, 0, BT_FIX_REPLACE, 2, "-", "-", "( p * q ) / (", "0 / (" };
	const char *why = "unset";
	const char *out = bt_correction_apply(&a, &c, "1 + ( p * q ) / ( r ) + ( p * q ) / ( s )", &why);
	CHECK(out && why == NULL);
	CHECK_STR(out, "1 + 0 / ( r ) + 0 / ( s )");
	/* one place where the table says two, or three: left as published */
	const char *one = "1 + ( p * q ) / ( r )";
	CHECK(bt_correction_apply(&a, &c, one, &why) == one && why != NULL);
	const char *three = "( p * q ) / ( ( p * q ) / ( ( p * q ) / ( r ) ) )";
	CHECK(bt_correction_apply(&a, &c, three, &why) == three && why != NULL);
	bt_arena_free(&a);
}

TEST(found_only_for_file_node_and_exact_text)
{
	const struct bt_correction *c = &bt_corrections[0];
	CHECK(bt_correction_count >= 15);
	CHECK_STR(bt_correction_model(c), "LNL-LNC");
	/* a text of another length or hash is not the defective one */
	CHECK(bt_correction_find("dir/lunarlake_metrics_lioncove_core.json", "L3_Hit_Latency", "a * b") == NULL);
	CHECK(bt_correction_find(NULL, "L3_Hit_Latency", "a") == NULL);
	CHECK(bt_fnv1a64("", 0) == 0xcbf29ce484222325ull);
	CHECK(bt_fnv1a64("a", 1) == 0xaf63dc4c8601ec8cull);
}

/* every entry against the vendor text it names */
TEST(every_entry_matches_its_vendor_text)
{
	const char *ref = bt_reference_dir();
	if (!ref) {
		bt_test_skip("../shared/reference is absent: no vendor text to check the table against");
		return;
	}
	unsigned checked = 0;
	for (unsigned i = 0; i < bt_correction_count; i++) {
		const struct bt_correction *c = &bt_corrections[i];
		const char *id = bt_correction_model(c);
		const struct bt_model_recipe *r = id ? bt_recipe_find(id) : NULL;
		CHECK_MSG(r != NULL, "%s: no built-in recipe reads %s", c->node, c->file);
		if (!r)
			continue;
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", ref, r->metrics[0]);
		struct bt_json *root;
		CHECK(bt_json_load_file(&a, path, &root, &d) == BT_OK);
		const struct bt_json *list = bt_json_get(root, "Metrics");
		const char *text = NULL;
		for (size_t k = 0; list && k < list->u.arr.n; k++) {
			const char *name = bt_json_get_str(list->u.arr.items[k], "MetricName");
			if (name && !strcmp(name, c->node))
				text = bt_json_get_str(list->u.arr.items[k], "Formula");
		}
		CHECK_MSG(text && bt_correction_find(path, c->node, text) == c, "%s %s: not the table's text",
			  id, c->node);
		const char *why = NULL;
		const char *out = text ? bt_correction_apply(&a, c, text, &why) : NULL;
		CHECK_MSG(out && !why, "%s %s: %s", id, c->node, why ? why : "no text");
		/* the cap fix adds "( " and " )" at each place; the replacement
		 * leaves no defective text behind */
		if (c->kind == BT_FIX_CAP_PARENS)
			CHECK(out && strlen(out) == strlen(text) + 4 * c->sites);
		else
			CHECK(out && !strstr(out, c->from) &&
			      strlen(out) == strlen(text) + c->sites * strlen(c->to) - c->sites * strlen(c->from));
		checked++;
		bt_arena_free(&a);
	}
	printf("# %u corrections checked against their vendor texts\n", checked);

	/* loaded from the vendor files: the source names the corrected nodes */
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	CHECK(bt_model_load(&a, bt_recipe_find("LNL-LNC"), ref, &def, &d) == BT_OK);
	CHECK(strstr(def->source, "corrected: ") && strstr(def->source, "L3_Hit_Latency"));
	bt_arena_free(&a);
	/* EMR: the phantom hbm_bound share in the two bottlenecks and their sum */
	struct bt_arena b = { 0 };
	CHECK(bt_model_load(&b, bt_recipe_find("EMR"), ref, &def, &d) == BT_OK);
	CHECK(strstr(def->source, "Bottleneck_Data_Cache_Memory_Bandwidth") &&
	      strstr(def->source, "Bottleneck_Data_Cache_Memory_Latency") &&
	      strstr(def->source, "Bottleneck_Other_Bottlenecks"));
	bt_arena_free(&b);
}
