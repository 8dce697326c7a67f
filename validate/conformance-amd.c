/* SPDX-License-Identifier: MIT */
/*
 * The AMD-only conformance check: with the core performance counter
 * extension (CPUID 8000_0001h:ECX[23] PerfCtrExtCore), the legacy
 * PerfEvtSel0-3 / PerfCtr0-3 (0xC0010000-7) are the same registers as
 * core counters 0-3 at 0xC0010200 + 2n / + 2n + 1 (APM vol. 2 §13.2.1,
 * "Core Performance Counters": the legacy MSRs alias the first four).
 */
#include <stdio.h>
#include <string.h>

#include "validate/conformance-internal.h"

static bt_status wr(struct conf *c, uint32_t save, uint32_t msr, uint64_t v)
{
	return bt_pmu_raw_write(&c->s, save, msr, v, &c->err);
}

static bt_status rd(struct conf *c, uint32_t msr, uint64_t *v)
{
	return bt_pmu_raw_read(&c->s, msr, v, &c->err);
}

/* conf:amd-legacy-vs-ext: a value written through either address reads
 * back through the other, counter and selector alike, for counters 0-3;
 * and counter 0 programmed and started through the legacy selector counts
 * in the core-extension counter. Legacy writes are saved under the
 * core-extension address, which the driver restores. */
void conf_amd_alias(struct conf *c)
{
	const char *id = "conf:amd-legacy-vs-ext";
	if (c->intel) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "an AMD rule (Intel has no such alias)");
		return;
	}
	if (!c->amd_ext) {
		conf_result(c, id, BT_VERDICT_SKIP, "", "", "no core extension (CPUID "
			    "8000_0001h:ECX[23] PerfCtrExtCore clear): the legacy MSRs are the "
			    "only ones");
		return;
	}
	char why[256] = "";
	if (conf_stop_selectors(c) != BT_OK)
		snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
	for (unsigned i = 0; i < 4 && !why[0]; i++) {
		uint32_t xc = MSR_AMD_CORE_CTR0 + 2 * i, lc = MSR_AMD_PERFCTR0 + i;
		uint32_t xs = MSR_AMD_CORE_EVTSEL0 + 2 * i, ls = MSR_AMD_PERFEVTSEL0 + i;
		uint64_t v = 0x100000000ull * (i + 1) + 0x111u * (i + 1);
		uint64_t w = 0x2000000000ull * (i + 1) + 0x77u * (i + 1);
		uint64_t sel = conf_sel(c, CONF_INST, 0), got = 0;
		if (wr(c, xc, xc, v) != BT_OK || rd(c, lc, &got) != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (got != v)
			snprintf(why, sizeof(why), "PerfCtr%u: 0x%llx written at 0x%X, 0x%llx read "
				 "at 0x%X", i, (unsigned long long)v, xc, (unsigned long long)got, lc);
		else if (wr(c, xc, lc, w) != BT_OK || rd(c, xc, &got) != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (got != w)
			snprintf(why, sizeof(why), "PerfCtr%u: 0x%llx written at 0x%X, 0x%llx read "
				 "at 0x%X", i, (unsigned long long)w, lc, (unsigned long long)got, xc);
		else if (wr(c, xs, ls, sel) != BT_OK || rd(c, xs, &got) != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (got != sel)
			snprintf(why, sizeof(why), "PerfEvtSel%u: 0x%llx written at 0x%X, 0x%llx read "
				 "at 0x%X", i, (unsigned long long)sel, ls, (unsigned long long)got, xs);
	}
	/* Counting through the legacy selector. */
	uint64_t start = 0, end = 0, sel = conf_sel(c, CONF_INST, 0);
	if (!why[0]) {
		uint32_t xs = MSR_AMD_CORE_EVTSEL0, ls = MSR_AMD_PERFEVTSEL0, xc = MSR_AMD_CORE_CTR0;
		bt_status st = wr(c, xc, xc, 0);
		if (st == BT_OK)
			st = rd(c, xc, &start);
		uint64_t irq = bt_irq_save(c->arch);
		if (st == BT_OK && c->amd_v2) {
			st = wr(c, xs, ls, sel | EVTSEL_EN);
			if (st == BT_OK)
				st = bt_pmu_raw_window(&c->s, MSR_AMD_PERF_GLOBAL_CTL, 1, 0, c->loop->run,
						       &c->loop_st, NULL, &c->err);
		} else if (st == BT_OK) {
			st = bt_pmu_raw_window(&c->s, xs, sel | EVTSEL_EN, sel, c->loop->run,
					       &c->loop_st, NULL, &c->err);
			(void)ls;
		}
		bt_irq_restore(c->arch, irq);
		if (st == BT_OK)
			st = wr(c, xs, ls, sel);
		if (st == BT_OK)
			st = rd(c, xc, &end);
		if (st != BT_OK)
			snprintf(why, sizeof(why), "%.*s", (int)sizeof(why) - 1, c->err.text);
		else if (end <= start)
			snprintf(why, sizeof(why), "counter 0 started through legacy PerfEvtSel0 "
				 "(0xC0010000) counted nothing at 0xC0010201");
	}
	if (why[0])
		conf_result(c, id, BT_VERDICT_FAIL, "one register at both addresses", "exact", "%s",
			    why);
	else
		conf_result(c, id, BT_VERDICT_PASS, "one register at both addresses", "exact",
			    "counters 0-3: values written at 0xC0010004+n / 0xC0010201+2n read back "
			    "at the other, selectors likewise; %llu counted through the legacy "
			    "selector", (unsigned long long)(end - start));
}
