/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's injectable hardware defects (arch/sim/sim-defect.c):
 * the name parser (all-or-nothing, located messages, round trip through
 * the formatter), and each defect observed at the register level, where
 * the hardware would show it, with the same accesses a driver makes
 * (RDMSR/WRMSR/RDPMC and the counting window of the arch seam): the
 * expected values come from the defect's definition and the SDM rules the
 * sim otherwise follows (20.2.6 writes, 20.2.2 global control and status).
 */
#include "arch/sim/sim.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"

#define PMC0 0x0C1u
#define A_PMC0 0x4C1u
#define SEL0 0x186u
#define FIXED0 0x309u
#define FIXED_CTRL 0x38Du
#define STATUS 0x38Eu
#define GLOBAL 0x38Fu
#define EN (1ull << 22)
#define OS_USR (3ull << 16)

static struct bt_sim sim;

static void noop(void *arg) { (void)arg; }

/* skl with `spec`, counting 1000 of 0xC0/0x00 and 0xC4/0x01, 500 of
 * 0xC4/0x00, fixed 0 1000, fixed 1 700 per window of noop. */
static struct bt_arch *setup(const char *spec)
{
	static struct bt_sim_count src[5];
	static struct bt_sim_source source;
	struct bt_sim_config cfg = *bt_sim_preset("skl");
	struct bt_diag d;
	CHECK(bt_sim_defects_parse(spec, &cfg.defects, &d) == BT_OK);
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	struct { uint16_t code; uint8_t umask; int fixed; uint64_t n; } e[5] = {
		{ 0xC0, 0x00, -1, 1000 }, { 0xC4, 0x01, -1, 1000 }, { 0xC4, 0x00, -1, 500 },
		{ 0, 0, 0, 1000 }, { 0, 0, 1, 700 },
	};
	for (int i = 0; i < 5; i++) {
		src[i].ev.source = BT_SRC_PMC;
		src[i].ev.code = e[i].code;
		src[i].ev.umask = e[i].umask;
		src[i].ev.fixed = (int8_t)e[i].fixed;
		src[i].count = e[i].n;
	}
	source = (struct bt_sim_source){ src, 5, 0, noop };
	bt_sim_set_source(&sim, &source);
	return &sim.arch;
}

/* General counter i with code/umask counts one window; returns its value. */
static uint64_t count_gp(struct bt_arch *a, unsigned i, unsigned code, unsigned umask,
			 uint64_t start)
{
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, GLOBAL, 0) == BT_OK);
	CHECK(bt_wrmsr(a, SEL0 + i, code | umask << 8 | OS_USR | EN) == BT_OK);
	CHECK(bt_wrmsr(a, A_PMC0 + i, start) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 1ull << i, 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0 + i, &v) == BT_OK);
	return v;
}

TEST(no_defect_counts_as_programmed)
{
	struct bt_arch *a = setup(NULL);
	CHECK_EQ_U64(count_gp(a, 2, 0xC0, 0, 0), 1000);
	CHECK_EQ_U64(count_gp(a, 0, 0xC4, 1, 0), 1000);
	CHECK_EQ_U64(count_gp(a, 0, 0xC4, 0, 0), 500);
	bt_sim_free(&sim);
}

TEST(stuck_counter_never_advances)
{
	struct bt_arch *a = setup("stuck-counter:2");
	CHECK_EQ_U64(count_gp(a, 2, 0xC0, 0, 5), 5);    /* writes still hold */
	CHECK_EQ_U64(count_gp(a, 1, 0xC0, 0, 5), 1005); /* the others count */
	bt_sim_free(&sim);
}

TEST(double_count_only_that_encoding)
{
	struct bt_arch *a = setup("double-count:0xC4/0x01");
	CHECK_EQ_U64(count_gp(a, 0, 0xC4, 1, 0), 2000);
	CHECK_EQ_U64(count_gp(a, 0, 0xC4, 0, 0), 500);
	CHECK_EQ_U64(count_gp(a, 0, 0xC0, 0, 0), 1000);
	bt_sim_free(&sim);
}

TEST(narrow_counter_holds_and_wraps_at_width_minus_8)
{
	struct bt_arch *a = setup("narrow-counter:1");
	uint64_t top40 = (1ull << 40) - 100, v = 0, st = 0;
	CHECK(bt_wrmsr(a, A_PMC0 + 1, (1ull << 47) | 0x123) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0 + 1, &v) == BT_OK);
	CHECK_EQ_U64(v, 0x123); /* bit 47 not held */
	CHECK(bt_wrmsr(a, 0x390, ~0ull & 0xF) == BT_OK);
	CHECK_EQ_U64(count_gp(a, 1, 0xC0, 0, top40), 900); /* wrapped at 2^40 */
	CHECK(bt_rdmsr(a, STATUS, &st) == BT_OK);
	CHECK(st & 0x2); /* and says so */
	CHECK_EQ_U64(count_gp(a, 0, 0xC0, 0, top40), top40 + 1000); /* counter 0: 48 bits */
	bt_sim_free(&sim);
}

TEST(fixed_dead_never_counts)
{
	struct bt_arch *a = setup("fixed-dead:1");
	uint64_t f0 = 0, f1 = 0;
	CHECK(bt_wrmsr(a, FIXED0, 0) == BT_OK);
	CHECK(bt_wrmsr(a, FIXED0 + 1, 7) == BT_OK);
	CHECK(bt_wrmsr(a, FIXED_CTRL, 0x33) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 3ull << 32, 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, FIXED0, &f0) == BT_OK && bt_rdmsr(a, FIXED0 + 1, &f1) == BT_OK);
	CHECK_EQ_U64(f0, 1000);
	CHECK_EQ_U64(f1, 7);
	bt_sim_free(&sim);
}

