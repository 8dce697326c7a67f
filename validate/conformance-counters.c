/* SPDX-License-Identifier: MIT */
/*
 * The conformance checks both vendors share: every general counter agrees
 * on the same event; counter width, wrap and overflow status; the global
 * control starting and stopping the counters.
 */
#include <stdio.h>
#include <string.h>

#include "validate/conformance-internal.h"

/* The most common value of v[i] over the counters in mask. */
static uint64_t mode(const uint64_t *v, uint32_t mask)
{
	uint64_t best = 0;
	int best_n = -1;
	for (unsigned i = 0; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		int n = 0;
		for (unsigned j = 0; j < 32; j++)
			if ((mask & (1u << j)) && v[j] == v[i])
				n++;
		if (n > best_n) {
			best = v[i];
			best_n = n;
		}
	}
	return best;
}

/*
 * conf:gp-agree. Every general counter programmed with the same event
 * (instructions retired: SDM vol. 3B Table 20-1 0xC0/0x00, APM vol. 2
 * §13.2 / PPR 0xC0), started and stopped by the same write, counts the
 * same over the same kernel: exactly, after the empty kernel's overhead
 * (which also absorbs AMD's one-enable-at-a-time start without a global
 * control).
 */
void conf_gp_agree(struct conf *c)
{
	const char *id = "conf:gp-agree";
	const struct bt_pmu_caps *k = c->caps;
	struct conf_prog p;
	struct conf_count r;
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (k->gp_mask & (1u << i)) {
			p.gp |= 1u << i;
			p.sel[i] = conf_sel(c, CONF_INST, 0);
		}
	if (!p.gp) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "no general counter enumerated");
		return;
	}
	if (conf_count(c, &p, true, &r) != BT_OK) {
		conf_result(c, id, BT_VERDICT_FAIL, "all equal", "exact", "%s", c->err.text);
		return;
	}
	uint64_t m = mode(r.gp, p.gp), lo = UINT64_MAX, hi = 0;
	uint32_t differ = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(p.gp & (1u << i)))
			continue;
		lo = r.gp[i] < lo ? r.gp[i] : lo;
		hi = r.gp[i] > hi ? r.gp[i] : hi;
		if (r.gp[i] != m)
			differ |= 1u << i;
	}
	char list[64];
	if (m == 0) {
		conf_result_measured(c, id, BT_VERDICT_FAIL, m, lo, hi, r.runs, "all equal, > 0",
				     "exact", "the counters counted no instructions");
	} else if (differ) {
		unsigned first = (unsigned)__builtin_ctz(differ);
		conf_list(list, sizeof(list), differ);
		conf_result_measured(c, id, BT_VERDICT_FAIL, m, lo, hi, r.runs, "all equal",
				     "exact", "counter%s %s disagree%s: counter %u = %llu, the "
				     "others %llu (0xC0 over %s n=%llu)",
				     differ & (differ - 1) ? "s" : "", list,
				     differ & (differ - 1) ? "" : "s", first,
				     (unsigned long long)r.gp[first], (unsigned long long)m,
				     c->loop->name, (unsigned long long)c->n);
	} else {
		conf_list(list, sizeof(list), p.gp);
		conf_result_measured(c, id, BT_VERDICT_PASS, m, lo, hi, r.runs, "all equal",
				     "exact", "general counters %s: %llu instructions each (the "
				     "kernel declares %lld)", list, (unsigned long long)m,
				     (long long)c->inst_declared);
	}
}

static const char *status_name(const struct conf *c)
{
	return c->intel ? "IA32_PERF_GLOBAL_STATUS" : "PerfCntrGlobalStatus";
}

static const char *clear_name(const struct conf *c)
{
	if (!c->intel)
		return "PerfCntrGlobalStatusClr (0xC0000302)";
	return c->caps->version >= 4 ? "IA32_PERF_GLOBAL_STATUS_RESET (0x390)"
				     : "IA32_PERF_GLOBAL_OVF_CTRL (0x390)";
}

/* Overflow bit of general counter i / fixed counter i. */
static uint64_t gp_bit(unsigned i) { return 1ull << i; }
static uint64_t fixed_bit(unsigned i) { return 1ull << (GLOBAL_FIXED_SHIFT + i); }

