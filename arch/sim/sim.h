/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU: a struct bt_arch whose CPUID, RDMSR, WRMSR, RDPMC and
 * RDTSC model the registers of Intel architectural performance monitoring
 * v2..v6 (with or without PERF_METRICS, hybrid core types) and of AMD
 * (legacy, core extension, PerfMonV2), following the Intel SDM vol. 3B
 * ch. 20 and the AMD APM vol. 2 §13.2 closely enough to catch programming
 * mistakes:
 *
 *   - #GP (BT_ERR_FAULT, vector 13) where the manuals say hardware raises it:
 *     reserved bits in PERFEVTSEL / FIXED_CTR_CTRL / GLOBAL_CTRL /
 *     GLOBAL_OVF_CTRL / PerfMonV2 registers, MSRs that do not exist for the
 *     configuration (counters beyond the configured number, IA32_A_PMCx
 *     without full-width writes, PERF_METRICS without the capability, AMD
 *     extension MSRs without the feature, IA32_PERF_CAPABILITIES without
 *     PDCM), writes to read-only registers, RDPMC of a missing counter;
 *     not for deprecated AnyThread bits (no manual says so: accepted and
 *     ignored);
 *   - 32-bit writes to IA32_PMCx sign-extend bit 31 (SDM 20.2.6);
 *   - counters advance only inside run_window, from a count source, for the
 *     encoding actually programmed (event, umask, cmask, inv, edge, any, eq,
 *     umask2, OS/USR, and the extra MSR's value), modulo their width;
 *   - "foreign activity": every MSR access or RDPMC outside the window
 *     advances each enabled counter by cfg.noise_per_access (the driver's own
 *     instructions), so counters left running while programming are visible;
 *   - PERF_METRICS holds 8 byte fractions of SLOTS; the sim keeps the
 *     per-field slot counts and chooses bytes b so that floor(SLOTS*b/255)
 *     equals them; writing FIXED_CTR3 without rewriting PERF_METRICS leaves
 *     stale fractions (SDM 20.3.9.3: the two are reset together; whether
 *     hardware clears PERF_METRICS itself on a FIXED_CTR3 write is not
 *     documented, see sim-intel.c);
 *   - GLOBAL_STATUS with separate STATUS_RESET / STATUS_SET masks, CTR_Frz
 *     (a frozen PMU counts nothing), IA32_PEBS_ENABLE (load-latency events
 *     count only with it), the perfmon v6 MSR range, per-microarchitecture
 *     OFFCORE_RSP pairing and MSR_PEBS_FRONTEND reserved bits, from the
 *     sim's own tables (arch/sim/sim-regs.h, sim-tables.c), never the driver's;
 *   - IA32_DEBUGCTL with its reserved bits, FREEZE_WHILE_SMM (bit 14) only
 *     when IA32_PERF_CAPABILITIES[12] says so; SMIs landing halfway
 *     through a window (cfg.smi_per_window, or one armed with
 *     smi_window_after) add cfg.smm_counts_per_smi each to the counters
 *     counting ring 0 unless FREEZE_WHILE_SMM is set, in which case RSM
 *     sets the GLOBAL_CTRL enables for the rest of the window; the TSC runs
 *     through the handler (cfg.smm_tsc_per_smi) either way; one can also be
 *     injected between any two accesses (smi_after), where after RSM the
 *     frozen GLOBAL_CTRL enables read 1 as the SDM says (sim-count.c); on
 *     AMD the handler is always counted and PMCx02B counts SMIs received;
 *   - IA32_PERF_GLOBAL_INUSE (v4+, derived from the selectors and fixed
 *     control), IA32_MISC_ENABLE (read only: PEBS unavailable unless the
 *     part has PEBS, which in the sim means .ldlat, and then CPUID.01H:EDX
 *     reports DS), IA32_PEBS_ENABLE where PEBS exists, and a PEBS assist
 *     on the overflow of a counter PEBS_ENABLE arms recorded as a violation
 *     (it writes into the DS area of whoever armed it) unless the part has
 *     timed PEBS (cfg.pebs_timing: IA32_PERF_CAPABILITIES[14] and [17],
 *     MSR_PEBS_DATA_CFG with the basic group only, IA32_DS_AREA #GP when not
 *     canonical) and a DS area is set: then each overflow writes an
 *     adaptive record (format, retire latency from pebs_latency saturating
 *     at 65535, size; IP, applicable counters, TSC) at pebs_index as Linux
 *     ds.c reads it, stops writing at pebs_absolute_maximum, sets the
 *     counter's GLOBAL_STATUS overflow bit and OvfBuffer at the threshold, and reloads the counter from
 *     pebs_event_reset[i] (sim-state.c; no PMI is modelled);
 *   - several "left by firmware" initial states (cfg.initial);
 *   - injectable hardware defects (cfg.defects, sim-defect.c): a stuck or
 *     narrow counter, a double-counting encoding, a dead fixed counter, a
 *     missing overflow bit, an ignored umask, a truncating full-width
 *     alias, and more, each where the hardware would show it;
 *   - sequence rules that are mistakes but not faults are recorded as
 *     violations (selector written while its counter is enabled, counting
 *     started with stale PERF_METRICS).
 *
 * Every access (and every RDTSC) is logged (op, msr/ecx, value, result) and any single access
 * can be made to fault. Everything it counts is simulated: arch.simulated is
 * true and arch.name is "simulated"; callers label their output accordingly.
 */
#ifndef ARCH_SIM_SIM_H
#define ARCH_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"
#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "arch/cpuid.h"

/* ------------------------------------------------------------ count source */

/* One event the simulated workload produces: its encoding (as a model or
 * the raw-event parser describes it) and its count per counting window. */
struct bt_sim_count {
	struct bt_event ev;
	uint64_t count;
};

struct bt_sim_source {
	const struct bt_sim_count *entries;
	size_t n;
	uint64_t tsc_per_window;   /* 0: the TSC entry (BT_SRC_TSC) or cfg default */
	/* The simulated workload is the function the window runs: when `body`
	 * is set, the counts apply only to windows that run it, and any other
	 * window (a calibration with an empty body) counts nothing but the
	 * modelled foreign activity. NULL: every window counts the entries. */
	bt_window_fn *body;
};

/* Attaching count sources: the sim borrows `src` (for the windows that run
 * src->body, or every window when body is NULL) and `alt` (NULL: none; a
 * second body's counts, for windows running alt->body, e.g. kernel `empty`
 * calibrating the window of another kernel), entries included, until they
 * are replaced, detached or the sim is freed. Their owner keeps them alive
 * until then and detaches before it frees or reuses them.
 * bt_sim_set_source(sim, src) replaces `src` only. */
struct bt_sim;
void bt_sim_attach_sources(struct bt_sim *sim, const struct bt_sim_source *src,
			   const struct bt_sim_source *alt);
void bt_sim_detach_sources(struct bt_sim *sim);

/* ------------------------------------------------------------ configuration */

/* The sim's microarchitecture classes, for its own tables of OFFCORE_RSP
 * pairing and MSR_PEBS_FRONTEND bits (sim-tables.c). Set literally per
 * preset, independently of the driver's model table. */
enum bt_sim_family {
	BT_SIM_FAM_NONE = 0,
	BT_SIM_FAM_CORE2,      /* no extra MSRs baretop uses */
	BT_SIM_FAM_NHM,        /* OFFCORE_RSP_0 only: 0xB7/0x01 */
	BT_SIM_FAM_WSM_BDW,    /* 0xB7/0x01 -> RSP_0, 0xBB/0x01 -> RSP_1 */
	BT_SIM_FAM_SKL,        /* + MSR_PEBS_FRONTEND, valid bits 0x7FFF17 */
	BT_SIM_FAM_ICL,        /* as SKL, PERF_METRICS with 4 fields */
	BT_SIM_FAM_GLC,        /* 0x2A/0x01 -> RSP_0, 0x2B/0x01 -> RSP_1; FRONTEND 0x7FFF1F */
	BT_SIM_FAM_RWC,        /* as GLC */
	BT_SIM_FAM_LNC,        /* as GLC */
	BT_SIM_FAM_ATOM,       /* 0xB7/0x01 -> RSP_0, 0xB7/0x02 -> RSP_1; no FRONTEND */
	BT_SIM_FAM_WSM,        /* Westmere: pairing as WSM_BDW (Sandy Bridge..Broadwell);
				* its BR_INST_RETIRED has umasks 01H/02H/04H only */
};

/* "Left by firmware" states the register file can start in (cfg.initial),
 * combined as flags. 0 = idle: stale disabled selectors, counters holding
 * values, on v4+ a stale OvfBuffer status bit. */
#define BT_SIM_INIT_RUNNING   (1u << 0) /* every counter enabled and counting */
#define BT_SIM_INIT_OVERFLOW  (1u << 1) /* overflow bits of counters 0, 1, fixed 1 set */
#define BT_SIM_INIT_FROZEN    (1u << 2) /* v4+: CTR_Frz and LBR_Frz set (a PMI froze it) */
#define BT_SIM_INIT_CONDCHGD  (1u << 3) /* CondChgd set; v4+ also ASCI */
#define BT_SIM_INIT_DEBUGCTL  (1u << 4) /* Intel: DEBUGCTL LBR, FREEZE_LBRS_ON_PMI set */
/* Intel: firmware's own counting, as Linux's "the BIOS has corrupted hw-PMU
 * resources" reports show it (e.g. IA32_FIXED_CTR_CTRL = 0xb0: fixed
 * counter 1 enabled with a PMI): general counter 1 and fixed counter 1
 * programmed, enabled (also in GLOBAL_CTRL) and with PMI. */
#define BT_SIM_INIT_FW_COUNTERS (1u << 5)
/* Intel, where PEBS exists: IA32_PEBS_ENABLE bit 0 (PEBS_EN_PMC0) set. */
#define BT_SIM_INIT_PEBS      (1u << 6)
#define BT_SIM_INIT_ALL       0x7Fu

/* One CPUID answer of a real part (arch/sim/sim-parts.c), its leaf and
 * subleaf in one word (the tables are data of the EFI image: 20 bytes a
 * row, not 24): bits 31:30 the leaf's range (0, 4000_0000H, 8000_0000H),
 * 23:8 the leaf within it, 7:0 the subleaf. */
struct bt_sim_cpuid_leaf {
	uint32_t id;               /* BT_SIM_LEAF_ID(leaf, subleaf) */
	uint32_t eax, ebx, ecx, edx;
};
#define BT_SIM_LEAF_ID(leaf, sub)                                                    \
	((((uint32_t)(leaf)) & 0xC0000000u) | ((((uint32_t)(leaf)) & 0xFFFFu) << 8) | \
	 (((uint32_t)(sub)) & 0xFFu))
/* Whether a leaf and subleaf have an id (every leaf baretop reads has). */
static inline bool bt_sim_leaf_fits(uint32_t leaf, uint32_t subleaf)
{
	return !(leaf & 0x3FFF0000u) && subleaf < 256;
}
static inline uint32_t bt_sim_leaf_of(const struct bt_sim_cpuid_leaf *e)
{
	return (e->id & 0xC0000000u) | ((e->id >> 8) & 0xFFFFu);
}
static inline uint32_t bt_sim_subleaf_of(const struct bt_sim_cpuid_leaf *e)
{
	return e->id & 0xFFu;
}

/* A real part's CPUID answers: one dump block (one kind of core) of
 * ../shared/reference/cpuid/<dump>.cpuid, its first CPU being `cpu`. */
struct bt_sim_cpuid_part {
	const char *id;            /* "adl-p", "arlh-lpe", ... */
	const char *dump;          /* dump file name without ".cpuid" */
	uint32_t cpu;
	const struct bt_sim_cpuid_leaf *leaves;
	size_t n;
	/* MSR_PLATFORM_INFO[15:8], the nameplate base frequency in 100 MHz
	 * (the dump's brand string, "@ 3.50GHz": 35); 0: not modelled (the
	 * MSR faults) */
	uint8_t base_ratio;
};



/* Every part, NULL-terminated; bt_sim_cpuid_part(id) finds one, or NULL. */
extern const struct bt_sim_cpuid_part *const bt_sim_cpuid_parts[];
const struct bt_sim_cpuid_part *bt_sim_cpuid_part(const char *id);
extern const struct bt_sim_cpuid_part bt_sim_part_ivb, bt_sim_part_hsw, bt_sim_part_cfl,
	bt_sim_part_skl, bt_sim_part_skx, bt_sim_part_icl, bt_sim_part_tgl, bt_sim_part_icx, bt_sim_part_adl_p,
	bt_sim_part_adl_e, bt_sim_part_ehl, bt_sim_part_spr, bt_sim_part_emr, bt_sim_part_gnr, bt_sim_part_mtl_p,
	bt_sim_part_mtl_e, bt_sim_part_lnl_p, bt_sim_part_lnl_e, bt_sim_part_arl_p,
	bt_sim_part_arl_e, bt_sim_part_arlh_p, bt_sim_part_arlh_e, bt_sim_part_arlh_lpe,
	bt_sim_part_zen4, bt_sim_part_zen5;

/* Injectable hardware defects (arch/sim/sim-defect.c): faults of the
 * simulated silicon, not of the driver (the driver's mistakes are the
 * TEST-ONLY struct bt_pmu_mutation of pmu/pmu-session.h). Each is modelled
 * where the hardware would show it -- in counting (sim-count.c,
 * sim-state.c) or in register storage (sim-intel.c, sim-amd.c) -- never
 * by looking at who reads. Set by name with bt_sim_defects_parse()
 * ("--sim-defect=stuck-counter:2,fixed-dead:1"); README.md lists what each
 * breaks. */
#define BT_SIM_DEFECT_STUCK_COUNTER  (1u << 0) /* general counter stuck_gp never advances */
#define BT_SIM_DEFECT_DOUBLE_COUNT   (1u << 1) /* encoding double_code/umask counts 2x */
#define BT_SIM_DEFECT_NARROW_COUNTER (1u << 2) /* general counter narrow_gp: width - 8 bits */
#define BT_SIM_DEFECT_FIXED_DEAD     (1u << 3) /* fixed counter dead_fixed never counts */
#define BT_SIM_DEFECT_NO_OVERFLOW    (1u << 4) /* general counter no_ovf_gp never sets its
					       * GLOBAL_STATUS overflow bit */
#define BT_SIM_DEFECT_UMASK_IGNORED  (1u << 5) /* event umask_code counts as umask 0x00 */
#define BT_SIM_DEFECT_FW_TRUNCATES   (1u << 6) /* IA32_A_PMCx keeps only bits 31:0 */
#define BT_SIM_DEFECT_PM_STICKY      (1u << 7) /* MSR_PERF_METRICS ignores writes */
#define BT_SIM_DEFECT_AMD_ALIAS_SPLIT (1u << 8) /* AMD legacy PerfCtr0-3 are separate
					       * registers, not the core counters */
#define BT_SIM_DEFECT_GLOBAL_IGNORED (1u << 9) /* the global enable (GLOBAL_CTRL / AMD
					       * PerfCntrGlobalCtl) bit of counter 0 is
					       * ignored: it counts whenever En is set */
