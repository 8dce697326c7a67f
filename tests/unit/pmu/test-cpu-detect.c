/* SPDX-License-Identifier: MIT */
/*
 * CPU/PMU identification against hand-encoded CPUID leaves. Each expected
 * value is worked out from the SDM / APM field definitions in the comments,
 * not taken from baretop's output.
 */
#include <stdlib.h>

#include "pmu/cpu-detect.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"

struct leaf_entry {
	uint32_t leaf, sub;
	struct bt_cpuid r;
};

struct msr_entry {
	uint32_t msr;
	uint64_t value;
	bool faults;
};

struct fake {
	const struct leaf_entry *leaves;
	const struct msr_entry *msrs;
	int msr_reads;
};

static void fake_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t sub, struct bt_cpuid *ret)
{
	const struct fake *f = a->ctx;

	*ret = (struct bt_cpuid){ 0, 0, 0, 0 };
	for (const struct leaf_entry *e = f->leaves; e->leaf || e->r.eax; e++)
		if (e->leaf == leaf && e->sub == sub) {
			*ret = e->r;
			return;
		}
}

static bt_status fake_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *ret)
{
	struct fake *f = a->ctx;

	f->msr_reads++;
	for (const struct msr_entry *e = f->msrs; e && e->msr; e++)
		if (e->msr == msr) {
			if (e->faults) {
				a->fault_vector = BT_VEC_GP;
				return BT_ERR_FAULT;
			}
			*ret = e->value;
			return BT_OK;
		}
	a->fault_vector = BT_VEC_GP; /* like hardware: a missing MSR is #GP */
	return BT_ERR_FAULT;
}

static bt_status fake_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t v)
{
	(void)a; (void)msr; (void)v;
	return BT_OK;
}

static uint64_t fake_tsc_now;
static uint64_t fake_rdtsc(struct bt_arch *a)
{
	(void)a;
	return fake_tsc_now;
}

static void fake_stall(uint64_t us, void *ctx)
{
	(void)ctx;
	fake_tsc_now += us * 3000; /* a 3 GHz TSC */
}

static const struct bt_arch_ops fake_ops = {
	.cpuid = fake_cpuid,
	.rdmsr = fake_rdmsr,
	.wrmsr = fake_wrmsr,
	.rdtsc = fake_rdtsc,
};

static struct bt_cpu_info detect(const struct leaf_entry *leaves, const struct msr_entry *msrs,
				 bool assume_amd_legacy, int *ret_msr_reads)
{
	struct fake f = { leaves, msrs, 0 };
	struct bt_arch a = { .name = "fake", .ops = &fake_ops, .ctx = &f };
	struct bt_detect_options opt = { .stall_us = fake_stall,
					 .assume_amd_legacy_pmu = assume_amd_legacy };
	struct bt_cpu_info ci;

	bt_cpu_detect(&a, &opt, &ci);
	if (ret_msr_reads)
		*ret_msr_reads = f.msr_reads;
	return ci;
}

/* "GenuineIntel" = EBX "Genu", EDX "ineI", ECX "ntel" (little-endian). */
#define INTEL_VENDOR(max) { 0, 0, { (max), 0x756e6547, 0x6c65746e, 0x49656e69 } }
/* "AuthenticAMD" = EBX "Auth", EDX "enti", ECX "cAMD". */
#define AMD_VENDOR(max) { 0, 0, { (max), 0x68747541, 0x444d4163, 0x69746e65 } }
#define END { 0, 0, { 0, 0, 0, 0 } }

/* Skylake client (i7-6700): signature 0x506E3 = family 6, ext. model 5,
 * model 0xE -> 0x5E, stepping 3. CPUID.0AH: EAX = 0x07300404 (length 7,
 * width 0x30 = 48, 4 counters, version 4); EDX = 0x603 (3 fixed, 48 bits:
 * 0x30 << 5 = 0x600). PDCM (CPUID.01H:ECX[15]) set. */
