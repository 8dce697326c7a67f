/* SPDX-License-Identifier: MIT */
/* Option values of the baretop-host commands, checked the same way everywhere. */
#ifndef TOOLS_BARETOP_HOST_HOST_ARGS_H
#define TOOLS_BARETOP_HOST_HOST_ARGS_H

#include <stdbool.h>

/* A number as baretop's options take it (bt_options_parse_u64) in
 * [min, max]; otherwise says on stderr which option and value are wrong
 * and returns false. */
bool host_parse_uint(const char *cmd, const char *option, const char *text, unsigned min,
		     unsigned max, unsigned *ret);

#endif
