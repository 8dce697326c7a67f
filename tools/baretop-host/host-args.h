/* SPDX-License-Identifier: MIT */
/*
 * The command line of every baretop-host command, read one way
 * (README "Options of baretop-host"):
 *
 *   --opt VALUE and --opt=VALUE      an option that takes a value
 *   --fmt, --fmt=FILE, --fmt FILE    an output format: FILE defaults to
 *                                    standard output ("-"); the separated
 *                                    form takes the next word unless it
 *                                    starts with '-'
 *   --json, --json=FILE              an output format of a command whose
 *                                    arguments are input files: FILE only
 *                                    after '=', so `replay --json X.json`
 *                                    reads X.json, never writes over it
 *   --                               every later word is an argument
 *
 * Each command describes its options in one table (struct host_opt); its
 * --help is printed from that table, so the two cannot disagree, and a word
 * the table does not name is a usage error of one line that names it (and
 * the nearest option: "did you mean --k?"). `baretop-host --option-table`
 * prints every table, for the test that reads each --help against it.
 *
 *     static const struct host_opt opts[] = {
 *             { "db", NULL, HOST_VALUE, "FILE", "the database" },
 *             { "csv", NULL, HOST_OUTPUT, "FILE", "the summary as CSV" },
 *             { 0 } };
 *     static const struct host_cmd_args args = { "fleet", "fleet [DIR]... [options]", intro, opts, outro };
 *     HOST_ARGS_REGISTER(args)
 *     ...
 *     struct host_args it;
 *     host_args_init(&it, &args, argc, argv);
 *     for (int k; (k = host_args_next(&it, &v)) != HOST_ARGS_END;)
 *             switch (k) { case 0: db = v; break; ... case HOST_ARGS_HELP: return 0;
 *                          case HOST_ARGS_BAD: return 2; case HOST_ARGS_POSITIONAL: ... }
 */
#ifndef TOOLS_BARETOP_HOST_HOST_ARGS_H
#define TOOLS_BARETOP_HOST_HOST_ARGS_H

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of the baretop-host commands (README "Exit statuses"). */
enum {
	HOST_EXIT_OK = 0,       /* done, nothing found */
	HOST_EXIT_FOUND = 1,    /* done, and something was found (diff beyond the spread,
				 * fleet outliers, a FAILed validation check) */
	HOST_EXIT_USAGE = 2,    /* bad arguments, or an input or output that cannot be used */
	HOST_EXIT_PARTIAL = 3,  /* done, but some inputs were skipped (named on stderr) */
};

enum host_opt_arg {
	HOST_FLAG,    /* --opt */
	HOST_VALUE,   /* --opt VALUE, --opt=VALUE */
	HOST_OUTPUT,  /* --opt, --opt=FILE, --opt FILE: FILE defaults to "-" */
	HOST_OUTPUT_EQ, /* --opt, --opt=FILE: FILE defaults to "-"; the next word
			 * is never taken (it is the command's argument) */
};

struct host_opt {
	const char *name;     /* without "--" */
	const char *alias;    /* another accepted spelling ("q": -q, "smt-off": --smt-off), shown in
			       * --help; NULL for none */
	enum host_opt_arg arg;
	const char *metavar;  /* "FILE", "K"; NULL for a flag */
	const char *help;     /* lines separated by '\n' */
};

struct host_cmd_args {
	const char *name;           /* the command: "fleet" */
	const char *synopsis;       /* after "usage: baretop-host " (lines separated by '\n') */
	const char *intro;          /* text before the options, or NULL */
	const struct host_opt *opts; /* ends with { 0 } */
	const char *outro;          /* after the options (inputs, FILE -, exit status), or NULL */
};

#define HOST_ARGS_POSITIONAL (-1) /* *value is the word */
#define HOST_ARGS_END (-2)
#define HOST_ARGS_HELP (-3)       /* --help or -h: the help is printed on stdout; exit 0 */
#define HOST_ARGS_BAD (-4)        /* the one-line error is printed on stderr; exit 2 */

struct host_args {
	const struct host_cmd_args *cmd;
	int argc, i;
	char **argv;
	bool only_positional;       /* after "--" */
};

void host_args_init(struct host_args *it, const struct host_cmd_args *cmd, int argc, char **argv);
/* The next word: the index of the option in cmd->opts (its value in *value,
 * NULL for a flag), or one of HOST_ARGS_*. */
int host_args_next(struct host_args *it, const char **value);

/* The whole --help of a command, from its table. */
void host_args_help(const struct host_cmd_args *cmd, FILE *f);

/* "baretop-host CMD: MESSAGE (see 'baretop-host CMD --help')" on stderr;
 * returns HOST_EXIT_USAGE. */
int host_usage_error(const struct host_cmd_args *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The command line of this baretop-host run (main.c, before the command
 * runs): every word of it is a possible input of the command. */
void host_command_line(int argc, char **argv);

/* Whether path may be written as a command's output (base/out-check.h
 * bt_output_check): "-" and new files may; a folder, a file any other
 * word of the command line names (an input, or another output), or a file
 * baretop wrote or reads (results, atlas, spec, count file, event list)
 * may not. also_input: one more input not on the command line (NULL for
 * none). Says why on stderr when not. */
bool host_output_ok_with(const char *cmd, const char *path, const char *also_input);
bool host_output_ok(const char *cmd, const char *path);

/* Whether a and b name one existing file (a link or another spelling
 * included): an output must never be written over an input. */
bool host_same_file(const char *a, const char *b);

/* A command's output to path ("-": standard output). A file is written
 * whole or not at all: the text gathers in memory and host_output_end
 * writes it to a temporary file beside path, then renames it over path, so
 * a failed command leaves no half-written file and an earlier file stays
 * until the new one is complete. */
struct host_output {
	FILE *f;          /* write here */
	const char *cmd, *path;
	char *buf;        /* open_memstream's buffer, for a file */
	size_t len;
};
/* After host_output_ok; says why on stderr and returns false when path
 * cannot be written. */
bool host_output_begin(struct host_output *o, const char *cmd, const char *path);
/* Writes the output (keep) or drops it (!keep: the command failed).
 * Returns false after saying why on stderr when a write, the flush or the
 * rename failed, so a full disk is an error, never a short file and
 * status 0. */
bool host_output_end(struct host_output *o, bool keep);

/* buf[0..len) to path ("-": standard output) the way host_output_end
 * writes a file: a temporary file beside it, renamed over it. */
bool host_write_whole(const char *cmd, const char *path, const char *buf, size_t len);

/* Makes the folder path and its parents where missing (mode 0755), as
 * baretop's --results-dir does; says why on stderr and returns false when
 * it cannot (a file in the way, no permission). */
bool host_make_dirs(const char *cmd, const char *path);

/* A number as baretop's options take it (bt_options_parse_u64) in
 * [min, max]; otherwise says on stderr which option and value are wrong
 * and returns false. */
bool host_parse_uint(const char *cmd, const char *option, const char *text, unsigned min,
		     unsigned max, unsigned *ret);

/* Registers a table for `baretop-host --option-table`. */
void host_args_register(const struct host_cmd_args *cmd);
#define HOST_ARGS_REGISTER(table)                                              \
	__attribute__((constructor)) static void register_args_##table(void)   \
	{                                                                      \
		host_args_register(&table);                                    \
	}
/* Prints "COMMAND --NAME KIND" per option of every registered table
 * (KIND: flag, value, output, output-eq), aliases as "COMMAND --ALIAS alias-of --NAME". */
void host_args_print_tables(FILE *f);

#endif
