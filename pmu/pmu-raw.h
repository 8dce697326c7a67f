/* SPDX-License-Identifier: MIT */
/*
 * Raw register access inside an open PMU session, for the PMU conformance
 * checks (validate/conformance*.c), which exercise the counters themselves
 * rather than events: the same counter programmed directly, counters
 * preset near the top, 32-bit and full-width writes, RDPMC index rules.
 *
 * Everything goes through the session opened with bt_pmu_open(): every
 * MSR is saved (read) before its first write, under the address the
 * driver restores it through, and bt_pmu_close() puts it back (selectors,
 * fixed control, counters, PERF_METRICS, GLOBAL_STATUS, GLOBAL_CTRL last).
 * Every access goes through the arch seam's fault guard; a fault returns
 * BT_ERR_FAULT with a message naming the access and the MSR in `d`, and does
 * not mark the session failed (a conformance check reports it and the
 * others go on). The session's own error stays for bt_pmu_error().
 *
 * The address helpers are the drivers' own (intel-pmu.c and amd-pmu.c call
 * them too), so the MSR knowledge lives in one place: perfmon v6's 0x19xx
 * range, IA32_A_PMCx where IA32_PERF_CAPABILITIES[13], AMD legacy vs core
 * extension addresses.
 */
#ifndef PMU_PMU_RAW_H
#define PMU_PMU_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "pmu/cpu-info.h"
#include "pmu/pmu-session.h"

/* Selector of general counter i (IA32_PERFEVTSELx, the v6 CFG_A, AMD
 * PerfEvtSel legacy or core extension). */
uint32_t bt_pmu_gp_sel_msr(const struct bt_pmu_caps *caps, unsigned i);
/* The counter's address for reads (and saving). */
uint32_t bt_pmu_gp_ctr_msr(const struct bt_pmu_caps *caps, unsigned i);
/* The counter's address for writes: IA32_A_PMCx when full-width writes
 * exist (Intel before v6), otherwise the read address. */
uint32_t bt_pmu_gp_ctr_write_msr(const struct bt_pmu_caps *caps, unsigned i);
/* IA32_FIXED_CTRi (v6: 0x1980 + 4i). */
uint32_t bt_pmu_fixed_ctr_msr(const struct bt_pmu_caps *caps, unsigned i);
/* The register whose write starts and stops every counter at once
 * (IA32_PERF_GLOBAL_CTRL, AMD PerfCntrGlobalCtl), or 0 where there is
 * none (AMD legacy and core extension: PerfEvtSel.En only). */
uint32_t bt_pmu_global_ctrl_msr(const struct bt_pmu_caps *caps);

/* RDMSR through the fault guard. */
bt_status bt_pmu_raw_read(struct bt_pmu_session *s, uint32_t msr, uint64_t *ret,
			  struct bt_diag *d);
/* Save `save_msr` (once, reading it) then write `msr` (they differ for an
 * alias: IA32_PMCx saved under the driver's read address, AMD legacy
 * addresses under the core-extension ones). save_msr 0: nothing to save,
 * for the write-1-to-clear status registers (IA32_PERF_GLOBAL_OVF_CTRL /
 * STATUS_RESET, AMD PerfCntrGlobalStatusClr), whose effect the driver's
 * restore undoes through the status it saved at open. */
bt_status bt_pmu_raw_write(struct bt_pmu_session *s, uint32_t save_msr, uint32_t msr,
			   uint64_t value, struct bt_diag *d);
bt_status bt_pmu_raw_rdpmc(struct bt_pmu_session *s, uint32_t ecx, uint64_t *ret,
			   struct bt_diag *d);
/* The counting window: `msr` written with `start`, fn(arg), `msr` written
 * with `stop` (saved first); *ret_tsc gets the TSC ticks from right
 * before the start write to right after the stop write. */
bt_status bt_pmu_raw_window(struct bt_pmu_session *s, uint32_t msr, uint64_t start,
			    uint64_t stop, bt_window_fn *fn, void *arg, uint64_t *ret_tsc,
			    struct bt_diag *d);
/* IA32_PERF_GLOBAL_STATUS (AMD: PerfCntrGlobalStatus) as it was at open. */
uint64_t bt_pmu_raw_status_at_open(const struct bt_pmu_session *s);

#endif
