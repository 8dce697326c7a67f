/* SPDX-License-Identifier: MIT */
/* The perf_event backend planned for the running kernel (perf-plan.h). */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host/errno-name.h"
#include "base/array.h"
#include "host/perf-plan.h"
#include "metrics/model.h"
#include "metrics/select.h"
#include "pmu/event-encode.h"
#include "pmu/msr.h"
#include "pmu/sibling.h"

#define container_of_filter(f) \
	((const struct bt_perf_target *)((const char *)(f) - offsetof(struct bt_perf_target, filter)))

__attribute__((format(printf, 2, 3)))
static void fact(struct bt_perf_target *t, const char *fmt, ...)
{
	va_list ap;
	if (t->n_facts == BT_PERF_MAX_FACTS)
		return;
	va_start(ap, fmt);
	vsnprintf(t->facts[t->n_facts++], sizeof(t->facts[0]), fmt, ap);
	va_end(ap);
}

static void cpulist(const struct bt_pk_pmu *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (unsigned c = 0; c < BT_PK_MAX_CPUS && o + 16 < len; c++) {
		if (!(p->cpus[c / 64] >> (c % 64) & 1))
			continue;
		unsigned e = c;
		while (e + 1 < BT_PK_MAX_CPUS && (p->cpus[(e + 1) / 64] >> ((e + 1) % 64) & 1))
			e++;
		o += (size_t)snprintf(buf + o, len - o, e > c ? "%s%u-%u" : "%s%u", o ? "," : "", c, e);
		c = e;
	}
}

static void recount(struct bt_pmu_caps *c)
{
	c->num_gp = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (c->gp_mask & (1u << i))
			c->num_gp = (uint8_t)(i + 1);
	c->num_fixed = 0;
	for (unsigned i = 0; i < BT_PMU_MAX_FIXED; i++)
		if (c->fixed_mask & (1u << i))
			c->num_fixed = (uint8_t)(i + 1);
}

/* Which config bits of `bits` the format files do not describe, named. */
static void name_bits(uint64_t bits, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	if (bits & (0xFFull << 40)) {
		o += (size_t)snprintf(buf + o, len - o, "umask2 (config:40-47)");
		bits &= ~(0xFFull << 40);
	}
	if (bits & EVTSEL_EQ) {
		o += (size_t)snprintf(buf + o, len - o, "%seq (config:36)", o ? " and " : "");
		bits &= ~EVTSEL_EQ;
	}
	if (bits && o < len)
		snprintf(buf + o, len - o, "%sconfig bits 0x%llx", o ? " and " : "",
			 (unsigned long long)bits);
}

static const char *extra_format(uint32_t msr)
{
	switch (msr) {
	case MSR_OFFCORE_RSP_0:
	case MSR_OFFCORE_RSP_1:
		return "offcore_rsp";
	case MSR_PEBS_FRONTEND:
		return "frontend";
	case MSR_PEBS_LD_LAT:
		return "ldlat";
	}
	return NULL;
}

/* Skymont's fixed counters 4-6: Linux's encodings of their events
 * (arch/x86/events/intel/core.c intel_skt_event_constraints). */
static const uint32_t skt_fixed[3] = { 0x0073, 0x019c, 0x02c2 };

/* An event alone as the session would open it, for asking the kernel. */
static bool attr_alone(const struct bt_perf_target *t, const struct bt_event *e,
		       struct perf_event_attr *a)
{
	struct bt_encoding enc;
	struct bt_diag ed = { "" };
	if (bt_event_encode_gp(e, &t->cpuid_caps, false, &enc, &ed) != BT_OK)
		return false;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = t->attr.type ? t->attr.type : PERF_TYPE_RAW;
	a->config = enc.evtsel & ~(uint64_t)(EVTSEL_USR | EVTSEL_OS | EVTSEL_INT | EVTSEL_EN);
	a->config1 = enc.extra_value;
	a->disabled = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	return true;
}

/* The kernel's answer to the event alone over the known loop, asked once
 * per encoding: 0 with *count, or the errno. */
static int tried(const struct bt_perf_target *t, const struct bt_event *e, uint64_t *count)
{
	struct perf_event_attr a;
	*count = 0;
	if (!attr_alone(t, e, &a))
		return EINVAL;
	for (int i = 0; i < *t->n_tried; i++)
		if (t->tried[i].config == a.config && t->tried[i].config1 == a.config1) {
			*count = t->tried[i].count;
			return t->tried[i].err;
		}
	int err = t->try_open(t->try_ctx, &a, count);
	if (*t->n_tried < BT_PERF_MAX_TRIED)
		t->tried[(*t->n_tried)++] = (struct bt_perf_tried){ a.config, a.config1, err, *count };
	return err;
}

