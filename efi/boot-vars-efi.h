/* SPDX-License-Identifier: MIT */
#ifndef EFI_BOOT_VARS_EFI_H
#define EFI_BOOT_VARS_EFI_H

#include "app/platform.h"
#include "efi/efi-state.h"

/* efi/boot-vars.c: nv_read, nv_write, set_watchdog, reboot. */
void bt_efi_boot_vars_init(struct bt_platform *p);

/* efi/boot-entry.c: --then next-boot-entry, after the program returned
 * and the platform undid its changes. Starts the BootOrder entry after
 * BootCurrent; returns only if it returned or could not be started. */
EFI_STATUS bt_efi_start_next_boot_entry(void);

#endif
