/* SPDX-License-Identifier: MIT */
/*
 * --then next-boot-entry: start the boot option the boot manager would
 * have started after baretop's, the way EDK2's boot manager starts one
 * (MdeModulePkg/Library/UefiBootManagerLib/BmBoot.c EfiBootManagerBoot).
 *
 * Which entry: BootCurrent names baretop's entry (UEFI 3.3, Globally
 * Defined Variables); the next one is the first entry after it in
 * BootOrder that the boot manager would start: active and of category BOOT
 * (MdeModulePkg/Universal/BdsDxe/BdsEntry.c BootBootOptions skips the
 * others; OVMF's UiApp sits in BootOrder with category APP). From the start
 * of BootOrder when BootCurrent is not in it, as for a one-shot BootNext
 * entry: the firmware deletes BootNext before it starts that entry
 * (BdsEntry.c BdsEntry).
 *
 * How, for each entry, in EfiBootManagerBoot's order (but "2. Set
 * BootCurrent": BootCurrent stays baretop's entry, a variable the UEFI spec
 * makes read-only for everyone but the boot manager, 3.3 Globally Defined
 * Variables, and that no part of EDK2 but its own status-code printer
 * reads), ReadyToBoot signalled ("3.",
 * UefiLib EfiSignalEventReadyToBoot: the gEfiEventReadyToBootGuid group,
 * then gEfiEventAfterReadyToBootGuid), the path connected
 * (BmConnect.c EfiBootManagerConnectDevicePath) and expanded as
 * BmGetNextLoadOptionDevicePath expands it (a device-only path to removable
 * media or a file system: \EFI\BOOT\BOOTX64.EFI on it,
 * BmExpandMediaDevicePath; a short-form HD(): BmExpandPartitionDevicePath;
 * a file path alone: every file system, BmExpandFileDevicePath), each
 * candidate loaded with LoadImage(BootPolicy TRUE) as BDS loads them, the
 * optional data given as load options unless it is the 16-byte GUID EDK2
 * marks its auto-created options with (BmIsAutoCreateBootOption), the
 * image's ParentHandle cleared, a 5-minute watchdog, StartImage. Not done:
 * "4. BmRepairAllControllers" (Driver Health repairs, which may need a
 * person at a setup form) and "5. BmSetMemoryTypeInformationVariable"
 * (the next boot's memory bins, saved to NVRAM with a warm reset when they
 * changed, BmMisc.c): BDS did both for baretop's own entry moments before,
 * and baretop loads no driver and allocates none of the tracked types
 * (ACPI, reserved, runtime), so they would find nothing to repair or
 * save; an NVRAM write and a reset are all they could add.
 *
 * An entry whose image returns is not started again: an error makes
 * baretop go on with the entries after it, as BootBootOptions does; a
 * success returns EFI_SUCCESS to the boot manager, which then shows its
 * menu as it does after that entry itself. When every entry after
 * baretop's failed, baretop returns "not started" and BDS goes on after
 * baretop's entry, so each is tried once more by BDS before its
 * PlatformRecovery.
 *
 * An entry that cannot be loaded (a file that is gone) or that Secure Boot
 * refuses (EFI_SECURITY_VIOLATION, EFI_ACCESS_DENIED) is skipped, as
 * BootBootOptions goes on after it: the firmware would not start it either,
 * so no reset helps. The forms the boot manager alone resolves (a URI, a
 * USB class or WWID path, a LoadFile short form: firmware/load-option.h
 * BT_DP_FIRMWARE_ONLY) are left to it: started by the boot manager,
 * baretop returns "not started" and BDS goes on with BootOrder after
 * baretop's entry, to that same entry (the ones before it fail for BDS as
 * they did here), with no BootNext and no reset. Started from a shell,
 * such an entry is made BootNext with a reset, only on a boot that may
 * reset (app/boot-policy.h), and the attempt is kept in BaretopState: the
 * boot right after it that comes back to baretop knows the firmware did
 * not reach the entry (a network boot may fail once), and the entry is
 * tried again on a later boot that may reset, BT_BOOTNEXT_TRIES times in
 * all (app/boot-policy.h bt_bootnext_decide).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-policy.h"
#include "base/array.h"
#include "app/boot-state.h"
#include "firmware/load-option.h"
#include "efi/boot-vars-efi.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"

/* MdePkg.dec gEfiEventReadyToBootGuid, gEfiEventAfterReadyToBootGuid. */
static EFI_GUID ready_to_boot_guid = { 0x7ce88fb3, 0x4bd7, 0x4679,
				       { 0x87, 0xa8, 0xa8, 0xd8, 0xde, 0xe5, 0x0d, 0x2b } };
