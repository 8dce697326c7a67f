/* SPDX-License-Identifier: MIT */
/*
 * baretop-host: the hosted companion of baretop.efi. It runs the same
 * portable code (models, evaluator, planner, simulated PMU) on Linux.
 */
#include <stdio.h>
#include <string.h>

#include "base/near-name.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"

#define MAX_COMMANDS 32

static struct {
	const char *name, *usage, *summary;
	bt_host_command_fn *fn;
} commands[MAX_COMMANDS];
static int n_commands;

void bt_host_command_register(const char *name, const char *usage, const char *summary,
			      bt_host_command_fn *fn)
{
	if (n_commands == MAX_COMMANDS)
		return;
	commands[n_commands].name = name;
	commands[n_commands].usage = usage;
	commands[n_commands].summary = summary;
	commands[n_commands].fn = fn;
	n_commands++;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: baretop-host COMMAND [ARGS]\n\ncommands:\n");
	for (int i = 0; i < n_commands; i++)
		fprintf(f, "  %-34s %s\n", commands[i].usage, commands[i].summary);
	fprintf(f, "\n'baretop-host COMMAND --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	/* Not a command: every option table, for the test that reads each
	 * command's --help against its parser (tests/suite/23-host-args.sh). */
	if (strcmp(argv[1], "--option-table") == 0) {
		host_args_print_tables(stdout);
		return 0;
	}
	host_command_line(argc, argv);
	for (int i = 0; i < n_commands; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	for (int i = 0; i < n_commands; i++)
		if (bt_suggest_near(argv[1], strlen(argv[1]), commands[i].name)) {
			fprintf(stderr, "baretop-host: unknown command '%s', did you mean %s? (see "
					"'baretop-host --help')\n", argv[1], commands[i].name);
			return 2;
		}
	fprintf(stderr, "baretop-host: unknown command '%s' (see 'baretop-host --help')\n", argv[1]);
	return 2;
}
