/* SPDX-License-Identifier: MIT */
/*
 * Whether an output may go to a path: the one check every output option of
 * baretop and baretop-host makes before anything is measured or written.
 * Results are never lost by a later command, so an output never goes
 *  - to a folder;
 *  - over one of the same command's inputs (the same file, by device and
 *    inode where the file system gives them, else by name);
 *  - over a file baretop wrote or reads as its input, known by its first
 *    bytes: a results file, replayed counts, an event atlas, a validation
 *    spec, a count file, an event list or a model's metrics file.
 * Any other existing file may be replaced (a page or a CSV written again).
 */
#ifndef BASE_OUT_CHECK_H
#define BASE_OUT_CHECK_H

#include "base/diag.h"
#include "base/status.h"

/* BT_OK, or BT_ERR_INVALID with d = "will not write over PATH: why".
 * "-" (standard output) is always fine; inputs ends with NULL (may be
 * NULL), its NULL-less entries compared with path. */
bt_status bt_output_check(const char *path, const char *const *inputs, struct bt_diag *d);

#endif
