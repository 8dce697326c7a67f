/* SPDX-License-Identifier: MIT */
/* Timed PEBS: pebs.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/msr.h"
#include "pmu/pebs.h"
#include "pmu/pmu-raw.h"

/* IA32_PERF_CAPABILITIES[17] PEBS_TIMING_INFO (Linux perf_event.h, union
 * perf_capabilities: pebs_baseline 14, perf_metrics 15,
 * pebs_output_pt_available 16, pebs_timing_info 17). */
#define CAP_PEBS_BASELINE (1ull << 14)
#define CAP_PEBS_TIMING (1ull << 17)

/* The DS save area as Linux's struct debug_store (intel_ds.h): qwords 4-7
 * pebs_buffer_base, pebs_index, pebs_absolute_maximum,
 * pebs_interrupt_threshold; pebs_event_reset[] from qword 8, the general
 * counters first (the fixed ones at 8 + 32). */
#define DS_PEBS_BASE 4
#define DS_PEBS_INDEX 5
#define DS_PEBS_MAX 6
#define DS_PEBS_THRESHOLD 7
#define DS_PEBS_RESET 8
#define DS_QWORDS (8 + 32 + 16)
#define BASIC_BYTES 32u

#define SEL_USR (1ull << 16)
#define SEL_OS (1ull << 17)
#define SEL_INT (1ull << 20)
#define SEL_EN (1ull << 22)

bt_status bt_pebs_supported(struct bt_arch *a, const struct bt_pmu_caps *caps, struct bt_diag *d)
{
	struct bt_cpuid r;
	uint64_t misc = 0;

	if (caps->kind != BT_PMU_INTEL_ARCH || !caps->has_perf_capabilities ||
	    !(caps->perf_capabilities & CAP_PEBS_TIMING) || !(caps->perf_capabilities & CAP_PEBS_BASELINE)) {
		bt_diag_set(d, "no timed PEBS: IA32_PERF_CAPABILITIES[17] (PEBS_TIMING_INFO) is not set");
		return BT_ERR_UNSUPPORTED;
	}
	/* PEBS itself, as Linux decides it (arch/x86/kernel/cpu/intel.c
	 * init_intel: X86_FEATURE_PEBS only with X86_FEATURE_DS and
	 * IA32_MISC_ENABLE[12] "PEBS unavailable" clear; intel_ds_init then
	 * sets x86_pmu.pebs from it): PERF_CAPABILITIES alone does not say
	 * the processor writes records. */
	if (!caps->ds) {
		bt_diag_set(d, "no timed PEBS: no Debug Store (CPUID.01H:EDX[21] DS is 0)");
		return BT_ERR_UNSUPPORTED;
	}
	if (bt_rdmsr(a, MSR_IA32_MISC_ENABLE, &misc) != BT_OK || (misc & MISC_ENABLE_PEBS_UNAVAIL)) {
		bt_diag_set(d, "no timed PEBS: IA32_MISC_ENABLE[12] (PEBS unavailable) %s",
			    misc & MISC_ENABLE_PEBS_UNAVAIL ? "is set" : "could not be read");
		return BT_ERR_UNSUPPORTED;
	}
	/* Architectural PEBS: CPUID.23H.0:EAX[4] (PEBS capabilities subleaf 4)
	 * and [5] (PEBS counters subleaf 5), as Linux reads them. */
	bt_cpuid(a, 0, 0, &r);
	if (r.eax >= 0x23) {
		bt_cpuid(a, 0x23, 0, &r);
		if ((r.eax >> 4) & 3) {
			bt_diag_set(d, "architectural PEBS (CPUID.23H.0:EAX[4]/[5], subleaves 4 and 5) is "
				    "not supported: its records and MSRs differ from IA32_PEBS_ENABLE / "
				    "MSR_PEBS_DATA_CFG");
			return BT_ERR_UNSUPPORTED;
		}
	}
	return BT_OK;
}