#define BT_SIM_DEFECT_RDPMC_FIXED_GP (1u << 10) /* RDPMC with ECX[30] returns the general
					       * counter of the same index */
#define BT_SIM_DEFECT_XCLK_RATIO     (1u << 11) /* REF_XCLK and ONE_THREAD_ACTIVE count a
					       * clock of xclk_ratio TSC ticks, not the
					       * one the part enumerates */

struct bt_sim_defects {
	uint32_t mask;             /* BT_SIM_DEFECT_* */
	uint8_t stuck_gp, narrow_gp, no_ovf_gp, dead_fixed;
	uint16_t double_code;      /* event select (AMD: 12 bits) */
	uint8_t double_umask;
	uint16_t umask_code;
	uint16_t xclk_ratio;
};

/* "stuck-counter:2,double-count:0xc4/0x01" -> *ret (all-or-nothing; an
 * empty string is no defect). "help" is refused with the list in d. */
bt_status bt_sim_defects_parse(const char *spec, struct bt_sim_defects *ret, struct bt_diag *d);
/* BT_ERR_INVALID with the reason when a defect of *df cannot act on the
 * PMU of *cfg (a counter it lacks, PERF_METRICS on a PMU without them). */
struct bt_sim_config;
bt_status bt_sim_defects_check(const struct bt_sim_defects *df, const struct bt_sim_config *cfg,
			       struct bt_diag *d);
