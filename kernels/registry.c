/* SPDX-License-Identifier: MIT */
/* Every built-in kernel, in the order --list-kernels and the reports use. */
#include "kernels/kernel.h"
#include "base/array.h"
#include "kernels/kernels.h"

const struct bt_kernel *const bt_kernels[] = {
	&bt_kernel_empty,
	/* instructions */
	&bt_kernel_loop_dec_jnz,
	&bt_kernel_rep_movsb,
	&bt_kernel_rep_stosb,
	&bt_kernel_nop_sled,
	/* branches */
	&bt_kernel_branch_mix,
	&bt_kernel_call_ret,
	&bt_kernel_indirect,
	/* mispredicts */
	&bt_kernel_branch_fixed,
	&bt_kernel_branch_random,
	/* memory */
	&bt_kernel_load_stride,
	&bt_kernel_store_stride,
	&bt_kernel_l1d_miss,
	&bt_kernel_dtlb_walk,
	/* FP arithmetic */
	&bt_kernel_fp_scalar_single,
	&bt_kernel_fp_scalar_double,
	&bt_kernel_fp_128_single,
	&bt_kernel_fp_128_double,
	&bt_kernel_fp_256_single,
	&bt_kernel_fp_256_double,
	&bt_kernel_fp_512_single,
	&bt_kernel_fp_512_double,
	&bt_kernel_fma_scalar_double,
	&bt_kernel_fma_256_single,
	&bt_kernel_fma_512_double,
	&bt_kernel_int_only,
	/* cycles */
	&bt_kernel_add_chain,
	&bt_kernel_div_chain,
};

const int bt_n_kernels = (int)(BT_ARRAY_SIZE(bt_kernels));
