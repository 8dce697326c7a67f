/* SPDX-License-Identifier: MIT */
/*
 * A bump allocator: many small allocations (JSON values, formula trees,
 * strings) released all at once. Models and parsed files own one arena each,
 * so nothing in metrics/ has to track individual frees.
 */
#ifndef BASE_ARENA_H
#define BASE_ARENA_H

#include <stddef.h>

struct bt_arena_chunk;

struct bt_arena {
	struct bt_arena_chunk *head;
	size_t total;           /* bytes handed out, for statistics */
};

/* An empty arena: { 0 } is a valid initial state too. */
void bt_arena_init(struct bt_arena *a);
/* Returns zeroed, 16-byte aligned memory, or NULL when malloc fails. */
void *bt_arena_alloc(struct bt_arena *a, size_t size);
/* Copies n bytes of s and adds a terminating NUL. */
char *bt_arena_strndup(struct bt_arena *a, const char *s, size_t n);
char *bt_arena_strdup(struct bt_arena *a, const char *s);
/* printf into the arena; NULL on allocation failure. */
char *bt_arena_printf(struct bt_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bt_arena_free(struct bt_arena *a);

#endif
