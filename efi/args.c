/* SPDX-License-Identifier: MIT */
/*
 * Arguments from EFI_LOADED_IMAGE_PROTOCOL.LoadOptions.
 *
 * The UEFI shell passes the whole command line as UCS-2 text, program name
 * first ("fs0:\baretop.efi -h"). The boot manager passes the optional data
 * of the Boot#### variable, usually nothing, sometimes binary. So the
 * options are used only if they are printable text, and a first word that
 * starts with '-' means the program name is absent (a boot entry whose
 * optional data is just the options).
 */
#include <stdlib.h>
#include <string.h>

#include "app/cmdline.h"
#include "efi/efi-state.h"

static bool printable_text(const CHAR16 *s, size_t n, size_t *ret_len)
{
	size_t i = 0;

	for (; i < n && s[i]; i++)
		if (s[i] != L'\t' && (s[i] < 0x20 || (s[i] >= 0x7f && s[i] < 0xa0)))
			return false;
	/* Anything after the terminating NUL must be NUL padding. */
	for (size_t j = i; j < n; j++)
		if (s[j])
			return false;
	*ret_len = i;
	return true;
}

static char *to_utf8(const CHAR16 *s, size_t n)
{
	char *out = malloc(n * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		CHAR16 c = s[i];

		if (c < 0x80) {
			*o++ = (char)c;
		} else if (c < 0x800) {
			*o++ = (char)(0xc0 | c >> 6);
			*o++ = (char)(0x80 | (c & 0x3f));
		} else {
			*o++ = (char)(0xe0 | c >> 12);
			*o++ = (char)(0x80 | ((c >> 6) & 0x3f));
			*o++ = (char)(0x80 | (c & 0x3f));
		}
	}
	*o = '\0';
	return out;
}

bt_status bt_efi_args(int *ret_argc, char ***ret_argv)
{
	const CHAR16 *opts = bt_efi.loaded_image->LoadOptions;
	size_t n = bt_efi.loaded_image->LoadOptionsSize / sizeof(CHAR16), len = 0;
	char *line = NULL;
	const char *program = bt_efi.app_path[0] ? bt_efi.app_path : "baretop.efi";
	bt_status st;

	if (opts && n && (bt_efi.loaded_image->LoadOptionsSize % 2) == 0 &&
	    printable_text(opts, n, &len) && len) {
		line = to_utf8(opts, len);
		if (!line)
			return BT_ERR_NOMEM;
	}
	int argc;
	char **argv;

	st = bt_cmdline_split(line ? line : "", &argc, &argv);
	free(line);
	if (st != BT_OK)
		return st;
	if (argc == 0 || argv[0][0] == '-') {
		st = bt_cmdline_prepend(&argc, &argv, program);
		if (st != BT_OK) {
			bt_cmdline_free(argc, argv);
			return st;
		}
	}
	*ret_argc = argc;
	*ret_argv = argv;
	return BT_OK;
}