static EFI_GUID after_ready_to_boot_guid = { 0x3a2a00ad, 0x98b9, 0x4cdf,
					     { 0xa4, 0x78, 0x70, 0x27, 0x77, 0xf1, 0xc1, 0x0b } };

/* A device path's own bound: handles' paths are well-formed, 4 KiB ends a walk. */
#define DP_MAX 4096

static EFI_STATUS get_global(const CHAR16 *name, void *buf, UINTN *size)
{
	UINT32 attr;
	return bt_efi.rs->GetVariable((CHAR16 *)name, &gEfiGlobalVariableGuid, &attr, size, buf);
}

void bt_efi_boot_facts(struct bt_platform *p)
{
	struct bt_boot_start *s = &p->boot_start;
	UINT16 v = 0, order[256];
	UINTN size = sizeof(v);
	UINT64 count = 0;

	if (get_global(L"BootCurrent", &v, &size) == EFI_SUCCESS && size == sizeof(v)) {
		s->have_boot_current = true;
		s->boot_current = v;
	}
	size = sizeof(v);
	if (get_global(L"BootNext", &v, &size) == EFI_SUCCESS && size == sizeof(v)) {
		s->have_boot_next = true;
		s->boot_next = v;
	}
	/* Absent, or over 256 entries (EFI_BUFFER_TOO_SMALL): not read. */
	size = sizeof(order);
	if (get_global(L"BootOrder", order, &size) == EFI_SUCCESS && size % 2 == 0) {
		s->boot_order_read = true;
		for (size_t i = 0; i < size / sizeof(UINT16); i++)
			if (s->have_boot_current && order[i] == s->boot_current)
				s->current_in_order = true;
	}
	/* The high half grows at every reset (UEFI 2.10 8.5.2): the boot's number. */
	if (bt_efi.bs->GetNextMonotonicCount(&count) == EFI_SUCCESS && count) {
		s->have_count = true;
		s->count = count;
	}
	bt_efi_boot_parent(p);
}

static void EFIAPI empty_notify(EFI_EVENT e, void *ctx)
{
	(void)e;
	(void)ctx;
}

/* UefiLib EfiSignalEventReadyToBoot: an event in each group, signalled and
 * closed (every member of the group is notified). UEFI 2.0 added
 * CreateEventEx; older firmware has no event groups. */
static void signal_ready_to_boot(void)
{
	EFI_GUID *groups[] = { &ready_to_boot_guid, &after_ready_to_boot_guid };
	EFI_EVENT ev;

	if (bt_efi.st->Hdr.Revision < (2u << 16))
		return;
	for (size_t i = 0; i < BT_ARRAY_SIZE(groups); i++)
		if (bt_efi.bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, empty_notify, NULL,
					     groups[i], &ev) == EFI_SUCCESS) {
			bt_efi.bs->SignalEvent(ev);
			bt_efi.bs->CloseEvent(ev);
		}
}

static bool is_end(const EFI_DEVICE_PATH *dp)
{
	return dp->Type == END_DEVICE_PATH_TYPE && dp->SubType == 0xff;
}

/* BmConnect.c EfiBootManagerConnectDevicePath: connect the deepest handle
 * along the path to what remains of it, until the whole path has one or
 * no handle progresses. */