/* The defect names with their parameters and one line each, as text. */
void bt_sim_defects_help(char *buf, size_t len);
/* "stuck-counter:1,fixed-dead:2" for *df ("none" when no defect). */
void bt_sim_defects_format(const struct bt_sim_defects *df, char *buf, size_t len);

struct bt_sim_config {
	const char *name;          /* preset name, e.g. "skl" */
	enum bt_vendor vendor;
	uint32_t signature;        /* CPUID.01H:EAX */
	const char *brand;         /* CPUID 8000_0002h..4h (<= 47 chars) */

	/* Intel */
	uint8_t version;           /* CPUID.0AH:EAX[7:0], 2..6 */
	uint8_t num_gp, gp_width;
	uint8_t num_fixed, fixed_width; /* CPUID.0AH:EDX[4:0], [12:5] */
	uint32_t fixed_bitmap;     /* v5+: CPUID.0AH:ECX; v6: also CPUID.23H.1:EBX */
	uint32_t gp_bitmap;        /* v6: CPUID.23H.1:EAX (0: counters 0..num_gp-1) */
	bool any_deprecated;       /* CPUID.0AH:EDX[15] */
	bool pdcm;                 /* IA32_PERF_CAPABILITIES exists */
	bool full_width;           /* PERF_CAPABILITIES[13] */
	bool perf_metrics;         /* PERF_CAPABILITIES[15] */
	uint8_t pm_fields;         /* 4 (ICL) or 8 (SPR, Golden Cove and later) */
	bool rdpmc_metrics_clear;  /* PERF_CAPABILITIES[19]: FIXED_CTR_CTRL bit 14 exists */
	bool freeze_while_smm;     /* PERF_CAPABILITIES[12]: IA32_DEBUGCTL[14] exists */
	bool pebs_timing;          /* adaptive PEBS with timing: PERF_CAPABILITIES[14] and
				    * [17], MSR_PEBS_DATA_CFG and IA32_DS_AREA exist, and an
				    * armed general counter writes records (sim-state.c) */
	uint8_t family;            /* enum bt_sim_family */
	bool umask2_eq;            /* CPUID.23H:EBX[1:0] */
	bool hybrid;               /* CPUID.07H:EDX[15] */
	uint8_t core_type;         /* CPUID.1AH:EAX[31:24] */
	uint32_t native_model;     /* CPUID.1AH:EAX[23:0] */
	bool offcore, ldlat, frontend; /* MSRs 0x1A6/7, 0x3F6, 0x3F7 exist */
	bool smi_count;            /* MSR_SMI_COUNT exists */
	/* Skylake-class client parts with the 2019 TSX microcode:
	 * CPUID.07H:EDX[13] TSX_FORCE_ABORT and MSR_TSX_FORCE_ABORT (0x10F,
	 * bit 0 RTM_FORCE_ABORT, the rest reserved); the microcode uses
	 * IA32_PMC3 for itself unless bit 0 is set (then every RTM transaction
	 * aborts), so counter 3 counts nothing of the source there (Linux
	 * arch/x86/events/intel/core.c: tfa_get_event_constraints "Without TFA
	 * we must not use PMC3", intel_tfa_commit_scheduling sets it first). */
	bool tsx_force_abort;

