/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's own register facts, written from the manuals and kept
 * apart from the driver's pmu/msr.h on purpose: the sim is the oracle the
 * driver is tested against, so a wrong address or bit position in either
 * file makes the two disagree and a test fail, instead of both agreeing on
 * the same mistake. Do not include pmu/msr.h in the sim's register model.
 *
 * Sources (checked entry by entry): Intel SDM vol. 3B ch. 20 "Performance
 * Monitoring" (ch. 18 before 2023), vol. 2B RDPMC, vol. 4 Table 2-2
 * "IA-32 Architectural MSRs" (as transcribed in EDK2's
 * MdePkg/Include/Register/Intel/ArchitecturalMsr.h); AMD APM vol. 2 §13.2
 * and the family 19h PPR (PerfMonV2). Facts from Linux
 * arch/x86/events/intel/core.c and arch/x86/include/asm/msr-index.h are
 * used where the SDM is silent; each such use says so.
 */
#ifndef ARCH_SIM_SIM_REGS_H
#define ARCH_SIM_SIM_REGS_H

#include <stdint.h>

#define SIM_BIT(n) (1ull << (n))

static inline uint64_t sim_width_mask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* ------------------------------------------------------------ Intel MSRs */

#define SIM_IA32_PMC0               0x0C1u /* IA32_PMC0..7: 0xC1..0xC8 */
#define SIM_IA32_PERFEVTSEL0        0x186u /* IA32_PERFEVTSEL0..7: 0x186..0x18D */
#define SIM_IA32_A_PMC0             0x4C1u /* full-width aliases, PERF_CAPABILITIES[13] */
#define SIM_LEGACY_GP_MAX           8      /* the SDM defines 8 of each, no more */
#define SIM_IA32_FIXED_CTR0         0x309u
#define SIM_IA32_PERF_CAPABILITIES  0x345u
#define SIM_IA32_FIXED_CTR_CTRL     0x38Du
#define SIM_IA32_PERF_GLOBAL_STATUS 0x38Eu /* RO */
#define SIM_IA32_PERF_GLOBAL_CTRL   0x38Fu
#define SIM_IA32_PERF_GLOBAL_STATUS_RESET 0x390u /* = OVF_CTRL on v2/v3 */
#define SIM_IA32_PERF_GLOBAL_STATUS_SET   0x391u /* v4+ */
#define SIM_MSR_PERF_METRICS        0x329u
#define SIM_MSR_OFFCORE_RSP_0       0x1A6u
#define SIM_MSR_OFFCORE_RSP_1       0x1A7u
#define SIM_IA32_PEBS_ENABLE        0x3F1u
#define SIM_MSR_PEBS_LD_LAT         0x3F6u
#define SIM_MSR_PEBS_FRONTEND       0x3F7u
#define SIM_MSR_PEBS_DATA_CFG       0x3F2u /* adaptive PEBS: the record groups */
#define SIM_IA32_DS_AREA            0x600u /* linear address of the DS save area */
#define SIM_MSR_SMI_COUNT           0x034u
#define SIM_IA32_MPERF              0x0E7u
#define SIM_IA32_APERF              0x0E8u
#define SIM_IA32_DEBUGCTL           0x1D9u
#define SIM_IA32_MISC_ENABLE        0x1A0u
/* MSR_PLATFORM_INFO (RO; SDM vol. 4): [15:8] Maximum Non-Turbo Ratio, the
 * TSC's frequency in 100 MHz (Sandy Bridge and later). */
#define SIM_MSR_PLATFORM_INFO       0x0CEu
/* MSR_TSX_FORCE_ABORT (0x10F; Linux msr-index.h, MSR_TFA_RTM_FORCE_ABORT
 * bit 0), present with CPUID.07H:EDX[13]. */
#define SIM_MSR_TSX_FORCE_ABORT     0x10Fu
#define SIM_TFA_RTM_FORCE_ABORT     SIM_BIT(0)
#define SIM_IA32_PERF_GLOBAL_INUSE  0x392u /* RO, perfmon v4+ */

/* IA32_MISC_ENABLE (SDM vol. 4 Table 2-2 at 1A0H): 7 Performance
 * Monitoring Available (RO), 11 Branch Trace Storage Unavailable (RO), 12
 * Processor Event Based Sampling (PEBS) Unavailable (RO): 1 = PEBS is not
 * supported. Linux sets X86_FEATURE_PEBS when CPUID.01H:EDX[21] (DS) is set
 * and bit 12 is clear (arch/x86/kernel/cpu/intel.c init_intel). */
