/* SPDX-License-Identifier: MIT */
/*
 * The Tremont level-1 model (metrics/tremont-model.h).
 *
 * Events: the four Linux exports for Tremont as topdown-fe-bound,
 * topdown-retiring, topdown-bad-spec and topdown-be-bound (core.c,
 * td_*_tnt: event=0x71,umask=0x0; event=0xc2,umask=0x0; event=0x73,
 * umask=0x6; event=0x74,umask=0x0), named as Intel's Elkhart Lake and Snow
 * Ridge event files name them (TOPDOWN_FE_BOUND.ALL, TOPDOWN_RETIRING.ALL,
 * TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_BE_BOUND.ALL; general counters 0-3).
 * Note 73H/06H: on Tremont "ALL" is umask 06H (machine clears 02H |
 * mispredicts 04H); 73H/00H counts nothing useful there (it is the ALL of
 * Gracemont and Crestmont).
 *
 * Width: Linux states none. perf stat --topdown on Tremont shows each
 * event over the sum of the four (tools/perf/util/stat-shadow.c,
 * td_metric_ratio()), and no Tremont metric file exists (Linux
 * pmu-events elkhartlake/ehl-metrics.json has no Top-Down metric; Intel
 * perfmon has none for EHL or SNR). The events count issue slots, and
 * Tremont allocates (and retires) 4 per cycle: Intel's Tremont disclosure
 * (Linley Fall Processor Conference 2019, as WikiChip reports it: allocation
 * and retirement 4 wide, as on Goldmont Plus), and its Elkhart Lake event
 * file, whose UOPS_ISSUED.ANY description counts the uops of a 4-uop
 * request per cycle. So the slots are
 * 4 x CPU_CLK_UNHALTED.CORE, the form Intel's E-core models use (Gracemont
 * 5 x, Crestmont 6 x CPU_CLK_UNHALTED.CORE). Slots_Accounted (the four over
 * those slots) shows on silicon whether the four account for 4 slots per
 * cycle: 1.0 when they do.
 *
 * Thresholds: the events are an E-core's level 1 over width x cycles, so
 * they are the ones ARCH takes for that case: LNL-SKT's for the same nodes
 * (Frontend_Bound > 0.2, Bad_Speculation > 0.15, Backend_Bound > 0.1,
 * Retiring > 0.75), values as fractions. The bottleneck path is the largest
 * flagged level-1 node, as for every model.
 */
#include "metrics/tremont-model.h"
#include "base/array.h"

#define SLOTS "(4 * CPU_CLK_UNHALTED.CORE)"
#define FE "TOPDOWN_FE_BOUND.ALL"
#define BS "TOPDOWN_BAD_SPECULATION.ALL"
#define BE "TOPDOWN_BE_BOUND.ALL"
#define RET "TOPDOWN_RETIRING.ALL"

static const struct bt_node_def nodes[] = {
	{ .name = "Frontend_Bound", .formula = FE " / " SLOTS,
	  .threshold = "$Frontend_Bound > 0.2", .kind = BT_NODE_TREE, .level = 1 },
	{ .name = "Bad_Speculation", .formula = BS " / " SLOTS,
	  .threshold = "$Bad_Speculation > 0.15", .kind = BT_NODE_TREE, .level = 1 },
	{ .name = "Backend_Bound", .formula = BE " / " SLOTS,
	  .threshold = "$Backend_Bound > 0.1", .kind = BT_NODE_TREE, .level = 1 },
	{ .name = "Retiring", .formula = RET " / " SLOTS,
	  .threshold = "$Retiring > 0.75", .kind = BT_NODE_TREE, .level = 1 },
	{ .name = "IPC", .formula = "INST_RETIRED.ANY / CPU_CLK_UNHALTED.CORE",
	  .kind = BT_NODE_INFO },
	{ .name = "CPI", .formula = "CPU_CLK_UNHALTED.CORE / INST_RETIRED.ANY",
	  .kind = BT_NODE_INFO },
	{ .name = "Slots_Accounted",
	  .formula = "(" FE " + " BS " + " BE " + " RET ") / " SLOTS, .kind = BT_NODE_INFO },
};

/* Sorted by name: bt_model_open() looks events up by binary search. The
 * fixed counters carry Intel's pseudo-encoding (code 0, umask = counter + 1). */
static const struct bt_event events[] = {
	{ .name = "CPU_CLK_UNHALTED.CORE", .source = BT_SRC_PMC, .umask = 0x02, .fixed = 1 },
	{ .name = "INST_RETIRED.ANY", .source = BT_SRC_PMC, .umask = 0x01, .fixed = 0 },
	{ .name = BS, .source = BT_SRC_PMC, .code = 0x73, .umask = 0x06,
	  .fixed = BT_EV_NO_FIXED, .counters = 0xF },
	{ .name = BE, .source = BT_SRC_PMC, .code = 0x74, .umask = 0x00,
	  .fixed = BT_EV_NO_FIXED, .counters = 0xF },
	{ .name = FE, .source = BT_SRC_PMC, .code = 0x71, .umask = 0x00,
	  .fixed = BT_EV_NO_FIXED, .counters = 0xF },
	{ .name = RET, .source = BT_SRC_PMC, .code = 0xC2, .umask = 0x00,
	  .fixed = BT_EV_NO_FIXED, .counters = 0xF },
};

static const struct bt_model_def tnt = {
	.id = BT_TNT_MODEL_ID,
	.vendor = "GenuineIntel",
	.uarch = BT_TNT_MODEL_NAME,
	.source = "Tremont model-specific Top-Down events (Linux arch/x86/events/intel/core.c "
		  "tnt_events_attrs, commit c2208046bba6: 71H/00H, 73H/06H, 74H/00H, C2H/00H), "
		  "level 1 only, each over 4 x CPU_CLK_UNHALTED.CORE (Tremont's 4-wide "
		  "allocation: Linux states no width); thresholds: LNL-SKT's for the same "
		  "nodes, as ARCH takes them for an E-core",
	.pipeline_width = BT_TNT_WIDTH,
	.cpi_node = "CPI",
	.n_nodes = BT_ARRAY_SIZE(nodes),
	.nodes = nodes,
	.n_events = BT_ARRAY_SIZE(events),
	.events = events,
};

const struct bt_model_def *bt_tremont_model(void)
{
	return &tnt;
}
