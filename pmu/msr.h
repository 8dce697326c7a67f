/* SPDX-License-Identifier: MIT */
/*
 * The PMU registers baretop programs, and nothing else (cf. EDK2's
 * ArchitecturalMsr.h, of which we keep only the ~25 registers we touch).
 *
 * Sources: Intel SDM vol. 3B ch. 20 "Performance Monitoring" (numbered 18 in
 * editions before 2023), vol. 2B RDPMC, vol. 4 "Model-Specific Registers";
 * AMD APM vol. 2 rev. 3.4x §13.2 "Performance Monitoring Counters" and the
 * family 19h PPRs for PerfMonV2. Bit positions were checked against those and
 * against Linux arch/x86/include/asm/{perf_event.h,msr-index.h} as a second
 * source (facts only).
 */
#ifndef PMU_MSR_H
#define PMU_MSR_H

#include <stddef.h>
#include <stdint.h>

#define BT_BIT(n) (1ull << (n))

/* ------------------------------------------------------------------ Intel */

/* IA32_PMCx (R/W), x < CPUID.0AH:EAX[15:8]. A WRMSR writes bits 31:0 and
 * sign-extends bit 31 into the upper implemented bits (SDM 20.2.6 "Full-Width
 * Writes to Performance Counter Registers"). */
#define MSR_IA32_PMC0           0x0C1u
/* IA32_A_PMCx (R/W): the same counters with full-width writes; exists only
 * if IA32_PERF_CAPABILITIES[13] (FW_WRITE). */
#define MSR_IA32_A_PMC0         0x4C1u
/* IA32_PERFEVTSELx (R/W). */
#define MSR_IA32_PERFEVTSEL0    0x186u
/* IA32_FIXED_CTRx (R/W): 0 INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.THREAD,
 * 2 CPU_CLK_UNHALTED.REF_TSC, 3 TOPDOWN.SLOTS (ICL+). Full-width writes. */
#define MSR_IA32_FIXED_CTR0     0x309u
/* IA32_BIOS_SIGN_ID (R/W, SDM vol. 3A "Microcode Update Signature"): write 0,
 * execute CPUID(1), read: the loaded microcode revision is in [63:32]. AMD's
 * PATCH_LEVEL (RO) sits at the same address, revision in [31:0]. */
#define MSR_IA32_BIOS_SIGN_ID   0x08Bu
#define MSR_AMD_PATCH_LEVEL     0x08Bu
#define MSR_IA32_PERF_CAPABILITIES 0x345u /* RO; exists iff CPUID.01H:ECX[15] PDCM */
/* MSR_PLATFORM_INFO (RO, Nehalem and later; SDM vol. 4, the Sandy Bridge,
 * Ivy Bridge, Haswell and Broadwell tables): [15:8] Maximum Non-Turbo
 * Ratio, "the ratio of the frequency that invariant TSC runs at.
 * Frequency = ratio * 100 MHz" (Sandy Bridge and later). */
#define MSR_PLATFORM_INFO       0x0CEu
#define PLATFORM_INFO_RATIO(v)  ((uint32_t)((v) >> 8) & 0xFFu)
#define MSR_IA32_FIXED_CTR_CTRL 0x38Du
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38Eu  /* RO */
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38Fu
/* IA32_PERF_GLOBAL_OVF_CTRL (v2, v3) = IA32_PERF_GLOBAL_STATUS_RESET (v4+):
 * write 1 to clear the matching GLOBAL_STATUS bit. */
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390u
/* IA32_PERF_GLOBAL_STATUS_SET (v4+): write 1 to set a GLOBAL_STATUS bit. */
#define MSR_IA32_PERF_GLOBAL_STATUS_SET 0x391u
/* Architectural perfmon v6 MSR range, used for every counter when
 * CPUID.0AH:EAX[7:0] >= 6 (Linux commit 149fd4712bcd "perf/x86/intel:
 * Support Perfmon MSRs aliasing", msr-index.h MSR_IA32_PMC_V6_*): GP counter
 * n at 0x1900 + 4n, its event select at 0x1901 + 4n, fixed counter n at
 * 0x1980 + 4n. The legacy IA32_PMC0-7 / PERFEVTSEL0-7 alias counters 0-7
 * only: counters 8 and up exist only here. FIXED_CTR_CTRL does not move. */
