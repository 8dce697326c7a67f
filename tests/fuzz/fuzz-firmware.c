/* SPDX-License-Identifier: MIT */
/* libFuzzer: the firmware-table parsers (firmware/) on untrusted bytes. The
 * first byte picks the parser: 0 an SMBIOS entry point then a structure
 * table (the rest of the input), 1 the FPDT walk over the input as
 * physical memory (the RSDP at its start), 2 the Boot Loader Interface
 * values. */
#include <stdint.h>
#include <string.h>

#include "firmware/acpi-fpdt.h"
#include "firmware/bli.h"
#include "firmware/run-id.h"
#include "firmware/smbios.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BASE 0x1000u

struct mem {
	const uint8_t *p;
	size_t n;
};

static bool rd(void *ctx, uint64_t addr, void *buf, size_t len)
{
	const struct mem *m = ctx;

	if (addr < BASE || addr - BASE > m->n || len > m->n - (addr - BASE))
		return false;
	memcpy(buf, m->p + (addr - BASE), len);
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bt_smbios s; /* large: off the fuzzer's stack */
	char id[BT_RUN_ID_MAX], text[64];
	uint64_t us;

	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0: {
		struct bt_smbios_entry e;
		size_t elen = size - 1 < BT_SMBIOS_ENTRY_MAX ? size - 1 : BT_SMBIOS_ENTRY_MAX;

		if (bt_smbios_parse_entry(data + 1, elen, &e, NULL) == BT_OK)
			bt_smbios_parse_table(data + 1 + elen, size - 1 - elen, e.major, e.minor, &s);
		else
			bt_smbios_parse_table(data + 1, size - 1, 3, 0, &s);
		bt_run_id(&s, 1, "2026-01-01T00:00:00", id);
		break;
	}
	case 1: {
		struct mem m = { data + 1, size - 1 };
		struct bt_fpdt f;

		bt_acpi_fpdt_read(BASE, rd, &m, &f);
		break;
	}
	case 2:
		bt_bli_string(data + 1, size - 1, text, sizeof(text));
		bt_bli_usec(data + 1, size - 1, &us);
		break;
	}
	return 0;
}
