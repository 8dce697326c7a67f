/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's CMASK, INV, E and EQ on a per-cycle source (a
 * known-count kernel's window, arch/sim/sim.h per_cycle), at the register
 * level with the accesses a driver makes. Expected values from the SDM's
 * definitions (vol. 3B 20.2.1.1: CMASK counts the cycles with >= CMASK
 * occurrences, INV inverts the comparison and is ignored with CMASK 0, E
 * counts deasserted-to-asserted transitions) worked by hand over the sim's
 * stated distribution: N occurrences over C cycles, N mod C cycles with
 * N / C + 1 of them, the rest with N / C, asserted cycles spread evenly.
 */
#include "arch/sim/sim.h"
#include "tests/unit/lib/test.h"

#define PMC0 0x0C1u
#define A_PMC0 0x4C1u
#define SEL0 0x186u
#define GLOBAL 0x38Fu
#define EN (1ull << 22)
#define OS_USR (3ull << 16)
#define EDGE (1ull << 18)
#define INV (1ull << 23)
#define EQ (1ull << 36)

static struct bt_sim sim;
static struct bt_sim_count src[3];
static struct bt_sim_source source;

static void noop(void *arg) { (void)arg; }

/* lnl-p (its event list has "Equal" events), a window of 10 cycles with 15
 * of 0xC4/0x00 and 4 of 0xC5/0x00; per_cycle says whether the source is a
 * kernel's. */
static struct bt_arch *setup_on(const char *preset, bool per_cycle)
{
	struct bt_sim_config cfg = *bt_sim_preset(preset);
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	struct { uint16_t code; int fixed; uint64_t n; } e[3] = {
		{ 0xC4, -1, 15 }, { 0xC5, -1, 4 }, { 0, 1, 10 },
	};
	for (int i = 0; i < 3; i++) {
		src[i].ev.source = BT_SRC_PMC;
		src[i].ev.code = e[i].code;
		src[i].ev.fixed = (int8_t)e[i].fixed;
		src[i].count = e[i].n;
	}
	source = (struct bt_sim_source){ src, 3, 0, noop };
	bt_sim_set_source(&sim, &source);
	if (per_cycle)
		sim.per_cycle[0] = &source;
	return &sim.arch;
}

static struct bt_arch *setup(bool per_cycle)
{
	return setup_on("lnl-p", per_cycle);
}

static uint64_t count(struct bt_arch *a, unsigned code, unsigned cmask, uint64_t flags)
{
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, GLOBAL, 0) == BT_OK);
	CHECK(bt_wrmsr(a, SEL0, code | (uint64_t)cmask << 24 | flags | OS_USR | EN) == BT_OK);
	CHECK(bt_wrmsr(a, A_PMC0, 0) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 1, 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0, &v) == BT_OK);
	return v;
}

TEST(cmask_inv_edge_from_the_per_cycle_spread)
{
	struct bt_arch *a = setup(true);
	/* 15 over 10 cycles: 5 cycles see 2, 5 see 1 */
	CHECK_EQ_U64(count(a, 0xC4, 0, 0), 15);
	CHECK_EQ_U64(count(a, 0xC4, 0, INV), 15);      /* INV ignored with CMASK 0 */
	CHECK_EQ_U64(count(a, 0xC4, 1, 0), 10);        /* >= 1: every cycle */
	CHECK_EQ_U64(count(a, 0xC4, 1, INV), 0);       /* < 1: none */
	CHECK_EQ_U64(count(a, 0xC4, 2, 0), 5);
	CHECK_EQ_U64(count(a, 0xC4, 2, INV), 5);
	CHECK_EQ_U64(count(a, 0xC4, 3, 0), 0);
	CHECK_EQ_U64(count(a, 0xC4, 3, INV), 10);
	CHECK_EQ_U64(count(a, 0xC4, 1, EDGE), 1);      /* asserted throughout: one rising edge */
	CHECK_EQ_U64(count(a, 0xC4, 2, EDGE), 5);      /* 5 of 10, alternating */
	CHECK_EQ_U64(count(a, 0xC4, 1, EQ), 5);        /* exactly 1: 5 cycles */
	CHECK_EQ_U64(count(a, 0xC4, 2, EQ), 5);
	/* 4 over 10 cycles: 4 cycles see 1, isolated */
	CHECK_EQ_U64(count(a, 0xC5, 1, 0), 4);
	CHECK_EQ_U64(count(a, 0xC5, 1, INV), 6);
	CHECK_EQ_U64(count(a, 0xC5, 1, EDGE), 4);
	CHECK_EQ_U64(count(a, 0xC5, 1, EDGE | INV), 4); /* 6 of 10 asserted: 10 - 6 runs */
	/* the invariants the atlas checks hold for every threshold */
	for (unsigned code = 0xC4; code <= 0xC5; code++)
		for (unsigned c = 1; c < 4; c++) {
			CHECK(count(a, code, c, 0) <= 10);
			CHECK_EQ_U64(count(a, code, c, 0) + count(a, code, c, INV), 10);
			CHECK(count(a, code, c, EDGE) <= count(a, code, c, 0));
		}
	/* an encoding with no entry counts 0 in every form */
	CHECK_EQ_U64(count(a, 0xD0, 1, INV), 0);
	bt_sim_free(&sim);
}

/* AnyThread where it is effective (perfmon v4, not deprecated): a kernel
 * window runs on one logical processor, so any-thread = this thread. */
TEST(anythread_on_a_kernel_window_counts_this_thread)
{
	struct bt_arch *a = setup_on("skl-nosmt", true);
	CHECK_EQ_U64(count(a, 0xC4, 0, 1ull << 21), 15);
	CHECK_EQ_U64(count(a, 0xC4, 2, 1ull << 21), 5);
	bt_sim_free(&sim);
	a = setup_on("skl-nosmt", false);
	CHECK_EQ_U64(count(a, 0xC4, 0, 1ull << 21), 0); /* a workload source names no AnyThread entry */
	bt_sim_free(&sim);
}

TEST(other_sources_count_only_the_encodings_they_name)
{
	struct bt_arch *a = setup(false);
	CHECK_EQ_U64(count(a, 0xC4, 0, 0), 15);
	CHECK_EQ_U64(count(a, 0xC4, 1, 0), 0);
	CHECK_EQ_U64(count(a, 0xC4, 1, INV), 0);
	bt_sim_free(&sim);
}
