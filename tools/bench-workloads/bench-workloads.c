/* SPDX-License-Identifier: MIT */
/*
 * bench-workloads: the Top-Down paper's matrix-multiply case study, timed on
 * this machine with the workload code baretop runs (workloads/matmul.c).
 * Prints the median/min/max time of multiply1, multiply2, multiply3 and the
 * speedups over multiply1 measured in the same run, next to the paper's
 * (11.8x and 16.5x, ISPASS 2014 slides, Ivy Bridge). Fails if the checksums
 * differ or a speedup is not well above 1 (< 2x).
 *
 *   bench-workloads                  n=1024, 3 runs of each (about 25 s here)
 *   bench-workloads --paper          n=2048 as well (the default size, which
 *                                    reproduces the paper's setting), 1 run
 *                                    each: multiply1 takes over a minute
 *   bench-workloads --n 512 --reps 5
 *
 * Runs are interleaved (m1, m2, m3, m1, ...) so slow drift on this shared
 * machine affects all kernels alike. The measuring thread is pinned to the
 * first allowed CPU. Each run is timed twice: the thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), which excludes the time other processes on
 * this shared 2-core machine had the CPU, and wall time (CLOCK_MONOTONIC).
 * The speedups use the CPU-time medians; the wall medians are printed too.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host/env-host.h"
#include "base/array.h"
#include "workloads/workload.h"

#define MAX_REPS 50

static const struct {
	const char *spec;          /* workload and fixed parameters; n is appended */
	const char *label;
	double paper_speedup;      /* 0: not in the paper */
} kernels[] = {
	{ "multiply1", "multiply1 (i-j-k)", 1.0 },
	{ "multiply2", "multiply2 (i-k-j)", 11.8 },
	{ "multiply3", "multiply3 (vector)", 16.5 },
	{ "multiply3:isa=sse2", "multiply3 isa=sse2", 0 },
};
#define N_KERNELS BT_ARRAY_SIZE(kernels)

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One size: returns 0 if everything agreed and the speedups are > 2. */
static int bench_size(unsigned n, unsigned reps, const struct bt_wl_env *env)
{
	struct bt_wl_instance inst[N_KERNELS];
	double times[N_KERNELS][MAX_REPS], wall[N_KERNELS][MAX_REPS], med[N_KERNELS];
	uint64_t sums[N_KERNELS];
	bool have[N_KERNELS];
	struct bt_diag d;
	int rc = 0;

	printf("\nmatrix multiply, n=%u (3 x %.1f MiB of doubles), %u run%s of each, interleaved\n",
	       n, (double)n * n * 8 / (1 << 20), reps, reps == 1 ? "" : "s");
	for (size_t k = 0; k < N_KERNELS; k++) {
		struct bt_wl_config cfg;
		char spec[96];

		snprintf(spec, sizeof spec, "%s%sn=%u", kernels[k].spec,
			 strchr(kernels[k].spec, ':') ? "," : ":", n);
		have[k] = bt_wl_config_from_spec(&cfg, spec, BT_WL_DEFAULT, &d) == BT_OK &&
			  bt_wl_setup(&inst[k], &cfg, env, &d) == BT_OK;
		if (!have[k]) {
			printf("  %s: not run: %s\n", kernels[k].label, d.text);
			if (k < 3)
				return 1;
		}
	}
	for (unsigned r = 0; r < reps; r++) {
		for (size_t k = 0; k < N_KERNELS; k++) {
			double c0, w0;

			if (!have[k])
				continue;
			bt_wl_before_run(&inst[k], &d);
			w0 = now_s(CLOCK_MONOTONIC);
			c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
			bt_wl_run(&inst[k]);
			times[k][r] = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
			wall[k][r] = now_s(CLOCK_MONOTONIC) - w0;
			bt_wl_after_run(&inst[k], &d);
			sums[k] = bt_wl_checksum(&inst[k]);
		}
	}

	printf("  %-20s %10s %10s %10s %10s %12s %8s  %s\n", "kernel", "cpu med s", "cpu min s",
	       "cpu max s", "wall med s", "vs multiply1", "paper", "note");
	for (size_t k = 0; k < N_KERNELS; k++) {
		double lo, hi;

		if (!have[k])
			continue;
		med[k] = median(times[k], reps);   /* sorts times[k] */
		lo = times[k][0];
		hi = times[k][reps - 1];
		printf("  %-20s %10.3f %10.3f %10.3f %10.3f %11.1fx ", kernels[k].label, med[k], lo,
		       hi, median(wall[k], reps), med[0] / med[k]);
		if (kernels[k].paper_speedup > 0)
			printf("%7.1fx", kernels[k].paper_speedup);
		else
			printf("%8s", "-");
		printf("  %s\n", inst[k].note);
	}
	for (size_t k = 1; k < N_KERNELS; k++) {
		if (have[k] && sums[k] != sums[0]) {
			printf("  FAIL: %s checksum 0x%016llx != multiply1 0x%016llx\n", kernels[k].label,
			       (unsigned long long)sums[k], (unsigned long long)sums[0]);
			rc = 1;
		}
	}
	if (rc == 0)
		printf("  checksums: all 0x%016llx\n", (unsigned long long)sums[0]);
	for (size_t k = 1; k < 3; k++) {
		if (med[0] / med[k] < 2.0) {
			printf("  FAIL: %s is only %.2fx faster than multiply1\n", kernels[k].label,
			       med[0] / med[k]);
			rc = 1;
		}
	}
	for (size_t k = 0; k < N_KERNELS; k++)
		if (have[k])
			bt_wl_teardown(&inst[k]);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned sizes[8], n_sizes = 0, reps = 3, paper_reps = 1;
	bool paper = false;
	struct bt_wl_host host;
	struct bt_wl_env env;
	int cpus[1], rc = 0;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--paper") == 0) {
			paper = true;
		} else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc && n_sizes < 7) {
			sizes[n_sizes++] = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
			reps = (unsigned)strtoul(argv[++i], NULL, 10);
			paper_reps = reps;
		} else {
			fprintf(stderr, "usage: bench-workloads [--paper] [--n N]... [--reps R]\n");
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "bench-workloads: --reps must be 1..%d\n", MAX_REPS);
		return 2;
	}
	if (n_sizes == 0)
		sizes[n_sizes++] = 1024;
	setvbuf(stdout, NULL, _IOLBF, 0);   /* progress is visible when piped */

	bt_wl_env_host_init(&env, &host);
	if (bt_wl_host_cpus(cpus, 1) == 1)
		bt_wl_host_pin_self(cpus[0]);
	printf("Top-Down paper (Yasin, ISPASS 2014) case study 1, hosted on this machine.\n"
	       "Paper: multiply2 11.8x, multiply3 16.5x over multiply1 (Ivy Bridge, big matrices).\n"
	       "CPU: avx=%s avx512f=%s; L1d %llu KiB, L2 %llu KiB, L3 %llu KiB (sysconf)\n",
	       env.cpu.isa.avx ? "yes" : "no", env.cpu.isa.avx512f ? "yes" : "no",
	       (unsigned long long)env.cpu.l1d_bytes >> 10, (unsigned long long)env.cpu.l2_bytes >> 10,
	       (unsigned long long)env.cpu.l3_bytes >> 10);
	for (unsigned i = 0; i < n_sizes; i++)
		rc |= bench_size(sizes[i], reps, &env);
	if (paper)
		rc |= bench_size(2048, paper_reps, &env);
	else
		printf("\n(n=2048, the paper-sized default, takes ~80 s per round here: "
		       "bench-workloads --paper)\n");
	return rc;
}
