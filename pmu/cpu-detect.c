/* SPDX-License-Identifier: MIT */
/*
 * CPU and PMU identification. Sources: Intel SDM vol. 2A (CPUID), vol. 3B
 * ch. 20 "Performance Monitoring" (CPUID.0AH, IA32_PERF_CAPABILITIES), vol. 4
 * (MSRs); AMD APM vol. 2 ch. 13 and vol. 3 (CPUID Fn8000_0001, _0022).
 */
#include <stdio.h>
#include <string.h>

#include "pmu/cpu-detect.h"
#include "pmu/intel-uarch.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"

#define BIT(n) (1u << (n))

static struct bt_cpuid leaf(struct bt_arch *a, uint32_t l, uint32_t sub)
{
	struct bt_cpuid r;

	bt_cpuid(a, l, sub, &r);
	return r;
}

static void copy_regs_text(char *dst, const uint32_t *regs, int n)
{
	memcpy(dst, regs, (size_t)n * 4);
	dst[n * 4] = '\0';
}

static void detect_vendor(struct bt_arch *a, struct bt_cpu_info *ci, uint32_t *max_leaf)
{
	struct bt_cpuid r = leaf(a, 0, 0);
	uint32_t v[3] = { r.ebx, r.edx, r.ecx };

	*max_leaf = r.eax;
	copy_regs_text(ci->vendor_str, v, 3);
	ci->vendor = bt_vendor_from_cpuid(&r);
}

static void detect_signature(struct bt_arch *a, struct bt_cpu_info *ci)
{
	struct bt_cpuid r = leaf(a, 1, 0);
	uint32_t base_family = (r.eax >> 8) & 0xf;
	uint32_t base_model = (r.eax >> 4) & 0xf;

	ci->signature = r.eax;
	ci->stepping = r.eax & 0xf;
	/* SDM vol. 2A, CPUID "Processor Version Information": the extended
	 * family is added only for family 0FH; the extended model is used
	 * for families 06H and 0FH (AMD: only 0FH, which covers Zen's 17H+). */
	ci->family = base_family;
	if (base_family == 0xf)
		ci->family += (r.eax >> 20) & 0xff;
	ci->model = base_model;
	if (base_family == 0xf || (base_family == 0x6 && ci->vendor != BT_VENDOR_AMD))
		ci->model |= ((r.eax >> 16) & 0xf) << 4;

	ci->hypervisor = r.ecx & BIT(31);
	ci->osxsave = r.ecx & BIT(27);
	ci->avx = r.ecx & BIT(28);
}

static void detect_brand(struct bt_arch *a, struct bt_cpu_info *ci, uint32_t max_ext)
{
	uint32_t regs[12];
	const char *p;

	ci->brand[0] = '\0';
	if (max_ext < 0x80000004u)
		return;
	for (uint32_t i = 0; i < 3; i++) {
		struct bt_cpuid r = leaf(a, 0x80000002u + i, 0);

		regs[i * 4 + 0] = r.eax;
		regs[i * 4 + 1] = r.ebx;
		regs[i * 4 + 2] = r.ecx;
		regs[i * 4 + 3] = r.edx;
	}
	char raw[49];
	copy_regs_text(raw, regs, 12);
	for (p = raw; *p == ' '; p++)
		;
	snprintf(ci->brand, sizeof(ci->brand), "%s", p);
	for (size_t n = strlen(ci->brand); n > 0 && ci->brand[n - 1] == ' '; n--)
		ci->brand[n - 1] = '\0';
}

