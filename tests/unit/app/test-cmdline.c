/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

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

TEST(config_text_lines_comments_and_bad_lines)
{
	int argc = -1, bad = -1;
	char **argv = NULL;

	CHECK_EQ_INT(bt_config_split("# baretop.cfg\r\n  --shutdown\r\n\t# -w not-this\n-w a \"b c\"",
				     &argc, &argv, &bad), BT_OK);
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(argc, 4);
	if (argc == 4) {
		CHECK_STR(argv[0], "--shutdown");
		CHECK_STR(argv[1], "-w");
		CHECK_STR(argv[2], "a");
		CHECK_STR(argv[3], "b c");
		CHECK(argv[4] == NULL);
	}
	bt_cmdline_free(argc, argv);

	/* A bad line is reported by number; the others' words still come back
	 * (a --shutdown in a damaged file must still power the machine off). */
	CHECK_EQ_INT(bt_config_split("-q\n-w \"x\n--shutdown\n\"y\n", &argc, &argv, &bad),
		     BT_ERR_INVALID);
	CHECK_EQ_INT(bad, 2);  /* the first bad line; quotes do not span lines */
	CHECK_EQ_INT(argc, 2);
	if (argc == 2) {
		CHECK_STR(argv[0], "-q");
		CHECK_STR(argv[1], "--shutdown");
	}
	bt_cmdline_free(argc, argv);

	/* No line-length limit: a 2000-character word stays one word. */
	char long_line[2100];
	memset(long_line, 'a', 2000);
	strcpy(long_line + 2000, " b\n");
	CHECK_EQ_INT(bt_config_split(long_line, &argc, &argv, &bad), BT_OK);
	CHECK_EQ_INT(argc, 2);
	if (argc == 2)
		CHECK_EQ_INT(strlen(argv[0]), 2000);
	bt_cmdline_free(argc, argv);

	CHECK_EQ_INT(bt_config_split("", &argc, &argv, &bad), BT_OK);
	CHECK_EQ_INT(argc, 0);
	bt_cmdline_free(argc, argv);
}
