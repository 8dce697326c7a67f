/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the fleet import's reading of a results document
 * (analysis/results-read.h, analysis/fleet-record.h) must accept or refuse any
 * input without crashing, and an accepted record must be whole: a run id, a
 * machine key of one of the documented forms, a firmware version, and every
 * workload, node and event named.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fleet-record.h"
#include "analysis/results-read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int starts(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d;
	struct bt_results_doc doc;
	struct bt_fleet_run r;
	if (bt_results_doc_parse(&a, (const char *)data, size, "fuzz", &doc, &d) == BT_OK &&
	    bt_fleet_record_of(&a, doc.root, (const char *)data, size, "fuzz", &r, &d) == BT_OK) {
		if (!r.run_id || !r.run_id_source || !r.fw_version || !r.fw_key || !r.identity ||
		    !(starts(r.machine_key, "uuid:") || starts(r.machine_key, "uuid-placeholder:") ||
		      starts(r.machine_key, "serial:") ||
		      starts(r.machine_key, "board:") || starts(r.machine_key, "nosmbios:")))
			abort();
		for (size_t i = 0; i < r.n_workloads; i++) {
			const struct bt_fleet_workload *w = &r.workloads[i];
			if (!w->name)
				abort();
			for (size_t k = 0; k < w->n_nodes; k++)
				if (!w->nodes[k].name || (w->nodes[k].has_value && w->nodes[k].value != w->nodes[k].value))
					abort();
			for (size_t k = 0; k < w->n_events; k++)
				if (!w->events[k].name)
					abort();
		}
	}
	bt_arena_free(&a);
	return 0;
}
