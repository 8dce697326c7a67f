/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU's dispatcher: the struct bt_arch ops (CPUID, RDMSR,
 * WRMSR, RDPMC, RDTSC, the counting window), what every access shares
 * (foreign activity, fault injection, the access log, the #GP), set-up and
 * the "left by firmware" state, and the restore checks. What an MSR or
 * RDPMC does is the vendor's register model's (struct bt_sim_vendor:
 * sim-intel.c, sim-amd.c), chosen once at bt_sim_init; CPUID answers are
 * in sim-cpuid.c, counting in sim-count.c, the shared state helpers in
 * sim-state.c, presets in sim-presets.c (per-model CPUs: synth/model-cpus.c), register facts
 * in sim-regs.h and sim-tables.c (never the driver's pmu/msr.h). Calls go
 * one way, down that list (arch/sim/README.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"
#include "arch/sim/sim-internal.h"

static void log_access(struct bt_sim *sim, uint8_t op, uint32_t index, uint64_t value,
		       bool faulted)
{
	if (sim->log_len == sim->log_cap) {
		size_t cap = sim->log_cap ? sim->log_cap * 2 : 256;
		if (cap > (1u << 20)) {
			sim->log_overflow = true;
			return;
		}
		struct bt_sim_log_entry *n = realloc(sim->log, cap * sizeof(*n));
		if (!n) {
			sim->log_overflow = true;
			return;
		}
		sim->log = n;
		sim->log_cap = cap;
	}
	sim->log[sim->log_len++] = (struct bt_sim_log_entry){
		.op = op, .faulted = faulted, .index = index, .value = value,
	};
}

static bt_status gp_fault(struct bt_sim *sim)
{
	sim->arch.fault_vector = BT_VEC_GP;
	sim->arch.fault_count++;
	return BT_ERR_FAULT;
}

/* Injected faults: the Nth access, or a chosen (op, msr). */
static bool injected(struct bt_sim *sim, uint8_t op, uint32_t index)
{
	if (sim->fault_at && sim->access_count == sim->fault_at)
		return true;
	if (sim->fault_msr_armed && sim->fault_msr == index &&
	    (sim->fault_op == 0 || sim->fault_op == op))
		return true;
	return false;
}

/* An injected SMI lands right after the access that completes the count
 * (struct bt_sim smi_after). */
static void smi_injection(struct bt_sim *sim, uint8_t op, uint32_t index)
{
	if (sim->smi_after && (sim->smi_op == 0 || sim->smi_op == op) && sim->smi_msr == index &&
	    --sim->smi_after == 0)
		bt_sim_smi(sim);
}

/* Is general counter i (fixed counter i) configured exactly as it was at
 * the checkpoint? Counts it makes then are the firmware's own counting. */
static bool gp_as_found(const struct bt_sim *sim, unsigned i)
{
	const struct bt_sim_regs *r = &sim->regs, *f = &sim->found;
	return r->evtsel[i] == f->evtsel[i] && ((r->global_ctrl ^ f->global_ctrl) >> i & 1) == 0;
}

static bool fixed_as_found(const struct bt_sim *sim, unsigned i)
{
	const struct bt_sim_regs *r = &sim->regs, *f = &sim->found;
	unsigned sh = SIM_FIX_SHIFT(i);
	return ((r->fixed_ctrl ^ f->fixed_ctrl) >> sh & 0xF) == 0 &&
	       ((r->global_ctrl ^ f->global_ctrl) >> (SIM_GLOBAL_FIXED_SHIFT + i) & 1) == 0;
}

/* Foreign activity: the instructions of the driver itself retire while any
 * counter it left enabled counts (the ring-0 driver: OS-enabled counters). */
/* AMD PMCx02B "SMIs received" on a part that has it counts SMIs, never the
 * driver's instructions (sim-count.c deliver_smis). */
static bool counts_smis_only(const struct bt_sim *sim, uint64_t sel)
{
	unsigned code = (sel & 0xFF) | ((sel >> SIM_AMD_EVENT_HI_SHIFT) & 0xF) << 8;
	return sim->cfg.vendor == BT_VENDOR_AMD && code == 0x02B &&
	       ((sel >> SIM_SEL_UMASK_SHIFT) & 0xFF) == 0 && bt_sim_amd_smi_rx(&sim->cfg);
}

static void foreign_activity(struct bt_sim *sim)
{
	if (sim->in_window)
		return;
	sim->tsc += sim->cfg.tsc_per_access;
	uint64_t n = sim->cfg.noise_per_access;
	if (!n)
		return;
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++)
		if (bt_sim_gp_enabled(sim, i) && (sim->regs.evtsel[i] & SIM_SEL_OS) &&
		    !counts_smis_only(sim, sim->regs.evtsel[i])) {
			bt_sim_add_gp(sim, i, n);
			if (gp_as_found(sim, i))
				*((sim->written_gp >> i) & 1 ? &sim->found_post_gp[i]
							     : &sim->found_pre_gp[i]) += n;
		}
	if (sim->cfg.vendor == BT_VENDOR_INTEL)
		for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
			if (bt_sim_fixed_enabled(sim, i) &&
			    ((sim->regs.fixed_ctrl >> SIM_FIX_SHIFT(i)) & SIM_FIX_OS)) {
				bt_sim_add_fixed(sim, i, n);
				if (fixed_as_found(sim, i))
					*((sim->written_fixed >> i) & 1 ? &sim->found_post_fixed[i]
									: &sim->found_pre_fixed[i]) += n;
			}
}

static bt_status sim_rdmsr(struct bt_arch *a, uint32_t msr, uint64_t *ret)
{
	struct bt_sim *sim = a->ctx;
	sim->access_count++;
	foreign_activity(sim);
	uint64_t v = 0;
	bt_status st = injected(sim, BT_SIM_RDMSR, msr) ? BT_ERR_FAULT
		       : sim->vendor->rdmsr(sim, msr, &v);
	log_access(sim, BT_SIM_RDMSR, msr, v, st != BT_OK);
	smi_injection(sim, BT_SIM_RDMSR, msr);
	if (st != BT_OK)
		return gp_fault(sim);
	*ret = v;
	return BT_OK;
}

static bt_status sim_wrmsr(struct bt_arch *a, uint32_t msr, uint64_t value)
{
	struct bt_sim *sim = a->ctx;
	sim->access_count++;
	foreign_activity(sim);
	bt_status st = injected(sim, BT_SIM_WRMSR, msr) ? BT_ERR_FAULT
		       : sim->vendor->wrmsr(sim, msr, value);
	log_access(sim, BT_SIM_WRMSR, msr, value, st != BT_OK);
	smi_injection(sim, BT_SIM_WRMSR, msr);
	return st == BT_OK ? BT_OK : gp_fault(sim);
}

static bt_status sim_rdpmc(struct bt_arch *a, uint32_t ecx, uint64_t *ret)
{
	struct bt_sim *sim = a->ctx;
	sim->access_count++;
	foreign_activity(sim);
	uint64_t v = 0;
	bt_status st = injected(sim, BT_SIM_RDPMC, ecx) ? BT_ERR_FAULT
		       : sim->vendor->rdpmc(sim, ecx, &v);
	log_access(sim, BT_SIM_RDPMC, ecx, v, st != BT_OK);
	smi_injection(sim, BT_SIM_RDPMC, ecx);
	if (st != BT_OK)
		return gp_fault(sim);
	*ret = v;
	return BT_OK;
}

/* RDTSC cannot fault and is not an MSR access (no foreign activity, no
 * fault injection), but it is logged: where the driver reads the TSC
 * relative to the window matters (pmu-session.c sample_side). */
static uint64_t sim_rdtsc(struct bt_arch *a)
{
	struct bt_sim *sim = a->ctx;
	log_access(sim, BT_SIM_RDTSC, 0, sim->tsc, false);
	return sim->tsc;
}

static bt_status sim_xgetbv(struct bt_arch *a, uint32_t xcr, uint64_t *ret)
{
	if (xcr != 0) {
		a->fault_vector = BT_VEC_GP;
		return BT_ERR_FAULT;
	}
	*ret = 0x3; /* x87 + SSE */
	return BT_OK;
}

static bt_status sim_xsetbv(struct bt_arch *a, uint32_t xcr, uint64_t value)
{
	a->fault_vector = BT_VEC_UD; /* the sim models no OSXSAVE */
	return BT_ERR_FAULT;
}

static uint64_t sim_read_cr4(struct bt_arch *a) { return 0; }
static void sim_write_cr4(struct bt_arch *a, uint64_t value) { }
static uint64_t sim_irq_save(struct bt_arch *a) { return 0; }
static void sim_irq_restore(struct bt_arch *a, uint64_t state) { }

static bt_status sim_run_window(struct bt_arch *a, uint32_t msr, uint64_t start,
				uint64_t stop, bt_window_fn *fn, void *arg)
{
	struct bt_sim *sim = a->ctx;
	bt_status st = sim_wrmsr(a, msr, start);
	if (st != BT_OK)
		return st;
	sim->in_window = true;
	sim->windows++;
	log_access(sim, BT_SIM_WINDOW_BEGIN, msr, start, false);
	bt_sim_count_window(sim, fn);
	if (fn)
		fn(arg);
	log_access(sim, BT_SIM_WINDOW_END, msr, stop, false);
	st = sim_wrmsr(a, msr, stop);
	sim->in_window = false;
	return st;
}

/* The simulated PMU models no paging: the kernels' buffers are the real
 * machine's memory, whose pages the platform's own backend reads (the
 * program asks it, not this one, also under --sim). */
static bt_status sim_page_size(struct bt_arch *a, uint64_t linear, uint64_t *ret_bytes,
			       unsigned *ret_levels)
{
	return BT_ERR_UNSUPPORTED;
}

static void sim_window_part(struct bt_arch *a, uint64_t begin, uint64_t end, uint64_t total)
{
	struct bt_sim *sim = a->ctx;

	if (total && begin <= end && end <= total) {
		sim->part_begin = begin;
		sim->part_end = end;
		sim->part_total = total;
	}
}

static const struct bt_arch_ops sim_ops = {
	.cpuid = bt_sim_cpuid,
	.rdmsr = sim_rdmsr,
	.wrmsr = sim_wrmsr,
	.rdpmc = sim_rdpmc,
	.rdtsc = sim_rdtsc,
	.xgetbv = sim_xgetbv,
	.xsetbv = sim_xsetbv,
	.read_cr4 = sim_read_cr4,
	.write_cr4 = sim_write_cr4,
	.irq_save = sim_irq_save,
	.irq_restore = sim_irq_restore,
	.run_window = sim_run_window,
	.page_size = sim_page_size,
	.window_part = sim_window_part,
};

/* A plausible state left by firmware or an earlier user: selectors with
 * stale (disabled) encodings, counters holding arbitrary values, PERF_METRICS
 * holding fractions of a nonzero SLOTS. Counter values on parts without
 * full-width writes are ones a 32-bit sign-extending write can produce, so
 * a driver can put them back. GLOBAL_CTRL has its reset value (SDM 20.2.2:
 * the general-purpose enables set, for v1 software). cfg.initial adds
 * counters left running, overflow bits, a frozen PMU, CondChgd/ASCI, a
 * DEBUGCTL in use. */
static void initial_state(struct bt_sim *sim)
{
	const struct bt_sim_config *c = &sim->cfg;
	struct bt_sim_regs *r = &sim->regs;
	memset(r, 0, sizeof(*r));
	bool intel = c->vendor == BT_VENDOR_INTEL;
	bool running = c->initial & BT_SIM_INIT_RUNNING;
	uint64_t gpw = sim_width_mask(c->gp_width);
	uint32_t gpm = bt_sim_gp_mask(sim), fxm = bt_sim_fixed_mask(sim);
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++) {
		if (!((gpm >> i) & 1))
			continue;
		r->evtsel[i] = SIM_SEL_OS | SIM_SEL_USR | (0x3Cull + i) | ((uint64_t)i << 8);
		if (running)
			r->evtsel[i] |= SIM_SEL_EN;
		uint64_t v = 0x123456789ull * (i + 3) + 0x1111;
		if (intel && !c->full_width)
			v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
		r->ctr[i] = v & gpw & bt_sim_gp_ctr_mask(sim, i);
	}
	if (intel) {
		for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
			if ((fxm >> i) & 1) {
				r->fixed_ctr[i] = (0x2345678ull * (i + 5)) & sim_width_mask(c->fixed_width);
				if (running)
					r->fixed_ctrl |= (SIM_FIX_OS | SIM_FIX_USR) << SIM_FIX_SHIFT(i);
			}
		r->global_ctrl = sim_width_mask(c->num_gp) & gpm;
		if (running)
			r->global_ctrl = gpm | (uint64_t)fxm << SIM_GLOBAL_FIXED_SHIFT |
					 (c->perf_metrics ? SIM_GLOBAL_PM : 0);
		if (c->perf_metrics) {
			r->fixed_ctr[3] = 255000;
			r->perf_metrics = 0x0A141E28323C4650ull;
			if (c->pm_fields == 4)
				r->perf_metrics &= 0xFFFFFFFFull;
			for (int f = 0; f < 8; f++)
				sim->pm_acc[f] = r->fixed_ctr[3] * ((r->perf_metrics >> (8 * f)) & 0xFF) / 255;
		}
		if (c->offcore) {
			r->offcore[0] = 0x10001;
			r->offcore[1] = 0x3FBC000001ull;
		}
		if (c->ldlat)
			r->ldlat = 3;
		if (c->frontend)
			r->frontend = 0x11;
		if (c->version >= 4)
			r->global_status = SIM_ST_OVF_BUF; /* a stale OvfBuffer, restorable via STATUS_SET */
		if (c->initial & BT_SIM_INIT_OVERFLOW)
			r->global_status |= (gpm & 0x3) | ((fxm & 0x2ull) << SIM_GLOBAL_FIXED_SHIFT) |
					    SIM_ST_OVF_BUF;
		if ((c->initial & BT_SIM_INIT_FROZEN) && c->version >= 4)
			r->global_status |= SIM_ST_CTR_FRZ | SIM_ST_LBR_FRZ | (gpm & 0x1);
		if (c->initial & BT_SIM_INIT_CONDCHGD)
			r->global_status |= SIM_ST_COND_CHGD | (c->version >= 4 ? SIM_ST_ASCI : 0);
		/* A debugger's LBR setup: bits a driver setting FREEZE_WHILE_SMM
		 * must keep (read-modify-write) and put back. */
		if (c->initial & BT_SIM_INIT_DEBUGCTL)
			r->debugctl = SIM_DBG_LBR | SIM_DBG_FREEZE_LBRS_ON_PMI;
		/* Firmware's own counters (sim.h): general counter 1 counting
		 * ring 0 with a PMI, fixed counter 1 likewise. */
		if ((c->initial & BT_SIM_INIT_FW_COUNTERS) && (gpm & 0x2) && (fxm & 0x2)) {
			r->evtsel[1] = SIM_SEL_EN | SIM_SEL_INT | SIM_SEL_OS | 0x3C;
			r->fixed_ctrl = (r->fixed_ctrl & ~(0xFull << SIM_FIX_SHIFT(1))) |
					(SIM_FIX_PMI | SIM_FIX_USR | SIM_FIX_OS) << SIM_FIX_SHIFT(1);
			r->global_ctrl |= 0x2 | 0x2ull << SIM_GLOBAL_FIXED_SHIFT;
		}
		/* PEBS armed on counter 0, where PEBS exists (sim-intel.c). */
		if ((c->initial & BT_SIM_INIT_PEBS) && c->ldlat)
			r->pebs_enable = 0x1;
	} else if (c->amd_v2) {
		r->global_ctrl = sim_width_mask(c->num_gp);
		if (c->initial & BT_SIM_INIT_OVERFLOW)
			r->global_status |= 0x3;
	}
	sim->tsc = 1000000;
	sim->aperf = 5000;
	sim->mperf = 4000;
	sim->smi = 7;
}

/* The vendors' register models; a new one is a file defining its struct
 * bt_sim_vendor and one line here. */
static const struct bt_sim_vendor *const vendors[] = {
	&bt_sim_intel_regs,
	&bt_sim_amd_regs,
};

static const struct bt_sim_vendor *vendor_for(enum bt_vendor v)
{
	for (size_t i = 0; i < BT_ARRAY_SIZE(vendors); i++)
		if (vendors[i]->vendor == v)
			return vendors[i];
	return NULL;
}

const char *bt_sim_config_problem(const struct bt_sim_config *cfg, char *buf, size_t len)
{
	if (!cfg)
		return "no configuration";
	if (!vendor_for(cfg->vendor))
		return "a vendor the simulated PMU does not model";
	if (cfg->num_gp > BT_SIM_MAX_GP)
		snprintf(buf, len, "%u general counters: the simulated PMU models at most %u",
			 cfg->num_gp, BT_SIM_MAX_GP);
	else if (cfg->vendor != BT_VENDOR_INTEL)
		return NULL;
	else if (cfg->version < 2)
		snprintf(buf, len, "architectural perfmon version %u: the simulated PMU needs 2 or "
			 "later (IA32_PERF_GLOBAL_CTRL)", cfg->version);
	else if (cfg->num_fixed > BT_SIM_MAX_FIXED)
		snprintf(buf, len, "%u fixed counters: at most %u", cfg->num_fixed, BT_SIM_MAX_FIXED);
	else if (cfg->gp_width < 32 || cfg->gp_width > 64 || cfg->fixed_width > 64)
		snprintf(buf, len, "counter widths %u (general) and %u (fixed) bits: 32 to 64 expected",
			 cfg->gp_width, cfg->fixed_width);
	/* The legacy addresses hold 8 counters; more need the v6 range. */
	else if (cfg->num_gp > SIM_LEGACY_GP_MAX && cfg->version < 6)
		snprintf(buf, len, "%u general counters with perfmon version %u: past %u they live "
			 "only at perfmon version 6's addresses (0x1900 + 4n, Linux msr-index.h "
			 "MSR_IA32_PMC_V6_GP0_CTR), which version %u does not have", cfg->num_gp,
			 cfg->version, SIM_LEGACY_GP_MAX, cfg->version);
	else if (cfg->perf_metrics && cfg->pm_fields != 4 && cfg->pm_fields != 8)
		snprintf(buf, len, "PERF_METRICS with %u fields: 4 or 8 expected", cfg->pm_fields);
	else
		return NULL;
	return buf;
}

bt_status bt_sim_init(struct bt_sim *sim, const struct bt_sim_config *cfg)
{
	char why[200];

	memset(sim, 0, sizeof(*sim));
	if (bt_sim_config_problem(cfg, why, sizeof(why)))
		return BT_ERR_INVALID;
	const struct bt_sim_vendor *vendor = vendor_for(cfg->vendor);
	sim->cfg = *cfg;
	sim->vendor = vendor;
	if (cfg->vendor == BT_VENDOR_AMD) {
		sim->cfg.gp_width = SIM_AMD_CTR_WIDTH;
		sim->cfg.num_fixed = 0;
		if (!cfg->amd_core_ext && !cfg->amd_v2)
			sim->cfg.num_gp = 4;
		else if (!cfg->amd_v2)
			sim->cfg.num_gp = 6;
	}
	sim->arch.name = "simulated";
	sim->arch.simulated = true;
	sim->arch.ops = &sim_ops;
	sim->arch.ctx = sim;
	initial_state(sim);
	sim->found = sim->regs;
	return BT_OK;
}

void bt_sim_free(struct bt_sim *sim)
{
	bt_sim_detach_sources(sim);
	free(sim->log);
	sim->log = NULL;
	sim->log_len = sim->log_cap = 0;
}

void bt_sim_set_sibling_active(struct bt_arch *a, double fraction)
{
	struct bt_sim *sim;

	if (!a || a->ops != &sim_ops)
		return; /* not a simulated PMU: nothing to set */
	sim = a->ctx;
	sim->sibling_active = !(fraction > 0) ? 0 : fraction > 1 ? 1 : fraction;
	sim->sibling_set = true;
}

void bt_sim_clear_sibling_active(struct bt_arch *a)
{
	if (a && a->ops == &sim_ops)
		((struct bt_sim *)a->ctx)->sibling_set = false;
}

void bt_sim_set_source(struct bt_sim *sim, const struct bt_sim_source *src)
{
	sim->source = src;
}

void bt_sim_attach_sources(struct bt_sim *sim, const struct bt_sim_source *src,
			   const struct bt_sim_source *alt)
{
	sim->source = src;
	sim->source_alt = alt;
}

void bt_sim_detach_sources(struct bt_sim *sim)
{
	bt_sim_attach_sources(sim, NULL, NULL);
}

void bt_sim_snapshot(const struct bt_sim *sim, struct bt_sim_regs *ret)
{
	*ret = sim->regs;
}

bool bt_sim_regs_equal(const struct bt_sim_regs *a, const struct bt_sim_regs *b,
		       char *diff, size_t difflen)
{
#define CMP(field, label, idx)                                                      \
	if (a->field != b->field) {                                                 \
		if (diff)                                                           \
			snprintf(diff, difflen, "%s%s: 0x%llx != 0x%llx", label, idx, \
				 (unsigned long long)a->field,                      \
				 (unsigned long long)b->field);                     \
		return false;                                                       \
	}
	char idx[16];
	for (int i = 0; i < BT_SIM_MAX_GP; i++) {
		snprintf(idx, sizeof(idx), "%d", i);
		CMP(evtsel[i], "evtsel", idx);
		CMP(ctr[i], "ctr", idx);
	}
	for (int i = 0; i < BT_SIM_MAX_FIXED; i++) {
		snprintf(idx, sizeof(idx), "%d", i);
		CMP(fixed_ctr[i], "fixed_ctr", idx);
	}
	CMP(fixed_ctrl, "fixed_ctrl", "");
	CMP(global_ctrl, "global_ctrl", "");
	CMP(global_status, "global_status", "");
	CMP(perf_metrics, "perf_metrics", "");
	CMP(offcore[0], "offcore_rsp", "0");
	CMP(offcore[1], "offcore_rsp", "1");
	CMP(ldlat, "pebs_ld_lat", "");
	CMP(frontend, "pebs_frontend", "");
	CMP(pebs_enable, "pebs_enable", "");
	CMP(ds_area, "ds_area", "");
	CMP(pebs_data_cfg, "pebs_data_cfg", "");
	CMP(debugctl, "debugctl", "");
	CMP(tsx_force_abort, "tsx_force_abort", "");
#undef CMP
	return true;
}

void bt_sim_checkpoint(struct bt_sim *sim, struct bt_sim_regs *ret)
{
	sim->found = sim->regs;
	memset(sim->found_pre_gp, 0, sizeof(sim->found_pre_gp));
	memset(sim->found_post_gp, 0, sizeof(sim->found_post_gp));
	memset(sim->found_pre_fixed, 0, sizeof(sim->found_pre_fixed));
	memset(sim->found_post_fixed, 0, sizeof(sim->found_post_fixed));
	sim->written_gp = sim->written_fixed = 0;
	*ret = sim->regs;
}

bool bt_sim_restored(const struct bt_sim *sim, const struct bt_sim_regs *checkpoint,
		     char *diff, size_t difflen)
{
	struct bt_sim_regs want = *checkpoint;
	/* A driver that saved a counter after stopping it and wrote it back
	 * at the end leaves: the value found + what it counted as found before
	 * the driver's first write (in the saved value) + what it counted as
	 * found after the last write (the restarted firmware counting). */
	for (unsigned i = 0; i < BT_SIM_MAX_GP; i++)
		want.ctr[i] = (want.ctr[i] + sim->found_pre_gp[i] + sim->found_post_gp[i]) &
			      sim_width_mask(sim->cfg.gp_width);
	for (unsigned i = 0; i < BT_SIM_MAX_FIXED; i++)
		want.fixed_ctr[i] = (want.fixed_ctr[i] + sim->found_pre_fixed[i] +
				     sim->found_post_fixed[i]) & sim_width_mask(sim->cfg.fixed_width);
	return bt_sim_regs_equal(&sim->regs, &want, diff, difflen);
}

void bt_sim_log_clear(struct bt_sim *sim)
{
	sim->log_len = 0;
	sim->log_overflow = false;
}

long bt_sim_log_find(const struct bt_sim *sim, size_t from, uint8_t op, uint32_t index)
{
	for (size_t i = from; i < sim->log_len; i++)
		if (sim->log[i].op == op && sim->log[i].index == index)
			return (long)i;
	return -1;
}