	/* IA32_PERF_CAPABILITIES[15] reads 0 although PERF_METRICS exists
	 * (Meteor Lake: Linux intel_pmu_broken_perf_cap()). */
	bool perf_cap_pm_reads_zero;

	/* AMD */
	bool amd_core_ext, amd_v2;

	/* CPUID as a real part answered it (NULL: made up from the fields
	 * above). The fields above are then what that part's hardware has,
	 * which CPUID need not say directly: a hybrid Raptor Lake P-core
	 * enumerates 6 general counters and has 8. Every leaf comes from the
	 * part except the brand string (8000_0002H..4H), which keeps `brand`
	 * so that a simulated CPU always says so. */
	const struct bt_sim_cpuid_part *part;

	/* Both */
	bool aperf_mperf;          /* CPUID.06H:ECX[0] */
	uint32_t noise_per_access; /* foreign activity per access outside the window */
	uint64_t tsc_per_access;   /* TSC ticks per access outside the window */
	uint64_t tsc_per_window;   /* TSC ticks per window when the source has none */
	/* The simulated TSC's frequency (Hz), stated: a simulated time is the
	 * simulated ticks over it, never the host's clock. The simulated core
	 * runs at it (core cycles = TSC ticks in the window, APERF = MPERF). */
	uint64_t tsc_hz;
	uint32_t smi_per_window;   /* SMIs that "land" in each window, halfway through */
	uint64_t smm_counts_per_smi; /* what one SMI handler adds to each counter counting
				      * ring 0 (Intel: unless DEBUGCTL.FREEZE_WHILE_SMM) */
	uint64_t smm_tsc_per_smi;  /* TSC ticks one SMI handler takes (the TSC, APERF and
				    * MPERF run through SMM, frozen counters or not) */
	uint8_t initial;           /* BT_SIM_INIT_* flags */
	struct bt_sim_defects defects; /* injected hardware defects (none: all 0) */
};

