/* SPDX-License-Identifier: MIT */
/* The number of elements of an array. */
#ifndef BT_BASE_ARRAY_H
#define BT_BASE_ARRAY_H

/*
 * BT_ARRAY_SIZE(a): elements in the array a. Given a pointer (an array
 * parameter, or a pointer where an array was meant) it does not compile:
 * sizeof(p) / sizeof(p[0]) would quietly give 1 or 8.
 */
#define BT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]) + BT_ARRAY_CHECK_(a))
#define BT_ARRAY_CHECK_(a)                                                       \
	(0 * sizeof(struct {                                                     \
		int is_an_array : 1 - 2 * __builtin_types_compatible_p(         \
			__typeof__(a), __typeof__(&(a)[0]));                    \
	}))

#endif
