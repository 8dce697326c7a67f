/* SPDX-License-Identifier: MIT */
/* The simulated workloads' memory hierarchy: see mem-hierarchy.h. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch/arch.h"
#include "base/array.h"
#include "synth/mem-hierarchy.h"

/* ns at the simulated clock, in cycles */
#define NS(x) ((x) * (double)BT_SIM_TSC_HZ / 1e9)

/*
 * Load-to-use latency by core family, in cycles at the simulated 3 GHz
 * clock: L1 hit, L2 hit, L3 hit, DRAM. L1 and L2 are core-clock pipelines
 * (cycles as published); an L3 or DRAM latency published in ns is
 * converted at 3 GHz (NS()). Intel's own TMA metric files weigh an L3 hit
 * with a latency in ns per model (the constant of L3_Hit_Latency, e.g.
 * Skylake `10 * F`, Sapphire Rapids `37 * F`, Lunar Lake `12 * F`, F the
 * core clock in GHz: ../shared/reference/intel/<MODEL>/metrics), used here
 * where no measurement is cited. Where a row has no published DRAM figure
 * of its own it takes the named row's and says so: a model, labelled.
 * The rows are matched by CPUID display family/model (the simulated CPU's
 * signature) and, on hybrid parts, core type; a built-in model's part names
 * its row in its own row (the mem column of base/model-rows.h), and its
 * display model is in no list below; the first row of the vendor is the
 * fallback.
 */
struct lat_row {
	const char *name;
	enum bt_vendor vendor;
	unsigned family;            /* display family; 0: only the parts of the model
				     * rows that name it */
	uint8_t models[8];          /* display models (0 ends; none: any of the family) */
	/* BT_CORE_TYPE_ATOM: the row of a hybrid part's E-cores (any model) and
	 * of the Atom-only parts its models list */
	enum bt_core_type core;
	double lat[BT_MEM_LEVELS];
	const char *source;
};

static const struct lat_row rows[] = {
	{ "Skylake client", BT_VENDOR_INTEL, 6, { 0x4E, 0x5E, 0x8E, 0xA5, 0xA6 }, 0,
	  { 4, 12, 42, 42 + NS(51) },
	  "7-cpu.com \"Intel Skylake\" (Core i7-6700, measured: L1 4 cycles for a pointer load, "
	  "L2 12, L3 42, RAM 42 cycles + 51 ns); Intel 64 and IA-32 Architectures Optimization "
	  "Reference Manual, Skylake client microarchitecture (L1 load-to-use 4 cycles, simple "
	  "address)" },
	{ "Skylake server", BT_VENDOR_INTEL, 0, { 0 }, 0,
	  { 4, 14, NS(20.5), NS(97) },
	  "AnandTech \"Intel Skylake-EP vs AMD EPYC 7000\" (LMBench random loads: L1 4 cycles, "
	  "L2 14, memory 96-98 ns); Intel TMA skylakex L3_Hit_Latency (20.5 ns)" },
	{ "Willow Cove client", BT_VENDOR_INTEL, 6, { 0x8D }, 0,
	  { 5, NS(5), NS(22.5), 42 + NS(51) },
	  "Intel Optimization Reference Manual (L1 5 cycles); Intel TMA tigerlake L2_Hit_Latency "
	  "(5 ns) and L3_Hit_Latency (22.5 ns); DRAM as Skylake client's" },
	{ "Sunny Cove client", BT_VENDOR_INTEL, 6, { 0x7D, 0xA7 }, 0,
	  { 5, 13, NS(12.5), 42 + NS(51) },
	  "Intel Optimization Reference Manual, Ice Lake client (L1 5 cycles, L2 13); Intel TMA "
	  "icelake L3_Hit_Latency (12.5 ns); DRAM as Skylake client's" },
	{ "Sunny Cove server", BT_VENDOR_INTEL, 6, { 0x6C }, 0,
	  { 5, 14, NS(23), NS(97) },
	  "Intel Optimization Reference Manual (Sunny Cove L1 5 cycles); Intel TMA icelakex "
	  "L3_Hit_Latency (23 ns); L2 and DRAM as Skylake server's" },
	{ "Golden/Raptor/Redwood Cove client", BT_VENDOR_INTEL, 6,
	  { 0x9A, 0xB7, 0xBA, 0xBF, 0xAC }, 0,
	  { 5, 15, NS(12), 42 + NS(51) },
	  "Intel Optimization Reference Manual, Golden Cove (L1 5 cycles, L2 15 on client parts); "
	  "Intel TMA alderlake/meteorlake L3_Hit_Latency (12 ns); DRAM as Skylake client's" },
	{ "Golden/Raptor/Redwood Cove server", BT_VENDOR_INTEL, 6, { 0xAE }, 0,
	  { 5, 16, NS(37), NS(110) },
	  "Intel Optimization Reference Manual, Sapphire Rapids (L1 5 cycles, L2 16); Intel TMA "
	  "sapphirerapids/emeraldrapids/graniterapids L3_Hit_Latency (37 ns); Chips and Cheese "
	  "\"Sapphire Rapids: Golden Cove Hits Servers\" (Xeon Platinum 8480, DRAM ~110 ns)" },
	{ "Lion Cove", BT_VENDOR_INTEL, 6, { 0xC5, 0xB5, 0xCC }, 0,
	  { 4, 17, NS(12), 42 + NS(51) },
	  "Intel Lunar Lake architecture disclosure, 2024, as reported by AnandTech (48 KB L0D "
	  "4-cycle load-to-use, 192 KB L1D 9 cycles, L2 17 cycles); Intel TMA lunarlake/arrowlake "
	  "L3_Hit_Latency (12 ns); DRAM as Skylake client's" },
	{ "Atom (Tremont..Skymont)", BT_VENDOR_INTEL, 6, { 0x86, 0x9C, 0xB6, 0xBE },
	  BT_CORE_TYPE_ATOM,
	  { 3, 17, NS(12), 42 + NS(51) },
	  "Intel Optimization Reference Manual, Tremont/Gracemont (L1 3-cycle load-to-use); "
	  "Chips and Cheese \"Gracemont: Revenge of the Atom Cores\" (L2 ~17 cycles); L3 and "
	  "DRAM as the client P-cores'" },
	{ "Zen 4", BT_VENDOR_AMD, 0x19, { 0 }, 0,
	  { 4, 14, 50, NS(75) },
	  "AMD Software Optimization Guide for AMD Family 19h Processors, Zen 4 (pub. 57647: L1 "
	  "4-cycle integer load-to-use, L2 14 cycles, L3 50 cycles average); Chips and Cheese "
	  "\"AMD's Zen 4, Part 2: Memory Subsystem\" (Ryzen 9 7950X, DDR5 ~75 ns)" },
	{ "Zen 5", BT_VENDOR_AMD, 0x1A, { 0 }, 0,
	  { 4, 14, 50, NS(75) },
	  "AMD Software Optimization Guide for AMD Family 1Ah Processors (L1 4 cycles, L2 14); L3 "
	  "and DRAM as Zen 4's" },
};