static void detect_microcode(struct bt_arch *a, struct bt_cpu_info *ci)
{
	uint64_t v = 0;
	bt_status st;

	if (ci->vendor == BT_VENDOR_INTEL) {
		/* SDM vol. 3A, "Microcode Update Signature": write 0, execute
		 * CPUID(1), then read; the revision is in bits 63:32. The write
		 * is the documented read procedure, not a configuration change. */
		st = bt_wrmsr(a, MSR_IA32_BIOS_SIGN_ID, 0);
		if (st == BT_OK) {
			(void)leaf(a, 1, 0);
			st = bt_rdmsr(a, MSR_IA32_BIOS_SIGN_ID, &v);
		}
		v >>= 32;
	} else if (ci->vendor == BT_VENDOR_AMD) {
		st = bt_rdmsr(a, MSR_AMD_PATCH_LEVEL, &v);
		v &= 0xffffffffu;
	} else {
		snprintf(ci->microcode_note, sizeof(ci->microcode_note),
			 "not read: unknown vendor");
		return;
	}
	if (st == BT_ERR_FAULT) {
		snprintf(ci->microcode_note, sizeof(ci->microcode_note),
			 "reading MSR 0x8B raised %s", bt_fault_name(a->fault_vector));
		return;
	}
	if (st != BT_OK) {
		snprintf(ci->microcode_note, sizeof(ci->microcode_note),
			 "MSR 0x8B not read: the %s backend cannot access MSRs", a->name);
		return;
	}
	if (v == 0) {
		snprintf(ci->microcode_note, sizeof(ci->microcode_note),
			 ci->hypervisor ? "reported as 0: the hypervisor does not expose it"
					: "reported as 0: no microcode update loaded");
		return;
	}
	ci->microcode_valid = true;
	ci->microcode = (uint32_t)v;
	if (ci->hypervisor)
		snprintf(ci->microcode_note, sizeof(ci->microcode_note),
			 "as reported by the hypervisor, not necessarily the CPU's");
}

static void detect_topology(struct bt_arch *a, struct bt_cpu_info *ci, uint32_t max_leaf,
			    uint32_t max_ext)
{
	ci->threads_per_core = 1;
	if (ci->vendor == BT_VENDOR_INTEL && max_leaf >= 0xb) {
		/* Leaf 0BH, sub-leaf 0 is the SMT level when ECX[15:8] == 1;
		 * EBX[15:0] is the number of logical processors at that level. */
		struct bt_cpuid r = leaf(a, 0xb, 0);
		if (((r.ecx >> 8) & 0xff) == 1 && (r.ebx & 0xffff) != 0)
			ci->threads_per_core = r.ebx & 0xffff;
	} else if (ci->vendor == BT_VENDOR_AMD && max_ext >= 0x8000001eu &&
		   (leaf(a, 0x80000001u, 0).ecx & BIT(22))) {
		/* Fn8000_001E EBX[15:8] = threads per core - 1 (TopologyExtensions). */
		ci->threads_per_core = ((leaf(a, 0x8000001eu, 0).ebx >> 8) & 0xff) + 1;
	}
	ci->smt = ci->threads_per_core > 1;
}

/* SDM vol. 3B, "Determining the Processor Base Frequency": when CPUID.15H
 * reports ECX = 0, the nominal crystal clock is known per model. The SDM's
 * table also gives 25 MHz for 06_55H (Skylake/Cascade Lake server), which
 * is not used: Skylake-X workstation parts run a 24 MHz crystal, and
 * servers spread-spectrum theirs (a TSC some 0.25 % slower than nominal),
 * which is why Linux dropped exactly that entry (commit b51120309348, "Fix
 * erroneous TSC rate on Skylake Xeon"). Those parts are calibrated. */
static uint64_t known_crystal_hz(const struct bt_cpu_info *ci)
{
	if (ci->family != 6)
		return 0;
	switch (ci->model) {
	case 0x4e: case 0x5e: case 0x8e: case 0x9e: /* Skylake/Kaby Lake client */
		return 24000000;
	case 0x5c: /* Goldmont */
		return 19200000;
	}
	return 0;
}

/* The TSC measured over a 50 ms platform stall; false without one. A 0.1 %
 * resolution is plenty for labelling frequencies; counts never depend on
 * it. */
static bool calibrate_tsc(struct bt_arch *a, const struct bt_detect_options *opt,
			  struct bt_cpu_info *ci)
{
	const uint64_t us = 50000;
	uint64_t t0, t1;

	if (!opt || !opt->stall_us)
		return false;
	t0 = bt_rdtsc(a);
	opt->stall_us(us, opt->stall_ctx);
	t1 = bt_rdtsc(a);
	if (t1 <= t0)
		return false;
	ci->tsc_hz = (t1 - t0) * 1000000u / us;
	ci->tsc_source = BT_TSC_CALIBRATED;
	return true;
}

