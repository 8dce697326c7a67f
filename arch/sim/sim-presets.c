/* SPDX-License-Identifier: MIT */
/*
 * Named configurations of the simulated PMU. Each describes a PMU *kind*
 * (version, counters, widths, capabilities) after a real part; the brand
 * string says it is simulated. Numbers: CPUID.0AH as documented for the
 * parts (SDM vol. 3B ch. 20 per-microarchitecture sections), AMD APM/PPRs.
 * .family selects the sim's own OFFCORE_RSP / FRONTEND tables (sim-tables.c);
 * it is written here by hand, not derived from the signature the way the
 * driver derives it, so the two are independent. "lnl-p" has 10 general
 * counters so that counters 8 and 9, which exist only in the perfmon v6 MSR
 * range, are exercised.
 *
 * CPUID: the presets after a part in ../shared/reference/cpuid/ answer it
 * exactly as that part did (.part, arch/sim/sim-parts.c; the brand string
 * excepted): skl as an i7-8700K (Coffee Lake, SMT on), skl-nosmt as an
 * i5-6400T (Skylake without SMT: 8 general counters), icl as an i7-1065G7, spr as
 * Sapphire Rapids, adl-p / adl-e as a hybrid Alder Lake's P- and E-cores
 * (whose CPUID.0AH lists only the 6 general and 3 fixed counters both core
 * types have: the P-core's 8 and 4 are the driver's to know), lnl-p as a
 * Core Ultra 9 288V P-core, arlh-* as the three kinds of core of an Arrow
 * Lake H, zen4 as a Ryzen 7000. core2, nhm, amd-legacy and zen2 have no
 * dump: their CPUID is made up from the fields.
 *
 * IA32_PERF_CAPABILITIES[12] (FREEZE_WHILE_SMM supported): no manual table
 * lists the value per part. Reported working on Comet Lake (Skylake core)
 * and Tiger Lake (Willow Cove, Ice Lake PMU) parts (rr-debugger/rr pull
 * request 3063: setting Linux's freeze_on_smi removed SMI-correlated count
 * errors), so the Skylake-and-later presets report it; core2 and nhm do not,
 * so the path without it stays exercised. smm_counts_per_smi: a
 * round figure for one SMI handler's work (tens of microseconds);
 * smm_tsc_per_smi: the time it takes, 150000 ticks (50 us at 3 GHz, the
 * low end of the 50-100 us an SMI handler commonly takes). tsc_hz: every
 * preset's simulated clock is BT_SIM_TSC_HZ (3 GHz, the clock those figures
 * assume); a simulated time is simulated ticks at that clock.
 */
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"

#define COMMON .noise_per_access = 1, .tsc_per_access = 50, .tsc_per_window = 1000000, \
	       .tsc_hz = BT_SIM_TSC_HZ, .smm_counts_per_smi = 25000, .smm_tsc_per_smi = 150000

