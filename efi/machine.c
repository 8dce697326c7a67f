/* SPDX-License-Identifier: MIT */
/*
 * The machine facts under UEFI: the SMBIOS entry point and the ACPI RSDP
 * are found in the system table's configuration table (UEFI 2.x 4.6; the
 * SMBIOS 3 entry point preferred, DSP0134 5.2.2), the Boot Loader
 * Interface and Secure Boot variables read with GetVariable; firmware/
 * parses the bytes.
 * Boot-services memory is identity-mapped (UEFI 2.x 2.3.4), so a physical
 * address is read as a pointer; the parsers bound every length first.
 */
#include <stdio.h>
#include <string.h>

#include "efi/efi-state.h"
#include "efi/platform-efi.h"
#include "firmware/acpi-fpdt.h"
#include "firmware/bli.h"
#include "firmware/smbios.h"

/* The largest SMBIOS table read (3.x gives only a maximum size). */
#define SMBIOS_TABLE_MAX (1u << 20)

static void *config_table(EFI_GUID guid)
{
	for (UINTN i = 0; i < bt_efi.st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &bt_efi.st->ConfigurationTable[i];

		if (memcmp(&t->VendorGuid, &guid, sizeof(guid)) == 0)
			return t->VendorTable;
	}
	return NULL;
}

static bool phys_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	/* Address 0 and wrap-around are refused; the rest is RAM the
	 * firmware's own tables point at. */
	if (addr == 0 || addr + len < addr)
		return false;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return true;
}

static void efi_smbios(struct bt_smbios *s)
{
	void *ep = config_table((EFI_GUID)SMBIOS3_TABLE_GUID);
	struct bt_smbios_entry e;
	struct bt_diag d;
	size_t len;

	memset(s, 0, sizeof(*s));
	if (!ep)
		ep = config_table((EFI_GUID)SMBIOS_TABLE_GUID);
	if (!ep) {
		snprintf(s->reason, sizeof(s->reason),
			 "the firmware publishes no SMBIOS table (no SMBIOS3_TABLE_GUID or "
			 "SMBIOS_TABLE_GUID in the configuration table)");
		return;
	}
	if (bt_smbios_parse_entry(ep, BT_SMBIOS_ENTRY_MAX, &e, &d) != BT_OK) {
		snprintf(s->reason, sizeof(s->reason), "%.150s", d.text);
		return;
	}
	len = e.table_length < SMBIOS_TABLE_MAX ? e.table_length : SMBIOS_TABLE_MAX;
	if (!e.table_address || len == 0) {
		snprintf(s->reason, sizeof(s->reason), "the SMBIOS entry point names no table");
		return;
	}
	bt_smbios_parse_table((const uint8_t *)(uintptr_t)e.table_address, len, e.major, e.minor, s);
	s->entry_64bit = e.is_64bit;
}

static void efi_fpdt(struct bt_fpdt *f)
{
	void *rsdp = config_table((EFI_GUID)ACPI_20_TABLE_GUID);

	if (!rsdp) {
		memset(f, 0, sizeof(*f));
		snprintf(f->reason, sizeof(f->reason),
			 "no ACPI 2.0 table in the configuration table");
		return;
	}
	bt_acpi_fpdt_read((uint64_t)(uintptr_t)rsdp, phys_read, NULL, f);
}

/* The variable `name` under the Boot Loader Interface GUID into buf. */
static bool bli_var(CHAR16 *name, uint8_t *buf, UINTN *len)
{
	EFI_GUID guid = { 0x4a67b082, 0x0a4c, 0x41cf,
			  { 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f } };

	return bt_efi.rs->GetVariable(name, &guid, NULL, len, buf) == EFI_SUCCESS;
}

static void efi_bli(struct bt_bli *b)
{
	uint8_t v[256];
	UINTN n;

	memset(b, 0, sizeof(*b));
	n = sizeof(v);
	if (bli_var((CHAR16 *)L"LoaderInfo", v, &n))
		b->present |= bt_bli_string(v, n, b->loader_info, sizeof(b->loader_info));
	n = sizeof(v);
	if (bli_var((CHAR16 *)L"LoaderTimeInitUSec", v, &n))
		b->present |= b->has_time_init = bt_bli_usec(v, n, &b->time_init_usec);
	n = sizeof(v);
	if (bli_var((CHAR16 *)L"LoaderTimeExecUSec", v, &n))
		b->present |= b->has_time_exec = bt_bli_usec(v, n, &b->time_exec_usec);
	if (!b->present)
		snprintf(b->reason, sizeof(b->reason),
			 "no LoaderInfo or LoaderTime*USec variable: not started by a boot loader "
			 "that implements the Boot Loader Interface");
}

void bt_efi_secure_boot(struct bt_secure_boot *s)
{
	static const CHAR16 *const names[BT_SB_NVARS] = { L"SecureBoot", L"SetupMode", L"AuditMode",
							  L"DeployedMode" };

	memset(s, 0, sizeof(*s));
	s->present = true;
	for (int i = 0; i < BT_SB_NVARS; i++) {
		uint8_t v[8];
		UINTN n = sizeof(v);
		EFI_STATUS st = bt_efi.rs->GetVariable((CHAR16 *)names[i], &gEfiGlobalVariableGuid,
						       NULL, &n, v);

		s->value[i] = st == EFI_NOT_FOUND ? BT_SB_ABSENT
			      : st == EFI_SUCCESS ? bt_sb_decode(v, n) : BT_SB_MALFORMED;
	}
}

void bt_efi_machine_facts(struct bt_machine *m)
{
	efi_smbios(&m->smbios);
	efi_fpdt(&m->fpdt);
	efi_bli(&m->bli);
	bt_efi_secure_boot(&m->secure_boot);
}
