/* SPDX-License-Identifier: MIT */
/*
 * Another EFI application as the workload (baretop -x FILE ARGS...).
 * The file is read from the boot volume into memory once; each run loads
 * it from that buffer (LoadImage, outside the counting window), sets its
 * load options, and the window holds StartImage only. The firmware unloads
 * an application when it returns from its entry point, so an image is
 * started once per load.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/platform.h"
#include "efi/efi-state.h"
#include "efi/image-efi.h"

struct image {
	uint8_t *file;
	size_t file_size;
	CHAR16 *options;          /* "name arg1 arg2", UCS-2 */
	UINT32 options_size;      /* bytes, including the terminating NUL */
	EFI_HANDLE handle;        /* loaded, not yet started; NULL otherwise */
	EFI_STATUS exit_status;
	char exit_text[160];
	bool started;
	char path[256];
};

static bt_status read_file(const char *path, struct image *im, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	long size;

	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return BT_ERR_NOT_FOUND;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		snprintf(err, errlen, "%s is empty or unreadable", path);
		return BT_ERR_IO;
	}
	im->file = malloc((size_t)size);
	if (!im->file || fread(im->file, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		snprintf(err, errlen, "cannot read %s", path);
		return BT_ERR_IO;
	}
	fclose(f);
	im->file_size = (size_t)size;
	return BT_OK;
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

static bt_status load(struct image *im, char *err, size_t errlen)
{
	EFI_LOADED_IMAGE *li;
	EFI_STATUS st;

	st = bt_efi.bs->LoadImage(FALSE, bt_efi.image, NULL, im->file, im->file_size, &im->handle);
	if (st != EFI_SUCCESS) {
		im->handle = NULL;
		snprintf(err, errlen, "LoadImage(%s) failed: %s%s", im->path, bt_efi_status_name(st),
			 st == EFI_UNSUPPORTED || st == EFI_LOAD_ERROR
				 ? " (not an EFI application for this machine?)" : "");
		return bt_efi_status(st);
	}
	if (bt_efi.bs->HandleProtocol(im->handle, &gEfiLoadedImageProtocolGuid, (void **)&li) ==
	    EFI_SUCCESS) {
		li->LoadOptions = im->options;
		li->LoadOptionsSize = im->options_size;
		/* Its files are relative to baretop's volume. */
		li->DeviceHandle = bt_efi.loaded_image->DeviceHandle;
	}
	im->started = false;
	return BT_OK;
}

bt_status bt_efi_image_load(const char *path, int argc, char *const *argv, void **ret_image,
			    char *err, size_t errlen)
{
	struct image *im = calloc(1, sizeof(*im));
	bt_status st;

	if (!im)
		return BT_ERR_NOMEM;
	snprintf(im->path, sizeof(im->path), "%s", path);
	st = read_file(path, im, err, errlen);
	if (st == BT_OK)
		st = build_options(im, argc, argv);
	if (st == BT_OK)
		st = load(im, err, errlen); /* checks it loads before any run */
	if (st != BT_OK) {
		bt_efi_image_free(im);
		return st;
	}
	*ret_image = im;
	return BT_OK;
}

/* Before each run, outside the window: load the image again if its last
 * run unloaded it. */
bt_status bt_efi_image_prepare(void *p, char *err, size_t errlen)
{
	struct image *im = p;

	return im->handle ? BT_OK : load(im, err, errlen);
}

/* The measured body: StartImage, nothing else. */
void bt_efi_image_start(void *p)
{
	struct image *im = p;
	UINTN size = 0;
	CHAR16 *data = NULL;

	if (!im->handle) {
		/* bt_efi_image_prepare() was not called: never load in the window */
		im->exit_status = EFI_NOT_READY;
		im->started = true;
		return;
	}
	im->exit_status = bt_efi.bs->StartImage(im->handle, &size, &data);
	im->handle = NULL; /* an application is unloaded when it returns */
	im->started = true;
	im->exit_text[0] = '\0';
	if (data) {
		size_t n = 0;
		for (; n + 1 < sizeof(im->exit_text) && n < size / sizeof(CHAR16) && data[n]; n++)
			im->exit_text[n] = data[n] >= 0x20 && data[n] < 0x7f ? (char)data[n] : '?';
		im->exit_text[n] = '\0';
		bt_efi.bs->FreePool(data);
	}
}

bt_status bt_efi_image_result(void *p, uint64_t *ret_status, char *msg, size_t msglen)
{
	struct image *im = p;

	if (!im->started) {
		snprintf(msg, msglen, "%s has not run", im->path);
		return BT_ERR_INVALID;
	}
	*ret_status = im->exit_status;
	snprintf(msg, msglen, "%s: %s%s%s", im->path, bt_efi_status_name(im->exit_status),
		 im->exit_text[0] ? ", exit data: " : "", im->exit_text);
	return im->exit_status == EFI_SUCCESS ? BT_OK : BT_ERR_ABORTED;
}

void bt_efi_image_free(void *p)
{
	struct image *im = p;

	if (!im)
		return;
	if (im->handle)
		bt_efi.bs->UnloadImage(im->handle);
	free(im->file);
	free(im->options);
	free(im);
}
