/* SPDX-License-Identifier: MIT */
/*
 * Shared by the atlas's files only (validate/atlas*.c): the encodings it
 * programs -- the list's own and those it derives from them for the
 * invariants -- and their counts per kernel and size.
 */
#ifndef VALIDATE_ATLAS_INTERNAL_H
#define VALIDATE_ATLAS_INTERNAL_H

#include "validate/atlas.h"

enum bt_atlas_probe_kind {
	BT_PROBE_LIST = 0,    /* the event as the list encodes it */
	BT_PROBE_C1,          /* its base encoding with CMASK=1 */
	BT_PROBE_C1_INV,      /* CMASK=1, INV */
	BT_PROBE_C1_EDGE,     /* CMASK=1, E */
	BT_PROBE_NO_ANY,      /* an AnyThread event without AnyThread */
	BT_PROBE_ALIAS_GP,    /* a fixed counter's architectural event on a general counter */
};

struct bt_atlas_probe {
	struct bt_event ev;
	int of;               /* the list event it was made for */
	uint8_t kind;         /* enum bt_atlas_probe_kind */
	bool skip;            /* not planned (refused, or a duplicate of `dup`) */
	int dup;              /* same encoding as an earlier probe: its counts; -1 */
	struct bt_atlas_count c[BT_ATLAS_MAX_KERNELS][2]; /* sizes n, 2n */
};

#endif
