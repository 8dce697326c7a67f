/* SPDX-License-Identifier: MIT */
/*
 * Console output: newlib's write() to stdout/stderr lands here. UEFI text
 * output takes UCS-2 and needs CR LF; UTF-8 outside the BMP becomes '?'.
 */
#include "efi/efi-state.h"

#define CHUNK 256

void bt_efi_console_write(const char *s, size_t n)
{
	CHAR16 buf[CHUNK + 3];
	size_t k = 0;
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	if (!bt_efi.st || !bt_efi.st->ConOut)
		return;
	while (p < end) {
		uint32_t c = *p++;

		if (c >= 0x80) {
			/* Decode a 2- or 3-byte sequence; anything else is '?'. */
			int more = (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : -1;

			if (more < 0 || end - p < more) {
				c = '?';
			} else {
				c &= more == 1 ? 0x1f : 0x0f;
				for (int i = 0; i < more; i++)
					c = (c << 6) | (*p++ & 0x3f);
			}
		}
		if (c == '\n')
			buf[k++] = L'\r';
		buf[k++] = (CHAR16)c;
		if (k >= CHUNK) {
			buf[k] = 0;
			bt_efi.st->ConOut->OutputString(bt_efi.st->ConOut, buf);
			k = 0;
		}
	}
	if (k) {
		buf[k] = 0;
		bt_efi.st->ConOut->OutputString(bt_efi.st->ConOut, buf);
	}
}