static const struct leaf_entry skl[] = {
	INTEL_VENDOR(0x16),
	{ 1, 0, { 0x000506e3, 0, 1u << 15, 0 } },
	{ 0xa, 0, { 0x07300404, 0, 0, 0x00000603 } },
	{ 0x15, 0, { 2, 234, 0, 0 } }, /* crystal not enumerated: 24 MHz by model */
	{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
	END,
};

TEST(skylake_client_signature_and_pmu)
{
	/* PERF_CAPABILITIES 0x33c3: bit 13 (full-width writes) set, bit 15 not. */
	static const struct msr_entry msrs[] = { { 0x345, 0x33c3, false },
						 { 0x8b, 0xc600000000ull, false },
						 { 0, 0, false } };
	struct bt_cpu_info ci = detect(skl, msrs, false, NULL);

	CHECK_EQ_INT(ci.vendor, BT_VENDOR_INTEL);
	CHECK_STR(ci.vendor_str, "GenuineIntel");
	CHECK_EQ_U64(ci.family, 6);
	CHECK_EQ_U64(ci.model, 0x5e);
	CHECK_EQ_U64(ci.stepping, 3);
	CHECK(ci.microcode_valid);
	CHECK_EQ_U64(ci.microcode, 0xc6);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_INTEL_ARCH);
	CHECK_EQ_U64(ci.pmu.version, 4);
	CHECK_EQ_U64(ci.pmu.num_gp, 4);
	CHECK_EQ_U64(ci.pmu.gp_width, 48);
	CHECK_EQ_U64(ci.pmu.gp_mask, 0xf);
	CHECK_EQ_U64(ci.pmu.num_fixed, 3);
	CHECK_EQ_U64(ci.pmu.fixed_mask, 0x7);
	CHECK_EQ_U64(ci.pmu.fixed_width, 48);
	CHECK(ci.pmu.has_perf_capabilities);
	CHECK(ci.pmu.full_width_write);
	CHECK(!ci.pmu.perf_metrics);
	/* TSC = 24 MHz * 234 / 2 = 2.808 GHz (SDM crystal table, 06_5EH). */
	CHECK_EQ_U64(ci.tsc_hz, 2808000000ull);
	CHECK_EQ_INT(ci.tsc_source, BT_TSC_CPUID_15H);
}

/* Skylake-X (i9-7900X class, signature 0x50654, leaves 15H/16H from the
 * instlatx64 dump in ../shared/reference/cpuid): CPUID.15H gives the ratio
 * 276/2 but no crystal, CPUID.16H a 3300 MHz base. The SDM's 25 MHz for
 * 06_55H would make the TSC 3.45 GHz, 4.5 % above this part's nominal
 * 3.3 GHz (its crystal is 24 MHz); servers of the same model
 * spread-spectrum theirs. Linux dropped the rule (b51120309348): the rate
 * is measured, and says so. */
