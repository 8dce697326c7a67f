/* SPDX-License-Identifier: MIT */
/* A simulated CPU from a CPUID dump: see sim-cpuid-dump.h. */
#include "synth/sim-cpuid-dump.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch/cpuid-dump.h"
#include "arch/sim/cpuid-dump-cpu.h"
#include "pmu/cpu-detect.h"
#include "pmu/intel-uarch.h"
#include "pmu/perfmon-leaves.h"

struct bt_synth_dump_cpu {
	struct bt_sim_config cfg;
	struct bt_sim_cpuid_part part;
	struct bt_sim_cpuid_leaf *leaves;
	char id[32];
	char dump[256];
	char brand[48];
	char note[400];
};

const char *bt_synth_class_preset(unsigned uarch)
{
	switch ((enum bt_intel_uarch)uarch) {
	case BT_UARCH_CORE2: return "core2";
	case BT_UARCH_NHM: case BT_UARCH_WSM: case BT_UARCH_WSM_BDW: return "nhm";
	case BT_UARCH_SKL: return "skl";
	case BT_UARCH_ICL: return "icl";
	case BT_UARCH_GLC: return "spr";
	case BT_UARCH_LNC: return "lnl-p";
	case BT_UARCH_ATOM: return "adl-e";
	case BT_UARCH_RWC: case BT_UARCH_UNKNOWN: break;
	}
	return NULL;
}

/* The counters the leaves enumerate, as the dump says them (the decoding
 * the driver uses, pmu/perfmon-leaves.h, without the driver's quirks: the
 * simulated CPU answers what the part answered). */
static void counters_from_leaves(const struct bt_cpuid_dump_group *g, struct bt_sim_config *c)
{
	struct bt_cpuid l0 = bt_cpuid_dump_get(g, 0, 0), la = bt_cpuid_dump_get(g, 0xA, 0);
	struct bt_cpuid l71 = bt_cpuid_dump_get(g, 7, 1), s0 = bt_cpuid_dump_get(g, 0x23, 0);
	struct bt_cpuid s1 = bt_cpuid_dump_get(g, 0x23, 1), s3 = bt_cpuid_dump_get(g, 0x23, 3);
	struct bt_leaf0a a;
	struct bt_leaf23 x;

	bt_leaf0a_decode(&la, &a);
	c->version = a.version;
	c->num_gp = a.num_gp;
	c->gp_width = a.gp_width;
	c->num_fixed = a.num_fixed;
	c->fixed_width = a.fixed_width;
	c->fixed_bitmap = a.fixed_bitmap;
	c->any_deprecated = a.any_deprecated;
	c->gp_bitmap = 0;
	bt_leaf23_decode(l0.eax, &l71, &s0, &s1, &s3, &x);
	c->umask2_eq = x.umask2 && x.eq;
	if (x.counters) {
		c->gp_bitmap = x.gp_bitmap;
		c->fixed_bitmap = x.fixed_bitmap;
		c->num_gp = (uint8_t)bt_bitmap_span(x.gp_bitmap);
		unsigned fhi = bt_bitmap_span(x.fixed_bitmap);
		if (fhi > c->num_fixed)
			c->num_fixed = (uint8_t)fhi;
	}
}

bt_status bt_synth_dump_cpu_load(const char *spec, const char *preset_name,
				 struct bt_synth_dump_cpu **ret, struct bt_diag *d)
{
	*ret = NULL;
	char path[256];
	uint32_t cpu;
	struct bt_cpuid_dump dump;
	const struct bt_cpuid_dump_group *g;
	bt_status st = bt_cpuid_dump_read_cpu("--sim-cpuid", spec, false, &dump, &g, &cpu, path,
					      sizeof(path), d);
	if (st != BT_OK)
		return st;
	struct bt_synth_dump_cpu *c = calloc(1, sizeof(*c));
	if (c)
		c->leaves = calloc(g->n_leaves ? g->n_leaves : 1, sizeof(*c->leaves));
	if (!c || !c->leaves) {
		free(c);
		bt_cpuid_dump_free(&dump);
		return BT_ERR_NOMEM;
	}
	size_t n = 0;
	for (size_t i = 0; i < g->n_leaves; i++) {
		const struct bt_cpuid_dump_leaf *l = &g->leaves[i];
		/* a leaf no id holds (AMD's 8FFF_FFFFH) is none baretop reads */
		if (bt_sim_leaf_fits(l->leaf, l->subleaf))
			c->leaves[n++] = (struct bt_sim_cpuid_leaf){ BT_SIM_LEAF_ID(l->leaf, l->subleaf),
								     l->r.eax, l->r.ebx, l->r.ecx,
								     l->r.edx };
	}
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(c->dump, sizeof(c->dump), "%s", base);
	snprintf(c->id, sizeof(c->id), "cpuid-dump");
	/* a dump has no MSRs: MSR_PLATFORM_INFO is not modelled */
	c->part = (struct bt_sim_cpuid_part){ c->id, c->dump, cpu, c->leaves, n, 0 };