static void connect_path(EFI_DEVICE_PATH *dp)
{
	EFI_HANDLE prev = NULL;

	for (int i = 0; i < 32; i++) {
		EFI_DEVICE_PATH *rem = dp;
		EFI_HANDLE h = NULL;
		if (bt_efi.bs->LocateDevicePath(&gEfiDevicePathProtocolGuid, &rem, &h) != EFI_SUCCESS ||
		    is_end(rem) || h == prev)
			return;
		prev = h;
		if (bt_efi.bs->ConnectController(h, NULL, rem, FALSE) != EFI_SUCCESS)
			return;
	}
}

/* EfiBootManagerConnectAll: every controller, recursively. */
static void connect_all(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (bt_efi.bs->LocateHandleBuffer(AllHandles, NULL, NULL, &n, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n; i++)
		bt_efi.bs->ConnectController(handles[i], NULL, NULL, TRUE);
	bt_efi.bs->FreePool(handles);
}

static const uint8_t *handle_path(EFI_HANDLE h, size_t *len)
{
	EFI_DEVICE_PATH *dp = NULL;

	if (bt_efi.bs->HandleProtocol(h, &gEfiDevicePathProtocolGuid, (void **)&dp) != EFI_SUCCESS ||
	    !dp)
		return NULL;
	*len = bt_dp_length((const uint8_t *)dp, DP_MAX);
	return *len ? (const uint8_t *)dp : NULL;
}

/* The candidates of one boot option: full paths tried in turn. */
struct candidates {
	EFI_DEVICE_PATH *path[16];
	int n;
};

static void add_copy(struct candidates *c, const uint8_t *dp, size_t len)
{
	uint8_t *p = NULL;

	if (c->n == 16 || bt_efi.bs->AllocatePool(EfiLoaderData, len, (void **)&p) != EFI_SUCCESS)
		return;
	memcpy(p, dp, len);
	c->path[c->n++] = (EFI_DEVICE_PATH *)p;
}

/* A handle's path followed by `tail` (with its end node), or by a file
 * path node of `file` when tail is NULL (EDK2 AppendDevicePath,
 * FileDevicePath). */
static void add_on_handle(struct candidates *c, EFI_HANDLE h, const uint8_t *tail,
			  size_t tail_len, const char *file)
{
	size_t hlen = 0, len = 0;
	const uint8_t *hp = handle_path(h, &hlen);
	static uint8_t buf[DP_MAX + 600]; /* off the firmware's small stack */

	if (!hp)
		return;
	if (file) {
		if (bt_dp_append_file(hp, hlen, file, buf, sizeof(buf), &len) != BT_OK)
			return;
	} else {
		size_t tl = bt_dp_length(tail, tail_len);
		if (!tl || hlen - 4 + tl > sizeof(buf))
			return;
		memcpy(buf, hp, hlen - 4);
		memcpy(buf + hlen - 4, tail, tl);
		len = hlen - 4 + tl;
	}
	add_copy(c, buf, len);
}

/* BmExpandMediaDevicePath: a path that ends at a file system has one
 * candidate, \EFI\BOOT\BOOTX64.EFI on it; one that ends at a BlockIo
 * device (a whole disk, removable media) has that file on each file system
 * under it, once the device is connected and a dummy read has seen a
 * media change. Returns false when the path names more than a device. */
static bool expand_media(EFI_DEVICE_PATH *dp, size_t dp_len, struct candidates *c)
{
	EFI_DEVICE_PATH *rem = dp;
	EFI_HANDLE h = NULL;

	if (bt_efi.bs->LocateDevicePath(&gEfiSimpleFileSystemProtocolGuid, &rem, &h) == EFI_SUCCESS &&
	    is_end(rem)) {
		add_on_handle(c, h, NULL, 0, BT_REMOVABLE_MEDIA_FILE);
		return true;
	}
	rem = dp;
	if (bt_efi.bs->LocateDevicePath(&gEfiBlockIoProtocolGuid, &rem, &h) != EFI_SUCCESS ||
	    !is_end(rem))
		return false;
	bt_efi.bs->ConnectController(h, NULL, NULL, TRUE);
	EFI_BLOCK_IO *bio = NULL;
	if (bt_efi.bs->HandleProtocol(h, &gEfiBlockIoProtocolGuid, (void **)&bio) == EFI_SUCCESS &&
	    bio && bio->Media && bio->Media->BlockSize) {
		void *blk = NULL;
		if (bt_efi.bs->AllocatePool(EfiLoaderData, bio->Media->BlockSize, &blk) == EFI_SUCCESS) {
			bio->ReadBlocks(bio, bio->Media->MediaId, 0, bio->Media->BlockSize, blk);
			bt_efi.bs->FreePool(blk);
		}
	}
	EFI_HANDLE *fs = NULL;
	UINTN n = 0;
	if (bt_efi.bs->LocateHandleBuffer(ByProtocol, &gEfiSimpleFileSystemProtocolGuid, NULL, &n,
					  &fs) != EFI_SUCCESS)
		return true;
	for (UINTN i = 0; i < n; i++) {
		size_t flen = 0;
		const uint8_t *fp = handle_path(fs[i], &flen);
		if (fp && bt_dp_has_prefix(fp, flen, (const uint8_t *)dp, dp_len))
			add_on_handle(c, fs[i], NULL, 0, BT_REMOVABLE_MEDIA_FILE);
	}
	bt_efi.bs->FreePool(fs);
	return true;
}

/* BmExpandPartitionDevicePath: the partition with the same HD() node among
 * the BlockIo handles, after connecting every controller when none
 * matches at first. */
static void expand_hd(const uint8_t *short_dp, size_t short_len, struct candidates *c)
{
	for (int pass = 0; pass < 2 && !c->n; pass++) {
		EFI_HANDLE *handles = NULL;
		UINTN n = 0;

		if (pass == 1)
			connect_all();
		if (bt_efi.bs->LocateHandleBuffer(ByProtocol, &gEfiBlockIoProtocolGuid, NULL, &n,
						  &handles) != EFI_SUCCESS)
			continue;
		for (UINTN i = 0; i < n && !c->n; i++) {
			size_t plen = 0, len = 0;
			const uint8_t *pp = handle_path(handles[i], &plen);
			static uint8_t out[DP_MAX + 600]; /* off the firmware's small stack */
			if (pp && bt_dp_expand_hd(pp, plen, short_dp, short_len, out, sizeof(out),
						  &len) == BT_OK)
				add_copy(c, out, len);
		}
		bt_efi.bs->FreePool(handles);
	}
}

/* BmExpandFileDevicePath: the file on every file system, removable media
 * first, then fixed, then those not on a BlockIo device. */
static void expand_file(const uint8_t *dp, size_t len, struct candidates *c)
{
	EFI_HANDLE *fs = NULL;
	UINTN n = 0;

	connect_all();
	if (bt_efi.bs->LocateHandleBuffer(ByProtocol, &gEfiSimpleFileSystemProtocolGuid, NULL, &n,
					  &fs) != EFI_SUCCESS)
		return;
	for (int type = 0; type < 3; type++)
		for (UINTN i = 0; i < n; i++) {
			EFI_BLOCK_IO *bio = NULL;
			if (bt_efi.bs->HandleProtocol(fs[i], &gEfiBlockIoProtocolGuid, (void **)&bio) !=
			    EFI_SUCCESS)
				bio = NULL;
			int t = !bio ? 2 : bio->Media->RemovableMedia ? 0 : 1;
			if (t == type)
				add_on_handle(c, fs[i], dp, len, NULL);
		}
	bt_efi.bs->FreePool(fs);
}

/* LoadImage(BootPolicy TRUE) of each candidate until one loads or Secure
 * Boot refuses one (an image refused with EFI_SECURITY_VIOLATION was
 * loaded and is unloaded, as EfiBootManagerBoot does "to avoid resource
 * leak"). EFI_NOT_FOUND when there is no candidate. */
static EFI_STATUS load_candidates(struct candidates *c, EFI_HANDLE *h, int *which)
{
	EFI_STATUS st = EFI_NOT_FOUND;

	*h = NULL;
	*which = -1;
	for (int i = 0; i < c->n; i++) {
		st = bt_efi.bs->LoadImage(TRUE, bt_efi.image, c->path[i], NULL, 0, h);
		if (st == EFI_SUCCESS) {
			*which = i;
			break;
		}
		if (st == EFI_SECURITY_VIOLATION && *h)
			bt_efi.bs->UnloadImage(*h);
		*h = NULL;
		if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED)
			break;
	}
	return st;
}

