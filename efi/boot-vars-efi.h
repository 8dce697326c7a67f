/* SPDX-License-Identifier: MIT */
#ifndef EFI_BOOT_VARS_EFI_H
#define EFI_BOOT_VARS_EFI_H

#include "app/platform.h"
#include "efi/efi-state.h"

/* efi/boot-vars.c: nv_read, nv_write, set_watchdog, boot_next_delete. */
void bt_efi_boot_vars_init(struct bt_platform *p);

/* What efi_main returns when the run hands over by returning to the boot
 * manager (BT_END_RETURN_NOT_STARTED): any status but EFI_SUCCESS makes EDK2's
 * BDS go on with the next BootOrder entry (MdeModulePkg/Universal/BdsDxe/
 * BdsEntry.c BootBootOptions; UEFI 2.10 3.1.1). EFI_NOT_STARTED: baretop
 * did not start an OS. */
#define BT_EFI_HANDOVER_STATUS EFI_NOT_STARTED

/* efi/boot-entry.c: --then next-boot-entry, after the program returned
 * and the platform undid its changes. Starts the BootOrder entry after
 * BootCurrent; returns only if it returned or could not be started, with
 * a status other than EFI_SUCCESS (the boot manager then goes on). Reads
 * and may update BaretopState through p (the BootNext attempt it made). */
EFI_STATUS bt_efi_start_next_boot_entry(struct bt_platform *p);

/* efi/boot-entry.c: BootCurrent, BootOrder, BootNext, the monotonic count
 * and what started baretop, into p->boot_start. */
void bt_efi_boot_facts(struct bt_platform *p);

/* efi/boot-parent.c: what started baretop (p->boot_start.parent; after
 * BootCurrent is known); BT_END_RESTART_PARENT (returns only if that
 * loader could not be started, or returned). */
void bt_efi_boot_parent(struct bt_platform *p);
EFI_STATUS bt_efi_restart_parent(void);

/* efi/efi-main.c: right before StartImage of the next stage, the 5-minute
 * watchdog EDK2's boot manager gives a boot option and the fault guard
 * removed (the next stage is not baretop's); after it returned, the
 * watchdog off (as the boot manager does) and the guard back. */
void bt_efi_before_next_stage(void);
void bt_efi_after_next_stage(void);

#endif
