/* SPDX-License-Identifier: MIT */
/*
 * struct bt_event -> register values, and raw event strings -> struct
 * bt_event. Everything that can be wrong about an encoding is rejected
 * here with a message naming the part that is wrong, before any register
 * is touched.
 */
#ifndef PMU_EVENT_ENCODE_H
#define PMU_EVENT_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/event.h"
#include "base/status.h"
#include "pmu/cpu-info.h"

/* A general-counter encoding: the selector (without the enable bit, which
 * the driver adds) and the extra MSR the event needs, if any. */
struct bt_encoding {
	uint64_t evtsel;
	uint32_t extra_msr;      /* 0 = none */
	uint64_t extra_value;
};

/* Encode for a general counter of this PMU. use_code2 selects the other
 * encoding of an OFFCORE_RESPONSE pair (its code is e->code2, its umask and
 * the MSR come from pmu/extra-msr.c: 0xBB with OFFCORE_RSP_1 up to Ice
 * Lake, 0x2B on Golden Cove and later, 0xB7 umask 0x02 on Atom cores). The
 * extra MSR is always the one the programmed code selects on this CPU.
 * Events the PMU cannot count in counting mode (PEBS-only, load latency)
 * are rejected with the reason. On failure sets the message in d. */
bt_status bt_event_encode_gp(const struct bt_event *e, const struct bt_pmu_caps *caps,
			     bool use_code2, struct bt_encoding *ret, struct bt_diag *d);

/* Whether the event is counted by fixed counter e->fixed of this PMU: the
 * counter exists and the event needs nothing a fixed counter lacks (counter
 * mask, invert, edge, extra MSR) nor a privilege filter or AnyThread (the
 * fixed counters count all rings in every group, for cross-checking). */
bool bt_event_fits_fixed(const struct bt_event *e, const struct bt_pmu_caps *caps);
/*
 * An event only fixed counter 0 or 1 counts (vendor "Fixed counter N",
 * no general-counter encoding), but with a ring filter or AnyThread that
 * the fixed counter, shared by every group and counting all rings, cannot
 * apply (e.g. CPU_CLK_UNHALTED.THREAD_ANY): *ret is the same event as the
 * architectural general-counter event (C0H/00H, 3CH/00H) with its filters.
 * false when e is not such an event.
 */
bool bt_event_fixed_to_gp(const struct bt_event *e, const struct bt_pmu_caps *caps,
			  struct bt_event *ret);

/* ------------------------------------------------------------ raw events */

#define BT_RAW_NAME_MAX 96

/* A parsed raw event owns its name. */
struct bt_raw_event {
	struct bt_event ev;
	char name[BT_RAW_NAME_MAX];
};

/*
 * Parse one event written by a user. Accepted forms:
 *
 *   cpu/event=0x3c,umask=0x1,cmask=1,inv,edge,any,eq,umask2=0x2,
 *       ldlat=4,frontend=0x400406,offcore_rsp=0x10001,name=NAME/[ku]
 *   rHEX         perf's raw config: event [7:0], umask [15:8], edge 18,
 *                any 21, inv 23, cmask [31:24], eq 36, umask2 [47:40]
 *                (Intel); AMD: event [7:0] and [35:32], no any/eq/umask2
 *   tsc | duration_time
 *
 * "cpu" may also be "cpu_core" or "cpu_atom". Values are decimal or 0x hex.
 * Modifiers after the closing slash: k (ring 0 only), u (ring > 0 only).
 * baretop extensions for planning: counters=MASK (allowed general counters,
 * default all), fixed=N, alone (TakenAlone), code2=0x.. (OCR alternative
 * code for OFFCORE_RSP_1), perf_metrics=FIELD (retiring, bad_speculation,
 * frontend_bound, backend_bound, heavy_operations, branch_mispredicts,
 * fetch_latency, memory_bound).
 *
 * Limits checked: Intel event select 8 bits, AMD 12 bits; umask, umask2,
 * cmask 8 bits; ldlat 3..65535 (MSR_PEBS_LD_LAT[15:0], SDM minimum 3);
 * frontend within 0x7FFF1F (bits no part has are rejected here, the
 * per-event bits by the encoder); offcore_rsp= only with an
 * OFFCORE_RESPONSE code (0xB7/0xBB, 0x2A/0x2B, 0xB7 umask 2 on Atom), whose
 * MSR follows from the code; at most one extra MSR per event; any/eq/umask2
 * and extra MSRs are Intel only. A parsed ldlat= event is still
 * unmeasurable: load latency needs PEBS (see bt_event_encode_gp).
 */
bt_status bt_event_parse(const char *s, enum bt_vendor vendor, struct bt_raw_event *ret,
			 struct bt_diag *d);

/* bt_event_parse for Intel or AMD, keeping the encoding only (ret->name is
 * NULL): the parser analysis/perf-stat.h's importer is given (its
 * bt_perf_encoding_parser), so perf's spellings are read by this one parser. */
bt_status bt_event_parse_encoding(const char *s, bool amd, struct bt_event *ret, struct bt_diag *d);

#endif