static const struct leaf_entry skx[] = {
	INTEL_VENDOR(0x16),
	{ 1, 0, { 0x00050654, 0, 1u << 15, 0 } },
	{ 0xa, 0, { 0x07300404, 0, 0, 0x00000603 } },
	{ 0x15, 0, { 2, 276, 0, 0 } },
	{ 0x16, 0, { 3300, 4000, 100, 0 } },
	{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
	END,
};

TEST(skylake_server_tsc_is_calibrated_not_25_mhz)
{
	struct bt_cpu_info ci = detect(skx, NULL, false, NULL);

	CHECK_EQ_U64(ci.model, 0x55);
	/* the fake stall's TSC runs at 3 GHz: measured, not 25 MHz * 138 */
	CHECK_EQ_INT(ci.tsc_source, BT_TSC_CALIBRATED);
	CHECK_EQ_U64(ci.tsc_hz, 3000000000ull);
	CHECK(strstr(bt_tsc_source_name(ci.tsc_source), "calibrated") != NULL);
}

/* Without a platform stall (nothing to measure against), the nameplate
 * base frequency of CPUID.16H is the best left, and is named as such. */
TEST(skylake_server_without_stall_takes_leaf_16h)
{
	struct fake f = { skx, NULL, 0 };
	struct bt_arch a = { .name = "fake", .ops = &fake_ops, .ctx = &f };
	struct bt_detect_options opt = { 0 };
	struct bt_cpu_info ci;

	bt_cpu_detect(&a, &opt, &ci);
	CHECK_EQ_INT(ci.tsc_source, BT_TSC_CPUID_16H);
	CHECK_EQ_U64(ci.tsc_hz, 3300000000ull);
}

/* QEMU TCG with -cpu Skylake-Client: same signature, CPUID.0AH all zero,
 * hypervisor bit set. No PMU, and IA32_PERF_CAPABILITIES is never read. */
TEST(no_pmu_when_leaf_0a_reports_version_0)
{
	static const struct leaf_entry tcg[] = {
		INTEL_VENDOR(0xd),
		{ 1, 0, { 0x000506e3, 0, (1u << 31) | (1u << 15), 0 } },
		{ 0x40000000u, 0, { 0x40000001u, 0x54474354, 0x43544743, 0x47435447 } },
		END,
	};
	static const struct msr_entry msrs[] = { { 0x8b, 0, false }, { 0, 0, false } };
	int reads;
	struct bt_cpu_info ci = detect(tcg, msrs, false, &reads);

	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_NONE);
	CHECK(strstr(ci.pmu.absent_reason, "CPUID.0AH reports version 0") != NULL);
	CHECK(strstr(ci.pmu.absent_reason, "TCGTCGTCGTCG") != NULL);
	CHECK(ci.hypervisor);
	CHECK_STR(ci.hypervisor_vendor, "TCGTCGTCGTCG");
	CHECK(!ci.microcode_valid);
	CHECK_EQ_INT(reads, 1); /* only the microcode MSR */
	/* No CPUID frequency leaves: calibrated, 3000 ticks per microsecond. */
	CHECK_EQ_U64(ci.tsc_hz, 3000000000ull);
	CHECK_EQ_INT(ci.tsc_source, BT_TSC_CALIBRATED);
}

TEST(no_pmu_below_leaf_0a)
{
	static const struct leaf_entry old[] = {
		INTEL_VENDOR(0x5),
		{ 1, 0, { 0x00000f4a, 0, 0, 0 } },
		END,
	};
	struct bt_cpu_info ci = detect(old, NULL, false, NULL);

	/* 0xF4A: base family 0xF + extended family 0 = 15, model 4. */
	CHECK_EQ_U64(ci.family, 15);
	CHECK_EQ_U64(ci.model, 4);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_NONE);
	CHECK(strstr(ci.pmu.absent_reason, "no leaf 0AH") != NULL);
}

/* Ice Lake client: v5, 8 counters (EAX = 0x08300805), EDX = 0x8604: 4 fixed,
 * 48 bits, bit 15 = AnyThread deprecated. PERF_CAPABILITIES bit 15 set. */
TEST(icelake_perfmon_v5_with_perf_metrics)
{
	static const struct leaf_entry icl[] = {
		INTEL_VENDOR(0x1b),
		{ 1, 0, { 0x000706e5, 0, 1u << 15, 0 } },
		{ 0xa, 0, { 0x08300805, 0, 0, 0x00008604 } },
		END,
	};
	static const struct msr_entry msrs[] = { { 0x345, (1u << 13) | (1u << 15), false },
						 { 0x8b, 0xb400000000ull, false },
						 { 0, 0, false } };
	struct bt_cpu_info ci = detect(icl, msrs, false, NULL);

	CHECK_EQ_U64(ci.model, 0x7e); /* 0x706E5: ext. model 7, model 0xE */
	CHECK_EQ_U64(ci.pmu.version, 5);
	CHECK_EQ_U64(ci.pmu.num_gp, 8);
	CHECK_EQ_U64(ci.pmu.gp_mask, 0xff);
	CHECK_EQ_U64(ci.pmu.num_fixed, 4);
	CHECK_EQ_U64(ci.pmu.fixed_mask, 0xf);
	CHECK(ci.pmu.any_thread_deprecated);
	CHECK(ci.pmu.perf_metrics);
	CHECK(ci.pmu.full_width_write);
}