/* The clock CPU_CLK_UNHALTED.REF_XCLK and ONE_THREAD_ACTIVE count on the
 * simulated part, in TSC ticks per tick (*num / *den), as the part states
 * it: its CPUID.15H EBX/EAX on the Skylake family (the core crystal
 * clock), its MSR_PLATFORM_INFO[15:8] on Sandy Bridge .. Broadwell (the
 * 100 MHz bus clock); false when it states none. The simulated workloads
 * count REF_XCLK at that clock (synth/sim-run.c); the xclk-ratio defect
 * makes it count at another. */
bool bt_sim_tsc_per_xclk(const struct bt_sim_config *cfg, uint32_t *num, uint32_t *den);

/* The simulated clock every preset states (struct bt_sim_config tsc_hz):
 * 3 GHz. */
#define BT_SIM_TSC_HZ 3000000000ull

/* Named presets: "core2" "nhm" "skl" "skl-nosmt" "icl" "spr" "adl-p" "adl-e" "lnl-p"
 * "amd-legacy" "zen2" "zen4". NULL if unknown. */
const struct bt_sim_config *bt_sim_preset(const char *name);
/* The preset names, NULL-terminated. */
extern const char *const bt_sim_preset_names[];

/* ------------------------------------------------------------ access log */

enum bt_sim_op {
	BT_SIM_RDMSR = 1,
	BT_SIM_WRMSR,
	BT_SIM_RDPMC,
	BT_SIM_WINDOW_BEGIN,       /* after the start write of run_window */
	BT_SIM_WINDOW_END,         /* before the stop write */
	BT_SIM_RDTSC,              /* index 0, value = the TSC read */
};

