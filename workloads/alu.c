/* SPDX-License-Identifier: MIT */
/*
 * Core-bound and retiring-bound integer kernels, in inline assembly: a C
 * version of each would be folded (a chain of `x += k` becomes one multiply)
 * or changed (clang tunes 64-bit DIV into a run-time check that uses the
 * 32-bit DIV when both operands fit), so the instructions measured would not
 * be the ones named. `.rept` is understood by GNU as and clang's assembler.
 *
 *   div-chain      dependent 64-bit DIVs: the next dividend is the previous
 *                  quotient with bit 63 set, so every DIV has a 64-bit
 *                  dividend and a ~62-bit quotient (the slow case on cores
 *                  whose divider latency depends on the quotient size).
 *   alu-dep-chain  16 dependent register-register ADDs per iteration: one
 *                  ADD per cycle, whatever the width of the core.
 *   alu-independent  8 independent chains of ADDs (4 ADDs each per
 *                  iteration): as many ADDs per cycle as the core has ALUs.
 *
 * Register-register ADD is used rather than ADD with an immediate because
 * some recent cores (Intel Golden Cove is reported to) resolve small
 * immediate ADDs at rename, which would take the chain off the ALUs.
 */
#include <stdlib.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

struct alu {
	uint64_t iterations;
	uint64_t divisor;
	uint64_t start, addend;   /* from memory, so nothing is constant-folded */
	uint64_t result[8];       /* of the last run */
};

static bt_status alu_alloc(const uint64_t *values, void **ret_state)
{
	struct alu *st = calloc(1, sizeof *st);

	if (!st)
		return BT_ERR_NOMEM;
	st->iterations = values[0];
	st->start = 0x0123456789ABCDEFull;
	st->addend = 0x9E3779B97F4A7C15ull;
	*ret_state = st;
	return BT_OK;
}

static void alu_teardown(void *state)
{
	free(state);
}

static uint64_t alu_checksum(const void *state)
{
	const struct alu *st = state;

	return bt_wl_hash_words(BT_WL_HASH_INIT, st->result, 8);
}

/* ------------------------------------------------------------ div-chain */

static void div_chain_run(void *state)
{
	struct alu *st = state;
	uint64_t x = st->start | (1ull << 63), rem_sum = 0, n = st->iterations, rem;

	/*
	 * rdx:rax / divisor with rdx = 0 cannot overflow (#DE) for a divisor
	 * >= 1. The OR puts bit 63 back so the next dividend is large again
	 * and depends on this quotient (the chain). Remainders are summed off
	 * the chain for the checksum.
	 */
	__asm__ volatile(
		"1:\n\t"
		"xor %%edx, %%edx\n\t"
		"divq %[d]\n\t"
		"add %%rdx, %[sum]\n\t"
		"or %[top], %%rax\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: "+a"(x), [sum] "+r"(rem_sum), [n] "+r"(n), "=&d"(rem)
		: [d] "r"(st->divisor), [top] "r"(1ull << 63)
		: "cc");
	(void)rem;
	st->result[0] = x;
	st->result[1] = rem_sum;
}

static bt_status div_chain_setup(const uint64_t *values, const struct bt_wl_env *env,
				 void **ret_state, struct bt_diag *d)
{
	bt_status s = alu_alloc(values, ret_state);

	if (s == BT_OK)
		((struct alu *)*ret_state)->divisor = values[1];
	return s;
}

/* ------------------------------------------------------------ alu-dep-chain */

static void alu_dep_run(void *state)
{
	struct alu *st = state;
	uint64_t x = st->start, n = st->iterations;

	__asm__ volatile(
		"1:\n\t"
		".rept 16\n\t"
		"add %[k], %[x]\n\t"
		".endr\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [x] "+r"(x), [n] "+r"(n)
		: [k] "r"(st->addend)
		: "cc");
	st->result[0] = x;
}

/* ------------------------------------------------------------ alu-independent */

