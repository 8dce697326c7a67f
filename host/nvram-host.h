/* SPDX-License-Identifier: MIT */
#ifndef HOST_NVRAM_HOST_H
#define HOST_NVRAM_HOST_H

#include "app/platform.h"

/* The environment variable naming the folder of the file-backed NVRAM. */
#define BT_HOST_NVRAM_ENV "BARETOP_HOST_NVRAM"

/*
 * A stand-in for the firmware's NVRAM, for tests and baretop-host run:
 * each variable is the file DIR/NAME-GUID in the format Linux's efivarfs
 * shows (4 bytes of attributes, little-endian, then the data), written to
 * a temporary file and renamed into place. Sets p->nv_read / nv_write when
 * $BARETOP_HOST_NVRAM names a folder; otherwise leaves them NULL (no NVRAM).
 */
void bt_nvram_host_init(struct bt_platform *p);

#endif
