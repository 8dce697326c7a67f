/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <string.h>

#include "app/report-detect.h"
#include "pmu/pmu-caps.h"
#include "pmu/cpu-detect.h"

void bt_cpu_census_take(struct bt_platform *p, struct bt_cpu_census *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!p->cpu_count || p->cpu_count(&ret->total, &ret->enabled) != BT_OK) {
		snprintf(ret->note, sizeof(ret->note), "the platform cannot enumerate CPUs "
			 "(no EFI_MP_SERVICES_PROTOCOL)");
		ret->total = ret->enabled = 0;
		return;
	}
	uint32_t seen_pkg[64], n_pkg = 0, max_thread = 0;
	bool located = false;

	for (uint32_t i = 0; i < ret->total; i++) {
		struct bt_cpu_location loc;

		if (!p->cpu_location || p->cpu_location(i, &loc) != BT_OK)
			continue;
		located = true;
		if (loc.thread > max_thread)
			max_thread = loc.thread;
		bool known = false;
		for (uint32_t k = 0; k < n_pkg; k++)
			known |= seen_pkg[k] == loc.package;
		if (!known && n_pkg < 64)
			seen_pkg[n_pkg++] = loc.package;
	}
	if (located) {
		ret->packages = n_pkg;
		ret->threads_per_core = max_thread + 1;
	}
}

