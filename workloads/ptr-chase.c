/* SPDX-License-Identifier: MIT */
/*
 * Pointer chase: load-to-use latency of one level of the memory hierarchy.
 *
 * The buffer is an array of 64-byte nodes, one per cache line. Each node
 * holds a pointer to the next node and its own index. The successor order is
 * one random cycle through all nodes (Sattolo's algorithm), so each load's
 * address is the value of the previous load: no memory-level parallelism, and
 * no pattern a prefetcher could follow. With the working set sized for one
 * level (L1, L2, L3, DRAM) nearly every load hits in that level.
 *
 * The loop also adds each node's index into a sum: a second load from the
 * same line, off the critical path, which makes the checksum depend on every
 * node visited. Starting from node 0, `steps` steps visit steps/nodes full
 * laps of the cycle; the checksum is hash(sum of indices, index of the node
 * reached), independent of where the buffer is in memory.
 *
 * Paging: hosted buffers may sit on 4 KiB or transparent 2 MiB pages; in UEFI
 * the firmware identity-maps memory, usually with 2 MiB or 1 GiB pages. The
 * L3 and DRAM variants therefore add DTLB misses hosted that they may not
 * have bare-metal; the Top-Down tree shows which (DTLB_Load under L1_Bound).
 */
#include <stdio.h>
#include <stdlib.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define CHASE_SEED 0x43484153452D3634ull  /* "CHASE-64" */
#define NODE_BYTES 64

struct node {
	const struct node *next;
	uint64_t index;
	uint8_t pad[NODE_BYTES - 16];
};

_Static_assert(sizeof(struct node) == NODE_BYTES, "one node per cache line");

struct chase {
	struct node *nodes;
	uint64_t n_nodes, steps;
	struct bt_wl_buf buf;
	const struct bt_wl_env *env;
	const char *level;       /* "L1" ... for the note */
	/* results of the last run */
	uint64_t sum, final_index;
};

static void chase_run(void *state)
{
	struct chase *c = state;
	const struct node *p = &c->nodes[0];
	uint64_t sum = 0;

	for (uint64_t i = 0; i < c->steps; i++) {
		sum += p->index;
		p = p->next;
	}
	c->sum = sum;
	c->final_index = p->index;
}

static uint64_t chase_checksum(const void *state)
{
	const struct chase *c = state;

	return bt_wl_hash(bt_wl_hash(BT_WL_HASH_INIT, c->sum), c->final_index);
}

static void chase_teardown(void *state)
{
	struct chase *c = state;

	bt_wl_buf_free(&c->buf, c->env);
	free(c);
}

static bt_status chase_setup(const uint64_t *values, const struct bt_wl_env *env,
			     void **ret_state, const char *level, struct bt_diag *d)
{
	uint64_t size = values[0], steps = values[1];
	struct chase *c = calloc(1, sizeof *c);
	uint32_t *next;
	bt_status s;

	if (!c)
		return BT_ERR_NOMEM;
	c->env = env;
	c->level = level;
	c->n_nodes = size / NODE_BYTES;
	c->steps = steps;
	s = bt_wl_buf_alloc(&c->buf, env, (size_t)size, NODE_BYTES);
	next = malloc((size_t)c->n_nodes * sizeof *next);
	if (s != BT_OK || !next) {
		char text[32];

		free(next);
		chase_teardown(c);
		bt_wl_format_bytes(text, sizeof text, size);
		return bt_wl_fail(BT_ERR_NOMEM, d, "cannot allocate %s for the chase", text);
	}
	c->nodes = c->buf.p;
	bt_wl_cyclic_permutation(next, (uint32_t)c->n_nodes, CHASE_SEED);
	for (uint64_t i = 0; i < c->n_nodes; i++) {
		struct node *nd = &c->nodes[i];

		nd->next = &c->nodes[next[i]];
		nd->index = i;
		for (size_t k = 0; k < sizeof nd->pad; k++)
			nd->pad[k] = 0;
	}
	free(next);
	*ret_state = c;
	return BT_OK;
}

