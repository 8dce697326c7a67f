/* SPDX-License-Identifier: MIT */
/*
 * The memory hierarchy the simulated workloads run on (synth/): the data
 * cache sizes the simulated CPU answers in CPUID (leaf 04H on Intel, leaf
 * 8000_001DH on AMD: one fact, the part's own leaves in arch/sim/sim-parts.c,
 * copied from the dumps of real processors) and the load-to-use latency of
 * each level, per core family, from the vendors' manuals and published
 * measurements (the table in mem-hierarchy.c, each row citing its source).
 * Latencies are in core cycles at the simulated clock (BT_SIM_TSC_HZ, 3 GHz):
 * a latency published in ns is converted at that clock.
 */
#ifndef SYNTH_MEM_HIERARCHY_H
#define SYNTH_MEM_HIERARCHY_H

#include <stdbool.h>

#include "arch/sim/sim.h"

enum { BT_MEM_L1, BT_MEM_L2, BT_MEM_L3, BT_MEM_DRAM, BT_MEM_LEVELS };

struct bt_mem_hier {
	/* Bytes of the L1 data cache, the L2 and the L3 (0: no such level). */
	double size[BT_MEM_DRAM];
	bool sizes_from_cpuid;       /* false: the default sizes (no cache leaf) */
	/* Load-to-use cycles of a load served by each level (DRAM: the whole
	 * trip, caches missed included). */
	double lat[BT_MEM_LEVELS];
	const char *row;             /* the latency row: the core family it is of */
	const char *source;          /* where its numbers were published */
};

/* The hierarchy of the simulated CPU `sim` (its CPUID through sim->arch and
 * its configuration's vendor, signature and core type) into *ret. A CPU
 * without a cache leaf (a preset that answers made-up CPUID) gets the
 * Skylake client sizes, 32 KiB / 256 KiB / 8 MiB, and sizes_from_cpuid
 * false. */
void bt_mem_hier_of(struct bt_sim *sim, struct bt_mem_hier *ret);

/* The default hierarchy (NULL sim): Skylake client, for tests and callers
 * without a simulated CPU. */
void bt_mem_hier_default(struct bt_mem_hier *ret);

/* Where the loads of a dependent pointer chase over a random cycle of
 * `bytes` (one 64-byte line per node, every lap in the same order) are
 * served: frac[level], summing to 1. A level holds all of a working set
 * that fits it; beyond that, the share p of its accesses that still hit
 * solves p = exp(-r (1 - p)), r = working set / capacity: the steady state
 * of a cache with random replacement walked cyclically (a line survives the
 * r (1 - p) x capacity misses between two of its own accesses with
 * probability exp(-r (1 - p))); an LRU cache would keep none, an adaptive
 * one (Intel's L2/L3, AMD's) lies in between. The L2 and L3 serve at
 * least size / (2 x working set) of the loads: the pair lines their
 * adjacent-line prefetch brings along (a random next node's line is one of
 * them that often). Each level is taken alone (inclusion ignored):
 * frac[L2] = p(L2) - p(L1) and so on. */
void bt_mem_hier_chase(const struct bt_mem_hier *h, double bytes, double frac[BT_MEM_LEVELS]);

/* The latency table's row names and cited sources, k-th (for tests and
 * the docs); NULL past the last. */
const char *bt_mem_hier_row(unsigned k, const char **source);

#endif