#define SIM_MISC_PERFMON_AVAIL      SIM_BIT(7)
#define SIM_MISC_BTS_UNAVAIL        SIM_BIT(11)
#define SIM_MISC_PEBS_UNAVAIL       SIM_BIT(12)

/* IA32_PERF_GLOBAL_INUSE (SDM vol. 3B "IA32_PERF_GLOBAL_INUSE MSR", 20.2.4.3
 * in recent editions, 18.2.4.3 in 2016's; vol. 4 Table 2-2 at 392H):
 * bit n = (IA32_PERFEVTSELn[7:0] != 0); bit 32 + i = (IA32_FIXED_CTR_CTRL
 * field i's enable bits [4i+1:4i] != 0); PMI_InUse = any
 * IA32_PERFEVTSELn.INT, any FIXED_CTR_CTRL ENi_PMI, or
 * IA32_PEBS_ENABLE.EN_PMCi, i = 0..3. The vol. 3B text names PMI_InUse
 * "[bit 32]", a typo: bit 32 is FC0_InUse, and vol. 4's table (EDK2's
 * ArchitecturalMsr.h transcribes it as IA32_FIXED_CTRn bits 62:32, PMI bit
 * 63), Linux msr-index.h MSR_CORE_PERF_GLOBAL_INUSE_PMI = BIT_ULL(63) and
 * KVM's proposed emulation all put it at 63. */
#define SIM_INUSE_PMI               SIM_BIT(63)

/* IA32_DEBUGCTL (SDM vol. 4 Table 2-2 at 1D9H; vol. 3B "IA32_DEBUGCTL
 * MSR"): 0 LBR, 1 BTF, 2 BUS_LOCK_DETECT (if CPUID.(07H,0):ECX[24]), 5:3
 * reserved, 6 TR, 7 BTS, 8 BTINT, 9 BTS_OFF_OS, 10 BTS_OFF_USR, 11
 * FREEZE_LBRS_ON_PMI and 12 FREEZE_PERFMON_ON_PMI (if CPUID.01H:ECX[15] and
 * perfmon version > 1), 13 ENABLE_UNCORE_PMI (06_1AH, Nehalem, and later),
 * 14 FREEZE_WHILE_SMM (if IA32_PERF_CAPABILITIES[12]), 15 RTM_DEBUG (if
 * CPUID.(07H,0):EBX[11] RTM), 63:16 reserved. A WRMSR setting a bit that is
 * reserved here raises #GP. The sim reports neither bus-lock detection nor
 * RTM, so bits 2 and 15 are reserved in it. Linux msr-index.h
 * DEBUGCTLMSR_* agrees (second source). */
#define SIM_DBG_LBR                 SIM_BIT(0)
#define SIM_DBG_BTF                 SIM_BIT(1)
#define SIM_DBG_TR_BTS_BITS         (0x1Full << 6)  /* TR, BTS, BTINT, BTS_OFF_OS/USR */
#define SIM_DBG_FREEZE_LBRS_ON_PMI  SIM_BIT(11)
#define SIM_DBG_FREEZE_PERFMON_ON_PMI SIM_BIT(12)
#define SIM_DBG_ENABLE_UNCORE_PMI   SIM_BIT(13)
#define SIM_DBG_FREEZE_WHILE_SMM    SIM_BIT(14)

/* Architectural perfmon v6 MSR range (Linux commit 149fd4712bcd "Support
 * Perfmon MSRs aliasing"; msr-index.h MSR_IA32_PMC_V6_*): GP counter n at
 * 0x1900 + 4n, its event select (CFG_A) at 0x1901 + 4n, fixed counter n at
 * 0x1980 + 4n. CFG_B/CFG_C (+2, +3) are not modelled (access faults). */
#define SIM_V6_GP0_CTR              0x1900u
#define SIM_V6_GP0_CFG_A            0x1901u
#define SIM_V6_FX0_CTR              0x1980u
#define SIM_V6_STEP                 4u

/* IA32_PERFEVTSELx (SDM Figure 20-1/20-6; EQ and UMASK2 from CPUID.23H). */
#define SIM_SEL_UMASK_SHIFT  8
#define SIM_SEL_USR          SIM_BIT(16)
#define SIM_SEL_OS           SIM_BIT(17)
#define SIM_SEL_EDGE         SIM_BIT(18)
#define SIM_SEL_INT          SIM_BIT(20)
#define SIM_SEL_ANY          SIM_BIT(21)
#define SIM_SEL_EN           SIM_BIT(22)
#define SIM_SEL_INV          SIM_BIT(23)
#define SIM_SEL_CMASK_SHIFT  24
#define SIM_SEL_EQ           SIM_BIT(36)
#define SIM_SEL_UMASK2_SHIFT 40

