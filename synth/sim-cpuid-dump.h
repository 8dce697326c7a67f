/* SPDX-License-Identifier: MIT */
/*
 * --sim-cpuid FILE[@CPU]: a simulated CPU that answers CPUID as logical CPU
 * CPU (default 0) of a CPUID dump (the format of ../shared/reference/cpuid/
 * or `cpuid -r` output), so that a new part needs a dump, not code.
 *
 * What the dump gives, the simulated CPU has: every leaf as the dump
 * answered it (the brand string excepted: it says "baretop sim"), and the
 * counters those leaves enumerate (CPUID.0AH; CPUID.23H.01H bitmaps where
 * leaf 23H exists), read here from the leaves as the SDM defines them, not
 * through the driver's decoding. What a dump cannot give -- MSRs, above all
 * IA32_PERF_CAPABILITIES (full-width writes, PERF_METRICS) -- comes from the
 * simulated preset of the same core lineage (the class of the driver's
 * pmu/intel-uarch.c: Lion Cove -> lnl-p, Golden Cove -> spr, Atom -> adl-e,
 * ...), or from the preset named with --sim=PRESET; the note says which.
 */
#ifndef SYNTH_SIM_CPUID_DUMP_H
#define SYNTH_SIM_CPUID_DUMP_H

#include "arch/sim/sim.h"
#include "base/diag.h"
#include "base/status.h"

struct bt_synth_dump_cpu;

/*
 * Reads SPEC = FILE[@CPU] and builds the simulated CPU's configuration.
 * `preset`: the preset for what the dump lacks, or NULL to choose by core
 * lineage. A malformed dump: BT_ERR_INVALID, "FILE: line N: what" in d.
 */
bt_status bt_synth_dump_cpu_load(const char *spec, const char *preset,
				 struct bt_synth_dump_cpu **ret, struct bt_diag *d);
void bt_synth_dump_cpu_free(struct bt_synth_dump_cpu *c);
/* The configuration (valid while c lives). */
const struct bt_sim_config *bt_synth_dump_cpu_config(const struct bt_synth_dump_cpu *c);
/* One sentence: which dump and CPU, and where IA32_PERF_CAPABILITIES comes from. */
const char *bt_synth_dump_cpu_note(const struct bt_synth_dump_cpu *c);

/* The preset whose MSRs stand for a core of this class (enum
 * bt_intel_uarch), or NULL. */
const char *bt_synth_class_preset(unsigned uarch);

#endif
