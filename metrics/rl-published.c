/* SPDX-License-Identifier: MIT */
/* Published retire latencies by model: metrics/rl-published.h. */
#include "metrics/rl-published.h"

#include <string.h>

const struct bt_rl_published *bt_rl_published_find(const char *model_id)
{
	if (!model_id)
		return NULL;
	for (unsigned i = 0; i < bt_rl_intel_count; i++)
		if (!strcmp(bt_rl_intel[i].model, model_id))
			return &bt_rl_intel[i];
	for (unsigned i = 0; i < bt_rl_pmu_tools_count; i++)
		if (!strcmp(bt_rl_pmu_tools[i].model, model_id))
			return &bt_rl_pmu_tools[i];
	return NULL;
}

bt_status bt_rl_published_set(struct bt_arena *a, struct bt_model_def *def)
{
	const struct bt_rl_published *p = bt_rl_published_find(def->id);
	def->retire_latency = NULL;
	def->n_retire_latency = 0;
	def->retire_latency_source = NULL;
	if (!p || !p->n)
		return BT_OK;
	struct bt_retire_latency_default *rl = bt_arena_alloc(a, p->n * sizeof(*rl));
	if (!rl)
		return BT_ERR_NOMEM;
	for (unsigned i = 0; i < p->n; i++) {
		const struct bt_rl_row *r = &p->rows[i];
		/* the correctly rounded quotient of two exact integers: the
		 * double nearest the published decimal, as strtod reads it */
		rl[i] = (struct bt_retire_latency_default){
			.event = p->names + r->name, .cycles = (double)r->mean_x100 / 100.0,
			.min = r->has_range ? r->min : -1, .max = r->has_range ? r->max : -1,
		};
	}
	def->retire_latency = rl;
	def->n_retire_latency = (uint16_t)p->n;
	def->retire_latency_source = p->source;
	return BT_OK;
}
