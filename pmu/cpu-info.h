/* SPDX-License-Identifier: MIT */
/*
 * What baretop knows about the CPU it runs on and its PMU, as read from CPUID
 * (and, where CPUID says the register exists, IA32_PERF_CAPABILITIES and the
 * microcode revision MSR). PMU presence is decided from CPUID alone: under
 * QEMU TCG every RDMSR reads 0 without faulting, so probing proves nothing.
 */
#ifndef PMU_CPU_INFO_H
#define PMU_CPU_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/cpuid.h" /* enum bt_vendor, enum bt_core_type */

enum bt_tsc_source {
	BT_TSC_UNKNOWN = 0,
	BT_TSC_CPUID_15H,   /* crystal clock and TSC/crystal ratio */
	BT_TSC_CPUID_16H,   /* processor base frequency */
	BT_TSC_CALIBRATED,  /* measured against the firmware's Stall() */
	BT_TSC_GIVEN,       /* set by the user or by a count file */
};

enum bt_pmu_kind {
	BT_PMU_NONE = 0,
	BT_PMU_INTEL_ARCH,  /* Intel architectural performance monitoring */
	BT_PMU_AMD_LEGACY,  /* 4 counters at 0xC0010000.. */
	BT_PMU_AMD_CORE_EXT,/* 6 counters at 0xC0010200.., interleaved */
	BT_PMU_AMD_V2,      /* core extension + PerfMonV2 global control */
};

#define BT_PMU_MAX_GP    16
#define BT_PMU_MAX_FIXED 16

/*
 * Intel core microarchitecture class, from CPUID family/model and, on
 * hybrid parts, the core type (pmu/intel-uarch.c). It decides facts CPUID
 * does not enumerate: which OFFCORE_RSP MSR an event code selects, which
 * MSR_PEBS_FRONTEND bits exist, how many PERF_METRICS fields there are.
 * UNKNOWN: a model baretop has no verified table for; events needing those
 * facts are reported unmeasurable instead of guessed.
 */
enum bt_intel_uarch {
	BT_UARCH_UNKNOWN = 0,
	BT_UARCH_CORE2,      /* Core 2: none of the extra MSRs */
	BT_UARCH_NHM,        /* Nehalem: OFFCORE_RSP_0 only (0xB7) */
	BT_UARCH_WSM_BDW,    /* Sandy Bridge .. Broadwell: 0xB7 / 0xBB */
	BT_UARCH_SKL,        /* Skylake, Cascade Lake: + MSR_PEBS_FRONTEND */
	BT_UARCH_ICL,        /* Ice Lake, Tiger Lake, Rocket Lake: + PERF_METRICS (4 fields) */
	BT_UARCH_GLC,        /* Golden Cove: OCR 0x2A / 0x2B, PERF_METRICS 8 fields */
	BT_UARCH_RWC,        /* Redwood Cove */
	BT_UARCH_LNC,        /* Lion Cove */
	BT_UARCH_ATOM,       /* Silvermont .. Skymont E-cores: OCR 0xB7 umask 0x01 / 0x02 */
	/* Westmere: the OFFCORE_RSP pairing of Sandy Bridge .. Broadwell, but
	 * BR_INST_RETIRED (C4H) has only umasks 01H/02H/04H: NEAR_RETURN (08H)
	 * and NOT_TAKEN (10H) came with Sandy Bridge (Linux tools/perf
	 * pmu-events westmereep-sp/pipeline.json against sandybridge/). Last, so
	 * that the values above keep their numbers. */
	BT_UARCH_WSM,
};

/* Corrections CPUID and IA32_PERF_CAPABILITIES need on real parts. */
#define BT_PMU_QUIRK_HYBRID_BIG_COUNTERS (1u << 0) /* ADL/RPL P-core: +2 general, +1 fixed */
#define BT_PMU_QUIRK_HYBRID_ALL_COUNTERS (1u << 1) /* ... already enumerated (E-cores off) */
#define BT_PMU_QUIRK_PM_ASSUMED          (1u << 2) /* PERF_METRICS on whatever bit 15 says */
#define BT_PMU_QUIRK_PM_NONE             (1u << 3) /* hybrid E-core: no PERF_METRICS */
#define BT_PMU_QUIRK_PM_BIT_BROKEN       (1u << 4) /* MTL: bit 15 always reads 0 */
#define BT_PMU_QUIRK_GP_CLAMPED          (1u << 5) /* version < 6: at most 8 general */

enum bt_pm_rule {
	BT_PM_FROM_MSR = 0,      /* IA32_PERF_CAPABILITIES[15] as read */
	BT_PM_ASSUMED_ON,        /* present whatever the bit says */
	BT_PM_ASSUMED_OFF,       /* absent whatever the bit says */
};

struct bt_pmu_caps {
	enum bt_pmu_kind kind;
	/* When kind == BT_PMU_NONE: why, in one sentence for the user. */
	char absent_reason[256];
	/* CPUID.0AH gave an answer no processor can (pmu-caps.c
	 * leaf0a_impossible): the reason says which field */
	bool cpuid_impossible;

