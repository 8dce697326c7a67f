/* SPDX-License-Identifier: MIT */
/* Backend-independent helpers of the arch seam (arch/arch.h). */
#include "arch/arch.h"

/* "#0" .. "#9", then "#" p "0" .. "#" p "9" for a decimal prefix p. */
#define BT_VEC10(p) "#" #p "0", "#" #p "1", "#" #p "2", "#" #p "3", "#" #p "4", \
		    "#" #p "5", "#" #p "6", "#" #p "7", "#" #p "8", "#" #p "9"

const char *bt_fault_name(uint8_t vector)
{
	/* Every vector's name as a constant, not formatted into a buffer: the
	 * PMU code that calls this also runs on other CPUs (MP services), so
	 * one shared static buffer would not be safe. Characters, not pointers:
	 * 1.3 KB instead of 3.3 KB of baretop.efi. */
	static const char numbered[256][sizeof("#255")] = {
		BT_VEC10(),   BT_VEC10(1),  BT_VEC10(2),  BT_VEC10(3),  BT_VEC10(4),
		BT_VEC10(5),  BT_VEC10(6),  BT_VEC10(7),  BT_VEC10(8),  BT_VEC10(9),
		BT_VEC10(10), BT_VEC10(11), BT_VEC10(12), BT_VEC10(13), BT_VEC10(14),
		BT_VEC10(15), BT_VEC10(16), BT_VEC10(17), BT_VEC10(18), BT_VEC10(19),
		BT_VEC10(20), BT_VEC10(21), BT_VEC10(22), BT_VEC10(23), BT_VEC10(24),
		"#250", "#251", "#252", "#253", "#254", "#255",
	};

	switch (vector) {
	case BT_VEC_UD: return "#UD";
	case BT_VEC_GP: return "#GP";
	}
	return numbered[vector];
}
