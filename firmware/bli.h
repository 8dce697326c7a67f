/* SPDX-License-Identifier: MIT */
/*
 * systemd's Boot Loader Interface (systemd.io/BOOT_LOADER_INTERFACE): a boot
 * loader such as systemd-boot leaves UEFI variables under vendor GUID
 * 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f, each a NUL-terminated UTF-16LE
 * string. LoaderTimeInitUSec and LoaderTimeExecUSec hold decimal
 * microseconds (since the firmware's timer started, per the interface),
 * LoaderInfo the loader's name and version. Decoding only: efi/ reads the
 * variables.
 */
#ifndef FIRMWARE_BLI_H
#define FIRMWARE_BLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The variables' vendor GUID, and their names. */
#define BT_BLI_GUID_TEXT "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define BT_BLI_TIME_INIT "LoaderTimeInitUSec"
#define BT_BLI_TIME_EXEC "LoaderTimeExecUSec"
#define BT_BLI_INFO "LoaderInfo"

/* A UTF-16LE variable value (len bytes, NUL-terminated or not) as
 * printable ASCII into out (other characters become '?'). False when the
 * value is not a whole number of UTF-16 units. */
bool bt_bli_string(const uint8_t *data, size_t len, char *out, size_t outlen);

/* A UTF-16LE decimal value (microseconds) into *ret; false unless it is
 * digits only (1 to 20 of them) and fits 64 bits. */
bool bt_bli_usec(const uint8_t *data, size_t len, uint64_t *ret);

#endif
