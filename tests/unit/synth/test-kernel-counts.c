/* SPDX-License-Identifier: MIT */
/*
 * What the simulated PMU counts over a known-count kernel per core
 * (synth/kernel-counts.c), against expectations the sim did not write:
 * the kernels' declared counts (kernels/, checked against cachegrind's Ir,
 * Bc, Dr, Dw by tests/suite/36-kernel-census.sh and QEMU -icount by step
 * 56), the per-iteration counts read off the kernels' instructions, and
 * the encodings of the vendors' event lists (quoted below).
 */
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"
#include "kernels/kernel.h"
#include "synth/sim-run.h"
#include "tests/unit/lib/test.h"

struct enc {
	uint16_t code;
	uint8_t umask, umask_ext;
};

/* The count of the entry with this general-counter encoding (false: the
 * simulated PMU has none, the encoding is not modelled). */
static bool count_of(struct bt_synth *s, struct enc e, uint64_t *ret)
{
	const struct bt_sim *sim = bt_synth_arch(s)->ctx;
	for (size_t k = 0; sim->source && k < sim->source->n; k++) {
		const struct bt_event *m = &sim->source->entries[k].ev;
		if (m->fixed == BT_EV_NO_FIXED && m->code == e.code && m->umask == e.umask &&
		    m->umask_ext == e.umask_ext) {
			*ret = sim->source->entries[k].count;
			return true;
		}
	}
	return false;
}

static uint64_t fixed_of(struct bt_synth *s, int fixed)
{
	const struct bt_sim *sim = bt_synth_arch(s)->ctx;
	for (size_t k = 0; sim->source && k < sim->source->n; k++)
		if (sim->source->entries[k].ev.fixed == fixed)
			return sim->source->entries[k].count;
	return 0;
}

static bool models(struct bt_synth *s, struct enc e)
{
	struct bt_event ev;
	memset(&ev, 0, sizeof(ev));
	ev.source = BT_SRC_PMC;
	ev.fixed = BT_EV_NO_FIXED;
	ev.counters = 0xF;
	ev.code = e.code;
	ev.umask = e.umask;
	ev.umask_ext = e.umask_ext;
	return bt_synth_kernel_models(s, &ev);
}

static struct bt_synth *synth(const char *preset)
{
	struct bt_synth *s = NULL;
	struct bt_diag d = { "" };
	struct bt_synth_opts o = { .name = preset };
	CHECK_MSG(bt_synth_new(&o, &s, &d) == BT_OK, "%s: %s", preset, d.text);
	return s;
}

static uint64_t declared(const char *kernel, const char *name, uint64_t n)
{
	int64_t v = -1;
	CHECK(bt_kernel_count(bt_kernel_find(kernel), name, n, &v) && v >= 0);
	return (uint64_t)v;
}

/* Lion Cove's conditional branches (lunarlake_lioncove_core.json):
 * BR_INST_RETIRED.COND_TAKEN C4H/01H UMaskExt 01H, COND C4H/11H UMaskExt
 * 01H; C4H/01H UMaskExt 00H is COND_TAKEN_BWD and C4H/00H UMaskExt 01H
 * COND_TAKEN_FWD, which the kernels' declarations cannot split: not
 * modelled. Golden Cove (sapphirerapids_core.json): COND_TAKEN C4H/01H,
 * COND C4H/11H, no UMaskExt. */
TEST(lion_cove_branch_umasks)
{
	const uint64_t n = 1000;
	struct bt_synth *lnl = synth("lnl-p"), *spr = synth("spr");
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	uint64_t v = 0;

	if (!lnl || !spr || !loop)
		return;
	bt_synth_count_kernel(lnl, loop, n);
	/* DEC/JNZ: n conditional branches, n - 1 taken (the last falls through) */
	CHECK(count_of(lnl, (struct enc){ 0xC4, 0x01, 0x01 }, &v));
	CHECK_EQ_U64(v, n - 1);
	CHECK_EQ_U64(v, declared("loop-dec-jnz", BT_KC_COND_TAKEN, n));
	CHECK(count_of(lnl, (struct enc){ 0xC4, 0x11, 0x01 }, &v));
	CHECK_EQ_U64(v, n);
	CHECK(count_of(lnl, (struct enc){ 0xC4, 0x10, 0x00 }, &v));
	CHECK_EQ_U64(v, 1);
	CHECK(!count_of(lnl, (struct enc){ 0xC4, 0x01, 0x00 }, &v));
	CHECK(!count_of(lnl, (struct enc){ 0xC4, 0x00, 0x01 }, &v));
	CHECK(!count_of(lnl, (struct enc){ 0xC4, 0x11, 0x00 }, &v));
	CHECK(models(lnl, (struct enc){ 0xC4, 0x01, 0x01 }));
	CHECK(!models(lnl, (struct enc){ 0xC4, 0x01, 0x00 }));
	CHECK(!models(lnl, (struct enc){ 0xC4, 0x00, 0x01 }));

	bt_synth_count_kernel(spr, loop, n);
	CHECK(count_of(spr, (struct enc){ 0xC4, 0x01, 0x00 }, &v));
	CHECK_EQ_U64(v, n - 1);
	CHECK(count_of(spr, (struct enc){ 0xC4, 0x11, 0x00 }, &v));
	CHECK_EQ_U64(v, n);
	CHECK(!count_of(spr, (struct enc){ 0xC4, 0x01, 0x01 }, &v));
	bt_synth_free(lnl);
	bt_synth_free(spr);
}

