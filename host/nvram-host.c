/* SPDX-License-Identifier: MIT */
/* A file-backed NVRAM in efivarfs format (host/nvram-host.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-state.h"
#include "host/nvram-host.h"

static char nv_dir[1024];

static void var_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s-%s", nv_dir, name, BT_VENDOR_GUID_TEXT);
}

static bt_status host_nv_read(const char *name, void *buf, size_t *len, struct bt_diag *d)
{
	char path[1200];
	uint8_t tmp[4096];
	FILE *f;
	size_t n;

	var_path(name, path, sizeof(path));
	f = fopen(path, "rb");
	if (!f) {
		if (errno == ENOENT)
			return BT_ERR_NOT_FOUND;
		bt_diag_set(d, "%s: %s", path, strerror(errno));
		return BT_ERR_IO;
	}
	n = fread(tmp, 1, sizeof(tmp), f);
	fclose(f);
	if (n < 4) {
		bt_diag_set(d, "%s: %zu bytes, no 4-byte attributes", path, n);
		return BT_ERR_INVALID;
	}
	if (n - 4 > *len) {
		bt_diag_set(d, "%s: %zu bytes of data, more than %zu", path, n - 4, *len);
		return BT_ERR_FULL;
	}
	memcpy(buf, tmp + 4, n - 4);
	*len = n - 4;
	return BT_OK;
}

static bt_status host_nv_write(const char *name, const void *buf, size_t len, struct bt_diag *d)
{
	char path[1200], tmp[1300];
	uint8_t attr[4] = { BT_BOOT_STATE_ATTRIBUTES, 0, 0, 0 };
	FILE *f;

	var_path(name, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "wb");
	if (!f) {
		bt_diag_set(d, "%s: %s", tmp, strerror(errno));
		return BT_ERR_IO;
	}
	bool ok = fwrite(attr, 1, 4, f) == 4 && fwrite(buf, 1, len, f) == len;
	if (fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0) {
		bt_diag_set(d, "%s: %s", path, strerror(errno));
		remove(tmp);
		return BT_ERR_IO;
	}
	return BT_OK;
}

void bt_nvram_host_init(struct bt_platform *p)
{
	const char *dir = getenv(BT_HOST_NVRAM_ENV);

	if (!dir || !*dir || strlen(dir) >= sizeof(nv_dir))
		return;
	snprintf(nv_dir, sizeof(nv_dir), "%s", dir);
	p->nv_read = host_nv_read;
	p->nv_write = host_nv_write;
}