struct bt_sim_log_entry {
	uint8_t op;                /* enum bt_sim_op */
	bool faulted;
	uint32_t index;            /* MSR address, or RDPMC ECX */
	uint64_t value;            /* written or read value */
};

/* ------------------------------------------------------------ register file */

#define BT_SIM_MAX_GP 16
#define BT_SIM_MAX_FIXED 8

/* Every register the simulated PMU keeps (free-running TSC, APERF, MPERF
 * and SMI_COUNT excluded): what "the MSR state" means in restore checks.
 * IA32_DEBUGCTL is here because the driver may set FREEZE_WHILE_SMM in it. */
struct bt_sim_regs {
	uint64_t evtsel[BT_SIM_MAX_GP];
	uint64_t ctr[BT_SIM_MAX_GP];
	uint64_t fixed_ctr[BT_SIM_MAX_FIXED];
	uint64_t fixed_ctrl;
	uint64_t global_ctrl;      /* Intel GLOBAL_CTRL or AMD PerfCntrGlobalCtl */
	uint64_t global_status;
	uint64_t perf_metrics;
	uint64_t offcore[2];
	uint64_t ldlat, frontend;
	uint64_t pebs_enable;      /* IA32_PEBS_ENABLE */
	uint64_t ds_area;          /* IA32_DS_AREA */
	uint64_t pebs_data_cfg;    /* MSR_PEBS_DATA_CFG */
	uint64_t debugctl;         /* Intel IA32_DEBUGCTL */
	uint64_t tsx_force_abort;  /* MSR_TSX_FORCE_ABORT (cfg.tsx_force_abort) */
};

#define BT_SIM_MAX_VIOLATIONS 16

struct bt_sim_vendor;

struct bt_sim {
	struct bt_arch arch;       /* hand &sim->arch to the driver */
	struct bt_sim_config cfg;
	/* The vendor's register model, from cfg.vendor (sim-internal.h). */
	const struct bt_sim_vendor *vendor;
	struct bt_sim_regs regs;
	const struct bt_sim_source *source;
	/* Sources whose entries are per-window totals of a body whose
	 * per-cycle behaviour the sim models (the known-count kernels, set by
	 * their owner): a selector with CMASK, INV, E or EQ on an encoding no
	 * entry names exactly counts what that threshold gives over the
	 * window's cycles, the entry's occurrences spread evenly over them
	 * (sim-count.c derive_per_cycle). Any other source counts only the
	 * encodings it names (a workload model's events). NULL: none. */
	const struct bt_sim_source *per_cycle[2];
	/* A second body's counts, used by a window that runs its `body` when
	 * `source` is for another body (--validate: `source` models the
	 * kernel, this one kernel `empty`, which calibrates the window).
	 * NULL: none. */
	const struct bt_sim_source *source_alt;

	/* PERF_METRICS model: slot counts per field, and whether FIXED_CTR3 was
	 * written without PERF_METRICS being written after it. */
	uint64_t pm_acc[8];
	bool pm_stale;

	/* Restore checks with counters left running: what the counters counted
	 * outside windows while configured exactly as found at the checkpoint
	 * (the firmware's own counting of the driver's instructions, which no
	 * driver can undo), before the counter was first written and after it
	 * was last written; what it counted in between, a write replaced. See
	 * bt_sim_checkpoint(). */
	struct bt_sim_regs found;
	uint64_t found_pre_gp[BT_SIM_MAX_GP], found_post_gp[BT_SIM_MAX_GP];
	uint64_t found_pre_fixed[BT_SIM_MAX_FIXED], found_post_fixed[BT_SIM_MAX_FIXED];
	uint32_t written_gp, written_fixed;

	uint64_t tsc, aperf, mperf;
	uint32_t smi;

