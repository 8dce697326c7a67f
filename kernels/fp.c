/* SPDX-License-Identifier: MIT */
/*
 * FP arithmetic kernels by width and precision, n iterations each, and an
 * integer-only negative control.
 *
 * Counts follow FP_ARITH_INST_RETIRED (event 0xC7 of Intel's perfmon event
 * lists, umasks SCALAR_SINGLE 0x02, SCALAR_DOUBLE 0x01,
 * 128B_PACKED_DOUBLE 0x04, 128B_PACKED_SINGLE 0x08, 256B_PACKED_DOUBLE 0x10,
 * 256B_PACKED_SINGLE 0x20, 512B_PACKED_DOUBLE 0x40, 512B_PACKED_SINGLE 0x80):
 * one per computational instruction, an FMA counting 2; the register
 * zeroing (XORPS, VPXORD), moves and VZEROUPPER are not counted.
 *   fp-<w>-<p>     per iteration one ADD and one MUL of that width and
 *                  precision (independent registers, all zero: no FP
 *                  exception or denormal assist);
 *   fma-<w>-<p>    per iteration two FMAs (vfmadd231);
 *   int-only       per iteration an integer ADD and IMUL: 0 FP operations.
 * The 256-bit kernels need AVX (FMA kernels also FMA), the 512-bit ones
 * AVX-512F, with the state enabled: setup returns BT_ERR_UNSUPPORTED
 * otherwise. Every body is the same loop: MOV n, 4 zeroing instructions,
 * n x (op, op, DEC, JNZ), [VZEROUPPER after VEX/EVEX code], RET.
 */
#include <stddef.h>

#include "kernels/kernel.h"
#include "kernels/kernels.h"

#define FP_BODY(sym, zero, op_a, op_b, tail)                             \
	".text\n"                                                        \
	".p2align 4\n"                                                   \
	".globl " sym "\n"                                               \
	".type " sym ", @function\n"                                     \
	sym ":\n"                                                        \
	"	movq 0(%rdi), %rcx\n"                                    \
	zero                                                             \
	"1:	" op_a "\n"                                              \
	"	" op_b "\n"                                              \
	"	decq %rcx\n"                                             \
	"	jnz 1b\n"                                                \
	tail                                                             \
	"	ret\n"                                                   \
	".size " sym ", .-" sym "\n"

#define ZERO_SSE "	xorps %xmm0, %xmm0\n	xorps %xmm1, %xmm1\n" \
		 "	xorps %xmm2, %xmm2\n	xorps %xmm3, %xmm3\n"
#define ZERO_AVX "	vxorps %ymm0, %ymm0, %ymm0\n	vxorps %ymm1, %ymm1, %ymm1\n" \
		 "	vxorps %ymm2, %ymm2, %ymm2\n	vxorps %ymm3, %ymm3, %ymm3\n"
#define ZERO_512 "	vpxord %zmm0, %zmm0, %zmm0\n	vpxord %zmm1, %zmm1, %zmm1\n" \
		 "	vpxord %zmm2, %zmm2, %zmm2\n	vpxord %zmm3, %zmm3, %zmm3\n"
#define ZERO_INT "	xorl %eax, %eax\n	xorl %edx, %edx\n	xorl %esi, %esi\n" \
		 "	xorl %r8d, %r8d\n"
#define VZU "	vzeroupper\n"

