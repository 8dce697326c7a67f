/* SPDX-License-Identifier: MIT */
/* libFuzzer: CPUID dumps (the reference format and `cpuid -r`) parsed, and
 * every group they hold run through the real detection code, as
 * `baretop-host detect --cpuid` does: CPUID values from a file are
 * untrusted input to cpu-detect and pmu-caps too. */
#include <stdint.h>

#include "analysis/detect-dump.h"
#include "arch/cpuid-dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_cpuid_dump d;
	struct bt_diag err;
	if (bt_cpuid_dump_parse((const char *)data, size, &d, &err) != BT_OK)
		return 0;
	static struct bt_dump_decision decision; /* large: keep it off the fuzzer's stack */
	for (size_t i = 0; i < d.n_groups && i < 8; i++)
		bt_detect_dump_group(&d.groups[i], &decision);
	bt_cpuid_dump_free(&d);
	return 0;
}
