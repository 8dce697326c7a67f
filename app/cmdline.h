/* SPDX-License-Identifier: MIT */
/*
 * Splitting command lines and configuration-file lines into words, the way
 * the UEFI shell does: blanks separate words, double quotes group them
 * ("a b" is one word), and '^' takes the next character literally (the
 * shell's escape, so ^" is a quote). Backslashes are ordinary characters:
 * they are path separators on the ESP.
 */
#ifndef APP_CMDLINE_H
#define APP_CMDLINE_H

#include "base/status.h"

/* *ret_argv is NULL-terminated; free it with bt_cmdline_free(). An
 * unterminated quote is an error (BT_ERR_INVALID). */
bt_status bt_cmdline_split(const char *line, int *ret_argc, char ***ret_argv);
/*
 * The words of a configuration file's text: each line split as above; a
 * line whose first non-blank character is '#' is a comment, and quotes do
 * not span lines. A line that cannot be split (an unterminated quote) makes
 * this return BT_ERR_INVALID with *ret_bad_line = its number (from 1), but
 * the words of every other line are still returned, so that a --shutdown in
 * a damaged file is still honoured.
 */
bt_status bt_config_split(const char *text, int *ret_argc, char ***ret_argv, int *ret_bad_line);
/* Inserts a copy of `word` before (*argv)[0]. */
bt_status bt_cmdline_prepend(int *argc, char ***argv, const char *word);
/* Appends copies of words[0..n) to *argv. */
bt_status bt_cmdline_append(int *argc, char ***argv, int n, char *const *words);
void bt_cmdline_free(int argc, char **argv);

#endif