/* An Intel event that counts on any code that runs: the loop cannot leave
 * it at 0 (its own instructions, branches, uops, cycles and slots). Not
 * ONE_THREAD_ACTIVE (0x023C: 0 while the sibling runs), not with a cmask,
 * inv or edge (a threshold the loop may never reach). */
static bool counts_on_any_code(const struct bt_event *e)
{
	static const uint16_t ev[] = {
		0x003c, 0x013c, 0x00c0, 0x01c0, 0x00c4, 0x010e, 0x01c2, 0x02c2, 0x01b1, 0x01a4,
	};
	if (e->cmask || (e->flags & (BT_EVF_INV | BT_EVF_EDGE | BT_EVF_ANY | BT_EVF_SUP)) || e->msr_index)
		return false;
	for (size_t i = 0; i < BT_ARRAY_SIZE(ev); i++)
		if ((uint16_t)(e->code | e->umask << 8) == ev[i])
			return true;
	return false;
}

/* Under a hypervisor: an event that must count reads 0 over the loop. */
static const char *refuse_zero(const struct bt_perf_target *t, const struct bt_event *e, char *buf,
			       size_t len)
{
	uint64_t n;
	if (!t->hypervisor || !t->try_open || !t->intel || !counts_on_any_code(e))
		return NULL;
	int err = tried(t, e, &n);
	if (err) {
		snprintf(buf, len, "the kernel answered %s to it alone over a known loop", bt_errno_name(err));
		return buf;
	}
	if (n)
		return NULL;
	snprintf(buf, len, "reads 0 over a known loop of %u iterations in user mode, where it counts on "
		 "any code: under this hypervisor its PMU event filter (KVM_SET_PMU_EVENT_FILTER: "
		 "reprogram_counter never starts a denied counter) is the likely cause; the nodes it "
		 "feeds are not computed from that 0", BT_PERF_TRY_LOOP);
	return buf;
}

/* The extra register's rules: the format file, the release's table (an
 * entry and its valid_mask), and under a hypervisor the kernel's answer. */
static const char *refuse_extra(const struct bt_perf_target *t, const struct bt_event *e, char *buf,
				size_t len)
{
	const struct bt_pk_pmu *p = t->pmu;
	const char *fmt = extra_format(e->msr_index);
	const struct bt_pk_format *ef = fmt ? bt_pk_format_named(p, fmt) : NULL;
	uint16_t ev = (uint16_t)(e->code | e->umask << 8);
	char v[48];

	bt_pk_version_text(&t->k, v, sizeof(v));
	if (!ef) {
		snprintf(buf, len, "needs MSR 0x%X in config1, but the %s PMU of Linux %s has no %s format "
			 "(no extra register here: config1 would be ignored); a newer kernel", e->msr_index,
			 p->name, v, fmt ? fmt : "extra-register");
		return buf;
	}
	if (ef->word != 1 || (e->msr_value & ~ef->mask)) {
		snprintf(buf, len, "config1 0x%llx has bits outside the %s format (0x%llx): "
			 "perf_event_open would fail with EINVAL (x86_pmu_extra_regs)",
			 (unsigned long long)e->msr_value, fmt, (unsigned long long)ef->mask);
		return buf;
	}
	for (int i = 0; t->tables.known && i < 2 && t->tables.xr[i]; i++) {
		const struct bt_pk_xtable *x = t->tables.xr[i];
		const struct bt_pk_xreg *r = bt_pk_xreg_find(x, ev);
		const char *which = t->tables.xr[1] ? (i ? " (or the release before it)" : " (or the fixed one)")
						   : "";
		if (!r || r->msr != e->msr_index) {
			snprintf(buf, len, "Linux %s's %s%s has no entry for event 0x%04x with MSR 0x%X: "
				 "x86_pmu_extra_regs would ignore config1 0x%llx and count another event "
				 "(%s)", v, x->name, which, ev, e->msr_index,
				 (unsigned long long)e->msr_value, t->tables.why[0] ? t->tables.why : "");
			return buf;
		}
		if (e->msr_value & ~r->valid) {
			snprintf(buf, len, "config1 0x%llx is outside the valid mask 0x%llx of Linux %s's "
				 "%s%s for event 0x%04x: perf_event_open fails with EINVAL "
				 "(x86_pmu_extra_regs; %s)", (unsigned long long)e->msr_value,
				 (unsigned long long)r->valid, v, x->name, which, ev,
				 t->tables.why[0] ? t->tables.why : "");
			return buf;
		}
	}
	if (t->hypervisor) {
		if (!t->try_open) {
			snprintf(buf, len, "needs MSR 0x%X, which under a hypervisor the kernel checked at its "
				 "boot (intel_pmu_init check_msr); no running kernel here to ask",
				 e->msr_index);
			return buf;
		}
		uint64_t n;
		int err = tried(t, e, &n);
		if (err) {
			snprintf(buf, len, "needs MSR 0x%X: the kernel answered %s to it alone%s",
				 e->msr_index, bt_errno_name(err),
				 err == ENXIO ? " (under this hypervisor check_msr found the MSR not "
						"writable at boot: x86_pmu_extra_regs)" : "");
			return buf;
		}
	}
	return NULL;
}