void bt_uefi_revision_str(uint32_t rev, char *buf, size_t len)
{
	uint32_t major = rev >> 16, minor = rev & 0xffff;

	if (minor % 10)
		snprintf(buf, len, "%" PRIu32 ".%" PRIu32 ".%" PRIu32, major, minor / 10, minor % 10);
	else
		snprintf(buf, len, "%" PRIu32 ".%" PRIu32, major, minor / 10);
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

void bt_report_detect_print(FILE *f, const struct bt_platform *p, const struct bt_cpu_info *ci,
			    const struct bt_cpu_census *cs)
{
	const struct bt_pmu_caps *pmu = &ci->pmu;

	fprintf(f, "CPU\n");
	fprintf(f, "  vendor        %s (%s)\n", ci->vendor_str, bt_vendor_name(ci->vendor));
	fprintf(f, "  brand         %s\n", ci->brand[0] ? ci->brand : "(no brand string)");
	fprintf(f, "  signature     0x%" PRIx32 ": family %" PRIu32 " (0x%" PRIx32 "), model %" PRIu32
		   " (0x%" PRIx32 "), stepping %" PRIu32 "\n",
		ci->signature, ci->family, ci->family, ci->model, ci->model, ci->stepping);
	if (ci->microcode_valid)
		fprintf(f, "  microcode     0x%" PRIx32 "%s%s\n", ci->microcode,
			ci->microcode_note[0] ? ", " : "", ci->microcode_note);
	else
		fprintf(f, "  microcode     unknown: %s\n", ci->microcode_note);
	if (ci->hypervisor)
		fprintf(f, "  hypervisor    yes%s%s%s\n", ci->hypervisor_vendor[0] ? " (" : "",
			ci->hypervisor_vendor, ci->hypervisor_vendor[0] ? ")" : "");
	else
		fprintf(f, "  hypervisor    no\n");
	uint32_t tpc = cs->threads_per_core ? cs->threads_per_core : ci->threads_per_core;
	if (cs->total) {
		fprintf(f, "  logical CPUs  %" PRIu32 " (%" PRIu32 " enabled)", cs->total, cs->enabled);
		if (cs->packages)
			fprintf(f, ", %" PRIu32 " package(s)", cs->packages);
		fprintf(f, ", %" PRIu32 " thread(s) per core: SMT %s\n", tpc, tpc > 1 ? "on" : "off");
	} else
		fprintf(f, "  logical CPUs  unknown: %s\n", cs->note);
	if (ci->hybrid)
		fprintf(f, "  hybrid        yes, this is a%s %s (CPUID.1AH native model 0x%" PRIx32 ")\n",
			ci->core_type == BT_CORE_TYPE_ATOM ? "n" : "",
			bt_core_type_name(ci->core_type) ? bt_core_type_name(ci->core_type)
							 : "core of unknown type",
			ci->native_model_id);
	else
		fprintf(f, "  hybrid        no\n");
	if (ci->tsc_hz)
		fprintf(f, "  TSC           %.3f GHz (%s), invariant %s\n", ci->tsc_hz / 1e9,
			bt_tsc_source_name(ci->tsc_source), yes_no(ci->invariant_tsc));
	else
		fprintf(f, "  TSC           frequency unknown\n");
	fprintf(f, "  vector ISA    AVX %s, AVX2 %s, AVX-512F %s; APERF/MPERF %s\n",
		yes_no(ci->avx), yes_no(ci->avx2), yes_no(ci->avx512f), yes_no(ci->aperf_mperf));

	fprintf(f, "PMU\n");
	if (pmu->kind == BT_PMU_NONE) {
		fprintf(f, "  none: %s\n", pmu->absent_reason);
		fprintf(f, "  Counting is not possible here; workloads can still run and be timed.\n");
		return;
	}
	fprintf(f, "  kind          %s", bt_pmu_kind_name(pmu->kind));
	if (pmu->kind == BT_PMU_INTEL_ARCH)
		fprintf(f, " version %u", pmu->version);
	fprintf(f, "\n  general       %u counters, %u bits\n", pmu->num_gp, pmu->gp_width);
	if (pmu->kind == BT_PMU_INTEL_ARCH) {
		fprintf(f, "  fixed         %u counters (mask 0x%" PRIx32 "), %u bits\n",
			pmu->num_fixed, pmu->fixed_mask, pmu->fixed_width);
		if (pmu->has_perf_capabilities)
			fprintf(f, "  capabilities  IA32_PERF_CAPABILITIES 0x%" PRIx64
				   ": full-width writes %s, PERF_METRICS %s\n",
				pmu->perf_capabilities, yes_no(pmu->full_width_write),
				yes_no(pmu->perf_metrics));
		else
			fprintf(f, "  capabilities  no IA32_PERF_CAPABILITIES (CPUID.01H:ECX[15] clear)\n");
		if (pmu->version >= 5)
			fprintf(f, "  AnyThread     %s\n", pmu->any_thread_deprecated
							? "deprecated (CPUID.0AH:EDX[15])" : "supported");
		char notes[8][200];
		unsigned n = bt_pmu_caps_notes(pmu, notes, 8);
		for (unsigned i = 0; i < n; i++)
			fprintf(f, "  correction    %s\n", notes[i]);
	}
	(void)p;
}

static void json_opt_str(struct bt_jw *j, const char *key, const char *v)
{
	bt_jw_str(j, key, v && *v ? v : NULL);
}

void bt_report_detect_json(struct bt_jw *j, const struct bt_platform *p,
			   const struct bt_cpu_info *ci, const struct bt_cpu_census *cs)
{
	const struct bt_pmu_caps *pmu = &ci->pmu;
	char buf[32];
	uint32_t tpc;

	bt_jw_object(j, "platform");
	bt_jw_str(j, "name", p->name);
	if (p->uefi_revision) {
		bt_uefi_revision_str(p->uefi_revision, buf, sizeof(buf));
		bt_jw_str(j, "uefi_revision", buf);
	} else {
		bt_jw_null(j, "uefi_revision");
	}
	json_opt_str(j, "firmware_vendor", p->firmware_vendor);
	bt_jw_hex(j, "firmware_revision", p->firmware_revision);
	json_opt_str(j, "program_path", p->program_path);
	bt_jw_str(j, "arch_backend", p->arch->name);
	bt_jw_end(j);

	bt_jw_object(j, "cpu");
	bt_jw_str(j, "vendor", ci->vendor_str);
	json_opt_str(j, "brand", ci->brand);
	bt_jw_hex(j, "signature", ci->signature);
	bt_jw_u64(j, "family", ci->family);
	bt_jw_hex(j, "family_hex", ci->family);
	bt_jw_u64(j, "model", ci->model);
	bt_jw_hex(j, "model_hex", ci->model);
	bt_jw_u64(j, "stepping", ci->stepping);
	if (ci->microcode_valid)
		bt_jw_hex(j, "microcode", ci->microcode);
	else
		bt_jw_null(j, "microcode");
	json_opt_str(j, "microcode_note", ci->microcode_note);
	bt_jw_bool(j, "hypervisor", ci->hypervisor);
	json_opt_str(j, "hypervisor_vendor", ci->hypervisor_vendor);
	if (cs->total) {
		bt_jw_u64(j, "logical_cpus", cs->total);
		bt_jw_u64(j, "logical_cpus_enabled", cs->enabled);
		if (cs->packages)
			bt_jw_u64(j, "packages", cs->packages);
		else
			bt_jw_null(j, "packages");
	} else {
		bt_jw_null(j, "logical_cpus");
		bt_jw_str(j, "logical_cpus_note", cs->note);
	}
	tpc = cs->threads_per_core ? cs->threads_per_core : ci->threads_per_core;
	bt_jw_u64(j, "threads_per_core", tpc);
	bt_jw_bool(j, "smt", tpc > 1);
	bt_jw_bool(j, "hybrid", ci->hybrid);
	json_opt_str(j, "core_type", bt_core_type_name(ci->core_type));
	if (ci->hybrid)
		bt_jw_hex(j, "native_model_id", ci->native_model_id);
	if (ci->tsc_hz)
		bt_jw_u64(j, "tsc_hz", ci->tsc_hz);
	else
		bt_jw_null(j, "tsc_hz");
	bt_jw_str(j, "tsc_source", bt_tsc_source_name(ci->tsc_source));
	bt_jw_bool(j, "invariant_tsc", ci->invariant_tsc);
	bt_jw_bool(j, "aperf_mperf", ci->aperf_mperf);
	bt_jw_bool(j, "avx", ci->avx);
	bt_jw_bool(j, "avx2", ci->avx2);
	bt_jw_bool(j, "avx512f", ci->avx512f);
	bt_jw_end(j);

	bt_jw_object(j, "pmu");
	bt_jw_bool(j, "present", pmu->kind != BT_PMU_NONE);
	bt_jw_str(j, "kind", bt_pmu_kind_name(pmu->kind));
	if (pmu->kind == BT_PMU_NONE) {
		bt_jw_str(j, "reason", pmu->absent_reason);
	} else {
		bt_jw_u64(j, "general_counters", pmu->num_gp);
		bt_jw_u64(j, "general_width", pmu->gp_width);
	}
	if (ci->vendor == BT_VENDOR_INTEL) {
		bt_jw_u64(j, "arch_perfmon_version", pmu->version);
		if (pmu->kind != BT_PMU_NONE) {
			bt_jw_u64(j, "fixed_counters", pmu->num_fixed);
			bt_jw_hex(j, "fixed_mask", pmu->fixed_mask);
			bt_jw_u64(j, "fixed_width", pmu->fixed_width);
			bt_jw_hex(j, "arch_events_unavailable", pmu->arch_events_na);
			bt_jw_bool(j, "any_thread_deprecated", pmu->any_thread_deprecated);
			if (pmu->has_perf_capabilities)
				bt_jw_hex(j, "perf_capabilities", pmu->perf_capabilities);
			else
				bt_jw_null(j, "perf_capabilities");
			bt_jw_bool(j, "full_width_write", pmu->full_width_write);
			bt_jw_bool(j, "perf_metrics", pmu->perf_metrics);
			char notes[8][200];
			unsigned n = bt_pmu_caps_notes(pmu, notes, 8);
			bt_jw_array(j, "corrections");
			for (unsigned i = 0; i < n; i++)
				bt_jw_str(j, NULL, notes[i]);
			bt_jw_end(j);
		}
	} else if (ci->vendor == BT_VENDOR_AMD) {
		bt_jw_bool(j, "core_extension", pmu->amd_core_ext);
		bt_jw_bool(j, "perfmon_v2", pmu->amd_perfmon_v2);
	}
	bt_jw_end(j);
}
