/* SPDX-License-Identifier: MIT */
#include "tools/baretop-host/host-args.h"

#include <stdint.h>
#include <stdio.h>

#include "app/options.h"

bool host_parse_uint(const char *cmd, const char *option, const char *text, unsigned min,
		     unsigned max, unsigned *ret)
{
	uint64_t v;

	/* The same numbers baretop's own options take (app/options.c). */
	if (bt_options_parse_u64(text, max, &v) != BT_OK || v < min) {
		fprintf(stderr, "%s: %s '%s': a number from %u to %u expected\n", cmd, option, text,
			min, max);
		return false;
	}
	*ret = (unsigned)v;
	return true;
}
