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
#include "base/array.h"
#include "app/options.h"
#include "host/machine-double.h"
#include "host/perf-pmu.h"
#include "host/platform-host.h"
#include "arch/arch-cpuid-host.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/next-to-binary.h"

BT_HOST_COMMAND(run, "run [--machine SPEC] [BARETOP OPTIONS]",
		"run baretop's program on this Linux machine (CPUID only: counts with --sim, or with "
		"--backend=perf through Linux perf_event where the kernel exposes a PMU; results in "
		"build/results unless --results-dir); --machine SPEC runs it on the simulated "
		"machine of many CPUs (host/machine-double.h: PxCxT or CxT, cpu=PRESET or "
		"cpuid=FILE, ap-stack=, loop=hlt|mwait|run, pi=strict|forgiving, bsp=, "
		"defect=CPUS:DEFECT), with --sim")

/* Without /proc there is no default; a run that names its folder, writes
 * none or only asks for help still works. */
static bool needs_default(int argc, char **argv)
{
	static const char *const enough[] = { "results-dir", "no-results", "help", "version" };
	int own = bt_options_scan_limit(argc - 1, argv + 1); /* -x ARGS are the application's */

	for (size_t i = 0; i < BT_ARRAY_SIZE(enough); i++)
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

/* --sim=NAME's NAME among the program's own options, or NULL. */
static const char *sim_name(int argc, char **argv)
{
	int own = bt_options_scan_limit(argc - 1, argv + 1);

	for (int i = 1; i <= own; i++)
		if (strncmp(argv[i], "--sim=", 6) == 0)
			return argv[i] + 6;
	return NULL;
}

/* What `run --help` says before the program's own options. */
static void machine_help(void)
{
	puts("baretop-host run [--machine SPEC] [BARETOP OPTIONS]: the program hosted on this\n"
	     "Linux machine (CPUID is this machine's, MSRs are refused: counts with --sim,\n"
	     "SIMULATED, or with --backend=perf through Linux perf_event).\n"
	     "  --machine SPEC      on a SIMULATED machine of many CPUs instead\n"
	     "                      (host/machine-double.h): a simulated PMU per logical CPU,\n"
	     "                      the firmware's MP services as strict PI firmware has them,\n"
	     "                      the hand-over check of ExitBootServices at the end. SPEC is\n"
	     "                      comma-separated:\n"
	     "    PxCxT | CxT         packages x cores x threads per core (1-256 each)\n"
	     "    cpu=PRESET          every CPU answers as that --sim preset (default: --sim's)\n"
	     "    cpuid=FILE          CPU i answers as CPU i of a CPUID dump; without PxCxT the\n"
	     "                        topology is the dump's (leaves 1FH / 0BH)\n"
	     "    bsp=N               baretop's own CPU (0)\n"
	     "    ap-stack=BYTES      the firmware's AP stacks, a multiple of 4096 (4096)\n"
	     "    loop=hlt|mwait|run  how idle APs wait (PcdCpuApLoopMode; mwait; run = busy)\n"
	     "    pi=strict|forgiving blocking MP calls only, after ReadyToBoot (strict)\n"
	     "    defect=CPUS:DEFECT  a --sim-defect on CPU N or A-B alone (repeatable)\n"
	     "  e.g. --machine 2x2 --sim=skl --cpu all; --machine 2x2,defect=2:stuck-counter:1\n");
}

/* --machine SPEC, taken out of argv; NULL when not given. */
static const char *take_machine(int *argc, char **argv)
{
	for (int i = 1; i + 1 < *argc; i++) {
		if (strcmp(argv[i], "--machine") != 0)
			continue;
		const char *spec = argv[i + 1];
		memmove(&argv[i], &argv[i + 2], (size_t)(*argc - i - 1) * sizeof(*argv));
		*argc -= 2;
		return spec;
	}
	return NULL;
}

/* The run on the machine double, then what the next stage would meet at
 * ExitBootServices: an AP left inside baretop fails the run, unless the
 * program said it could not account for it (it then resets instead of
 * handing over). */
static int run_on_machine(const char *spec, int argc, char **argv, const char *results_dir)
{
	struct bt_md *m;
	struct bt_platform plat;
	struct bt_diag d = { "" };
	char why[800];

	if (bt_md_new(spec, sim_name(argc, argv), &m, &d) != BT_OK) {
		fprintf(stderr, "baretop-host run: %s\n", d.text);
		return BT_EXIT_USAGE;
	}
	bt_md_platform(m, &plat);
	if (results_dir)
		plat.default_results_dir = results_dir;
	int status = bt_app_main(argc, argv, &plat);
	bt_md_print(m, stdout);
	if (plat.aps_unaccounted) {
		printf("machine double  hand-over not attempted: %u CPUs not accounted for (%s): the "
		       "run ends with a reset\n", plat.aps_unaccounted, plat.aps_unaccounted_why);
	} else if (bt_md_handover(m, why, sizeof(why))) {
		printf("machine double  hand-over check: every AP answers ExitBootServices' "
		       "MpInitChangeApLoopCallback, none is inside baretop\n");
	} else {
		printf("machine double  hand-over check FAILED: %s\n", why);
		if (status == BT_EXIT_OK)
			status = BT_EXIT_FAILED;
	}
	bt_md_free(m);
	return status;
}

static int cmd_run(int argc, char **argv)
{
	static char results_dir[PATH_MAX + 16];
	struct bt_platform plat;
	const char *machine = take_machine(&argc, argv);

	/* A line as soon as it is written, also into a file or a pipe: a
	 * full-size run takes minutes, and whoever follows it (tail -f, a CI
	 * log) sees each workload as it ends, not everything at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Without a PMU Linux lets this process use, say so in one line
	 * before anything runs (the program would otherwise only time). */
	if (wants_perf(argc, argv)) {
		struct bt_diag why = { "" };
		if (bt_perf_probe(&why) != BT_OK || bt_perf_pin_first(&why) != BT_OK) {
			fprintf(stderr, "baretop-host run: --backend=perf: %s\n", why.text);
			return BT_EXIT_FAILED;
		}
	}
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			machine_help();
			break;
		}
	bool have_dir = host_path_next_to_binary("results", results_dir, sizeof(results_dir)) == 0;
	if (machine) {
		argv[0] = "baretop-host run";
		return run_on_machine(machine, argc, argv, have_dir ? results_dir : NULL);
	}
	bt_platform_host_init(&plat, bt_arch_cpuid_host());
	if (have_dir) {
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
