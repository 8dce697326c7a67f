/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the bytes baretop reads from NVRAM: the boot state
 * (an efivarfs file, app/boot-state.c) and a boot entry's EFI_LOAD_OPTION
 * (firmware/load-option.c). Properties beyond "no crash, leak or UB":
 *   - an accepted state of the current version encodes back to exactly the
 *     bytes read; one of version 1 encodes to a current one that reads
 *     back the same;
 *   - an accepted load option's parts lie inside the buffer and tile it
 *     (header, description, file path list, optional data);
 *   - device paths (the short-form HD() expansion next-boot-entry does):
 *     the input split at its first byte's offset into a partition's path
 *     and a short-form path; an expansion stays within its buffer, is
 *     itself one well-formed path, and is no longer than both inputs.
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

	unsigned v = 0;
	if (bt_boot_state_decode_efivarfs(data, size, &attr, &s, &d) == BT_OK &&
	    bt_boot_state_decode_v(data + 4, size - 4, &s, &v, &d) == BT_OK) {
		uint8_t again[BT_BOOT_STATE_SIZE];
		struct bt_boot_state s2;
		bt_boot_state_encode(&s, again);
		if (v == BT_BOOT_STATE_VERSION &&
		    (size != 4 + BT_BOOT_STATE_SIZE || memcmp(again, data + 4, sizeof(again)) != 0))
			abort();
		if (bt_boot_state_decode(again, sizeof(again), &s2, &d) != BT_OK ||
		    memcmp(&s, &s2, sizeof(s)) != 0)
			abort();
	}
	if (bt_load_option_parse(data, size, &lo, &d) == BT_OK) {
		if (lo.file_path_offset < 8 || lo.file_path_length < 4 ||
		    lo.file_path_offset + lo.file_path_length != lo.optional_offset ||
		    lo.optional_offset + lo.optional_length != size)
			abort();
	}
	if (size >= 1) {
		size_t cut = 1 + (size_t)data[0] % size;
		const uint8_t *part = data + 1, *sdp = data + cut;
		size_t part_len = cut - 1, short_len = size - cut;
		uint8_t out[512];
		size_t n = 0;

		(void)bt_dp_is_short_hd(sdp, short_len);
		if (bt_dp_length(part, part_len) > part_len || bt_dp_length(sdp, short_len) > short_len)
			abort();
		if (bt_dp_expand_hd(part, part_len, sdp, short_len, out, sizeof(out), &n) == BT_OK &&
		    (n > sizeof(out) || n > part_len + short_len || bt_dp_length(out, n) != n))
			abort();
	}
	return 0;
}
