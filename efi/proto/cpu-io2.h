/* SPDX-License-Identifier: MIT */
/*
 * EFI_CPU_IO2_PROTOCOL (UEFI PI specification, vol. 5). baretop uses it for
 * one thing: the optional write to QEMU's isa-debug-exit port, so that the
 * firmware, not baretop, executes the port I/O.
 */
#ifndef EFI_PROTO_CPU_IO2_H
#define EFI_PROTO_CPU_IO2_H

#include <efi.h>

#define BT_EFI_CPU_IO2_PROTOCOL_GUID \
	{ 0xad61f191, 0xae5f, 0x4c0e, { 0xb9, 0xfa, 0xe8, 0x69, 0xd2, 0x88, 0xc6, 0x4f } }

typedef enum {
	BtEfiCpuIoWidthUint8,
	BtEfiCpuIoWidthUint16,
	BtEfiCpuIoWidthUint32,
	BtEfiCpuIoWidthUint64,
} BT_EFI_CPU_IO_PROTOCOL_WIDTH;

typedef struct BT_EFI_CPU_IO2_PROTOCOL BT_EFI_CPU_IO2_PROTOCOL;
typedef EFI_STATUS (EFIAPI *BT_EFI_CPU_IO_PROTOCOL_IO_MEM)(BT_EFI_CPU_IO2_PROTOCOL *This,
							   BT_EFI_CPU_IO_PROTOCOL_WIDTH Width,
							   UINT64 Address, UINTN Count,
							   VOID *Buffer);
typedef struct {
	BT_EFI_CPU_IO_PROTOCOL_IO_MEM Read;
	BT_EFI_CPU_IO_PROTOCOL_IO_MEM Write;
} BT_EFI_CPU_IO_PROTOCOL_ACCESS;

struct BT_EFI_CPU_IO2_PROTOCOL {
	BT_EFI_CPU_IO_PROTOCOL_ACCESS Mem;
	BT_EFI_CPU_IO_PROTOCOL_ACCESS Io;
};

#endif
