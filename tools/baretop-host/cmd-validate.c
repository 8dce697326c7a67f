/* SPDX-License-Identifier: MIT */
/*
 * `baretop-host validate --sim=PRESET [--validate-spec FILE] [OPTIONS]`:
 * baretop's --validate mode on Linux (README "Validating PMU events"). This
 * machine's PMU is never used (MSRs are refused hosted), so it validates
 * the simulated PMU. Results go where `baretop-host run` puts them.
 *
 * `baretop-host show-validation RESULTS.json`: prints a saved validation
 * again (the console table and the summary line); exit status 1 when a
 * check in it FAILed, 2 when the file has no validation.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app-main.h"
#include "analysis/results-read.h"
#include "app/options.h"
#include "host/platform-host.h"
#include "arch/arch-cpuid-host.h"
#include "validate/report.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/next-to-binary.h"
#include "tools/baretop-host/host-args.h"

BT_HOST_COMMAND(validate, "validate --sim=PRESET [--validate-spec FILE]",
		"validate PMU events over known-count kernels on the simulated PMU "
		"(baretop --validate; results in build/results unless --results-dir)")
/* Registered by hand: the macro names a command after its C identifier,
 * and this one has a hyphen. */
static int cmd_show_validation(int argc, char **argv);
__attribute__((constructor)) static void register_cmd_show_validation(void)
{
	bt_host_command_register("show-validation", "show-validation RESULTS.json",
				 "print the validation of a saved results file again",
				 cmd_show_validation);
}

/* The options a validation uses, for its --help: run's whole list is
 * workloads, boot policy and models, which --validate does not run; it
 * validates on baretop's own CPU (--cpu is refused: --help "Combinations"). */
static const char *const validate_options[] = {
	"sim", "validate-spec", "quick", "reps", "warmups", "results-dir", "no-results",
	"keep-results", "config", "no-config", "quiet", "color", NULL,
};

static void validate_help(void)
{
	printf("usage: baretop-host validate --sim[=PRESET] [--validate-spec FILE] [OPTIONS]\n"
	       "baretop's --validate on Linux (README \"Validating PMU events\"): PMU events checked\n"
	       "over known-count kernels, on the simulated PMU (this machine's PMU is never used:\n"
	       "MSRs are refused hosted). Results go where `baretop-host run` puts them.\n\n"
	       "options (baretop's own, as `baretop-host run --help` describes them):\n");
	bt_options_usage_only(stdout, validate_options);
	printf("\nExit status: 0 every check passed, 1 a check FAILed (found), 2 bad arguments or a\n"
	       "malformed spec file, 3 results could not be written, 4 no PMU to validate.\n");
}

static int cmd_validate(int argc, char **argv)
{
	static char results_dir[PATH_MAX + 16];
	struct bt_platform plat;

	/* A line as soon as it is written, also into a file or a pipe: a
	 * full-size run takes minutes, and whoever follows it (tail -f, a CI
	 * log) sees each workload as it ends, not everything at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	char **args = calloc((size_t)argc + 2, sizeof(*args));

	if (!args)
		return BT_EXIT_FAILED;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			validate_help();
			free(args);
			return BT_EXIT_OK;
		}
	bt_platform_host_init(&plat, bt_arch_cpuid_host());
	if (host_path_next_to_binary("results", results_dir, sizeof(results_dir)) == 0)
		plat.default_results_dir = results_dir;
	args[0] = "baretop-host validate";
	args[1] = "--validate";
	for (int i = 1; i < argc; i++)
		args[i + 1] = argv[i];
	int status = bt_app_main(argc + 1, args, &plat);
	free(args);
	return status;
}

static const struct host_opt show_opts[] = { { 0 } };
static const struct host_cmd_args show_args = {
	"show-validation",
	"show-validation RESULTS.json",
	"Prints the \"validation\" section of a --validate run's results file as the run\n"
	"printed it.",
	show_opts,
	"Exit status: 0, 1 a check FAILed (found), 2 bad arguments, or a file that has no\n"
	"validation or cannot be read.",
};
HOST_ARGS_REGISTER(show_args)

static int cmd_show_validation(int argc, char **argv)
{
	struct bt_diag d = { "" };
	bool any_fail;
	const char *path = NULL, *v;
	struct host_args it;
	int k;

	host_args_init(&it, &show_args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == HOST_ARGS_POSITIONAL && !path)
			path = v;
		else if (k == HOST_ARGS_POSITIONAL)
			return host_usage_error(&show_args, "one RESULTS.json, not '%s' too", v);
		else
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	if (!path)
		return host_usage_error(&show_args, "no RESULTS.json given");
	/* The file's provenance labels must agree first (results-read.c). */
	struct bt_arena a;
	struct bt_results_doc doc;
	bt_arena_init(&a);
	bt_status st = bt_results_doc_load(&a, path, &doc, &d);
	bt_arena_free(&a);
	if (st != BT_OK || bt_validation_show(stdout, path, &any_fail, &d) != BT_OK) {
		fprintf(stderr, "baretop-host show-validation: %s\n", d.text);
		return 2;
	}
	return any_fail ? 1 : 0;
}