/* Where the TSC rate comes from, best first: CPUID.15H with a crystal it
 * enumerates or that is known for the model (exact by definition); a
 * calibration when leaf 15H gives the ratio but the crystal is unknown
 * (Skylake/Cascade Lake and Ice Lake servers: CPUID.16H is the nameplate
 * base frequency, blind to a spread-spectrum or 24 MHz crystal); CPUID.16H
 * when nothing can be measured; a calibration when no leaf says anything. */
static void detect_tsc(struct bt_arch *a, const struct bt_detect_options *opt,
		       struct bt_cpu_info *ci, uint32_t max_leaf, uint32_t max_ext)
{
	bool ratio_without_crystal = false;

	if (max_ext >= 0x80000007u)
		ci->invariant_tsc = leaf(a, 0x80000007u, 0).edx & BIT(8);

	if (ci->vendor == BT_VENDOR_INTEL && max_leaf >= 0x15) {
		struct bt_cpuid r = leaf(a, 0x15, 0);
		uint64_t crystal = r.ecx ? r.ecx : known_crystal_hz(ci);

		if (r.eax && r.ebx && crystal) {
			ci->tsc_hz = crystal * r.ebx / r.eax;
			ci->tsc_source = BT_TSC_CPUID_15H;
			return;
		}
		ratio_without_crystal = r.eax && r.ebx;
	}
	if (ratio_without_crystal && calibrate_tsc(a, opt, ci))
		return;
	if (ci->vendor == BT_VENDOR_INTEL && max_leaf >= 0x16) {
		uint32_t mhz = leaf(a, 0x16, 0).eax & 0xffff;

		if (mhz) {
			ci->tsc_hz = (uint64_t)mhz * 1000000u;
			ci->tsc_source = BT_TSC_CPUID_16H;
			return;
		}
	}
	if (!ratio_without_crystal)
		calibrate_tsc(a, opt, ci);
}

/* Into the caller's buffer: detection may run on several CPUs at once. */
static const char *hypervisor_hint(const struct bt_cpu_info *ci, char *hint, size_t len)
{
	if (!ci->hypervisor)
		return "";
	snprintf(hint, len, "; running under a hypervisor%s%s%s without a virtual PMU?",
		 ci->hypervisor_vendor[0] ? " (" : "", ci->hypervisor_vendor,
		 ci->hypervisor_vendor[0] ? ")" : "");
	return hint;
}

/*
 * The decoding (CPUID and IA32_PERF_CAPABILITIES) is pmu/pmu-caps.c's
 * bt_pmu_caps_detect(), which the simulated PMU's tests run too; what is
 * decided here is policy: AMD's four legacy counters have no CPUID bit, so
 * they are assumed on bare metal only, and every "no PMU" says whether a
 * hypervisor may be hiding one.
 */
static void detect_pmu(struct bt_arch *a, const struct bt_detect_options *opt,
		       struct bt_cpu_info *ci)
{
	struct bt_pmu_caps *p = &ci->pmu;
	char hint[96];

	bt_pmu_caps_detect(a, p);
	if (p->kind == BT_PMU_AMD_LEGACY && ci->hypervisor &&
	    !(opt && opt->assume_amd_legacy_pmu)) {
		p->kind = BT_PMU_NONE;
		p->num_gp = 0;
		p->gp_mask = 0;
		p->gp_width = 0;
		snprintf(p->absent_reason, sizeof(p->absent_reason),
			 "no PMU known from CPUID: no PerfCtrExtCore, no PerfMonV2, and the 4 "
			 "legacy counters have no CPUID bit%s (--assume-amd-legacy-pmu assumes them)",
			 hypervisor_hint(ci, hint, sizeof(hint)));
		return;
	}
	if (p->kind == BT_PMU_NONE) {
		size_t n = strlen(p->absent_reason);
		snprintf(p->absent_reason + n, sizeof(p->absent_reason) - n, "%s",
			 hypervisor_hint(ci, hint, sizeof(hint)));
		return;
	}
}

void bt_cpu_detect(struct bt_arch *a, const struct bt_detect_options *opt,
		   struct bt_cpu_info *ret)
{
	struct bt_cpu_info ci;
	uint32_t max_leaf, max_ext;

