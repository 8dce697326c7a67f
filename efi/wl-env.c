/* SPDX-License-Identifier: MIT */
/*
 * The UEFI implementation of struct bt_wl_env (workloads/workload.h):
 *   - code memory: EfiLoaderCode pages, the type firmware leaves executable
 *     when it applies no-execute protection to data, made read-only and
 *     executable once written (W^X) where the firmware offers the
 *     memory-attribute protocol. UEFI maps memory with
 *     large pages (OVMF: 2 MiB/1 GiB identity map), so code-footprint sees
 *     fewer ITLB misses than on Linux's 4 KiB pages; results say so.
 *   - data memory: EfiLoaderData pages, outside the malloc heap, so the
 *     hundreds of MiB of the DRAM workloads do not need a heap that large.
 * The partner CPU of a two-core workload is not the platform's: it runs
 * beside the measured CPU in one blocking StartupAllAPs (app/on-cpu.h).
 */
#include <string.h>

#include "efi/efi-state.h"
#include "efi/wl-env-efi.h"

static void *pages(size_t size, EFI_MEMORY_TYPE type)
{
	EFI_PHYSICAL_ADDRESS addr;

	if (bt_efi.bs->AllocatePages(AllocateAnyPages, type, EFI_SIZE_TO_PAGES(size), &addr) !=
	    EFI_SUCCESS)
		return NULL;
	return (void *)(uintptr_t)addr;
}

static void free_pages(void *p, size_t size)
{
	if (p)
		bt_efi.bs->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)p, EFI_SIZE_TO_PAGES(size));
}

static void *efi_code_alloc(size_t size, void *ctx)
{
	(void)ctx;
	return pages(size, EfiLoaderCode);
}

/* EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10, 37.7): firmware that maps
 * fresh pages no-execute offers it to clear EFI_MEMORY_XP. */
#define BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID \
	{ 0xf4560cf6, 0x40ec, 0x4b4a, { 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89 } }
#define BT_EFI_MEMORY_XP 0x0000000000004000ull
#define BT_EFI_MEMORY_RO 0x0000000000020000ull

typedef struct BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL;
struct BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL {
	EFI_STATUS (EFIAPI *GetMemoryAttributes)(BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						 EFI_PHYSICAL_ADDRESS Base, UINT64 Length,
						 UINT64 *Attributes);
	EFI_STATUS (EFIAPI *SetMemoryAttributes)(BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						 EFI_PHYSICAL_ADDRESS Base, UINT64 Length,
						 UINT64 Attributes);
	EFI_STATUS (EFIAPI *ClearMemoryAttributes)(BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						   EFI_PHYSICAL_ADDRESS Base, UINT64 Length,
						   UINT64 Attributes);
};

static BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *memory_attribute(void)
{
	EFI_GUID guid = BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID;
	BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma;

	return bt_efi.bs->LocateProtocol(&guid, NULL, (void **)&ma) == EFI_SUCCESS ? ma : NULL;
}

/* The generated code made read-only, then executable: never writable and
 * executable at once (W^X, which baretop.efi's NX_COMPAT bit promises:
 * tools/pe-nx-compat.sh; Microsoft's UEFI CA memory mitigation
 * requirements: code loaded at run time through the memory-attribute
 * protocol). Firmware without the protocol applies no protection to
 * EfiLoaderCode pages: they stay as allocated, executable. */
static bt_status efi_code_seal(void *p, size_t size, void *ctx)
{
	BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = memory_attribute();
	EFI_PHYSICAL_ADDRESS base = (EFI_PHYSICAL_ADDRESS)(uintptr_t)p;
	UINT64 len = (UINT64)EFI_SIZE_TO_PAGES(size) * EFI_PAGE_SIZE;

	(void)ctx;
	if (!ma)
		return BT_OK;
	if (ma->SetMemoryAttributes(ma, base, len, BT_EFI_MEMORY_RO) != EFI_SUCCESS ||
	    ma->ClearMemoryAttributes(ma, base, len, BT_EFI_MEMORY_XP) != EFI_SUCCESS)
		return BT_ERR_UNSUPPORTED;
	return BT_OK;
}

/* Writable again before the pages go back: firmware may fill freed pages
 * (EDK2's DEBUG_CLEAR_MEMORY, its heap guard), which faults on read-only
 * ones. */
static void efi_code_free(void *p, size_t size, void *ctx)
{
	BT_EFI_MEMORY_ATTRIBUTE_PROTOCOL *ma = memory_attribute();

	(void)ctx;
	if (p && ma)
		(void)ma->ClearMemoryAttributes(ma, (EFI_PHYSICAL_ADDRESS)(uintptr_t)p,
						(UINT64)EFI_SIZE_TO_PAGES(size) * EFI_PAGE_SIZE,
						BT_EFI_MEMORY_RO);
	free_pages(p, size);
}

static void *efi_data_alloc(size_t size, void *ctx)
{
	(void)ctx;
	return pages(size, EfiLoaderData);
}

static void efi_data_free(void *p, size_t size, void *ctx)
{
	(void)ctx;
	free_pages(p, size);
}

void bt_efi_wl_env_init(struct bt_wl_env *env)
{
	memset(env, 0, sizeof(*env));
	env->code_alloc = efi_code_alloc;
	env->code_seal = efi_code_seal;
	env->code_free = efi_code_free;
	env->data_alloc = efi_data_alloc;
	env->data_free = efi_data_free;
}
