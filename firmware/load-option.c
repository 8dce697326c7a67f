/* SPDX-License-Identifier: MIT */
/* UEFI load options (firmware/load-option.h). */
#include <string.h>

#include "firmware/load-option.h"

bt_status bt_load_option_parse(const uint8_t *buf, size_t len, struct bt_load_option *ret,
			       struct bt_diag *d)
{
	size_t pos = 6, n = 0;

	memset(ret, 0, sizeof(*ret));
	if (len < 6 + 2) {
		bt_diag_set(d, "load option: %zu bytes, too short", len);
		return BT_ERR_INVALID;
	}
	ret->attributes = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
			  (uint32_t)buf[3] << 24;
	size_t fp_len = (size_t)buf[4] | (size_t)buf[5] << 8;
	for (;;) {
		if (pos + 2 > len) {
			bt_diag_set(d, "load option: the description has no terminating NUL");
			return BT_ERR_INVALID;
		}
		unsigned c = (unsigned)buf[pos] | (unsigned)buf[pos + 1] << 8;
		pos += 2;
		if (!c)
			break;
		if (n + 1 < sizeof(ret->description))
			ret->description[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	ret->description[n] = '\0';
	if (fp_len < 4 || fp_len > len - pos) {
		bt_diag_set(d, "load option \"%s\": a file path list of %zu bytes where %zu remain",
			    ret->description, fp_len, len - pos);
		return BT_ERR_INVALID;
	}
	/* Walk the device path nodes (Type, SubType, UINT16 Length): the
	 * first instance must end with an end node (0x7f) inside the list. */
	size_t p = pos, end = pos + fp_len;
	for (;;) {
		if (p + 4 > end) {
			bt_diag_set(d, "load option \"%s\": its device path has no end node",
				    ret->description);
			return BT_ERR_INVALID;
		}
		size_t node = (size_t)buf[p + 2] | (size_t)buf[p + 3] << 8;
		if (node < 4 || node > end - p) {
			bt_diag_set(d, "load option \"%s\": a device path node of %zu bytes",
				    ret->description, node);
			return BT_ERR_INVALID;
		}
		if (buf[p] == 0x7f)
			break;
		p += node;
	}
	ret->file_path_offset = pos;
	ret->file_path_length = fp_len;
	ret->optional_offset = end;
	ret->optional_length = len - end;
	return BT_OK;
}

size_t bt_boot_order_after(const uint16_t *order, size_t n, uint16_t current)
{
	for (size_t i = 0; i < n; i++)
		if (order[i] == current)
			return i + 1;
	return 0;
}