/* Leaf 0AH answers no processor gives (SDM vol. 2A, CPUID leaf 0AH; vol. 3B
 * 21.2): each is named as impossible and no PMU is believed, whatever
 * IA32_PERF_CAPABILITIES says (no PERF_METRICS claimed for it). The valid
 * Ice Lake answer above (08300805h, EDX 8604h) with one field broken. */
TEST(impossible_leaf_0a_is_named_and_no_pmu)
{
	static const struct { uint32_t eax, ecx, edx; const char *says; } cases[] = {
		{ 0xFFFFFFFFu, 0, 0x8604, "version 255 (EAX[7:0]; the SDM defines versions 1 to 6)" },
		{ 0x08300807u, 0, 0x8604, "version 7" },
		{ 0x08302105u, 0, 0x8604, "33 general counters" },
		{ 0x08410805u, 0, 0x8604, "general counters 65 bits wide" },
		{ 0x08000805u, 0, 0x8604, "general counters 0 bits wide" },
		{ 0x08300805u, 0, 0x8611, "17 fixed counters" },
		{ 0x08300805u, 0x10000, 0x8604, "fixed-counter bitmap 0x10000" },
		{ 0x08300805u, 0, 0x8000 | (65u << 5) | 4, "fixed counters 65 bits wide" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		struct leaf_entry l[] = {
			INTEL_VENDOR(0x1b),
			{ 1, 0, { 0x000706e5, 0, 1u << 15, 0 } },
			{ 0xa, 0, { cases[i].eax, 0, cases[i].ecx, cases[i].edx } },
			END,
		};
		static const struct msr_entry msrs[] = { { 0x345, (1u << 13) | (1u << 15), false },
							 { 0x8b, 0, false },
							 { 0, 0, false } };
		struct bt_cpu_info ci = detect(l, msrs, false, NULL);
		CHECK_EQ_INT(ci.pmu.kind, BT_PMU_NONE);
		CHECK(ci.pmu.cpuid_impossible);
		CHECK(!ci.pmu.perf_metrics);
		CHECK_MSG(strstr(ci.pmu.absent_reason, "CPUID.0AH is impossible") &&
			  strstr(ci.pmu.absent_reason, cases[i].says), "case %zu: %s", i,
			  ci.pmu.absent_reason);
	}
}

/* v5 fixed-counter bitmap: fixed counter i exists if ECX[i] or EDX[4:0] > i.
 * EDX[4:0] = 3 and ECX = 0x30 -> counters 0,1,2,4,5: mask 0x37. */
TEST(perfmon_v5_fixed_counter_bitmap)
{
	static const struct leaf_entry v5[] = {
		INTEL_VENDOR(0x23),
		{ 1, 0, { 0x000a06a4, 0, 0, 0 } },
		{ 0xa, 0, { 0x08300805, 0, 0x30, 0x00008603 } },
		END,
	};
	struct bt_cpu_info ci = detect(v5, NULL, false, NULL);

	CHECK_EQ_U64(ci.pmu.fixed_mask, 0x37);
	CHECK_EQ_U64(ci.pmu.num_fixed, 6);
	CHECK(!ci.pmu.has_perf_capabilities); /* PDCM clear: never read */
}

/* Alder Lake P-core: CPUID.07H:EDX[15] hybrid, CPUID.1AH EAX = 0x40000001
 * (core type 0x40 = Core, native model ID 1). */
TEST(hybrid_core_type)
{
	static const struct leaf_entry adl[] = {
		INTEL_VENDOR(0x20),
		{ 1, 0, { 0x00090672, 0, 0, 0 } },
		{ 7, 0, { 0, 0, 0, 1u << 15 } },
		{ 0x1a, 0, { 0x40000001, 0, 0, 0 } },
		END,
	};
	struct bt_cpu_info ci = detect(adl, NULL, false, NULL);

	CHECK_EQ_U64(ci.model, 0x97); /* 0x90672: ext. model 9, model 7 */
	CHECK(ci.hybrid);
	CHECK_EQ_INT(ci.core_type, BT_CORE_TYPE_CORE);
	CHECK_EQ_U64(ci.native_model_id, 1);
	CHECK_STR(bt_core_type_name(ci.core_type), "P-core");
}

/* Zen 4 (Ryzen 7000): 0xA60F12 = base family 0xF + ext. family 0xA = 0x19,
 * model (6 << 4) | 1 = 0x61, stepping 2. PerfMonV2 (Fn8000_0022 EAX[0]),
 * 6 core counters (EBX[3:0]); PerfCtrExtCore (Fn8000_0001 ECX[23]). */
TEST(amd_zen4_perfmon_v2)
{
	static const struct leaf_entry zen4[] = {
		AMD_VENDOR(0x10),
		{ 1, 0, { 0x00a60f12, 0, 0, 0 } },
		{ 0x80000000u, 0, { 0x80000028u, 0, 0, 0 } },
		{ 0x80000001u, 0, { 0, 0, 1u << 23, 0 } },
		{ 0x80000022u, 0, { 0x3, 0x00000046, 0, 0 } },
		END,
	};
	static const struct msr_entry msrs[] = { { 0x8b, 0x0a601203, false }, { 0, 0, false } };
	struct bt_cpu_info ci = detect(zen4, msrs, false, NULL);

	CHECK_EQ_INT(ci.vendor, BT_VENDOR_AMD);
	CHECK_EQ_U64(ci.family, 0x19);
	CHECK_EQ_U64(ci.model, 0x61);
	CHECK_EQ_U64(ci.stepping, 2);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_AMD_V2);
	CHECK_EQ_U64(ci.pmu.num_gp, 6);
	CHECK_EQ_U64(ci.pmu.gp_width, 48);
	CHECK(ci.pmu.amd_core_ext);
	CHECK(ci.microcode_valid);
	CHECK_EQ_U64(ci.microcode, 0x0a601203);
}

