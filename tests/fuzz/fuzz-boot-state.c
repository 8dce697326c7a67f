/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the bytes baretop reads from NVRAM: the boot state
 * (an efivarfs file, app/boot-state.c) and a boot entry's EFI_LOAD_OPTION
 * (firmware/load-option.c). Properties beyond "no crash, leak or UB":
 *   - an accepted state encodes back to exactly the bytes read;
 *   - an accepted load option's parts lie inside the buffer and tile it
 *     (header, description, file path list, optional data).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/load-option.h"
#include "app/boot-state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_boot_state s;
	struct bt_load_option lo;
	struct bt_diag d;
	uint32_t attr;

	if (bt_boot_state_decode_efivarfs(data, size, &attr, &s, &d) == BT_OK) {
		uint8_t again[BT_BOOT_STATE_SIZE];
		bt_boot_state_encode(&s, again);
		if (size != 4 + BT_BOOT_STATE_SIZE || memcmp(again, data + 4, sizeof(again)) != 0)
			abort();
	}
	if (bt_load_option_parse(data, size, &lo, &d) == BT_OK) {
		if (lo.file_path_offset < 8 || lo.file_path_length < 4 ||
		    lo.file_path_offset + lo.file_path_length != lo.optional_offset ||
		    lo.optional_offset + lo.optional_length != size)
			abort();
	}
	return 0;
}
