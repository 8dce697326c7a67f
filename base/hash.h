/* SPDX-License-Identifier: MIT */
/*
 * FNV-1a, 64-bit (Fowler, Noll, Vo): the one non-cryptographic hash of
 * baretop. Its users want a cheap, stable, order-sensitive fingerprint --
 * fleet identities of results files, the per-workload seed of the simulated
 * counts, the generated counts' event hash, workload checksums -- never
 * protection against an adversary. The byte-wise functions are the standard
 * FNV-1a; bt_fnv1a64_word() is its word-wise variant (a whole 64-bit word
 * xored in per multiplication), which the workload checksums fold further.
 */
#ifndef BASE_HASH_H
#define BASE_HASH_H

#include <stddef.h>
#include <stdint.h>

#define BT_FNV1A64_INIT 0xcbf29ce484222325ull  /* the 64-bit offset basis */
#define BT_FNV1A64_PRIME 0x100000001b3ull      /* the 64-bit FNV prime */

/* h advanced over len bytes at data (start with BT_FNV1A64_INIT). */
static inline uint64_t bt_fnv1a64(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * BT_FNV1A64_PRIME;
	return h;
}

/* h advanced over the bytes of a NUL-terminated string (without the NUL). */
static inline uint64_t bt_fnv1a64_str(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * BT_FNV1A64_PRIME;
	return h;
}

/* h advanced over the 8 bytes of v, least significant first (the same on
 * every host, whatever its byte order). */
static inline uint64_t bt_fnv1a64_u64(uint64_t v, uint64_t h)
{
	for (int i = 0; i < 8; i++)
		h = (h ^ ((v >> (8 * i)) & 0xFF)) * BT_FNV1A64_PRIME;
	return h;
}

/* Word-wise FNV-1a: one 64-bit word per step. */
static inline uint64_t bt_fnv1a64_word(uint64_t v, uint64_t h)
{
	return (h ^ v) * BT_FNV1A64_PRIME;
}

#endif
