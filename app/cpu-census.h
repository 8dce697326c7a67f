/* SPDX-License-Identifier: MIT */
/* Counting the logical CPUs through the platform: the program takes the
 * census, the report (report/results.h) and the counting constants use it. */
#ifndef APP_CPU_CENSUS_H
#define APP_CPU_CENSUS_H

#include "app/platform.h"
#include "report/results.h"

/* Counts logical CPUs, packages and threads per core through the
 * platform's MP services. */
void bt_cpu_census_take(struct bt_platform *p, struct bt_cpu_census *ret);

#endif
