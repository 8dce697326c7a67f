/* SPDX-License-Identifier: MIT */
/*
 * Microcode assists: floating-point multiplies with denormal (subnormal)
 * inputs and results.
 *
 * out[i] = in[i] * m[i mod 4], with in[] denormal binary64 values
 * ((1 + i mod 16) * 2^-1070, below the smallest normal 2^-1022) and
 * m = {0.75, 1.25, 0.5, 1.5}: every multiply reads a denormal and produces a
 * denormal. On Intel cores SSE/AVX multiplies with denormal operands or
 * results are finished by a microcode assist (tens to hundreds of cycles)
 * unless MXCSR.DAZ / MXCSR.FTZ are set, so the body does not trust the
 * MXCSR it inherits (UEFI and the Linux ABI promise 0x1F80 at entry, but a
 * firmware service, an AP's start-up code or the caller may have set FTZ or
 * DAZ, and with DAZ the inputs read as zero, with FTZ the outputs are
 * flushed: no assist, and a different checksum). It saves MXCSR, loads
 * 0x1F80 (round to nearest, every exception masked, FTZ = DAZ = 0) and puts
 * the saved value back at the end: three instructions in the window, the
 * same in the control. It does this in the body itself, not in before_run,
 * because the multi-copy mode runs copies of the body without the hooks;
 * setup computes the inputs under the same MXCSR.
 *
 * denormal=0 is the control: the same inputs scaled by 2^1000 (normal), the
 * same instructions, no assists.
 *
 * The loop is plain C: the compiler may use scalar or packed SSE2 multiplies
 * (the assists happen either way); each pass ends with a compiler barrier so
 * repeated identical passes are all performed. The checksum hashes out[] by
 * bit pattern (IEEE multiplication is exactly rounded: same bits everywhere).
 */
#include <stdlib.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define DENORMAL_ELEMENTS 512      /* 4 KiB in, 4 KiB out: L1-resident */
/* MXCSR for the body: exception masks 12:7 set, RC (14:13) = nearest,
 * FTZ (15) = DAZ (6) = 0, flags 5:0 clear (SDM vol. 1, "MXCSR Control and
 * Status Register"). */
#define DENORMAL_MXCSR 0x1F80u

struct assists {
	double *in, *out;
	double m[4];
	uint64_t laps;
	struct bt_wl_buf buf;
	const struct bt_wl_env *env;
};

/*
 * Loads DENORMAL_MXCSR and returns the caller's MXCSR for mxcsr_leave().
 * asm with a memory clobber, not _mm_setcsr: compilers do not order FP
 * arithmetic against MXCSR writes, but the multiplies read in[] and write
 * out[], which cannot cross these.
 */
static inline uint32_t mxcsr_enter(void)
{
	uint32_t saved, known = DENORMAL_MXCSR;

	__asm__ volatile("stmxcsr %0" : "=m"(saved) : : "memory");
	__asm__ volatile("ldmxcsr %0" : : "m"(known) : "memory");
	return saved;
}

static inline void mxcsr_leave(uint32_t saved)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(saved) : "memory");
}

static void denormal_run(void *state)
{
	struct assists *st = state;
	const double *restrict in = st->in;
	double *restrict out = st->out;
	const double m0 = st->m[0], m1 = st->m[1], m2 = st->m[2], m3 = st->m[3];
	uint32_t saved_mxcsr = mxcsr_enter();

	for (uint64_t lap = 0; lap < st->laps; lap++) {
		for (size_t i = 0; i < DENORMAL_ELEMENTS; i += 4) {
			out[i] = in[i] * m0;
			out[i + 1] = in[i + 1] * m1;
			out[i + 2] = in[i + 2] * m2;
			out[i + 3] = in[i + 3] * m3;
		}
		BT_WL_MEMORY_BARRIER();
	}
	mxcsr_leave(saved_mxcsr);
}

static uint64_t denormal_checksum(const void *state)
{
	const struct assists *st = state;

	return bt_wl_hash_doubles(BT_WL_HASH_INIT, st->out, DENORMAL_ELEMENTS);
}

static void denormal_teardown(void *state)
{
	struct assists *st = state;

	bt_wl_buf_free(&st->buf, st->env);
	free(st);
}

/* 2^e for -1074 <= e <= 1023, exactly, without relying on libm's ldexp. */
static double pow2(int e)
{
	double x = 1.0;

	for (; e > 0; e--)
		x *= 2.0;
	for (; e < 0; e++)
		x *= 0.5;   /* exact: halving is exact down to the smallest denormal */
	return x;
}

static bt_status denormal_setup(const uint64_t *values, const struct bt_wl_env *env,
				void **ret_state, struct bt_diag *d)
{
	struct assists *st = calloc(1, sizeof *st);
	double unit;
	bt_status s;

	if (!st)
		return BT_ERR_NOMEM;
	st->env = env;
	st->laps = values[0];
	s = bt_wl_buf_alloc(&st->buf, env, 2 * DENORMAL_ELEMENTS * sizeof(double), 64);
	if (s != BT_OK) {
		denormal_teardown(st);
		return s;
	}
	st->in = st->buf.p;
	st->out = st->in + DENORMAL_ELEMENTS;
	/* denormal=1: 2^-1070 (denormal); denormal=0: 2^-70 (normal). Computed
	 * under the body's MXCSR too: with the caller's FTZ the halvings
	 * below 2^-1022 would give 0. */
	uint32_t saved_mxcsr = mxcsr_enter();
	unit = pow2(values[1] ? -1070 : -70);
	for (size_t i = 0; i < DENORMAL_ELEMENTS; i++) {
		st->in[i] = (double)(1 + i % 16) * unit;
		st->out[i] = 0.0;
	}
	mxcsr_leave(saved_mxcsr);
	st->m[0] = 0.75;
	st->m[1] = 1.25;
	st->m[2] = 0.5;
	st->m[3] = 1.5;
	*ret_state = st;
	return BT_OK;
}

static const struct bt_wl_param denormal_params[] = {
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 1024, .quick = 8, .min = 1,
	  .max = 1ull << 32, .help = "passes of 512 multiplies per run" },
	{ .name = "denormal", .kind = BT_WL_PARAM_COUNT, .def = 1, .quick = 1, .min = 0, .max = 1,
	  .help = "1: denormal operands; 0: normal operands (control)" },
};

const struct bt_workload bt_wl_denormal_assist = {
	.name = "denormal-assist",
	.summary = "FP multiplies with denormal inputs and results (needs MXCSR FTZ=DAZ=0)",
	.signature_intel = "Retiring > Heavy_Operations > Microcode_Sequencer > Assists (FP_Assists)",
	.signature_amd = "no assist node in the Zen pipeline metrics; Zen 3 measured no slowdown vs denormal=0",
	.params = denormal_params, .n_params = BT_ARRAY_SIZE(denormal_params),
	.setup = denormal_setup, .run = denormal_run, .checksum = denormal_checksum,
	.teardown = denormal_teardown,
};
