/* SPDX-License-Identifier: MIT */
/*
 * The firmware's own boot times: ACPI Firmware Performance Data Table
 * (FPDT, ACPI 6.x 5.2.23). From the RSDP (ACPI 2.0+, 5.2.5) to the XSDT
 * (5.2.8), the FPDT among its tables, its Firmware Basic Boot Performance
 * Pointer Record (5.2.23.4), and the Firmware Basic Boot Performance Table
 * (FBPT, 5.2.23.5) that pointer names, with its Basic Boot Performance
 * Data Record. Portable: memory is read through a callback that refuses
 * what it cannot read (efi/ reads physical memory, identity-mapped under
 * UEFI; the tests and the fuzz target give byte arrays), and every length
 * and pointer found is untrusted and bounded.
 */
#ifndef FIRMWARE_ACPI_FPDT_H
#define FIRMWARE_ACPI_FPDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "firmware/machine.h"

/* Copies len bytes at physical address addr into buf; false if it cannot. */
typedef bool bt_phys_read_fn(void *ctx, uint64_t addr, void *buf, size_t len);

/* Limits on what is read: larger XSDT and FPDT lengths are refused as
 * broken. The FBPT's length is not limited (EDK2 with performance logging
 * pads the table far past 64 KiB, and any 32-bit length is valid), but
 * only its first BT_ACPI_FBPT_WINDOW bytes are read: the basic boot
 * performance data record the walk wants comes first (5.2.23.5). */
#define BT_ACPI_XSDT_MAX_ENTRIES 256
#define BT_ACPI_FPDT_MAX 4096
#define BT_ACPI_FBPT_WINDOW 4096

/* Fills ret from the RSDP at rsdp_addr; ret->present false with the
 * reason (no XSDT, no FPDT in it, a checksum or length that is wrong...). */
void bt_acpi_fpdt_read(uint64_t rsdp_addr, bt_phys_read_fn *read, void *ctx, struct bt_fpdt *ret);

#endif