/* Retired loads and stores, D0H/81H and D0H/82H (MEM_INST_RETIRED.ALL_LOADS /
 * ALL_STORES on Skylake..Lion Cove; MEM_UOPS_RETIRED on the Atom cores):
 * load-stride does one load per iteration (MOV (%rsi)), store-stride one
 * store, call-ret one store (CALL's push) and one load (RET's pop). */
TEST(loads_and_stores_retired)
{
	static const char *const presets[] = { "skl", "icl", "spr", "lnl-p", "adl-e" };
	const uint64_t n = 500;

	for (size_t i = 0; i < BT_ARRAY_SIZE(presets); i++) {
		struct bt_synth *s = synth(presets[i]);
		uint64_t l1 = 0, l2 = 0, st = 0;
		if (!s)
			continue;
		bt_synth_count_kernel(s, bt_kernel_find("load-stride"), n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x81, 0 }, &l1));
		CHECK_EQ_U64(l1, declared("load-stride", BT_KC_LOADS, n));
		bt_synth_count_kernel(s, bt_kernel_find("load-stride"), 2 * n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x81, 0 }, &l2));
		CHECK_MSG(l2 - l1 == n, "%s: %llu loads per %llu iterations", presets[i],
			  (unsigned long long)(l2 - l1), (unsigned long long)n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x82, 0 }, &st));
		CHECK_EQ_U64(st, 0);

		bt_synth_count_kernel(s, bt_kernel_find("store-stride"), n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x82, 0 }, &st));
		CHECK_EQ_U64(st, n);
		CHECK_EQ_U64(st, declared("store-stride", BT_KC_STORES, n));

		bt_synth_count_kernel(s, bt_kernel_find("call-ret"), n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x82, 0 }, &st));
		CHECK_EQ_U64(st, n);
		CHECK(count_of(s, (struct enc){ 0xD0, 0x81, 0 }, &l1));
		CHECK_EQ_U64(l1, declared("call-ret", BT_KC_LOADS, n));
		bt_synth_free(s);
	}
	/* Core 2 has neither encoding for these: not modelled there. */
	struct bt_synth *c2 = synth("core2");
	uint64_t v;
	if (c2) {
		bt_synth_count_kernel(c2, bt_kernel_find("load-stride"), n);
		CHECK(!count_of(c2, (struct enc){ 0xD0, 0x81, 0 }, &v));
		bt_synth_free(c2);
	}
}

/* Topdown Slots A4H/01H (SDM vol. 3B Table 20-1) counts what fixed counter
 * 3 counts (Table 20-2) where the lists have TOPDOWN.SLOTS_P (Ice Lake and
 * later big cores); BR_INST_RETIRED.INDIRECT C4H/80H is the kernels'
 * declared indirect branches there (none in loop-dec-jnz), and on the Atom
 * cores C4H/80H is another event (TAKEN): not modelled as INDIRECT. */
TEST(slots_p_and_indirect)
{
	static const char *const big[] = { "icl", "spr", "lnl-p" };
	uint64_t v = 0;

	for (size_t i = 0; i < BT_ARRAY_SIZE(big); i++) {
		struct bt_synth *s = synth(big[i]);
		if (!s)
			continue;
		bt_synth_count_kernel(s, bt_kernel_find("loop-dec-jnz"), 1000);
		CHECK(count_of(s, (struct enc){ 0xA4, 0x01, 0 }, &v));
		CHECK_MSG(v == fixed_of(s, 3) && v > 0, "%s: A4H/01H %llu, fixed 3 %llu", big[i],
			  (unsigned long long)v, (unsigned long long)fixed_of(s, 3));
		CHECK(count_of(s, (struct enc){ 0xC4, 0x80, 0 }, &v));
		CHECK_EQ_U64(v, declared("loop-dec-jnz", BT_KC_INDIRECT, 1000));
		bt_synth_free(s);
	}
	struct bt_synth *e = synth("adl-e"), *skl = synth("skl");
	if (e && skl) {
		bt_synth_count_kernel(e, bt_kernel_find("loop-dec-jnz"), 1000);
		CHECK(!count_of(e, (struct enc){ 0xC4, 0x80, 0 }, &v));
		bt_synth_count_kernel(skl, bt_kernel_find("loop-dec-jnz"), 1000);
		CHECK(!count_of(skl, (struct enc){ 0xA4, 0x01, 0 }, &v));
	}
	bt_synth_free(e);
	bt_synth_free(skl);
}
