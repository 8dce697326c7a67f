/* SPDX-License-Identifier: MIT */
/*
 * `baretop-host run [OPTIONS]`: the same program as baretop.efi, on Linux,
 * with the hosted platform: CPUID is this machine's, MSRs are refused,
 * results go under --results-dir (default baretop/results in the working
 * directory, never the root of the host's file system).
 */
#include "app/app-main.h"
#include "host/platform-host.h"
#include "arch/arch-cpuid-host.h"
#include "tools/baretop-host/command.h"

BT_HOST_COMMAND(run, "run [BARETOP OPTIONS]",
		"run baretop's program on this Linux machine (CPUID only: counts only with --sim)")

static int cmd_run(int argc, char **argv)
{
	struct bt_platform plat;

	bt_platform_host_init(&plat, bt_arch_cpuid_host());
	argv[0] = "baretop-host run";
	return bt_app_main(argc, argv, &plat);
}
