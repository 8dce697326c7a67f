/* SPDX-License-Identifier: MIT */
/* The built-in kernels, one object each (registry.c lists them), and what
 * their files share. */
#ifndef KERNELS_KERNELS_H
#define KERNELS_KERNELS_H

#include "kernels/kernel.h"

/* Offsets of struct bt_kernel_state's fields, as the asm bodies read them
 * (checked by _Static_assert in kernel.c). AUX(i) = BT_KST_AUX0 + 8 i. */
#define BT_KST_N     0
#define BT_KST_BUF   8
#define BT_KST_AUX0  24
#define BT_KST_SINK  88

/* A zeroed kernel buffer in st->buf / st->buf_bytes (teardown frees it). */
bt_status bt_kernel_alloc_buf(struct bt_kernel_state *st, uint64_t bytes, const char *who,
			      struct bt_diag *d);
void bt_kernel_free_buf(struct bt_kernel_state *st);

extern const struct bt_kernel bt_kernel_empty;
extern const struct bt_kernel bt_kernel_loop_dec_jnz;
/* strings.c, nop-sled.c */
extern const struct bt_kernel bt_kernel_rep_movsb, bt_kernel_rep_stosb, bt_kernel_nop_sled;
/* branches.c */
extern const struct bt_kernel bt_kernel_branch_mix, bt_kernel_call_ret, bt_kernel_indirect;
/* mispredict.c */
extern const struct bt_kernel bt_kernel_branch_fixed, bt_kernel_branch_random;
/* memory.c */
extern const struct bt_kernel bt_kernel_load_stride, bt_kernel_store_stride;
extern const struct bt_kernel bt_kernel_l1d_miss, bt_kernel_dtlb_walk;
/* fp.c */
extern const struct bt_kernel bt_kernel_fp_scalar_single, bt_kernel_fp_scalar_double;
extern const struct bt_kernel bt_kernel_fp_128_single, bt_kernel_fp_128_double;
extern const struct bt_kernel bt_kernel_fp_256_single, bt_kernel_fp_256_double;
extern const struct bt_kernel bt_kernel_fp_512_single, bt_kernel_fp_512_double;
extern const struct bt_kernel bt_kernel_fma_scalar_double, bt_kernel_fma_256_single;
extern const struct bt_kernel bt_kernel_fma_512_double, bt_kernel_int_only;
/* cycles.c */
extern const struct bt_kernel bt_kernel_add_chain, bt_kernel_div_chain;

#endif
