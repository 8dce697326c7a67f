/* SPDX-License-Identifier: MIT */
/*
 * The list of built-in workloads, the default suite, and the instance life
 * cycle (validate, set up, run, check, tear down).
 *
 * The list is explicit rather than built by constructors: the EFI app is
 * linked without running .init_array.
 */
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

static const struct bt_workload *const all_workloads[] = {
	&bt_wl_multiply1,
	&bt_wl_multiply2,
	&bt_wl_multiply3,
	&bt_wl_ptr_chase_l1,
	&bt_wl_ptr_chase_l2,
	&bt_wl_ptr_chase_l3,
	&bt_wl_ptr_chase_dram,
	&bt_wl_stream_read,
	&bt_wl_stream_triad,
	&bt_wl_branch_mispredict,
	&bt_wl_code_footprint,
	&bt_wl_div_chain,
	&bt_wl_alu_dep_chain,
	&bt_wl_alu_independent,
	&bt_wl_store_fwd_block,
	&bt_wl_alias_4k,
	&bt_wl_denormal_assist,
	&bt_wl_false_sharing,
	&bt_wl_memory_order_clears,
};

/*
 * The default suite is every workload: each one is a distinct signature, and
 * in the quick preset the whole set runs in well under a second hosted.
 */
const struct bt_workload *const *bt_wl_all(size_t *ret_count)
{
	*ret_count = BT_ARRAY_SIZE(all_workloads);
	return all_workloads;
}

const struct bt_workload *const *bt_wl_default_suite(size_t *ret_count)
{
	*ret_count = BT_ARRAY_SIZE(all_workloads);
	return all_workloads;
}

const struct bt_workload *bt_wl_find(const char *name)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(all_workloads); i++)
		if (strcmp(all_workloads[i]->name, name) == 0)
			return all_workloads[i];
	return NULL;
}

static bt_status check_env(const struct bt_workload *wl, const struct bt_wl_env *env,
			   struct bt_diag *d)
{
	if ((wl->flags & BT_WL_NEEDS_PARTNER) && (!env->start_partner || !env->wait_partner))
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "%s needs a second CPU: the platform offers no partner CPU",
				  wl->name);
	if ((wl->flags & BT_WL_NEEDS_PARTNER) && env->cpu.logical_cpus == 1)
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "%s needs a second CPU: only one logical CPU is available",
				  wl->name);
	if ((wl->flags & BT_WL_NEEDS_CODE_MEMORY) &&
	    (!env->code_alloc || !env->code_seal || !env->code_free))
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "%s needs executable memory, which the platform does not provide",
				  wl->name);
	return BT_OK;
}

bt_status bt_wl_setup(struct bt_wl_instance *ret, const struct bt_wl_config *cfg,
		      const struct bt_wl_env *env, struct bt_diag *d)
{
	const struct bt_workload *wl = cfg->wl;
	struct bt_wl_instance inst;
	bt_status s;

	if (d)
		d->text[0] = '\0';
	/* Values may come from a caller that bypassed the parser: check again. */
	for (unsigned i = 0; i < wl->n_params; i++) {
		const struct bt_wl_param *p = &wl->params[i];
		uint64_t v = cfg->values[i];

		if (v < p->min || v > p->max || (p->multiple > 1 && v % p->multiple))
			return bt_wl_fail(BT_ERR_INVALID, d,
					  "%s: %s=%llu is out of range or not a multiple of %llu",
					  wl->name, p->name, (unsigned long long)v,
					  (unsigned long long)(p->multiple ? p->multiple : 1));
	}
	s = check_env(wl, env, d);
	if (s != BT_OK)
		return s;

	memset(&inst, 0, sizeof inst);
	inst.wl = wl;
	inst.cfg = *cfg;
	s = wl->setup(cfg->values, env, &inst.state, d);
	if (s != BT_OK) {
		if (d && d->text[0] == '\0')
			bt_wl_fail(s, d, "%s: setup failed: %s", wl->name,
				   bt_status_str(s));
		return s;
	}
	if (wl->describe)
		wl->describe(inst.state, env, inst.note, sizeof inst.note);
	*ret = inst;
	return BT_OK;
}

bt_status bt_wl_before_run(struct bt_wl_instance *inst, struct bt_diag *d)
{
	return inst->wl->before_run ? inst->wl->before_run(inst->state, d) : BT_OK;
}

void bt_wl_run(struct bt_wl_instance *inst)
{
	inst->wl->run(inst->state);
}

uint64_t bt_wl_iterations(const struct bt_wl_instance *inst)
{
	return inst->wl->iterations && inst->wl->set_range ? inst->wl->iterations(inst->state) : 0;
}

void bt_wl_set_range(struct bt_wl_instance *inst, uint64_t begin, uint64_t end)
{
	if (bt_wl_iterations(inst))
		inst->wl->set_range(inst->state, begin, end);
}

bt_status bt_wl_after_run(struct bt_wl_instance *inst, struct bt_diag *d)
{
	return inst->wl->after_run ? inst->wl->after_run(inst->state, d) : BT_OK;
}

uint64_t bt_wl_checksum(const struct bt_wl_instance *inst)
{
	return inst->wl->checksum(inst->state);
}

void bt_wl_teardown(struct bt_wl_instance *inst)
{
	if (inst->wl && inst->state)
		inst->wl->teardown(inst->state);
	inst->state = NULL;
}
