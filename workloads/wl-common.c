/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"

uint64_t bt_wl_hash_words(uint64_t h, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = bt_wl_hash(h, v[i]);
	return h;
}

uint64_t bt_wl_hash_doubles(uint64_t h, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t bits;

		memcpy(&bits, &v[i], sizeof bits);
		h = bt_wl_hash(h, bits);
	}
	return h;
}

bt_status bt_wl_buf_alloc(struct bt_wl_buf *ret, const struct bt_wl_env *env,
			  size_t size, size_t align)
{
	struct bt_wl_buf b = { .size = size };

	if (size == 0 || align == 0 || (align & (align - 1)) != 0)
		return BT_ERR_INVALID;
	if (env && env->data_alloc && env->data_free && align <= 64) {
		b.p = env->data_alloc(size, env->ctx);
		if (!b.p)
			return BT_ERR_NOMEM;
		if (((uintptr_t)b.p & (align - 1)) != 0) {
			env->data_free(b.p, size, env->ctx);
			return BT_ERR_INTERNAL;  /* the platform broke its promise */
		}
		b.raw = b.p;
		b.from_env = true;
	} else {
		if (size > SIZE_MAX - align)
			return BT_ERR_NOMEM;
		b.raw = malloc(size + align);
		if (!b.raw)
			return BT_ERR_NOMEM;
		b.p = (void *)(((uintptr_t)b.raw + align - 1) & ~(uintptr_t)(align - 1));
	}
	*ret = b;
	return BT_OK;
}

void bt_wl_buf_free(struct bt_wl_buf *buf, const struct bt_wl_env *env)
{
	if (!buf->raw)
		return;
	if (buf->from_env)
		env->data_free(buf->raw, buf->size, env->ctx);
	else
		free(buf->raw);
	memset(buf, 0, sizeof *buf);
}

void bt_wl_cyclic_permutation(uint32_t *next, uint32_t n, uint64_t seed)
{
	struct bt_wl_rng rng = { seed };

	if (n == 0)
		return;
	for (uint32_t i = 0; i < n; i++)
		next[i] = i;
	/* Sattolo: like Fisher-Yates, but j < i strictly, which yields a single cycle. */
	for (uint32_t i = n - 1; i >= 1; i--) {
		uint32_t j = (uint32_t)bt_wl_rng_below(&rng, i);
		uint32_t t = next[i];

		next[i] = next[j];
		next[j] = t;
	}
}

bt_status bt_wl_fail(bt_status s, struct bt_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (d) {
		va_start(ap, fmt);
		vsnprintf(d->text, sizeof d->text, fmt, ap);
		va_end(ap);
	}
	return s;
}

void bt_wl_format_bytes(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	uint64_t scale = 1;

	while (u + 1 < BT_ARRAY_SIZE(units) && bytes >= scale * 1024)
		scale *= 1024, u++;
	if (bytes % scale == 0)
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes / scale), units[u]);
	else
		snprintf(buf, len, "%.1f %s", (double)bytes / (double)scale, units[u]);
}
