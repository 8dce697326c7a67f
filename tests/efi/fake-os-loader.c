/* SPDX-License-Identifier: MIT */
/*
 * Stands in for an OS loader in the tests of `baretop --then-boot`: it
 * prints what a loader relies on (its own file path and device handle, its
 * load options, the BootCurrent the boot manager, or baretop's
 * next-boot-entry, set for it) and powers the machine off, as a real
 * loader takes the machine over and never returns.
 */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_LOADED_IMAGE *li = NULL;
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs = NULL;

	InitializeLib(image, st);
	Print(L"fake-os-loader: started, taking over the machine\n");
	if (uefi_call_wrapper(st->BootServices->HandleProtocol, 3, image, &LoadedImageProtocol,
			      (void **)&li) == EFI_SUCCESS) {
		CHAR16 *path = li->FilePath ? DevicePathToStr(li->FilePath) : NULL;
		Print(L"fake-os-loader: FilePath=%s\n", path ? path : L"(NULL)");
		Print(L"fake-os-loader: LoadOptionsSize=%d\n", li->LoadOptionsSize);
		Print(L"fake-os-loader: DeviceHandle has a file system: %s\n",
		      li->DeviceHandle &&
		      uefi_call_wrapper(st->BootServices->HandleProtocol, 3, li->DeviceHandle,
					&FileSystemProtocol, (void **)&fs) == EFI_SUCCESS
			      ? L"yes" : L"no");
	}
	/* gnu-efi's %X prints 8 digits: BootCurrent's 4 are written by hand */
	UINT16 current = 0;
	UINTN size = sizeof(current);
	UINT32 attr = 0;
	CHAR16 hex[5] = L"----";
	if (uefi_call_wrapper(st->RuntimeServices->GetVariable, 5, L"BootCurrent",
			      &gEfiGlobalVariableGuid, &attr, &size, &current) == EFI_SUCCESS) {
		for (int i = 0; i < 4; i++)
			hex[i] = L"0123456789ABCDEF"[(current >> (12 - 4 * i)) & 0xf];
		Print(L"fake-os-loader: BootCurrent=Boot%s\n", hex);
	} else {
		Print(L"fake-os-loader: BootCurrent absent\n");
	}
	uefi_call_wrapper(st->RuntimeServices->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0,
			  NULL);
	return EFI_SUCCESS;
}
