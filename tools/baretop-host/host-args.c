/* SPDX-License-Identifier: MIT */
/* The command line of the baretop-host commands: host-args.h. */
#include "tools/baretop-host/host-args.h"
#include "base/array.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/options.h"
#include "base/near-name.h"
#include "base/out-check.h"

#define MAX_TABLES 32
#define HELP_COLUMN 22

static const struct host_cmd_args *tables[MAX_TABLES];
static int n_tables;

void host_args_register(const struct host_cmd_args *cmd)
{
	if (n_tables < MAX_TABLES)
		tables[n_tables++] = cmd;
}

static const char *kind_name(enum host_opt_arg k)
{
	return k == HOST_FLAG ? "flag" : k == HOST_VALUE ? "value" : k == HOST_OUTPUT ? "output"
									  : "output-eq";
}

static void print_alias(FILE *f, const char *cmd, const struct host_opt *o)
{
	if (o->alias)
		fprintf(f, "%s %s%s alias-of --%s\n", cmd, o->alias[1] ? "--" : "-", o->alias, o->name);
}

void host_args_print_tables(FILE *f)
{
	for (int t = 0; t < n_tables; t++) {
		fprintf(f, "%s --help flag\n", tables[t]->name);
		for (const struct host_opt *o = tables[t]->opts; o->name; o++) {
			fprintf(f, "%s --%s %s\n", tables[t]->name, o->name, kind_name(o->arg));
			print_alias(f, tables[t]->name, o);
		}
	}
}

int host_usage_error(const struct host_cmd_args *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "baretop-host %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see 'baretop-host %s --help')\n", cmd->name);
	return HOST_EXIT_USAGE;
}

void host_args_init(struct host_args *it, const struct host_cmd_args *cmd, int argc, char **argv)
{
	memset(it, 0, sizeof(*it));
	it->cmd = cmd;
	it->argc = argc;
	it->argv = argv;
	it->i = 1;
}

/* The option spelled w[0..len): its name or a long alias after "--"
 * (single false), a one-letter alias after "-" (single true). */
static int find(const struct host_cmd_args *cmd, const char *w, size_t len, bool single)
{
	for (int k = 0; cmd->opts[k].name; k++) {
		const struct host_opt *o = &cmd->opts[k];
		const char *al = o->alias;
		if (!single && strlen(o->name) == len && !strncmp(o->name, w, len))
			return k;
		if (al && (strlen(al) == 1) == single && strlen(al) == len && !strncmp(al, w, len))
			return k;
	}
	return -1;
}

static int unknown(const struct host_cmd_args *cmd, const char *word, const char *w, size_t len)
{
	const char *best = NULL;
	unsigned best_d = 255;

	for (const struct host_opt *o = cmd->opts; o->name; o++) {
		unsigned dist = bt_edit_distance(w, len, o->name, strlen(o->name));
		if (bt_suggest_near(w, len, o->name) && dist < best_d) {
			best = o->name;
			best_d = dist;
		}
	}
	if (best)
		host_usage_error(cmd, "unknown option '%s', did you mean --%s?", word, best);
	else
		host_usage_error(cmd, "unknown option '%s'", word);
	return HOST_ARGS_BAD;
}

