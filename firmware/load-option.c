/* SPDX-License-Identifier: MIT */
/* UEFI load options (firmware/load-option.h). */
#include <stdint.h>
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

bool bt_load_option_bootable(uint32_t attributes, const char **why)
{
	if (!(attributes & BT_LOAD_OPTION_ACTIVE)) {
		*why = "not active";
		return false;
	}
	uint32_t cat = attributes & BT_LOAD_OPTION_CATEGORY;
	if (cat != BT_LOAD_OPTION_CATEGORY_BOOT) {
		*why = cat == BT_LOAD_OPTION_CATEGORY_APP ? "category APP, not BOOT"
							  : "a reserved category, not BOOT";
		return false;
	}
	*why = "";
	return true;
}

static size_t node_len(const uint8_t *n)
{
	return (size_t)n[2] | (size_t)n[3] << 8;
}

size_t bt_dp_length(const uint8_t *dp, size_t len)
{
	size_t p = 0;

	for (;;) {
		if (p + 4 > len)
			return 0;
		size_t n = node_len(dp + p);
		if (n < 4 || n > len - p)
			return 0;
		if (dp[p] == 0x7f && dp[p + 1] == 0xff)
			return p + n;
		p += n;
	}
}

static bool is_hd(const uint8_t *n)
{
	return n[0] == 0x04 && n[1] == 0x01 && node_len(n) == BT_DP_HD_LENGTH;
}

bool bt_dp_is_short_hd(const uint8_t *dp, size_t len)
{
	return bt_dp_length(dp, len) && len >= BT_DP_HD_LENGTH && is_hd(dp);
}

/* The fields BmMatchPartitionDevicePathNode compares: PartitionNumber
 * (offset 4), Signature (24, 16 bytes), PartitionFormat (40) and
 * SignatureType (41); start and size are not compared. */
static bool hd_match(const uint8_t *a, const uint8_t *b)
{
	return memcmp(a + 4, b + 4, 4) == 0 && memcmp(a + 24, b + 24, 16) == 0 && a[40] == b[40] &&
	       a[41] == b[41];
}

bt_status bt_dp_expand_hd(const uint8_t *part, size_t part_len, const uint8_t *short_dp,
			  size_t short_len, uint8_t *out, size_t cap, size_t *ret_len)
{
	size_t plen = bt_dp_length(part, part_len), slen = bt_dp_length(short_dp, short_len);

	if (!plen || !slen || !bt_dp_is_short_hd(short_dp, short_len))
		return BT_ERR_INVALID;
	/* The partition's last node before its end node. */
	size_t p = 0, last = SIZE_MAX;
	while (!(part[p] == 0x7f && part[p + 1] == 0xff)) {
		last = p;
		p += node_len(part + p);
	}
	if (last == SIZE_MAX || !is_hd(part + last) || !hd_match(part + last, short_dp))
		return BT_ERR_NOT_FOUND;
	size_t head = p, tail = slen - BT_DP_HD_LENGTH;
	if (head + tail > cap)
		return BT_ERR_INVALID;
	memcpy(out, part, head);
	memcpy(out + head, short_dp + BT_DP_HD_LENGTH, tail);
	*ret_len = head + tail;
	return BT_OK;
}

enum bt_dp_form bt_dp_form(const uint8_t *dp, size_t len)
{
	size_t total = bt_dp_length(dp, len);

	if (!total)
		return BT_DP_FIRMWARE_ONLY;
	/* A USB class (0x0f) or WWID (0x10) messaging node anywhere: a USB
	 * short form (BmGetNextLoadOptionDevicePath looks along the path). */
	for (size_t p = 0; !(dp[p] == 0x7f && dp[p + 1] == 0xff); p += node_len(dp + p))
		if (dp[p] == 0x03 && (dp[p + 1] == 0x0f || dp[p + 1] == 0x10))
			return BT_DP_FIRMWARE_ONLY;
	switch (dp[0]) {
	case 0x01: /* hardware */
	case 0x02: /* ACPI: PciRoot()... */
		return BT_DP_FULL;
	case 0x04: /* media */
		if (is_hd(dp))
			return BT_DP_SHORT_HD;
		if (dp[1] == 0x04)
			return BT_DP_SHORT_FILE;
		return BT_DP_FULL; /* Fv()/FvFile(), CDROM(), RamDisk()...: LoadImage's own */
	default:   /* messaging first (URI, MAC...), BBS, an end node alone */
		return BT_DP_FIRMWARE_ONLY;
	}
}

bt_status bt_dp_append_file(const uint8_t *dev, size_t dev_len, const char *path, uint8_t *out,
			    size_t cap, size_t *ret_len)
{
	size_t dlen = bt_dp_length(dev, dev_len), n = strlen(path);

	if (!dlen)
		return BT_ERR_INVALID;
	size_t head = dlen - 4, node = 4 + 2 * (n + 1);
	if (node > 0xffff || head + node + 4 > cap)
		return BT_ERR_INVALID;
	memcpy(out, dev, head);
	uint8_t *f = out + head;
	f[0] = 0x04;
	f[1] = 0x04;
	f[2] = (uint8_t)node;
	f[3] = (uint8_t)(node >> 8);
	for (size_t i = 0; i <= n; i++) {
		f[4 + 2 * i] = (uint8_t)path[i];
		f[5 + 2 * i] = 0;
	}
	memcpy(f + node, (const uint8_t[]){ 0x7f, 0xff, 0x04, 0x00 }, 4);
	*ret_len = head + node + 4;
	return BT_OK;
}

bool bt_dp_has_prefix(const uint8_t *dp, size_t len, const uint8_t *prefix, size_t prefix_len)
{
	size_t dl = bt_dp_length(dp, len), pl = bt_dp_length(prefix, prefix_len);

	return dl && pl && pl - 4 <= dl - 4 && memcmp(dp, prefix, pl - 4) == 0;
}

bool bt_load_option_auto_created(const uint8_t *optional, size_t len)
{
	/* EFI_GUID in memory: Data1-Data3 little-endian, Data4 as written. */
	static const uint8_t guid[16] = { 0x4e, 0xac, 0x08, 0x81, 0x11, 0x9f, 0x59, 0x4d,
					  0x85, 0x0e, 0xe2, 0x1a, 0x52, 0x2c, 0x59, 0xb2 };

	return len == sizeof(guid) && memcmp(optional, guid, sizeof(guid)) == 0;
}
