/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the simulated PMU's defect-name parser
 * (arch/sim/sim-defect.c, --sim-defect): any byte string as a spec.
 * Properties beyond "no crash, leak or UB": a rejected spec comes with a
 * message; an accepted one formats to text that parses back to the same
 * defects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = malloc(size + 1);
	if (!spec)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	struct bt_sim_defects df, back;
	struct bt_diag d = { "" };
	if (bt_sim_defects_parse(spec, &df, &d) != BT_OK) {
		if (!d.text[0])
			abort();
	} else {
		char text[512];
		bt_sim_defects_format(&df, text, sizeof(text));
		if (strcmp(text, "none") == 0) {
			if (df.mask)
				abort();
		} else if (bt_sim_defects_parse(text, &back, &d) != BT_OK || back.mask != df.mask) {
			abort();
		}
	}
	free(spec);
	return 0;
}