static void free_candidates(struct candidates *c)
{
	for (int i = 0; i < c->n; i++)
		bt_efi.bs->FreePool(c->path[i]);
	c->n = 0;
}

/* The state as app/boot-run.c left it; false when there is none that can
 * be read (a BootNext attempt could then not be remembered). */
static bool read_state(struct bt_platform *p, struct bt_boot_state *s)
{
	uint8_t buf[256];
	size_t len = sizeof(buf);
	struct bt_diag d = { "" };

	memset(s, 0, sizeof(*s));
	if (!p->nv_read || !p->nv_write)
		return false;
	bt_status st = p->nv_read(BT_BOOT_STATE_NAME, buf, &len, &d);
	if (st == BT_ERR_NOT_FOUND)
		return true;
	return st == BT_OK && bt_boot_state_decode(buf, len, s, &d) == BT_OK;
}

static bool write_state(struct bt_platform *p, const struct bt_boot_state *s)
{
	uint8_t buf[BT_BOOT_STATE_SIZE];
	struct bt_diag d = { "" };

	bt_boot_state_encode(s, buf);
	p->nv_writes++;
	if (p->nv_write(BT_BOOT_STATE_NAME, buf, sizeof(buf), &d) != BT_OK) {
		printf("baretop: next-boot-entry: %s\n", d.text);
		return false;
	}
	return true;
}

