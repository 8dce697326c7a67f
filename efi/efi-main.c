/* SPDX-License-Identifier: MIT */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <stdlib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	(void)image;
	(void)st;
	return EFI_SUCCESS;
}