static bool paranoid_above(const struct bt_perf_kernel *k, int n)
{
	return k->paranoid_known && k->paranoid > n;
}

static const char *refuse(const struct bt_os_event_filter *f, const struct bt_event *e, char *buf,
			  size_t len)
{
	const struct bt_perf_target *t = container_of_filter(f);
	const struct bt_pk_pmu *p = t->pmu;
	const struct bt_perf_kernel *k = &t->k;
	bool capable = bt_pk_perfmon_capable(k);

	if (e->source == BT_SRC_PERF_METRICS) {
		if (t->caps.perf_metrics)
			return NULL;
		snprintf(buf, len, "PERF_METRICS: the %s PMU of Linux %s publishes no events/slots and "
			 "topdown-* (td_is_visible), so no metric pseudo-events", p->name,
			 k->osrelease[0] ? k->osrelease : "?");
		return buf;
	}
	if (e->source != BT_SRC_PMC)
		return NULL;
	/* A fixed counter CPUID has and the kernel does not give. */
	if (e->fixed > 1 && e->fixed < BT_PMU_MAX_FIXED && !e->counters && e->code == 0 &&
	    (t->cpuid_caps.fixed_mask & (1u << e->fixed)) && !(t->caps.fixed_mask & (1u << e->fixed))) {
		if (e->fixed == 3)
			snprintf(buf, len, "counts on fixed counter 3 only, which the %s PMU of Linux %s "
				 "does not give (no events/slots)", p->name, k->osrelease[0] ? k->osrelease : "?");
		else
			snprintf(buf, len, "counts on fixed counter %d only, for which Linux %s has no "
				 "pseudo-encoding on the %s PMU (a newer kernel)", e->fixed,
				 k->osrelease[0] ? k->osrelease : "?", p->name);
		return buf;
	}
	/* Ring 0 only: attr.exclude_kernel clear, which perf_allow_kernel
	 * (include/linux/perf_event.h) refuses above paranoid 1. */
	if ((e->flags & BT_EVF_SUP) && paranoid_above(k, 1) && !capable) {
		snprintf(buf, len, "counts ring 0 only: the kernel needs perf_event_paranoid <= 1 or "
			 "CAP_PERFMON (it is %d): sysctl kernel.perf_event_paranoid=1", k->paranoid);
		return buf;
	}
	if (t->intel && (e->flags & BT_EVF_ANY)) {
		/* intel_pmu_hw_config: AnyThread is EINVAL before perfmon v3
		 * and where v5 deprecates it. */
		if (t->cpuid_caps.version < 3) {
			snprintf(buf, len, "AnyThread (config:21) on perfmon v%u: the kernel refuses it "
				 "before v3 (intel_pmu_hw_config: EINVAL): use the SMT-off plan",
				 (unsigned)t->cpuid_caps.version);
			return buf;
		}
		if (!bt_pk_format_named(p, "any")) {
			snprintf(buf, len, "AnyThread (config:21): the %s PMU has no 'any' format "
				 "(deprecated on this core, intel_pmu_init): use the SMT-off plan", p->name);
			return buf;
		}
		if (paranoid_above(k, 0) && !capable) {
			snprintf(buf, len, "AnyThread (config:21) needs perf_event_paranoid <= 0 or "
				 "CAP_PERFMON (intel_pmu_hw_config, perf_allow_cpu; it is %d): sysctl "
				 "kernel.perf_event_paranoid=0", k->paranoid);
			return buf;
		}
	}
	if (e->msr_index) {
		const char *why = refuse_extra(t, e, buf, len);
		if (why)
			return why;
	}
	/* The bits the kernel programs from attr.config: those of its format
	 * files (x86_pmu_get_event_config masks the rest, silently). USR, OS,
	 * INT and EN are the kernel's own; AnyThread was judged above. */
	struct bt_encoding enc;
	struct bt_diag ed = { "" };
	if (bt_event_encode_gp(e, &t->cpuid_caps, false, &enc, &ed) != BT_OK)
		return NULL;   /* the planner says why (or it is a fixed-counter event) */
	uint64_t owned = EVTSEL_USR | EVTSEL_OS | EVTSEL_INT | EVTSEL_EN | (t->intel ? EVTSEL_ANY : 0);
	uint64_t lost = enc.evtsel & ~owned & ~p->mask[0];
	if (lost) {
		char what[96];
		name_bits(lost, what, sizeof(what));
		snprintf(buf, len, "%s: not in the %s PMU's format files of Linux %s, which masks it "
			 "(would count another event): Linux 6.11+", what, p->name,
			 k->osrelease[0] ? k->osrelease : "?");
		return buf;
	}
	return refuse_zero(t, e, buf, len);
}

