/* SPDX-License-Identifier: MIT */
/* Every built-in kernel, in the order --list-kernels and the reports use. */
#include "kernels/kernel.h"
#include "kernels/kernels.h"

const struct bt_kernel *const bt_kernels[] = {
	&bt_kernel_empty,
	&bt_kernel_loop_dec_jnz,
};

const int bt_n_kernels = (int)(sizeof(bt_kernels) / sizeof(bt_kernels[0]));
