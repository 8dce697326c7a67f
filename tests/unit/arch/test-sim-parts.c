/* SPDX-License-Identifier: MIT */
/*
 * The simulated CPUs answer CPUID as the real parts did: every entry of
 * arch/sim/sim-parts.c against the dumps in ../shared/reference/cpuid/ (skipped
 * when absent), every leaf baretop reads present, and the presets' own
 * fields (signature, hybrid core type, PDCM, APERF/MPERF) consistent with
 * their part. Then the hardware behind the CPUID: a hybrid Alder Lake
 * P-core enumerates 6 and 3 counters and has 8 and 4; a Meteor Lake P-core
 * has PERF_METRICS with IA32_PERF_CAPABILITIES[15] reading 0; Sandy
 * Bridge..Coffee Lake CPUs enumerate 8 general counters with SMT off, 4 on.
 */
#include <stdio.h>
#include <string.h>

#include "pmu/cpu-detect.h"
#include "base/array.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "arch/sim/sim.h"
#include "synth/count-sources.h"
#include "tests/unit/lib/cpuid-dumps.h"
#include "tests/unit/lib/test.h"

/* The leaves baretop reads (pmu/cpu-detect.c, pmu/pmu-caps.c, arch/xstate.c,
 * app/on-cpu.c; the cache leaves 04H / 8000_001DH subleaves 0-2, L1D, L1I
 * and L2, by the simulated workloads' memory hierarchy,
 * synth/mem-hierarchy.c), subleaf 0 unless given. */
static const struct { uint32_t leaf, sub; bool amd_only, intel_only; } read_leaves[] = {
	{ 0x00, 0, 0, 0 }, { 0x01, 0, 0, 0 }, { 0x06, 0, 0, 0 }, { 0x07, 0, 0, 0 },
	{ 0x07, 1, 0, 0 }, { 0x0A, 0, 0, 0 }, { 0x0B, 0, 0, 1 }, { 0x0D, 0, 0, 0 },
	{ 0x15, 0, 0, 1 }, { 0x16, 0, 0, 1 }, { 0x1A, 0, 0, 1 }, { 0x23, 0, 0, 1 },
	{ 0x23, 1, 0, 1 }, { 0x23, 3, 0, 1 }, { 0x80000000u, 0, 0, 0 }, { 0x80000001u, 0, 0, 0 },
	{ 0x80000007u, 0, 0, 0 }, { 0x80000008u, 0, 0, 0 }, { 0x8000001Eu, 0, 1, 0 },
	{ 0x80000022u, 0, 1, 0 }, { 0x04, 0, 0, 1 }, { 0x04, 1, 0, 1 }, { 0x04, 2, 0, 1 },
	{ 0x8000001Du, 0, 1, 0 }, { 0x8000001Du, 1, 1, 0 }, { 0x8000001Du, 2, 1, 0 },
};

static bool has(const struct bt_sim_cpuid_part *p, uint32_t leaf, uint32_t sub)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->leaves[i].id == BT_SIM_LEAF_ID(leaf, sub))
			return true;
	return false;
}

TEST(every_part_answers_as_its_dump)
{
	const char *dir = cpuid_dump_dir();
	if (!dir) {
		bt_test_skip("../shared/reference/cpuid not found (set BT_SHARED_CPUID)");
		return;
	}
	for (size_t k = 0; bt_sim_cpuid_parts[k]; k++) {
		const struct bt_sim_cpuid_part *p = bt_sim_cpuid_parts[k];
		struct bt_cpuid_dump d;
		struct bt_diag err;
		if (!cpuid_dump_load(dir, p->dump, &d, &err)) {
			CHECK_MSG(false, "%s: %s", p->id, err.text);
			continue;
		}
		const struct bt_cpuid_dump_group *g = cpuid_dump_group_of(&d, p->cpu);
		CHECK_MSG(g && g->cpus[0] == p->cpu, "%s: CPU %u does not start a block of %s",
			  p->id, p->cpu, p->dump);
		if (!g) {
			bt_cpuid_dump_free(&d);
			continue;
		}
		for (size_t i = 0; i < p->n; i++) {
			const struct bt_sim_cpuid_leaf *e = &p->leaves[i];
			struct bt_cpuid want = bt_cpuid_dump_get(g, bt_sim_leaf_of(e),
								 bt_sim_subleaf_of(e));
			CHECK_MSG(want.eax == e->eax && want.ebx == e->ebx && want.ecx == e->ecx &&
				  want.edx == e->edx, "%s: leaf %08X.%02X differs from %s",
				  p->id, bt_sim_leaf_of(e), bt_sim_subleaf_of(e), p->dump);
		}
		bool amd = bt_cpuid_dump_get(g, 0, 0).ebx == 0x68747541u;
		uint32_t max = bt_cpuid_dump_get(g, 0, 0).eax;
		uint32_t emax = bt_cpuid_dump_get(g, 0x80000000u, 0).eax;
		for (size_t i = 0; i < BT_ARRAY_SIZE(read_leaves); i++) {
			uint32_t l = read_leaves[i].leaf, s = read_leaves[i].sub;
			if ((amd && read_leaves[i].intel_only) || (!amd && read_leaves[i].amd_only) ||
			    (l < 0x80000000u ? l > max : l > emax))
				continue;
			bool in_dump = false;
			for (size_t j = 0; j < g->n_leaves; j++)
				in_dump |= g->leaves[j].leaf == l && g->leaves[j].subleaf == s;
			CHECK_MSG(!in_dump || has(p, l, s), "%s: leaf %08X.%02X (read by baretop) "
				  "missing", p->id, l, s);
		}
		bt_cpuid_dump_free(&d);
	}
}

