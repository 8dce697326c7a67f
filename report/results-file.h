/* SPDX-License-Identifier: MIT */
/*
 * Results files: never lost, never overwritten. Each run writes
 * DIR/NNNNNN.EXT with the next free sequence number: the document is
 * rendered for that number, written to DIR/NNNNNN.tmp, flushed and closed,
 * then renamed into place by a rename that refuses to replace a file. A
 * failure leaves no partial file under the final name.
 */
#ifndef REPORT_RESULTS_FILE_H
#define REPORT_RESULTS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "base/status.h"
#include "base/strbuf.h"

/* Renders the document for sequence number `seq` into out. */
typedef bt_status bt_render_fn(unsigned seq, struct bt_strbuf *out, void *ctx);

/* rename() that fails (errno EEXIST) instead of replacing `to`. */
typedef int bt_rename_noreplace_fn(const char *from, const char *to);

struct bt_results_written {
	unsigned seq;
	char path[256];
	bool note_written;   /* the sequence note (below) records this file's note */
};

#define BT_RESULTS_MAX_SEQ 999999u

/* The ESP is shared with the OS: its kernel installs and firmware capsule
 * updates (fwupd stages capsules there) fail on a full one. A run keeps at
 * most this many results files by default (--keep-results; 100 files of
 * 120-660 KB are 12-66 MB) and writes none while the volume has less than
 * this free (--min-free, MiB). */
#define BT_KEEP_RESULTS_DEFAULT 100u
#define BT_RESULTS_MIN_FREE_MIB_DEFAULT 32u

/*
 * After the file is in place, the sequence note DIR/next-sequence is
 * rewritten: "N\n", the next number to try, then "SEQ NOTE\n" when there
 * is a note: `note` (one line) naming this file's number SEQ, or, written
 * with no note, the note that was there (another run's, so that a person's
 * run between two boots does not erase an unattended run's record). N is
 * a hint, never the truth about which names are free. The note is
 * replaced atomically: the new text goes to DIR/next-sequence.tmp, written
 * whole and closed, then the old note is removed and the new one renamed
 * into place (a rename never replaces, efi/files.c); a reader that finds
 * no note takes the .tmp one, so a reset at any point leaves one whole
 * note or the one before.
 */
bt_status bt_results_write(const char *dir, const char *ext, bt_render_fn *render, void *ctx,
			   bt_rename_noreplace_fn *rename_noreplace, const char *note,
			   struct bt_results_written *ret, struct bt_diag *d);

/* The sequence note of DIR: the next number, and the note line's number
 * and text (0 and "" when there is none); false when there is no whole
 * note. ret_seq, note may be NULL. */
bool bt_results_note_read(const char *dir, unsigned *ret_next, unsigned *ret_seq, char *note,
			  size_t len);


/*
 * --keep-results: deletes DIR/NNNNNN.EXT for the sequence numbers up to
 * current - keep, newest first, so that the newest `keep` numbers remain
 * (current itself, the file just written, is never deleted). Without a
 * directory listing (newlib over UEFI has none) it walks down from
 * current - keep and stops after BT_RESULTS_PRUNE_GAP numbers in a row
 * that have no file: baretop's own numbers are consecutive. Returns how
 * many files it deleted.
 */
#define BT_RESULTS_PRUNE_GAP 64u
unsigned bt_results_prune(const char *dir, const char *ext, unsigned current, unsigned keep);

/* Creates dir and its parents ("a/b/c"); existing ones are fine. Returns 0
 * or an errno value. */
int bt_mkdir_p(const char *dir);

/* One phrase for a file-system errno: "the volume is write-protected". */
const char *bt_file_error_phrase(int err);

#endif