static bool adapt(const struct bt_os_event_filter *f, const struct bt_event *e, struct bt_event *ret)
{
	const struct bt_perf_target *t = container_of_filter(f);
	bool changed = false;

	if (e->source != BT_SRC_PMC)
		return false;
	*ret = *e;
	/* A fixed counter CPUID has and the kernel does not give (the
	 * watchdog's fixed counter 1, fixed 3 without events/slots, 4-6 on a
	 * kernel without their pseudo-encodings): a real encoding goes on a
	 * general counter, as the kernel extends every fixed constraint whose
	 * event select is not 0 to the general counters
	 * (intel_pmu_check_event_constraints, use_fixed_pseudo_encoding);
	 * the pseudo-encodings 00H/01H and 00H/02H become the architectural
	 * C0H/00H and 3CH/00H (SDM vol. 3B, pre-defined architectural
	 * events); 00H/03H and 00H/04H have no twin (refused). */
	if (t->intel && e->fixed >= 0 && e->fixed < BT_PMU_MAX_FIXED &&
	    !(t->caps.fixed_mask & (1u << e->fixed)) && (t->cpuid_caps.fixed_mask & (1u << e->fixed))) {
		/* Skymont's fixed 4-6 count events with a real encoding too
		 * (intel_skt_event_constraints names 0x0073, 0x019c, 0x02c2
		 * TOPDOWN_BAD_SPECULATION.ALL, TOPDOWN_FE_BOUND.ALL,
		 * TOPDOWN_RETIRING.ALL; Intel's event list spells them 00H/05H-07H). */
		uint32_t real = 0;
		if (e->code == 0 && e->fixed <= 1)
			real = e->fixed == 1 ? 0x3C : 0xC0;
		else if (e->code == 0 && e->fixed >= 4 && e->fixed <= 6 &&
			 t->cpuid_caps.uarch == BT_UARCH_ATOM && e->umask == e->fixed + 1)
			real = skt_fixed[e->fixed - 4];
		if (!e->counters && e->code == 0 && !real)
			return false;
		ret->fixed = BT_EV_NO_FIXED;
		if (!e->counters) {
			if (e->code == 0) {
				ret->code = (uint16_t)(real & 0xFF);
				ret->umask = (uint8_t)(real >> 8);
				ret->umask_ext = 0;
			}
			ret->counters = t->caps.gp_mask;
			ret->counters_ht_off = 0;
		}
		changed = true;
	}
	/* Counter restrictions of the release's constraint table that
	 * Intel's event list does not have (Lion Cove's
	 * intel_lnc_event_constraints before and after 782cffeec9ad): a group
	 * the table cannot hold fails validate_group with EINVAL. With the
	 * stable level unknown, both tables' (their intersection). */
	if (e->code && t->tables.cons[0]) {
		uint64_t config = (uint64_t)e->code | (uint64_t)e->umask << 8;
		uint32_t m = bt_pk_cons_mask(t->tables.cons[0], config);
		if (t->tables.cons[1])
			m &= bt_pk_cons_mask(t->tables.cons[1], config);
		uint32_t c = ret->counters & m, h = ret->counters_ht_off & m;
		if (m != 0xFFFFFFFFu && (c != ret->counters || h != ret->counters_ht_off)) {
			ret->counters = c;
			ret->counters_ht_off = h;
			changed = true;
		}
	}
	if (t->excl_alone && e->code >= 0xD0 && e->code <= 0xD3 && !(e->flags & BT_EVF_ALONE)) {
		ret->flags |= BT_EVF_ALONE;
		changed = true;
	}
	return changed;
}