#define N_ROWS (BT_ARRAY_SIZE(rows))

/* The built-in models' parts: signature, hybrid core kind, latency row. */
#define BT_MODEL_ROW(id_, vendor_, name_, w_, sig_, core_, uarch_, fmt_, files_, sim_, mem_,  \
		     atlas_)                                                               \
	{ sig_, BT_MODEL_CORE_##core_, mem_ },
static const struct {
	uint32_t sig;
	uint8_t core;
	const char *mem;
} model_rows[] = {
#include "base/model-rows.h"
};

const char *bt_mem_hier_row(unsigned k, const char **source)
{
	if (k >= N_ROWS)
		return NULL;
	if (source)
		*source = rows[k].source;
	return rows[k].name;
}

static void display(uint32_t sig, unsigned *fam, unsigned *model)
{
	unsigned f = (sig >> 8) & 0xF, m = (sig >> 4) & 0xF;
	*fam = f == 0xF ? f + ((sig >> 20) & 0xFF) : f;
	*model = f == 6 || f == 0xF ? m | ((sig >> 16) & 0xF) << 4 : m;
}

/* The row a built-in model's row names for this display family/model: the
 * one of the same core kind, else the first of that model (a hybrid part's
 * P-core row comes first). */
static const struct lat_row *model_row_of(unsigned fam, unsigned model, enum bt_core_type core)
{
	const char *mem = NULL;

	for (size_t i = 0; i < BT_ARRAY_SIZE(model_rows); i++) {
		unsigned f, m;
		display(model_rows[i].sig, &f, &m);
		if (f != fam || m != model || !model_rows[i].mem)
			continue;
		if (model_rows[i].core == (uint8_t)core) {
			mem = model_rows[i].mem;
			break;
		}
		if (!mem)
			mem = model_rows[i].mem;
	}
	for (size_t i = 0; mem && i < N_ROWS; i++)
		if (!strcmp(rows[i].name, mem))
			return &rows[i];
	return NULL;
}

static const struct lat_row *row_of(enum bt_vendor v, uint32_t sig, enum bt_core_type core)
{
	unsigned fam, model;
	const struct lat_row *first = NULL, *named;

	display(sig, &fam, &model);
	for (size_t i = 0; i < N_ROWS; i++) {
		const struct lat_row *r = &rows[i];
		if (r->vendor != v)
			continue;
		if (!first)
			first = r;
		if (r->core == BT_CORE_TYPE_ATOM && core == BT_CORE_TYPE_ATOM)
			return r;
		if (core == BT_CORE_TYPE_ATOM || !r->family || r->family != fam)
			continue;
		if (!r->models[0])
			return r;
		for (size_t k = 0; k < sizeof(r->models) && r->models[k]; k++)
			if (r->models[k] == model)
				return r;
	}
	if (v == BT_VENDOR_INTEL && core != BT_CORE_TYPE_ATOM &&
	    (named = model_row_of(fam, model, core)))
		return named;
	return first ? first : &rows[0];
}

static void use_row(const struct lat_row *r, struct bt_mem_hier *h)
{
	for (int k = 0; k < BT_MEM_LEVELS; k++)
		h->lat[k] = r->lat[k];
	h->row = r->name;
	h->source = r->source;
}

void bt_mem_hier_default(struct bt_mem_hier *ret)
{
	*ret = (struct bt_mem_hier){ .size = { 32 * 1024.0, 256 * 1024.0, 8 * 1048576.0 } };
	use_row(&rows[0], ret);
}

/* CPUID leaf 04H / 8000_001DH subleaf by subleaf (SDM vol. 2A CPUID
 * "Deterministic Cache Parameters Leaf"; APM vol. 3 E.4.15, the same
 * layout): EAX[4:0] type (0 none, 1 data, 3 unified), EAX[7:5] level, size
 * = (EBX[31:22] + 1) ways x (EBX[21:12] + 1) partitions x (EBX[11:0] + 1)
 * line bytes x (ECX + 1) sets. */
static bool cache_sizes(struct bt_arch *a, bool amd, double size[BT_MEM_DRAM])
{
	struct bt_cpuid r;
	uint32_t leaf = amd ? 0x8000001Du : 4;
	bool any = false;

	bt_cpuid(a, amd ? 0x80000000u : 0, 0, &r);
	if (r.eax < leaf)
		return false;
	for (uint32_t sub = 0; sub < 16; sub++) {
		bt_cpuid(a, leaf, sub, &r);
		unsigned type = r.eax & 0x1F, level = (r.eax >> 5) & 7;
		if (type == 0)
			break;
		if ((type != 1 && type != 3) || level < 1 || level > 3)
			continue;
		size[level - 1] = ((double)(r.ebx >> 22) + 1) * ((double)((r.ebx >> 12) & 0x3FF) + 1) *
				  ((double)(r.ebx & 0xFFF) + 1) * ((double)r.ecx + 1);
		any = true;
	}
	return any && size[0] > 0;
}

void bt_mem_hier_of(struct bt_sim *sim, struct bt_mem_hier *ret)
{
	bt_mem_hier_default(ret);
	if (!sim)
		return;
	const struct bt_sim_config *c = &sim->cfg;
	double size[BT_MEM_DRAM] = { 0, 0, 0 };
	if (cache_sizes(&sim->arch, c->vendor == BT_VENDOR_AMD, size)) {
		for (int k = 0; k < BT_MEM_DRAM; k++)
			ret->size[k] = size[k];
		ret->sizes_from_cpuid = true;
	}
	use_row(row_of(c->vendor, c->signature,
		       c->hybrid ? (enum bt_core_type)c->core_type : BT_CORE_TYPE_NONE), ret);
}

/* p = exp(-r (1 - p)) for r > 1: its root below 1 (p = 1 is the other,
 * unstable one), by bisection: f(p) = p - exp(-r (1 - p)) is negative at 0
 * and positive just below 1. */
static double random_hits(double r)
{
	if (r <= 1)
		return 1;
	double lo = 0, hi = 1 - 1e-12;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (mid - exp(-r * (1 - mid)) < 0)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void bt_mem_hier_chase(const struct bt_mem_hier *h, double bytes, double frac[BT_MEM_LEVELS])
{
	double upto = 0; /* share served at this level or above */

	for (int k = 0; k < BT_MEM_DRAM; k++) {
		double here = h->size[k] > 0 ? random_hits(bytes / h->size[k]) : 0;
		/* The L2 and L3 also hold the pair line of each line fetched
		 * into L2 (the spatial / adjacent-line prefetcher: Intel
		 * Optimization Reference Manual, "Spatial Prefetcher"
		 * completing a line to its 128-byte chunk; AMD's L2 up/down
		 * prefetcher): of a random next node, the chance its line came
		 * in that way is about half the level's lines over the
		 * working set's. */
		if (k > BT_MEM_L1 && h->size[k] > 0 && bytes > h->size[k])
			here = fmax(here, h->size[k] / (2 * bytes));
		if (here < upto)
			here = upto; /* a larger level holds at least what a smaller one does */
		frac[k] = here - upto;
		upto = here;
	}
	frac[BT_MEM_DRAM] = 1 - upto;
}
