/* SPDX-License-Identifier: MIT */
/*
 * EFI_CPU_ARCH_PROTOCOL (UEFI PI specification, vol. 2, "CPU Architectural
 * Protocol"). gnu-efi 3.0.15 does not define it. Only the member baretop
 * calls is typed; the others are opaque slots so the layout stays right.
 */
#ifndef EFI_PROTO_CPU_ARCH_H
#define EFI_PROTO_CPU_ARCH_H

#include <efi.h>

#define BT_EFI_CPU_ARCH_PROTOCOL_GUID \
	{ 0x26baccb1, 0x6f42, 0x11d4, { 0xbc, 0xe7, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }

typedef VOID (EFIAPI *BT_EFI_CPU_INTERRUPT_HANDLER)(EFI_EXCEPTION_TYPE type,
						    EFI_SYSTEM_CONTEXT context);

typedef struct BT_EFI_CPU_ARCH_PROTOCOL BT_EFI_CPU_ARCH_PROTOCOL;
struct BT_EFI_CPU_ARCH_PROTOCOL {
	void *FlushDataCache;
	void *EnableInterrupt;
	void *DisableInterrupt;
	void *GetInterruptState;
	void *Init;
	/* Handler NULL uninstalls; installing over an installed one fails
	 * with EFI_ALREADY_STARTED. */
	EFI_STATUS (EFIAPI *RegisterInterruptHandler)(BT_EFI_CPU_ARCH_PROTOCOL *This,
						      EFI_EXCEPTION_TYPE InterruptType,
						      BT_EFI_CPU_INTERRUPT_HANDLER Handler);
	void *GetTimerValue;
	void *SetMemoryAttributes;
	UINT32 NumberOfTimers;
	UINT32 DmaBufferAlignment;
};

#endif
