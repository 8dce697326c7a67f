/* SPDX-License-Identifier: MIT */
/* The PMU drivers baretop has, looked up by caps.kind (pmu-driver.h). A new
 * driver is one file defining its struct bt_pmu_driver and one line here. */
#include <stddef.h>

#include "pmu/pmu-driver.h"
#include "base/array.h"

static const struct bt_pmu_driver *const drivers[] = {
	&bt_pmu_intel_driver,
	&bt_pmu_amd_driver,
};

const struct bt_pmu_driver *bt_pmu_driver_for(const struct bt_pmu_caps *caps)
{
	if (caps->kind == BT_PMU_NONE || caps->kind >= 32)
		return NULL;
	for (size_t i = 0; i < BT_ARRAY_SIZE(drivers); i++)
		if (drivers[i]->kinds & (1u << caps->kind))
			return drivers[i];
	return NULL;
}
