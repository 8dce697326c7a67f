/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the raw event parser, then the encoder on its output. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pmu/event-encode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[1024];
	if (size >= sizeof(buf))
		size = sizeof(buf) - 1;
	memcpy(buf, data, size);
	buf[size] = 0;
	struct bt_pmu_caps intel, amd;
	memset(&intel, 0, sizeof(intel));
	intel.kind = BT_PMU_INTEL_ARCH;
	intel.version = 5;
	intel.num_gp = 8;
	intel.gp_mask = 0xFF;
	intel.umask2 = intel.eq = true;
	memset(&amd, 0, sizeof(amd));
	amd.kind = BT_PMU_AMD_V2;
	amd.num_gp = 6;
	amd.gp_mask = 0x3F;
	struct bt_raw_event r;
	struct bt_diag d;
	struct bt_encoding enc;
	if (bt_event_parse(buf, BT_VENDOR_INTEL, &r, &d) == BT_OK) {
		/* The extra-MSR tables differ per core: try a few. */
		static const uint8_t uarchs[] = { BT_UARCH_UNKNOWN, BT_UARCH_NHM, BT_UARCH_SKL,
						  BT_UARCH_GLC, BT_UARCH_LNC, BT_UARCH_ATOM };
		for (size_t i = 0; i < sizeof(uarchs); i++) {
			intel.uarch = uarchs[i];
			bt_event_encode_gp(&r.ev, &intel, false, &enc, &d);
			bt_event_encode_gp(&r.ev, &intel, true, &enc, &d);
		}
	}
	if (bt_event_parse(buf, BT_VENDOR_AMD, &r, &d) == BT_OK)
		bt_event_encode_gp(&r.ev, &amd, false, &enc, &d);
	return 0;
}