/* QEMU's default CPU (qemu64): AuthenticAMD family 15 model 107 (0x60FB1:
 * base family 0xF, ext. family 0, ext. model 6, model 0xB), no counter
 * feature bits, hypervisor bit set: no PMU unless assumed. */
TEST(amd_legacy_counters_only_assumed_under_a_hypervisor)
{
	static const struct leaf_entry qemu64[] = {
		AMD_VENDOR(0xd),
		{ 1, 0, { 0x00060fb1, 0, 1u << 31, 0 } },
		{ 0x80000000u, 0, { 0x80000008u, 0, 0, 0 } },
		END,
	};
	struct bt_cpu_info ci = detect(qemu64, NULL, false, NULL);

	CHECK_EQ_U64(ci.family, 15);
	CHECK_EQ_U64(ci.model, 107);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_NONE);
	CHECK(strstr(ci.pmu.absent_reason, "legacy") != NULL);

	ci = detect(qemu64, NULL, true, NULL);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_AMD_LEGACY);
	CHECK_EQ_U64(ci.pmu.num_gp, 4);
}

TEST(amd_legacy_counters_on_bare_metal)
{
	/* Phenom II: 0x100F42 = family 0xF + 1 = 0x10, model 4; no hypervisor. */
	static const struct leaf_entry k10[] = {
		AMD_VENDOR(0x5),
		{ 1, 0, { 0x00100f42, 0, 0, 0 } },
		END,
	};
	struct bt_cpu_info ci = detect(k10, NULL, false, NULL);

	CHECK_EQ_U64(ci.family, 0x10);
	CHECK_EQ_U64(ci.model, 4);
	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_AMD_LEGACY);
	CHECK_EQ_U64(ci.pmu.gp_mask, 0xf);
}

