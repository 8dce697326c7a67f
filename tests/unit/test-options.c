/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "app/options.h"
#include "tests/unit/lib/test.h"

static bt_status parse(struct bt_options *o, char **words, int n, char *err)
{
	bt_options_defaults(o);
	return bt_options_parse(o, n, words, "command line", err, 200);
}

TEST(defaults)
{
	struct bt_options o;

	bt_options_defaults(&o);
	CHECK_STR(o.results_dir, "/baretop/results");
	CHECK_EQ_U64(o.qemu_exit_port, 0xf4);
	CHECK(!o.shutdown && !o.qemu_exit && !o.help);
}

TEST(flags_values_and_short_names)
{
	struct bt_options o;
	char err[200];
	char *w[] = { "-h", "--shutdown", "--results-dir", "/r", "--qemu-exit=0x501", "-q" };

	CHECK_EQ_INT(parse(&o, w, 6, err), BT_OK);
	CHECK(o.help && o.shutdown && o.quiet && o.qemu_exit);
	CHECK_STR(o.results_dir, "/r");
	CHECK_EQ_U64(o.qemu_exit_port, 0x501);

	char *w2[] = { "--results-dir=/x", "--qemu-exit" };
	CHECK_EQ_INT(parse(&o, w2, 2, err), BT_OK);
	CHECK_STR(o.results_dir, "/x");
	CHECK_EQ_U64(o.qemu_exit_port, 0xf4);
}

TEST(errors_say_what_is_wrong)
{
	struct bt_options o;
	char err[200];
	struct {
		char *word[2];
		int n;
		const char *msg;
	} cases[] = {
		{ { "--bogus" }, 1, "unknown option '--bogus'" },
		{ { "-z" }, 1, "unknown option '-z'" },
		{ { "stray" }, 1, "unexpected argument 'stray'" },
		{ { "--results-dir" }, 1, "option '--results-dir' needs a value" },
		{ { "--shutdown=1" }, 1, "option '--shutdown' takes no value" },
		{ { "--qemu-exit=zz" }, 1, "not an I/O port number" },
		{ { "--qemu-exit=0x10000" }, 1, "not an I/O port number" },
		{ { "--qemu-exit=-1" }, 1, "not an I/O port number" },
		{ { "--results-dir=" }, 1, "empty directory name" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(parse(&o, cases[i].word, cases[i].n, err), BT_ERR_INVALID);
		CHECK_MSG(strstr(err, cases[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i, err,
			  cases[i].msg);
		CHECK(strncmp(err, "command line: ", 14) == 0);
	}
}

TEST(end_actions_are_found_even_in_bad_input)
{
	struct bt_options o;
	char *w[] = { "--bogus", "--shutdown", "--qemu-exit=0x600" };

	bt_options_defaults(&o);
	bt_options_scan_end_actions(&o, 3, w);
	CHECK(o.shutdown);
	CHECK(o.qemu_exit);
	CHECK_EQ_U64(o.qemu_exit_port, 0x600);
}

TEST(usage_lists_every_option)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *names[] = { "--help", "--version", "--quiet", "--shutdown", "--qemu-exit[=PORT]",
				"--results-dir DIR", "--no-results", "--config FILE", "--no-config",
				"--fault-selftest", "--assume-amd-legacy-pmu", "Exit status" };

	bt_options_usage(f, "baretop");
	fclose(f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		CHECK_MSG(strstr(text, names[i]) != NULL, "usage lacks %s", names[i]);
	/* And each documented option parses. */
	struct bt_options o;
	char err[200];
	char *w[] = { "--version", "--no-results", "--no-config", "--fault-selftest",
		      "--assume-amd-legacy-pmu", "--config", "x.cfg" };
	CHECK_EQ_INT(parse(&o, w, 7, err), BT_OK);
	free(text);
}
