/* SPDX-License-Identifier: MIT */
/*
 * Another EFI application: the workload of `baretop -x FILE ARGS...`, or the
 * OS loader started by --then-boot.
 *
 * Images are loaded through a device path (the boot volume's own device
 * path followed by a file-path node), not from a memory buffer, so that the
 * started application finds itself as it would when the boot manager starts
 * it: EFI_LOADED_IMAGE.DeviceHandle and .FilePath are set (shim, GRUB and
 * systemd-boot locate their directory and second stage from them).
 *
 * For -x, each run loads the image again outside the counting window (the
 * firmware unloads an application when it returns from its entry point), and
 * the window holds StartImage only; the exit data is converted afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/platform.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"
#include "efi/platform-efi.h"
#include "firmware/secure-boot.h"

struct image {
	EFI_DEVICE_PATH *path;    /* boot volume + file node, pool memory */
	CHAR16 *options;          /* "name arg1 arg2", UCS-2, or NULL */
	UINT32 options_size;      /* bytes, including the terminating NUL */
	EFI_HANDLE handle;        /* loaded, not yet started; NULL otherwise */
	EFI_STATUS exit_status;
	UINTN exit_size;
	CHAR16 *exit_data;        /* from StartImage, freed after reading */
	char exit_text[160];
	bool started;
	char name[256];
};

static size_t path_size(const EFI_DEVICE_PATH *dp)
{
	size_t n = 0;

	for (;;) {
		size_t len = dp->Length[0] | (size_t)dp->Length[1] << 8;

		if (dp->Type == END_DEVICE_PATH_TYPE && dp->SubType == 0xff)
			return n;
		if (len < 4)
			return 0; /* malformed */
		n += len;
		dp = (const EFI_DEVICE_PATH *)((const uint8_t *)dp + len);
	}
}

/* The boot volume's device path + a file-path node for `file` ("\x\y.efi"). */
static EFI_DEVICE_PATH *file_device_path(const char *file, struct bt_diag *d)
{
	EFI_DEVICE_PATH *vol;
	char name[256];
	size_t n = 0;

	if (bt_efi.bs->HandleProtocol(bt_efi.loaded_image->DeviceHandle, &DevicePathProtocol,
				      (void **)&vol) != EFI_SUCCESS) {
		bt_diag_set(d, "the boot volume has no device path");
		return NULL;
	}
	/* Absolute from the volume's root, with backslashes; relative paths
	 * are taken from baretop's own directory, as for every other file. */
	if (file[0] != '/' && file[0] != '\\')
		n = (size_t)snprintf(name, sizeof(name), "%s\\", bt_efi.app_dir);
	snprintf(name + n, sizeof(name) - n, "%s", file);
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '\\';
	size_t chars = strlen(name) + 1;
	size_t vsize = path_size(vol);
	size_t fsize = SIZE_OF_FILEPATH_DEVICE_PATH + chars * sizeof(CHAR16);
	uint8_t *buf;

	if (bt_efi.bs->AllocatePool(EfiLoaderData, vsize + fsize + END_DEVICE_PATH_LENGTH,
				    (void **)&buf) != EFI_SUCCESS) {
		bt_diag_set(d, "out of pool memory");
		return NULL;
	}
	memcpy(buf, vol, vsize);
	FILEPATH_DEVICE_PATH *fp = (FILEPATH_DEVICE_PATH *)(buf + vsize);
	fp->Header.Type = MEDIA_DEVICE_PATH;
	fp->Header.SubType = MEDIA_FILEPATH_DP;
	fp->Header.Length[0] = (UINT8)(fsize & 0xff);
	fp->Header.Length[1] = (UINT8)(fsize >> 8);
	for (size_t i = 0; i < chars; i++)
		fp->PathName[i] = (unsigned char)name[i] < 0x80 ? (CHAR16)name[i] : L'?';
	EFI_DEVICE_PATH *end = (EFI_DEVICE_PATH *)(buf + vsize + fsize);
	end->Type = END_DEVICE_PATH_TYPE;
	end->SubType = 0xff;
	end->Length[0] = END_DEVICE_PATH_LENGTH;
	end->Length[1] = 0;
	return (EFI_DEVICE_PATH *)buf;
}

/* argv joined with blanks (quoted where needed) as UCS-2. */
static bt_status build_options(struct image *im, int argc, char *const *argv)
{
	size_t len = 0;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 3;
	im->options = calloc(len + 1, sizeof(CHAR16));
	if (!im->options)
		return BT_ERR_NOMEM;
	size_t k = 0;
	for (int i = 0; i < argc; i++) {
		bool quote = strchr(argv[i], ' ') != NULL || !argv[i][0];

		if (i)
			im->options[k++] = L' ';
		if (quote)
			im->options[k++] = L'"';
		for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
			im->options[k++] = *c < 0x80 ? *c : L'?';
		if (quote)
			im->options[k++] = L'"';
	}
	im->options[k] = 0;
	im->options_size = (UINT32)((k + 1) * sizeof(CHAR16));
	return BT_OK;
}

