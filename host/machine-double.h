/* SPDX-License-Identifier: MIT */
/*
 * The machine double: a simulated machine of many logical CPUs for the
 * hosted build (`baretop-host run --machine SPEC`, the unit tests). What a
 * real multi-core machine varies and one simulated CPU cannot show:
 *
 *  - topology: packages x cores x SMT threads, numbered as EDK2 numbers
 *    processors (by APIC ID: the threads of a core next to each other);
 *    each CPU answers CPUID as its kind of core (a preset, or logical CPU i
 *    of a CPUID dump, hybrid parts included) with its own APIC ID;
 *  - one simulated PMU per logical CPU (synth/sim-run.h bt_synth_machine):
 *    MSR state per CPU, each access counted on the PMU of the CPU that
 *    makes it, defects injectable per CPU; the SMT sibling knob of each
 *    PMU (arch/sim/sim.h bt_sim_set_sibling_active) set from what the
 *    other thread of the core does (host/mp-double.h bt_mpd_cpu_active);
 *  - the firmware's MP services as strict PI firmware implements them
 *    (host/mp-double.h): blocking calls only after ReadyToBoot, AP stacks
 *    of PcdCpuApStackSize (4 KiB by default, as Intel server boards set it)
 *    on which running past the end is a recorded overflow, timeouts that
 *    terminate the procedure, the AP loop modes, and the hand-over check
 *    of ExitBootServices.
 *
 * SPEC is "[PxCxT | CxT][,key=value]...":
 *   cpu=PRESET        every CPU is a core of that preset (arch/sim presets)
 *   cpuid=FILE        CPU i answers CPUID as logical CPU i of the dump
 *                     (without a topology: the dump's, from its leaves
 *                     1FH / 0BH, each CPU's threads per core its own)
 *   bsp=N             the BSP's processor number (0)
 *   ap-stack=BYTES    PcdCpuApStackSize (4096; a multiple of 4096, K allowed)
 *   loop=hlt|mwait|run  PcdCpuApLoopMode (mwait, as Intel client silicon sets it)
 *   pi=strict|forgiving  ReadyToBoot signalled (strict) or not
 *   defect=CPUS:DEFECT  a --sim-defect on CPUs N or A-B alone (repeatable)
 * Everything it counts is simulated and labelled so.
 */
#ifndef HOST_MACHINE_DOUBLE_H
#define HOST_MACHINE_DOUBLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/platform.h"
#include "arch/sim/sim.h"
#include "base/diag.h"
#include "base/status.h"
#include "host/mp-double.h"

struct bt_md;

/* BT_ERR_INVALID with the reason for a malformed SPEC; default_cpu is the
 * preset for a SPEC with neither cpu= nor cpuid= (NULL: one is needed). */
bt_status bt_md_new(const char *spec, const char *default_cpu, struct bt_md **ret,
		    struct bt_diag *d);
void bt_md_free(struct bt_md *m);

/* Fills *p: the hosted platform (files, console, time) with this
 * machine's CPUs, MP services and PMUs. */
void bt_md_platform(struct bt_md *m, struct bt_platform *p);

uint32_t bt_md_cpu_count(const struct bt_md *m);
void bt_md_location(const struct bt_md *m, uint32_t cpu, struct bt_cpu_location *ret);
struct bt_mpd *bt_md_mp(struct bt_md *m);
/* The PMU that counts on `cpu`: a synth's, else the machine's own idle one. */
struct bt_sim *bt_md_pmu(struct bt_md *m, uint32_t cpu);
/* Whether a synth's PMU is on `cpu` (--sim has set that kind up). */
bool bt_md_pmu_adopted(const struct bt_md *m, uint32_t cpu);

/* What every PMU that was ever on `cpu` saw, the synths' gone ones
 * included: MSR and RDPMC accesses, counting windows, PEBS records. */
struct bt_md_pmu_totals {
	uint64_t accesses, windows, pebs_records;
};
void bt_md_pmu_totals(struct bt_md *m, uint32_t cpu, struct bt_md_pmu_totals *ret);

/* The machine, one line per CPU: kind, state, procedures, AP stack peak,
 * its PMU's windows and PEBS records. */
void bt_md_print(struct bt_md *m, FILE *f);
/* ExitBootServices as the next stage would call it (mp-double.h): false
 * with why when an AP is inside baretop or cannot answer. */
bool bt_md_handover(struct bt_md *m, char *why, size_t len);

#endif