/* IA32_FIXED_CTR_CTRL: 4 bits per counter at 4i (SDM Figure 20-2):
 * [0] OS, [1] USR, [2] AnyThread, [3] PMI. Bit 14 (the AnyThread position of
 * counter 3) is METRICS_CLEAR_EN when IA32_PERF_CAPABILITIES[19]
 * (RDPMC_METRICS_CLEAR) is set (SDM vol. 2B RDPMC). */
#define SIM_FIX_OS           0x1ull
#define SIM_FIX_USR          0x2ull
#define SIM_FIX_ANY          0x4ull
#define SIM_FIX_PMI          0x8ull
#define SIM_FIX_SHIFT(i)     (4u * (unsigned)(i))
#define SIM_FIX_METRICS_CLEAR_EN SIM_BIT(14)

/* GLOBAL_CTRL / GLOBAL_STATUS: bit n = PMCn, bit 32 + i = FIXED_CTRi,
 * bit 48 = PERF_METRICS (SDM 20.3.9.3). GLOBAL_STATUS's other bits (SDM
 * vol. 4 Table 2-2): 55 Trace_ToPA_PMI, 58 LBR_Frz (v4), 59 CTR_Frz (v4),
 * 60 ASCI, 61 Ovf_Uncore, 62 OvfBuf, 63 CondChgd. */
#define SIM_GLOBAL_FIXED_SHIFT 32
#define SIM_GLOBAL_PM        SIM_BIT(48)
#define SIM_ST_TOPA_PMI      SIM_BIT(55)
#define SIM_ST_LBR_FRZ       SIM_BIT(58)
#define SIM_ST_CTR_FRZ       SIM_BIT(59)
#define SIM_ST_ASCI          SIM_BIT(60)
#define SIM_ST_OVF_UNCORE    SIM_BIT(61)
#define SIM_ST_OVF_BUF       SIM_BIT(62)
#define SIM_ST_COND_CHGD     SIM_BIT(63)

/* Writable non-counter bits (SDM vol. 4 Table 2-2):
 *   IA32_PERF_GLOBAL_OVF_CTRL (v2, v3): 55 (Broadwell has Intel PT ToPA on
 *     v3), 61 (from 06_2EH), 62, 63;
 *   IA32_PERF_GLOBAL_STATUS_RESET (v4+): 55, 58, 59, 60, 61, 62, 63;
 *   IA32_PERF_GLOBAL_STATUS_SET (v4+): 55, 58, 59, 60, 61, 62 -- bit 63 is
 *     reserved: CondChgd cannot be set by software. */
#define SIM_OVF_CTRL_OTHER   (SIM_ST_TOPA_PMI | SIM_ST_OVF_UNCORE | SIM_ST_OVF_BUF | \
			      SIM_ST_COND_CHGD)
#define SIM_OVF_CTRL_OTHER_V2 (SIM_ST_OVF_BUF | SIM_ST_COND_CHGD)
#define SIM_STATUS_RESET_OTHER (SIM_ST_TOPA_PMI | SIM_ST_LBR_FRZ | SIM_ST_CTR_FRZ | \
				SIM_ST_ASCI | SIM_ST_OVF_UNCORE | SIM_ST_OVF_BUF | \
				SIM_ST_COND_CHGD)
#define SIM_STATUS_SET_OTHER (SIM_ST_TOPA_PMI | SIM_ST_LBR_FRZ | SIM_ST_CTR_FRZ | \
			      SIM_ST_ASCI | SIM_ST_OVF_UNCORE | SIM_ST_OVF_BUF)

/* IA32_PERF_CAPABILITIES bits the sim reports (SDM vol. 4 Table 2-2; vol.
 * 3B "IA32_PERF_CAPABILITIES MSR Enumeration": [12] SMM_FRZ). */
#define SIM_CAP_SMM_FREEZE   SIM_BIT(12)
#define SIM_CAP_FW_WRITE     SIM_BIT(13)
#define SIM_CAP_PERF_METRICS SIM_BIT(15)
#define SIM_CAP_RDPMC_METRICS_CLEAR SIM_BIT(19)
/* [14] PEBS_BASELINE (adaptive PEBS, MSR_PEBS_DATA_CFG) and [17]
 * PEBS_TIMING_INFO (the retire latency in each record's first qword):
 * Linux arch/x86/events/perf_event.h, union perf_capabilities (lbr_format
 * 0-5, pebs_trap 6, pebs_arch_reg 7, pebs_format 8-11, smm_freeze 12,
 * full_width_write 13, pebs_baseline 14, perf_metrics 15,
 * pebs_output_pt_available 16, pebs_timing_info 17). */
