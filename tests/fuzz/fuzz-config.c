/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for what a configuration file or a command line goes
 * through: bt_config_split (app/cmdline.c), then bt_options_parse
 * (app/options.c). Properties checked beyond "no crash, leak or UB":
 *   - the words of an accepted text, written back with the shell's quoting
 *     (each word in quotes, '^' before '"' and '^'), split into the same
 *     words;
 *   - the option parser either accepts the words or says why, naming
 *     where they came from; -x/--exec hands over the rest of the words with
 *     the file as argv[0].
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmdline.h"
#include "app/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* "word" with ^-escapes: one word whatever it holds (no NUL, no newline). */
static char *quote_all(int argc, char **argv)
{
	size_t len = 1;

	for (int i = 0; i < argc; i++)
		len += 2 * strlen(argv[i]) + 3;
	char *line = malloc(len), *w = line;
	if (!line)
		abort();
	for (int i = 0; i < argc; i++) {
		*w++ = '"';
		for (const char *p = argv[i]; *p; p++) {
			if (*p == '"' || *p == '^')
				*w++ = '^';
			*w++ = *p;
		}
		*w++ = '"';
		*w++ = ' ';
	}
	*w = '\0';
	return line;
}

static void check_round_trip(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (strchr(argv[i], '\n'))
			abort();  /* lines are split first: a word cannot hold one */
	char *line = quote_all(argc, argv);
	int n;
	char **back;

	if (bt_cmdline_split(line, &n, &back) != BT_OK || n != argc)
		abort();
	for (int i = 0; i < n; i++)
		if (strcmp(back[i], argv[i]) != 0)
			abort();
	bt_cmdline_free(n, back);
	free(line);
}

static void check_options(int argc, char **argv)
{
	struct bt_options o;
	struct bt_diag d = { "" };

	bt_options_defaults(&o);
	bt_options_scan_end_actions(&o, argc, argv);
	/* The first -x/--exec word starts the application's part: "-x FILE
	 * ARGS" gives argv = FILE ARGS, "--exec=FILE ARGS" the same (found
	 * before parsing, which rewrites --exec=FILE in place). */
	int limit = bt_options_scan_limit(argc, argv);
	int first = limit + (limit < argc && strncmp(argv[limit], "--exec=", 7) != 0);

	bt_options_defaults(&o);
	bt_status st = bt_options_parse(&o, argc, argv, "fuzz.cfg", &d);
	if (st != BT_OK) {
		if (st != BT_ERR_INVALID || strncmp(d.text, "fuzz.cfg: ", 10) != 0)
			abort();
		return;
	}
	if (o.exec_path) {
		if (o.exec_argv != &argv[first] || o.exec_argc != argc - first ||
		    strcmp(o.exec_argv[0], o.exec_path) != 0)
			abort();
	}
	if (o.n_cpus < 0 || o.n_cpus > BT_MAX_CPU_LIST || o.n_workloads > BT_MAX_WORKLOAD_SPECS)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	int argc, bad;
	char **argv;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';   /* the app refuses files with a NUL byte */
	bt_status st = bt_config_split(text, &argc, &argv, &bad);
	free(text);
	if (st == BT_ERR_NOMEM)
		return 0;
	if ((st == BT_ERR_INVALID) != (bad > 0))
		abort();
	check_round_trip(argc, argv);
	check_options(argc, argv);
	bt_cmdline_free(argc, argv);
	return 0;
}