static struct bt_cpuid part_get(const struct bt_sim_cpuid_part *p, uint32_t leaf, uint32_t sub)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->leaves[i].id == BT_SIM_LEAF_ID(leaf, sub))
			return (struct bt_cpuid){ p->leaves[i].eax, p->leaves[i].ebx,
						  p->leaves[i].ecx, p->leaves[i].edx };
	return (struct bt_cpuid){ 0, 0, 0, 0 };
}

static void check_config(const struct bt_sim_config *c)
{
	static struct bt_sim sim;
	const struct bt_sim_cpuid_part *p = c->part;
	struct bt_cpuid l0 = part_get(p, 0, 0), l1 = part_get(p, 1, 0), l6 = part_get(p, 6, 0),
			l7 = part_get(p, 7, 0), l1a = part_get(p, 0x1A, 0);
	bool intel = l0.ebx == 0x756E6547u;
	CHECK_MSG(intel == (c->vendor == BT_VENDOR_INTEL), "%s: vendor", c->name);
	CHECK_MSG(c->signature == l1.eax, "%s: signature 0x%X, part %s 0x%X", c->name,
		  c->signature, p->id, l1.eax);
	CHECK_MSG(c->aperf_mperf == (l6.ecx & 1), "%s: APERF/MPERF", c->name);
	if (intel) {
		bool hybrid = (l7.edx >> 15) & 1;
		CHECK_MSG(c->pdcm == ((l1.ecx >> 15) & 1), "%s: PDCM", c->name);
		CHECK_MSG(c->hybrid == hybrid, "%s: hybrid %d, part %d", c->name, c->hybrid, hybrid);
		if (hybrid)
			CHECK_MSG(c->core_type == l1a.eax >> 24 &&
				  c->native_model == (l1a.eax & 0xFFFFFF),
				  "%s: core type 0x%X native model %u, part leaf 1AH 0x%08X",
				  c->name, c->core_type, c->native_model, l1a.eax);
	}
	/* Through the sim's CPUID: every leaf as the table, brand excepted. */
	CHECK(bt_sim_init(&sim, c) == BT_OK);
	for (size_t i = 0; i < p->n; i++) {
		struct bt_cpuid r;
		bt_cpuid(&sim.arch, bt_sim_leaf_of(&p->leaves[i]), bt_sim_subleaf_of(&p->leaves[i]), &r);
		CHECK_MSG(r.eax == p->leaves[i].eax && r.ebx == p->leaves[i].ebx &&
			  r.ecx == p->leaves[i].ecx && r.edx == p->leaves[i].edx,
			  "%s: sim CPUID %08X.%02X", c->name, bt_sim_leaf_of(&p->leaves[i]),
			  bt_sim_subleaf_of(&p->leaves[i]));
	}
	char brand[49] = "";
	for (uint32_t i = 0; i < 3; i++) {
		struct bt_cpuid r;
		bt_cpuid(&sim.arch, 0x80000002u + i, 0, &r);
		memcpy(brand + 16 * i, &r, 16);
	}
	CHECK_MSG(strncmp(brand, "baretop sim", 11) == 0, "%s: brand \"%s\"", c->name, brand);
	bt_sim_free(&sim);
}

TEST(presets_and_model_cpus_agree_with_their_part)
{
	int with_part = 0;
	for (int k = 0; bt_sim_preset_names[k]; k++) {
		const struct bt_sim_config *c = bt_sim_preset(bt_sim_preset_names[k]);
		if (c && c->part) {
			check_config(c);
			with_part++;
		}
	}
	for (int k = 0; bt_sim_model_names[k]; k++) {
		struct bt_sim_config c;
		CHECK(bt_sim_config_for_model(bt_sim_model_names[k], &c));
		if (c.part) {
			check_config(&c);
			with_part++;
		} else {
			/* Only Sierra Forest has no dump. */
			CHECK_STR(bt_sim_model_names[k], "SRF");
		}
	}
	CHECK(with_part >= 30);
}

/* The simulated part answers CPUID.0AH as the real hybrid
 * Alder Lake P-core (6 general, 3 fixed), while the P-core has 8 and 4:
 * detection finds them, and the counters beyond CPUID's word exist. */
