/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "app/cmdline.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static bt_status push(int *argc, char ***argv, char *word)
{
	char **grown = realloc(*argv, (size_t)(*argc + 2) * sizeof(char *));

	if (!grown) {
		free(word);
		return BT_ERR_NOMEM;
	}
	grown[(*argc)++] = word;
	grown[*argc] = NULL;
	*argv = grown;
	return BT_OK;
}

bt_status bt_cmdline_split(const char *line, int *ret_argc, char ***ret_argv)
{
	int argc = 0;
	char **argv = calloc(1, sizeof(char *));
	const char *p = line;

	if (!argv)
		return BT_ERR_NOMEM;
	for (;;) {
		while (is_blank(*p))
			p++;
		if (!*p)
			break;
		/* A word is never longer than the rest of the line. */
		char *word = malloc(strlen(p) + 1), *w = word;
		int quoted = 0;

		if (!word) {
			bt_cmdline_free(argc, argv);
			return BT_ERR_NOMEM;
		}
		while (*p && (quoted || !is_blank(*p))) {
			if (*p == '^' && p[1]) {
				*w++ = p[1];
				p += 2;
			} else if (*p == '"') {
				quoted = !quoted;
				p++;
			} else {
				*w++ = *p++;
			}
		}
		*w = '\0';
		if (quoted) {
			free(word);
			bt_cmdline_free(argc, argv);
			return BT_ERR_INVALID;
		}
		if (push(&argc, &argv, word) != BT_OK) {
			bt_cmdline_free(argc, argv);
			return BT_ERR_NOMEM;
		}
	}
	*ret_argc = argc;
	*ret_argv = argv;
	return BT_OK;
}

bt_status bt_cmdline_prepend(int *argc, char ***argv, const char *word)
{
	char *copy = strdup(word);

	if (!copy || push(argc, argv, copy) != BT_OK)
		return BT_ERR_NOMEM;
	memmove(*argv + 1, *argv, (size_t)(*argc - 1) * sizeof(char *));
	(*argv)[0] = copy;
	return BT_OK;
}

bt_status bt_cmdline_append(int *argc, char ***argv, int n, char *const *words)
{
	for (int i = 0; i < n; i++) {
		char *copy = strdup(words[i]);

		if (!copy || push(argc, argv, copy) != BT_OK)
			return BT_ERR_NOMEM;
	}
	return BT_OK;
}

void bt_cmdline_free(int argc, char **argv)
{
	if (!argv)
		return;
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

bt_status bt_config_split(const char *text, int *ret_argc, char ***ret_argv, int *ret_bad_line)
{
	int argc = 0, lineno = 0;
	char **argv = calloc(1, sizeof(char *));
	bt_status result = BT_OK;

	*ret_bad_line = 0;
	if (!argv)
		return BT_ERR_NOMEM;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *line = malloc(len + 1);
		char **words;
		int n;

		lineno++;
		if (!line) {
			bt_cmdline_free(argc, argv);
			return BT_ERR_NOMEM;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (end != NULL);

		const char *q = line;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '#') {
			free(line);
			continue;
		}
		bt_status st = bt_cmdline_split(q, &n, &words);
		free(line);
		if (st == BT_ERR_INVALID) {
			if (result == BT_OK)
				*ret_bad_line = lineno;
			result = BT_ERR_INVALID;
			continue;
		}
		if (st == BT_OK) {
			st = bt_cmdline_append(&argc, &argv, n, words);
			bt_cmdline_free(n, words);
		}
		if (st != BT_OK) {
			bt_cmdline_free(argc, argv);
			return BT_ERR_NOMEM;
		}
	}
	*ret_argc = argc;
	*ret_argv = argv;
	return result;
}
