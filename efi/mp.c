/* SPDX-License-Identifier: MIT */
/*
 * Logical CPUs through EFI_MP_SERVICES_PROTOCOL (PI spec vol. 2). Without
 * the protocol baretop still runs, on the CPU the firmware started it on.
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

uint32_t bt_efi_current_cpu(void)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	UINTN self = 0;

	if (mp && mp->WhoAmI(mp, &self) != EFI_SUCCESS)
		self = 0;
	return (uint32_t)self;
}

struct started {
	struct ap_call call;
	EFI_EVENT done;
};

bt_status bt_efi_start_on_cpu(uint32_t cpu, void (*fn)(void *), void *arg, void **ret_handle)
{
	BT_EFI_MP_SERVICES_PROTOCOL *mp = mp_protocol();
	struct started *h;
	EFI_STATUS st;

	if (!mp)
		return BT_ERR_UNSUPPORTED;
	if (cpu == bt_efi_current_cpu())
		return BT_ERR_INVALID; /* this CPU cannot start itself and go on */
	h = calloc(1, sizeof(*h));
	if (!h)
		return BT_ERR_NOMEM;
	h->call.fn = fn;
	h->call.arg = arg;
	if (bt_efi.bs->CreateEvent(0, 0, NULL, NULL, &h->done) != EFI_SUCCESS) {
		free(h);
		return BT_ERR_NOMEM;
	}
	/* Non-blocking: the MP driver signals `done` when fn returns. */
	st = mp->StartupThisAP(mp, ap_trampoline, cpu, h->done, 0, &h->call, NULL);
	if (st != EFI_SUCCESS) {
		bt_efi.bs->CloseEvent(h->done);
		free(h);
		return bt_efi_status(st);
	}
	*ret_handle = h;
	return BT_OK;
}

static void report_ap_fault(const struct bt_efi_ap_fault *f)
{
	if (f->fatal)
		printf("\nbaretop: %s%s%s on the AP with APIC ID %u at RIP 0x%llx", f->fatal,
		       f->fatal_detail ? ": " : "", f->fatal_detail ? f->fatal_detail : "",
		       f->apic_id, (unsigned long long)f->rip);
	else
		printf("\nbaretop: unexpected exception %u on the AP with APIC ID %u at RIP 0x%llx",
		       f->vector, f->apic_id, (unsigned long long)f->rip);
	if (f->offset)
		printf(" = baretop.efi+0x%llx (see baretop.map)", (unsigned long long)f->offset);
	if (!f->fatal && f->vector == 14)
		printf(", CR2 0x%llx", (unsigned long long)f->cr2);
	printf("; that CPU is parked for the rest of the run%s\n",
	       f->cleanup_ran ? "; its park cleanup ran first (it closes an open PMU session)" : "");
}

bt_status bt_efi_wait_cpu(void *handle, uint64_t timeout_us)
{
	struct started *h = handle;
	struct bt_efi_ap_fault f;

	/* The event is signalled from the MP driver's timer callback: poll it
	 * with interrupts enabled, and watch for a fault the AP could not
	 * report itself. */
	for (uint64_t t = 0; timeout_us == 0 || t < timeout_us; t += 100) {
		if (bt_efi.bs->CheckEvent(h->done) == EFI_SUCCESS) {
			bt_efi.bs->CloseEvent(h->done);
			free(h);
			return BT_OK;
		}
		if (bt_efi_ap_fault(&f)) {
			static bool reported; /* one report per program: the AP stays parked */
			if (!reported)
				report_ap_fault(&f);
			reported = true;
			return BT_ERR_FAULT; /* the AP never finishes: keep the handle */
		}
		bt_efi.bs->Stall(100);
	}
	return BT_ERR_TIMEOUT; /* the AP keeps running; the handle stays valid */
}

bt_status bt_efi_run_on_cpu(uint32_t cpu, void (*fn)(void *), void *arg, uint64_t timeout_us)
{
	void *h;
	bt_status st;

	if (cpu == bt_efi_current_cpu()) {
		fn(arg);
		return BT_OK;
	}
	/* Started non-blocking and polled, rather than a blocking
	 * StartupThisAP, so that a fault on the AP is noticed at once. */
	st = bt_efi_start_on_cpu(cpu, fn, arg, &h);
	return st == BT_OK ? bt_efi_wait_cpu(h, timeout_us) : st;
}