	/* The driver's class of the core, for the preset whose MSRs stand in
	 * for the ones a dump lacks. */
	struct bt_arch_dump ad;
	struct bt_cpu_info ci;
	bt_arch_dump_init(&ad, g);
	bt_cpu_detect(&ad.arch, NULL, &ci);
	/* A dump whose leaf 0AH no processor could give (pmu/pmu-caps.c) is no
	 * CPU to simulate: said as such, not as a preset that cannot be set up. */
	if (ci.pmu.cpuid_impossible) {
		bt_diag_set(d, "--sim-cpuid %s: CPU %u: %s", path, cpu, ci.pmu.absent_reason);
		bt_cpuid_dump_free(&dump);
		bt_synth_dump_cpu_free(c);
		return BT_ERR_INVALID;
	}
	const char *pname = preset_name ? preset_name : bt_synth_class_preset(ci.pmu.uarch);
	const struct bt_sim_config *preset = pname ? bt_sim_preset(pname) : NULL;
	if (!preset) {
		if (preset_name)
			bt_diag_set(d, "--sim-cpuid: no simulated preset \"%s\"", preset_name);
		else
			bt_diag_set(d, "--sim-cpuid %s: the core of CPU %u (%s family 0x%X model "
				    "0x%X) is of no class baretop has a simulated preset for: name "
				    "one for its MSRs with --sim=PRESET", path, cpu, ci.vendor_str,
				    ci.family, ci.model);
		bt_cpuid_dump_free(&dump);
		bt_synth_dump_cpu_free(c);
		return BT_ERR_INVALID;
	}
	c->cfg = *preset;
	c->cfg.name = "cpuid-dump";
	c->cfg.vendor = ci.vendor;
	c->cfg.signature = bt_cpuid_dump_get(g, 1, 0).eax;
	c->cfg.pdcm = (bt_cpuid_dump_get(g, 1, 0).ecx >> 15) & 1;
	c->cfg.aperf_mperf = bt_cpuid_dump_get(g, 6, 0).ecx & 1;
	c->cfg.hybrid = (bt_cpuid_dump_get(g, 7, 0).edx >> 15) & 1;
	c->cfg.core_type = c->cfg.hybrid ? (uint8_t)(bt_cpuid_dump_get(g, 0x1A, 0).eax >> 24) : 0;
	c->cfg.native_model = c->cfg.hybrid ? bt_cpuid_dump_get(g, 0x1A, 0).eax & 0xFFFFFF : 0;
	if (ci.vendor == BT_VENDOR_INTEL)
		counters_from_leaves(g, &c->cfg);
	/* PERF_METRICS counts on fixed counter 3's slots: a core without it
	 * has none, whatever the preset's PERF_CAPABILITIES says. */
	uint32_t fixed = c->cfg.fixed_bitmap | ((1u << c->cfg.num_fixed) - 1u);
	if (!((fixed >> 3) & 1))
		c->cfg.perf_metrics = false;
	snprintf(c->brand, sizeof(c->brand), "baretop sim: CPUID of a dump, CPU %u", cpu);
	c->cfg.brand = c->brand;
	c->cfg.part = &c->part;
	snprintf(c->note, sizeof(c->note), "CPUID as logical CPU %u of %s; IA32_PERF_CAPABILITIES "
		 "and the other MSRs as baretop's simulated %s (%s%s)", cpu, c->dump, pname,
		 preset_name ? "named with --sim" : "same core class: ",
		 preset_name ? "" : bt_intel_uarch_name(ci.pmu.uarch));
	bt_cpuid_dump_free(&dump);
	*ret = c;
	return BT_OK;
}

void bt_synth_dump_cpu_free(struct bt_synth_dump_cpu *c)
{
	if (!c)
		return;
	free(c->leaves);
	free(c);
}

const struct bt_sim_config *bt_synth_dump_cpu_config(const struct bt_synth_dump_cpu *c)
{
	return &c->cfg;
}

const char *bt_synth_dump_cpu_note(const struct bt_synth_dump_cpu *c)
{
	return c->note;
}
