/* SPDX-License-Identifier: MIT */
/*
 * Expected counts as expressions over a kernel's declared counts:
 *
 *     k.NAME      the kernel's declared count NAME (kernels/kernel.h BT_KC_*)
 *                 at size n (on the pages that map its buffer, for a count
 *                 declared per page size), minus the same count of kernel
 *                 `empty` (the calibration window's body, RET only; 0 for
 *                 counts RET adds nothing to by their definition), because the
 *                 measurement engine subtracts that window: the corrected
 *                 count of a kernel is exactly declared(k) - declared(empty)
 *     n           the kernel's size parameter
 *     numbers, + - * / and parentheses
 *
 * Parsed with the metric core's formula parser (metrics/expr.h, canonical
 * dialect); only the operators above are accepted here.
 */
#ifndef VALIDATE_EXPECT_H
#define VALIDATE_EXPECT_H

#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "kernels/kernel.h"

/* Checks the syntax and the names (k.NAME must be a well-formed name; the
 * kernel need not declare it: that is known only at run time). */
bt_status bt_vexpr_check(const char *text, struct bt_diag *d);

/* Evaluates text for kernel k at size n. BT_ERR_UNSUPPORTED (with the
 * reason) when k or `empty` does not declare a count the expression names;
 * BT_ERR_INVALID for a syntax error or a division by zero. */
bt_status bt_vexpr_eval(const char *text, const struct bt_kernel *k, uint64_t n, double *ret,
			struct bt_diag *d);

/* As bt_vexpr_eval for a kernel whose buffer `pages` map (the state's
 * pages after bt_kernel_setup): counts the kernel declares per page size
 * (kernels/kernel.h, dtlb-walk's page_loads) are known only with them. */
bt_status bt_vexpr_eval_on(const char *text, const struct bt_kernel *k, uint64_t n,
			   const struct bt_page_span *pages, double *ret, struct bt_diag *d);

#endif
