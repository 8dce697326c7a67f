/* SPDX-License-Identifier: MIT */
#include "base/arch-event.h"

#include <stddef.h>

const struct bt_arch_event *bt_arch_event(unsigned bit)
{
	/* SDM vol. 3B, "Pre-defined Architectural Performance Events"
	 * (UMask / Event Select per CPUID.0AH:EBX bit). */
	static const struct bt_arch_event events[BT_ARCH_EV_COUNT] = {
		{ "UnHalted_Core_Cycles", 0x3C, 0x00 },
		{ "Instruction_Retired", 0xC0, 0x00 },
		{ "UnHalted_Reference_Cycles", 0x3C, 0x01 },
		{ "LLC_Reference", 0x2E, 0x4F },
		{ "LLC_Misses", 0x2E, 0x41 },
		{ "Branch_Instruction_Retired", 0xC4, 0x00 },
		{ "Branch_Misses_Retired", 0xC5, 0x00 },
		{ "Topdown_Slots", 0xA4, 0x01 },
		{ "Topdown_Backend_Bound", 0xA4, 0x02 },
		{ "Topdown_Bad_Speculation", 0x73, 0x00 },
		{ "Topdown_Frontend_Bound", 0x9C, 0x01 },
		{ "Topdown_Retiring", 0xC2, 0x02 },
		{ "LBR_Inserts", 0xE4, 0x01 },
	};
	return bit < BT_ARCH_EV_COUNT ? &events[bit] : NULL;
}
