/* SPDX-License-Identifier: MIT */
/*
 * One line about a failure, and the status it is about handed back, so an
 * error path is one statement (systemd's log_error_errno habit):
 *
 *   if (!buf)
 *           return bt_log_status(BT_ERR_NOMEM, "cannot read %s", path);
 *
 * prints "baretop: cannot read x.json: out of memory". A failure the
 * program carries on after says so, with bt_log_status_ignoring:
 * "baretop: cannot close x.json: input/output error, ignoring".
 *
 * The line goes to stderr, after stdout is flushed so that it lands after
 * what was printed before it (in the EFI app both are the console). For
 * messages of the report itself (aligned "results       NOT written: ..."
 * lines) keep printf: those are output, not failures of the program.
 */
#ifndef BASE_LOG_H
#define BASE_LOG_H

#include <stdarg.h>

#include "base/status.h"

bt_status bt_log_status(bt_status st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bt_status bt_log_status_ignoring(bt_status st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The same line with the status already as text: for a platform status
 * that is not a bt_status (efi/ logs an EFI_STATUS by its name and returns
 * it). `ignoring` appends ", ignoring".
 */
void bt_log_vtext(const char *status_text, int ignoring, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif
