/* SPDX-License-Identifier: MIT */
/*
 * The Intel-only conformance checks (SDM vol. 3B ch. 20): fixed counters
 * against general ones and the TSC, 32-bit and full-width counter writes,
 * RDPMC of the fixed counters, PERF_METRICS. On AMD each is reported SKIP
 * with the reason.
 */
#include <stdio.h>
#include <string.h>

#include "validate/conformance-internal.h"

#define AMD_NO_FIXED "AMD has no fixed counters (APM vol. 2 §13.2)"

static uint64_t absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/*
 * conf:fixed0-vs-gp-inst: fixed counter 0 (INST_RETIRED.ANY) and a general
 * counter with 0xC0/0x00 (INST_RETIRED.ANY_P) count the same instructions
 * (SDM Table 20-2 and Table 20-1): exactly, after the empty kernel.
 * conf:fixed1-vs-gp-cycles: fixed counter 1 (CPU_CLK_UNHALTED.THREAD) and
 * 0x3C/0x00 (UnHalted Core Cycles): within 1 % (cycles vary run to run).
 * conf:fixed2-vs-tsc: fixed counter 2 (CPU_CLK_UNHALTED.REF_TSC) counts at
 * the TSC's rate while the core is not halted (SDM Table 20-2): its count
 * over the window within 2 % of the TSC ticks around it.
 * General counter 0 only, so a defect of another general counter shows in
 * conf:gp-agree alone.
 */
void conf_intel_fixed(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	static const char *const ids[3] = { "conf:fixed0-vs-gp-inst", "conf:fixed1-vs-gp-cycles",
					    "conf:fixed2-vs-tsc" };
	for (unsigned f = 0; f < 3; f++) {
		const char *id = ids[f];
		if (!c->intel) {
			conf_result(c, id, BT_VERDICT_SKIP, "", "", AMD_NO_FIXED);
			continue;
		}
		if (!(k->fixed_mask & (1u << f))) {
			conf_result(c, id, BT_VERDICT_SKIP, "", "", "fixed counter %u is not "
				    "enumerated (CPUID.0AH:EDX[4:0], ECX)", f);
			continue;
		}
		struct conf_prog p;
		struct conf_count r;
		memset(&p, 0, sizeof(p));
		p.fixed = 1u << f;
		if (f < 2) {
			p.gp = 1;
			p.sel[0] = conf_sel(c, f == 0 ? CONF_INST : 0x3C, 0);
		}
		if (conf_count(c, &p, f < 2, &r) != BT_OK) {
			conf_result(c, id, BT_VERDICT_FAIL, "", "", "%s", c->err.text);
			continue;
		}
		if (f == 0) {
			bool ok = r.fixed[0] == r.gp[0] && r.gp[0] > 0;
			conf_result_measured(c, id, ok ? BT_VERDICT_PASS : BT_VERDICT_FAIL, r.fixed[0],
					     r.fixed_min[0], r.fixed_max[0], r.runs,
					     "= general counter 0 (0xC0/0x00)", "exact",
					     "fixed counter 0 %llu, general counter 0 %llu%s",
					     (unsigned long long)r.fixed[0], (unsigned long long)r.gp[0],
					     ok ? "" : r.gp[0] ? ": they differ" : ": nothing counted");
		} else if (f == 1) {
			bool ok = r.gp[0] > 0 && absdiff(r.fixed[1], r.gp[0]) <= r.gp[0] / 100;
			conf_result_measured(c, id, ok ? BT_VERDICT_PASS : BT_VERDICT_FAIL, r.fixed[1],
					     r.fixed_min[1], r.fixed_max[1], r.runs,
					     "= general counter 0 (0x3C/0x00)", "+-1 %",
					     "fixed counter 1 %llu, general counter 0 %llu",
					     (unsigned long long)r.fixed[1], (unsigned long long)r.gp[0]);
		} else {
			double ratio = r.tsc ? (double)r.fixed[2] / (double)r.tsc : 0;
			bool ok = ratio >= 0.98 && ratio <= 1.02;
			conf_result_measured(c, id, ok ? BT_VERDICT_PASS : BT_VERDICT_FAIL, r.fixed[2],
					     r.fixed_min[2], r.fixed_max[2], r.runs,
					     "= TSC ticks of the window", "+-2 %",
					     "REF_TSC %llu over %llu TSC ticks: ratio %.4f",
					     (unsigned long long)r.fixed[2], (unsigned long long)r.tsc,
					     ratio);
		}
	}
}