	/* The next window runs iterations [part_begin, part_end) of
	 * part_total of its body (bt_window_part): it counts that share of
	 * the source, floor(n * end / total) - floor(n * begin / total) of a
	 * count n, so a run's parts add up to n exactly. part_total 0: the
	 * whole body. Cleared by the window. */
	uint64_t part_begin, part_end, part_total;

	/* The amd-alias-split defect: the legacy PerfEvtSel0-3 / PerfCtr0-3
	 * as registers of their own (they hold values and never count). */
	uint64_t amd_split_sel[4], amd_split_ctr[4];
	bool in_window;

	/* Counting windows run (run_window), for the many-CPU double's
	 * record of which CPU's PMU counted. */
	uint64_t windows;

	/* Fault injection: fault the Nth MSR/RDPMC access (1-based; 0 = off),
	 * or every access matching op (0 = any) and msr. */
	uint64_t access_count;
	uint64_t fault_at;
	uint8_t fault_op;
	uint32_t fault_msr;
	bool fault_msr_armed;

	/* SMI injection (bt_sim_smi, sim-count.c): one SMI is delivered right
	 * after the smi_after-th access, counted from when it is armed, that
	 * matches smi_op (0 = any) and smi_msr (MSR address or RDPMC ECX), as
	 * between two of the driver's instructions; 0 = none armed. Counted in
	 * smis_injected. */
	uint32_t smi_after;
	uint8_t smi_op;
	uint32_t smi_msr;
	/* One SMI lands halfway through the smi_window_after-th counting
	 * window from when it is armed (as cfg.smi_per_window does in every
	 * window; sim-count.c); 0 = none armed. Counted in smis_injected. */
	uint32_t smi_window_after;
	uint32_t smis_injected;

	struct bt_sim_log_entry *log;
	size_t log_len, log_cap;
	bool log_overflow;

	/* Timed PEBS (cfg.pebs_timing): the retire latency, in core cycles, of
	 * the n-th record of general counter i counting evtsel, with
	 * MSR_PEBS_FRONTEND holding frontend (what a FRONTEND_RETIRED.* event
	 * counts: its EVTSEL and bubble fields; a count source's model; the sim
	 * saturates it at 65535). NULL: 0. Records written and those a full
	 * buffer dropped. */
	uint32_t (*pebs_latency)(void *ctx, unsigned i, uint64_t evtsel, uint64_t frontend, uint64_t n);
	void *pebs_latency_ctx;
	uint64_t pebs_records, pebs_dropped;

	/* The SMT sibling (bt_sim_set_sibling_active): the fraction of this
	 * thread's unhalted cycles in a window during which the other thread
	 * of the core was active; sibling_set false: never set, the count
	 * sources answer alone (as before the knob existed). */
	double sibling_active;
	bool sibling_set;

	char violations[BT_SIM_MAX_VIOLATIONS][160];
	int n_violations;
	char source_error[320];    /* a count the model cannot represent */
};

/* Set up a simulated PMU. cfg is copied. The register file starts in a
 * plausible "left by firmware" state (see sim-core.c). */
bt_status bt_sim_init(struct bt_sim *sim, const struct bt_sim_config *cfg);
/* Why bt_sim_init refuses cfg (in buf, or a constant), or NULL when it
 * does not. */
const char *bt_sim_config_problem(const struct bt_sim_config *cfg, char *buf, size_t len);
void bt_sim_free(struct bt_sim *sim);
void bt_sim_set_source(struct bt_sim *sim, const struct bt_sim_source *src);

void bt_sim_snapshot(const struct bt_sim *sim, struct bt_sim_regs *ret);
/* true if equal; otherwise writes the first difference into diff. */
bool bt_sim_regs_equal(const struct bt_sim_regs *a, const struct bt_sim_regs *b,
		       char *diff, size_t difflen);

/* Restore checks that also hold when counters were left running: take the
 * checkpoint before the driver runs, then bt_sim_restored() compares the
 * register file with it, allowing exactly the counts that counters made
 * while configured as found (counting the driver's accesses before it
 * stopped them and after it restarted them). With nothing left running this
 * is bt_sim_regs_equal(). */
void bt_sim_checkpoint(struct bt_sim *sim, struct bt_sim_regs *ret);
bool bt_sim_restored(const struct bt_sim *sim, const struct bt_sim_regs *checkpoint,
		     char *diff, size_t difflen);

/* Deliver one SMI now, outside a window (Intel): MSR_SMI_COUNT counts it;
 * without IA32_DEBUGCTL.FREEZE_WHILE_SMM every counter counting in ring 0
 * counts the handler's work (cfg.smm_counts_per_smi); with it the handler
 * adds nothing and RSM sets IA32_PERF_GLOBAL_CTRL's enables to 1, as the SDM
 * says, so armed selectors count whatever the driver does next. */
