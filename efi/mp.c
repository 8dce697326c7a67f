/* SPDX-License-Identifier: MIT */
/*
 * Logical CPUs through EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2), blocking
 * calls only (app/on-cpu.h builds everything on them). Without the protocol
 * baretop still runs, on the CPU the firmware started it on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/platform.h"
#include "efi/efi-state.h"
#include "efi/mp.h"
#include "efi/proto/mp-services.h"

static BT_EFI_MP_SERVICES_PROTOCOL *mp_protocol(void)
{
	/* Looked up once: the protocol does not come or go while baretop runs. */
	static BT_EFI_MP_SERVICES_PROTOCOL *mp;
	static bool looked; /* as mp */
	EFI_GUID guid = BT_EFI_MP_SERVICES_PROTOCOL_GUID;

	if (!looked) {
		looked = true;
		if (bt_efi.bs->LocateProtocol(&guid, NULL, (void **)&mp) != EFI_SUCCESS)
			mp = NULL;
	}
	return mp;
}

bt_status bt_efi_cpu_count(uint32_t *ret_total, uint32_t *ret_enabled)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	UINTN total, enabled;

	if (!mp)
		return BT_ERR_UNSUPPORTED;
	if (mp->GetNumberOfProcessors(mp, &total, &enabled) != EFI_SUCCESS)
		return BT_ERR_IO;
	*ret_total = (uint32_t)total;
	*ret_enabled = (uint32_t)enabled;
	return BT_OK;
}

bt_status bt_efi_cpu_location(uint32_t cpu, struct bt_cpu_location *ret)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	BT_EFI_PROCESSOR_INFORMATION info;
	EFI_STATUS st;

	if (!mp)
		return BT_ERR_UNSUPPORTED;
	memset(&info, 0, sizeof(info));
	st = mp->GetProcessorInfo(mp, cpu, &info);
	if (st != EFI_SUCCESS)
		return bt_efi_status(st);
	ret->apic_id = info.ProcessorId;
	ret->package = info.Location.Package;
	ret->core = info.Location.Core;
	ret->thread = info.Location.Thread;
	ret->is_bsp = info.StatusFlag & BT_PROCESSOR_AS_BSP_BIT;
	ret->enabled = info.StatusFlag & BT_PROCESSOR_ENABLED_BIT;
	return BT_OK;
}

/*
 * The procedure the firmware calls on an AP (EFIAPI: the Microsoft ABI;
 * baretop's functions are System V): baretop's function with the stack
 * pointer this procedure was entered with, the top of what baretop uses of
 * the firmware's AP stack (app/ap-run.h measures it from there).
 */
struct ap_call {
	bt_ap_proc *fn;
	void *arg;
};

static VOID EFIAPI ap_trampoline(VOID *p)
{
	struct ap_call *c = p;

	c->fn(c->arg, (uint64_t)(uintptr_t)__builtin_frame_address(0) + 8);
}

uint32_t bt_efi_current_cpu(void)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	UINTN self = 0;

	if (mp && mp->WhoAmI(mp, &self) != EFI_SUCCESS)
		self = 0;
	return (uint32_t)self;
}

/*
 * Blocking only: after ReadyToBoot the PI spec has StartupThisAP and
 * StartupAllAPs return EFI_UNSUPPORTED for a non-blocking request
 * (MdePkg/Include/Protocol/MpService.h), and baretop always runs after it.
 * The BSP waits inside the call (EDK2 MpLib.c StartupThisAPWorker: `do
 * CheckThisAP while EFI_NOT_READY`); at the timeout the firmware resets the
 * AP to idle (ResetProcessorToIdleState: INIT-SIPI-SIPI) and returns
 * EFI_TIMEOUT.
 */
bt_status bt_efi_run_on_cpu(uint32_t cpu, bt_ap_proc *fn, void *arg, uint64_t timeout_us)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	struct ap_call c = { fn, arg };
	BOOLEAN finished = FALSE;

	if (!mp)
		return BT_ERR_UNSUPPORTED;
	return bt_efi_status(mp->StartupThisAP(mp, ap_trampoline, cpu, NULL, timeout_us, &c,
					       &finished));
}

bt_status bt_efi_run_on_aps(bt_ap_proc *fn, void *arg, uint64_t timeout_us,
			    uint32_t *ret_n_failed)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	struct ap_call c = { fn, arg };
	UINTN *failed = NULL;

	*ret_n_failed = 0;
	if (!mp)
		return BT_ERR_UNSUPPORTED;
	EFI_STATUS st = mp->StartupAllAPs(mp, ap_trampoline, FALSE, NULL, timeout_us, &c, &failed);
	if (failed) {
		/* terminated by END_OF_CPU_LIST; the caller frees it (MpService.h) */
		while (failed[*ret_n_failed] != (UINTN)0xFFFFFFFF)
			++*ret_n_failed;
		bt_efi.bs->FreePool(failed);
	}
	return bt_efi_status(st);
}
