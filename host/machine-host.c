/* SPDX-License-Identifier: MIT */
/*
 * The machine facts of a hosted run (baretop-host run): Linux exports the
 * SMBIOS entry point and table under /sys/firmware/dmi/tables/ (root only)
 * and the Boot Loader Interface and Secure Boot variables under efivarfs
 * (a 4-byte attribute word, then the value). Where they cannot be read,
 * the facts say why. The FPDT's boot record lives in physical memory, which a hosted
 * run does not read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "firmware/bli.h"
#include "firmware/smbios.h"
#include "host/platform-host.h"

#define DMI_DIR "/sys/firmware/dmi/tables/"
#define EFIVARS "/sys/firmware/efi/efivars/"

/* The whole file (at most max bytes) into a malloc'd buffer, or NULL. */
static uint8_t *slurp(const char *path, size_t max, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max);
	n = buf ? fread(buf, 1, max, f) : 0;
	fclose(f);
	if (!buf || n == 0) {
		free(buf);
		return NULL;
	}
	*ret_len = n;
	return buf;
}

static void host_smbios(struct bt_smbios *s)
{
	struct bt_smbios_entry e;
	struct bt_diag d;
	size_t elen = 0, tlen = 0;
	uint8_t *ep = slurp(DMI_DIR "smbios_entry_point", BT_SMBIOS_ENTRY_MAX, &elen);
	uint8_t *t;

	memset(s, 0, sizeof(*s));
	if (!ep) {
		snprintf(s->reason, sizeof(s->reason),
			 "hosted run: " DMI_DIR "smbios_entry_point is not readable here");
		return;
	}
	if (bt_smbios_parse_entry(ep, elen, &e, &d) != BT_OK) {
		free(ep);
		snprintf(s->reason, sizeof(s->reason), "hosted run: %.140s", d.text);
		return;
	}
	free(ep);
	t = slurp(DMI_DIR "DMI", 1u << 20, &tlen);
	if (!t) {
		snprintf(s->reason, sizeof(s->reason), "hosted run: " DMI_DIR "DMI is not readable");
		return;
	}
	bt_smbios_parse_table(t, tlen, e.major, e.minor, s);
	s->entry_64bit = e.is_64bit;
	free(t);
}

static bool efivar_guid(const char *name, const char *guid, uint8_t *buf, size_t max,
			size_t *ret_len)
{
	char path[160];
	size_t n = 0;
	uint8_t *v;

	snprintf(path, sizeof(path), EFIVARS "%s-%s", name, guid);
	v = slurp(path, max + 4, &n);
	if (!v || n < 4) {
		free(v);
		return false;
	}
	memcpy(buf, v + 4, n - 4);
	*ret_len = n - 4;
	free(v);
	return true;
}

static bool efivar(const char *name, uint8_t *buf, size_t max, size_t *ret_len)
{
	return efivar_guid(name, BT_BLI_GUID_TEXT, buf, max, ret_len);
}

/* The Secure Boot variables as Linux shows them; a kernel not booted by
 * UEFI has no efivarfs, and then nothing is said about them. */
static void host_secure_boot(struct bt_secure_boot *s)
{
	memset(s, 0, sizeof(*s));
	if (access(EFIVARS, R_OK) != 0) {
		snprintf(s->reason, sizeof(s->reason),
			 "hosted run: " EFIVARS " is not readable (Linux not booted by UEFI?)");
		return;
	}
	s->present = true;
	for (int i = 0; i < BT_SB_NVARS; i++) {
		char path[160];
		uint8_t v[8];
		size_t n = 0;

		snprintf(path, sizeof(path), EFIVARS "%s-" BT_EFI_GLOBAL_GUID_TEXT,
			 bt_sb_var_name((enum bt_sb_var)i));
		if (access(path, F_OK) != 0)
			s->value[i] = BT_SB_ABSENT;
		else if (efivar_guid(bt_sb_var_name((enum bt_sb_var)i), BT_EFI_GLOBAL_GUID_TEXT, v,
				     sizeof(v), &n))
			s->value[i] = bt_sb_decode(v, n);
		else
			s->value[i] = BT_SB_MALFORMED;
	}
}

static void host_bli(struct bt_bli *b)
{
	uint8_t v[256];
	size_t n;

	memset(b, 0, sizeof(*b));
	if (efivar(BT_BLI_INFO, v, sizeof(v), &n))
		b->present |= bt_bli_string(v, n, b->loader_info, sizeof(b->loader_info));
	if (efivar(BT_BLI_TIME_INIT, v, sizeof(v), &n))
		b->present |= b->has_time_init = bt_bli_usec(v, n, &b->time_init_usec);
	if (efivar(BT_BLI_TIME_EXEC, v, sizeof(v), &n))
		b->present |= b->has_time_exec = bt_bli_usec(v, n, &b->time_exec_usec);
	if (!b->present)
		snprintf(b->reason, sizeof(b->reason),
			 "hosted run: no Boot Loader Interface variables readable in " EFIVARS);
}

void bt_host_machine_facts(struct bt_machine *m)
{
	memset(m, 0, sizeof(*m));
	host_smbios(&m->smbios);
	snprintf(m->fpdt.reason, sizeof(m->fpdt.reason),
		 "hosted run: the FPDT's boot record is in physical memory, not read from Linux");
	host_bli(&m->bli);
	host_secure_boot(&m->secure_boot);
}
