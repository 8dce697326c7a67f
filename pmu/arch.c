/* SPDX-License-Identifier: MIT */
/* Backend-independent helpers of the arch seam (pmu/arch.h). */
#include <stdio.h>

#include "pmu/arch.h"

const char *bt_fault_name(uint8_t vector)
{
	static char buf[8];
	switch (vector) {
	case BT_VEC_GP: return "#GP";
	case BT_VEC_UD: return "#UD";
	}
	snprintf(buf, sizeof(buf), "#%u", vector);
	return buf;
}