__asm__(FP_BODY("bt_kbody_fp_scalar_single", ZERO_SSE,
		"addss %xmm1, %xmm0", "mulss %xmm3, %xmm2", "")
	FP_BODY("bt_kbody_fp_scalar_double", ZERO_SSE,
		"addsd %xmm1, %xmm0", "mulsd %xmm3, %xmm2", "")
	FP_BODY("bt_kbody_fp_128_single", ZERO_SSE,
		"addps %xmm1, %xmm0", "mulps %xmm3, %xmm2", "")
	FP_BODY("bt_kbody_fp_128_double", ZERO_SSE,
		"addpd %xmm1, %xmm0", "mulpd %xmm3, %xmm2", "")
	FP_BODY("bt_kbody_fp_256_single", ZERO_AVX,
		"vaddps %ymm1, %ymm0, %ymm0", "vmulps %ymm3, %ymm2, %ymm2", VZU)
	FP_BODY("bt_kbody_fp_256_double", ZERO_AVX,
		"vaddpd %ymm1, %ymm0, %ymm0", "vmulpd %ymm3, %ymm2, %ymm2", VZU)
	FP_BODY("bt_kbody_fp_512_single", ZERO_512,
		"vaddps %zmm1, %zmm0, %zmm0", "vmulps %zmm3, %zmm2, %zmm2", VZU)
	FP_BODY("bt_kbody_fp_512_double", ZERO_512,
		"vaddpd %zmm1, %zmm0, %zmm0", "vmulpd %zmm3, %zmm2, %zmm2", VZU)
	FP_BODY("bt_kbody_fma_scalar_double", ZERO_AVX,
		"vfmadd231sd %xmm1, %xmm2, %xmm0", "vfmadd231sd %xmm1, %xmm2, %xmm3", VZU)
	FP_BODY("bt_kbody_fma_256_single", ZERO_AVX,
		"vfmadd231ps %ymm1, %ymm2, %ymm0", "vfmadd231ps %ymm1, %ymm2, %ymm3", VZU)
	FP_BODY("bt_kbody_fma_512_double", ZERO_512,
		"vfmadd231pd %zmm1, %zmm2, %zmm0", "vfmadd231pd %zmm1, %zmm2, %zmm3", VZU)
	FP_BODY("bt_kbody_int_only", ZERO_INT,
		"addq %rcx, %rax", "imulq %rcx, %rdx", ""));

void bt_kbody_fp_scalar_single(void *arg);
void bt_kbody_fp_scalar_double(void *arg);
void bt_kbody_fp_128_single(void *arg);
void bt_kbody_fp_128_double(void *arg);
void bt_kbody_fp_256_single(void *arg);
void bt_kbody_fp_256_double(void *arg);
void bt_kbody_fp_512_single(void *arg);
void bt_kbody_fp_512_double(void *arg);
void bt_kbody_fma_scalar_double(void *arg);
void bt_kbody_fma_256_single(void *arg);
void bt_kbody_fma_512_double(void *arg);
void bt_kbody_int_only(void *arg);

static bt_status need_avx(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			  struct bt_diag *d)
{
	if (cpu && cpu->isa.avx)
		return BT_OK;
	bt_diag_set(d, "AVX is absent or its register state is not enabled");
	return BT_ERR_UNSUPPORTED;
}

static bt_status need_fma(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			  struct bt_diag *d)
{
	if (cpu && cpu->isa.avx && cpu->isa.fma)
		return BT_OK;
	bt_diag_set(d, "FMA (or AVX, or its register state) is absent");
	return BT_ERR_UNSUPPORTED;
}

static bt_status need_avx512(struct bt_kernel_state *st, const struct bt_kernel_cpu *cpu,
			     struct bt_diag *d)
{
	if (cpu && cpu->isa.avx512f)
		return BT_OK;
	bt_diag_set(d, "AVX-512F is absent or its register state is not enabled");
	return BT_ERR_UNSUPPORTED;
}

/* Per-iteration FP counts in the order of the FP_ARITH umasks above, the
 * FMAs and the element operations; c0 of instructions: MOV + 4 zeroing +
 * RET, + VZEROUPPER for VEX/EVEX code. */
#define FP_COUNTS(insts_c0, ss, sd, s128, d128, s256, d256, s512, d512, fma, flops) \
	{ BT_KC_INSTRUCTIONS, insts_c0, 4 },                                 \
	{ BT_KC_FP_SCALAR_SINGLE, 0, ss },                                    \
	{ BT_KC_FP_SCALAR_DOUBLE, 0, sd },                                    \
	{ BT_KC_FP_128_SINGLE, 0, s128 },                                     \
	{ BT_KC_FP_128_DOUBLE, 0, d128 },                                     \
	{ BT_KC_FP_256_SINGLE, 0, s256 },                                     \
	{ BT_KC_FP_256_DOUBLE, 0, d256 },                                     \
	{ BT_KC_FP_512_SINGLE, 0, s512 },                                     \
	{ BT_KC_FP_512_DOUBLE, 0, d512 },                                     \
	{ BT_KC_FP_FMA, 0, fma },                                             \
	{ BT_KC_FP_FLOPS, 0, flops },                                         \
	{ BT_KC_BRANCHES, 1, 1 },                                             \
	{ BT_KC_COND, 0, 1 },                                                 \
	{ BT_KC_NEAR_RETURNS, 1, 0 },                                         \
	{ BT_KC_INDIRECT, 0, 0 },                                             \
	{ BT_KC_LOADS, 2, 0 },          /* the MOV from the state, the RET */ \
	{ BT_KC_STORES, 0, 0 }

