/* SPDX-License-Identifier: MIT */
/*
 * The conformance checks' results: one struct bt_check_result per check,
 * appended to the caller's list (conformance-internal.h). Apart from the
 * entry point so that the checks' files and conformance.c both call down
 * here (no file import cycle, tests/suite/lib/layering.py).
 */
#include <stdio.h>
#include <string.h>

#include "validate/conformance-internal.h"

void conf_list(char *buf, size_t len, uint32_t mask)
{
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < 32 && n < len; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? ", " : "", i);
}

static void vresult(struct conf *c, const char *id, enum bt_verdict v, bool measured,
		    uint64_t med, uint64_t mn, uint64_t mx, unsigned runs, const char *expected,
		    const char *tolerance, const char *fmt, va_list ap)
{
	struct bt_check_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.id, sizeof(r.id), "%s", id);
	snprintf(r.kernel, sizeof(r.kernel), "%s", measured ? c->loop->name : "");
	r.n = measured ? c->n : 0;
	r.verdict = v;
	r.has_measured = measured;
	r.median = med;
	r.min = mn;
	r.max = mx;
	r.runs = runs;
	snprintf(r.expected, sizeof(r.expected), "%s", expected ? expected : "");
	snprintf(r.tolerance, sizeof(r.tolerance), "%s", tolerance ? tolerance : "");
	vsnprintf(r.detail, sizeof(r.detail), fmt, ap);
	/* The check's runs an SMI disturbed (conf_run), as measure.c's runs
	 * say theirs in retried_because. */
	if (c->smi_repeats) {
		size_t len = strlen(r.detail);
		snprintf(r.detail + len, sizeof(r.detail) - len, " [%u run%s repeated: %s%s]",
			 c->smi_repeats, c->smi_repeats == 1 ? "" : "s", c->smi_why,
			 c->smi_kept ? "; an SMI in every retry, kept" : "");
	}
	c->smi_repeats = c->smi_kept = 0;
	c->smi_why[0] = '\0';
	bt_status st = bt_check_list_add(c->out, &r);
	if (st != BT_OK && c->add_status == BT_OK)
		c->add_status = st;
}

void conf_result(struct conf *c, const char *id, enum bt_verdict v, const char *expected,
		 const char *tolerance, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vresult(c, id, v, false, 0, 0, 0, 0, expected, tolerance, fmt, ap);
	va_end(ap);
}

void conf_result_measured(struct conf *c, const char *id, enum bt_verdict v, uint64_t median,
			  uint64_t min, uint64_t max, unsigned runs, const char *expected,
			  const char *tolerance, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vresult(c, id, v, true, median, min, max, runs, expected, tolerance, fmt, ap);
	va_end(ap);
}