int host_args_next(struct host_args *it, const char **value)
{
	const struct host_cmd_args *cmd = it->cmd;
	const char *word, *w, *eq;
	size_t len;
	int k;

	*value = NULL;
	if (it->i >= it->argc)
		return HOST_ARGS_END;
	word = it->argv[it->i++];
	if (it->only_positional || word[0] != '-' || !word[1]) {
		*value = word; /* "-" is standard input or output: an argument */
		return HOST_ARGS_POSITIONAL;
	}
	if (!strcmp(word, "--")) {
		it->only_positional = true;
		return host_args_next(it, value);
	}
	if (!strcmp(word, "-h") || !strcmp(word, "--help")) {
		host_args_help(cmd, stdout);
		return HOST_ARGS_HELP;
	}
	w = word + 1 + (word[1] == '-');
	eq = word[1] == '-' ? strchr(w, '=') : NULL;
	len = eq ? (size_t)(eq - w) : strlen(w);
	k = find(cmd, w, len, word[1] != '-');
	if (k < 0)
		return unknown(cmd, word, w, len);
	const struct host_opt *o = &cmd->opts[k];
	switch (o->arg) {
	case HOST_FLAG:
		if (eq) {
			host_usage_error(cmd, "--%s takes no value ('%s')", o->name, word);
			return HOST_ARGS_BAD;
		}
		return k;
	case HOST_VALUE:
		if (eq) {
			*value = eq + 1;
		} else if (it->i < it->argc) {
			*value = it->argv[it->i++];
		} else {
			host_usage_error(cmd, "--%s needs a value (%s)", o->name, o->metavar);
			return HOST_ARGS_BAD;
		}
		return k;
	case HOST_OUTPUT:
		if (eq) {
			*value = eq[1] ? eq + 1 : "-";
		} else if (it->i < it->argc && !it->only_positional &&
			   (it->argv[it->i][0] != '-' || !strcmp(it->argv[it->i], "-"))) {
			*value = it->argv[it->i++];
		} else {
			*value = "-";
		}
		return k;
	case HOST_OUTPUT_EQ:
		*value = eq && eq[1] ? eq + 1 : "-";
		return k;
	}
	return k;
}

/* Text with lines separated by '\n', each after `indent` spaces but the first. */
static void print_indented(FILE *f, const char *text, int indent)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%.*s\n", (int)n, p);
		p += n;
		if (*p == '\n' && *++p)
			fprintf(f, "%*s", indent, "");
	}
}

void host_args_help(const struct host_cmd_args *cmd, FILE *f)
{
	for (const char *p = cmd->synopsis, *first = p; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%s baretop-host %.*s\n", p == first ? "usage:" : "      ", (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (cmd->intro)
		fprintf(f, "%s%s", cmd->intro, cmd->intro[strlen(cmd->intro) - 1] == '\n' ? "" : "\n");
	if (cmd->opts[0].name)
		fprintf(f, "options (--opt VALUE or --opt=VALUE; an output FILE defaults to standard output):\n");
	for (const struct host_opt *o = cmd->opts; o->name; o++) {
		char left[80];
		int n = snprintf(left, sizeof(left), "  --%s", o->name);
		if (o->arg == HOST_VALUE)
			n += snprintf(left + n, sizeof(left) - (size_t)n, " %s", o->metavar);
		else if (o->arg == HOST_OUTPUT)
			n += snprintf(left + n, sizeof(left) - (size_t)n, " [%s]", o->metavar);
		else if (o->arg == HOST_OUTPUT_EQ)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "[=%s]", o->metavar);
		if (o->alias)
			n += snprintf(left + n, sizeof(left) - (size_t)n, ", %s%s", o->alias[1] ? "--" : "-",
				      o->alias);
		if (n >= HELP_COLUMN - 1)
			fprintf(f, "%s\n%*s", left, HELP_COLUMN, "");
		else
			fprintf(f, "%-*s", HELP_COLUMN, left);
		print_indented(f, o->help, HELP_COLUMN);
	}
	fprintf(f, "  --help, -h          this help\n");
	if (cmd->outro)
		fprintf(f, "%s%s", cmd->outro, cmd->outro[strlen(cmd->outro) - 1] == '\n' ? "" : "\n");
}

static int cl_argc;
static char **cl_argv;

void host_command_line(int argc, char **argv)
{
	cl_argc = argc;
	cl_argv = argv;
}

bool host_output_ok_with(const char *cmd, const char *path, const char *also_input)
{
	const char *in[2 * 64 + 2];
	struct bt_diag d = { "" };
	size_t n = 0;

	/* Every word after the command's name, and the value of --opt=VALUE,
	 * but the word path is (the output option's own value). */
	for (int i = 2; i < cl_argc && n + 3 < BT_ARRAY_SIZE(in); i++) {
		const char *w = cl_argv[i], *eq = w[0] == '-' ? strchr(w, '=') : NULL;
		if (w != path)
			in[n++] = w;
		if (eq && eq + 1 != path && eq[1])
			in[n++] = eq + 1;
	}
	if (also_input)
		in[n++] = also_input;
	in[n] = NULL;
	if (bt_output_check(path, in, &d) == BT_OK)
		return true;
	fprintf(stderr, "baretop-host %s: %s\n", cmd, d.text);
	return false;
}

