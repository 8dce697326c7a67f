/* SPDX-License-Identifier: MIT */
#ifndef EFI_PLATFORM_EFI_H
#define EFI_PLATFORM_EFI_H

#include "app/platform.h"

/* Fills *p with the UEFI services (the fault guard state is set apart). */
void bt_efi_platform_init(struct bt_platform *p);

/* efi/machine.c: SMBIOS, ACPI FPDT, Boot Loader Interface variables. */
void bt_efi_machine_facts(struct bt_machine *m);
/* The Secure Boot variables now (efi/machine.c). */
void bt_efi_secure_boot(struct bt_secure_boot *s);

#endif
