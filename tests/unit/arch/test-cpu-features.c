/* SPDX-License-Identifier: MIT */
/*
 * The CPU facts of arch/cpuid.h: the vendor from CPUID.0H, and which vector
 * ISA is usable from CPUID.01H / 07H and XCR0. Expectations from the SDM
 * (vol. 2A CPUID; vol. 1, 13.3: a feature's instructions #UD until all of
 * its XCR0 state components are enabled), and, on the machine running the
 * test, from libgcc's own decoder (__builtin_cpu_supports).
 */
#include <string.h>

#include "arch/arch-cpuid-host.h"
#include "arch/cpuid.h"
#include "tests/unit/lib/test.h"

/* CPUID.01H: EDX[26] SSE2; ECX[12] FMA, ECX[27] OSXSAVE, ECX[28] AVX.
 * CPUID.(07H,0):EBX[16] AVX512F. */
#define L1_SSE2    (1u << 26)
#define L1_FMA     (1u << 12)
#define L1_OSXSAVE (1u << 27)
#define L1_AVX     (1u << 28)
#define L7_AVX512F (1u << 16)

static struct bt_cpu_features decode(uint32_t l1_ecx, uint32_t l1_edx, uint32_t l7_ebx,
				     uint64_t xcr0)
{
	struct bt_cpuid l1 = { .ecx = l1_ecx, .edx = l1_edx }, l7 = { .ebx = l7_ebx };
	struct bt_cpu_features f;

	memset(&f, 0xff, sizeof(f));
	bt_cpu_features_decode(&l1, &l7, xcr0, &f);
	return f;
}

TEST(usable_isa_requires_the_enabled_state)
{
	const uint32_t all1 = L1_FMA | L1_OSXSAVE | L1_AVX;
	struct bt_cpu_features f;

	f = decode(all1, L1_SSE2, L7_AVX512F, 0x3);          /* x87 + SSE only */
	CHECK(f.sse2 && !f.avx && !f.fma && !f.avx512f);
	f = decode(all1, L1_SSE2, L7_AVX512F, 0x7);          /* + AVX */
	CHECK(f.avx && f.fma && !f.avx512f);
	f = decode(all1, L1_SSE2, L7_AVX512F, 0xE7);         /* + opmask, ZMM */
	CHECK(f.avx && f.fma && f.avx512f);
	f = decode(all1, L1_SSE2, L7_AVX512F, 0x67);         /* Hi16_ZMM missing */
	CHECK(f.avx && !f.avx512f);
	/* CPUID.01H:ECX.OSXSAVE read before CR4.OSXSAVE was set: the XCR0 that
	 * XGETBV read proves the state is enabled. XCR0 == 0: not readable. */
	f = decode(L1_FMA | L1_AVX, L1_SSE2, L7_AVX512F, 0xE7);
	CHECK(f.avx && f.avx512f);
	f = decode(all1, L1_SSE2, L7_AVX512F, 0);
	CHECK(f.sse2 && !f.avx && !f.fma && !f.avx512f);
}

TEST(usable_isa_requires_the_cpu_to_have_it)
{
	struct bt_cpu_features f;

	f = decode(L1_OSXSAVE, L1_SSE2, L7_AVX512F, 0xE7);   /* no AVX: nothing above SSE */
	CHECK(f.sse2 && !f.avx && !f.fma && !f.avx512f);
	f = decode(L1_OSXSAVE | L1_AVX, L1_SSE2, 0, 0xE7);   /* AVX, no FMA, no AVX-512F */
	CHECK(f.avx && !f.fma && !f.avx512f);
	f = decode(L1_OSXSAVE | L1_AVX | L1_FMA, 0, 0, 0x7);
	CHECK(!f.sse2 && f.avx && f.fma);
}

TEST(host_agrees_with_libgcc)
{
	struct bt_cpu_features f;

	bt_cpu_features_read(bt_arch_cpuid_host(), &f);
	__builtin_cpu_init();
	CHECK_EQ_INT(f.sse2, !!__builtin_cpu_supports("sse2"));
	CHECK_EQ_INT(f.avx, !!__builtin_cpu_supports("avx"));
	CHECK_EQ_INT(f.fma, !!__builtin_cpu_supports("fma"));
	CHECK_EQ_INT(f.avx512f, !!__builtin_cpu_supports("avx512f"));
}

static struct bt_cpuid vendor_leaf(const char *id)
{
	struct bt_cpuid r = { 0 };

	/* The 12 characters are in EBX, EDX, ECX (SDM vol. 2A, CPUID leaf 0). */
	memcpy(&r.ebx, id, 4);
	memcpy(&r.edx, id + 4, 4);
	memcpy(&r.ecx, id + 8, 4);
	return r;
}

TEST(vendor_from_leaf_0)
{
	struct bt_cpuid r;

	r = vendor_leaf("GenuineIntel");
	CHECK_EQ_INT(bt_vendor_from_cpuid(&r), BT_VENDOR_INTEL);
	r = vendor_leaf("AuthenticAMD");
	CHECK_EQ_INT(bt_vendor_from_cpuid(&r), BT_VENDOR_AMD);
	r = vendor_leaf("HygonGenuine");
	CHECK_EQ_INT(bt_vendor_from_cpuid(&r), BT_VENDOR_AMD);
	r = vendor_leaf("GenuineIotel");
	CHECK_EQ_INT(bt_vendor_from_cpuid(&r), BT_VENDOR_UNKNOWN);
	r = vendor_leaf("CentaurHauls");
	CHECK_EQ_INT(bt_vendor_from_cpuid(&r), BT_VENDOR_UNKNOWN);
}