TEST(hybrid_adl_p_core_enumerates_six_and_three_and_has_eight_and_four)
{
	static struct bt_sim sim;
	struct bt_sim_config c;
	CHECK(bt_sim_config_for_model("ADL-GLC", &c));
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	struct bt_cpuid r;
	bt_cpuid(&sim.arch, 0x0A, 0, &r);
	CHECK_EQ_U64(r.eax, 0x07300605);
	CHECK_EQ_U64(r.edx, 0x00008603);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	CHECK_EQ_U64(caps.gp_mask, 0xFF);
	CHECK_EQ_U64(caps.fixed_mask, 0xF);
	CHECK(caps.perf_metrics);
	CHECK(bt_wrmsr(&sim.arch, 0x18D, 0) == BT_OK);       /* IA32_PERFEVTSEL7 */
	CHECK(bt_wrmsr(&sim.arch, 0x30C, 0) == BT_OK);       /* IA32_FIXED_CTR3 */
	bt_sim_free(&sim);
}

/* The simulated part: Meteor Lake's P-core reads
 * IA32_PERF_CAPABILITIES[15] as 0 (Linux intel_pmu_broken_perf_cap()) and
 * has PERF_METRICS: detection still finds it, and MSR_PERF_METRICS works. */
TEST(meteor_lake_p_core_has_perf_metrics_with_bit_15_clear)
{
	static struct bt_sim sim;
	struct bt_sim_config c;
	CHECK(bt_sim_config_for_model("MTL-RWC", &c));
	CHECK(bt_sim_init(&sim, &c) == BT_OK);
	uint64_t v;
	CHECK(bt_rdmsr(&sim.arch, MSR_IA32_PERF_CAPABILITIES, &v) == BT_OK);
	CHECK_EQ_U64(v & PERF_CAP_PERF_METRICS, 0);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	CHECK(caps.perf_metrics);
	CHECK_EQ_INT(caps.perf_metrics_fields, 8);
	CHECK(bt_rdmsr(&sim.arch, 0x329, &v) == BT_OK);      /* MSR_PERF_METRICS */
	bt_sim_free(&sim);
}

/* SMT on or off, every simulated CPU enumerates what its part does. Sandy
 * Bridge through Coffee Lake cores have 8 general counters, split 4 per
 * thread with SMT on; CPUID.0AH EAX[15:8] counts them per logical
 * processor (SDM vol. 2A CPUID; the i5-6400T dump without SMT says 8, the
 * i7-8700K with SMT 4), and Linux plans with that count. So each such
 * simulated CPU, preset or model, has 8 / threads-per-core of them, as
 * detection reads its CPUID; and the SMT-off Skylake exists. */
static bool split_by_smt(unsigned model)
{
	static const unsigned models[] = { 0x2A, 0x2D, 0x3A, 0x3E, 0x3C, 0x3F, 0x45, 0x46, 0x3D,
					   0x47, 0x4F, 0x56, 0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5,
					   0xA6 };
	for (size_t k = 0; k < BT_ARRAY_SIZE(models); k++)
		if (models[k] == model)
			return true;
	return false;
}

static void check_smt_counters(const char *name, const struct bt_sim_config *c, unsigned *n_off,
			       unsigned *n_on)
{
	static struct bt_sim sim;
	struct bt_cpu_info ci;
	struct bt_detect_options o = { 0 };
	struct bt_pmu_caps caps;

	CHECK(bt_sim_init(&sim, c) == BT_OK);
	bt_cpu_detect(&sim.arch, &o, &ci);
	bt_pmu_caps_detect(&sim.arch, &caps);
	if (ci.vendor == BT_VENDOR_INTEL && ci.family == 6 && split_by_smt(ci.model)) {
		unsigned want = ci.threads_per_core > 1 ? 4 : 8;
		if (caps.num_gp != want || c->num_gp != want)
			fprintf(stderr, "  %s: %u thread(s) per core, %u general counters "
				"enumerated (%u configured), want %u\n", name, ci.threads_per_core,
				caps.num_gp, c->num_gp, want);
		CHECK_EQ_INT(caps.num_gp, (int)want);
		CHECK_EQ_INT(c->num_gp, (int)want);
		*(ci.threads_per_core > 1 ? n_on : n_off) += 1;
	}
	bt_sim_free(&sim);
}

TEST(smt_off_parts_enumerate_eight_general_counters)
{
	unsigned off = 0, on = 0;
	for (int k = 0; bt_sim_preset_names[k]; k++)
		check_smt_counters(bt_sim_preset_names[k], bt_sim_preset(bt_sim_preset_names[k]),
				   &off, &on);
	for (int k = 0; bt_sim_model_names[k]; k++) {
		struct bt_sim_config c;
		CHECK(bt_sim_config_for_model(bt_sim_model_names[k], &c));
		check_smt_counters(bt_sim_model_names[k], &c, &off, &on);
	}
	CHECK(off >= 1); /* skl-nosmt */
	CHECK(on >= 4);  /* skl, IVB, HSW, SKL, SKX */
}
