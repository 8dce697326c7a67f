/* SPDX-License-Identifier: MIT */
/*
 * The image's self-relocation, called by gnu-efi's crt0 (_start) before
 * efi_main: `_relocate(ImageBase, _DYNAMIC, image, systab)`, System V calling
 * convention, non-zero return = the image does not start.
 *
 * It replaces libgnuefi.a's reloc_x86_64.c (the linker takes this
 * definition and never pulls that member), which reads only DT_RELA: the
 * EFI link packs the relative relocations as RELR instead
 * (`-z pack-relative-relocs`, Makefile), 1.3 KB instead of 86 KB of
 * baretop.efi's 1 MiB budget. base/elf-reloc.h applies both forms.
 *
 * Nothing here may read a pointer from static data or call out of this
 * file (the image is not relocated yet), and there is no stack-protector
 * canary yet.
 */
#include <efi.h>

#include "base/elf-reloc.h"
#include "efi/efi-state.h"

EFI_STATUS _relocate(long ldbase, const struct bt_elf_dyn *dyn, EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

BT_NO_STACK_PROTECTOR EFI_STATUS _relocate(long ldbase, const struct bt_elf_dyn *dyn, EFI_HANDLE image,
					  EFI_SYSTEM_TABLE *systab)
{
	(void)image;
	(void)systab;
	return bt_elf_relocate((uintptr_t)ldbase, dyn) == 0 ? EFI_SUCCESS : EFI_LOAD_ERROR;
}
