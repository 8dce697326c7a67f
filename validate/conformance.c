/* SPDX-License-Identifier: MIT */
/*
 * PMU conformance (conformance.h): the entry point. It reads, before
 * touching anything, which counters are already enabled (firmware's, an
 * SMM handler's, a BMC agent's) and reports them; opens one PMU session
 * (pmu/pmu-session.h: saves and stops everything), runs the checks of
 * conformance-intel.c / conformance-amd.c through pmu/pmu-raw.h, closes
 * the session (every MSR put back) and reads the control registers again
 * to show they were put back. The workload of every counting check is
 * loop-dec-jnz (kernels/loop.c), its calibration the empty kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate/conformance-internal.h"
#include "base/array.h"

/* The control registers that say whether a counter counts: selectors,
 * IA32_FIXED_CTR_CTRL, the global control. */
struct survey {
	int n;
	uint32_t msr[BT_PMU_MAX_GP + 2];
	uint64_t value[BT_PMU_MAX_GP + 2];
	uint32_t gp_on, fixed_on;
};

static bt_status survey(struct conf *c, struct survey *sv, struct bt_diag *d)
{
	const struct bt_pmu_caps *k = c->caps;
	uint32_t gctl = bt_pmu_global_ctrl_msr(k);
	uint64_t global = ~0ull, fixed_ctrl = 0;
	char name[40];
	memset(sv, 0, sizeof(*sv));
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (k->gp_mask & (1u << i))
			sv->msr[sv->n++] = bt_pmu_gp_sel_msr(k, i);
	if (c->intel && k->fixed_mask)
		sv->msr[sv->n++] = MSR_IA32_FIXED_CTR_CTRL;
	if (gctl)
		sv->msr[sv->n++] = gctl;
	for (int j = 0; j < sv->n; j++)
		if (bt_rdmsr(c->arch, sv->msr[j], &sv->value[j]) != BT_OK) {
			bt_diag_set(d, "RDMSR %s (0x%X) raised %s",
				    bt_msr_name(sv->msr[j], name, sizeof(name)), sv->msr[j],
				    bt_fault_name(c->arch->fault_vector));
			return BT_ERR_FAULT;
		}
	int j = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (k->gp_mask & (1u << i))
			if (sv->value[j++] & EVTSEL_EN)
				sv->gp_on |= 1u << i;
	if (c->intel && k->fixed_mask)
		fixed_ctrl = sv->value[j++];
	if (gctl)
		global = sv->value[j];
	/* A counter counts when its own enable and (v2+, PerfMonV2) its
	 * global enable are set (SDM 20.2.2; APM vol. 2 §13.2.2 for V2). */
	sv->gp_on &= (uint32_t)global;
	for (unsigned i = 0; c->intel && i < BT_PMU_MAX_FIXED; i++)
		if ((k->fixed_mask & (1u << i)) &&
		    ((fixed_ctrl >> FIXED_CTRL_SHIFT(i)) & (FIXED_CTRL_OS | FIXED_CTRL_USR)) &&
		    ((global >> (GLOBAL_FIXED_SHIFT + i)) & 1))
			sv->fixed_on |= 1u << i;
	return BT_OK;
}

/* conf:firmware-counters: after the session closed, the control registers
 * read back as found. WARN when counters were found enabled: their counts
 * were shared while baretop held them (taken, then put back). */
static void firmware_result(struct conf *c, const struct survey *before, bt_status close_st)
{
	const char *id = "conf:firmware-counters";
	char name[40], g[64], f[64];
	for (int j = 0; j < before->n; j++) {
		uint64_t v;
		if (bt_rdmsr(c->arch, before->msr[j], &v) != BT_OK) {
			conf_result(c, id, BT_VERDICT_FAIL, "as found", "exact",
				    "RDMSR %s (0x%X) raised %s after the checks",
				    bt_msr_name(before->msr[j], name, sizeof(name)), before->msr[j],
				    bt_fault_name(c->arch->fault_vector));
			return;
		}
		if (v != before->value[j]) {
			conf_result(c, id, BT_VERDICT_FAIL, "as found", "exact",
				    "%s (0x%X) is 0x%llx after the checks, was 0x%llx%s%s",
				    bt_msr_name(before->msr[j], name, sizeof(name)), before->msr[j],
				    (unsigned long long)v, (unsigned long long)before->value[j],
				    close_st != BT_OK ? ": " : "",
				    close_st != BT_OK ? bt_pmu_error(&c->s) : "");
			return;
		}
	}
	if (close_st != BT_OK) {
		conf_result(c, id, BT_VERDICT_FAIL, "as found", "exact", "restoring: %s",
			    bt_pmu_error(&c->s));
		return;
	}
	if (!before->gp_on && !before->fixed_on) {
		conf_result(c, id, BT_VERDICT_PASS, "none enabled", "exact",
			    "no counter was enabled before baretop; %d control registers read "
			    "back as found after the checks", before->n);
		return;
	}
	conf_list(g, sizeof(g), before->gp_on);
	conf_list(f, sizeof(f), before->fixed_on);
	conf_result(c, id, BT_VERDICT_WARN, "none enabled", "exact",
		    "enabled before baretop (firmware's?): %s%s%s%s%s; taken for the checks "
		    "and put back (%d control registers read back as found)",
		    before->gp_on ? "general " : "", g, before->gp_on && before->fixed_on ? ", " : "",
		    before->fixed_on ? "fixed " : "", f, before->n);
}

