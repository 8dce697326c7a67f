/* SPDX-License-Identifier: MIT */
/*
 * baretop-host subcommands register themselves, so each lives in its own
 * file (tools/baretop-host/cmd-*.c) and main.c never changes when one is added:
 *
 *     static int cmd_replay(int argc, char **argv) { ... }
 *     BT_HOST_COMMAND(replay, "replay FILE [--json]", "print the Top-Down tree of a count file");
 *
 * argv[0] is the subcommand name. Return the process exit status.
 */
#ifndef TOOLS_BARETOP_HOST_COMMAND_H
#define TOOLS_BARETOP_HOST_COMMAND_H

typedef int bt_host_command_fn(int argc, char **argv);

void bt_host_command_register(const char *name, const char *usage, const char *summary,
			      bt_host_command_fn *fn);

#define BT_HOST_COMMAND(name, usage, summary)                                     \
	static int cmd_##name(int argc, char **argv);                             \
	__attribute__((constructor)) static void register_cmd_##name(void)        \
	{                                                                         \
		bt_host_command_register(#name, usage, summary, cmd_##name);      \
	}

#endif