#define SIM_CAP_PEBS_BASELINE SIM_BIT(14)
#define SIM_CAP_PEBS_TIMING   SIM_BIT(17)

/* MSR_PEBS_DATA_CFG groups (Linux PEBS_DATACFG_*: MEMINFO 0, GP 1, XMMS 2,
 * LBRS 3, the LBR entry count in 31:24); other bits reserved. The sim
 * writes the basic group only and faults a write of any other group bit,
 * which it does not model. */
#define SIM_DATACFG_VALID     (0xFull | (0xFFull << 24))
#define SIM_DATACFG_GROUPS    0xFull

/* The DS save area as Linux's struct debug_store lays it out
 * (arch/x86/include/asm/intel_ds.h): eight qwords of BTS then PEBS
 * pointers, then pebs_event_reset[], one reload value per general counter
 * from qword 8 (the fixed counters' at MAX_PEBS_EVENTS = 32 on, which the
 * sim does not use: it arms no fixed counter for PEBS records). */
#define SIM_DS_PEBS_BASE      4u  /* qword index: pebs_buffer_base */
#define SIM_DS_PEBS_INDEX     5u
#define SIM_DS_PEBS_ABS_MAX   6u
#define SIM_DS_PEBS_THRESHOLD 7u
#define SIM_DS_PEBS_RESET     8u  /* pebs_event_reset[i] = qword 8 + i */
/* The adaptive record's basic group (Linux struct pebs_basic): qword 0
 * format_size = the record format's groups in 31:0 (0: basic only), the
 * retire latency in 47:32 (ds.c: format_size >> 32 & 0xffff when
 * PMU_FL_RETIRE_LATENCY, i.e. PERF_CAPABILITIES[17]), the record's size in
 * bytes in 63:48 (INTEL_ADAPTIVE_PEBS_SIZE_OFF); then ip,
 * applicable_counters, tsc. The latency saturates at 65535. */
#define SIM_PEBS_BASIC_BYTES  32u
#define SIM_PEBS_LAT_SHIFT    32
#define SIM_PEBS_SIZE_SHIFT   48
#define SIM_PEBS_LAT_MAX      0xFFFFu

/* RDPMC ECX (SDM vol. 2B): type in [31:16]: 0 = GP, 0x4000 = fixed
 * (ECX[30]), 0x2000 = PERF_METRICS (ECX[29], index 0). */
#define SIM_RDPMC_FIXED      (1u << 30)
#define SIM_RDPMC_METRICS    (1u << 29)

/* -------------------------------------------------------------- AMD MSRs */

#define SIM_AMD_PERFEVTSEL0  0xC0010000u /* legacy, 4 */
#define SIM_AMD_PERFCTR0     0xC0010004u
#define SIM_AMD_CORE_SEL0    0xC0010200u /* PerfEvtSel n = +2n, PerfCtr n = +2n+1 */
#define SIM_AMD_GLOBAL_STATUS 0xC0000300u
#define SIM_AMD_GLOBAL_CTL   0xC0000301u
#define SIM_AMD_GLOBAL_STATUS_CLR 0xC0000302u
#define SIM_AMD_GLOBAL_STATUS_SET 0xC0000303u
#define SIM_AMD_CTR_WIDTH    48
/* PerfEvtSel (APM vol. 2 Figure 13-7): EventSelect[7:0] 7:0, UnitMask 15:8,
 * USR 16, OS 17, Edge 18, Int 20, En 22, Inv 23, CntMask 31:24,
 * EventSelect[11:8] 35:32, GuestOnly 40, HostOnly 41; 19, 21, 39:36, 63:42
 * reserved. */
#define SIM_AMD_EVENT_HI_SHIFT 32
#define SIM_AMD_GUESTONLY    SIM_BIT(40)
#define SIM_AMD_HOSTONLY     SIM_BIT(41)
#define SIM_AMD_SEL_VALID    ((0xFFFFFFFFull & ~(SIM_BIT(19) | SIM_BIT(21))) | \
			      (0xFull << 32) | SIM_AMD_GUESTONLY | SIM_AMD_HOSTONLY)

#endif