static bt_status wr(struct conf *c, uint32_t save, uint32_t msr, uint64_t v)
{
	return bt_pmu_raw_write(&c->s, save, msr, v, &c->err);
}

static bt_status rd(struct conf *c, uint32_t msr, uint64_t *v)
{
	return bt_pmu_raw_read(&c->s, msr, v, &c->err);
}

/* The general counters the legacy IA32_PMCx / IA32_A_PMCx reach (0-7). */
static uint32_t legacy_gp(const struct conf *c)
{
	return c->caps->gp_mask & 0xFFu;
}

/*
 * conf:pmc-32bit-write: a WRMSR to IA32_PMCx writes bits 31:0 and
 * sign-extends bit 31 into bits [width-1:32] (SDM 20.2.6); bits 63:32 of
 * the value are not written. conf:full-width-write: where
 * IA32_PERF_CAPABILITIES[13] (FW_WRITE), IA32_A_PMCx writes every bit of
 * the counter width, with no sign extension (SDM 20.2.6). Each counter 0-7
 * is written and read back (RDMSR of the driver's counter address).
 */
void conf_intel_writes(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	if (!c->intel) {
		conf_result(c, "conf:pmc-32bit-write", BT_VERDICT_SKIP, "", "",
			    "AMD PerfCtr writes are 48 bits wide, no 32-bit form (APM vol. 2 §13.2.1)");
		conf_result(c, "conf:full-width-write", BT_VERDICT_SKIP, "", "",
			    "no IA32_A_PMCx on AMD (an Intel alias)");
		return;
	}
	uint64_t mask = conf_gp_mask(c);
	struct { uint64_t write, expect; } sx[3] = {
		{ 0x80001234ull, (0xFFFFFFFF80001234ull) & mask },  /* bit 31 set: extended */
		{ 0x7FFF1234ull, 0x7FFF1234ull },                    /* bit 31 clear */
		{ 0x0000000123456789ull, 0x23456789ull },            /* bit 32 not written */
	};
	struct { uint64_t write, expect; } fw[2] = {
		{ (1ull << (k->gp_width - 1)) | 0x123456789ull, 0 },  /* the top bit and bit 32 */
		{ 0x80000001ull, 0x80000001ull },                     /* no sign extension */
	};
	fw[0].write &= mask;
	fw[0].expect = fw[0].write;
	const char *id = "conf:pmc-32bit-write";
	char why[256] = "";
	/* Nothing counts while values are written and read back. */
	if (conf_stop_selectors(c) != BT_OK)
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
	for (unsigned i = 0; i < 8 && !why[0]; i++) {
		if (!(legacy_gp(c) & (1u << i)))
			continue;
		for (int t = 0; t < 3 && !why[0]; t++) {
			uint64_t got;
			uint32_t rm = bt_pmu_gp_ctr_msr(k, i);
			if (wr(c, rm, MSR_IA32_PMC0 + i, sx[t].write) != BT_OK ||
			    rd(c, rm, &got) != BT_OK) {
				snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
			} else if (got != sx[t].expect) {
				snprintf(why, sizeof(why), "IA32_PMC%u written 0x%llx reads back 0x%llx, "
					 "expected 0x%llx (bit 31 extended to bit %u)", i,
					 (unsigned long long)sx[t].write, (unsigned long long)got,
					 (unsigned long long)sx[t].expect, k->gp_width - 1);
			}
		}
	}
	char list[64];
	conf_list(list, sizeof(list), legacy_gp(c));
	if (why[0])
		conf_result(c, id, BT_VERDICT_FAIL, "bits 31:0, bit 31 sign-extended", "exact",
			    "%s", why);
	else
		conf_result(c, id, BT_VERDICT_PASS, "bits 31:0, bit 31 sign-extended", "exact",
			    "IA32_PMC%s: 0x80001234, 0x7FFF1234, 0x123456789 read back "
			    "sign-extended to %u bits", list, k->gp_width);

	id = "conf:full-width-write";
	if (!k->full_width_write) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "IA32_PERF_CAPABILITIES[13] (FW_WRITE) "
			    "is clear: there is no IA32_A_PMCx");
		return;
	}
	why[0] = '\0';
	for (unsigned i = 0; i < 8 && !why[0]; i++) {
		if (!(legacy_gp(c) & (1u << i)))
			continue;
		for (int t = 0; t < 2 && !why[0]; t++) {
			uint64_t got;
			uint32_t rm = bt_pmu_gp_ctr_msr(k, i);
			if (wr(c, rm, MSR_IA32_A_PMC0 + i, fw[t].write) != BT_OK ||
			    rd(c, rm, &got) != BT_OK)
				snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
			else if (got != fw[t].expect)
				snprintf(why, sizeof(why), "IA32_A_PMC%u written 0x%llx reads back "
					 "0x%llx", i, (unsigned long long)fw[t].write,
					 (unsigned long long)got);
		}
	}
	if (why[0])
		conf_result(c, id, BT_VERDICT_FAIL, "every bit as written", "exact", "%s", why);
	else
		conf_result(c, id, BT_VERDICT_PASS, "every bit as written", "exact",
			    "IA32_A_PMC%s: 0x%llx and 0x80000001 read back as written", list,
			    (unsigned long long)fw[0].write);
}

