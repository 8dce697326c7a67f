/* SPDX-License-Identifier: MIT */
#include "base/json-read.h"
#include "base/array.h"
#include "base/strbuf.h"
#include "tests/unit/lib/test.h"

static struct bt_json *parse(struct bt_arena *a, const char *text, struct bt_diag *d)
{
	struct bt_json *root = NULL;
	if (bt_json_parse(a, text, strlen(text), "t.json", &root, d) != BT_OK)
		return NULL;
	return root;
}

TEST(parses_nested_values)
{
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_json *r = parse(&a, "{\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\"}}", &d);
	CHECK(r && r->type == BT_JSON_OBJECT && r->u.obj.n == 2);
	const struct bt_json *arr = bt_json_get(r, "a");
	CHECK(arr && arr->type == BT_JSON_ARRAY && arr->u.arr.n == 5);
	CHECK_NEAR(arr->u.arr.items[0]->u.num.value, 1, 0, 0);
	CHECK_NEAR(arr->u.arr.items[1]->u.num.value, -2500, 0, 0);
	CHECK_STR(arr->u.arr.items[1]->u.num.text, "-2.5e3");
	CHECK(arr->u.arr.items[2]->type == BT_JSON_TRUE);
	CHECK(arr->u.arr.items[4]->type == BT_JSON_NULL);
	CHECK_STR(bt_json_get_str(bt_json_get(r, "b"), "c"), "x");
	CHECK(bt_json_get(r, "zz") == NULL);
	bt_arena_free(&a);
}

TEST(decodes_escapes_and_surrogates)
{
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_json *r = parse(&a, "\"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\"", &d);
	CHECK(r && r->type == BT_JSON_STRING);
	CHECK_STR(r->u.str.s, "a\"b\\c/\n\xc3\xa9\xf0\x9f\x98\x80");
	bt_arena_free(&a);
}

TEST(keeps_large_integers_as_written)
{
	struct bt_arena a = { 0 };
	struct bt_diag d;
	struct bt_json *r = parse(&a, "281474976710655", &d);
	CHECK(r && r->type == BT_JSON_NUMBER);
	CHECK(r->u.num.value == 281474976710655.0);
	bt_arena_free(&a);
}

TEST(reports_line_and_column)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "{\n  \"a\": 1,\n  \"b\" 2\n}", "t.json:3:7: expected ':' after object key" },
		{ "[1, 2", "t.json:1:6: expected ',' or ']' in array" },
		{ "{\"a\": tru}", "t.json:1:7: unknown literal" },
		{ "[01]", "t.json:1:3: expected ',' or ']' in array" },
		{ "\"abc", "t.json:1:1: unterminated string" },
		{ "\"\\x\"", "t.json:1:2: bad escape in string" },
		{ "\"\\ud800\"", "t.json:1:2: unpaired surrogate in \\u escape" },
		{ "[1.]", "t.json:1:2: bad number: digit expected after '.'" },
		{ "{} x", "t.json:1:4: trailing characters after the JSON value" },
		{ "", "t.json:1:1: unexpected end of input, value expected" },
		{ "{\"a\":1,}", "t.json:1:8: expected a string key in object" },
		{ "\"a\tb\"", "t.json:1:3: control character in string" },
		/* a key given twice, at any depth, at the second one */
		{ "{\"checks\": [],\n \"x\": 1,\n \"checks\": [1]}",
		  "t.json:3:2: key \"checks\" given twice in one object (first at line 1 column 2): a key "
		  "may appear once" },
		{ "[{\"a\": {\"b\": 1, \"c\": 2, \"b\": 3}}]",
		  "t.json:1:25: key \"b\" given twice in one object (first at line 1 column 9): a key may "
		  "appear once" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		struct bt_arena a = { 0 };
		struct bt_diag d = { "" };
		CHECK_MSG(parse(&a, bad[i].text, &d) == NULL, "accepted: %s", bad[i].text);
		CHECK_STR(d.text, bad[i].msg);
		bt_arena_free(&a);
	}
}

/* Duplicate keys in a large object are found by sorting (n log n), and the
 * first of several is the one named. */
TEST(duplicate_key_in_a_large_object)
{
	struct bt_strbuf sb = { 0 };
	bt_sb_printf(&sb, "{");
	for (int i = 0; i < 20000; i++)
		bt_sb_printf(&sb, "%s\"k%d\": %d", i ? ", " : "", i, i);
	bt_sb_printf(&sb, ", \"k17\": 0, \"k5\": 1}");
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_json *root = NULL;
	CHECK(bt_json_parse(&a, bt_sb_str(&sb), sb.n, "t.json", &root, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "key \"k17\" given twice") != NULL);
	bt_arena_free(&a);
	bt_sb_free(&sb);
}

TEST(limits_nesting_depth)
{
	char deep[1000];
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	CHECK(parse(&a, deep, &d) == NULL);
	CHECK(strstr(d.text, "nesting too deep") != NULL);
	bt_arena_free(&a);
}

TEST(missing_file_is_not_found)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	struct bt_json *r;
	CHECK(bt_json_load_file(&a, "/nonexistent/x.json", &r, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "/nonexistent/x.json") != NULL);
	bt_arena_free(&a);
}

/* The checked accessor: a number converted to a C integer is first judged
 * against its range and wholeness, and a refusal says where it is. */
TEST(checked_numbers_refuse_with_a_place)
{
	struct bt_arena a = { 0 };
	struct bt_diag d = { "" };
	double x = 7;
	struct bt_json *r = parse(&a, "{\"ok\": 3, \"neg\": -10,\n \"huge\": 1.9e85, \"half\": 2.5, \"s\": \"4\", \"n\": null}", &d);
	CHECK(r != NULL);
	CHECK(bt_json_num_in(r, "ok", 0, 10, 1, -1, &x, &d) == BT_OK && x == 3);
	CHECK(bt_json_num_in(r, "absent", 0, 10, 1, -1, &x, &d) == BT_OK && x == -1);
	CHECK(bt_json_num_in(r, "n", 0, 10, 1, -1, &x, &d) == BT_OK && x == -1);
	CHECK(bt_json_num_in(NULL, "ok", 0, 10, 1, 5, &x, &d) == BT_OK && x == 5);
	CHECK(bt_json_num_in(r, "neg", 0, 4294967295.0, 1, 0, &x, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "line 1 column 18: \"neg\" is -10: a whole number from 0 to 4294967295 expected");
	CHECK(bt_json_num_in(r, "huge", 0, 9007199254740992.0, 1, 0, &x, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "line 2 column 10: \"huge\" is 1.9e85") == d.text);
	CHECK(bt_json_num_in(r, "half", 0, 10, 1, 0, &x, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "\"half\" is 2.5: a whole number") != NULL);
	CHECK(bt_json_num_in(r, "half", 0, 10, 0, 0, &x, &d) == BT_OK && x == 2.5);
	CHECK(bt_json_num_in(r, "s", 0, 10, 1, 0, &x, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "\"s\" is not a number") != NULL);
	CHECK(bt_json_num_check(bt_json_get(r, "huge"), 0, 1e300, 1) == BT_JSON_NUM_OK); /* beyond 2^53: whole */
	CHECK(bt_json_num_check(bt_json_get(r, "s"), 0, 1, 0) == BT_JSON_NUM_NOT_NUMBER);
	CHECK(bt_json_num_check(bt_json_get(r, "neg"), -10, -10, 1) == BT_JSON_NUM_OK);
	bt_arena_free(&a);
}
