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
 *     hundreds of MiB of the DRAM workloads do not need a heap that large;
 *   - the partner CPU: EFI_MP_SERVICES_PROTOCOL.StartupThisAP in
 *     non-blocking mode (a WaitEvent), preferring an AP on another physical
 *     core than the caller's.
 */
#include <string.h>

#include "efi/efi-state.h"
#include "efi/proto/mp-services.h"
#include "efi/wl-env-efi.h"

/* How long wait_partner waits for the AP before giving up. The partner
 * loops only until the workload tells it to stop, so this is generous. */
#define PARTNER_TIMEOUT_US (120ull * 1000000ull)

struct partner {
	BT_EFI_MP_SERVICES_PROTOCOL *mp;
	EFI_EVENT done;
	bool running;
	void (*fn)(void *);
	void *arg;
};

/* The one partner CPU of a two-core workload: started and awaited by the
 * BSP, one at a time, so a single record suffices. */
static struct partner partner;

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

static VOID EFIAPI partner_trampoline(VOID *p)
{
	struct partner *pt = p;

	pt->fn(pt->arg);
}

/* An enabled AP, on another core than the BSP's when there is one. */
static bool pick_ap(BT_EFI_MP_SERVICES_PROTOCOL *mp, UINTN *ret)
{
	UINTN n, enabled, self, fallback = 0;
	BT_EFI_PROCESSOR_INFORMATION me, info;

	if (mp->GetNumberOfProcessors(mp, &n, &enabled) != EFI_SUCCESS ||
	    mp->WhoAmI(mp, &self) != EFI_SUCCESS ||
	    mp->GetProcessorInfo(mp, self, &me) != EFI_SUCCESS)
		return false;
	for (UINTN i = 0; i < n; i++) {
		if (i == self || mp->GetProcessorInfo(mp, i, &info) != EFI_SUCCESS ||
		    !(info.StatusFlag & BT_PROCESSOR_ENABLED_BIT))
			continue;
		if (info.Location.Package != me.Location.Package ||
		    info.Location.Core != me.Location.Core) {
			*ret = i;
			return true;
		}
		if (!fallback)
			fallback = i; /* an SMT sibling: better than nothing */
	}
	if (fallback) {
		*ret = fallback;
		return true;
	}
	return false;
}

static bt_status efi_start_partner(void (*fn)(void *), void *arg, void *ctx)
{
	EFI_GUID guid = BT_EFI_MP_SERVICES_PROTOCOL_GUID;
	UINTN ap;
	EFI_STATUS st;

	(void)ctx;
	if (partner.running)
		return BT_ERR_INVALID;
	if (!partner.mp &&
	    bt_efi.bs->LocateProtocol(&guid, NULL, (void **)&partner.mp) != EFI_SUCCESS) {
		partner.mp = NULL;
		return BT_ERR_UNSUPPORTED;
	}
	if (!pick_ap(partner.mp, &ap))
		return BT_ERR_UNSUPPORTED;
	if (!partner.done &&
	    bt_efi.bs->CreateEvent(0, 0, NULL, NULL, &partner.done) != EFI_SUCCESS)
		return BT_ERR_NOMEM;
	partner.fn = fn;
	partner.arg = arg;
	st = partner.mp->StartupThisAP(partner.mp, partner_trampoline, ap, partner.done, 0,
				       &partner, NULL);
	if (st != EFI_SUCCESS)
		return bt_efi_status(st);
	partner.running = true;
	return BT_OK;
}

static bt_status efi_wait_partner(void *ctx)
{
	(void)ctx;
	if (!partner.running)
		return BT_OK;
	/* The MP driver signals the event from a timer callback, so poll it
	 * with interrupts enabled. */
	for (uint64_t waited = 0; waited < PARTNER_TIMEOUT_US; waited += 100) {
		if (bt_efi.bs->CheckEvent(partner.done) == EFI_SUCCESS) {
			partner.running = false;
			bt_efi.bs->CloseEvent(partner.done);
			partner.done = NULL;
			return BT_OK;
		}
		bt_efi.bs->Stall(100);
	}
	return BT_ERR_TIMEOUT; /* the AP stays busy; nothing else can be done */
}

void bt_efi_wl_env_init(struct bt_wl_env *env)
{
	memset(env, 0, sizeof(*env));
	env->code_alloc = efi_code_alloc;
	env->code_seal = efi_code_seal;
	env->code_free = efi_code_free;
	env->data_alloc = efi_data_alloc;
	env->data_free = efi_data_free;
	env->start_partner = efi_start_partner;
	env->wait_partner = efi_wait_partner;
}
