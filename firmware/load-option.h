/* SPDX-License-Identifier: MIT */
/*
 * UEFI boot options as the boot manager keeps them (UEFI spec 2.10,
 * 3.1.3 "Load Options"): the BootOrder list and one Boot#### variable's
 * EFI_LOAD_OPTION. Parsed here, portably, so that --then next-boot-entry
 * (efi/boot-entry.c) starts the entry the boot manager would have started
 * after baretop's.
 */
#ifndef FIRMWARE_LOAD_OPTION_H
#define FIRMWARE_LOAD_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

#define BT_LOAD_OPTION_ACTIVE 0x1u /* LOAD_OPTION_ACTIVE */

/*
 * EFI_LOAD_OPTION: UINT32 Attributes, UINT16 FilePathListLength, CHAR16
 * Description[] (NUL-terminated), EFI_DEVICE_PATH_PROTOCOL
 * FilePathList[FilePathListLength bytes], UINT8 OptionalData[rest].
 * Offsets into the variable's bytes; the description as ASCII ('?' for
 * other characters).
 */
struct bt_load_option {
	uint32_t attributes;
	char description[80];
	size_t file_path_offset, file_path_length;
	size_t optional_offset, optional_length;
};

/* BT_ERR_INVALID with one line in d when the bytes are not a load option
 * (too short, no NUL after the description, a file path list running past
 * the end or without an end node where its length says it ends). */
bt_status bt_load_option_parse(const uint8_t *buf, size_t len, struct bt_load_option *ret,
			       struct bt_diag *d);

/* The index in BootOrder (order[0..n)) where the search for the next entry
 * starts: the one after `current` (BootCurrent), or 0 when `current` is not
 * in the list (a one-shot BootNext entry, say). n when current is last. */
size_t bt_boot_order_after(const uint16_t *order, size_t n, uint16_t current);

#endif
