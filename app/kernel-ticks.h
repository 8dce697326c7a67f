/* SPDX-License-Identifier: MIT */
/*
 * --kernel-ticks (hidden; for the suite's `kernel-icount` step): times every known-count
 * kernel at two sizes between two RDTSC reads (bt_time_workload: the same
 * window for every body) and prints one machine-readable line per kernel
 * and size. Under QEMU with -icount shift=0,sleep=off the TSC advances one
 * tick per executed instruction, so ticks minus the empty body's ticks are
 * the body's instructions minus one (the empty body's RET): what the `kernel-icount` step
 * compares with the declarations.
 */
#ifndef APP_KERNEL_TICKS_H
#define APP_KERNEL_TICKS_H

#include <stdio.h>

#include "arch/arch.h"
#include "base/status.h"
#include "kernels/kernel.h"

/* n1 = the kernel's n_quick (at least 1, at most n_max / 2), n2 = 2 n1. */
uint64_t bt_kernel_ticks_size(const struct bt_kernel *k, int which);

/* Prints, per kernel and size:
 *   kernel-ticks NAME N MIN MAX RUNS
 *   kernel-ticks-skip NAME REASON
 * and a last line "kernel-ticks-done". BT_ERR_* when a kernel failed to set
 * up for another reason than lacking an ISA. */
bt_status bt_kernel_ticks_run(struct bt_arch *arch, FILE *f);

#endif