const struct bt_event *bt_perf_target_event(const struct bt_perf_target *t,
					    const struct bt_event *e, struct bt_event *tmp)
{
	return adapt(&t->filter, e, tmp) ? tmp : e;
}

static void fixed_pseudo(struct bt_perf_target *t)
{
	/* Fixed counters 0-3: the pseudo-encodings of every Intel table
	 * (perf-attr.c). Beyond: Skymont's (intel_skt_event_constraints), or
	 * the generic v5 table's for a model the kernel does not know
	 * (intel_v5_gen_event_constraints, ee28855a5449: FIXED_EVENT_CONSTRAINT
	 * (0x0500, 4) ... one umask per counter; v2-v4's intel_gen_event_
	 * constraints stop at 2). Elsewhere none: the counter is dropped. */
	bool skymont = t->pmu && strcmp(t->pmu->name, "cpu_atom") == 0 &&
		       (strncmp(t->pmu->pmu_name, "lunarlake", 9) == 0 ||
			strncmp(t->pmu->pmu_name, "arrowlake", 9) == 0);
	bool v5 = t->generic && t->cpuid_caps.version >= 5;
	for (unsigned k = 4; k < BT_PMU_MAX_FIXED; k++) {
		if (skymont && k <= 6)
			t->attr.fixed_config[k] = skt_fixed[k - 4];
		else if (v5)
			t->attr.fixed_config[k] = (k + 1) << 8;
		if (!t->attr.fixed_config[k])
			t->caps.fixed_mask &= ~(1u << k);
	}
}

const char *bt_perf_pmu_name_for(const struct bt_perf_kernel *k, const struct bt_cpu_info *ci)
{
	if (!k->hybrid || !ci->hybrid)
		return "cpu";
	if (ci->core_type != BT_CORE_TYPE_ATOM)
		return "cpu_core";
	/* hybrid_tiny: only with a third PMU, for Crestmont (cmt_native_id) */
	return bt_pk_pmu_named(k, "cpu_lowpower") && ci->native_model_id == 0x2 ? "cpu_lowpower"
										: "cpu_atom";
}

/* A model the kernel does not know: its generic architectural PMU,
 * counters from CPUID.0AH alone (intel_pmu_init, default case; no leaf
 * 23H): at most INTEL_PMC_MAX_GENERIC (32) general
 * (intel_pmu_check_counters_mask); fixed counters CPUID's, 0-2 before
 * perfmon v5 (intel_gen_event_constraints), up to 16 from it. */
static void generic_counters(struct bt_perf_target *t, const struct bt_cpuid *l0a)
{
	unsigned version = l0a->eax & 0xFF, gp = (l0a->eax >> 8) & 0xFF, nf = l0a->edx & 0x1F;
	if (gp > 32)
		gp = 32;
	uint32_t fm = nf >= 32 ? ~0u : (1u << nf) - 1;
	if (version >= 5)
		fm |= l0a->ecx;
	else
		fm &= 0x7;
	t->caps.gp_mask &= gp >= 32 ? ~0u : (1u << gp) - 1;
	t->caps.fixed_mask &= fm;
	t->caps.umask2 = t->caps.eq = false;
	fact(t, "the kernel does not know this model (%s): counters from CPUID.0AH only: "
	     "%u general, fixed mask 0x%X", t->pmu->pmu_name, gp, fm);
}

/* The HT erratum workaround of Ivy Bridge and Haswell (PMU_FL_EXCL_ENABLED):
 * fixup_ht_bug keeps it unless the boot found one thread per core
 * (topology_max_smt_threads() == 1; smt/control then "notsupported"). */
static bool ht_workaround(const struct bt_perf_target *t, const struct bt_cpu_info *ci)
{
	const struct bt_perf_kernel *k = &t->k;
	if (strcmp(t->pmu->pmu_name, "haswell") != 0 && strcmp(t->pmu->pmu_name, "ivybridge") != 0)
		return false;
	if (k->smt_control[0])
		return strcmp(k->smt_control, "notsupported") != 0 &&
		       strcmp(k->smt_control, "notimplemented") != 0;
	return ci->threads_per_core > 1;
}

