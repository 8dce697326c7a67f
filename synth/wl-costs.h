/* SPDX-License-Identifier: MIT */
/*
 * The workload model's costs in core cycles (synth/workload-counts.c turns
 * stall cycles into event counts with them), shared with the retire
 * latencies the simulated PMU writes into timed-PEBS records
 * (synth/pebs-latency.c), so that a measured EVENT:R and the counts it
 * multiplies come from one model. Orders of magnitude of a current Intel
 * core, not measurements: a mispredict's recovery, a load hitting L2, L3
 * or DRAM, a machine clear, a locked load, a page walk.
 */
#ifndef SYNTH_WL_COSTS_H
#define SYNTH_WL_COSTS_H

#include <stdint.h>

#define BT_WL_CYC_MISPREDICT 16.0
#define BT_WL_CYC_CLEAR 40.0
/* A load served by L2, L3, DRAM: only where no memory hierarchy is given
 * (unit tests); a run uses its simulated CPU's latencies (mem-hierarchy.h). */
#define BT_WL_CYC_L2_HIT 14.0
#define BT_WL_CYC_L3_HIT 100.0
#define BT_WL_CYC_DRAM 250.0
#define BT_WL_CYC_LOCK 40.0
#define BT_WL_CYC_STLB_MISS 30.0
/* A load that misses the first-level DTLB and hits the STLB: ~7-9 cycles
 * more than an L1 hit (Intel's TMA formulas weigh an STLB hit with 7, SKL's
 * with 9: Mem_STLB_Hit_Cost). */
#define BT_WL_CYC_STLB_HIT 9.0
/* A load or RFO served by a snoop of a line another core modified (HITM):
 * tens of ns, 240 cycles = 80 ns at the simulated 3 GHz clock (Intel's
 * server formulas weigh a local HITM with 81 ns, client ones with 25-28). */
#define BT_WL_CYC_HITM 240.0
/* A load blocked on store forwarding: Intel's Store_Fwd_Blk weighs each
 * LD_BLOCKS.STORE_FORWARD with 13 cycles. */
#define BT_WL_CYC_STORE_FWD 13.0
/* The data TLB's reach in the model: a 4-KiB page, and the STLB's 4-KiB
 * entries (Skylake's 1536, the smallest of the modelled Intel P-cores). */
#define BT_WL_PAGE_BYTES 4096.0
#define BT_WL_STLB_ENTRIES 1536.0
#define BT_WL_CYC_SPLIT 8.0
#define BT_WL_CYC_ICACHE_MISS 20.0
/* The code side (FRONTEND_RETIRED.* sub-events, MSR_PEBS_FRONTEND EVTSEL):
 * a code fetch missing L2, an ITLB miss (mostly STLB hits), a code page
 * walk, a DSB-to-legacy-decode switch. A tenth of the L1I misses miss L2
 * and a tenth of the ITLB misses miss the STLB (BT_WL_CODE_FAR), so a
 * parent's latency covers its children's (Code_L2_Hit stays >= 0). */
#define BT_WL_CYC_CODE_L2_MISS 60.0
#define BT_WL_CYC_ITLB_MISS 20.0
#define BT_WL_CYC_CODE_WALK 80.0
#define BT_WL_CYC_DSB_MISS 4.0
#define BT_WL_CODE_FAR 0.1

/* The simulated PMU's pebs_latency hook (arch/sim/sim.h): the retire
 * latency of the n-th record of a general counter programmed with evtsel
 * (and, for FRONTEND_RETIRED.*, MSR_PEBS_FRONTEND holding frontend), from
 * the costs above by event code and umask (and frontend EVTSEL), spread +-25 %
 * deterministically over the records. */
uint32_t bt_synth_pebs_latency(void *ctx, unsigned counter, uint64_t evtsel, uint64_t frontend,
			       uint64_t n);

#endif
