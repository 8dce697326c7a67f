/* SPDX-License-Identifier: MIT */
/* Backend-independent helpers of the arch seam (arch/arch.h). */
#include <stdio.h>

#include "arch/arch.h"

const char *bt_fault_name(uint8_t vector)
{
	static char other[8];

	switch (vector) {
	case BT_VEC_UD: return "#UD";
	case BT_VEC_GP: return "#GP";
	}
	snprintf(other, sizeof(other), "#%u", vector);
	return other;
}