/*
 * conf:width-wrap (Intel; conf:amd-48bit on AMD) and conf:overflow-status.
 * Every counter is preset 1000 + i below 2^width (width from CPUID.0AH:
 * EAX[23:16] / EDX[12:5], SDM vol. 2A; AMD: 48 bits, APM vol. 2 §13.2.1,
 * which CPUID does not enumerate) and must (1) read back the preset (all
 * width bits held; IA32_PMCx takes it as a sign-extended 32-bit write,
 * SDM 20.2.6), (2) wrap during the kernel (end below the preset) and (3)
 * have counted what it counts from 0 (instructions: exactly; fixed
 * cycles, REF_TSC and slots: within 2 %). The overflow status (SDM
 * 20.2.2 IA32_PERF_GLOBAL_STATUS, APM PerfCntrGlobalStatus) must have the
 * bit of exactly the counters that wrapped, none in the run from 0, and
 * lose them through the reset register (v4+: STATUS_RESET, v2/v3:
 * OVF_CTRL, both 0x390; AMD: PerfCntrGlobalStatusClr).
 */
void conf_width_overflow(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	const char *wid = c->intel ? "conf:width-wrap" : "conf:amd-48bit";
	const char *ovf = "conf:overflow-status";
	bool has_status = c->intel || c->amd_v2;
	if (c->intel)
		conf_result(c, "conf:amd-48bit", BT_VERDICT_SKIP, "", "",
			    "an AMD rule (Intel counter widths are enumerated: conf:width-wrap)");
	else
		conf_result(c, "conf:width-wrap", BT_VERDICT_SKIP, "", "",
			    "AMD does not enumerate the counter width in CPUID: conf:amd-48bit "
			    "checks the APM's 48 bits");

	struct conf_prog p;
	memset(&p, 0, sizeof(p));
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (k->gp_mask & (1u << i)) {
			p.gp |= 1u << i;
			p.sel[i] = conf_sel(c, CONF_INST, 0);
		}
	if (c->intel)
		p.fixed = k->fixed_mask & ((1u << BT_PMU_MAX_FIXED) - 1);
	struct conf_run ref, wrap;
	if (conf_run(c, &p, false, &ref) != BT_OK) {
		conf_result(c, wid, BT_VERDICT_FAIL, "", "", "the run from 0: %s", c->err.text);
		if (has_status)
			conf_result(c, ovf, BT_VERDICT_FAIL, "", "", "the run from 0: %s", c->err.text);
		else
			conf_result(c, ovf, BT_VERDICT_SKIP, "", "", "no overflow status register "
				    "before PerfMonV2 (APM vol. 2 §13.2)");
		return;
	}
	uint64_t gmask = conf_gp_mask(c), fmask = conf_fixed_mask(c);
	uint64_t below[2][32];
	uint32_t too_few = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		below[0][i] = 1000 + i;
		p.gp_start[i] = (gmask - below[0][i] + 1) & gmask; /* 2^w - (1000 + i) */
	}
	/* Fixed counters 0-3 (instructions, cycles, REF_TSC, slots) count
	 * thousands over the loop; the E-core's topdown fixed counters 4-6 may
	 * count little (bad speculation): those are preset half their count
	 * from 0 below the top, and left out if they counted < 2. A counter
	 * 0-3 that counted nothing stays in, and fails. */
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++) {
		uint64_t half = ref.fixed_delta[i] / 2;
		below[1][i] = i < 4 || half >= 1000 + i ? 1000 + i : half;
		if ((p.fixed & (1u << i)) && below[1][i] == 0) {
			p.fixed &= ~(1u << i);
			too_few |= 1u << i;
		}
		p.fixed_start[i] = (fmask - below[1][i] + 1) & fmask;
	}
	if (conf_run(c, &p, false, &wrap) != BT_OK) {
		conf_result(c, wid, BT_VERDICT_FAIL, "", "", "the run near the top: %s", c->err.text);
		if (has_status)
			conf_result(c, ovf, BT_VERDICT_FAIL, "", "", "the run near the top: %s",
				    c->err.text);
		else
			conf_result(c, ovf, BT_VERDICT_SKIP, "", "", "no overflow status register "
				    "before PerfMonV2 (APM vol. 2 §13.2)");
		return;
	}

	/* Width and wrap, counter by counter; the first failure is reported. */
	char why[256] = "";
	uint64_t wrapped = 0;
	int n_checked = 0;
	for (unsigned f = 0; f < 2; f++) {
		uint32_t used = f ? p.fixed : p.gp;
		for (unsigned i = 0; i < 32; i++) {
			if (!(used & (1u << i)))
				continue;
			n_checked++;
			uint64_t start = f ? p.fixed_start[i] : p.gp_start[i];
			uint64_t held = f ? wrap.fixed_held[i] : wrap.gp_held[i];
			uint64_t end = f ? wrap.fixed_end[i] : wrap.gp_end[i];
			uint64_t got = f ? wrap.fixed_delta[i] : wrap.gp_delta[i];
			uint64_t want = f ? ref.fixed_delta[i] : ref.gp_delta[i];
			unsigned w = f ? (k->fixed_width ? k->fixed_width : 48) : k->gp_width;
			const char *kind = f ? "fixed counter" : "general counter";
			if (end < held)
				wrapped |= f ? fixed_bit(i) : gp_bit(i);
			if (why[0])
				continue;
			/* Instructions are exact; cycles and slots vary a little. */
			uint64_t tol = f ? want / 50 + 16 : 0;
			if (held != start)
				snprintf(why, sizeof(why), "%s %u: preset 0x%llx (2^%u - %llu) read back "
					 "0x%llx: it holds fewer bits than the %u CPUID says", kind, i,
					 (unsigned long long)start, w, (unsigned long long)below[f][i],
					 (unsigned long long)held, w);
			else if (end >= held)
				snprintf(why, sizeof(why), "%s %u: did not wrap (0x%llx -> 0x%llx "
					 "over %llu counts from 0)", kind, i, (unsigned long long)held,
					 (unsigned long long)end, (unsigned long long)want);
			else if (want == 0 || (got > want ? got - want : want - got) > tol)
				snprintf(why, sizeof(why), "%s %u: counted %llu across the wrap, %llu "
					 "from 0", kind, i, (unsigned long long)got,
					 (unsigned long long)want);
		}
	}
	if (why[0])
		conf_result(c, wid, BT_VERDICT_FAIL, "preset read back, wrap at 2^width",
			    "instructions exact, cycles 2 % + 16", "%s", why);
	else
		conf_result(c, wid, BT_VERDICT_PASS, "preset read back, wrap at 2^width",
			    "instructions exact, cycles 2 % + 16", "%d counters preset below 2^%u read "
			    "back, wrapped and counted as from 0%s%s", n_checked, k->gp_width,
			    c->intel ? "" : " (48 bits, APM vol. 2 §13.2.1)",
			    too_few ? "; topdown fixed counters (4-6) that counted < 2 left out" : "");

	if (!has_status) {
		conf_result(c, ovf, BT_VERDICT_SKIP, "", "", "no overflow status register before "
			    "PerfMonV2 (CPUID 8000_0022h:EAX[0] clear; APM vol. 2 §13.2)");
		return;
	}
	uint64_t usable = conf_status_usable(c);
	uint64_t used_bits = p.gp | (uint64_t)p.fixed << GLOBAL_FIXED_SHIFT;
	uint64_t judged = usable & used_bits;
	if (!judged) {
		conf_result(c, ovf, BT_VERDICT_SKIP, "", "", "every counter's overflow bit was set "
			    "before baretop and perfmon v%u has no STATUS_SET to put it back",
			    k->version);
		return;
	}
	uint64_t after = 0;
	if ((ref.status & judged) != 0) {
		conf_result(c, ovf, BT_VERDICT_FAIL, "bits of the wrapped counters", "exact",
			    "%s = 0x%llx after a run without a wrap (bits 0x%llx set)",
			    status_name(c), (unsigned long long)ref.status,
			    (unsigned long long)(ref.status & judged));
	} else if ((wrap.status & judged) != (wrapped & judged)) {
		uint64_t miss = wrapped & judged & ~wrap.status;
		uint64_t extra = wrap.status & judged & ~wrapped;
		conf_result(c, ovf, BT_VERDICT_FAIL, "bits of the wrapped counters", "exact",
			    "%s = 0x%llx after the wraps: %s 0x%llx (wrapped: 0x%llx)",
			    status_name(c), (unsigned long long)wrap.status,
			    miss ? "missing bits" : "bits set without a wrap",
			    (unsigned long long)(miss ? miss : extra), (unsigned long long)wrapped);
	} else if (conf_clear_status(c, wrap.status & judged, &after) != BT_OK) {
		conf_result(c, ovf, BT_VERDICT_FAIL, "cleared by the reset register", "exact",
			    "%s", c->err.text);
	} else if (after & wrap.status & judged) {
		conf_result(c, ovf, BT_VERDICT_FAIL, "cleared by the reset register", "exact",
			    "%s = 0x%llx after writing 0x%llx to %s", status_name(c),
			    (unsigned long long)after, (unsigned long long)(wrap.status & judged),
			    clear_name(c));
	} else {
		conf_result(c, ovf, BT_VERDICT_PASS, "bits of the wrapped counters", "exact",
			    "bits 0x%llx set by the wraps (none without), cleared through %s",
			    (unsigned long long)(wrap.status & judged), clear_name(c));
	}
}

