/* SPDX-License-Identifier: MIT */
/*
 * Error messages for the caller. Functions that can fail for a reason a user
 * must see (a malformed vendor file, an unknown event in a formula, a count
 * file without a needed event) fill a struct bt_diag with one line of text,
 * "file:line:column: what" or "model SPR: node Frontend_Bound: what", and
 * return a bt_status. A NULL diag is allowed: the text is then dropped.
 */
#ifndef BASE_DIAG_H
#define BASE_DIAG_H

#define BT_DIAG_MAX 512

struct bt_diag {
	char text[BT_DIAG_MAX];
};

/* Sets the message (printf format); does nothing if d is NULL. */
void bt_diag_set(struct bt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prepends "prefix: " to the message already there. */
void bt_diag_prefix(struct bt_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
