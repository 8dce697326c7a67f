/* SPDX-License-Identifier: MIT */
#include "analysis/detect-dump.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/arch-model.h"
#include "metrics/builtin.h"
#include "metrics/model.h"
#include "metrics/lineage.h"
#include "metrics/tremont-model.h"
#include "base/notes.h"
#include "metrics/select.h"
#include "arch/sim/cpuid-dump-cpu.h"
#include "pmu/cpu-detect.h"
#include "pmu/intel-uarch.h"
#include "pmu/msr.h"
#include "pmu/pmu-caps.h"
#include "arch/sim/sim.h"
#include "synth/count-sources.h"
#include "synth/sim-cpuid-dump.h"

static void note(struct bt_dump_decision *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct bt_dump_decision *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	BT_NOTES_VADD(d->notes, d->n_notes, d->notes_dropped, fmt, ap);
	va_end(ap);
}

static const struct bt_model_def *select_model(const struct bt_cpu_info *ci,
					       struct bt_diag *why)
{
	struct bt_arch_td td;
	bt_arch_td_from_caps(&ci->pmu, &td);
	struct bt_cpu_facts facts = {
		.vendor = ci->vendor_str, .family = ci->family, .model = ci->model,
		.stepping = ci->stepping, .core_type = (uint8_t)ci->core_type,
		.native_model = ci->native_model_id, .arch_td = &td,
	};
	const struct bt_model_def *def = NULL;
	if (bt_model_select(&facts, NULL, &def, why) != BT_OK)
		return NULL;
	return def;
}

/* The simulated CPU that answers CPUID as this very part did (signature,
 * hybrid bit and leaf 1AH equal), else NULL. */
static bool part_config(const struct bt_cpuid_dump_group *g, struct bt_sim_config *ret,
			const char **ret_name)
{
	struct bt_cpuid l1 = bt_cpuid_dump_get(g, 1, 0), l7 = bt_cpuid_dump_get(g, 7, 0),
			l1a = bt_cpuid_dump_get(g, 0x1A, 0);
	for (int pass = 0; pass < 2; pass++) {
		const char *const *names = pass ? bt_sim_preset_names : bt_sim_model_names;
		for (int k = 0; names[k]; k++) {
			struct bt_sim_config c;
			if (pass) {
				const struct bt_sim_config *p = bt_sim_preset(names[k]);
				if (!p)
					continue;
				c = *p;
			} else if (!bt_sim_config_for_model(names[k], &c)) {
				continue;
			}
			if (!c.part)
				continue;
			struct bt_cpuid p1 = { 0, 0, 0, 0 }, p7 = p1, p1a = p1;
			for (size_t i = 0; i < c.part->n; i++) {
				const struct bt_sim_cpuid_leaf *e = &c.part->leaves[i];
				struct bt_cpuid r = { e->eax, e->ebx, e->ecx, e->edx };
				if (e->id == BT_SIM_LEAF_ID(1, 0)) p1 = r;
				if (e->id == BT_SIM_LEAF_ID(7, 0)) p7 = r;
				if (e->id == BT_SIM_LEAF_ID(0x1A, 0)) p1a = r;
			}
			if (p1.eax == l1.eax && ((p7.edx ^ l7.edx) & (1u << 15)) == 0 &&
			    p1a.eax == l1a.eax) {
				*ret = c;
				*ret_name = names[k];
				return true;
			}
		}
	}
	return false;
}

static bool sim_perf_cap(const struct bt_sim_config *c, uint64_t *ret)
{
	struct bt_sim *sim = calloc(1, sizeof(*sim));
	bool ok = sim && bt_sim_init(sim, c) == BT_OK &&
		  bt_rdmsr(&sim->arch, MSR_IA32_PERF_CAPABILITIES, ret) == BT_OK;
	if (sim) {
		bt_sim_free(sim);
		free(sim);
	}
	return ok;
}

static enum bt_intel_uarch p_uarch(const struct bt_cpu_info *ci)
{
	return (enum bt_intel_uarch)ci->pmu.uarch;
}

