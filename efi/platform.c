/* SPDX-License-Identifier: MIT */
/* The UEFI implementation of app/platform.h. */
#include <stdio.h>
#include <string.h>

#include "app/platform.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"
#include "efi/mp.h"
#include "efi/platform-efi.h"
#include "efi/proto/cpu-io2.h"
#include "efi/wl-env-efi.h"
#include "arch/arch-hw.h"
#include "arch/paging.h"

static void efi_stall_us(uint64_t us)
{
	/* Stall() takes UINTN microseconds; split very long waits anyway so
	 * no firmware sees a surprising argument. */
	while (us) {
		uint64_t chunk = us > 1000000 ? 1000000 : us;

		bt_efi.bs->Stall((UINTN)chunk);
		us -= chunk;
	}
}

static void efi_wallclock(char *buf, size_t len)
{
	EFI_TIME t;

	if (bt_efi.rs->GetTime(&t, NULL) != EFI_SUCCESS || t.Month < 1 || t.Month > 12) {
		snprintf(buf, len, "%s", "");
		return;
	}
	int n = snprintf(buf, len, "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day,
			 t.Hour, t.Minute, t.Second);
	/* UEFI: local time = UTC - TimeZone (minutes). Most firmware leaves
	 * the zone unspecified; the time is then printed without an offset. */
	if (t.TimeZone != EFI_UNSPECIFIED_TIMEZONE && n > 0 && (size_t)n < len) {
		int off = -t.TimeZone;
		snprintf(buf + n, len - (size_t)n, "%c%02d:%02d", off < 0 ? '-' : '+',
			 (off < 0 ? -off : off) / 60, (off < 0 ? -off : off) % 60);
	}
}

static bt_status efi_qemu_debug_exit(uint16_t port, uint32_t code)
{
	EFI_GUID guid = BT_EFI_CPU_IO2_PROTOCOL_GUID;
	BT_EFI_CPU_IO2_PROTOCOL *io;
	UINT32 value = code;
	EFI_STATUS st;

	fflush(NULL);
	bt_efi_files_close_all();
	st = bt_efi.bs->LocateProtocol(&guid, NULL, (void **)&io);
	if (st != EFI_SUCCESS)
		return bt_efi_status(st);
	st = io->Io.Write(io, BtEfiCpuIoWidthUint32, port, 1, &value);
	return bt_efi_status(st); /* only reached when no such device exists */
}

/* The page tables through the hardware backend, also under --sim: the
 * memory being asked about is this machine's. */
static void efi_memory_pages(const void *addr, uint64_t len, struct bt_page_span *ret)
{
	bt_page_span_read(bt_arch_hw(), addr, len, ret);
}

void bt_efi_platform_init(struct bt_platform *p)
{
	memset(p, 0, sizeof(*p));
	p->name = "UEFI";
	if (bt_efi.st->FirmwareVendor) {
		size_t i = 0;

		for (; i + 1 < sizeof(p->firmware_vendor) && bt_efi.st->FirmwareVendor[i]; i++) {
			CHAR16 c = bt_efi.st->FirmwareVendor[i];
			p->firmware_vendor[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
		}
		p->firmware_vendor[i] = '\0';
	}
	p->firmware_revision = bt_efi.st->FirmwareRevision;
	p->uefi_revision = bt_efi.st->Hdr.Revision;
	p->arch = bt_arch_hw();
	p->stall_us = efi_stall_us;
	p->wallclock = efi_wallclock;
	p->machine_facts = bt_efi_machine_facts;
	p->memory_pages = efi_memory_pages;
	p->cpu_count = bt_efi_cpu_count;
	p->cpu_location = bt_efi_cpu_location;
	p->current_cpu = bt_efi_current_cpu;
	p->run_on_cpu = bt_efi_run_on_cpu;
	p->run_on_aps = bt_efi_run_on_aps;
	bt_efi_wl_env_init(&p->workload_env);
	p->image_load = bt_efi_image_load;
	p->image_prepare = bt_efi_image_prepare;
	p->image_start = bt_efi_image_start;
	p->image_result = bt_efi_image_result;
	p->image_free = bt_efi_image_free;
	p->volume_free = bt_efi_volume_free;
	p->qemu_debug_exit = efi_qemu_debug_exit;
	p->set_failure_exit_port = bt_efi_set_failure_exit_port;
	/* The console: a screen or a terminal (serial); attributes set on it
	 * are put back to the one it had when baretop started. */
	static UINTN normal_attribute;
	normal_attribute = bt_efi.st->ConOut && bt_efi.st->ConOut->Mode
				   ? (UINTN)bt_efi.st->ConOut->Mode->Attribute
				   : EFI_TEXT_ATTR(EFI_LIGHTGRAY, EFI_BLACK);
	p->console_interactive = true;
	p->console_blocks = bt_efi_console_blocks();
	p->console_style = bt_efi_console_style;
	p->console_style_ctx = &normal_attribute;
}
