/* SPDX-License-Identifier: MIT */
#ifndef HOST_PLATFORM_HOST_H
#define HOST_PLATFORM_HOST_H

#include "app/platform.h"

/* The Linux implementation of the platform: nanosleep, sysconf and
 * sched_getaffinity for CPUs, pthreads pinned to a CPU for run_on_cpu,
 * mmap for executable memory. `arch` is the backend to report (the
 * CPUID-only one, or a simulated PMU). No power-off: the calls return. */
void bt_platform_host_init(struct bt_platform *p, struct bt_arch *arch);

/* host/machine-host.c: SMBIOS from /sys/firmware/dmi/tables, BLI from efivarfs. */
void bt_host_machine_facts(struct bt_machine *m);

#endif
