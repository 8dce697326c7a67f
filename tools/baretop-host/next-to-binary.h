/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_BARETOP_HOST_NEXT_TO_BINARY_H
#define TOOLS_BARETOP_HOST_NEXT_TO_BINARY_H

#include <stddef.h>

/*
 * DIR/name for the folder DIR that holds this binary (Linux names it in
 * /proc/self/exe): where run, validate and atlas put their results
 * ("results") and fleet its default database, so that the working
 * directory, which may be any folder, never receives them. 0, or -1 when
 * there is no /proc/self/exe or the path does not fit in len bytes.
 */
int host_path_next_to_binary(const char *name, char *buf, size_t len);

#endif
