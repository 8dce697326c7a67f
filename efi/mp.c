/* SPDX-License-Identifier: MIT */
/*
 * Logical CPUs through EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2). Without
 * the protocol baretop still runs, on the CPU the firmware started it on.
 */
#include <string.h>

#include "app/platform.h"
#include "efi/efi-state.h"
#include "efi/mp.h"
#include "efi/proto/mp-services.h"

static BT_EFI_MP_SERVICES_PROTOCOL *mp_protocol(void)
{
	static BT_EFI_MP_SERVICES_PROTOCOL *mp;
	static bool looked;
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

struct ap_call {
	void (*fn)(void *);
	void *arg;
};

/* EFI_AP_PROCEDURE uses the Microsoft ABI; baretop's functions do not. */
static VOID EFIAPI ap_trampoline(VOID *p)
{
	struct ap_call *c = p;

	c->fn(c->arg);
}

bt_status bt_efi_run_on_cpu(uint32_t cpu, void (*fn)(void *), void *arg, uint64_t timeout_us)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	UINTN self = 0;
	struct ap_call call = { fn, arg };
	EFI_STATUS st;

	if (mp && mp->WhoAmI(mp, &self) != EFI_SUCCESS)
		self = 0;
	if (cpu == self) {
		fn(arg);
		return BT_OK;
	}
	if (!mp)
		return BT_ERR_UNSUPPORTED;
	/* Blocking call: the BSP waits in the firmware until the AP is done. */
	st = mp->StartupThisAP(mp, ap_trampoline, cpu, NULL, (UINTN)timeout_us, &call, NULL);
	return bt_efi_status(st);
}
