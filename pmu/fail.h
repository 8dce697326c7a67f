/* SPDX-License-Identifier: MIT */
/*
 * FAIL("format", ...): write the message into the caller's err/errlen (when
 * err is not NULL) and return BT_ERR_INVALID. For functions of pmu/ that
 * take (char *err, size_t errlen) and validate user or vendor input.
 */
#ifndef PMU_FAIL_H
#define PMU_FAIL_H

#include <stdio.h>

#include "base/status.h"

#define FAIL(...)                                                   \
	do {                                                        \
		if (err)                                            \
			snprintf(err, errlen, __VA_ARGS__);         \
		return BT_ERR_INVALID;                              \
	} while (0)

#endif