/*
 * conf:global-ctrl (Intel IA32_PERF_GLOBAL_CTRL, SDM 20.2.2) and
 * conf:perfmon-v2-global (AMD PerfCntrGlobalCtl, APM vol. 2 §13.2 /
 * family 19h PPR): a counter whose selector is enabled counts nothing
 * while its global enable is clear, counts once it is set, and nothing
 * more after the stop write (the kernel run again outside the window).
 */
void conf_global_ctrl(struct conf *c)
{
	const char *id = c->intel ? "conf:global-ctrl" : "conf:perfmon-v2-global";
	if (c->intel)
		conf_result(c, "conf:perfmon-v2-global", BT_VERDICT_SKIP, "", "",
			    "AMD PerfMonV2 only (Intel: conf:global-ctrl)");
	else
		conf_result(c, "conf:global-ctrl", BT_VERDICT_SKIP, "", "",
			    "Intel IA32_PERF_GLOBAL_CTRL (AMD: conf:perfmon-v2-global)");
	if (!c->intel && !c->amd_v2) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "no PerfCntrGlobalCtl: CPUID "
			    "8000_0022h:EAX[0] (PerfMonV2) clear; PerfEvtSel.En alone starts a counter");
		return;
	}
	struct conf_prog p;
	struct conf_run off, on;
	memset(&p, 0, sizeof(p));
	p.gp = 1;
	p.sel[0] = conf_sel(c, CONF_INST, 0);
	p.global_override = true;
	p.global_start = 0;
	if (conf_run(c, &p, false, &off) != BT_OK) {
		conf_result(c, id, BT_VERDICT_FAIL, "", "", "%s", c->err.text);
		return;
	}
	p.global_override = false;
	if (conf_run(c, &p, false, &on) != BT_OK) {
		conf_result(c, id, BT_VERDICT_FAIL, "", "", "%s", c->err.text);
		return;
	}
	/* Stopped: the kernel outside any window adds nothing. */
	uint64_t before = 0, after = 0;
	uint32_t ctr = bt_pmu_gp_ctr_msr(c->caps, 0);
	bt_status st = bt_pmu_raw_read(&c->s, ctr, &before, &c->err);
	if (st == BT_OK) {
		uint64_t irq = bt_irq_save(c->arch);
		c->loop->run(&c->loop_st);
		bt_irq_restore(c->arch, irq);
		st = bt_pmu_raw_read(&c->s, ctr, &after, &c->err);
	}
	if (st != BT_OK)
		conf_result(c, id, BT_VERDICT_FAIL, "", "", "%s", c->err.text);
	else if (off.gp_delta[0] != 0)
		conf_result(c, id, BT_VERDICT_FAIL, "0 with the global enable clear", "exact",
			    "counter 0 counted %llu with its selector enabled and its global "
			    "enable clear", (unsigned long long)off.gp_delta[0]);
	else if (on.gp_delta[0] == 0)
		conf_result(c, id, BT_VERDICT_FAIL, "> 0 with the global enable set", "exact",
			    "counter 0 counted nothing with its global enable set");
	else if (after != before)
		conf_result(c, id, BT_VERDICT_FAIL, "no count after the stop write", "exact",
			    "counter 0 went from 0x%llx to 0x%llx after the stop write",
			    (unsigned long long)before, (unsigned long long)after);
	else
		conf_result(c, id, BT_VERDICT_PASS, "0 / > 0 / 0", "exact", "counter 0: 0 with "
			    "the global enable clear, %llu with it set, nothing after the stop write",
			    (unsigned long long)on.gp_delta[0]);
}
