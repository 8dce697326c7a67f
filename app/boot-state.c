/* SPDX-License-Identifier: MIT */
/* The boot state variable's bytes (layout: app/README.md). */
#include <string.h>

#include "app/boot-state.h"

static const char *const status_names[BT_BOOT_STATUS_COUNT] = {
	"none", "ok", "failed", "no-results", "hung", "budget", "crashed", "cpus-left",
	"config-error",
};

const char *bt_boot_status_name(uint32_t status)
{
	return status < BT_BOOT_STATUS_COUNT ? status_names[status] : "unknown";
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* Offsets of version 2 (the table in app/README.md); version 1 is its
 * first 40 bytes. */
enum {
	OFF_MAGIC = 0, OFF_VERSION = 4, OFF_LENGTH = 6, OFF_FLAGS = 8, OFF_BOOTS = 12,
	OFF_RUNS = 16, OFF_COMPLETED = 20, OFF_HUNG = 24, OFF_LAST_SEQ = 28,
	OFF_LAST_STATUS = 32, OFF_SINCE = 36, OFF_RESETS = 40, OFF_BN_FAILURES = 44,
	OFF_RESET_COUNT = 48, OFF_BN_COUNT = 56, OFF_RUN_TAG = 64,
};

void bt_boot_state_encode(const struct bt_boot_state *s, uint8_t buf[BT_BOOT_STATE_SIZE])
{
	memset(buf, 0, BT_BOOT_STATE_SIZE);
	put32(buf + OFF_MAGIC, BT_BOOT_STATE_MAGIC);
	put16(buf + OFF_VERSION, BT_BOOT_STATE_VERSION);
	put16(buf + OFF_LENGTH, BT_BOOT_STATE_SIZE);
	put32(buf + OFF_FLAGS, s->flags);
	put32(buf + OFF_BOOTS, s->boots);
	put32(buf + OFF_RUNS, s->runs);
	put32(buf + OFF_COMPLETED, s->completed);
	put32(buf + OFF_HUNG, s->hung);
	put32(buf + OFF_LAST_SEQ, s->last_seq);
	put32(buf + OFF_LAST_STATUS, s->last_status);
	put32(buf + OFF_SINCE, s->boots_since_run);
	put32(buf + OFF_RESETS, s->resets);
	put32(buf + OFF_BN_FAILURES, s->bootnext_failures);
	put64(buf + OFF_RESET_COUNT, s->reset_count);
	put64(buf + OFF_BN_COUNT, s->bootnext_count);
	put64(buf + OFF_RUN_TAG, s->run_tag);
}

bt_status bt_boot_state_decode(const uint8_t *buf, size_t len, struct bt_boot_state *ret,
			       struct bt_diag *d)
{
	return bt_boot_state_decode_v(buf, len, ret, NULL, d);
}

bt_status bt_boot_state_decode_v(const uint8_t *buf, size_t len, struct bt_boot_state *ret,
				 unsigned *ret_version, struct bt_diag *d)
{
	if (len < 8) {
		bt_diag_set(d, "boot state: %zu bytes, shorter than its 8-byte header", len);
		return BT_ERR_INVALID;
	}
	if (get32(buf + OFF_MAGIC) != BT_BOOT_STATE_MAGIC) {
		bt_diag_set(d, "boot state: magic 0x%08x, not 0x%08x (\"BAST\")",
			    (unsigned)get32(buf + OFF_MAGIC), BT_BOOT_STATE_MAGIC);
		return BT_ERR_INVALID;
	}
	unsigned version = get16(buf + OFF_VERSION), length = get16(buf + OFF_LENGTH);
	if (version != 1 && version != BT_BOOT_STATE_VERSION) {
		bt_diag_set(d, "boot state: layout version %u, this build reads versions 1 and %u",
			    version, BT_BOOT_STATE_VERSION);
		return BT_ERR_INVALID;
	}
	unsigned size = version == 1 ? BT_BOOT_STATE_V1_SIZE : BT_BOOT_STATE_SIZE;
	if (length != size || len != size) {
		bt_diag_set(d, "boot state: version %u is %u bytes; the header says %u, there are %zu",
			    version, size, length, len);
		return BT_ERR_INVALID;
	}
	if (ret_version)
		*ret_version = version;
	*ret = (struct bt_boot_state){
		.flags = get32(buf + OFF_FLAGS),
		.boots = get32(buf + OFF_BOOTS),
		.runs = get32(buf + OFF_RUNS),
		.completed = get32(buf + OFF_COMPLETED),
		.hung = get32(buf + OFF_HUNG),
		.last_seq = get32(buf + OFF_LAST_SEQ),
		.last_status = get32(buf + OFF_LAST_STATUS),
		.boots_since_run = get32(buf + OFF_SINCE),
	};
	if (version == 1) {
		ret->flags &= ~BT_BOOT_STATE_V1_BOOT_ID_MASK;
		return BT_OK;
	}
	ret->resets = get32(buf + OFF_RESETS);
	ret->bootnext_failures = get32(buf + OFF_BN_FAILURES);
	ret->reset_count = get64(buf + OFF_RESET_COUNT);
	ret->bootnext_count = get64(buf + OFF_BN_COUNT);
	ret->run_tag = get64(buf + OFF_RUN_TAG);
	return BT_OK;
}

bt_status bt_boot_state_decode_efivarfs(const uint8_t *buf, size_t len, uint32_t *ret_attributes,
					struct bt_boot_state *ret, struct bt_diag *d)
{
	if (len < 4) {
		bt_diag_set(d, "efivarfs file: %zu bytes, shorter than its 4-byte attributes", len);
		return BT_ERR_INVALID;
	}
	*ret_attributes = get32(buf);
	return bt_boot_state_decode(buf + 4, len - 4, ret, d);
}