	uint8_t num_gp;          /* highest general counter index + 1 (= count unless v6 has gaps) */
	uint8_t gp_width;        /* their width in bits */
	uint32_t gp_mask;        /* bit n: general counter n exists */
	uint8_t num_fixed;       /* highest fixed counter index + 1 */
	uint8_t fixed_width;
	uint32_t fixed_mask;     /* bit n: fixed counter n exists (v5: ECX bitmap too) */

	/* Intel, CPUID.0AH */
	uint8_t version;         /* EAX[7:0], architectural perfmon version */
	uint8_t arch_events_len; /* EAX[31:24], length of the EBX bit vector */
	uint32_t arch_events_na; /* EBX: bit set = architectural event NOT available */
	bool any_thread_deprecated; /* EDX[15] (v5): AnyThread is ignored */
	/* The architectural events this core has, bit x = event x of the SDM's
	 * table (base/arch-event.h bt_arch_event()): from CPUID.0AH, event x when
	 * EBX[x] is clear AND EAX[31:24] > x; replaced by CPUID.23H.03H:EAX
	 * (bit set = available) where leaf 23H lists subleaf 3, which is per
	 * core type (a hybrid part's leaf 0AH shows only what both kinds
	 * have). */
	uint32_t arch_events;
	bool arch_events_23h;    /* arch_events came from CPUID.23H.03H */
	/* CPUID.23H.00H:ECX[7:0] SLOTS_PER_CYC: non-zero, Top-Down slots =
	 * this x core cycles (fixed counter 1); 0 (or no leaf 23H): slots are
	 * counted by Topdown Slots (A4H/01H, fixed counter 3). */
	uint8_t slots_per_cycle;
	/* CPUID.01H:EDX[21] DS (Debug Store): PEBS may exist; whether it does,
	 * IA32_MISC_ENABLE[12] says (read by the session at open). */
	bool ds;
	/* CPUID.07H:EDX[13] TSX_FORCE_ABORT without EDX[11] RTM_ALWAYS_ABORT:
	 * Skylake-class parts with the 2019 TSX microcode, which uses IA32_PMC3
	 * unless MSR_TSX_FORCE_ABORT[0] makes every RTM transaction abort; the
	 * driver sets that bit while a group counts on counter 3 and puts it
	 * back at close (Linux intel/core.c intel_tfa_commit_scheduling,
	 * intel_set_tfa; intel_pmu_init deploys them only without
	 * RTM_ALWAYS_ABORT, whose microcode always aborts RTM and leaves PMC3
	 * alone). */
	bool tsx_force_abort;
	/* CPUID.23H:EBX (enumerated by CPUID.(07H,1):EAX[8]), perfmon v6 selector
	 * extensions: [0] UMASK2 in IA32_PERFEVTSELx[47:40], [1] EQ bit 36. */
	bool umask2;
	bool eq;

	/* CPUID.23H.01H (v6; subleaf valid per CPUID.23H:EAX[1]): the counter
	 * bitmaps, which then replace the masks above; the counters are
	 * programmed through the v6 MSR range (0x1900 + 4n, 0x1980 + 4n). */
	bool v6_counter_leaf;
	uint8_t uarch;           /* enum bt_intel_uarch */

	/* Intel, IA32_PERF_CAPABILITIES (0x345): read only when CPUID.01H:ECX[15]
	 * (PDCM) says it exists. */
	bool has_perf_capabilities;
	uint64_t perf_capabilities;
	bool full_width_write;   /* [13]: IA32_A_PMCx (0x4C1+) writes all bits */
	bool perf_metrics;       /* [15]: MSR_PERF_METRICS (0x329) is available */
	uint8_t perf_metrics_fields; /* fields that exist: 4 (ICL/TGL) or 8 (Golden Cove+) */

	/* Part-specific corrections (pmu/pmu-caps.c, each with its source):
	 * BT_PMU_QUIRK_* bits that were applied, for the detection report. */
	uint32_t quirks;
	uint8_t enumerated_gp;   /* general counters CPUID enumerated, before a clamp */
	uint8_t perf_metrics_rule; /* enum bt_pm_rule: how PERF_CAPABILITIES[15] is read */

	/* AMD */
	bool amd_core_ext;       /* CPUID 8000_0001h:ECX[23] PerfCtrExtCore */
	bool amd_perfmon_v2;     /* CPUID 8000_0022h:EAX[0] PerfMonV2 */
	bool amd_lbr_v2;         /* CPUID 8000_0022h:EAX[1] (reported only) */
	/* PMCx02B "SMIs received" (ls_smi_rx) exists: the Zen 2 .. Zen 5
	 * event lists have it (Linux perf amdzen2/ and amdzen3/memory.json,
	 * amdzen4/core.json, amdzen5/load-store.json, EventCode 0x2b), Zen 1's
	 * (amdzen1) does not; decided from the CPUID family and model as
	 * mapfile.csv maps those lists (family 17h models 30h-FFh, 19h, 1Ah).
	 * Earlier parts: no SMI count. */
	bool amd_smi_rx;

