/* SPDX-License-Identifier: MIT */
/*
 * Stands in for an OS loader in the tests of `baretop --then-boot`: it
 * prints a marker (with its load options) and powers the machine off, as a
 * real loader would take the machine over and never return.
 */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	InitializeLib(image, st);
	Print(L"fake-os-loader: started, taking over the machine\n");
	uefi_call_wrapper(st->RuntimeServices->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0,
			  NULL);
	return EFI_SUCCESS;
}