/* Every check id, in report order: those not run (the session could not
 * be opened) are reported SKIP with the reason. */
static const char *const all_ids[] = {
	"conf:gp-agree", "conf:fixed0-vs-gp-inst", "conf:fixed1-vs-gp-cycles",
	"conf:fixed2-vs-tsc", "conf:width-wrap", "conf:overflow-status",
	"conf:pmc-32bit-write", "conf:full-width-write", "conf:rdpmc-fixed",
	"conf:perf-metrics-sum", "conf:perf-metrics-reset", "conf:global-ctrl",
	"conf:amd-48bit", "conf:amd-legacy-vs-ext", "conf:perfmon-v2-global",
};

uint64_t bt_conformance_loop_n(const struct bt_conformance_opts *o)
{
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	if (!loop)
		return 0;
	/* quick (QEMU TCG): 10x the kernel's quick size still leaves the
	 * window's own writes below 0.1 % of the loop. */
	return o && o->quick ? 10 * loop->n_quick : loop->n_default;
}

bt_status bt_conformance_run(const struct bt_pmu *pmu, const struct bt_conformance_opts *o,
			     struct bt_check_list *out, struct bt_diag *d)
{
	struct bt_arch *arch = pmu->arch;
	const struct bt_pmu_caps *caps = &pmu->caps;
	struct conf *c = calloc(1, sizeof(*c));
	if (!c)
		return BT_ERR_NOMEM;
	c->arch = arch;
	c->caps = caps;
	c->out = out;
	c->intel = caps->kind == BT_PMU_INTEL_ARCH;
	c->amd_ext = caps->kind == BT_PMU_AMD_CORE_EXT || caps->kind == BT_PMU_AMD_V2;
	c->amd_v2 = caps->kind == BT_PMU_AMD_V2;
	c->reps = o && o->reps ? o->reps : 3;
	if (c->reps > 64)
		c->reps = 64;
	/* One way out (done:), which frees c; out: first undoes the kernels'
	 * setup once it ran. */
	bt_status st = BT_OK;
	if (caps->kind == BT_PMU_NONE) {
		bt_diag_set(d, "no PMU to check: %s", caps->absent_reason);
		st = BT_ERR_UNSUPPORTED;
		goto done;
	}
	c->loop = bt_kernel_find("loop-dec-jnz");
	c->empty = bt_kernel_find("empty");
	if (!c->loop || !c->empty) {
		bt_diag_set(d, "the loop-dec-jnz and empty kernels are not built in");
		st = BT_ERR_INTERNAL;
		goto done;
	}
	/* quick (QEMU TCG): 10x the kernel's quick size still leaves the
	 * window's own writes below 0.1 % of the loop. */
	c->n = bt_conformance_loop_n(o);
	struct bt_kernel_cpu cpu;
	memset(&cpu, 0, sizeof(cpu));
	st = bt_kernel_setup(c->loop, c->n, &cpu, &c->loop_st, d);
	if (st == BT_OK)
		st = bt_kernel_setup(c->empty, 1, &cpu, &c->empty_st, d);
	if (st != BT_OK)
		goto done;
	bt_kernel_count(c->loop, BT_KC_INSTRUCTIONS, c->n, &c->inst_declared);

	struct survey before;
	struct bt_diag err = { "" };
	if (survey(c, &before, &err) != BT_OK) {
		conf_result(c, "conf:firmware-counters", BT_VERDICT_FAIL, "", "",
			    "reading the counter controls before taking them: %s", err.text);
		for (size_t i = 0; i < BT_ARRAY_SIZE(all_ids); i++)
			conf_result(c, all_ids[i], BT_VERDICT_FAIL, "", "",
				    "not run: the counter controls are not readable (%s)", err.text);
		goto out;
	}
	struct bt_pmu_session_opts so;
	memset(&so, 0, sizeof(so));
	so.use_rdmsr = true;
	/* MSR_SMI_COUNT (Intel, probed at open) brackets every run, so a run an
	 * SMI disturbed is repeated (conf_run). */
	so.read_smi_count = true;
	st = bt_pmu_open(&c->s, arch, caps, &so);
	if (st != BT_OK) {
		bt_status cst = bt_pmu_close(&c->s);
		/* An architectural register the PMU enumerates faulted: nothing
		 * could be verified, which is a failure, not a missing feature. */
		for (size_t i = 0; i < BT_ARRAY_SIZE(all_ids); i++)
			conf_result(c, all_ids[i], BT_VERDICT_FAIL, "", "",
				    "not run: the PMU session could not be opened: %s",
				    bt_pmu_error(&c->s));
		firmware_result(c, &before, cst);
		st = BT_OK;
		goto out;
	}
	conf_gp_agree(c);
	conf_intel_fixed(c);
	conf_width_overflow(c);
	conf_intel_writes(c);
	conf_intel_rdpmc(c);
	conf_intel_perf_metrics(c);
	conf_global_ctrl(c);
	conf_amd_alias(c);
	firmware_result(c, &before, bt_pmu_close(&c->s));
out:
	bt_kernel_teardown(c->loop, &c->loop_st);
	bt_kernel_teardown(c->empty, &c->empty_st);
	st = c->add_status;
	if (st != BT_OK)
		bt_diag_set(d, "conformance: out of memory for the results");
done:
	free(c);
	return st;
}
