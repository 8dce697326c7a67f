/* SPDX-License-Identifier: MIT */
/*
 * A large code footprint: instruction cache and ITLB misses.
 *
 * x86-64 machine code is generated at run time into executable memory from
 * the platform (env->code_alloc/seal): `blocks` tiny blocks, `spacing` bytes
 * apart, chained by direct jumps in a random cyclic order, the last one
 * returning. With the default 4096 blocks 4160 bytes apart (one page plus
 * one line: successive blocks are on different pages and in different L1i
 * sets), one call executes 4096 blocks on 4096 pages spread over 16 MiB:
 * every block is an L1 instruction-cache miss (the 4096 lines are 256 KiB;
 * L1i holds 32-64 KiB), served by the L2 on most parts, and an ITLB miss
 * (first-level ITLBs hold 64-256 4 KiB entries; the second-level TLB, 0.5-3 K
 * entries depending on the core, misses too when it is under 4096). The
 * random order defeats the next-line instruction prefetcher; the jumps are
 * direct, so they are predicted once the BTB has seen them (4096 fit most
 * BTBs). spacing=16 is the control: the same 4096 blocks packed into 64 KiB
 * on 16 pages (L1i misses that hit the L2, no ITLB misses).
 *
 *   entry:     F3 0F 1E FA       endbr64          (a NOP unless CET-IBT is on)
 *              31 C0             xor  eax, eax    rax = 0
 *              E9 rel32          jmp  block 0
 *   block b:   48 05 imm32       add  rax, b + 1  REX.W 05 id: ADD RAX, imm32
 *              E9 rel32          jmp  block next[b]     (rel32 from the end of the jmp)
 *   last:      48 05 imm32       add  rax, b + 1
 *              C3                ret
 *
 * Every other byte of the region is CC (int3), so a wrong jump traps instead
 * of sliding into other code. One call returns 1 + 2 + ... + blocks; a run
 * makes `laps` calls and the checksum hashes the total (it does not depend on
 * where the code was placed: every displacement is relative).
 *
 * In UEFI the firmware usually maps memory with 2 MiB/1 GiB pages, so the
 * ITLB part of the signature is smaller than hosted on 4 KiB pages; the
 * i-cache part is the same.
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define SEED_CODE 0x434F44452D464F4Full  /* "CODE-FOO" */
#define ENTRY_BYTES 64                   /* the entry stub's slot */
#define MAX_REGION (1ull << 30)

typedef uint64_t generated_fn(void);

struct footprint {
	uint8_t *code;
	size_t region;
	uint64_t blocks, spacing, laps;
	generated_fn *fn;
	const struct bt_wl_env *env;
	uint64_t total;        /* sum of the calls' results in the last run */
};

static uint8_t *put_u8(uint8_t *p, uint8_t b)
{
	*p = b;
	return p + 1;
}

static uint8_t *put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));  /* little endian */
	return p + 4;
}

/* jmp rel32 from `at` to `target` (rel32 counts from the end of the 5 bytes). */
static uint8_t *put_jmp(uint8_t *at, const uint8_t *target)
{
	int64_t rel = (int64_t)(target - (at + 5));

	at = put_u8(at, 0xE9);
	return put_u32(at, (uint32_t)(int32_t)rel);
}

static uint8_t *block_at(const struct footprint *f, uint64_t b)
{
	return f->code + ENTRY_BYTES + b * f->spacing;
}

static void generate(struct footprint *f, const uint32_t *next)
{
	uint8_t *p = f->code;

	memset(f->code, 0xCC, f->region);
	p = put_u8(p, 0xF3);   /* endbr64 */
	p = put_u8(p, 0x0F);
	p = put_u8(p, 0x1E);
	p = put_u8(p, 0xFA);
	p = put_u8(p, 0x31);   /* xor eax, eax */
	p = put_u8(p, 0xC0);
	put_jmp(p, block_at(f, 0));

	for (uint64_t b = 0; b < f->blocks; b++) {
		p = block_at(f, b);
		p = put_u8(p, 0x48);   /* REX.W */
		p = put_u8(p, 0x05);   /* add rax, imm32 */
		p = put_u32(p, (uint32_t)(b + 1));
		if (next[b] == 0)
			put_u8(p, 0xC3);   /* ret: the cycle is back at block 0 */
		else
			put_jmp(p, block_at(f, next[b]));
	}
}

