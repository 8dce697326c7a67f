/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "base/json-write.h"
#include "tests/unit/lib/test.h"

TEST(nested_document)
{
	struct bt_strbuf sb;
	struct bt_jw j;

	memset(&sb, 0, sizeof(sb));
	bt_jw_init(&j, &sb);
	bt_jw_object(&j, NULL);
	bt_jw_str(&j, "s", "a\"b\\c\n\x01");
	bt_jw_array(&j, "a");
	bt_jw_u64(&j, NULL, 18446744073709551615ull);
	bt_jw_i64(&j, NULL, -5);
	bt_jw_end(&j);
	bt_jw_object(&j, "empty");
	bt_jw_end(&j);
	bt_jw_hex(&j, "h", 0x5e);
	bt_jw_bool(&j, "t", true);
	bt_jw_null(&j, "n");
	bt_jw_double(&j, "d", 0.1);
	bt_jw_double(&j, "nan", NAN);
	bt_jw_str(&j, "null_str", NULL);
	bt_jw_end(&j);
	CHECK_STR(bt_sb_str(&sb),
		  "{\n"
		  "  \"s\": \"a\\\"b\\\\c\\n\\u0001\",\n"
		  "  \"a\": [\n    18446744073709551615,\n    -5\n  ],\n"
		  "  \"empty\": {},\n"
		  "  \"h\": \"0x5e\",\n"
		  "  \"t\": true,\n"
		  "  \"n\": null,\n"
		  "  \"d\": 0.10000000000000001,\n"
		  "  \"nan\": null,\n"
		  "  \"null_str\": null\n"
		  "}\n");
	CHECK(!j.overflow);
	bt_sb_free(&sb);
}

/* The styles the tree report is written with (report/tree-json.c): an
 * embedded document from column 0, one-line containers, empty blocks on two
 * lines, control characters as \u00XX inside it and short forms outside. */
TEST(styled_containers)
{
	struct bt_strbuf sb;
	struct bt_jw j;

	memset(&sb, 0, sizeof(sb));
	bt_jw_init(&j, &sb);
	bt_jw_object(&j, NULL);
	bt_jw_object(&j, "outer");
	bt_jw_object_styled(&j, "doc", BT_JW_DOCUMENT | BT_JW_ESCAPE_U);
	bt_jw_str(&j, "s", "a\tb\n");
	bt_jw_object_styled(&j, "empty", BT_JW_BREAK_EMPTY);
	bt_jw_end(&j);
	bt_jw_object_styled(&j, "nodes", BT_JW_BREAK_EMPTY);
	bt_jw_object_styled(&j, "k\x01", BT_JW_INLINE);
	bt_jw_double(&j, "v", 0.5);
	bt_jw_array(&j, "in_line_too");
	bt_jw_u64(&j, NULL, 1);
	bt_jw_u64(&j, NULL, 2);
	bt_jw_end(&j);
	bt_jw_null(&j, "p");
	bt_jw_end(&j);
	bt_jw_end(&j);
	bt_jw_array_styled(&j, "path", BT_JW_INLINE);
	bt_jw_end(&j);
	bt_jw_end(&j);
	bt_jw_str(&j, "after", "a\tb");
	bt_jw_end(&j);
	bt_jw_end(&j);
	CHECK_STR(bt_sb_str(&sb),
		  "{\n"
		  "  \"outer\": {\n"
		  "    \"doc\": {\n"
		  "  \"s\": \"a\\u0009b\\u000a\",\n"
		  "  \"empty\": {\n"
		  "  },\n"
		  "  \"nodes\": {\n"
		  "    \"k\\u0001\": {\"v\": 0.5, \"in_line_too\": [1, 2], \"p\": null}\n"
		  "  },\n"
		  "  \"path\": []\n"
		  "},\n"
		  "    \"after\": \"a\\tb\"\n"
		  "  }\n"
		  "}\n");
	CHECK(!j.overflow);
	bt_sb_free(&sb);
}

TEST(too_deep_is_flagged)
{
	struct bt_strbuf sb;
	struct bt_jw j;

	memset(&sb, 0, sizeof(sb));
	bt_jw_init(&j, &sb);
	for (int i = 0; i < BT_JW_MAX_DEPTH + 2; i++)
		bt_jw_array(&j, NULL);
	CHECK(j.overflow);
	bt_sb_free(&sb);
}

TEST(strbuf_printf_grows)
{
	struct bt_strbuf sb;

	memset(&sb, 0, sizeof(sb));
	CHECK_STR(bt_sb_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		bt_sb_printf(&sb, "%04d", i);
	CHECK_EQ_U64(sb.n, 4000);
	CHECK(strncmp(sb.buf + 3996, "0999", 4) == 0);
	CHECK(!sb.oom);
	bt_sb_free(&sb);
}
