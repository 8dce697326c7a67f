/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's SMT sibling (bt_sim_set_sibling_active), at the
 * register level with the accesses a driver makes. Expected values worked
 * by hand from the definitions the sim follows (sim.h): the SDM's
 * AnyThread (vol. 3B 20.2.3: "counting the associated event conditions
 * occurring across all logical processors sharing a processor core") and
 * the Skylake event table: ONE_THREAD_ACTIVE 0x3C/0x02 "core crystal clock
 * cycles when this thread is unhalted and the other thread is halted",
 * REF_XCLK 0x3C/0x01 "core crystal clock cycles when the thread is
 * unhalted", THREAD_ANY / REF_XCLK_ANY "... when at least one thread on
 * the physical core is unhalted", UOPS_EXECUTED.CORE 0xB1/0x02 "from any
 * thread". The sibling is active in f of this thread's unhalted cycles,
 * never alone, with this thread's event profile, and takes half the core
 * while both run: the thread's 10000 cycles alone last 10000 / (1 - f/2).
 */
#include "arch/sim/sim.h"
#include "tests/unit/lib/test.h"

#define PMC0 0x0C1u
#define A_PMC0 0x4C1u
#define SEL0 0x186u
#define FIXED_CTR0 0x309u
#define FIXED_CTRL 0x38Du
#define GLOBAL 0x38Fu
#define EN (1ull << 22)
#define ANY (1ull << 21)
#define OS_USR (3ull << 16)

static struct bt_sim sim;
static struct bt_sim_count src[6];
static struct bt_sim_source source;

static void noop(void *arg) { (void)arg; }

/* skl: a window of 10000 cycles, 8000 instructions, 400 crystal clocks,
 * 300 recovery cycles (0x0D/0x01), 12000 uops executed by the core
 * (0xB1/0x02) and 9000 cycles with one or more (0xB1/0x02, CMASK 1). */
static struct bt_arch *setup(void)
{
	struct bt_sim_config cfg = *bt_sim_preset("skl");
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	struct { uint16_t code; uint8_t umask, cmask; int fixed; uint64_t n; } e[6] = {
		{ 0, 0, 0, 0, 8000 }, { 0, 0, 0, 1, 10000 }, { 0x3C, 0x01, 0, -1, 400 },
		{ 0x0D, 0x01, 0, -1, 300 }, { 0xB1, 0x02, 0, -1, 12000 },
		{ 0xB1, 0x02, 1, -1, 9000 },
	};
	for (int i = 0; i < 6; i++) {
		src[i].ev.source = BT_SRC_PMC;
		src[i].ev.code = e[i].code;
		src[i].ev.umask = e[i].umask;
		src[i].ev.cmask = e[i].cmask;
		src[i].ev.fixed = (int8_t)e[i].fixed;
		src[i].count = e[i].n;
	}
	source = (struct bt_sim_source){ src, 6, 0, noop };
	bt_sim_set_source(&sim, &source);
	return &sim.arch;
}

static uint64_t gp(struct bt_arch *a, unsigned code, unsigned umask, unsigned cmask, uint64_t flags)
{
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, GLOBAL, 0) == BT_OK);
	CHECK(bt_wrmsr(a, SEL0, code | umask << 8 | (uint64_t)cmask << 24 | flags | OS_USR | EN) ==
	      BT_OK);
	CHECK(bt_wrmsr(a, A_PMC0, 0) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 1, 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0, &v) == BT_OK);
	return v;
}

/* Fixed counter i with OS, USR and, if any, AnyThread (field bit 2). */
static uint64_t fixed(struct bt_arch *a, unsigned i, bool any)
{
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, GLOBAL, 0) == BT_OK);
	CHECK(bt_wrmsr(a, FIXED_CTRL, (uint64_t)(3 | (any ? 4 : 0)) << (4 * i)) == BT_OK);
	CHECK(bt_wrmsr(a, FIXED_CTR0 + i, 0) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 1ull << (32 + i), 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, FIXED_CTR0 + i, &v) == BT_OK);
	return v;
}

TEST(never_set_the_source_answers_alone)
{
	struct bt_arch *a = setup();
	/* No ONE_THREAD_ACTIVE entry in the source and no knob: 0, as before. */
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 0);
	CHECK_EQ_U64(gp(a, 0xB1, 0x02, 0, 0), 12000);
	bt_sim_free(&sim);
}

TEST(idle_sibling)
{
	struct bt_arch *a = setup();
	bt_sim_set_sibling_active(a, 0);
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 400); /* alone all the time */
	CHECK_EQ_U64(gp(a, 0x3C, 0x01, 0, ANY), 400);
	CHECK_EQ_U64(gp(a, 0x0D, 0x01, 0, ANY), 300);
	CHECK_EQ_U64(fixed(a, 1, true), 10000);
	bt_sim_free(&sim);
}

TEST(sibling_active_three_quarters)
{
	struct bt_arch *a = setup();
	bt_sim_set_sibling_active(a, 0.75);
	/* 1 - 0.75/2 = 0.625: clocks x 1.6 */
	CHECK_EQ_U64(gp(a, 0x3C, 0x01, 0, 0), 640);      /* this thread's, stretched */
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 160);      /* 640 x (1 - 0.75) */
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, ANY), 160);    /* the sibling never runs alone */
	CHECK_EQ_U64(gp(a, 0x3C, 0x01, 0, ANY), 640);    /* at least one thread unhalted */
	CHECK_EQ_U64(gp(a, 0x0D, 0x01, 0, 0), 300);      /* per thread: the same work */
	CHECK_EQ_U64(gp(a, 0x0D, 0x01, 0, ANY), 525);    /* 300 + 0.75 x 300 */
	CHECK_EQ_U64(gp(a, 0xB1, 0x02, 0, 0), 21000);    /* core-wide: 12000 + 9000 */
	CHECK_EQ_U64(gp(a, 0xB1, 0x02, 1, 0), 15750);    /* 9000 + 6750 <= 16000 cycles */
	CHECK_EQ_U64(fixed(a, 0, true), 14000);          /* instructions of both threads */
	CHECK_EQ_U64(fixed(a, 0, false), 8000);
	CHECK_EQ_U64(fixed(a, 1, false), 16000);
	CHECK_EQ_U64(fixed(a, 1, true), 16000);          /* core clocks: the union */
	/* perf's per-thread core clocks, THREAD / 2 x (1 + OTA / REF_XCLK),
	 * give back the 10000 the thread needs alone. */
	CHECK(16000.0 / 2 * (1 + 160.0 / 640) == 10000.0);
	bt_sim_free(&sim);
}

TEST(busy_sibling_and_clamping)
{
	struct bt_arch *a = setup();
	bt_sim_set_sibling_active(a, 1);
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 0);
	CHECK_EQ_U64(fixed(a, 1, false), 20000);         /* half the core: twice the time */
	CHECK_EQ_U64(gp(a, 0x0D, 0x01, 0, ANY), 600);
	CHECK_EQ_U64(gp(a, 0xB1, 0x02, 1, 0), 18000);
	bt_sim_set_sibling_active(a, 7);                 /* clamped to 1 */
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 0);
	bt_sim_set_sibling_active(a, -1);                /* clamped to 0 */
	CHECK_EQ_U64(gp(a, 0x3C, 0x02, 0, 0), 400);
	/* A backend that is not the simulated PMU is left alone. */
	struct bt_arch other = { .name = "hardware" };
	bt_sim_set_sibling_active(&other, 0.5);
	bt_sim_free(&sim);
}