static void footprint_run(void *state)
{
	struct footprint *f = state;
	uint64_t total = 0;

	for (uint64_t lap = 0; lap < f->laps; lap++)
		total += f->fn();
	f->total = total;
}

static uint64_t footprint_checksum(const void *state)
{
	const struct footprint *f = state;

	return bt_wl_hash(BT_WL_HASH_INIT, f->total);
}

static void footprint_teardown(void *state)
{
	struct footprint *f = state;

	if (f->code)
		f->env->code_free(f->code, f->region, f->env->ctx);
	free(f);
}

static bt_status footprint_setup(const uint64_t *values, const struct bt_wl_env *env,
				 void **ret_state, struct bt_diag *d)
{
	struct footprint *f;
	uint32_t *next;
	uint64_t region;
	bt_status s;

	if (values[0] > (MAX_REGION - ENTRY_BYTES) / values[1])
		return bt_wl_fail(BT_ERR_INVALID, d,
				  "code-footprint: blocks x spacing exceeds 1 GiB");
	region = ENTRY_BYTES + values[0] * values[1];
	region = (region + 4095) & ~4095ull;
	f = calloc(1, sizeof *f);
	next = malloc((size_t)values[0] * sizeof *next);
	if (!f || !next) {
		free(f);
		free(next);
		return BT_ERR_NOMEM;
	}
	f->env = env;
	f->blocks = values[0];
	f->spacing = values[1];
	f->laps = values[2];
	f->region = (size_t)region;
	f->code = env->code_alloc(f->region, env->ctx);
	if (!f->code) {
		free(next);
		footprint_teardown(f);
		return bt_wl_fail(BT_ERR_NOMEM, d,
				  "code-footprint: no executable memory for %llu bytes",
				  (unsigned long long)region);
	}
	bt_wl_cyclic_permutation(next, (uint32_t)f->blocks, SEED_CODE);
	generate(f, next);
	free(next);
	s = env->code_seal(f->code, f->region, env->ctx);
	if (s != BT_OK) {
		footprint_teardown(f);
		return bt_wl_fail(s, d, "code-footprint: cannot make the code executable: %s",
				  bt_status_str(s));
	}
	/* ISO C has no object-to-function pointer conversion; memcpy is exact. */
	memcpy(&f->fn, &f->code, sizeof f->fn);
	*ret_state = f;
	return BT_OK;
}

static const struct bt_wl_param footprint_params[] = {
	{ .name = "blocks", .kind = BT_WL_PARAM_COUNT, .def = 4096, .quick = 256, .min = 1,
	  .max = 1u << 20, .help = "code blocks (add + jmp), each on its own line" },
	{ .name = "spacing", .kind = BT_WL_PARAM_BYTES, .def = 4160, .quick = 4160, .min = 16,
	  .max = 1u << 20, .multiple = 16,
	  .help = "bytes between blocks; 4160 = a page and a line; 16 = compact control" },
	{ .name = "laps", .kind = BT_WL_PARAM_COUNT, .def = 256, .quick = 4, .min = 1,
	  .max = 1ull << 30, .help = "calls of the generated code per run" },
};

const struct bt_workload bt_wl_code_footprint = {
	.name = "code-footprint",
	.summary = "4096 generated code blocks on 4096 pages, jumped through in random order",
	.signature_intel = "Frontend_Bound > Fetch_Latency > ICache_Misses and ITLB_Misses",
	.signature_amd = "frontend_bound > frontend_bound_latency",
	.params = footprint_params, .n_params = BT_ARRAY_SIZE(footprint_params),
	.flags = BT_WL_NEEDS_CODE_MEMORY,
	.setup = footprint_setup, .run = footprint_run, .checksum = footprint_checksum,
	.teardown = footprint_teardown,
};