#define FP_KERNEL(var, kname, body, setup_fn, summ, ...)                      \
	const struct bt_kernel var = {                                        \
		.name = kname,                                                \
		.summary = summ,                                              \
		.n_means = "iterations",                                      \
		.n_default = 1000000, .n_quick = 10000,                       \
		.n_min = 1, .n_max = UINT64_C(1) << 40,                       \
		.setup = setup_fn,                                            \
		.run = body,                                                  \
		.counts = BT_KCOUNTS( FP_COUNTS(__VA_ARGS__) ),                         \
	}

FP_KERNEL(bt_kernel_fp_scalar_single, "fp-scalar-single", bt_kbody_fp_scalar_single, NULL,
	  "per iteration ADDSS + MULSS",          6, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2);
FP_KERNEL(bt_kernel_fp_scalar_double, "fp-scalar-double", bt_kbody_fp_scalar_double, NULL,
	  "per iteration ADDSD + MULSD",          6, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2);
FP_KERNEL(bt_kernel_fp_128_single, "fp-128-single", bt_kbody_fp_128_single, NULL,
	  "per iteration ADDPS + MULPS (xmm)",    6, 0, 0, 2, 0, 0, 0, 0, 0, 0, 8);
FP_KERNEL(bt_kernel_fp_128_double, "fp-128-double", bt_kbody_fp_128_double, NULL,
	  "per iteration ADDPD + MULPD (xmm)",    6, 0, 0, 0, 2, 0, 0, 0, 0, 0, 4);
FP_KERNEL(bt_kernel_fp_256_single, "fp-256-single", bt_kbody_fp_256_single, need_avx,
	  "per iteration VADDPS + VMULPS (ymm)",  7, 0, 0, 0, 0, 2, 0, 0, 0, 0, 16);
FP_KERNEL(bt_kernel_fp_256_double, "fp-256-double", bt_kbody_fp_256_double, need_avx,
	  "per iteration VADDPD + VMULPD (ymm)",  7, 0, 0, 0, 0, 0, 2, 0, 0, 0, 8);
FP_KERNEL(bt_kernel_fp_512_single, "fp-512-single", bt_kbody_fp_512_single, need_avx512,
	  "per iteration VADDPS + VMULPS (zmm)",  7, 0, 0, 0, 0, 0, 0, 2, 0, 0, 32);
FP_KERNEL(bt_kernel_fp_512_double, "fp-512-double", bt_kbody_fp_512_double, need_avx512,
	  "per iteration VADDPD + VMULPD (zmm)",  7, 0, 0, 0, 0, 0, 0, 0, 2, 0, 16);
/* An FMA counts 2 in its width's FP_ARITH count: 2 FMAs per iteration = 4. */
FP_KERNEL(bt_kernel_fma_scalar_double, "fma-scalar-double", bt_kbody_fma_scalar_double, need_fma,
	  "per iteration 2 x VFMADD231SD",        7, 0, 4, 0, 0, 0, 0, 0, 0, 2, 4);
FP_KERNEL(bt_kernel_fma_256_single, "fma-256-single", bt_kbody_fma_256_single, need_fma,
	  "per iteration 2 x VFMADD231PS (ymm)",  7, 0, 0, 0, 0, 4, 0, 0, 0, 2, 32);
FP_KERNEL(bt_kernel_fma_512_double, "fma-512-double", bt_kbody_fma_512_double, need_avx512,
	  "per iteration 2 x VFMADD231PD (zmm)",  7, 0, 0, 0, 0, 0, 0, 0, 4, 2, 32);
FP_KERNEL(bt_kernel_int_only, "int-only", bt_kbody_int_only, NULL,
	  "per iteration ADD + IMUL: the negative control, 0 FP operations",
	  6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