static void intel_target(struct bt_perf_target *t, const struct bt_cpu_info *ci,
			 const struct bt_cpuid *l0a)
{
	t->generic = strncmp(t->pmu->pmu_name, "generic_arch", 12) == 0;
	if (t->generic && l0a)
		generic_counters(t, l0a);
	/* TOPDOWN.SLOTS and PERF_METRICS as the kernel publishes them; the
	 * generic v5 table keeps fixed counter 3 as raw 0x0400 without
	 * publishing it (intel_pmu_check_event_constraints keeps SLOTS where
	 * CPUID enumerates it). */
	if (!t->pmu->ev_slots && !(t->generic && t->cpuid_caps.version >= 5))
		t->caps.fixed_mask &= ~(1u << 3);
	bool pm = (t->caps.fixed_mask & (1u << 3)) && t->pmu->ev_td_retiring &&
		  strstr(t->pmu->td_retiring, "event=0x00,umask=0x80");
	t->caps.perf_metrics = pm;
	t->caps.perf_metrics_fields = !pm ? 0 : t->pmu->ev_td_mem_bound ? 8 : 4;
	fixed_pseudo(t);
	if (bt_pk_watchdog_on(&t->k, t->cpu)) {
		if (t->caps.fixed_mask & 2u) {
			t->caps.fixed_mask &= ~2u;
			t->wd_fixed1 = true;
		} else if (t->caps.gp_mask) {
			t->caps.gp_mask &= ~(1u << (31 - __builtin_clz(t->caps.gp_mask)));
			t->wd_gp = true;
		}
	}
	t->excl_alone = ht_workaround(t, ci);
	/* A group with a D0H-D3H event has two general counters there:
	 * the event alone takes one, the SMT sibling probe the other
	 * (ONE_THREAD_ACTIVE; REF_XCLK from fixed counter 2), or two
	 * more where it also counts REF_XCLK (no fixed counter 2). */
	if (t->excl_alone && !(t->caps.fixed_mask & (1u << 2)))
		t->caps.sibling_probe_off = "the HT erratum workaround leaves a group with a "
					    "D0H-D3H event two general counters";
	bt_pk_tables_for(&t->k, t->pmu, &t->tables);
}

static void say_counters(struct bt_perf_target *t)
{
	const struct bt_perf_kernel *k = &t->k;
	fact(t, "general counters %d of CPUID's %d, fixed mask 0x%X of CPUID's 0x%X%s",
	     __builtin_popcount(t->caps.gp_mask), __builtin_popcount(t->cpuid_caps.gp_mask),
	     t->caps.fixed_mask, t->cpuid_caps.fixed_mask,
	     t->intel ? (t->caps.perf_metrics ? (t->caps.perf_metrics_fields == 8
						? "; TOPDOWN.SLOTS and 8 PERF_METRICS fields (events/slots, topdown-*)"
						: "; TOPDOWN.SLOTS and 4 PERF_METRICS fields (events/slots, topdown-*)")
					     : t->caps.fixed_mask & 8 ? "; TOPDOWN.SLOTS, no PERF_METRICS"
					     : "; no events/slots: no fixed counter 3, no PERF_METRICS")
		      : "; no SMI counter reserved");
	fact(t, "nmi_watchdog %d%s", k->nmi_watchdog,
	     t->wd_fixed1 ? ": it holds fixed counter 1 here, CPU_CLK_UNHALTED.THREAD goes on a general "
			    "counter (sysctl kernel.nmi_watchdog=0 frees it)"
	     : t->wd_gp ? ": it holds one general counter here (sysctl kernel.nmi_watchdog=0 frees it)"
	     : k->nmi_watchdog == 1 ? ": not on this CPU (watchdog_cpumask, or watchdog 0)"
	     : k->nmi_watchdog < 0 ? " (unreadable: planned as if off)" : "");
	if (t->excl_alone)
		fact(t, "the %s HT erratum workaround (the boot found SMT: smt/control %s): D0H-D3H "
		     "events are exclusive and halve a group's general counters (x86_schedule_events): "
		     "each is planned alone", t->pmu->pmu_name, k->smt_control[0] ? k->smt_control : "?");
	if (t->tables.known && t->tables.why[0])
		fact(t, "%s", t->tables.why);
	if (t->hypervisor)
		fact(t, "under a hypervisor: an event needing an extra MSR is tried alone and refused "
		     "on the kernel's answer (check_msr: ENXIO)");
}