static const struct bt_sim_config presets[] = {
	{ .name = "core2", .family = BT_SIM_FAM_CORE2,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000006F6,
	  .brand = "baretop sim: Intel perfmon v2 (Core 2-like)",
	  .version = 2, .num_gp = 2, .gp_width = 40, .num_fixed = 3, .fixed_width = 40,
	  .pdcm = true, .aperf_mperf = true, COMMON },
	{ .name = "nhm", .family = BT_SIM_FAM_NHM,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000106A5,
	  .brand = "baretop sim: Intel perfmon v3 (Nehalem-like)",
	  .version = 3, .num_gp = 4, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .pdcm = true, .offcore = true, .ldlat = true, .smi_count = true,
	  .aperf_mperf = true, COMMON },
	{ .name = "skl", .family = BT_SIM_FAM_SKL,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000906EA,
	  .brand = "baretop sim: Intel perfmon v4 (Skylake-like)",
	  .version = 4, .num_gp = 4, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .pdcm = true, .full_width = true, .offcore = true, .ldlat = true, .frontend = true,
	  .freeze_while_smm = true,
	  .smi_count = true, .aperf_mperf = true, .part = &bt_sim_part_cfl, COMMON },
	/* A Skylake with SMT off enumerates 8 general counters (CPUID.0AH
	 * EAX[15:8] counts them per logical processor, and its one thread has
	 * the core's 8); Linux takes that count from the leaf too. */
	{ .name = "skl-nosmt", .family = BT_SIM_FAM_SKL,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000506E3,
	  .brand = "baretop sim: Intel perfmon v4 (Skylake-like, SMT off)",
	  .version = 4, .num_gp = 8, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .pdcm = true, .full_width = true, .offcore = true, .ldlat = true, .frontend = true,
	  .freeze_while_smm = true,
	  .smi_count = true, .aperf_mperf = true, .part = &bt_sim_part_skl, COMMON },
	{ .name = "icl", .family = BT_SIM_FAM_ICL,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000706E5,
	  .brand = "baretop sim: Intel perfmon v5 (Ice Lake-like)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 4, .fixed_width = 48,
	  .any_deprecated = true, .pdcm = true, .full_width = true, .perf_metrics = true,
	  .pm_fields = 4, .offcore = true, .ldlat = true, .frontend = true, .smi_count = true,
	  .freeze_while_smm = true,
	  .aperf_mperf = true, .part = &bt_sim_part_icl, COMMON },
	{ .name = "spr", .family = BT_SIM_FAM_GLC,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000806F8,
	  .brand = "baretop sim: Intel perfmon v5 (SPR-like)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 4, .fixed_width = 48,
	  .any_deprecated = true, .pdcm = true, .full_width = true, .perf_metrics = true,
	  .pm_fields = 8, .offcore = true, .ldlat = true, .frontend = true, .smi_count = true,
	  .freeze_while_smm = true,
	  .aperf_mperf = true, .part = &bt_sim_part_spr, COMMON },
	{ .name = "adl-p", .family = BT_SIM_FAM_GLC,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x00090672,
	  .brand = "baretop sim: Intel hybrid P-core (ADL-like)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 4, .fixed_width = 48,
	  .any_deprecated = true, .pdcm = true, .full_width = true, .perf_metrics = true,
	  .pm_fields = 8, .hybrid = true, .core_type = BT_CORE_TYPE_CORE, .native_model = 1,
	  .offcore = true, .ldlat = true, .frontend = true, .smi_count = true,
	  .freeze_while_smm = true,
	  .aperf_mperf = true, .part = &bt_sim_part_adl_p, COMMON },
	{ .name = "adl-e", .family = BT_SIM_FAM_ATOM,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x00090672,
	  .brand = "baretop sim: Intel hybrid E-core (ADL-like)",
	  .version = 5, .num_gp = 6, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .any_deprecated = true, .pdcm = true, .full_width = true,
	  .hybrid = true, .core_type = BT_CORE_TYPE_ATOM, .native_model = 1,
	  .freeze_while_smm = true,
	  .offcore = true, .ldlat = true, .smi_count = true, .aperf_mperf = true,
	  .part = &bt_sim_part_adl_e, COMMON },
	{ .name = "lnl-p", .family = BT_SIM_FAM_LNC,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000B06D1,
	  .brand = "baretop sim: Intel perfmon v6 (LNL P-core-like)",
	  .version = 6, .num_gp = 10, .gp_width = 48, .num_fixed = 4, .fixed_width = 48,
	  .fixed_bitmap = 0x0F, .any_deprecated = true, .pdcm = true, .full_width = true,
	  .perf_metrics = true, .pm_fields = 8, .rdpmc_metrics_clear = true, .umask2_eq = true,
	  .hybrid = true,
	  .core_type = BT_CORE_TYPE_CORE, .native_model = 3, .offcore = true, .ldlat = true,
	  .freeze_while_smm = true, .pebs_timing = true,
	  .frontend = true, .smi_count = true, .aperf_mperf = true, .part = &bt_sim_part_lnl_p,
	  COMMON },
	/* Arrow Lake H, the three kinds of core of one part (the dump's
	 * blocks): Lion Cove, Skymont and Crestmont LP-E, the last two both
	 * core type 20H, native model IDs 3 and 2. Perfmon version 5 (CPUID.0AH
	 * EAX=07300805h) with leaf 23H: Lion Cove enumerates 10 general
	 * counters (23H.01H:EAX=3FFh) of which version 5 addresses 8 (legacy
	 * MSRs: the sim has those 8); Skymont has fixed counters 0-2 and 4-6
	 * (EBX=77h), Crestmont 0-2. UMASK2/EQ (23H:EBX[1:0]) on the first two
	 * only. IA32_PERF_CAPABILITIES of this part is not publicly known:
	 * PERF_METRICS (bit 15) on the P-core as on Lunar Lake's, the
	 * RDPMC_METRICS_CLEAR bit (19) left out. */
	{ .name = "arlh-p", .family = BT_SIM_FAM_LNC,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000C0652,
	  .brand = "baretop sim: Intel ARL-H P-core (Lion Cove)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 4, .fixed_width = 48,
	  .fixed_bitmap = 0x0F, .any_deprecated = true, .pdcm = true, .full_width = true,
	  .perf_metrics = true, .pm_fields = 8, .umask2_eq = true, .hybrid = true,
	  .core_type = BT_CORE_TYPE_CORE, .native_model = 3, .offcore = true, .ldlat = true,
	  .freeze_while_smm = true, .frontend = true, .smi_count = true, .aperf_mperf = true,
	  .pebs_timing = true, .part = &bt_sim_part_arlh_p, COMMON },
	{ .name = "arlh-e", .family = BT_SIM_FAM_ATOM,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000C0652,
	  .brand = "baretop sim: Intel ARL-H E-core (Skymont)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .fixed_bitmap = 0x77, .any_deprecated = true, .pdcm = true, .full_width = true,
	  .umask2_eq = true, .hybrid = true, .core_type = BT_CORE_TYPE_ATOM, .native_model = 3,
	  .offcore = true, .ldlat = true, .freeze_while_smm = true, .smi_count = true,
	  .aperf_mperf = true, .part = &bt_sim_part_arlh_e, COMMON },
	{ .name = "arlh-lpe", .family = BT_SIM_FAM_ATOM,
	  .vendor = BT_VENDOR_INTEL, .signature = 0x000C0652,
	  .brand = "baretop sim: Intel ARL-H LP E-core (Crestmont)",
	  .version = 5, .num_gp = 8, .gp_width = 48, .num_fixed = 3, .fixed_width = 48,
	  .fixed_bitmap = 0x07, .any_deprecated = true, .pdcm = true, .full_width = true,
	  .hybrid = true, .core_type = BT_CORE_TYPE_ATOM, .native_model = 2,
	  .offcore = true, .ldlat = true, .freeze_while_smm = true, .smi_count = true,
	  .aperf_mperf = true, .part = &bt_sim_part_arlh_lpe, COMMON },
	{ .name = "amd-legacy", .vendor = BT_VENDOR_AMD, .signature = 0x00100F22,
	  .brand = "baretop sim: AMD legacy PMU (family 10h-like)",
	  .num_gp = 4, .gp_width = 48, .aperf_mperf = true, COMMON },
	{ .name = "zen2", .vendor = BT_VENDOR_AMD, .signature = 0x00830F10,
	  .brand = "baretop sim: AMD core extension (Zen 2-like)",
	  .num_gp = 6, .gp_width = 48, .amd_core_ext = true, .aperf_mperf = true, COMMON },
	{ .name = "zen4", .vendor = BT_VENDOR_AMD, .signature = 0x00A60F12,
	  .brand = "baretop sim: AMD PerfMonV2 (Zen 4-like)",
	  .num_gp = 6, .gp_width = 48, .amd_core_ext = true, .amd_v2 = true,
	  .aperf_mperf = true, .part = &bt_sim_part_zen4, COMMON },
};

const char *const bt_sim_preset_names[] = {
	"core2", "nhm", "skl", "skl-nosmt", "icl", "spr", "adl-p", "adl-e", "lnl-p",
	"arlh-p", "arlh-e", "arlh-lpe", "amd-legacy", "zen2", "zen4", NULL,
};

const struct bt_sim_config *bt_sim_preset(const char *name)
{
	for (size_t i = 0; name && i < BT_ARRAY_SIZE(presets); i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}
