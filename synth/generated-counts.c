/* SPDX-License-Identifier: MIT */
/*
 * Generated counts: a deterministic count for any event (a pure function of
 * its encoding and a seed), for an application run with -x, which has no
 * workload model, and for the tests of the PMU driver.
 */
#include "base/hash.h"
#include "synth/count-sources.h"

/* A splitmix finaliser over the FNV-1a hash of the encoding. */
static uint64_t finish(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static uint64_t event_hash(const struct bt_event *e, uint64_t seed)
{
	uint64_t h = BT_FNV1A64_INIT;
	h = bt_fnv1a64_u64(seed, h);
	h = bt_fnv1a64_u64(e->source | (uint64_t)e->flags << 8 | (uint64_t)e->code << 16 |
				   (uint64_t)e->code2 << 32 | (uint64_t)e->umask << 48 |
				   (uint64_t)e->umask_ext << 56, h);
	h = bt_fnv1a64_u64(e->cmask | (uint64_t)(uint8_t)e->fixed << 8 |
				   (uint64_t)e->pm_field << 16 | (uint64_t)e->msr_index << 24, h);
	h = bt_fnv1a64_u64(e->msr_value, h);
	return finish(h);
}

bt_status bt_sim_generate_counts(const struct bt_event *const *events, size_t n,
				 uint64_t seed, struct bt_sim_count *out)
{
	uint64_t slots = 0;
	bool have_slots = false, need_slots = false;
	for (size_t i = 0; i < n; i++) {
		const struct bt_event *e = events[i];
		out[i].ev = *e;
		uint64_t h = event_hash(e, seed);
		switch (e->source) {
		case BT_SRC_PMC:
			out[i].count = 1000000 + h % 1000000000ull;
			if (e->fixed == 3 && !have_slots) {
				/* SLOTS = width x cycles: large, a multiple of 4 or 6 */
				slots = out[i].count * 4;
				out[i].count = slots;
				have_slots = true;
			}
			break;
		case BT_SRC_TSC:
			out[i].count = 2000000000ull + h % 1000000000ull;
			break;
		case BT_SRC_PERF_METRICS:
			need_slots = true;
			out[i].count = 0;
			break;
		default:
			out[i].count = 0; /* DURATION comes from the TSC; UNCORE is not counted */
			break;
		}
	}
	if (!need_slots)
		return BT_OK;
	if (!have_slots)
		return BT_ERR_INVALID;
	for (size_t i = 0; i < n; i++)
		if (events[i]->source == BT_SRC_PERF_METRICS) {
			uint64_t b = event_hash(events[i], seed) % 256;
			out[i].count = slots * b / 255;
		}
	return BT_OK;
}
