/* SPDX-License-Identifier: MIT */
/* CPU facts from CPUID: see arch/cpuid.h. */
#include <string.h>

#include "arch/cpuid.h"

enum bt_vendor bt_vendor_from_cpuid(const struct bt_cpuid *leaf0)
{
	char v[13];

	/* The 12 characters are in EBX, EDX, ECX, in that order. */
	memcpy(v, &leaf0->ebx, 4);
	memcpy(v + 4, &leaf0->edx, 4);
	memcpy(v + 8, &leaf0->ecx, 4);
	v[12] = '\0';
	if (strcmp(v, "GenuineIntel") == 0)
		return BT_VENDOR_INTEL;
	if (strcmp(v, "AuthenticAMD") == 0 || strcmp(v, "HygonGenuine") == 0)
		return BT_VENDOR_AMD;
	return BT_VENDOR_UNKNOWN;
}
