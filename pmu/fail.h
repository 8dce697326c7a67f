/* SPDX-License-Identifier: MIT */
/*
 * FAIL("format", ...): set the message in the caller's struct bt_diag *d
 * (dropped when d is NULL) and return BT_ERR_INVALID. For functions of pmu/
 * that take a struct bt_diag *d and validate user or vendor input.
 */
#ifndef PMU_FAIL_H
#define PMU_FAIL_H

#include "base/diag.h"
#include "base/status.h"

#define FAIL(...)                                                   \
	do {                                                        \
		bt_diag_set(d, __VA_ARGS__);                        \
		return BT_ERR_INVALID;                              \
	} while (0)

#endif