static void alu_indep_run(void *state)
{
	struct alu *st = state;
	uint64_t x0 = st->start, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
	uint64_t x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
	uint64_t n = st->iterations;

	__asm__ volatile(
		"1:\n\t"
		".rept 4\n\t"
		"add %[k], %[x0]\n\t"
		"add %[k], %[x1]\n\t"
		"add %[k], %[x2]\n\t"
		"add %[k], %[x3]\n\t"
		"add %[k], %[x4]\n\t"
		"add %[k], %[x5]\n\t"
		"add %[k], %[x6]\n\t"
		"add %[k], %[x7]\n\t"
		".endr\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [x0] "+r"(x0), [x1] "+r"(x1), [x2] "+r"(x2), [x3] "+r"(x3),
		  [x4] "+r"(x4), [x5] "+r"(x5), [x6] "+r"(x6), [x7] "+r"(x7), [n] "+r"(n)
		: [k] "r"(st->addend)
		: "cc");
	st->result[0] = x0;
	st->result[1] = x1;
	st->result[2] = x2;
	st->result[3] = x3;
	st->result[4] = x4;
	st->result[5] = x5;
	st->result[6] = x6;
	st->result[7] = x7;
}

static bt_status alu_setup(const uint64_t *values, const struct bt_wl_env *env,
			   void **ret_state, struct bt_diag *d)
{
	return alu_alloc(values, ret_state);
}

/* ------------------------------------------------------------ descriptors */

static const struct bt_wl_param div_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 2000000, .quick = 20000,
	  .min = 1, .max = 1ull << 40, .help = "dependent DIVs per run" },
	{ .name = "divisor", .kind = BT_WL_PARAM_COUNT, .def = 7, .quick = 7, .min = 1,
	  .max = UINT64_MAX, .help = "the divisor (small = long quotients)" },
};

static const struct bt_wl_param dep_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 4000000, .quick = 40000,
	  .min = 1, .max = 1ull << 40, .help = "iterations of 16 dependent ADDs" },
};

static const struct bt_wl_param indep_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 4000000, .quick = 40000,
	  .min = 1, .max = 1ull << 40, .help = "iterations of 8 chains x 4 ADDs" },
};

const struct bt_workload bt_wl_div_chain = {
	.name = "div-chain",
	.summary = "dependent 64-bit DIVs (the quotient feeds the next dividend)",
	.signature_intel = "Backend_Bound > Core_Bound > Divider (INT_Divider on SPR+)",
	.signature_amd = "backend_bound > backend_bound_cpu",
	.params = div_params, .n_params = BT_ARRAY_SIZE(div_params),
	.setup = div_chain_setup, .run = div_chain_run, .checksum = alu_checksum,
	.teardown = alu_teardown,
};

const struct bt_workload bt_wl_alu_dep_chain = {
	.name = "alu-dep-chain",
	.summary = "one chain of dependent register ADDs (IPC ~1)",
	.signature_intel = "Backend_Bound > Core_Bound > Ports_Utilization > Ports_Utilized_1; "
			   "Retiring ~1/slots-per-cycle",
	.signature_amd = "backend_bound > backend_bound_cpu; retiring ~1/6 (Zen 4) or 1/8 (Zen 5)",
	.params = dep_params, .n_params = BT_ARRAY_SIZE(dep_params),
	.setup = alu_setup, .run = alu_dep_run, .checksum = alu_checksum,
	.teardown = alu_teardown,
};

const struct bt_workload bt_wl_alu_independent = {
	.name = "alu-independent",
	.summary = "8 independent ADD chains (as many ADDs per cycle as ALUs)",
	.signature_intel = "Retiring > Light_Operations (~0.95 on 4-wide SKL-class cores; "
			   "on 6-wide Golden Cove ~0.8 with the rest Core_Bound: 5 ALUs)",
	.signature_amd = "retiring > retiring_fastpath ~4/6 on Zen 4 (4 ALUs, 6 slots), "
			 "rest backend_bound_cpu",
	.params = indep_params, .n_params = BT_ARRAY_SIZE(indep_params),
	.setup = alu_setup, .run = alu_indep_run, .checksum = alu_checksum,
	.teardown = alu_teardown,
};
