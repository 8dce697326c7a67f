/* SPDX-License-Identifier: MIT */
/* errno names (errno-name.h): the values of <errno.h>, by name. */
#include <errno.h>
#include <stdio.h>

#include "host/errno-name.h"
#include "base/array.h"

const char *bt_errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
#define E(x) { x, #x }
		E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(EBADF),
		E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST), E(ENODEV),
		E(EINVAL), E(ENFILE), E(EMFILE), E(ENOSPC), E(ERANGE), E(ENOSYS), E(EOPNOTSUPP),
		E(EOVERFLOW), E(ESPIPE), E(EROFS),
#undef E
	};
	/* An errno outside the table: its number, in a buffer each thread
	 * owns, so the name a caller got stays valid while it prints it. */
	static _Thread_local char other[24];
	for (size_t i = 0; i < BT_ARRAY_SIZE(names); i++)
		if (names[i].e == e)
			return names[i].name;
	snprintf(other, sizeof(other), "errno %d", e);
	return other;
}
