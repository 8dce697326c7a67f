/* SPDX-License-Identifier: MIT */
/*
 * EFI_MP_SERVICES_PROTOCOL (UEFI PI specification, vol. 2, "MP Services
 * Protocol"). gnu-efi 3.0.15 does not define it.
 */
#ifndef EFI_PROTO_MP_SERVICES_H
#define EFI_PROTO_MP_SERVICES_H

#include <efi.h>

#define BT_EFI_MP_SERVICES_PROTOCOL_GUID \
	{ 0x3fdda605, 0xa76e, 0x4f46, { 0xad, 0x29, 0x12, 0xf4, 0x53, 0x1b, 0x3d, 0x08 } }

#define BT_PROCESSOR_AS_BSP_BIT        0x00000001
#define BT_PROCESSOR_ENABLED_BIT       0x00000002
#define BT_PROCESSOR_HEALTH_STATUS_BIT 0x00000004

typedef struct {
	UINT32 Package;
	UINT32 Core;
	UINT32 Thread;
} BT_EFI_CPU_PHYSICAL_LOCATION;

typedef struct {
	UINT64 ProcessorId;             /* the APIC ID */
	UINT32 StatusFlag;
	BT_EFI_CPU_PHYSICAL_LOCATION Location;
	/* PI 1.7 appends an extended location, written only when bit 24 of
	 * ProcessorNumber is set; reserved here so either layout fits. */
	UINT32 ExtendedInformation[6];
} BT_EFI_PROCESSOR_INFORMATION;

typedef VOID (EFIAPI *BT_EFI_AP_PROCEDURE)(VOID *ProcedureArgument);

typedef struct BT_EFI_MP_SERVICES_PROTOCOL BT_EFI_MP_SERVICES_PROTOCOL;
struct BT_EFI_MP_SERVICES_PROTOCOL {
	EFI_STATUS (EFIAPI *GetNumberOfProcessors)(BT_EFI_MP_SERVICES_PROTOCOL *This,
						   UINTN *NumberOfProcessors,
						   UINTN *NumberOfEnabledProcessors);
	EFI_STATUS (EFIAPI *GetProcessorInfo)(BT_EFI_MP_SERVICES_PROTOCOL *This,
					      UINTN ProcessorNumber,
					      BT_EFI_PROCESSOR_INFORMATION *ProcessorInfoBuffer);
	EFI_STATUS (EFIAPI *StartupAllAPs)(BT_EFI_MP_SERVICES_PROTOCOL *This,
					   BT_EFI_AP_PROCEDURE Procedure, BOOLEAN SingleThread,
					   EFI_EVENT WaitEvent, UINTN TimeoutInMicroSeconds,
					   VOID *ProcedureArgument, UINTN **FailedCpuList);
	EFI_STATUS (EFIAPI *StartupThisAP)(BT_EFI_MP_SERVICES_PROTOCOL *This,
					   BT_EFI_AP_PROCEDURE Procedure, UINTN ProcessorNumber,
					   EFI_EVENT WaitEvent, UINTN TimeoutInMicroseconds,
					   VOID *ProcedureArgument, BOOLEAN *Finished);
	EFI_STATUS (EFIAPI *SwitchBSP)(BT_EFI_MP_SERVICES_PROTOCOL *This, UINTN ProcessorNumber,
				       BOOLEAN EnableOldBSP);
	EFI_STATUS (EFIAPI *EnableDisableAP)(BT_EFI_MP_SERVICES_PROTOCOL *This,
					     UINTN ProcessorNumber, BOOLEAN EnableAP,
					     UINT32 *HealthFlag);
	EFI_STATUS (EFIAPI *WhoAmI)(BT_EFI_MP_SERVICES_PROTOCOL *This, UINTN *ProcessorNumber);
};

#endif
