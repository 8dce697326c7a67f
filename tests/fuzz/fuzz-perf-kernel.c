/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the kernel facts reader (host/perf-kernel.c). The input,
 * split at NUL bytes, becomes the files of a kernel tree in a scratch
 * folder (a format file, a hybrid PMU's type and cpus, caps/pmu_name,
 * proc/self/status, osrelease, perf_event_paranoid), which is then read;
 * the first piece also goes to the format parser directly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/perf-kernel.h"
#include "base/array.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[] = {
	"sys/bus/event_source/devices/cpu_atom/format/umask",
	"sys/bus/event_source/devices/cpu_atom/type",
	"sys/bus/event_source/devices/cpu_atom/cpus",
	"sys/bus/event_source/devices/cpu_atom/caps/pmu_name",
	"proc/self/status",
	"proc/sys/kernel/osrelease",
	"proc/sys/kernel/perf_event_paranoid",
};
#define N_FILES (BT_ARRAY_SIZE(files))

/* Static: one scratch tree for the whole run, made at the first input. */
static char root[64];

static void remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
}

static void make_tree(void)
{
	static const char *const dirs[] = {
		"sys", "sys/bus", "sys/bus/event_source", "sys/bus/event_source/devices",
		"sys/bus/event_source/devices/cpu_atom", "sys/bus/event_source/devices/cpu_atom/format",
		"sys/bus/event_source/devices/cpu_atom/caps", "proc", "proc/self", "proc/sys",
		"proc/sys/kernel",
	};
	char path[256];
	snprintf(root, sizeof(root), "/tmp/bt-fuzz-perf-kernel-XXXXXX");
	if (!mkdtemp(root))
		abort();
	atexit(remove_tree);
	for (size_t i = 0; i < BT_ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		mkdir(path, 0700);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char piece[512], path[256];
	size_t at = 0;

	if (!root[0])
		make_tree();
	for (size_t f = 0; f < N_FILES; f++) {
		size_t n = 0;
		while (at < size && data[at] && n + 1 < sizeof(piece))
			piece[n++] = (char)data[at++];
		at++;
		piece[n] = 0;
		if (f == 0) {
			uint8_t w;
			uint64_t m;
			int col;
			const char *what;
			bt_pk_parse_format(piece, &w, &m, &col, &what);
		}
		snprintf(path, sizeof(path), "%s/%s", root, files[f]);
		FILE *o = fopen(path, "w");
		if (!o)
			abort();
		fwrite(piece, 1, n, o);
		fclose(o);
	}
	static struct bt_perf_kernel k;   /* static: 30 KiB */
	struct bt_diag d;
	if (bt_perf_kernel_read(root, &k, &d) == BT_OK)
		bt_pk_pmu_for_cpu(&k, 7);
	return 0;
}
