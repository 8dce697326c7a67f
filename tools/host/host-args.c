/* SPDX-License-Identifier: MIT */
#include "tools/host/host-args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

bool host_parse_uint(const char *cmd, const char *option, const char *text, unsigned min,
		     unsigned max, unsigned *ret)
{
	const char *p = text;
	int base = 10;
	char *end;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	/* strtoul would take a sign or leading blanks: a number starts with a digit. */
	if (!isxdigit((unsigned char)*p) || (base == 10 && !isdigit((unsigned char)*p))) {
		fprintf(stderr, "%s: %s '%s': a number from %u to %u expected\n", cmd, option, text,
			min, max);
		return false;
	}
	errno = 0;
	unsigned long v = strtoul(p, &end, base);
	if (*end || errno || v < min || v > max) {
		fprintf(stderr, "%s: %s '%s': a number from %u to %u expected\n", cmd, option, text,
			min, max);
		return false;
	}
	*ret = (unsigned)v;
	return true;
}