/* Makes `num` BootNext and resets, after recording the attempt; returns
 * only when either write failed. */
static EFI_STATUS boot_via_bootnext(struct bt_platform *p, struct bt_boot_state *s, uint16_t num)
{
	const struct bt_boot_start *b = &p->boot_start;

	bt_bootnext_mark(s, num, b->count);
	if (!write_state(p, s)) {
		printf("baretop: next-boot-entry: the attempt cannot be recorded: no BootNext, "
		       "returning\n");
		return BT_EFI_HANDOVER_STATUS;
	}
	UINT16 v = num;
	p->nv_writes++;
	EFI_STATUS st = bt_efi.rs->SetVariable(L"BootNext", &gEfiGlobalVariableGuid,
					       EFI_VARIABLE_NON_VOLATILE |
						       EFI_VARIABLE_BOOTSERVICE_ACCESS |
						       EFI_VARIABLE_RUNTIME_ACCESS,
					       sizeof(v), &v);
	if (st != EFI_SUCCESS) {
		bt_efi_log_status(st, "next-boot-entry: SetVariable BootNext (returning)");
		return BT_EFI_HANDOVER_STATUS;
	}
	printf("baretop: next-boot-entry: only the boot manager resolves Boot%04X's path: "
	       "BootNext=Boot%04X set (attempt %u of %u, recorded in %s); resetting\n", num, num,
	       (unsigned)s->bootnext_failures + 1, BT_BOOTNEXT_TRIES, BT_BOOT_STATE_NAME);
	fflush(stdout);
	bt_efi.rs->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	return EFI_DEVICE_ERROR;
}

/* An entry only the boot manager resolves: left to it (started by it:
 * it goes on to this entry after baretop returns), or made BootNext. */