bt_status bt_perf_target_init(struct bt_perf_target *t, const struct bt_perf_kernel *k,
			      const struct bt_cpu_info *ci, const struct bt_cpuid *l0a,
			      unsigned cpu, struct bt_diag *d)
{
	char buf[160], v[48];

	memset(t, 0, sizeof(*t));
	t->k = *k;
	k = &t->k;
	t->cpu = cpu;
	t->filter.refuse = refuse;
	t->filter.adapt = adapt;
	t->tried = t->tried_store;
	t->n_tried = &t->n_tried_store;
	t->intel = ci->pmu.kind == BT_PMU_INTEL_ARCH;
	t->hypervisor = ci->hypervisor;
	t->pmu = bt_pk_pmu_for_cpu(k, cpu);
	if (!t->pmu) {
		bt_diag_set(d, "no core PMU of this kernel counts on CPU %u (%s)", cpu,
			    k->hybrid ? "in no cpu_* PMU's cpus" : "no cpu PMU");
		return BT_ERR_UNSUPPORTED;
	}
	/* CPUID must be the counted CPU's: its kind of core is the PMU's. */
	const char *want = bt_perf_pmu_name_for(k, ci);
	if (k->hybrid && strcmp(want, t->pmu->name) != 0) {
		bt_diag_set(d, "CPU %u belongs to the kernel's %s PMU, but its CPUID (core type 0x%02x, "
			    "native model 0x%x) is %s's: CPUID was read on another CPU than the one counted",
			    cpu, t->pmu->name, ci->core_type, ci->native_model_id, want);
		return BT_ERR_INVALID;
	}
	if (ci->pmu.kind == BT_PMU_NONE) {
		bt_diag_set(d, "CPUID enumerates no PMU baretop can plan for: %s", ci->pmu.absent_reason);
		return BT_ERR_UNSUPPORTED;
	}
	t->cpuid_caps = ci->pmu;
	t->caps = ci->pmu;
	t->attr.type = t->pmu->type;
	bt_pk_version_text(k, v, sizeof(v));
	fact(t, "Linux %s (%s%s%s); perf_event_paranoid %s%d; CAP_PERFMON %s; SMT %s",
	     k->osrelease[0] ? k->osrelease : "(version unreadable)", v, k->ver_from[0] ? " from " : "",
	     k->ver_from, k->paranoid_known ? "" : "unreadable ", k->paranoid,
	     !k->caps_known ? "unknown" : bt_pk_perfmon_capable(k) ? "yes"
	     : k->init_userns == 0 && (k->cap_perfmon || k->cap_sys_admin)
		     ? "no (in CapEff, but of a user namespace: capable() asks the initial one's)" : "no",
	     k->smt_active < 0 ? "unknown" : k->smt_active ? "on" : "off");
	cpulist(t->pmu, buf, sizeof(buf));
	fact(t, "PMU %s, type %u%s%s%s, caps/pmu_name %s, rdpmc %d", t->pmu->name, t->pmu->type,
	     t->pmu->has_cpus ? ", CPUs " : "", t->pmu->has_cpus ? buf : "",
	     k->hybrid && strcmp(t->pmu->name, "cpu_core") ? " (not PERF_TYPE_RAW: its own type)" : "",
	     t->pmu->pmu_name[0] ? t->pmu->pmu_name : "(none)", t->pmu->rdpmc);
	{
		size_t o = 0;
		buf[0] = 0;
		for (int i = 0; i < t->pmu->n_formats && o + 2 < sizeof(buf); i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? " " : "",
					      t->pmu->formats[i].name);
		fact(t, "formats: %s (config mask 0x%llx, config1 mask 0x%llx)", buf,
		     (unsigned long long)t->pmu->mask[0], (unsigned long long)t->pmu->mask[1]);
	}
	if (t->intel) {
		intel_target(t, ci, l0a);
	} else {
		if (bt_pk_watchdog_on(k, cpu) && t->caps.gp_mask) {
			t->caps.gp_mask &= ~(1u << (31 - __builtin_clz(t->caps.gp_mask)));
			t->wd_gp = true;
		}
		/* No SMI counter under perf: it would count the SMIs of user
		 * mode only and cost a counter of every group. */
		t->caps.amd_smi_rx = false;
	}
	recount(&t->caps);
	t->caps.os_filter = &t->filter;
	say_counters(t);
	return BT_OK;
}

bt_status bt_perf_plan_events(const struct bt_perf_target *t, const struct bt_event *const *events,
			      int n, bool smt_off, struct bt_event *tmp, const struct bt_event **planned,
			      struct bt_plan_scratch *scratch, struct bt_plan *plan, struct bt_diag *d)
{
	struct bt_plan_opts opts = { .smt_off = smt_off };

