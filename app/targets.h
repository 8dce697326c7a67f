/* SPDX-License-Identifier: MIT */
/*
 * What a run writes or starts after it has measured, checked before it
 * measures: an atlas on silicon takes hours, and a target refused at its
 * end loses them (README "The event atlas", "Boot, measure, hand over").
 */
#ifndef APP_TARGETS_H
#define APP_TARGETS_H

#include "app/options.h"
#include "base/diag.h"
#include "base/status.h"

/*
 * --atlas-json FILE and --atlas-spec FILE: never a folder, an input of the
 * run or a file baretop wrote (base/out-check.h); a spec is never replaced
 * at all; their folder exists, or is one of baretop's own (the results
 * folder or a folder above it, created here as the results file's is). The
 * chainload target (--then chainload:FILE, --then-boot FILE) is a file on
 * the boot volume. The results folder is not a file. BT_ERR_INVALID (a
 * usage error) with the reason.
 */
bt_status bt_targets_check(const struct bt_options *opt, struct bt_diag *d);

#endif