TEST(faulting_perf_capabilities_is_not_fatal)
{
	static const struct msr_entry msrs[] = { { 0x345, 0, true }, { 0, 0, false } };
	struct bt_cpu_info ci = detect(skl, msrs, false, NULL);

	CHECK_EQ_INT(ci.pmu.kind, BT_PMU_INTEL_ARCH);
	CHECK(!ci.pmu.has_perf_capabilities);
	CHECK(!ci.pmu.full_width_write);
	CHECK(!ci.microcode_valid); /* 0x8B missing in this table: #GP, noted */
	CHECK(strstr(ci.microcode_note, "#GP") != NULL);
}

/* Brand string: CPUID 8000_0002h..4h, 48 bytes, leading blanks dropped. */
TEST(brand_string_is_trimmed)
{
	static const struct leaf_entry b[] = {
		INTEL_VENDOR(1),
		{ 1, 0, { 0x000506e3, 0, 0, 0 } },
		{ 0x80000000u, 0, { 0x80000004u, 0, 0, 0 } },
		/* "   Intel(R) Core(TM) i7" then NULs */
		{ 0x80000002u, 0, { 0x49202020, 0x6c65746e, 0x20295228, 0x65726f43 } },
		{ 0x80000003u, 0, { 0x294d5428, 0x20376920, 0, 0 } },
		{ 0x80000004u, 0, { 0, 0, 0, 0 } },
		END,
	};
	struct bt_cpu_info ci = detect(b, NULL, false, NULL);

	CHECK_STR(ci.brand, "Intel(R) Core(TM) i7");
}

/* Arrow Lake H (GenuineIntel00C0652_ArrowLakeH_04) has
 * three kinds of core, two of them with core type 20H: Skymont (native
 * model ID 3; CPUID.23H.01H fixed counters 77h) and Crestmont LP-E (native
 * model ID 2; fixed counters 7). They need separate count contexts: the
 * kind of core is the pair (core type, native model ID). */
TEST(arrow_lake_h_atom_cores_are_two_kinds)
{
	static const struct { uint32_t l1a, fixed; } kinds[3] = {
		{ 0x40000003, 0x0F }, { 0x20000003, 0x77 }, { 0x20000002, 0x07 },
	};
	struct bt_cpu_info ci[3];
	for (int k = 0; k < 3; k++) {
		const struct leaf_entry arlh[] = {
			INTEL_VENDOR(0x23),
			{ 1, 0, { 0x000C0652, 0, 1u << 15, 0 } },
			{ 7, 0, { 2, 0, 0, 0xFC1CC430 } },
			{ 7, 1, { 0x44C009D0, 1, 0, 0x00040030 } },
			{ 0xa, 0, { 0x07300805, 0, 7, 0x00008603 } },
			{ 0x1a, 0, { kinds[k].l1a, 0, 0, 0 } },
			{ 0x23, 0, { 0x0B, 0, 0, 0 } },
			{ 0x23, 1, { 0xFF, kinds[k].fixed, 0, 0 } },
			END,
		};
		static const struct msr_entry msrs[] = { { 0x345, 0, false }, { 0x8B, 0, false },
							 { 0, 0, false } };
		ci[k] = detect(arlh, msrs, false, NULL);
		CHECK_EQ_U64(ci[k].pmu.fixed_mask, kinds[k].fixed);
	}
	CHECK_EQ_INT(ci[1].core_type, ci[2].core_type);
	CHECK(!bt_cpu_same_core_kind(&ci[1], &ci[2]));
	CHECK(!bt_cpu_same_core_kind(&ci[0], &ci[1]));
	CHECK(bt_cpu_same_core_kind(&ci[2], &ci[2]));
	CHECK_EQ_U64(ci[1].native_model_id, 3);
	CHECK_EQ_U64(ci[2].native_model_id, 2);
}
