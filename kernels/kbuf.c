/* SPDX-License-Identifier: MIT */
/* What the kernel files share: their buffers, and the state's layout as the
 * asm bodies read it. (Its own file: the kernels use it, and kernel.c uses
 * the table of kernels, so putting it there would make a file cycle.) */
#include <stddef.h>
#include <stdlib.h>

#include "kernels/kernels.h"

/* Where the asm bodies find the state's fields (kernels.h: BT_KST_*). */
_Static_assert(offsetof(struct bt_kernel_state, n) == BT_KST_N, "n");
_Static_assert(offsetof(struct bt_kernel_state, buf) == BT_KST_BUF, "buf");
_Static_assert(offsetof(struct bt_kernel_state, aux) == BT_KST_AUX0, "aux[0]");
_Static_assert(offsetof(struct bt_kernel_state, sink) == BT_KST_SINK, "sink");

bt_status bt_kernel_alloc_buf(struct bt_kernel_state *st, uint64_t bytes, const char *who,
			      struct bt_diag *d)
{
	/* Zeroed: the bodies' results do not depend on what was there. */
	st->buf = bytes ? calloc(1, (size_t)bytes) : NULL;
	if (bytes && !st->buf) {
		bt_diag_set(d, "kernel %s: cannot allocate %llu bytes", who,
			    (unsigned long long)bytes);
		return BT_ERR_NOMEM;
	}
	st->buf_bytes = bytes;
	return BT_OK;
}

void bt_kernel_free_buf(struct bt_kernel_state *st)
{
	free(st->buf);
	st->buf = NULL;
	st->buf_bytes = 0;
}