#define MSR_IA32_PMC_V6_GP0_CTR   0x1900u
#define MSR_IA32_PMC_V6_GP0_CFG_A 0x1901u
#define MSR_IA32_PMC_V6_FX0_CTR   0x1980u
#define MSR_IA32_PMC_V6_STEP      4u
/* MSR_PERF_METRICS (R/W): 8 one-byte fractions of TOPDOWN.SLOTS; exists iff
 * IA32_PERF_CAPABILITIES[15]. Byte order: enum bt_perf_metrics_field. */
#define MSR_PERF_METRICS        0x329u
#define MSR_OFFCORE_RSP_0       0x1A6u
#define MSR_OFFCORE_RSP_1       0x1A7u
/* IA32_PEBS_ENABLE (R/W, where PEBS exists): bit n arms PEBS on counter n;
 * firmware may have armed it with its own DS area, so baretop saves it,
 * clears it for the session and puts it back at close (intel-pmu.c). */
#define MSR_IA32_PEBS_ENABLE    0x3F1u
#define MSR_PEBS_LD_LAT         0x3F6u  /* [15:0] load latency threshold (min. 3); needs PEBS */
#define MSR_PEBS_FRONTEND       0x3F7u  /* FRONTEND_RETIRED qualifier; bits per core: extra-msr.c */
#define MSR_PEBS_DATA_CFG       0x3F2u  /* adaptive PEBS record groups (PERF_CAPABILITIES[14]) */
#define MSR_IA32_DS_AREA        0x600u  /* linear address of the DS save area (canonical) */
/* MSR_SMI_COUNT (RO, SDM vol. 4, Nehalem and later): [31:0] SMIs since
 * reset. Not architectural: a VMM may not emulate it (#GP), so the session
 * reads it once at open before relying on it (pmu-session.c). */
#define MSR_SMI_COUNT           0x034u
/* IA32_MISC_ENABLE (SDM vol. 4 Table 2-2 at 1A0H): bit 12 "Processor Event
 * Based Sampling Unavailable" (RO). PEBS exists when CPUID.01H:EDX[21] (DS)
 * is set and this bit is clear: Linux's X86_FEATURE_PEBS
 * (arch/x86/kernel/cpu/intel.c init_intel). */
#define MSR_IA32_MISC_ENABLE    0x1A0u
/* MSR_TSX_FORCE_ABORT (0x10F, with CPUID.07H:EDX[13]; Linux msr-index.h):
 * bit 0 RTM_FORCE_ABORT, every RTM transaction aborts and IA32_PMC3 is the
 * PMU's again. */
#define MSR_TSX_FORCE_ABORT     0x10Fu
#define TFA_RTM_FORCE_ABORT     BT_BIT(0)
#define MISC_ENABLE_PEBS_UNAVAIL BT_BIT(12)
/* IA32_PERF_GLOBAL_INUSE (RO, perfmon v4+; SDM vol. 3B "IA32_PERF_GLOBAL_INUSE
 * MSR"): bit n = IA32_PERFEVTSELn[7:0] != 0, bit 32 + i = fixed counter i's
 * enable bits in IA32_FIXED_CTR_CTRL != 0, bit 63 PMI_InUse (any selector's
 * INT, a fixed counter's PMI bit, or IA32_PEBS_ENABLE[3:0]). The vol. 3B
 * text says "PMI_InUse[bit 32]": a typo, vol. 4's table and Linux
 * (MSR_CORE_PERF_GLOBAL_INUSE_PMI, BIT_ULL(63)) have bit 63. */
#define MSR_IA32_PERF_GLOBAL_INUSE 0x392u
#define GLOBAL_INUSE_PMI        BT_BIT(63)
#define MSR_IA32_MPERF          0x0E7u  /* CPUID.06H:ECX[0] */
#define MSR_IA32_APERF          0x0E8u

/* IA32_PERFEVTSELx fields (SDM 20.2.1.1, Figure 20-1; v6 fields from
 * CPUID.23H:EBX, see below). */
