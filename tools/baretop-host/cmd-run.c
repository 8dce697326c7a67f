/* SPDX-License-Identifier: MIT */
/*
 * `baretop-host run [OPTIONS]`: the same program as baretop.efi, on Linux,
 * with the hosted platform: CPUID is this machine's, MSRs are refused.
 * Results go under --results-dir DIR, by default under `results` next to
 * the baretop-host binary (build/results for build/baretop-host): inside
 * the build folder, which is ignored by git and removed by `make clean`,
 * and never in the folder the command happens to be run from (the
 * repository's root included) nor at the root of the host's file system.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/app-main.h"
#include "app/options.h"
#include "host/perf-pmu.h"
#include "host/platform-host.h"
#include "arch/arch-cpuid-host.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/next-to-binary.h"

BT_HOST_COMMAND(run, "run [BARETOP OPTIONS]",
		"run baretop's program on this Linux machine (CPUID only: counts with --sim, or with "
		"--backend=perf through Linux perf_event where the kernel exposes a PMU; results in "
		"build/results unless --results-dir)")

/* Without /proc there is no default; a run that names its folder, writes
 * none or only asks for help still works. */
static bool needs_default(int argc, char **argv)
{
	static const char *const enough[] = { "results-dir", "no-results", "help", "version" };
	int own = bt_options_scan_limit(argc - 1, argv + 1); /* -x ARGS are the application's */

	for (size_t i = 0; i < sizeof(enough) / sizeof(enough[0]); i++)
		if (bt_options_has(own, argv + 1, enough[i]))
			return false;
	for (int i = 1; i <= own; i++)
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "-V") == 0)
			return false;
	return true;
}

/* The command line asks for --backend=perf (and not --sim or --sim-cpuid
 * too), and not only for help. */
static bool wants_perf(int argc, char **argv)
{
	int own = bt_options_scan_limit(argc - 1, argv + 1);
	bool perf = false, sim = false;

	for (int i = 1; i <= own; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "--version") == 0 ||
		    strcmp(a, "-V") == 0)
			return false;
		if (strncmp(a, "--backend=", 10) == 0)
			perf = strcmp(a + 10, "perf") == 0;
		else if (strcmp(a, "--backend") == 0 && i < own)
			perf = strcmp(argv[++i], "perf") == 0;
		else if (strcmp(a, "--sim") == 0 || strncmp(a, "--sim=", 6) == 0 || strncmp(a, "--sim-cpuid", 11) == 0)
			sim = true;
	}
	/* with --sim too the options parser refuses the pair, in either order
	 * (app/options-combos.c): no probe first */
	return perf && !sim;
}

static int cmd_run(int argc, char **argv)
{
	static char results_dir[PATH_MAX + 16];
	struct bt_platform plat;

	/* A line as soon as it is written, also into a file or a pipe: a
	 * full-size run takes minutes, and whoever follows it (tail -f, a CI
	 * log) sees each workload as it ends, not everything at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Without a PMU Linux lets this process use, say so in one line
	 * before anything runs (the program would otherwise only time). */
	if (wants_perf(argc, argv)) {
		struct bt_diag why = { "" };
		if (bt_perf_probe(&why) != BT_OK) {
			fprintf(stderr, "baretop-host run: --backend=perf: %s\n", why.text);
			return BT_EXIT_FAILED;
		}
	}
	bt_platform_host_init(&plat, bt_arch_cpuid_host());
	if (host_path_next_to_binary("results", results_dir, sizeof(results_dir)) == 0) {
		plat.default_results_dir = results_dir;
	} else if (needs_default(argc, argv)) {
		fprintf(stderr, "baretop-host run: cannot find this binary's folder (no "
				"/proc/self/exe), so there is no default results folder: give "
				"--results-dir DIR or --no-results\n");
		return BT_EXIT_USAGE;
	}
	argv[0] = "baretop-host run";
	return bt_app_main(argc, argv, &plat);
}
