/* SPDX-License-Identifier: MIT */
/*
 * The heap behind newlib's malloc: one contiguous block of boot-services
 * pages, handed out by sbrk(). newlib's malloc expects sbrk() to extend one
 * region, and UEFI cannot promise that pages next to an allocation are
 * free, so the block is reserved up front: half of the largest free region
 * in the memory map, capped at 256 MiB and at least 8 MiB (models, plans and
 * counts need tens of MiB; the big workload buffers are pages of their own). Pages are only
 * reserved, not touched, so this costs nothing on a machine with plenty of
 * memory; generated code and large workload buffers are allocated apart
 * from it (efi/platform.c).
 */
#include <errno.h>
#include <stdint.h>

#include "efi/efi-state.h"

#define MIB (1024ull * 1024ull)
#define HEAP_MAX (256 * MIB)
#define HEAP_MIN (8 * MIB)

static uint8_t *heap_base;
static size_t heap_size, heap_used;

static size_t largest_free_region(void)
{
	UINTN size = 0, key, desc_size;
	UINT32 desc_version;
	EFI_MEMORY_DESCRIPTOR *map = NULL;
	EFI_STATUS st;
	size_t best = 0;

	st = bt_efi.bs->GetMemoryMap(&size, NULL, &key, &desc_size, &desc_version);
	if (st != EFI_BUFFER_TOO_SMALL)
		return 0;
	size += 4 * desc_size; /* the pool allocation below may add entries */
	if (bt_efi.bs->AllocatePool(EfiLoaderData, size, (void **)&map) != EFI_SUCCESS)
		return 0;
	st = bt_efi.bs->GetMemoryMap(&size, map, &key, &desc_size, &desc_version);
	if (st == EFI_SUCCESS) {
		for (UINTN off = 0; off < size; off += desc_size) {
			EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)((uint8_t *)map + off);

			if (d->Type == EfiConventionalMemory &&
			    d->NumberOfPages * EFI_PAGE_SIZE > best)
				best = d->NumberOfPages * EFI_PAGE_SIZE;
		}
	}
	bt_efi.bs->FreePool(map);
	return best;
}

static int heap_init(void)
{
	size_t want = largest_free_region() / 2;
	EFI_PHYSICAL_ADDRESS addr;

	if (want > HEAP_MAX)
		want = HEAP_MAX;
	want &= ~(size_t)(EFI_PAGE_SIZE - 1);
	/* Shrink until the firmware agrees; a fragmented map may refuse. */
	for (; want >= HEAP_MIN; want /= 2) {
		if (bt_efi.bs->AllocatePages(AllocateAnyPages, EfiLoaderData,
					     want / EFI_PAGE_SIZE, &addr) == EFI_SUCCESS) {
			heap_base = (uint8_t *)(uintptr_t)addr;
			heap_size = want;
			return 0;
		}
	}
	return -1;
}

void *sbrk(ptrdiff_t increment);
void *sbrk(ptrdiff_t increment)
{
	if (!heap_base && heap_init() != 0) {
		errno = ENOMEM;
		return (void *)-1;
	}
	if (increment < 0 ? (size_t)-increment > heap_used
			  : (size_t)increment > heap_size - heap_used) {
		errno = ENOMEM;
		return (void *)-1;
	}
	void *old = heap_base + heap_used;
	heap_used += increment;
	return old;
}

void bt_efi_heap_release(void)
{
	if (heap_base)
		bt_efi.bs->FreePages((EFI_PHYSICAL_ADDRESS)(uintptr_t)heap_base,
				     heap_size / EFI_PAGE_SIZE);
	heap_base = NULL;
	heap_size = heap_used = 0;
}
