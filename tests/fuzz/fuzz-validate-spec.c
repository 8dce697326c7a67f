/* SPDX-License-Identifier: MIT */
/* libFuzzer: validation spec files (docs/validate-spec.md) parsed, and each
 * entry's expectation evaluated over every kernel: a malformed spec gives an
 * error, never a crash or a hang. */
#include <stdint.h>
#include <stdio.h>

#include "kernels/kernel.h"
#include "validate/expect.h"
#include "validate/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_vspec s;
	struct bt_diag d;

	bt_vspec_init(&s, "fuzz.json");
	if (bt_vspec_parse((const char *)data, size, "fuzz.json", &s, &d) == BT_OK) {
		for (int i = 0; i < s.n; i++) {
			char buf[200];
			double v;
			bt_vspec_expected_text(&s.v[i], buf, sizeof(buf));
			for (int k = 0; k < bt_n_kernels; k++)
				for (int j = 0; j < 2; j++)
					if (s.v[i].expr[j][0])
						bt_vexpr_eval(s.v[i].expr[j], bt_kernels[k],
							      bt_kernels[k]->n_quick, &v, &d);
		}
	}
	bt_vspec_free(&s);
	return 0;
}
