/* SPDX-License-Identifier: MIT */
/*
 * `baretop-host efivar FILE`: decodes baretop's boot state as Linux shows
 * it in efivarfs (/sys/firmware/efi/efivars/BaretopState-<GUID>: 4 bytes
 * of attributes, then the layout of app/README.md). `--raw` reads the
 * variable's data alone (no attributes), as a firmware varstore holds it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/boot-state.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"

BT_HOST_COMMAND(efivar, "efivar FILE [--raw]",
		"decode baretop's NVRAM boot state (BaretopState-" BT_VENDOR_GUID_TEXT
		") from an efivarfs file")

static const struct host_opt opts[] = {
	{ "raw", NULL, HOST_FLAG, NULL, "FILE is the variable's data alone (no attributes), as a firmware\nvarstore holds it" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"efivar",
	"efivar FILE [--raw]",
	"Decodes baretop's boot state: FILE is /sys/firmware/efi/efivars/" BT_BOOT_STATE_NAME "-\n"
	BT_VENDOR_GUID_TEXT " (4 bytes of attributes, then the data).",
	opts,
	"Exit status: 0 decoded, 2 bad arguments or a file that cannot be read or decoded.",
};
HOST_ARGS_REGISTER(args)

static int cmd_efivar(int argc, char **argv)
{
	const char *path = NULL;
	bool raw = false;
	uint8_t buf[4096];
	struct bt_boot_state s;
	struct bt_diag d = { "" };
	uint32_t attr = 0;

	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == 0)
			raw = true;
		else if (k == HOST_ARGS_POSITIONAL && !path)
			path = v;
		else if (k == HOST_ARGS_POSITIONAL)
			return host_usage_error(&args, "one FILE, not '%s' too", v);
		else
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	if (!path)
		return host_usage_error(&args, "no FILE given");
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "baretop-host efivar: cannot read %s: %s\n", path, strerror(errno));
		return HOST_EXIT_USAGE;
	}
	errno = 0;
	size_t n = fread(buf, 1, sizeof(buf), f);
	/* a directory opens and fails at the read (EISDIR): said as such, not
	 * decoded as a file of 0 bytes */
	int bad = ferror(f), e = errno;
	fclose(f);
	if (bad) {
		fprintf(stderr, "baretop-host efivar: cannot read %s: %s\n", path,
			e ? strerror(e) : "read error");
		return HOST_EXIT_USAGE;
	}
	unsigned version = 0;
	bt_status st = raw ? BT_OK : bt_boot_state_decode_efivarfs(buf, n, &attr, &s, &d);
	if (st == BT_OK)
		st = raw ? bt_boot_state_decode_v(buf, n, &s, &version, &d)
			 : bt_boot_state_decode_v(buf + 4, n - 4, &s, &version, &d);
	if (st != BT_OK) {
		fprintf(stderr, "baretop-host efivar: %s: %s\n", path, d.text);
		return HOST_EXIT_USAGE;
	}
	if (!raw)
		printf("attributes       0x%08x%s\n", (unsigned)attr,
		       (attr & BT_BOOT_STATE_ATTRIBUTES) == BT_BOOT_STATE_ATTRIBUTES
			       ? " (non-volatile, boot service, runtime)" : "");
	printf("version          %u\n", version);
	printf("in_progress      %s\n", s.flags & BT_BOOT_STATE_IN_PROGRESS ? "yes" : "no");
	printf("hand_over_next   %s\n", s.flags & BT_BOOT_STATE_HAND_OVER_NEXT ? "yes" : "no");
	printf("flags            0x%08x\n", (unsigned)s.flags);
	printf("boots            %u\n", (unsigned)s.boots);
	printf("runs             %u\n", (unsigned)s.runs);
	printf("completed        %u\n", (unsigned)s.completed);
	printf("hung             %u\n", (unsigned)s.hung);
	printf("last_sequence    %u\n", (unsigned)s.last_seq);
	printf("last_status      %s (%u)\n", bt_boot_status_name(s.last_status),
	       (unsigned)s.last_status);
	printf("boots_since_run  %u\n", (unsigned)s.boots_since_run);
	if (version < 2)
		return 0;
	printf("resets           %u (in a row, at monotonic count 0x%016llx)\n", (unsigned)s.resets,
	       (unsigned long long)s.reset_count);
	if (s.flags & (BT_BOOT_STATE_BOOTNEXT_TRIED | BT_BOOT_STATE_BOOTNEXT_UNREACHED))
		printf("bootnext         Boot%04X %s, %u failed attempt(s), at monotonic count "
		       "0x%016llx\n", (unsigned)(s.flags >> BT_BOOT_STATE_BOOTNEXT_SHIFT),
		       s.flags & BT_BOOT_STATE_BOOTNEXT_UNREACHED ? "unreached" : "tried",
		       (unsigned)s.bootnext_failures, (unsigned long long)s.bootnext_count);
	printf("run_tag          0x%016llx\n", (unsigned long long)s.run_tag);
	return 0;
}
