/* SPDX-License-Identifier: MIT */
/* What every format of the results needs: a few conversions, and saving a
 * document in a format under the results-file rules. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/results.h"

void bt_uefi_revision_str(uint32_t rev, char *buf, size_t len)
{
	uint32_t major = rev >> 16, minor = rev & 0xffff;

	if (minor % 10)
		snprintf(buf, len, "%" PRIu32 ".%" PRIu32 ".%" PRIu32, major, minor / 10, minor % 10);
	else
		snprintf(buf, len, "%" PRIu32 ".%" PRIu32, major, minor / 10);
}

double bt_ticks_ms(uint64_t tsc_hz, uint64_t ticks)
{
	return tsc_hz ? (double)ticks * 1e3 / (double)tsc_hz : 0.0;
}

struct save_ctx {
	const struct bt_results_format *fmt;
	const struct bt_results *res;
	size_t size;        /* the document's bytes, once rendered */
	bool over_floor;    /* writing it would go below --min-free */
};

/* The floor holds after the write too: a document (hundreds of CPUs, each
 * with its trees) can be tens of MiB, which the free space measured
 * before must still hold with --min-free to spare. */
static bt_status render_seq(unsigned seq, struct bt_strbuf *out, void *ctx)
{
	struct save_ctx *s = ctx;
	const struct bt_results *res = s->res;
	bt_status st = s->fmt->render(res, seq, out);

	s->size = out->n;
	if (st == BT_OK && res->have_volume_free && res->min_free_bytes &&
	    (res->volume_free_bytes < out->n ||
	     res->volume_free_bytes - out->n < res->min_free_bytes)) {
		s->over_floor = true;
		return BT_ERR_FULL;
	}
	return st;
}

bt_status bt_results_save(const char *dir, const struct bt_results_format *fmt,
			  const struct bt_results *res, bt_rename_noreplace_fn *rename_noreplace,
			  const char *note, struct bt_results_written *ret, struct bt_diag *d)
{
	struct save_ctx s = { .fmt = fmt, .res = res };
	bt_status st = bt_results_write(dir, fmt->ext, render_seq, &s, rename_noreplace, note,
					ret, d);

	if (st == BT_ERR_FULL && s.over_floor)
		bt_diag_set(d, "the file would be %.1f MiB and leave %.1f MiB free, below the floor "
			    "of %.0f MiB (--min-free)", (double)s.size / 1048576.0,
			    res->volume_free_bytes > s.size ?
			    (double)(res->volume_free_bytes - s.size) / 1048576.0 : 0.0,
			    (double)res->min_free_bytes / 1048576.0);
	return st;
}
