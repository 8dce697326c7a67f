/* SPDX-License-Identifier: MIT */
/* The machine double's state, shared by host/machine-double.c (CPUs and
 * PMUs) and host/machine-platform.c (the platform's hooks over it). */
#ifndef HOST_MACHINE_INTERNAL_H
#define HOST_MACHINE_INTERNAL_H

#include "arch/sim/cpuid-dump-cpu.h"
#include "host/machine-double.h"

struct md_cpu {
	uint32_t package, core, thread;
	/* What the CPU is: CPUID as its kind answers. cpu=PRESET: the preset's
	 * simulated CPU, whose PMU counts nothing until a count source puts
	 * its own there (pmu); cpuid=FILE: the dump's answers, no PMU until
	 * then (every MSR access faults, as arch/sim/cpuid-dump-cpu.h says). */
	struct bt_sim base;
	bool base_ready;
	struct bt_arch_dump dump;
	bool from_dump;
	struct bt_sim *pmu;            /* a count source's PMU on this CPU, or NULL */
	char defects[96];              /* defect=: injected into this CPU's PMU alone */
	/* What the synths' PMUs that are gone counted on this CPU. */
	uint64_t gone_accesses, gone_pebs_records, gone_windows;
	char kind[64];
};

struct bt_md {
	char spec[256];
	struct bt_cpuid_dump dump;     /* cpuid=FILE */
	uint32_t n, cores, threads;    /* cores per package, threads per core (the most) */
	/* cpuid=FILE without PxCxT: the layout is the dump's (its leaves 1FH /
	 * 0BH), which its CPUs answer unchanged but for the APIC ID. */
	bool topology_of_dump;
	bool hybrid;
	struct md_cpu *cpu;
	struct bt_mpd *mpd;
	struct bt_arch cpu_arch;       /* the platform's arch: CPUID per CPU */
	struct bt_arch pmu_arch;       /* the PMUs: the calling CPU's */
	struct bt_sim_machine synth;
};

/* CPUID as logical CPU `cpu` answers it (its APIC ID included). */
void bt_md_cpuid(struct bt_md *m, uint32_t cpu, uint32_t leaf, uint32_t subleaf,
		 struct bt_cpuid *ret);

#endif