#define EVTSEL_EVENT_MASK       0xFFull           /* [7:0] */
#define EVTSEL_UMASK_SHIFT      8                 /* [15:8] */
#define EVTSEL_USR              BT_BIT(16)
#define EVTSEL_OS               BT_BIT(17)
#define EVTSEL_EDGE             BT_BIT(18)
#define EVTSEL_PC               BT_BIT(19)        /* pin control; reserved since Sandy Bridge */
#define EVTSEL_INT              BT_BIT(20)
#define EVTSEL_ANY              BT_BIT(21)        /* v3+, and not when CPUID.0AH:EDX[15] */
#define EVTSEL_EN               BT_BIT(22)
#define EVTSEL_INV              BT_BIT(23)
#define EVTSEL_CMASK_SHIFT      24                /* [31:24] */
#define EVTSEL_IN_TX            BT_BIT(32)        /* TSX parts only; baretop never sets it */
#define EVTSEL_IN_TXCP          BT_BIT(33)
#define EVTSEL_EQ               BT_BIT(36)        /* CPUID.23H:EBX[1] */
#define EVTSEL_UMASK2_SHIFT     40                /* [47:40], CPUID.23H:EBX[0] */

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter i at bits 4i+3:4i
 * (SDM 20.2.2, Figure 20-2): bit 0 OS (ring 0), bit 1 USR (ring > 0),
 * bit 2 AnyThread (v3+, reserved when deprecated), bit 3 PMI. */
#define FIXED_CTRL_OS           0x1ull
#define FIXED_CTRL_USR          0x2ull
#define FIXED_CTRL_ANY          0x4ull
#define FIXED_CTRL_PMI          0x8ull
#define FIXED_CTRL_SHIFT(i)     (4u * (unsigned)(i))

/* IA32_PERF_GLOBAL_CTRL / STATUS / OVF_CTRL: bit n = IA32_PMCn, bit 32+i =
 * IA32_FIXED_CTRi, bit 48 = PERF_METRICS (enable / overflow) on parts with
 * IA32_PERF_CAPABILITIES[15] (SDM 20.3.9.3 "Performance Metrics"). */
#define GLOBAL_FIXED_SHIFT      32
#define GLOBAL_PERF_METRICS     BT_BIT(48)
/* GLOBAL_STATUS bits other than the counters' (SDM vol. 4 Table 2-2):
 * 55 Trace_ToPA_PMI, 58 LBR_Frz (v4), 59 CTR_Frz (v4), 60 ASCI, 61
 * Ovf_Uncore, 62 OvfBuf (DS), 63 CondChgd. STATUS_RESET (v4) clears any of
 * them; OVF_CTRL (v2/v3) has 55, 61, 62, 63; STATUS_SET (v4) sets 55, 58-62
 * but not 63 (reserved: CondChgd cannot be set). CTR_Frz stops every
 * counter: a v4 counter counts only when its enables are set and CTR_Frz
 * is clear (SDM 20.2.4 "Architectural Performance Monitoring Version 4"). */
#define GLOBAL_STATUS_LBR_FRZ   BT_BIT(58)
#define GLOBAL_STATUS_CTR_FRZ   BT_BIT(59)
#define GLOBAL_STATUS_OVF_BUF   BT_BIT(62)
#define GLOBAL_STATUS_COND_CHGD BT_BIT(63)

/* IA32_DEBUGCTL (R/W; SDM vol. 3B "IA32_DEBUGCTL MSR" in the debug chapter,
 * vol. 4 Table 2-2 address 1D9H). Bits: 0 LBR, 1 BTF, 2 BUS_LOCK_DETECT
 * (CPUID.(07H,0):ECX[24]), 6 TR, 7 BTS, 8 BTINT, 9 BTS_OFF_OS, 10
 * BTS_OFF_USR, 11 FREEZE_LBRS_ON_PMI, 12 FREEZE_PERFMON_ON_PMI, 13
 * ENABLE_UNCORE_PMI, 14 FREEZE_WHILE_SMM, 15 RTM_DEBUG; the rest reserved.
 * Firmware or a debugger may own the others: baretop only ever sets bit 14,
 * by read-modify-write, and puts the register back at close.
 *
 * FREEZE_WHILE_SMM (bit 14), writable only if IA32_PERF_CAPABILITIES[12]
 * (SDM vol. 3B "Filtering of SMM Handler Overhead", 18.18.1 in the 2016
 * edition): on SMI delivery the processor clears the enables of
 * IA32_PERF_GLOBAL_CTRL (and LBR/BTF/TR/BTS), so the SMI handler's work is
 * not counted, and after RSM "the enable bits of IA32_PERF_GLOBAL_CTRL will
 * be set to 1" -- read literally, whatever they were before the SMI
 * (pmu-session.h: SMIs outside the window). Linux: DEBUGCTLMSR_FREEZE_IN_SMM,
 * the freeze_on_smi attribute. */