bool host_output_ok(const char *cmd, const char *path)
{
	return host_output_ok_with(cmd, path, NULL);
}

bool host_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return strcmp(a, "-") && strcmp(b, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool host_output_begin(struct host_output *o, const char *cmd, const char *path)
{
	memset(o, 0, sizeof(*o));
	o->cmd = cmd;
	o->path = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return true;
	}
	if (!host_output_ok(cmd, path))
		return false;
	if (!(o->f = open_memstream(&o->buf, &o->len))) {
		fprintf(stderr, "baretop-host %s: %s: %s\n", cmd, path, strerror(errno));
		return false;
	}
	return true;
}

bool host_write_whole(const char *cmd, const char *path, const char *buf, size_t len)
{
	char tmp[4096], real[4096];
	struct stat st;

	if (!strcmp(path, "-")) {
		if ((len && fwrite(buf, 1, len, stdout) != len) || fflush(stdout) != 0) {
			fprintf(stderr, "baretop-host %s: writing standard output failed: %s\n", cmd,
				strerror(errno));
			return false;
		}
		return true;
	}
	/* A link is written through, as fopen would: its target is replaced
	 * (the rename happens beside the target), the link stays. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!realpath(path, real)) {
			fprintf(stderr, "baretop-host %s: %s: a link to nothing writable: %s\n", cmd, path,
				strerror(errno));
			return false;
		}
		path = real;
	}
	/* An existing file keeps its permissions; a new one gets what fopen
	 * would give it (0666 less the umask; mkstemp makes 0600). */
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	int fd;
	FILE *f;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= sizeof(tmp)) {
		fprintf(stderr, "baretop-host %s: %s: name too long\n", cmd, path);
		return false;
	}
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, "baretop-host %s: cannot write %s: %s\n", cmd, path, strerror(errno));
		if (fd >= 0)
			close(fd), unlink(tmp);
		return false;
	}
	/* on disk before the rename: a crash leaves the old file or the new
	 * one, never an empty one under the old name */
	bool ok = fchmod(fd, mode) == 0 && fwrite(buf, 1, len, f) == len && fflush(f) == 0 &&
		  fsync(fd) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(stderr, "baretop-host %s: writing %s failed: %s\n", cmd, path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

bool host_output_end(struct host_output *o, bool keep)
{
	bool ok;

	if (!o->f)
		return false;
	if (o->f == stdout) {
		ok = fflush(stdout) == 0 && !ferror(stdout);
		if (!ok)
			fprintf(stderr, "baretop-host %s: writing standard output failed: %s\n", o->cmd,
				strerror(errno));
		o->f = NULL;
		return ok;
	}
	ok = fclose(o->f) == 0;
	o->f = NULL;
	if (!ok)
		fprintf(stderr, "baretop-host %s: %s: %s\n", o->cmd, o->path, strerror(errno));
	else if (keep)
		ok = host_write_whole(o->cmd, o->path, o->buf, o->len);
	free(o->buf);
	o->buf = NULL;
	return ok;
}

bool host_make_dirs(const char *cmd, const char *path)
{
	char buf[4096];
	struct stat sb;
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf)) {
		fprintf(stderr, "baretop-host %s: '%s': not a folder name\n", cmd, path);
		return false;
	}
	memcpy(buf, path, len + 1);
	/* each prefix ending before a '/', then the whole path */
	for (size_t i = 1; i <= len; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		char c = buf[i];
		buf[i] = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST) {
			fprintf(stderr, "baretop-host %s: cannot make folder %s: %s\n", cmd, buf, strerror(errno));
			return false;
		}
		buf[i] = c;
	}
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "baretop-host %s: %s: %s\n", cmd, path,
			stat(path, &sb) != 0 ? strerror(errno) : "not a folder");
		return false;
	}
	return true;
}

bool host_parse_uint(const char *cmd, const char *option, const char *text, unsigned min,
		     unsigned max, unsigned *ret)
{
	uint64_t v;

	/* The same numbers baretop's own options take (app/options.c). */
	if (bt_options_parse_u64(text, max, &v) != BT_OK || v < min) {
		fprintf(stderr, "%s: %s '%s': a number from %u to %u expected\n", cmd, option, text,
			min, max);
		return false;
	}
	*ret = (unsigned)v;
	return true;
}
