/* SPDX-License-Identifier: MIT */
/*
 * Effective frequency of the counted runs, from IA32_APERF/IA32_MPERF
 * (Intel SDM vol. 3B, "P-State Hardware Coordination"; AMD APM vol. 2,
 * "Effective Frequency Interface"). Both count only while the core is in
 * C0, MPERF at a fixed rate set at boot and APERF at the actual clock; only
 * their ratio is architectural. On current Intel and AMD parts MPERF ticks
 * at the TSC's rate, which is what turns the ratio into a frequency here:
 *
 *     effective frequency ~ TSC frequency x dAPERF / dMPERF
 *     C0 residency        ~ dMPERF / dTSC
 *
 * The MSRs are read just outside the run's TSC interval (pmu-session.c), so
 * the residency can slightly exceed 1: it shows that the window was not
 * halted, it is not a precise figure.
 */
#ifndef PMU_RUN_FREQ_H
#define PMU_RUN_FREQ_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/measure.h"

struct bt_run_freq {
	int n_runs;               /* runs with APERF/MPERF (dMPERF > 0); 0 = none */
	double ratio_median;      /* median of dAPERF/dMPERF */
	double ratio_min, ratio_max;
	double c0_median;         /* median of dMPERF/dTSC (runs with dTSC > 0), NaN if none */
	double hz_median;         /* tsc_hz x ratio_median; NaN when tsc_hz is unknown */
};

/* Summarizes the runs that read APERF/MPERF. Never fails: n_runs = 0 when
 * no run has them. */
void bt_run_freq(const struct bt_measure_run *runs, int n, uint64_t tsc_hz,
		 struct bt_run_freq *ret);

#endif
