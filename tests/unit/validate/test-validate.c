/* SPDX-License-Identifier: MIT */
/*
 * validate/: the verdict rule, expectations over kernel counts, the spec
 * parser's located errors, and the runner end to end on the simulated PMU:
 * a correct model of the kernel PASSes, a model with one count off by one
 * FAILs exactly the check of that count (the checker can fail).
 */
#include <stdlib.h>
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"
#include "synth/count-sources.h"
#include "kernels/kernel.h"
#include "pmu/pmu-caps.h"
#include "validate/builtin-spec.h"
#include "validate/expect.h"
#include "validate/run.h"
#include "validate/spec.h"
#include "tests/unit/lib/test.h"

TEST(judge)
{
	CHECK(bt_validate_judge(20002, 20002, 20002, 20002, 0, 0) == BT_VERDICT_PASS);
	CHECK(bt_validate_judge(20003, 20003, 20002, 20002, 0, 0) == BT_VERDICT_FAIL);
	CHECK(bt_validate_judge(20001, 20002, 20002, 20002, 0, 0) == BT_VERDICT_FAIL);
	CHECK(bt_validate_judge(0, 0, 0, 0, 0, 0) == BT_VERDICT_PASS);
	CHECK(bt_validate_judge(1, 1, 0, 0, 0, 0) == BT_VERDICT_FAIL);
	/* 1 % off: outside 0.5 %, inside the 2 % warning band */
	CHECK(bt_validate_judge(1010, 1010, 1000, 1000, 0.5, 2) == BT_VERDICT_WARN);
	CHECK(bt_validate_judge(1030, 1030, 1000, 1000, 0.5, 2) == BT_VERDICT_FAIL);
	CHECK(bt_validate_judge(250, 750, 250, 750, 0, 0) == BT_VERDICT_PASS);
	CHECK(bt_validate_judge(249, 750, 250, 750, 0, 0) == BT_VERDICT_FAIL);
}