static EFI_STATUS firmware_only(struct bt_platform *p, struct bt_boot_state *state,
				bool can_remember, uint16_t num, bool *ret_skip)
{
	const struct bt_boot_start *b = &p->boot_start;
	enum bt_boot_gap gap;

	*ret_skip = true;
	if (b->parent != BT_PARENT_SHELL) {
		*ret_skip = false;
		printf("baretop: next-boot-entry: only the boot manager resolves Boot%04X's path: "
		       "returning \"not started\", and the boot manager goes on to it (no BootNext, "
		       "no reset)\n", num);
		return BT_EFI_HANDOVER_STATUS;
	}
	struct bt_boot_state before = *state;
	enum bt_bootnext_verdict v = bt_bootnext_decide(state, num, b->have_count, b->count,
							p->bootnext_may_reset && can_remember, &gap);
	if (memcmp(&before, state, sizeof(before)) != 0 && can_remember)
		write_state(p, state);
	switch (v) {
	case BT_BOOTNEXT_REACHED:
	case BT_BOOTNEXT_TRY:
		*ret_skip = false;
		return boot_via_bootnext(p, state, num);
	case BT_BOOTNEXT_FAILED:
		printf("baretop: next-boot-entry: Boot%04X was made BootNext by the boot before and "
		       "baretop runs again: not reached (attempt %u of %u); skipped now\n", num,
		       (unsigned)state->bootnext_failures, BT_BOOTNEXT_TRIES);
		break;
	case BT_BOOTNEXT_UNREACHED:
		printf("baretop: next-boot-entry: Boot%04X skipped: %u BootNext attempts did not reach "
		       "it\n", num, BT_BOOTNEXT_TRIES);
		break;
	default:
		printf("baretop: next-boot-entry: Boot%04X skipped, no BootNext: %s (the monotonic "
		       "count: %s)\n", num,
		       p->bootnext_may_reset ? "no NVRAM record or no count to tell boots apart"
					     : "this boot may not reset",
		       bt_boot_gap_name(gap));
		break;
	}
	return EFI_SUCCESS;
}

/* Loads the entry's image as BmGetNextLoadOptionBuffer expands its path;
 * EFI_SUCCESS with *h, or why not (said). */
static EFI_STATUS load_entry(const uint8_t *dp, size_t dp_len, const char *aname, EFI_HANDLE *h)
{
	enum bt_dp_form form = bt_dp_form(dp, dp_len);
	struct candidates c = { .n = 0 };
	struct bt_diag d = { "" };
	int which;

	connect_path((EFI_DEVICE_PATH *)dp);
	if (!expand_media((EFI_DEVICE_PATH *)dp, dp_len, &c)) {
		if (form == BT_DP_SHORT_HD)
			expand_hd(dp, dp_len, &c);
		else if (form == BT_DP_SHORT_FILE)
			expand_file(dp, dp_len, &c);
		else
			add_copy(&c, dp, bt_dp_length(dp, dp_len));
	} else {
		printf("baretop: next-boot-entry: a device-only path: %s on it\n",
		       BT_REMOVABLE_MEDIA_FILE);
	}
	if (form == BT_DP_SHORT_HD && c.n)
		printf("baretop: next-boot-entry: short-form HD() path expanded to its partition\n");
	EFI_STATUS st = load_candidates(&c, h, &which);
	free_candidates(&c);
	if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED) {
		bt_efi_sb_refusal(&d, aname, st);
		printf("baretop: next-boot-entry: %s\n", d.text);
		printf("baretop: next-boot-entry: %s skipped, no BootNext (the firmware refuses it "
		       "too)\n", aname);
	} else if (st != EFI_SUCCESS) {
		bt_efi_log_status(st, "next-boot-entry: LoadImage");
		printf("baretop: next-boot-entry: %s cannot be loaded from its path as the boot "
		       "manager expands it: skipped, no BootNext (the firmware fails the same way "
		       "and goes on)\n", aname);
	}
	return st;
}

