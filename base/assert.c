/* SPDX-License-Identifier: MIT */
/* BT_ASSERT's report (base/assert.h). */
#include "base/assert.h"

#include <stdio.h>
#include <stdlib.h>

_Noreturn void bt_assert_fail(const char *file, unsigned line, const char *expr)
{
	/* Room for a path and an expression; a longer one is cut, not lost. */
	char detail[384];

	snprintf(detail, sizeof(detail), "%s:%u: %s", file, line, expr);
#if BT_UEFI
	bt_platform_fatal("assertion failed", detail, __builtin_return_address(0));
#else
	fflush(stdout);
	fprintf(stderr, "baretop: assertion failed: %s\n", detail);
	abort();
#endif
}