#define MSR_IA32_DEBUGCTL       0x1D9u
#define DEBUGCTL_FREEZE_WHILE_SMM BT_BIT(14)

/* IA32_PERF_CAPABILITIES bits used here (SDM vol. 4 Table 2-2; vol. 3B
 * "IA32_PERF_CAPABILITIES MSR Enumeration"). */
#define PERF_CAP_FREEZE_WHILE_SMM BT_BIT(12) /* SMM_FRZ: DEBUGCTL[14] exists */
#define PERF_CAP_FW_WRITE       BT_BIT(13)
#define PERF_CAP_PERF_METRICS   BT_BIT(15)

/* RDPMC ECX (SDM vol. 2B RDPMC; vol. 3B 20.3.9.3): bit 30 = fixed counter
 * (index in the low bits), bit 29 = PERF_METRICS (low bits 0). */
#define RDPMC_FIXED             BT_BIT(30)
#define RDPMC_PERF_METRICS      BT_BIT(29)

/* -------------------------------------------------------------------- AMD */

/* Legacy PerfEvtSel0-3 / PerfCtr0-3 (APM vol. 2 §13.2.1). On parts with the
 * core extension they alias core counters 0-3. */
#define MSR_AMD_PERFEVTSEL0     0xC0010000u
#define MSR_AMD_PERFCTR0        0xC0010004u
/* Core performance counter extension, CPUID 8000_0001h:ECX[23] PerfCtrExtCore:
 * PerfEvtSel n at 0xC0010200 + 2n, PerfCtr n at 0xC0010201 + 2n, n = 0..5. */
#define MSR_AMD_CORE_EVTSEL0    0xC0010200u
#define MSR_AMD_CORE_CTR0       0xC0010201u
/* PerfMonV2, CPUID 8000_0022h:EAX[0] (Zen 4+; PPR for family 19h):
 * GlobalCtl bit n enables counter n, ANDed with PerfEvtSel.En. */
#define MSR_AMD_PERF_GLOBAL_STATUS     0xC0000300u /* RO */
#define MSR_AMD_PERF_GLOBAL_CTL        0xC0000301u
#define MSR_AMD_PERF_GLOBAL_STATUS_CLR 0xC0000302u
#define MSR_AMD_PERF_GLOBAL_STATUS_SET 0xC0000303u

/* AMD PerfEvtSel fields (APM vol. 2 Figure 13-7): EventSelect[7:0] at 7:0 and
 * EventSelect[11:8] at 35:32, UnitMask 15:8, USR 16, OS 17, Edge 18, Int 20,
 * En 22, Inv 23, CntMask 31:24, GuestOnly 40, HostOnly 41. Bits 19, 21,
 * 39:36 and 63:42 are reserved. */
#define AMD_EVTSEL_EVENT_HI_SHIFT 32
#define AMD_EVTSEL_GUESTONLY    BT_BIT(40)
#define AMD_EVTSEL_HOSTONLY     BT_BIT(41)
#define AMD_EVTSEL_VALID        ((0xFFFFFFFFull & ~(EVTSEL_PC | EVTSEL_ANY)) | \
				 (0xFull << 32) | AMD_EVTSEL_GUESTONLY | AMD_EVTSEL_HOSTONLY)
#define AMD_COUNTER_WIDTH       48

/* Name of a PMU register for messages ("IA32_PERFEVTSEL2"; "MSR" when it
 * has none: callers print the address too); len >= 32. */
const char *bt_msr_name(uint32_t msr, char *buf, size_t len);

#endif
