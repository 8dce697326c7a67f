/* SPDX-License-Identifier: MIT */
/*
 * `baretop-host atlas --sim=PRESET --events-file FILE [--json[=FILE]]
 * [OPTIONS]`: baretop's --atlas on Linux (README "The event atlas"), the
 * same code as baretop.efi --atlas. This machine's PMU is never used (MSRs
 * are refused hosted), so it maps the simulated PMU. --json writes the
 * atlas alone to standard output (--json=FILE: to FILE); the results file
 * goes where `baretop-host run` puts it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/app-main.h"
#include "app/options.h"
#include "host/platform-host.h"
#include "arch/arch-cpuid-host.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/next-to-binary.h"

BT_HOST_COMMAND(atlas, "atlas --sim=PRESET [--events-file FILE] [--json[=FILE]]",
		"count every event of an event list over the known-count kernels: classes and "
		"invariants (baretop --atlas, on the simulated PMU)")

static const char *const atlas_options[] = {
	"sim", "sim-defect", "events-file", "atlas-spec", "quick", "reps", "warmups", "budget",
	"results-dir", "no-results", "keep-results", "config", "no-config", "quiet", "color", NULL,
};

static void atlas_help(void)
{
	printf("usage: baretop-host atlas --sim[=PRESET] [--events-file FILE] [--json[=FILE]] "
	       "[OPTIONS]\n"
	       "baretop's --atlas on Linux (README \"The event atlas\"): every event of the list\n"
	       "counted over the known-count kernels at n and 2n and the empty window, on the\n"
	       "simulated PMU (this machine's PMU is never used); without --events-file the\n"
	       "built-in list: the part's full core list for the models `baretop-host run\n"
	       "--help` names under --atlas, else architectural events and fixed counters;\n"
	       "AMD's six core events.\n"
	       "The cost is printed before the run. Results go where `baretop-host run` puts them.\n\n"
	       "  --json[=FILE]         write the atlas alone as JSON to standard output (or FILE)\n\n"
	       "options (baretop's own, as `baretop-host run --help` describes them):\n");
	bt_options_usage_only(stdout, atlas_options);
	printf("\nExit status: 0 no invariant violated, 1 an invariant violated (found), 2 bad\n"
	       "arguments or a malformed list, 3 results could not be written, 4 no PMU.\n");
}

static int cmd_atlas(int argc, char **argv)
{
	static char results_dir[PATH_MAX + 16];
	struct bt_platform plat;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	char **args = calloc((size_t)argc + 4, sizeof(*args));
	char **owned = calloc((size_t)argc + 1, sizeof(*owned)); /* --json=FILE rewritten */
	int n = 0, n_owned = 0;

	if (!args || !owned) {
		free(args);
		free(owned);
		return BT_EXIT_FAILED;
	}
	args[n++] = "baretop-host atlas";
	args[n++] = "--atlas";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			atlas_help();
			status = BT_EXIT_OK;
			goto out;
		}
		if (!strcmp(argv[i], "--json")) {
			/* The JSON alone on standard output: the run's console
			 * lines go to standard error. */
			static char fdarg[40];
			int fd = dup(1);
			if (fd < 0 || dup2(2, 1) < 0) {
				status = BT_EXIT_FAILED;
				goto out;
			}
			snprintf(fdarg, sizeof(fdarg), "--atlas-json=/dev/fd/%d", fd);
			args[n++] = fdarg;
			continue;
		}
		if (!strncmp(argv[i], "--json=", 7)) {
			size_t len = strlen(argv[i]) + 8;
			char *a = malloc(len);
			if (!a) {
				status = BT_EXIT_FAILED;
				goto out;
			}
			snprintf(a, len, "--atlas-json=%s", argv[i] + 7);
			args[n++] = owned[n_owned++] = a;
			continue;
		}
		args[n++] = argv[i];
	}
	bt_platform_host_init(&plat, bt_arch_cpuid_host());
	if (host_path_next_to_binary("results", results_dir, sizeof(results_dir)) == 0)
		plat.default_results_dir = results_dir;
	status = bt_app_main(n, args, &plat);
	/* The atlas's estimate assumes a CPU of its own (validate/atlas.c):
	 * the process's own CPU time is what to compare it with on a shared
	 * machine, where the wall time also holds other processes' turns. */
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		printf("atlas         hosted: this process used %.1f s of CPU (user + system, the "
		       "whole command)\n", (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6);
out:
	for (int i = 0; i < n_owned; i++)
		free(owned[i]);
	free(owned);
	free(args);
	return status;
}