TEST(expressions)
{
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	struct bt_diag d;
	double v;

	CHECK(loop != NULL);
	if (!loop)
		return;
	/* loop-dec-jnz at n = 10: 2 + 2*10 = 22 instructions, minus empty's RET */
	CHECK(bt_vexpr_eval("k.instructions", loop, 10, &v, &d) == BT_OK && v == 21);
	/* 10 JNZ + RET, minus empty's RET */
	CHECK(bt_vexpr_eval("k.branches", loop, 10, &v, &d) == BT_OK && v == 10);
	/* empty declares no cond_taken: RET is not a conditional branch, so 0 */
	CHECK(bt_vexpr_eval("k.cond_taken", loop, 10, &v, &d) == BT_OK && v == 9);
	CHECK(bt_vexpr_eval("0.25*n + (n - 2)/4", loop, 10, &v, &d) == BT_OK && v == 4.5);
	CHECK(bt_vexpr_eval("-n", loop, 10, &v, &d) == BT_OK && v == -10);
	CHECK(bt_vexpr_eval("k.no_such_count", loop, 10, &v, &d) == BT_ERR_UNSUPPORTED);
	CHECK_MSG(strstr(d.text, "no_such_count") != NULL, "%s", d.text);
	/* loads: MOV (%rdi) and RET's stack read, minus empty's RET read */
	CHECK(bt_vexpr_eval("k.loads", loop, 10, &v, &d) == BT_OK && v == 1);
	CHECK(bt_vexpr_eval("n / (n - 10)", loop, 10, &v, &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("k.instructions +", &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("n < 3", &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("max(n, 3)", &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("cycles", &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("k.Bad-Name", &d) == BT_ERR_INVALID);
	CHECK(bt_vexpr_check("n / (n - n)", &d) == BT_OK); /* a kernel-time error, not syntax */
}

static bt_status parse(const char *text, struct bt_vspec *s, struct bt_diag *d)
{
	bt_vspec_init(s, "t.json");
	return bt_vspec_parse(text, strlen(text), "t.json", s, d);
}

TEST(spec_parse)
{
	struct bt_vspec s;
	struct bt_diag d;

	CHECK(parse("{\"format\":\"baretop-validate-spec\",\"checks\":["
		    "{\"event\":\"cpu/event=0xc0/\",\"kernel\":\"empty\",\"n\":5,"
		    "\"expect\":{\"exact\":\"k.instructions\"}},"
		    "{\"event\":\"A\",\"kernel\":\"loop-dec-jnz\",\"expect\":{\"range\":[\"1\",\"n\"]},"
		    "\"tolerance_pct\":1,\"warn_pct\":3},"
		    "{\"event\":\"A\",\"kernel\":\"k\",\"expect\":{\"relation\":{\"of\":\"B\",\"k\":2,"
		    "\"tol_pct\":2}}},"
		    "{\"event\":\"A\",\"kernel\":\"k\",\"expect\":{\"le\":\"B\"}}]}", &s, &d) == BT_OK);
	CHECK(s.n == 4);
	if (s.n == 4) {
		CHECK(s.v[0].kind == BT_VEXP_EXACT && s.v[0].n == 5);
		CHECK(s.v[1].kind == BT_VEXP_RANGE && s.v[1].warn_pct == 3);
		CHECK(s.v[2].kind == BT_VEXP_RELATION && s.v[2].k == 2 && s.v[2].tolerance_pct == 2);
		CHECK(s.v[3].kind == BT_VEXP_LE && strcmp(s.v[3].of, "B") == 0);
	}
	bt_vspec_free(&s);

	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "[]", "\"format\"" },
		{ "{\"format\":\"baretop-validate-spec\"}", "\"checks\"" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"kernel\":\"e\","
		  "\"expect\":{\"exact\":\"1\"}}]}", "checks[0] (line 1): \"event\": missing" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\",\"kernel\":\"e\","
		  "\"expect\":{\"exact\":\"1\"}},\n{\"event\":\"x\",\"kernel\":\"e\","
		  "\"expect\":{\"exact\":\"(1\"}}]}", "checks[1] (line 2): \"expect.exact\"" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\",\"kernel\":\"e\","
		  "\"n\":1.5,\"expect\":{\"exact\":\"1\"}}]}", "\"n\": 1.5 is not a whole number" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\",\"kernel\":\"e\","
		  "\"expect\":{\"exact\":\"1\",\"le\":\"y\"}}]}", "\"expect\": expected an object with one" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\",\"kernel\":\"e\","
		  "\"expect\":{\"relation\":{\"of\":\"y\",\"k\":-1}}}]}", "\"expect.relation.k\"" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\",\"kernel\":\"e\","
		  "\"expect\":{\"exact\":\"1\"},\"colour\":1}]}", "\"colour\": unknown field" },
		{ "{\"format\":\"baretop-validate-spec\",\"checks\":[{\"event\":\"x\"", "t.json:1:" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		d.text[0] = '\0';
		CHECK_MSG(parse(bad[i].text, &s, &d) == BT_ERR_INVALID, "case %zu accepted", i);
		CHECK_MSG(strstr(d.text, bad[i].want) != NULL, "case %zu: '%s' lacks '%s'", i, d.text,
			  bad[i].want);
		CHECK(s.n == 0);
		bt_vspec_free(&s);
	}
}

/* The test's own model of a kernel in the simulated PMU: the declared
 * counts, and `skew` added to the conditional-branch count. */
struct prep {
	struct bt_sim *sim;
	int64_t skew;
	struct bt_sim_count kc[BT_SIM_KERNEL_MAX_COUNTS], ec[BT_SIM_KERNEL_MAX_COUNTS];
	struct bt_sim_source ks, es;
};

static uint64_t count(const struct bt_kernel *k, const char *name, uint64_t n)
{
	int64_t v = 0;
	return bt_kernel_count(k, name, n, &v) && v > 0 ? (uint64_t)v : 0;
}

static void model(const struct bt_kernel *k, uint64_t n, int64_t skew,
		  struct bt_sim_kernel_model *m)
{
	memset(m, 0, sizeof(*m));
	m->instructions = count(k, BT_KC_INSTRUCTIONS, n);
	m->branches = count(k, BT_KC_BRANCHES, n);
	m->cond = count(k, BT_KC_COND, n) + (uint64_t)skew;
	m->cond_taken = count(k, BT_KC_COND_TAKEN, n);
	m->cond_not_taken = count(k, BT_KC_COND_NOT_TAKEN, n);
	m->jmp_direct = count(k, BT_KC_JMP_DIRECT, n);
	m->near_calls = count(k, BT_KC_NEAR_CALLS, n);
	m->near_returns = count(k, BT_KC_NEAR_RETURNS, n);
	m->indirect = count(k, BT_KC_INDIRECT, n);
	m->random_cond = count(k, BT_KC_RANDOM_COND, n);
	m->ipc = 1.5;
}

static void prepare(void *ctx, const struct bt_kernel *k, const struct bt_kernel_state *st)
{
	struct prep *p = ctx;
	const struct bt_kernel *empty = bt_kernel_find("empty");
	struct bt_sim_kernel_model m;

	model(k, st->n, p->skew, &m);
	p->ks = (struct bt_sim_source){ .entries = p->kc, .body = k->run,
					.n = bt_sim_kernel_counts(&p->sim->cfg, &m, p->kc) };
	model(empty, 1, 0, &m);
	p->es = (struct bt_sim_source){ .entries = p->ec, .body = empty->run,
					.n = bt_sim_kernel_counts(&p->sim->cfg, &m, p->ec) };
	p->sim->source_alt = &p->es;
	bt_sim_set_source(p->sim, &p->ks);
}

static void run_preset(const char *preset, int64_t skew, struct bt_check_list *out)
{
	struct bt_sim sim;
	struct bt_pmu pmu = { .arch = &sim.arch };
	struct bt_vspec spec;
	struct bt_validate_opts o;
	static struct prep p;
	struct bt_diag d;

	CHECK(bt_sim_init(&sim, bt_sim_preset(preset)) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &pmu.caps);
	bt_vspec_init(&spec, "built-in");
	CHECK(bt_vspec_builtin(&pmu.caps, &spec) == BT_OK);
	bt_validate_opts_defaults(&o);
	o.quick = true;
	o.reps = 3;
	memset(&p, 0, sizeof(p));
	p.sim = &sim;
	p.skew = skew;
	o.prepare = prepare;
	o.prepare_ctx = &p;
	bt_check_list_init(out);
	CHECK(bt_validate_run(&pmu, &spec, &o, out, &d) == BT_OK);
	bt_vspec_free(&spec);
	bt_sim_free(&sim);
}

/* How many built-in checks of the spec count cpu/event=0xc4,umask=UMASK/. */
static int c4_checks(enum bt_intel_uarch u, const char *umask)
{
	struct bt_pmu_caps caps;
	struct bt_vspec spec;
	char ev[48];
	int n = 0;

	memset(&caps, 0, sizeof(caps));
	caps.kind = BT_PMU_INTEL_ARCH;
	caps.version = 3;
	caps.arch_events_len = 7;
	caps.uarch = (uint8_t)u;
	snprintf(ev, sizeof(ev), "cpu/event=0xc4,umask=%s/", umask);
	bt_vspec_init(&spec, "built-in");
	CHECK(bt_vspec_builtin(&caps, &spec) == BT_OK);
	for (int i = 0; i < spec.n; i++)
		n += strcmp(spec.v[i].event, ev) == 0;
	bt_vspec_free(&spec);
	return n;
}

/* BR_INST_RETIRED umasks per core class, from the vendors' event lists
 * (Linux tools/perf/pmu-events/arch/x86): Westmere (westmereep-sp,
 * westmereep-dp, westmere-ex pipeline.json) has C4H 01H CONDITIONAL, 02H
 * NEAR_CALL and 04H only; Sandy Bridge (sandybridge/pipeline.json) adds
 * 08H NEAR_RETURN and 10H NOT_TAKEN. */
TEST(branch_umasks_per_core_class)
{
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM, "0x01"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM, "0x02"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM, "0x08"), 0);
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM, "0x10"), 0);
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM_BDW, "0x08"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_WSM_BDW, "0x10"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_SKL, "0x10"), 1);
	/* Nehalem and Core 2: architectural events only. */
	CHECK_EQ_INT(c4_checks(BT_UARCH_NHM, "0x01"), 0);
	/* Golden Cove (sapphirerapids_core.json): COND_TAKEN 01H, COND 11H.
	 * Lion Cove (lunarlake_lioncove_core.json): both with UMaskExt 01H;
	 * 01H alone is COND_TAKEN_BWD there, so no check counts it as
	 * COND_TAKEN. */
	CHECK_EQ_INT(c4_checks(BT_UARCH_GLC, "0x01"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_GLC, "0x11"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_LNC, "0x01"), 0);
	CHECK_EQ_INT(c4_checks(BT_UARCH_LNC, "0x11"), 0);
	CHECK_EQ_INT(c4_checks(BT_UARCH_LNC, "0x01,umask2=0x01"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_LNC, "0x11,umask2=0x01"), 1);
	CHECK_EQ_INT(c4_checks(BT_UARCH_LNC, "0x10"), 1);
}