EFI_STATUS bt_efi_start_next_boot_entry(struct bt_platform *p)
{
	const struct bt_boot_start *b = &p->boot_start;
	UINT16 order[256];
	UINTN size = sizeof(order);
	/* static: 4 KiB off the firmware's small stack, and the started image's
	 * LoadOptions point into it while it runs. */
	static uint8_t opt[4096];
	struct bt_boot_state state;
	bool can_remember = read_state(p, &state);
	EFI_STATUS st;

	if (!b->have_boot_current) {
		printf("baretop: next-boot-entry: no BootCurrent (not started by the boot "
		       "manager); returning to the firmware\n");
		return BT_EFI_HANDOVER_STATUS;
	}
	if ((st = get_global(L"BootOrder", order, &size)) != EFI_SUCCESS) {
		bt_efi_log_status(st, "next-boot-entry: BootOrder not read whole; returning");
		return BT_EFI_HANDOVER_STATUS;
	}
	size_t n = size / sizeof(UINT16);
	for (size_t i = bt_boot_order_after(order, n, b->boot_current); i < n; i++) {
		CHAR16 name[16];
		char aname[16];
		struct bt_load_option lo;
		struct bt_diag d = { "" };
		UINTN osize = sizeof(opt);
		const char *why;
		bool skip;

		if (order[i] == b->boot_current)
			continue;
		snprintf(aname, sizeof(aname), "Boot%04X", order[i]);
		for (int k = 0; k < 9; k++)
			name[k] = (CHAR16)aname[k];
		st = get_global(name, opt, &osize);
		if (st != EFI_SUCCESS)
			bt_diag_set(&d, "GetVariable: %s", bt_efi_status_name(st));
		if (st != EFI_SUCCESS || bt_load_option_parse(opt, osize, &lo, &d) != BT_OK) {
			printf("baretop: next-boot-entry: %s unreadable: %s; skipped\n", aname, d.text);
			continue;
		}
		if (!bt_load_option_bootable(lo.attributes, &why)) {
			printf("baretop: next-boot-entry: %s \"%s\" skipped: %s\n", aname,
			       lo.description, why);
			continue;
		}
		printf("baretop: next-boot-entry: Boot%04X \"%s\" (after Boot%04X in BootOrder)\n",
		       order[i], lo.description, b->boot_current);
		fflush(stdout);
		const uint8_t *dp = opt + lo.file_path_offset;
		size_t dp_len = lo.file_path_length;

		if (bt_dp_form(dp, dp_len) == BT_DP_FIRMWARE_ONLY) {
			st = firmware_only(p, &state, can_remember, order[i], &skip);
			if (skip)
				continue;
			return st;
		}
		/* EfiBootManagerBoot: ReadyToBoot, then the load. */
		signal_ready_to_boot();
		EFI_HANDLE h = NULL;
		if (load_entry(dp, dp_len, aname, &h) != EFI_SUCCESS)
			continue;
		EFI_LOADED_IMAGE *li = NULL;
		if (bt_efi.bs->HandleProtocol(h, &gEfiLoadedImageProtocolGuid, (void **)&li) ==
		    EFI_SUCCESS) {
			const uint8_t *od = opt + lo.optional_offset;
			if (bt_load_option_auto_created(od, lo.optional_length)) {
				printf("baretop: next-boot-entry: %s was created by the firmware (its "
				       "16-byte GUID is not for the image): no load options\n", aname);
			} else if (lo.optional_length) {
				li->LoadOptions = (void *)od;
				li->LoadOptionsSize = (UINT32)lo.optional_length;
			}
			/* "loaded directly from the firmware's boot manager" */
			li->ParentHandle = NULL;
		}
		/* As the boot manager does before it starts a boot option. */
		bt_efi_before_next_stage();
		st = bt_efi.bs->StartImage(h, NULL, NULL);
		bt_efi_after_next_stage();
		if (st == EFI_SUCCESS) {
			printf("baretop: next-boot-entry: %s returned success: returning it, so the boot "
			       "manager shows its menu as it does after that entry\n", aname);
			return EFI_SUCCESS;
		}
		bt_efi_log_status(st, "%s returned; going on with the entries after it, as the boot "
				  "manager does", aname);
	}
	printf("baretop: next-boot-entry: no entry after Boot%04X in BootOrder could be started: "
	       "returning to the boot manager, which goes on with BootOrder\n", b->boot_current);
	return BT_EFI_HANDOVER_STATUS;
}
