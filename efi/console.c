/* SPDX-License-Identifier: MIT */
/*
 * Console output: newlib's write() to stdout/stderr lands here. UEFI text
 * output takes UCS-2 and needs CR LF; UTF-8 outside the BMP becomes '?'.
 */
#include <stdio.h>

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

/*
 * Text attributes (UEFI 2.10, 12.4 EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL.
 * SetAttribute): foreground in bits 0-3, background in bits 4-6. OVMF's
 * ConOut is a splitter over the graphics console and the serial terminal;
 * the terminal driver sends an attribute as ANSI SGR escapes.
 */
static UINTN attribute_of(enum bt_text_style s, UINTN normal)
{
	switch (s) {
	case BT_STYLE_HEADING:
		return EFI_TEXT_ATTR(EFI_WHITE, EFI_BLACK);
	case BT_STYLE_FLAGGED:
		return EFI_TEXT_ATTR(EFI_YELLOW, EFI_BLACK);
	case BT_STYLE_PATH:
		return EFI_TEXT_ATTR(EFI_LIGHTRED, EFI_BLACK);
	case BT_STYLE_PROGRESS:
		return EFI_TEXT_ATTR(EFI_LIGHTCYAN, EFI_BLACK);
	case BT_STYLE_NORMAL:
	default:
		return normal;
	}
}

void bt_efi_console_style(void *ctx, FILE *f, enum bt_text_style s)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = bt_efi.st ? bt_efi.st->ConOut : NULL;
	const UINTN *normal = ctx;

	if (!out || !out->SetAttribute)
		return;
	/* Text already written with printf keeps the attribute it was written
	 * under: out of newlib's buffer first. */
	fflush(f);
	out->SetAttribute(out, attribute_of(s, normal ? *normal : EFI_TEXT_ATTR(EFI_LIGHTGRAY,
										   EFI_BLACK)));
}

/* Is a serial terminal among the text outputs? Its device path has a UART
 * node (UEFI 2.10, 10.3.4.10 UART Device Path: type 3, sub-type 14). */
static bool serial_terminal_present(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	bool serial = false;

	if (bt_efi.bs->LocateHandleBuffer(ByProtocol, &TextOutProtocol, NULL, &n, &handles) !=
	    EFI_SUCCESS)
		return false;
	for (UINTN k = 0; k < n && !serial; k++) {
		EFI_DEVICE_PATH *dp;

		if (bt_efi.bs->HandleProtocol(handles[k], &DevicePathProtocol, (void **)&dp) !=
		    EFI_SUCCESS)
			continue; /* the splitter's own virtual handle has none */
		for (int guard = 0; !IsDevicePathEnd(dp) && guard < 64; guard++) {
			if (DevicePathType(dp) == MESSAGING_DEVICE_PATH &&
			    DevicePathSubType(dp) == MSG_UART_DP)
				serial = true;
			if (DevicePathNodeLength(dp) < 4)
				break;
			dp = NextDevicePathNode(dp);
		}
	}
	bt_efi.bs->FreePool(handles);
	return serial;
}

bool bt_efi_console_blocks(void)
{
	SIMPLE_TEXT_OUTPUT_INTERFACE *out = bt_efi.st ? bt_efi.st->ConOut : NULL;
	CHAR16 blocks[] = { 0x2588, 0x2591, 0 };

	/* The serial log stays plain text: a PC-ANSI terminal would send the
	 * blocks as code page 437 bytes (0xDB, 0xB0), a VT100 one as other
	 * characters. With a serial terminal attached, bars are '#' and '.'. */
	if (serial_terminal_present())
		return false;
	/* TestString: EFI_SUCCESS when every output device can render them
	 * (the splitter asks each one: the graphics console its font). */
	return out && out->TestString && out->TestString(out, blocks) == EFI_SUCCESS;
}
