/* SPDX-License-Identifier: MIT */
/*
 * Where a run's options come from: the configuration file first (an app
 * started by the firmware's boot manager gets no command line, so the file
 * is how an unattended machine is told what to do), then the command line,
 * which overrides it. See bt_options_load in app/options.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmdline.h"
#include "app/options.h"
#include "report/results-file.h"

/* A configuration file is a few lines of options: anything larger, or with a
 * NUL byte, is not one (and is refused rather than half-read). */
#define BT_CONFIG_MAX_BYTES 65536

/* Reads the configuration file into words (bt_config_split). Returns 0, or
 * an errno value (ENOENT when absent). A line that cannot be split is
 * reported in d and EINVAL is returned, but the words of every other line
 * are still returned, so that their --shutdown is honoured: a bad file must
 * not leave a machine waiting. */
static int read_config(const char *path, int *ret_argc, char ***ret_argv, struct bt_diag *d)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t len;
	int bad_line = 0;

	if (!f)
		return errno ? errno : ENOENT;
	text = malloc(BT_CONFIG_MAX_BYTES + 1);
	if (!text) {
		fclose(f);
		return ENOMEM;
	}
	errno = 0;
	len = fread(text, 1, BT_CONFIG_MAX_BYTES + 1, f);
	/* a directory fails at the read (EISDIR): its reason is said */
	int read_error = ferror(f), e = errno;
	fclose(f);
	if (read_error || len > BT_CONFIG_MAX_BYTES || memchr(text, '\0', len)) {
		bt_diag_set(d, "%s: %s", path,
			    read_error ? (e ? strerror(e) : "read error")
			    : len > BT_CONFIG_MAX_BYTES ? "larger than 64 KiB"
			    : "holds a NUL byte: not a text file");
		free(text);
		return EINVAL;
	}
	text[len] = '\0';
	bt_status st = bt_config_split(text, ret_argc, ret_argv, &bad_line);
	free(text);
	if (st == BT_ERR_NOMEM)
		return ENOMEM;
	if (st == BT_ERR_INVALID) {
		bt_diag_set(d, "%s:%d: unterminated quote", path, bad_line);
		return EINVAL;
	}
	return 0;
}

/* The pre-scan: which file to read, decided from the command line before
 * any option is applied. Only baretop's own words count (the words after
 * -x belong to the program it starts). */
static const char *config_path(int argc, char **argv, const char *default_path, bool *explicit_cfg)
{
	const char *cfg = NULL;
	int own = 1 + bt_options_scan_limit(argc - 1, argv + 1);

	*explicit_cfg = false;
	for (int i = 1; i < own; i++) {
		if (strncmp(argv[i], "--config=", 9) == 0) {
			cfg = argv[i] + 9;
			*explicit_cfg = true;
		} else if (strcmp(argv[i], "--config") == 0 && i + 1 < own) {
			cfg = argv[i + 1];
			*explicit_cfg = true;
		}
	}
	if (!cfg && !bt_options_has(own - 1, argv + 1, "no-config"))
		cfg = default_path;
	return cfg;
}

bt_status bt_options_load(struct bt_options *o, int argc, char **argv, const char *default_path,
			  struct bt_config_words *cfg_words, struct bt_diag *d)
{
	bool explicit_cfg;
	const char *cfg = config_path(argc, argv, default_path, &explicit_cfg);

	memset(cfg_words, 0, sizeof(*cfg_words));
	bt_options_scan_end_actions(o, argc - 1, argv + 1);
	if (cfg) {
		d->text[0] = '\0';
		int e = read_config(cfg, &cfg_words->argc, &cfg_words->argv, d);
		if (e == EINVAL) {
			bt_options_scan_end_actions(o, cfg_words->argc, cfg_words->argv);
			return BT_ERR_INVALID;
		}
		if (e == 0) {
			cfg_words->path = cfg;
			bt_options_scan_end_actions(o, cfg_words->argc, cfg_words->argv);
			if (bt_options_parse(o, cfg_words->argc, cfg_words->argv, cfg, d) != BT_OK)
				return BT_ERR_INVALID;
		} else if (explicit_cfg || e != ENOENT) {
			if (!d->text[0])
				bt_diag_set(d, "cannot read %s: %s", cfg, bt_file_error_phrase(e));
			return BT_ERR_INVALID;
		}
	}
	return bt_options_parse(o, argc - 1, argv + 1, "command line", d) == BT_OK ? BT_OK
										 : BT_ERR_INVALID;
}

void bt_config_words_free(struct bt_config_words *cfg_words)
{
	bt_cmdline_free(cfg_words->argc, cfg_words->argv);
	memset(cfg_words, 0, sizeof(*cfg_words));
}
