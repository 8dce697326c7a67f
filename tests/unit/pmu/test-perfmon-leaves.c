/* SPDX-License-Identifier: MIT */
/*
 * CPUID leaves 0AH and 23H as fields (pmu/perfmon-leaves.c), against the
 * SDM's field definitions (vol. 2A, CPUID leaf 0AH "Architectural
 * Performance Monitoring Leaf" and leaf 23H), worked out by hand here from
 * values real parts answered (arch/sim/sim-parts.c holds the same dumps).
 */
#include "pmu/perfmon-leaves.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"

/* An i9-13900K P-core (perfmon v5): EAX=07300605h EBX=0 ECX=7 EDX=8603h. */
TEST(raptor_lake_leaf_0a_by_hand)
{
	struct bt_cpuid r = { 0x07300605, 0, 0x7, 0x8603 };
	struct bt_leaf0a a;
	bt_leaf0a_decode(&r, &a);
	CHECK_EQ_INT(a.version, 5);      /* EAX[7:0] */
	CHECK_EQ_INT(a.num_gp, 6);       /* EAX[15:8] */
	CHECK_EQ_INT(a.gp_width, 48);    /* EAX[23:16] = 30h */
	CHECK_EQ_INT(a.events_len, 7);   /* EAX[31:24] */
	CHECK_EQ_INT(a.fixed_bitmap, 7); /* ECX, version 5 */
	CHECK_EQ_INT(a.num_fixed, 3);    /* EDX[4:0] = 00011b */
	CHECK_EQ_INT(a.fixed_width, 48); /* EDX[12:5] = 0110000b */
	CHECK(a.any_deprecated);         /* EDX[15] */
	CHECK_EQ_INT(bt_leaf0a_events(&a), 0x7F);
	char why[160];
	CHECK(!bt_leaf0a_impossible(&a, why, sizeof(why)));
}

/* Ivy Bridge (v3): ECX is reserved below version 5, whatever it holds. */
TEST(ecx_is_no_bitmap_below_version_5)
{
	struct bt_cpuid r = { 0x07300403, 0, 0xF, 0x0603 };
	struct bt_leaf0a a;
	bt_leaf0a_decode(&r, &a);
	CHECK_EQ_INT(a.version, 3);
	CHECK_EQ_INT(a.num_gp, 4);
	CHECK_EQ_INT(a.fixed_bitmap, 0);
	CHECK_EQ_INT(a.num_fixed, 3);
	CHECK(!a.any_deprecated);
}

/* EBX bit x set = event x NOT available, and only bits below EAX[31:24]
 * count: Lunar Lake's 0DH-long vector with EBX=280h lacks events 7 and 9;
 * a length of 8 (Granite Rapids) hides events 8-11 whatever EBX says. */
TEST(event_vector_length_and_not_available_bits)
{
	struct bt_leaf0a a;
	bt_leaf0a_decode(&(struct bt_cpuid){ 0x0D300806, 0x280, 0x7, 0x8603 }, &a);
	CHECK_EQ_INT(bt_leaf0a_events(&a), 0x1FFF & ~0x280u);
	bt_leaf0a_decode(&(struct bt_cpuid){ 0x08300805, 0, 0xF, 0x8604 }, &a);
	CHECK_EQ_INT(bt_leaf0a_events(&a), 0xFF);
}

/* Answers no processor gives (SDM: versions 1-6, at most 32 general and
 * 16 fixed counters in the global registers, widths 1-64). */
TEST(impossible_answers)
{
	static const struct { struct bt_cpuid r; bool impossible; } cases[] = {
		{ { 0x07300607, 0, 0, 0x8603 }, true },    /* version 7 */
		{ { 0x07302105, 0, 0, 0x8603 }, true },    /* 33 general counters */
		{ { 0x07000605, 0, 0, 0x8603 }, true },    /* general counters 0 bits wide */
		{ { 0x07410605, 0, 0, 0x8603 }, true },    /* 65 bits wide */
		{ { 0x07300605, 0, 0x10000, 0x8603 }, true }, /* fixed counter 16, v5 */
		{ { 0x07300604, 0, 0x10000, 0x8603 }, false }, /* ECX is no bitmap on v4 */
		{ { 0x07300605, 0, 0, 0x8611 }, true },    /* 17 fixed counters */
		{ { 0x07300605, 0, 0, 0x0823 }, true },    /* fixed counters 65 bits wide */
		{ { 0, 0, 0, 0 }, false },                 /* no PMU: not impossible */
		{ { 0x07302005, 0, 0xFFFF, 0x8610 }, false }, /* 32 general, 16 fixed */
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		struct bt_leaf0a a;
		char why[160] = "";
		bt_leaf0a_decode(&cases[i].r, &a);
		CHECK_MSG(bt_leaf0a_impossible(&a, why, sizeof(why)) == cases[i].impossible,
			  "case %zu: %s", i, why);
	}
}

/* Leaf 23H exists only where CPUID.(07H,1):EAX[8] says so and the maximum
 * leaf reaches it; its subleaves 1 and 3 only where subleaf 0 EAX[1], [3]
 * say. Lunar Lake's P-core: 0BH, counters FFh and Fh, events DFFh. */
TEST(leaf_23h_presence_and_subleaves)
{
	struct bt_cpuid l71 = { 0x100, 0, 0, 0 }, none = { 0, 0, 0, 0 };
	struct bt_cpuid s0 = { 0xB, 0x3, 0x8, 0 }, s1 = { 0xFF, 0xF, 0, 0 }, s3 = { 0xDFF, 0, 0, 0 };
	struct bt_leaf23 x;
	bt_leaf23_decode(0x23, &l71, &s0, &s1, &s3, &x);
	CHECK(x.present && x.umask2 && x.eq);
	CHECK_EQ_INT(x.slots_per_cycle, 8);
	CHECK(x.counters && x.gp_bitmap == 0xFF && x.fixed_bitmap == 0xF);
	CHECK(x.events && x.arch_events == 0xDFF);
	bt_leaf23_decode(0x22, &l71, &s0, &s1, &s3, &x);
	CHECK(!x.present && !x.counters && !x.events);
	bt_leaf23_decode(0x23, &none, &s0, &s1, &s3, &x);
	CHECK(!x.present);
	struct bt_cpuid s0_only = { 0x1, 0x1, 0, 0 };
	bt_leaf23_decode(0x23, &l71, &s0_only, &s1, &s3, &x);
	CHECK(x.present && x.umask2 && !x.eq && !x.counters && !x.events && x.gp_bitmap == 0);
}

TEST(bitmap_span)
{
	CHECK_EQ_INT(bt_bitmap_span(0), 0);
	CHECK_EQ_INT(bt_bitmap_span(1), 1);
	CHECK_EQ_INT(bt_bitmap_span(0x77), 7);
	CHECK_EQ_INT(bt_bitmap_span(0x3FF), 10);
	CHECK_EQ_INT(bt_bitmap_span(0x80000000u), 32);
}