void bt_efi_sb_refusal(struct bt_diag *d, const char *name, uint64_t st)
{
	struct bt_secure_boot sb;
	char text[200];

	bt_efi_secure_boot(&sb);
	bt_sb_text(&sb, text, sizeof(text));
	/* UEFI 2.10 7.4 LoadImage: EFI_ACCESS_DENIED, the platform policy
	 * prohibits the image; EFI_SECURITY_VIOLATION, it was loaded but must
	 * not be started. Under Secure Boot that policy is the image
	 * verification (32.4); the variables say whether it was on. */
	bt_diag_set(d, "LoadImage(%s) failed: %s: refused by the firmware's image policy (Secure "
		    "Boot: not signed by a key in db, or listed in dbx); Secure Boot %s", name,
		    bt_efi_status_name((EFI_STATUS)st), text);
}

static bt_status load(struct image *im, struct bt_diag *d)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st;

	st = bt_efi.bs->LoadImage(FALSE, bt_efi.image, im->path, NULL, 0, &im->handle);
	if (st == EFI_SECURITY_VIOLATION && im->handle) {
		/* UEFI spec, LoadImage: the image was loaded (a handle exists)
		 * but Secure Boot refuses to start it. Do not leak it. */
		bt_efi.bs->UnloadImage(im->handle);
	}
	if (st == EFI_SECURITY_VIOLATION || st == EFI_ACCESS_DENIED) {
		/* The platform's image policy refused it: say so with the
		 * Secure Boot variables, so the reader sees whether it was on. */
		im->handle = NULL;
		bt_efi_sb_refusal(d, im->name, st);
		return bt_efi_status(st);
	}
	if (st != EFI_SUCCESS) {
		im->handle = NULL;
		bt_diag_set(d, "LoadImage(%s) failed: %s%s", im->name, bt_efi_status_name(st),
			    st == EFI_NOT_FOUND ? " (no such file)"
			    : st == EFI_UNSUPPORTED || st == EFI_LOAD_ERROR
			    ? " (not an EFI application for this machine?)" : "");
		return bt_efi_status(st);
	}
	if (bt_efi.bs->HandleProtocol(im->handle, &gEfiLoadedImageProtocolGuid, (void **)&li) ==
	    EFI_SUCCESS) {
		li->LoadOptions = im->options;
		li->LoadOptionsSize = im->options ? im->options_size : 0;
	}
	im->started = false;
	return BT_OK;
}

bt_status bt_efi_image_load(const char *path, int argc, char *const *argv, void **ret_image,
			    struct bt_diag *d)
{
	struct image *im = calloc(1, sizeof(*im));
	bt_status st = BT_OK;

	if (!im)
		return BT_ERR_NOMEM;
	snprintf(im->name, sizeof(im->name), "%s", path);
	im->path = file_device_path(path, d);
	if (!im->path)
		st = BT_ERR_NOMEM;
	if (st == BT_OK && argc > 0)
		st = build_options(im, argc, argv);
	if (st == BT_OK)
		st = load(im, d); /* checks it loads before any run */
	if (st != BT_OK) {
		bt_efi_image_free(im);
		return st;
	}
	*ret_image = im;
	return BT_OK;
}

static void take_exit_data(struct image *im)
{
	size_t n = 0;

	if (!im->exit_data)
		return;
	for (; n + 1 < sizeof(im->exit_text) && n < im->exit_size / sizeof(CHAR16) &&
	       im->exit_data[n]; n++)
		im->exit_text[n] = im->exit_data[n] >= 0x20 && im->exit_data[n] < 0x7f
					   ? (char)im->exit_data[n] : '?';
	im->exit_text[n] = '\0';
	bt_efi.bs->FreePool(im->exit_data);
	im->exit_data = NULL;
}

/* Before each run, outside the window: load the image again if its last
 * run unloaded it; read the last run's exit data. */
bt_status bt_efi_image_prepare(void *p, struct bt_diag *d)
{
	struct image *im = p;

	take_exit_data(im);
	return im->handle ? BT_OK : load(im, d);
}

/* The measured body: StartImage, nothing else. */
void bt_efi_image_start(void *p)
{
	struct image *im = p;

	if (!im->handle) {
		/* bt_efi_image_prepare() was not called: never load in the window */
		im->exit_status = EFI_NOT_READY;
		im->started = true;
		return;
	}
	im->exit_size = 0;
	im->exit_data = NULL;
	im->exit_status = bt_efi.bs->StartImage(im->handle, &im->exit_size, &im->exit_data);
	im->handle = NULL; /* an application is unloaded when it returns */
	im->started = true;
}

bt_status bt_efi_image_result(void *p, uint64_t *ret_status, struct bt_diag *d)
{
	struct image *im = p;

	if (!im->started) {
		bt_diag_set(d, "%s has not run", im->name);
		return BT_ERR_INVALID;
	}
	take_exit_data(im);
	*ret_status = im->exit_status;
	bt_diag_set(d, "%s: %s%s%s", im->name, bt_efi_status_name(im->exit_status),
		    im->exit_text[0] ? ", exit data: " : "", im->exit_text);
	return im->exit_status == EFI_SUCCESS ? BT_OK : BT_ERR_ABORTED;
}

void bt_efi_image_free(void *p)
{
	struct image *im = p;

	if (!im)
		return;
	take_exit_data(im);
	if (im->handle)
		bt_efi.bs->UnloadImage(im->handle);
	if (im->path)
		bt_efi.bs->FreePool(im->path);
	free(im->options);
	free(im);
}