#define CHASE_SETUP(lvl)                                                               \
	static bt_status chase_setup_##lvl(const uint64_t *values, const struct bt_wl_env *env, \
					   void **ret_state, struct bt_diag *d)       \
	{                                                                              \
		return chase_setup(values, env, ret_state, #lvl, d);        \
	}
CHASE_SETUP(L1)
CHASE_SETUP(L2)
CHASE_SETUP(L3)
CHASE_SETUP(DRAM)

static void chase_describe(const void *state, const struct bt_wl_env *env, char *buf, size_t len)
{
	const struct chase *c = state;
	const struct bt_wl_cpu *cpu = &env->cpu;
	uint64_t bytes = c->n_nodes * NODE_BYTES;
	char ws[32], l1[32], l2[32], l3[32];

	bt_wl_format_bytes(ws, sizeof ws, bytes);
	if (!cpu->l1d_bytes && !cpu->l2_bytes && !cpu->l3_bytes) {
		snprintf(buf, len, "working set %s (%llu lines); cache sizes unknown", ws,
			 (unsigned long long)c->n_nodes);
		return;
	}
	bt_wl_format_bytes(l1, sizeof l1, cpu->l1d_bytes);
	bt_wl_format_bytes(l2, sizeof l2, cpu->l2_bytes);
	bt_wl_format_bytes(l3, sizeof l3, cpu->l3_bytes);
	snprintf(buf, len, "working set %s (%llu lines) for %s; this CPU: L1d %s, L2 %s, L3 %s",
		 ws, (unsigned long long)c->n_nodes, c->level, l1, l2, l3);
}

/*
 * Defaults: sizes that land in the named level on the Intel and AMD cores of
 * the reference models (L1d 32-48 KiB, L2 256 KiB-2 MiB, L3 >= 6 MiB), and
 * steps for roughly 20-100 ms per run. Size them for another part with
 * size=..., e.g. half of its L1d, half of its L2, 2-4x its L2, 8x its L3.
 */
#define CHASE_PARAMS(lvl, size_def, size_quick, steps_def, steps_quick)                     \
	static const struct bt_wl_param chase_params_##lvl[] = {                           \
		{ .name = "size", .kind = BT_WL_PARAM_BYTES, .def = (size_def),            \
		  .quick = (size_quick), .min = 2 * NODE_BYTES,                            \
		  .max = 1ull << 32, .multiple = NODE_BYTES,                                \
		  .help = "working set: one node per 64-byte line" },                       \
		{ .name = "steps", .kind = BT_WL_PARAM_COUNT, .def = (steps_def),          \
		  .quick = (steps_quick), .min = 1, .max = 1ull << 40,                     \
		  .help = "dependent loads per run" },                                      \
	}

CHASE_PARAMS(L1, 16ull << 10, 16ull << 10, 16000000, 100000);
CHASE_PARAMS(L2, 128ull << 10, 128ull << 10, 8000000, 50000);
CHASE_PARAMS(L3, 4ull << 20, 4ull << 20, 4000000, 20000);
CHASE_PARAMS(DRAM, 256ull << 20, 16ull << 20, 1000000, 5000);

#define CHASE_WORKLOAD(var, lvl, nm, sum, intel, amd)                                         \
	const struct bt_workload var = {                                                     \
		.name = nm, .summary = sum, .signature_intel = intel, .signature_amd = amd,   \
		.params = chase_params_##lvl, .n_params = BT_ARRAY_SIZE(chase_params_##lvl), \
		.setup = chase_setup_##lvl, .run = chase_run, .checksum = chase_checksum,     \
		.teardown = chase_teardown, .describe = chase_describe,                       \
	}

CHASE_WORKLOAD(bt_wl_ptr_chase_l1, L1, "ptr-chase-l1",
	       "dependent loads over a random cycle in 16 KiB (L1d hits)",
	       "Backend_Bound > Memory_Bound > L1_Bound (> L1_Latency_Dependency where the model has it: SKL+)",
	       "backend_bound > backend_bound_memory");
CHASE_WORKLOAD(bt_wl_ptr_chase_l2, L2, "ptr-chase-l2",
	       "dependent loads over a random cycle in 128 KiB (L2 hits)",
	       "Backend_Bound > Memory_Bound > L2_Bound",
	       "backend_bound > backend_bound_memory");
CHASE_WORKLOAD(bt_wl_ptr_chase_l3, L3, "ptr-chase-l3",
	       "dependent loads over a random cycle in 4 MiB (L3 hits)",
	       "Backend_Bound > Memory_Bound > L3_Bound > L3_Hit_Latency",
	       "backend_bound > backend_bound_memory");
CHASE_WORKLOAD(bt_wl_ptr_chase_dram, DRAM, "ptr-chase-dram",
	       "dependent loads over a random cycle in 256 MiB (DRAM)",
	       "Backend_Bound > Memory_Bound > DRAM_Bound (L3_Miss_Bound on SPR+) > MEM_Latency",
	       "backend_bound > backend_bound_memory");
