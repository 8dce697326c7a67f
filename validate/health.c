/* SPDX-License-Identifier: MIT */
/*
 * The counter health check (health.h): the conformance machinery
 * (conformance-measure.c: direct programming through pmu/pmu-raw.h inside
 * one session, calibrated medians) programmed once with every general
 * counter and fixed counter 0 on instructions retired.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/conformance-internal.h"
#include "validate/health.h"

static bt_status not_run(struct bt_counter_health *h, struct bt_diag *d, bt_status st,
			 const char *why)
{
	h->state = BT_HEALTH_NOT_RUN;
	snprintf(h->why, sizeof(h->why), "%s", why);
	bt_diag_set(d, "%s", why);
	return st;
}

bt_status bt_counter_health_run(const struct bt_pmu *pmu, const struct bt_conformance_opts *o,
				struct bt_counter_health *h, struct bt_diag *d)
{
	const struct bt_pmu_caps *caps = &pmu->caps;
	char why[200];

	memset(h, 0, sizeof(*h));
	h->kernel = "loop-dec-jnz";
	if (caps->kind == BT_PMU_NONE)
		return not_run(h, d, BT_ERR_UNSUPPORTED, "no PMU");
	struct conf *c = calloc(1, sizeof(*c));
	if (!c)
		return not_run(h, d, BT_ERR_NOMEM, "out of memory");
	c->arch = pmu->arch;
	c->caps = caps;
	c->intel = caps->kind == BT_PMU_INTEL_ARCH;
	c->amd_ext = caps->kind == BT_PMU_AMD_CORE_EXT || caps->kind == BT_PMU_AMD_V2;
	c->amd_v2 = caps->kind == BT_PMU_AMD_V2;
	c->read_rdpmc = o && o->rdpmc;
	c->reps = o && o->reps ? o->reps : 3;
	if (c->reps > 64)
		c->reps = 64;
	c->loop = bt_kernel_find("loop-dec-jnz");
	c->empty = bt_kernel_find("empty");
	if (!c->loop || !c->empty) {
		free(c);
		return not_run(h, d, BT_ERR_INTERNAL, "the loop-dec-jnz and empty kernels are not built in");
	}
	c->n = bt_conformance_loop_n(o);
	struct bt_kernel_cpu cpu;
	memset(&cpu, 0, sizeof(cpu));
	struct bt_diag kd = { "" };
	bt_status st = bt_kernel_setup(c->loop, c->n, &cpu, &c->loop_st, &kd);
	if (st == BT_OK) {
		st = bt_kernel_setup(c->empty, 1, &cpu, &c->empty_st, &kd);
		if (st != BT_OK)
			bt_kernel_teardown(c->loop, &c->loop_st);
	}
	if (st != BT_OK) {
		free(c);
		snprintf(why, sizeof(why), "kernel setup: %.150s", kd.text);
		return not_run(h, d, st, why);
	}
	bt_kernel_count(c->loop, BT_KC_INSTRUCTIONS, c->n, &c->inst_declared);

	struct conf_prog p;
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (caps->gp_mask & (1u << i)) {
			p.gp |= 1u << i;
			p.sel[i] = conf_sel(c, CONF_INST, 0);
		}
	/* Fixed counter 0 is INST_RETIRED.ANY, the general counters' twin
	 * (SDM Table 20-2); AMD has no fixed counters. */
	if (c->intel && (caps->fixed_mask & 1))
		p.fixed = 1;
	struct bt_pmu_session_opts so;
	memset(&so, 0, sizeof(so));
	so.use_rdmsr = true;
	so.read_smi_count = true;
	st = bt_pmu_open(&c->s, c->arch, caps, &so);
	struct conf_count r, rc;
	if (st == BT_OK)
		st = conf_count(c, &p, true, &r);
	/* Fixed counter 1 against 0x3C/0x00 on the first general counter
	 * that counted the instructions with the others (a second window). */
	unsigned twin = 0;
	bool fixed1 = c->intel && (caps->fixed_mask & 2) && p.gp;
	if (st == BT_OK && fixed1) {
		struct bt_counter_health pre;
		memset(&pre, 0, sizeof(pre));
		pre.gp_mask = p.gp;
		memcpy(pre.gp, r.gp, sizeof(pre.gp));
		pre.declared = c->inst_declared > 0 ? (uint64_t)c->inst_declared : 0;
		bt_counter_health_judge(&pre);
		uint32_t good = p.gp & ~pre.gp_fail;
		/* Without a general counter that passed, fixed counter 1 has no
		 * twin to be judged against (and nothing is counted anyway). */
		fixed1 = good != 0;
		twin = good ? (unsigned)__builtin_ctz(good) : 0;
	}
	if (st == BT_OK && fixed1) {
		struct conf_prog q;
		memset(&q, 0, sizeof(q));
		q.gp = 1u << twin;
		q.sel[twin] = conf_sel(c, 0x3C, 0);
		q.fixed = 2 | (caps->fixed_mask & 8);
		st = conf_count(c, &q, true, &rc);
	}
	/* Fixed counter 2 against the TSC: uncalibrated, as the TSC ticks
	 * around the whole window are. */
	struct conf_count rt;
	bool fixed2 = c->intel && (caps->fixed_mask & 4);
	if (st == BT_OK && fixed2) {
		struct conf_prog q;
		memset(&q, 0, sizeof(q));
		q.fixed = 4;
		st = conf_count(c, &q, false, &rt);
	}
	if (st != BT_OK)
		snprintf(why, sizeof(why), "%.190s",
			 c->err.text[0] ? c->err.text : bt_pmu_error(&c->s));
	bt_status cst = bt_pmu_close(&c->s);
	if (st == BT_OK && cst != BT_OK) {
		st = cst;
		snprintf(why, sizeof(why), "restoring the PMU: %.170s", bt_pmu_error(&c->s));
	}
	bt_kernel_teardown(c->loop, &c->loop_st);
	bt_kernel_teardown(c->empty, &c->empty_st);
	if (st == BT_OK) {
		h->n = c->n;
		h->declared = c->inst_declared > 0 ? (uint64_t)c->inst_declared : 0;
		h->runs = r.runs;
		h->gp_mask = p.gp;
		memcpy(h->gp, r.gp, sizeof(h->gp));
		h->has_fixed0 = p.fixed & 1;
		h->fixed0 = r.fixed[0];
		h->has_fixed1 = fixed1;
		h->has_fixed2 = fixed2;
		if (fixed2) {
			h->fixed2 = rt.fixed[2];
			h->tsc = rt.tsc;
		}
		h->has_fixed3 = fixed1 && (caps->fixed_mask & 8);
		if (h->has_fixed3)
			h->fixed3 = rc.fixed[3];
		if (fixed1) {
			h->fixed1 = rc.fixed[1];
			h->cycles = rc.gp[twin];
			h->cycles_gp = twin;
		}
		bt_counter_health_judge(h);
	}
	free(c);
	if (st != BT_OK)
		return not_run(h, d, st, why);
	return BT_OK;
}