/* The Top-Down source of the kind of core and the events level 1 counts. */
static void topdown(struct bt_dump_decision *d, const struct bt_model_def *m,
		    const struct bt_diag *why)
{
	struct bt_arch_td td;
	bt_arch_td_from_caps(&d->ci.pmu, &td);
	d->slots_per_cycle = d->ci.pmu.slots_per_cycle;
	/* No PMU (no leaf 0AH, version 0, an impossible answer): baretop would
	 * count nothing, so no model's level 1 (PERF_METRICS or other) is
	 * claimed for it; the model id is still the part's. */
	if (d->ci.pmu.kind == BT_PMU_NONE) {
		snprintf(d->td_reason, sizeof(d->td_reason), "no PMU to count with (%s)",
			 d->ci.pmu.absent_reason);
		return;
	}
	if (!m) {
		/* Say both why no published model and why not ARCH. */
		char arch_why[256] = "";
		if (d->ci.pmu.kind != BT_PMU_INTEL_ARCH)
			snprintf(d->td_reason, sizeof(d->td_reason), "%s", why->text);
		else if (!bt_arch_td_usable(&td, arch_why, sizeof(arch_why)))
			snprintf(d->td_reason, sizeof(d->td_reason), "no published model for this "
				 "core, and %s", arch_why);
		else
			snprintf(d->td_reason, sizeof(d->td_reason), "%s", why->text);
		return;
	}
	d->td_source = m->id;
	bool arch = strcmp(m->id, BT_ARCH_MODEL_ID) == 0;
	bool tnt = strcmp(m->id, BT_TNT_MODEL_ID) == 0;
	snprintf(d->td_level1, sizeof(d->td_level1), "%s",
		 (m->flags & BT_MODEL_PERF_METRICS) ? "PERF_METRICS"
		 : arch ? "architectural events"
		 : tnt ? BT_TNT_MODEL_NAME : "published model");
	/* Tremont: its own TOPDOWN_* events over width x cycles, the width
	 * the model states (no CPUID field gives it on this core). */
	if (tnt)
		d->td_slots = "4 x core cycles (fixed counter 1; Tremont's 4-wide allocation)";
	if (arch) {
		d->td_slots = (m->flags & BT_MODEL_PERF_METRICS)
				      ? "fixed counter 3 (TOPDOWN.SLOTS, PERF_METRICS' base)"
				      : bt_arch_slots_name(bt_arch_td_slots(&td));
		d->td_bad_spec_derived = !(m->flags & BT_MODEL_PERF_METRICS) &&
					 !((td.events >> BT_ARCH_EV_TD_BAD_SPEC) & 1);
	}
	struct bt_model *mm;
	struct bt_diag err = { "" };
	if (bt_model_open(m, &mm, &err) != BT_OK) {
		note(d, "model %s does not open: %s", m->id, err.text);
		return;
	}
	uint16_t *idx = calloc(m->n_events + 1u, sizeof(*idx));
	unsigned n = 0;
	if (idx && bt_model_events_up_to_level(mm, 1, NULL, idx, &n) == BT_OK) {
		for (unsigned i = 0; i < n && d->n_td_events < 32; i++) {
			const struct bt_event *e = bt_model_event(mm, idx[i]);
			d->td_events[d->n_td_events].name = e->name;
			d->td_events[d->n_td_events].code = e->code;
			d->td_events[d->n_td_events].umask = e->umask;
			d->n_td_events++;
		}
	}
	free(idx);
	bt_model_close(mm);
}

