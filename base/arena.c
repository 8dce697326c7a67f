/* SPDX-License-Identifier: MIT */
#include "base/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bt_arena_chunk {
	struct bt_arena_chunk *next;
	size_t used, size;
	/* 16-byte alignment for the data that follows */
	_Alignas(16) unsigned char data[];
};

#define CHUNK_MIN (64 * 1024)

void bt_arena_init(struct bt_arena *a)
{
	a->head = NULL;
	a->total = 0;
}

void *bt_arena_alloc(struct bt_arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	struct bt_arena_chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		size_t want = size > CHUNK_MIN ? size : CHUNK_MIN;
		c = malloc(sizeof(*c) + want);
		if (!c)
			return NULL;
		c->size = want;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += size;
	a->total += size;
	memset(p, 0, size);
	return p;
}

char *bt_arena_strndup(struct bt_arena *a, const char *s, size_t n)
{
	char *p = bt_arena_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *bt_arena_strdup(struct bt_arena *a, const char *s)
{
	return bt_arena_strndup(a, s, strlen(s));
}

char *bt_arena_printf(struct bt_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = bt_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void bt_arena_free(struct bt_arena *a)
{
	struct bt_arena_chunk *c = a->head;
	while (c) {
		struct bt_arena_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->head = NULL;
	a->total = 0;
}
