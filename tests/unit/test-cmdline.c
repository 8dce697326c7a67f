/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "app/cmdline.h"
#include "tests/unit/lib/test.h"

static void check_split(const char *line, int n, const char *const *expect)
{
	int argc = -1;
	char **argv = NULL;

	CHECK_EQ_INT(bt_cmdline_split(line, &argc, &argv), BT_OK);
	CHECK_EQ_INT(argc, n);
	for (int i = 0; i < n && i < argc; i++)
		CHECK_STR(argv[i], expect[i]);
	if (argv)
		CHECK(argv[argc] == NULL);
	bt_cmdline_free(argc, argv);
}

TEST(splits_on_blanks)
{
	check_split("", 0, NULL);
	check_split("   \t ", 0, NULL);
	check_split("fs0:\\baretop.efi -h", 2, (const char *[]){ "fs0:\\baretop.efi", "-h" });
	check_split("  a\tb  c \r\n", 3, (const char *[]){ "a", "b", "c" });
}

TEST(quotes_group_and_caret_escapes)
{
	check_split("--results-dir \"\\my results\" x", 3,
		    (const char *[]){ "--results-dir", "\\my results", "x" });
	check_split("a\"b c\"d", 1, (const char *[]){ "ab cd" });
	check_split("^\"quoted^\" ^^", 2, (const char *[]){ "\"quoted\"", "^" });
	check_split("\"\"", 1, (const char *[]){ "" });
}

TEST(unterminated_quote_is_an_error)
{
	int argc;
	char **argv;

	CHECK_EQ_INT(bt_cmdline_split("a \"b c", &argc, &argv), BT_ERR_INVALID);
}

TEST(prepend_and_append)
{
	int argc;
	char **argv;
	char *more[] = { "y", "z" };

	CHECK_EQ_INT(bt_cmdline_split("-h", &argc, &argv), BT_OK);
	CHECK_EQ_INT(bt_cmdline_prepend(&argc, &argv, "baretop.efi"), BT_OK);
	CHECK_EQ_INT(bt_cmdline_append(&argc, &argv, 2, more), BT_OK);
	CHECK_EQ_INT(argc, 4);
	CHECK_STR(argv[0], "baretop.efi");
	CHECK_STR(argv[1], "-h");
	CHECK_STR(argv[3], "z");
	CHECK(argv[4] == NULL);
	bt_cmdline_free(argc, argv);
}