unsigned bt_pebs_latencies(const uint64_t *buf, uint64_t bytes, uint32_t *lat, unsigned cap)
{
	unsigned n = 0;
	uint64_t at = 0;
	while (n < cap && at + BASIC_BYTES <= bytes) {
		uint64_t q0 = buf[at / 8];
		uint64_t size = q0 >> 48;
		if (size < BASIC_BYTES || size % 8 || at + size > bytes)
			break;
		lat[n++] = (uint32_t)((q0 >> 32) & 0xFFFF);
		at += size;
	}
	return n;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The event's selector as encoded (event, umask, UMASK2, privilege bits),
 * enabled, without the PMI bit (20): records are read after the window. */
static uint64_t selector(uint64_t evtsel)
{
	uint64_t v = evtsel & ~(SEL_EN | SEL_INT);
	if (!(v & (SEL_USR | SEL_OS)))
		v |= SEL_USR | SEL_OS;
	return v | SEL_EN;
}

struct saved {
	uint64_t ds_area, pebs_enable, data_cfg, sel, ctr, global, extra, status;
	uint32_t extra_msr; /* 0: none saved */
};

static bt_status rd(struct bt_arch *a, uint32_t msr, uint64_t *v, const char *name, struct bt_diag *d)
{
	bt_status s = bt_rdmsr(a, msr, v);
	if (s != BT_OK)
		bt_diag_set(d, "timed PEBS: RDMSR %s (0x%X) faulted", name, (unsigned)msr);
	return s;
}

static bt_status wr(struct bt_arch *a, uint32_t msr, uint64_t v, const char *name, struct bt_diag *d)
{
	bt_status s = bt_wrmsr(a, msr, v);
	if (s != BT_OK)
		bt_diag_set(d, "timed PEBS: WRMSR %s (0x%X) faulted", name, (unsigned)msr);
	return s;
}

/* Everything back as found, PEBS_ENABLE first (no assist may write into
 * the area being taken away); every write tried even after a fault. The
 * sampling counter's overflow bit and OvfBuffer (62), which its assists
 * set (Linux intel/core.c handle_pmi_common: "the overflow status bit for
 * the PEBS counter will be on"; bit 62 at the DS threshold), are cleared
 * through IA32_PERF_GLOBAL_STATUS_RESET (IA32_PERF_GLOBAL_OVF_CTRL before
 * v4, the same address and bits) unless they were set before: the next
 * session takes GLOBAL_STATUS as the firmware's and restores it. */
static bt_status restore(struct bt_arch *a, const struct saved *sv, unsigned c, uint32_t sel,
			 uint32_t ctr, struct bt_diag *d)
{
	bt_status s = BT_OK, t;
	struct bt_diag ignore = { "" };
	struct bt_diag *dd = d;
	uint64_t status = 0;
#define PUT(msr, v, name)                                     \
	do {                                                  \
		t = wr(a, msr, v, name, dd);                  \
		if (t != BT_OK && s == BT_OK) {               \
			s = t;                                \
			dd = &ignore;                         \
		}                                             \
	} while (0)
	PUT(MSR_IA32_PERF_GLOBAL_CTRL, 0, "IA32_PERF_GLOBAL_CTRL");
	PUT(MSR_IA32_PEBS_ENABLE, sv->pebs_enable, "IA32_PEBS_ENABLE");
	t = rd(a, MSR_IA32_PERF_GLOBAL_STATUS, &status, "IA32_PERF_GLOBAL_STATUS", dd);
	if (t != BT_OK && s == BT_OK) {
		s = t;
		dd = &ignore;
	}
	uint64_t ours = status & ~sv->status & ((1ull << c) | GLOBAL_STATUS_OVF_BUF);
	if (t == BT_OK && ours)
		PUT(MSR_IA32_PERF_GLOBAL_OVF_CTRL, ours, "IA32_PERF_GLOBAL_STATUS_RESET");
	PUT(MSR_IA32_DS_AREA, sv->ds_area, "IA32_DS_AREA");
	PUT(MSR_PEBS_DATA_CFG, sv->data_cfg, "MSR_PEBS_DATA_CFG");
	if (sv->extra_msr)
		PUT(sv->extra_msr, sv->extra, "MSR_PEBS_FRONTEND");
	PUT(sel, sv->sel, "IA32_PERFEVTSELx");
	PUT(ctr, sv->ctr, "IA32_A_PMCx");
	PUT(MSR_IA32_PERF_GLOBAL_CTRL, sv->global, "IA32_PERF_GLOBAL_CTRL");
#undef PUT
	return s;
}

bt_status bt_pebs_sample(struct bt_arch *a, const struct bt_pmu_caps *caps,
			 const struct bt_pebs_job *job, struct bt_pebs_stats *ret, struct bt_diag *d)
{
	bt_status st;
	struct saved sv = { 0 };
	unsigned c = job->counter;
	/* The counter's addresses as the part enumerates them: perfmon v6's
	 * 0x19xx range (its bitmap may have gaps, and counters 8 and up have
	 * no legacy address), else IA32_PERFEVTSELx / IA32_A_PMCx. */
	uint32_t sel = bt_pmu_gp_sel_msr(caps, c);
	uint32_t ctr = bt_pmu_gp_ctr_write_msr(caps, c);
	uint64_t mask = caps->gp_width >= 64 ? UINT64_MAX : (1ull << caps->gp_width) - 1;

	memset(ret, 0, sizeof(*ret));
	ret->mean = ret->median = NAN;
	if ((st = bt_pebs_supported(a, caps, d)) != BT_OK)
		return st;
	if (job->extra_msr && job->extra_msr != MSR_PEBS_FRONTEND) {
		char nm[40];
		/* MSR_PEBS_LD_LAT: load-latency events are not counted by
		 * baretop (pmu/event-encode.c), so none has a count to size a
		 * window from, and no TMA model weighs one with a retire
		 * latency. OFFCORE_RESPONSE events are not precise. */
		bt_diag_set(d, "timed PEBS: events that need %s (0x%X) are not sampled; only "
			    "MSR_PEBS_FRONTEND (FRONTEND_RETIRED.*) is programmed for a sampling window",
			    bt_msr_name(job->extra_msr, nm, sizeof(nm)), (unsigned)job->extra_msr);
		return BT_ERR_UNSUPPORTED;
	}
	if (c >= 32 || !((caps->gp_mask >> c) & 1) || !job->sample_after ||
	    job->sample_after > mask || !job->slots || !caps->full_width_write) {
		bt_diag_set(d, "timed PEBS: counter %u, sample-after %llu, %u records: not usable here%s",
			    c, (unsigned long long)job->sample_after, job->slots,
			    caps->full_width_write ? "" : " (no full-width counter writes)");
		return BT_ERR_INVALID;
	}
	/* The DS area (4 KiB aligned, as Linux keeps it) and the buffer. */
	size_t buf_bytes = (size_t)job->slots * BASIC_BYTES;
	void *mem = malloc(4096 + DS_QWORDS * 8 + buf_bytes + 64);
	uint32_t *lat = malloc(((size_t)job->slots + 1) * sizeof(*lat));
	if (!mem || !lat) {
		free(mem);
		free(lat);
		return BT_ERR_NOMEM;
	}
	uint64_t *ds = (uint64_t *)(((uintptr_t)mem + 4095) & ~(uintptr_t)4095);
	uint64_t *buf = ds + DS_QWORDS;
	uint64_t reload = (0 - job->sample_after) & mask;
	memset(ds, 0, DS_QWORDS * 8);
	ds[DS_PEBS_BASE] = (uint64_t)(uintptr_t)buf;
	ds[DS_PEBS_INDEX] = ds[DS_PEBS_BASE];
	ds[DS_PEBS_MAX] = ds[DS_PEBS_BASE] + buf_bytes;
	ds[DS_PEBS_THRESHOLD] = ds[DS_PEBS_MAX]; /* no PMI wanted: threshold at the end */
	ds[DS_PEBS_RESET + c] = reload;

	/* Save, in the order they are restored in reverse. */
	if ((st = rd(a, MSR_IA32_PERF_GLOBAL_CTRL, &sv.global, "IA32_PERF_GLOBAL_CTRL", d)) != BT_OK ||
	    (st = rd(a, MSR_IA32_PEBS_ENABLE, &sv.pebs_enable, "IA32_PEBS_ENABLE", d)) != BT_OK ||
	    (st = rd(a, MSR_IA32_DS_AREA, &sv.ds_area, "IA32_DS_AREA", d)) != BT_OK ||
	    (st = rd(a, MSR_PEBS_DATA_CFG, &sv.data_cfg, "MSR_PEBS_DATA_CFG", d)) != BT_OK ||
	    (st = rd(a, sel, &sv.sel, "IA32_PERFEVTSELx", d)) != BT_OK ||
	    (st = rd(a, bt_pmu_gp_ctr_msr(caps, c), &sv.ctr, "IA32_PMCx", d)) != BT_OK ||
	    (st = rd(a, MSR_IA32_PERF_GLOBAL_STATUS, &sv.status, "IA32_PERF_GLOBAL_STATUS", d)) != BT_OK ||
	    (job->extra_msr &&
	     (st = rd(a, job->extra_msr, &sv.extra, "MSR_PEBS_FRONTEND", d)) != BT_OK))
		goto out; /* nothing written yet */
	sv.extra_msr = job->extra_msr;
	/* Program: everything stopped, then the area, the groups, the counter. */
	if ((st = wr(a, MSR_IA32_PERF_GLOBAL_CTRL, 0, "IA32_PERF_GLOBAL_CTRL", d)) != BT_OK ||
	    (st = wr(a, MSR_IA32_PEBS_ENABLE, 0, "IA32_PEBS_ENABLE", d)) != BT_OK ||
	    (st = wr(a, MSR_IA32_DS_AREA, (uint64_t)(uintptr_t)ds, "IA32_DS_AREA", d)) != BT_OK ||
	    (st = wr(a, MSR_PEBS_DATA_CFG, 0, "MSR_PEBS_DATA_CFG", d)) != BT_OK ||
	    (job->extra_msr &&
	     (st = wr(a, job->extra_msr, job->extra_value, "MSR_PEBS_FRONTEND", d)) != BT_OK) ||
	    (st = wr(a, sel, selector(job->evtsel), "IA32_PERFEVTSELx", d)) != BT_OK ||
	    (st = wr(a, ctr, reload, "IA32_A_PMCx", d)) != BT_OK ||
	    (st = wr(a, MSR_IA32_PEBS_ENABLE, 1ull << c, "IA32_PEBS_ENABLE", d)) != BT_OK) {
		struct bt_diag later = { "" }; /* the first fault is the one to report */
		restore(a, &sv, c, sel, ctr, &later);
		goto out;
	}
	/* The run, in one window or split like a counting run (pmu/measure.c
	 * one_window): GLOBAL_CTRL stops the counter between windows, so no
	 * assist fires while interrupts are open; the DS index and the
	 * counter carry on into the next window. */
	unsigned nw = job->windows > 1 && job->set_range && job->iterations >= job->windows ?
		      job->windows : 1;
	for (unsigned w = 0; w < nw && st == BT_OK; w++) {
		uint64_t irq = 0;
		if (nw > 1) {
			uint64_t n = job->iterations;
			uint64_t b = (n / nw) * w + (n % nw) * w / nw;
			uint64_t e = (n / nw) * (w + 1) + (n % nw) * (w + 1) / nw;
			job->set_range(job->range_ctx, b, e);
			bt_window_part(a, b, e, n);
		}
		if (job->mask_interrupts)
			irq = bt_irq_save(a);
		st = bt_run_window(a, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << c, 0, job->fn, job->arg);
		if (job->mask_interrupts)
			bt_irq_restore(a, irq);
	}
	if (nw > 1)
		job->set_range(job->range_ctx, 0, job->iterations);
	ret->windows = nw;
	if (st != BT_OK)
		bt_diag_set(d, "timed PEBS: the window failed");
	bt_status rs = restore(a, &sv, c, sel, ctr, d);
	if (st == BT_OK)
		st = rs;
	if (st != BT_OK)
		goto out;
	/* The records: from the base to the index the processor left. */
	uint64_t used = ds[DS_PEBS_INDEX] - ds[DS_PEBS_BASE];
	unsigned n = bt_pebs_latencies(buf, used <= buf_bytes ? used : buf_bytes, lat, job->slots);
	ret->samples = n;
	if (n) {
		double sum = 0;
		qsort(lat, n, sizeof(*lat), cmp_u32);
		for (unsigned k = 0; k < n; k++) {
			sum += lat[k];
			ret->saturated += lat[k] == BT_PEBS_LAT_MAX;
		}
		ret->mean = sum / n;
		ret->median = n % 2 ? lat[n / 2] : (lat[n / 2 - 1] + (double)lat[n / 2]) / 2;
		ret->min = lat[0];
		ret->max = lat[n - 1];
	}
	if (ds[DS_PEBS_INDEX] + BASIC_BYTES > ds[DS_PEBS_MAX])
		ret->dropped = 1; /* the buffer filled: later overflows wrote nothing */
out:
	free(mem);
	free(lat);
	return st;
}
