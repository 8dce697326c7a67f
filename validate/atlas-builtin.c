/* SPDX-License-Identifier: MIT */
/*
 * The atlas's built-in list: what every part of a vendor's PMU generation
 * has, and nothing more, so it fits in baretop.efi's budget (a part's full
 * core list, 300-3,000 events, is read from the ESP with --events-file).
 *   Intel: the pre-defined architectural events the core enumerates
 *     (CPUID.0AH:EBX / 23H.03H, caps.arch_events; their codes are
 *     base/arch-event.c's, the SDM's table) on the general counters, and
 *     the fixed counters it has (SDM vol. 3B Table 20-2: 0 instructions
 *     retired, 1 core cycles, 2 reference cycles at the TSC rate, 3
 *     TOPDOWN.SLOTS).
 *   AMD: the events every family 17h+ PPR lists for the core counters:
 *     076H cycles not in halt, 0C0H retired instructions, 0C2H retired
 *     branches, 0C3H retired mispredicted branches, 0C4H retired taken
 *     branches, 0C8H retired near returns.
 */
#include <string.h>

#include "base/arch-event.h"
#include "validate/atlas.h"

static const char *const fixed_names[] = {
	"INST_RETIRED.ANY (fixed counter 0)", "CPU_CLK_UNHALTED.THREAD (fixed counter 1)",
	"CPU_CLK_UNHALTED.REF_TSC (fixed counter 2)", "TOPDOWN.SLOTS (fixed counter 3)",
};

static const struct {
	const char *name;
	uint16_t code;
} amd_events[] = {
	{ "Cycles not in Halt", 0x076 }, { "Retired Instructions", 0x0C0 },
	{ "Retired Branch Instructions", 0x0C2 }, { "Retired Branch Instructions Mispredicted", 0x0C3 },
	{ "Retired Taken Branch Instructions", 0x0C4 }, { "Retired Near Returns", 0x0C8 },
};

bt_status bt_atlas_list_builtin(const struct bt_pmu_caps *caps, struct bt_atlas_list *l,
				struct bt_diag *d)
{
	memset(l, 0, sizeof(*l));
	bt_arena_init(&l->arena);
	l->v = bt_arena_alloc(&l->arena, 32 * sizeof(*l->v));
	if (!l->v) {
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	uint32_t gp = (uint32_t)((1ull << caps->num_gp) - 1);
	l->format = caps->kind == BT_PMU_INTEL_ARCH ? "intel-perfmon" : "linux-perf-amd";
	if (caps->kind != BT_PMU_INTEL_ARCH) {
		l->file = "built-in (AMD core events of every family 17h+ PPR)";
		for (size_t i = 0; i < sizeof(amd_events) / sizeof(amd_events[0]); i++)
			l->v[l->n++] = (struct bt_atlas_event){
				.name = amd_events[i].name,
				.ev = { .name = amd_events[i].name, .source = BT_SRC_PMC,
					.fixed = BT_EV_NO_FIXED, .code = amd_events[i].code,
					.counters = gp } };
		return BT_OK;
	}
	l->file = "built-in (Intel architectural events the core enumerates, fixed counters)";
	for (unsigned f = 0; f < 4; f++)
		if (caps->fixed_mask & (1u << f))
			l->v[l->n++] = (struct bt_atlas_event){
				.name = fixed_names[f],
				.ev = { .name = fixed_names[f], .source = BT_SRC_PMC, .fixed = (int8_t)f,
					.umask = (uint8_t)(f == 3 ? 0x04 : f + 1) } };
	for (unsigned bit = 0; bit < BT_ARCH_EV_COUNT; bit++) {
		const struct bt_arch_event *a = bt_arch_event(bit);
		if (!a || !(caps->arch_events & (1u << bit)))
			continue;
		l->v[l->n++] = (struct bt_atlas_event){
			.name = a->name,
			.ev = { .name = a->name, .source = BT_SRC_PMC, .fixed = BT_EV_NO_FIXED,
				.code = a->code, .umask = a->umask, .counters = gp } };
	}
	return BT_OK;
}
