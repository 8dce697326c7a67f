/* SPDX-License-Identifier: MIT */
/* The built-in kernels, one object each (registry.c lists them). */
#ifndef KERNELS_KERNELS_H
#define KERNELS_KERNELS_H

#include "kernels/kernel.h"

extern const struct bt_kernel bt_kernel_empty;
extern const struct bt_kernel bt_kernel_loop_dec_jnz;

#endif