void bt_sim_smi(struct bt_sim *sim);

/*
 * The SMT sibling, per simulated CPU: `fraction` (clamped to 0..1) of the
 * window's unhalted cycles of this logical processor during which the
 * other logical processor of its core was active too (0, the default:
 * the sibling idles). The sibling is modelled as active only while this
 * thread is (inside a window this thread never halts), as running work
 * with this thread's event profile in the cycles it is active, and as
 * taking half the core while both run: the count source's work (its
 * instructions, uops, misses, stall cycles) is done in more time, the C
 * unhalted cycles the thread needs alone lasting C / (1 - fraction / 2)
 * (the core clocks Linux perf's per-thread estimate THREAD / 2 * (1 +
 * ONE_THREAD_ACTIVE / REF_XCLK) then gives back as C). From then on the
 * sim answers, from the SDM's definitions (vol. 3B 20.2.3,
 * AnyThread, bit 21 of IA32_PERFEVTSELx, bit 2 of each IA32_FIXED_CTR_CTRL
 * field: "counting the associated event conditions occurring across all
 * logical processors sharing a processor core") and the model-specific
 * event tables (vol. 3B ch. 20 / perfmon event files), on Intel:
 *   - the unhalted clocks, the TSC, APERF and MPERF of the window (fixed
 *     counters 1 and 2, event 0x3C) stretched as above;
 *   - CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE (0x3C/0x02, "core crystal clock
 *     cycles when this thread is unhalted and the other thread is halted")
 *     = REF_XCLK (0x3C/0x01) x (1 - fraction);
 *   - the unhalted-clock events with AnyThread (fixed counters 1 and 2,
 *     0x3C umasks 0x00/0x01/0x02: "... when at least one thread on the
 *     physical core is unhalted"): this thread's clocks, the sibling being
 *     active only inside them;
 *   - every other AnyThread event, fixed counter 0 (instructions) included,
 *     and the events the event tables define core-wide without the bit
 *     (sim-tables.c bt_sim_core_scoped: UOPS_EXECUTED.CORE*,
 *     OFFCORE_REQUESTS_BUFFER.SQ_FULL): this thread's count n plus the
 *     sibling's, round(fraction x n), a count of cycles (CMASK set) at
 *     most the window's unhalted cycles.
 * (1 - fraction / 2 and fraction x n rounded to the nearest count.)
 * The per-thread events (no AnyThread bit, not core-scoped) count this
 * thread's work as the source gives it. Everything stays simulated.
 */
void bt_sim_set_sibling_active(struct bt_arch *sim, double fraction);
/* Back to never set: the counts as the source gives them. */
void bt_sim_clear_sibling_active(struct bt_arch *sim);

/*
 * A machine of several logical CPUs, each with a simulated PMU of its own
 * (the hosted machine double, host/machine-double.h). A count source
 * built for it (synth/sim-run.h) counts through the PMUs of the machine's
 * CPUs of its kind: one struct bt_sim per such CPU, each with the source's
 * configuration (plus defects injected into that CPU alone), the same
 * count sources attached to all; its arch is the machine's, which forwards
 * every access to the PMU of the CPU that makes it. So what runs on CPU 0
 * counts on CPU 0's PMU, whichever kind of core the code meant to program.
 */
struct bt_sim_machine {
	void *ctx;
	uint32_t n_cpus;
	/* A PMU of configuration cfg on each CPU of that kind (any defect
	 * meant for that CPU alone added), into ret (room for n_cpus): how
	 * many, 0 with the reason in d. They are the machine's. */
	unsigned (*pmus)(void *ctx, const struct bt_sim_config *cfg, struct bt_sim **ret,
			 struct bt_diag *d);
	/* Their user is done with them (their sources detached). */
	void (*release)(void *ctx, struct bt_sim *const *pmus, unsigned n);
	/* Forwards each access to the PMU of the calling CPU. */
	struct bt_arch *arch;
};

/* Recompute the PERF_METRICS bytes from the per-field slot counts (sets
 * source_error if a count is not floor(SLOTS*b/255) for any byte b). */
void bt_sim_pm_update(struct bt_sim *sim);

void bt_sim_log_clear(struct bt_sim *sim);
/* Index of the first log entry at or after `from` matching op/msr, or -1. */
long bt_sim_log_find(const struct bt_sim *sim, size_t from, uint8_t op, uint32_t index);


#endif