	/* Intel, SMT on: every group also counts CPU_CLK_UNHALTED.
	 * ONE_THREAD_ACTIVE (0x3C/0x02) on a general counter the plan
	 * reserves (plan.h sibling_gp), so each window says how much of it the
	 * other thread of the core ran: 1 - ONE_THREAD_ACTIVE / REF_XCLK, as
	 * Linux perf's SMT-aware CORE_CLKS reads them, with REF_XCLK the
	 * window's fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC) over
	 * tsc_per_xclk (pmu/sibling.h), or counted on a second reserved
	 * counter where fixed counter 2 is missing. Not detected: set by the
	 * caller that needs it (app/count.c: SMT on and a model whose formulas
	 * have SMT branches). */
	bool sibling_probe;
	/* The clock REF_XCLK and ONE_THREAD_ACTIVE count, against fixed
	 * counter 2's (the TSC's rate): tsc_per_xclk_num / tsc_per_xclk_den
	 * TSC ticks per tick of it, as the part enumerates it, from
	 * tsc_per_xclk_from (pmu-caps.c xclk_ratio); 0 / 0: not enumerated. */
	uint32_t tsc_per_xclk_num, tsc_per_xclk_den;
	const char *tsc_per_xclk_from;
	/* Why the probe cannot be counted here although the registers exist
	 * (an operating system's driver: host/perf-plan.c), NULL: it can. */
	const char *sibling_probe_off;

	/* An operating system's driver between baretop and the counters
	 * (hosted --backend=perf): it refuses, before counting, the events
	 * its kernel cannot program, and says how it counts the others
	 * (host/perf-plan.c). NULL under baretop's own driver. */
	const struct bt_os_event_filter *os_filter;
};

struct bt_event;
struct bt_os_event_filter {
	/* NULL, or why e cannot be counted through this driver and what the
	 * user can do, written into buf (at most len bytes). */
	const char *(*refuse)(const struct bt_os_event_filter *f, const struct bt_event *e,
			      char *buf, size_t len);
	/* The form the driver counts e in, into *ret: true when it differs
	 * from e (a fixed-counter event the kernel's own use moves to a
	 * general counter, an event its scheduler must give a group alone). */
	bool (*adapt)(const struct bt_os_event_filter *f, const struct bt_event *e,
		      struct bt_event *ret);
};

struct bt_arch;

/*
 * A PMU to count with: the backend its instructions go to and what detection
 * found there. They travel together (bt_measure, the validation and
 * conformance runs) because the caps describe that backend's PMU and no
 * other: a simulated arch with the host's caps, or the reverse, would plan
 * for counters that are not there.
 */
struct bt_pmu_driver;

struct bt_pmu {
	struct bt_arch *arch;
	struct bt_pmu_caps caps;
	/* An operating system's driver that counts instead of baretop's own
	 * registers (hosted --backend=perf: Linux perf_event, host/perf-pmu.c);
	 * NULL: baretop's driver for caps.kind (pmu/pmu-drivers.c). */
	const struct bt_pmu_driver *driver;
	/* That driver's facts it planned for (Linux: the kernel's counters,
	 * PMU type, formats, watchdog, paranoid), one line each; the run
	 * prints them and keeps them in the results' notes. */
	const char (*facts)[240];
	int n_facts;
};

struct bt_cpu_info {
	enum bt_vendor vendor;
	char vendor_str[13];     /* "GenuineIntel", "AuthenticAMD", ... */
	char brand[49];          /* CPUID 8000_0002h..4h, leading blanks removed */
	uint32_t signature;      /* CPUID.01H:EAX */
	uint32_t family;         /* display family (base + extended) */
	uint32_t model;          /* display model (extended << 4 | base) */
	uint32_t stepping;

	bool microcode_valid;
	uint32_t microcode;      /* IA32_BIOS_SIGN_ID[63:32] / AMD PATCH_LEVEL */
	char microcode_note[96]; /* why it is not valid, when it is not */

	bool hypervisor;         /* CPUID.01H:ECX[31] */
	char hypervisor_vendor[13];

	uint32_t logical_cpus;   /* from the platform (MP services); 0 = unknown */
	uint32_t threads_per_core; /* from CPUID topology; 1 = no SMT */
	bool smt;

	bool hybrid;             /* CPUID.07H:EDX[15] */
	enum bt_core_type core_type;
	uint32_t native_model_id; /* CPUID.1AH:EAX[23:0] */

	bool invariant_tsc;      /* CPUID 8000_0007h:EDX[8] */
	bool aperf_mperf;        /* CPUID.06H:ECX[0] */
	uint64_t tsc_hz;
	enum bt_tsc_source tsc_source;

	bool avx, avx2, avx512f; /* what the CPU has; the app enables the state */
	bool osxsave;

	struct bt_pmu_caps pmu;
};

#endif