/* The simulated PMU's own C4H table agrees with the same event lists: a
 * simulated Westmere counts no C4H/08H or 10H over call-ret, a simulated
 * Sandy Bridge..Broadwell core does. */
static bool sim_counts_c4(uint8_t family, uint8_t umask)
{
	struct bt_sim_config cfg = *bt_sim_preset("skl");
	struct bt_sim_kernel_model m = { .instructions = 100, .branches = 20, .near_calls = 5,
					 .near_returns = 5, .cond = 10, .ipc = 1 };
	struct bt_sim_count out[BT_SIM_KERNEL_MAX_COUNTS];

	cfg.family = family;
	size_t n = bt_sim_kernel_counts(&cfg, &m, out);
	for (size_t i = 0; i < n; i++)
		if (out[i].ev.code == 0xC4 && out[i].ev.umask == umask && out[i].ev.fixed < 0)
			return true;
	return false;
}

TEST(sim_branch_umasks_per_core_class)
{
	CHECK(sim_counts_c4(BT_SIM_FAM_WSM, 0x01) && sim_counts_c4(BT_SIM_FAM_WSM, 0x02));
	CHECK(!sim_counts_c4(BT_SIM_FAM_WSM, 0x08) && !sim_counts_c4(BT_SIM_FAM_WSM, 0x10));
	CHECK(sim_counts_c4(BT_SIM_FAM_WSM_BDW, 0x08) && sim_counts_c4(BT_SIM_FAM_WSM_BDW, 0x10));
}

