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

#include "metrics/status.h"

/* *ret_argv is NULL-terminated; free it with bt_cmdline_free(). An
 * unterminated quote is an error (BT_ERR_INVALID). */
bt_status bt_cmdline_split(const char *line, int *ret_argc, char ***ret_argv);
/* Inserts a copy of `word` before (*argv)[0]. */
bt_status bt_cmdline_prepend(int *argc, char ***argv, const char *word);
/* Appends copies of words[0..n) to *argv. */
bt_status bt_cmdline_append(int *argc, char ***argv, int n, char *const *words);
void bt_cmdline_free(int argc, char **argv);

#endif
