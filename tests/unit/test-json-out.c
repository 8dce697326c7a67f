/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "app/json-out.h"
#include "tests/unit/lib/test.h"

TEST(nested_document)
{
	struct bt_strbuf sb;
	struct bt_json j;

	bt_strbuf_init(&sb);
	bt_json_init(&j, &sb);
	bt_json_object(&j, NULL);
	bt_json_str(&j, "s", "a\"b\\c\n\x01");
	bt_json_array(&j, "a");
	bt_json_u64(&j, NULL, 18446744073709551615ull);
	bt_json_i64(&j, NULL, -5);
	bt_json_end(&j);
	bt_json_object(&j, "empty");
	bt_json_end(&j);
	bt_json_hex(&j, "h", 0x5e);
	bt_json_bool(&j, "t", true);
	bt_json_null(&j, "n");
	bt_json_double(&j, "d", 0.1);
	bt_json_double(&j, "nan", NAN);
	bt_json_str(&j, "null_str", NULL);
	bt_json_end(&j);
	CHECK_STR(bt_strbuf_str(&sb),
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
	bt_strbuf_free(&sb);
}

TEST(too_deep_is_flagged)
{
	struct bt_strbuf sb;
	struct bt_json j;

	bt_strbuf_init(&sb);
	bt_json_init(&j, &sb);
	for (int i = 0; i < BT_JSON_MAX_DEPTH + 2; i++)
		bt_json_array(&j, NULL);
	CHECK(j.overflow);
	bt_strbuf_free(&sb);
}

TEST(strbuf_printf_grows)
{
	struct bt_strbuf sb;

	bt_strbuf_init(&sb);
	CHECK_STR(bt_strbuf_str(&sb), "");
	for (int i = 0; i < 1000; i++)
		bt_strbuf_printf(&sb, "%04d", i);
	CHECK_EQ_U64(sb.len, 4000);
	CHECK(strncmp(sb.data + 3996, "0999", 4) == 0);
	CHECK(bt_strbuf_ok(&sb));
	bt_strbuf_free(&sb);
}