/*
 * conf:rdpmc-fixed: RDPMC with ECX[30] set reads fixed counter ECX[15:0]
 * (SDM vol. 2B RDPMC): with every fixed counter and the general counters
 * of the same indexes holding distinct values, RDPMC(0x40000000 | i) must
 * equal RDMSR of IA32_FIXED_CTRi and the value written.
 */
void conf_intel_rdpmc(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	const char *id = "conf:rdpmc-fixed";
	if (!c->intel) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", AMD_NO_FIXED);
		return;
	}
	if (!k->fixed_mask) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "no fixed counter enumerated");
		return;
	}
	uint64_t fmask = conf_fixed_mask(c);
	char why[256] = "";
	if (conf_stop_selectors(c) != BT_OK)
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
	for (unsigned i = 0; i < BT_PMU_MAX_GP && !why[0]; i++)
		if (k->gp_mask & k->fixed_mask & (1u << i)) {
			uint32_t rm = bt_pmu_gp_ctr_msr(k, i);
			if (wr(c, rm, bt_pmu_gp_ctr_write_msr(k, i), 0x5A5A0000ull + i) != BT_OK)
				snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		}
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED && !why[0]; i++) {
		if (!(k->fixed_mask & (1u << i)))
			continue;
		uint32_t m = bt_pmu_fixed_ctr_msr(k, i);
		uint64_t v = (((uint64_t)(i + 1) << 36) | (0xF00D0ull + i)) & fmask, by_msr, by_pmc;
		if (wr(c, m, m, v) != BT_OK || rd(c, m, &by_msr) != BT_OK ||
		    bt_pmu_raw_rdpmc(&c->s, (uint32_t)RDPMC_FIXED | i, &by_pmc, &c->err) != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (by_pmc != by_msr || by_msr != v)
			snprintf(why, sizeof(why), "fixed counter %u holds 0x%llx: RDPMC ECX=0x%X "
				 "read 0x%llx, RDMSR 0x%X read 0x%llx", i, (unsigned long long)v,
				 (unsigned)RDPMC_FIXED | i, (unsigned long long)by_pmc, m,
				 (unsigned long long)by_msr);
	}
	char list[64];
	conf_list(list, sizeof(list), k->fixed_mask);
	if (why[0])
		conf_result(c, id, BT_VERDICT_FAIL, "RDPMC = RDMSR", "exact", "%s", why);
	else
		conf_result(c, id, BT_VERDICT_PASS, "RDPMC = RDMSR", "exact", "fixed counters %s: "
			    "RDPMC with ECX[30] equals RDMSR of IA32_FIXED_CTRi", list);
}

/* The level-1 fields sum to 0xFF within `tol`; with 8 fields each level-2
 * field is within its parent (SDM 20.3.9.3: heavy operations within
 * retiring, branch mispredicts within bad speculation, fetch latency
 * within frontend bound, memory bound within backend bound). */
static bool pm_ok(uint64_t pm, unsigned fields, char *why, size_t len)
{
	unsigned b[8];
	for (int f = 0; f < 8; f++)
		b[f] = (unsigned)(pm >> (8 * f)) & 0xFF;
	unsigned sum = b[0] + b[1] + b[2] + b[3];
	if (sum + 4 < 255 || sum > 255 + 4) {
		snprintf(why, len, "PERF_METRICS 0x%llx: level-1 fields %02X %02X %02X %02X sum to "
			 "%u, not 255 +- 4", (unsigned long long)pm, b[0], b[1], b[2], b[3], sum);
		return false;
	}
	static const int parent[8] = { -1, -1, -1, -1, 0, 1, 2, 3 };
	for (unsigned f = 4; f < fields && f < 8; f++)
		if (b[f] > b[parent[f]] + 1) {
			snprintf(why, len, "PERF_METRICS 0x%llx: field %u (%02X) exceeds its "
				 "parent, field %d (%02X)", (unsigned long long)pm, f, b[f],
				 parent[f], b[parent[f]]);
			return false;
		}
	return true;
}