	for (int i = 0; i < n; i++)
		planned[i] = bt_perf_target_event(t, events[i], &tmp[i]);
	bt_status st = bt_plan_events(planned, n, &t->caps, &opts, scratch, plan);
	if (st != BT_OK) {
		bt_diag_set(d, "%d events could not be placed (%s)", plan->n_unplaced, bt_status_str(st));
		return st;
	}
	return bt_plan_validate(plan, planned, n, &t->caps, &opts, scratch, d);
}

bt_status bt_perf_target_group(const struct bt_perf_target *t, const struct bt_plan *plan, int g,
			       const struct bt_event *const *planned, struct bt_perf_member *out,
			       int *ret_n, struct bt_diag *d)
{
	/* As pmu/pmu-session.c programs a plan for a driver with fixed counters. */
	uint32_t fixed_used = plan->fixed_mask;
	bool pm = plan->perf_metrics && t->caps.perf_metrics && (fixed_used & (1u << 3));
	return bt_perf_group_attrs(plan, g, planned, &t->caps, fixed_used, pm, &t->attr, out, ret_n, d);
}

void bt_perf_format_text(uint8_t word, uint64_t mask, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, word ? "config%u:" : "config:", word);
	bool first = true;
	for (unsigned b = 0; b < 64 && o < len; b++) {
		if (!(mask >> b & 1))
			continue;
		unsigned e = b;
		while (e < 63 && (mask >> (e + 1) & 1))
			e++;
		o += (size_t)snprintf(buf + o, len - o, e > b ? "%s%u-%u" : "%s%u", first ? "" : ",", b, e);
		first = false;
		b = e;
	}
}

bt_status bt_perf_plan_model(const struct bt_perf_target *t, const char *model_id, unsigned level,
			     bool smt, struct bt_perf_model_plan *ret, struct bt_diag *d)
{
	const struct bt_model_def *def = NULL;
	/* Static: 2 KiB of indices, and plans are made one at a time. */
	static uint16_t idx[BT_PLAN_MAX_EVENTS * 4];
	double constants[BT_CONST_COUNT];
	unsigned n = 0;

	ret->model = NULL;
	if (bt_model_select(NULL, model_id, &def, d) != BT_OK)
		return BT_ERR_INVALID;
	if (bt_model_open(def, &ret->model, d) != BT_OK)
		return BT_ERR_INVALID;
	ret->model_id = def->id;
	unsigned max = bt_model_max_level(ret->model);
	if (level > max) {
		bt_diag_set(d, "%s has levels 1..%u", def->id, max);
		return BT_ERR_INVALID;
	}
	ret->level = level ? level : max;
	for (int c = 0; c < BT_CONST_COUNT; c++)
		constants[c] = NAN;
	constants[BT_C_HYPERTHREADING_ON] = smt ? 1 : 0;
	/* SMT on where the formulas have SMT branches: as a run plans it
	 * (app/count.c), both branches' events and the sibling probe in every
	 * group where the PMU takes it (pmu/plan.h bt_plan_sibling_gp). */
	static struct bt_perf_target probe_t;
	if (smt && bt_model_has_smt_branches(ret->model, NULL)) {
		probe_t = *t;
		probe_t.caps.sibling_probe = true;
		if (bt_plan_sibling_gp(&probe_t.caps, NULL, NULL)) {
			t = &probe_t;
			constants[BT_C_HYPERTHREADING_ON] = NAN;
		}
	}
	if (bt_model_event_count(ret->model) > BT_ARRAY_SIZE(idx) ||
	    bt_model_events_up_to_level(ret->model, ret->level, constants, idx, &n) != BT_OK ||
	    n > BT_PLAN_MAX_EVENTS) {
		bt_diag_set(d, "%s: too many events", def->id);
		return BT_ERR_FULL;
	}
	ret->n = (int)n;
	for (unsigned i = 0; i < n; i++) {
		ret->events[i] = bt_model_event(ret->model, idx[i]);
		if (bt_event_fixed_to_gp(ret->events[i], &t->caps, &ret->twin[i]))
			ret->events[i] = &ret->twin[i];
	}
	/* and REF_XCLK where a run's step would count it to check the ratio
	 * it derives it at (pmu/sibling.h) */
	if (t->caps.sibling_probe) {
		struct bt_plan_opts po = { .smt_off = !smt };
		ret->n = bt_sibling_add_check(ret->events, ret->n, &t->caps, &po, &ret->scratch);
	}
	return bt_perf_plan_events(t, ret->events, ret->n, !smt, ret->tmp, ret->planned,
				   &ret->scratch, &ret->plan, d);
}

void bt_perf_model_plan_close(struct bt_perf_model_plan *p)
{
	if (p->model)
		bt_model_close(p->model);
	p->model = NULL;
}