void bt_detect_dump_group(const struct bt_cpuid_dump_group *g, struct bt_dump_decision *ret)
{
	struct bt_dump_decision *d = calloc(1, sizeof(*d));
	struct bt_arch_dump a;
	struct bt_diag why = { "" };

	if (!d) {
		memset(ret, 0, sizeof(*ret));
		snprintf(ret->notes[0], sizeof(ret->notes[0]), "out of memory");
		ret->n_notes = 1;
		return;
	}
	bt_cpuid_dump_cpus_text(g, d->cpus, sizeof(d->cpus));
	bt_arch_dump_init(&a, g);
	bt_cpu_detect(&a.arch, NULL, &d->ci);

	/* IA32_PERF_CAPABILITIES (full-width writes, PERF_METRICS) is an MSR:
	 * take the value the simulated CPU of this part reports, which is what
	 * the part is known to report, or failing that the simulated CPU of
	 * its model; say which. */
	if (d->ci.pmu.kind == BT_PMU_INTEL_ARCH &&
	    (bt_cpuid_dump_get(g, 1, 0).ecx & (1u << 15))) {
		struct bt_sim_config c;
		const char *name = NULL;
		const struct bt_model_def *m = NULL;
		bool have = part_config(g, &c, &name);
		if (!have && (m = select_model(&d->ci, &why)) != NULL &&
		    bt_sim_config_for_model(m->id, &c)) {
			have = true;
			name = m->id;
		}
		const char *cls = bt_synth_class_preset(d->ci.pmu.uarch);
		bool by_class = false;
		if (!have && cls && bt_sim_preset(cls)) {
			c = *bt_sim_preset(cls);
			have = by_class = true;
			name = cls;
		}
		if (have && sim_perf_cap(&c, &d->perf_cap)) {
			d->perf_cap_assumed = true;
			a.has_perf_capabilities = true;
			a.perf_capabilities = d->perf_cap;
			bt_cpu_detect(&a.arch, NULL, &d->ci);
			if (by_class)
				note(d, "IA32_PERF_CAPABILITIES is not in a CPUID dump and not known "
					"for this part: assumed 0x%llx, as baretop's simulated %s "
					"(same core class: %s)", (unsigned long long)d->perf_cap, name,
				     bt_intel_uarch_name(p_uarch(&d->ci)));
			else
				note(d, "IA32_PERF_CAPABILITIES is not in a CPUID dump: assumed "
					"0x%llx, as baretop's simulated %s (%s) reports it",
				     (unsigned long long)d->perf_cap, name,
				     c.part ? c.part->dump : "CPUID made up");
		} else {
			note(d, "IA32_PERF_CAPABILITIES is not in a CPUID dump and no value is "
				"known for this part: taken as unreadable (no PERF_METRICS, no "
				"full-width counter writes)");
		}
	}
	why.text[0] = '\0';
	const struct bt_model_def *m = select_model(&d->ci, &why);
	d->model = m ? m->id : NULL;
	topdown(d, m, &why);
	bool own_events = m && strcmp(m->id, BT_TNT_MODEL_ID) == 0;
	if (m && (strcmp(m->id, BT_ARCH_MODEL_ID) == 0 || own_events))
		m = NULL; /* the notes below are about published models */
	if (own_events && d->td_source)
		note(d, "no published model for %s family 0x%X model 0x%X: %s, level 1 from the "
			"core's own TOPDOWN_* events over 4 x cycles", d->ci.vendor_str,
		     d->ci.family, d->ci.model, BT_TNT_MODEL_NAME);
	else if (own_events)
		; /* no PMU: the Top-Down line says why */
	else if (!m && d->td_source)
		note(d, "no published model for %s family 0x%X model 0x%X%s: the architectural "
			"model ARCH, from the Top-Down events the core enumerates", d->ci.vendor_str,
		     d->ci.family, d->ci.model,
		     d->ci.hybrid ? (d->ci.core_type == BT_CORE_TYPE_ATOM ? " E-core" : " P-core")
				  : "");
	else if (!m)
		note(d, "no built-in model for %s family 0x%X model 0x%X%s: force one with "
			"--model ID or load vendor files (--model-files)", d->ci.vendor_str,
		     d->ci.family, d->ci.model,
		     d->ci.hybrid ? (d->ci.core_type == BT_CORE_TYPE_ATOM ? " E-core" : " P-core")
				  : "");
	struct bt_cpu_facts facts = {
		.vendor = d->ci.vendor_str, .family = d->ci.family, .model = d->ci.model,
		.stepping = d->ci.stepping, .core_type = (uint8_t)d->ci.core_type,
		.native_model = d->ci.native_model_id,
	};
	const struct bt_core_lineage *lin = bt_core_lineage_of(&facts);
	const char *lineage_of = NULL,
		   *near = m || own_events ? NULL : bt_model_suggest(&facts, &lineage_of);
	if (m && lin && lin->model_id)
		note(d, "%s: %s cores (%s), the published model of that core", lin->part,
		     lin->core, lin->source);
	if (near)
		note(d, "nearest published model by core lineage: %s (%s), a suggestion, not "
			"applied: `--model %s` forces it; check its events with --validate first",
		     near, lineage_of, near);
	if (!m && d->ci.hybrid)
		note(d, "the kind of core: core type 0x%02X, native model ID 0x%X",
		     d->ci.core_type, d->ci.native_model_id);

	const struct bt_pmu_caps *p = &d->ci.pmu;
	d->general_counters = (unsigned)__builtin_popcount(p->gp_mask);
	if (p->kind == BT_PMU_NONE)
		note(d, "no PMU: %s", p->absent_reason);
	if (!d->ci.hybrid && d->ci.core_type == BT_CORE_TYPE_CORE)
		note(d, "Alder/Raptor Lake model without the hybrid bit: P-cores only, taken as "
			"the P-core (as Linux perf does)");
	char q[8][200];
	unsigned nq = bt_pmu_caps_notes(p, q, 8);
	for (unsigned i = 0; i < nq; i++)
		note(d, "%s", q[i]);
	*ret = *d;
	free(d);
}

bt_status bt_detect_dump_cpu(const char *spec, struct bt_dump_decision *ret, struct bt_cpuid *l0a,
				unsigned *cpu, struct bt_diag *d)
{
	char path[512];
	struct bt_cpuid_dump dump;
	const struct bt_cpuid_dump_group *g;
	uint32_t c;
	bt_status st = bt_cpuid_dump_read_cpu("--cpuid", spec, true, &dump, &g, &c, path,
					      sizeof(path), d);
	if (st != BT_OK)
		return BT_ERR_INVALID;
	bt_detect_dump_group(g, ret);
	*l0a = bt_cpuid_dump_get(g, 0x0A, 0);
	*cpu = c;
	bt_cpuid_dump_free(&dump);
	return st;
}
