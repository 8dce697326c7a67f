/* SPDX-License-Identifier: MIT */
/* What every format of the results needs: a few conversions, and saving a
 * document in a format under the results-file rules. */
#include <inttypes.h>
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
};

static bt_status render_seq(unsigned seq, struct bt_strbuf *out, void *ctx)
{
	const struct save_ctx *s = ctx;

	return s->fmt->render(s->res, seq, out);
}

bt_status bt_results_save(const char *dir, const struct bt_results_format *fmt,
			  const struct bt_results *res, bt_rename_noreplace_fn *rename_noreplace,
			  const char *note, struct bt_results_written *ret, struct bt_diag *d)
{
	struct save_ctx s = { .fmt = fmt, .res = res };

	return bt_results_write(dir, fmt->ext, render_seq, &s, rename_noreplace, note, ret, d);
}