TEST(no_overflow_bit_wraps_silently)
{
	struct bt_arch *a = setup("no-overflow-bit:0");
	uint64_t top = (1ull << 48) - 10, st = 0;
	CHECK(bt_wrmsr(a, 0x390, 0xF) == BT_OK);
	CHECK_EQ_U64(count_gp(a, 0, 0xC0, 0, top), 990);
	CHECK(bt_rdmsr(a, STATUS, &st) == BT_OK);
	CHECK((st & 1) == 0);
	CHECK_EQ_U64(count_gp(a, 3, 0xC0, 0, top), 990);
	CHECK(bt_rdmsr(a, STATUS, &st) == BT_OK);
	CHECK(st & 8);
	bt_sim_free(&sim);
}

TEST(umask_ignored_counts_umask_zero)
{
	struct bt_arch *a = setup("umask-ignored:0xC4");
	CHECK_EQ_U64(count_gp(a, 0, 0xC4, 1, 0), 500);
	bt_sim_free(&sim);
}

TEST(fw_truncates_only_the_alias)
{
	struct bt_arch *a = setup("fw-truncates");
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, A_PMC0, 0x812345678ull) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0, &v) == BT_OK);
	CHECK_EQ_U64(v, 0x12345678ull);
	CHECK(bt_wrmsr(a, PMC0, 0x80000000ull) == BT_OK); /* IA32_PMCx still sign-extends */
	CHECK(bt_rdmsr(a, PMC0, &v) == BT_OK);
	CHECK_EQ_U64(v, 0xFFFF80000000ull);
	bt_sim_free(&sim);
}

TEST(rdpmc_fixed_reads_the_general_counter)
{
	struct bt_arch *a = setup("rdpmc-fixed-gp");
	uint64_t v = 0;
	CHECK(bt_wrmsr(a, A_PMC0 + 1, 0x1111) == BT_OK);
	CHECK(bt_wrmsr(a, FIXED0 + 1, 0x2222) == BT_OK);
	CHECK(bt_rdpmc(a, (1u << 30) | 1, &v) == BT_OK);
	CHECK_EQ_U64(v, 0x1111);
	bt_sim_free(&sim);
}

TEST(global_ignored_counter_zero_only)
{
	struct bt_arch *a = setup("global-ignored");
	uint64_t v0 = 0, v1 = 0;
	CHECK(bt_wrmsr(a, SEL0, 0xC0 | OS_USR | EN) == BT_OK);
	CHECK(bt_wrmsr(a, SEL0 + 1, 0xC0 | OS_USR | EN) == BT_OK);
	CHECK(bt_wrmsr(a, A_PMC0, 0) == BT_OK && bt_wrmsr(a, A_PMC0 + 1, 0) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 0, 0, noop, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, PMC0, &v0) == BT_OK && bt_rdmsr(a, PMC0 + 1, &v1) == BT_OK);
	CHECK_EQ_U64(v0, 1000);
	CHECK_EQ_U64(v1, 0);
	bt_sim_free(&sim);
}

TEST(defect_names_parse)
{
	struct bt_sim_defects df;
	struct bt_diag d;
	CHECK(bt_sim_defects_parse("stuck-counter:2", &df, &d) == BT_OK);
	CHECK(df.mask == BT_SIM_DEFECT_STUCK_COUNTER && df.stuck_gp == 2);
	CHECK(bt_sim_defects_parse("double-count:0xc4/0x20,fixed-dead:3,fw-truncates", &df, &d) ==
	      BT_OK);
	CHECK(df.double_code == 0xC4 && df.double_umask == 0x20 && df.dead_fixed == 3);
	CHECK_EQ_U64(df.mask, BT_SIM_DEFECT_DOUBLE_COUNT | BT_SIM_DEFECT_FIXED_DEAD |
			      BT_SIM_DEFECT_FW_TRUNCATES);
	char buf[200];
	bt_sim_defects_format(&df, buf, sizeof(buf));
	CHECK_STR(buf, "double-count:0xC4/0x20,fixed-dead:3,fw-truncates");
	CHECK(bt_sim_defects_parse("", &df, &d) == BT_OK && df.mask == 0);
	bt_sim_defects_format(&df, buf, sizeof(buf));
	CHECK_STR(buf, "none");
	CHECK(bt_sim_defects_parse("umask-ignored", &df, &d) == BT_OK && df.umask_code == 0xC4);
	static const char *const bad[] = {
		"stuck", "stuck-counter:16", "stuck-counter:", "stuck-counter:x", "fixed-dead:8",
		"double-count:0xC4", "double-count:0xC4/0x100", "fw-truncates:1", ",", "a,,b",
		"stuck-counter:1,", "narrow-counter:0x", "double-count:/", "help",
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		d.text[0] = '\0';
		CHECK_MSG(bt_sim_defects_parse(bad[i], &df, &d) == BT_ERR_INVALID && d.text[0],
			  "'%s' accepted", bad[i]);
	}
	CHECK(bt_sim_defects_parse("help", &df, &d) == BT_ERR_INVALID &&
	      strstr(d.text, "stuck-counter[:K]") && strstr(d.text, "rdpmc-fixed-gp"));
	char help[2048];
	bt_sim_defects_help(help, sizeof(help));
	CHECK(strstr(help, "fw-truncates: a full-width write") && strstr(help, "\nrdpmc-fixed-gp: "));
}