	memset(&ci, 0, sizeof(ci));
	detect_vendor(a, &ci, &max_leaf);
	max_ext = leaf(a, 0x80000000u, 0).eax;
	if (max_ext < 0x80000000u || max_ext > 0x8000ffffu)
		max_ext = 0;
	detect_signature(a, &ci);
	if (ci.hypervisor) {
		struct bt_cpuid h = leaf(a, 0x40000000u, 0);
		uint32_t v[3] = { h.ebx, h.ecx, h.edx };

		copy_regs_text(ci.hypervisor_vendor, v, 3);
		for (int i = 0; i < 12; i++) /* keep it printable */
			if ((unsigned char)ci.hypervisor_vendor[i] < 0x20 ||
			    (unsigned char)ci.hypervisor_vendor[i] > 0x7e)
				ci.hypervisor_vendor[i] = '\0';
	}
	detect_brand(a, &ci, max_ext);
	if (max_leaf >= 6)
		ci.aperf_mperf = leaf(a, 6, 0).ecx & BIT(0);
	if (max_leaf >= 7) {
		struct bt_cpuid r = leaf(a, 7, 0);

		ci.avx2 = r.ebx & BIT(5);
		ci.avx512f = r.ebx & BIT(16);
		ci.hybrid = ci.vendor == BT_VENDOR_INTEL && (r.edx & BIT(15));
	}
	if (ci.hybrid && max_leaf >= 0x1a) {
		struct bt_cpuid r = leaf(a, 0x1a, 0);

		ci.core_type = (enum bt_core_type)(r.eax >> 24);
		ci.native_model_id = r.eax & 0xffffff;
	}
	/* An Alder/Raptor Lake model without the hybrid bit has P-cores only
	 * (Linux adl_get_hybrid_cpu_type()): its model and PMU are the P-core's. */
	if (ci.vendor == BT_VENDOR_INTEL)
		ci.core_type = (enum bt_core_type)bt_intel_effective_core_type(
			ci.family, ci.model, ci.hybrid, (uint8_t)ci.core_type);
	detect_topology(a, &ci, max_leaf, max_ext);
	detect_microcode(a, &ci);
	detect_tsc(a, opt, &ci, max_leaf, max_ext);

	detect_pmu(a, opt, &ci);
	*ret = ci;
}

bool bt_cpu_same_core_kind(const struct bt_cpu_info *a, const struct bt_cpu_info *b)
{
	/* CPUID.1AH:EAX[31:24] alone does not tell the cores of a hybrid
	 * part apart: Arrow Lake H has two Atom kinds of core type 20H,
	 * Skymont (native model ID 3) and Crestmont LP-E (2), with different
	 * fixed counters and event files. The pair decides, as it decides the
	 * event file in Intel's mapfile.csv ("Core Type", "Native Model ID")
	 * and the PMU in Linux (intel_pmu_init(), INTEL_ARROWLAKE_H). */
	return a->core_type == b->core_type && a->native_model_id == b->native_model_id;
}

const char *bt_vendor_name(enum bt_vendor v)
{
	switch (v) {
	case BT_VENDOR_INTEL: return "Intel";
	case BT_VENDOR_AMD:   return "AMD";
	case BT_VENDOR_UNKNOWN: break;
	}
	return "unknown";
}

const char *bt_core_type_name(enum bt_core_type t)
{
	switch (t) {
	case BT_CORE_TYPE_ATOM: return "E-core";
	case BT_CORE_TYPE_CORE: return "P-core";
	case BT_CORE_TYPE_NONE: break;
	}
	return NULL;
}

const char *bt_tsc_source_name(enum bt_tsc_source s)
{
	switch (s) {
	case BT_TSC_CPUID_15H:  return "CPUID.15H";
	case BT_TSC_CPUID_16H:  return "CPUID.16H";
	case BT_TSC_CALIBRATED: return "calibrated: TSC ticks over a 50 ms platform stall";
	case BT_TSC_GIVEN:      return "given";
	case BT_TSC_UNKNOWN:    break;
	}
	return "unknown";
}

const char *bt_pmu_kind_name(enum bt_pmu_kind k)
{
	switch (k) {
	case BT_PMU_INTEL_ARCH:   return "Intel architectural perfmon";
	case BT_PMU_AMD_LEGACY:   return "AMD legacy (4 counters)";
	case BT_PMU_AMD_CORE_EXT: return "AMD core performance counter extensions";
	case BT_PMU_AMD_V2:       return "AMD PerfMonV2";
	case BT_PMU_NONE:         break;
	}
	return "none";
}
