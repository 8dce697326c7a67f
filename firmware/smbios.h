/* SPDX-License-Identifier: MIT */
/*
 * SMBIOS (DMTF DSP0134, 3.x): the entry point structure and the structure
 * table, parsed from bytes into struct bt_smbios (machine.h). Portable and
 * bounds-checked: every length in the input is untrusted (a hostile or
 * broken table yields "not present" or fewer facts, never a read outside
 * the given bytes). efi/ finds the bytes through the UEFI configuration
 * table; the tests build them by hand.
 */
#ifndef FIRMWARE_SMBIOS_H
#define FIRMWARE_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "firmware/machine.h"

/* What the entry point says about the table. */
struct bt_smbios_entry {
	uint8_t major, minor;
	bool is_64bit;            /* "_SM3_" (3.x) rather than "_SM_" (2.1) */
	uint64_t table_address;
	/* 2.1: the table's exact length; 3.x: its maximum size (the table
	 * ends at the type 127 structure). */
	uint32_t table_length;
};

/* Entry points are this long at most (2.1: 0x1F, 3.x: 0x18). */
#define BT_SMBIOS_ENTRY_MAX 0x20

/* Parses the entry point at p (avail bytes readable there): anchor,
 * length and checksum (DSP0134 5.2.1 and 5.2.2). */
bt_status bt_smbios_parse_entry(const uint8_t *p, size_t avail, struct bt_smbios_entry *ret,
				struct bt_diag *d);

/* Parses the structure table t[0..len) of version major.minor into ret
 * (which it clears first); ret->present is set when at least one
 * structure was read. */
void bt_smbios_parse_table(const uint8_t *t, size_t len, uint8_t major, uint8_t minor,
			   struct bt_smbios *ret);

/* The 16 bytes of a system UUID (type 1, offset 08h) as text. From
 * SMBIOS 2.6 on, the first three fields are little-endian (DSP0134
 * 7.2.1); before, all bytes are taken in order. "" for all-zero (not
 * present) and all-FF (not set) UUIDs. */
void bt_smbios_uuid_str(const uint8_t u[16], uint8_t major, uint8_t minor, char out[37]);

#endif
