/* SPDX-License-Identifier: MIT */
#include "tools/baretop-host/next-to-binary.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int host_path_next_to_binary(const char *name, char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	if (!(slash = strrchr(exe, '/')))
		return -1;
	*slash = '\0';
	return (size_t)snprintf(buf, len, "%s/%s", exe, name) >= len ? -1 : 0;
}