/*
 * conf:perf-metrics-sum: with SLOTS (fixed counter 3) and PERF_METRICS
 * enabled (IA32_PERF_GLOBAL_CTRL bit 48), the four level-1 fractions of
 * PERF_METRICS sum to 0xFF, give or take one per field for rounding
 * (SDM 20.3.9.3), in every run.
 * conf:perf-metrics-reset: SDM 20.3.9.3 resets the two together: after
 * writing FIXED_CTR3 = 0 and then PERF_METRICS = 0 both read 0, and the
 * next run's fractions again sum to 0xFF.
 */
void conf_intel_perf_metrics(struct conf *c)
{
	const struct bt_pmu_caps *k = c->caps;
	const char *sid = "conf:perf-metrics-sum", *rid = "conf:perf-metrics-reset";
	const char *skip = !c->intel ? "AMD has no PERF_METRICS"
			   : !k->perf_metrics ? "no PERF_METRICS (IA32_PERF_CAPABILITIES[15] clear "
						"or a core without it; SDM 20.3.9.3)"
			   : !(k->fixed_mask & 0x8) ? "fixed counter 3 (SLOTS) is not enumerated"
			   : NULL;
	if (skip) {
		conf_result(c, sid, BT_VERDICT_SKIP, "", "", "%s", skip);
		conf_result(c, rid, BT_VERDICT_SKIP, "", "", "%s", skip);
		return;
	}
	unsigned fields = k->perf_metrics_fields ? k->perf_metrics_fields : 4;
	struct conf_prog p;
	struct conf_run r;
	memset(&p, 0, sizeof(p));
	p.fixed = 1u << 3;
	p.pm = true;
	char why[256] = "";
	uint64_t last = 0, slots = 0;
	for (unsigned rep = 0; rep < c->reps && !why[0]; rep++) {
		if (conf_run(c, &p, false, &r) != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (r.fixed_delta[3] == 0)
			snprintf(why, sizeof(why), "SLOTS counted nothing");
		else
			pm_ok(r.perf_metrics, fields, why, sizeof(why));
		last = r.perf_metrics;
		slots = r.fixed_delta[3];
	}
	if (why[0])
		conf_result(c, sid, BT_VERDICT_FAIL, "level 1 sums to 0xFF", "+-4", "%s", why);
	else
		conf_result(c, sid, BT_VERDICT_PASS, "level 1 sums to 0xFF", "+-4",
			    "SLOTS %llu, PERF_METRICS 0x%llx (%u fields) in each of %u runs",
			    (unsigned long long)slots, (unsigned long long)last, fields, c->reps);

	uint32_t f3 = bt_pmu_fixed_ctr_msr(k, 3);
	uint64_t s3 = 1, pm = 1;
	why[0] = '\0';
	if (wr(c, f3, f3, 0) != BT_OK || wr(c, MSR_PERF_METRICS, MSR_PERF_METRICS, 0) != BT_OK ||
	    rd(c, f3, &s3) != BT_OK || rd(c, MSR_PERF_METRICS, &pm) != BT_OK)
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
	else if (s3 || pm)
		snprintf(why, sizeof(why), "after writing 0 to IA32_FIXED_CTR3 and then "
			 "MSR_PERF_METRICS they read 0x%llx and 0x%llx", (unsigned long long)s3,
			 (unsigned long long)pm);
	else if (conf_run(c, &p, false, &r) != BT_OK)
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
	else if (pm_ok(r.perf_metrics, fields, why, sizeof(why)))
		why[0] = '\0';
	if (why[0])
		conf_result(c, rid, BT_VERDICT_FAIL, "both 0, then fresh fractions", "exact", "%s",
			    why);
	else
		conf_result(c, rid, BT_VERDICT_PASS, "both 0, then fresh fractions", "exact",
			    "IA32_FIXED_CTR3 and MSR_PERF_METRICS read 0 after the reset; the next "
			    "run's fields 0x%llx sum to 0xFF", (unsigned long long)r.perf_metrics);
}