TEST(sim_pass_and_fail)
{
	static const char *const presets[] = { "skl", "icl", "adl-e", "zen4" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct bt_check_list l;
		int t[4] = { 0 };
		run_preset(presets[i], 0, &l);
		bt_check_list_tally(&l, t);
		CHECK_MSG(t[BT_VERDICT_PASS] >= 6 && !t[BT_VERDICT_FAIL] && !t[BT_VERDICT_WARN],
			  "%s: %d PASS %d WARN %d FAIL", presets[i], t[0], t[1], t[2]);
		for (int j = 0; j < l.n; j++)
			CHECK_MSG(l.v[j].verdict != BT_VERDICT_SKIP ||
				  strstr(l.v[j].detail, "no such kernel"), "%s: %s skipped: %s",
				  presets[i], l.v[j].id, l.v[j].detail);
		bt_check_list_free(&l);
	}
	/* One more conditional branch in the model than the kernel has: on
	 * Ice Lake exactly the C4H/11H (COND) check fails, on Skylake
	 * C4H/01H (CONDITIONAL); nothing else does. */
	static const struct {
		const char *preset, *id;
	} broken[] = {
		{ "icl", "event:cpu/event=0xc4,umask=0x11/@loop-dec-jnz" },
		{ "skl", "event:cpu/event=0xc4,umask=0x01/@loop-dec-jnz" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(broken); i++) {
		struct bt_check_list l;
		int fails = 0;
		run_preset(broken[i].preset, 1, &l);
		for (int j = 0; j < l.n; j++)
			if (l.v[j].verdict == BT_VERDICT_FAIL) {
				fails++;
				CHECK_MSG(strcmp(l.v[j].id, broken[i].id) == 0, "%s: %s failed",
					  broken[i].preset, l.v[j].id);
			}
		CHECK_MSG(fails == 1, "%s: %d checks failed, want 1", broken[i].preset, fails);
		bt_check_list_free(&l);
	}
}

/* Page readers for the dtlb-walk checks: 2 MiB pages (UEFI's identity
 * map), 4 KiB pages, or unknown. */
static void pages_2m(const void *addr, uint64_t len, struct bt_page_span *ret)
{
	(void)addr;
	memset(ret, 0, sizeof(*ret));
	ret->smallest = ret->largest = BT_PAGE_2M;
	ret->pages = len / BT_PAGE_2M;
	snprintf(ret->source, sizeof(ret->source), "test tables");
}

static void pages_4k(const void *addr, uint64_t len, struct bt_page_span *ret)
{
	(void)addr;
	memset(ret, 0, sizeof(*ret));
	ret->smallest = ret->largest = BT_PAGE_4K;
	ret->pages = len / BT_PAGE_4K;
	snprintf(ret->source, sizeof(ret->source), "test tables");
}

/* One check over dtlb-walk whose expectation is k.page_loads, on the
 * simulated skl, with the kernel's buffer on the pages `reader` says. */
static void dtlb_check(void (*reader)(const void *, uint64_t, struct bt_page_span *),
		       struct bt_check_result *ret)
{
	struct bt_sim sim;
	struct bt_pmu pmu = { .arch = &sim.arch };
	struct bt_vspec spec;
	struct bt_validate_opts o;
	static struct prep p;
	struct bt_check_list l;
	struct bt_diag d;

	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	bt_pmu_caps_detect(&sim.arch, &pmu.caps);
	CHECK(parse("{\"format\":\"baretop-validate-spec\",\"checks\":["
		    "{\"event\":\"cpu/event=0xc0,umask=0x00/\",\"kernel\":\"dtlb-walk\","
		    "\"n\":1000,\"expect\":{\"exact\":\"k.page_loads\"}}]}", &spec, &d) == BT_OK);
	bt_validate_opts_defaults(&o);
	o.reps = 1;
	o.kcpu.pages = reader;
	memset(&p, 0, sizeof(p));
	p.sim = &sim;
	o.prepare = prepare;
	o.prepare_ctx = &p;
	bt_check_list_init(&l);
	CHECK(bt_validate_run(&pmu, &spec, &o, &l, &d) == BT_OK);
	CHECK_EQ_INT(l.n, 1);
	memset(ret, 0, sizeof(*ret));
	if (l.n == 1)
		*ret = l.v[0];
	bt_check_list_free(&l);
	bt_vspec_free(&spec);
	bt_sim_free(&sim);
}

/* dtlb-walk's TLB-miss expectation follows the pages of its buffer: on
 * UEFI's 2 MiB pages its 16 MiB are 8 pages and no load is a page load
 * (kernels/memory.c); on 4 KiB pages each of the n = 1000 loads is one
 * (minus the calibration window's RET, which loads from the stack slot
 * its CALL just wrote: 0); unknown pages SKIP, saying why. The check says
 * which pages it was judged for and where that was read. */
TEST(dtlb_walk_expectation_follows_the_page_size)
{
	struct bt_check_result r;

	dtlb_check(pages_2m, &r);
	CHECK_MSG(strncmp(r.expected, "0 (", 3) == 0, "2 MiB: expected '%s'", r.expected);
	CHECK_STR(r.pages, "2 MiB (test tables)");
	dtlb_check(pages_4k, &r);
	CHECK_MSG(strncmp(r.expected, "1000 (", 6) == 0, "4 KiB: expected '%s'", r.expected);
	CHECK_STR(r.pages, "4 KiB (test tables)");
	dtlb_check(NULL, &r);
	CHECK_EQ_INT(r.verdict, BT_VERDICT_SKIP);
	CHECK_MSG(strstr(r.detail, "per page size") && strstr(r.detail, "unknown"), "detail '%s'",
		  r.detail);
	CHECK(strncmp(r.pages, "unknown (", 9) == 0);
}
