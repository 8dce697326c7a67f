/* SPDX-License-Identifier: MIT */
/* libFuzzer: an event list for --atlas (validate/atlas-list.c: Intel's
 * perfmon JSON or a Linux perf AMD array) read as untrusted input: a
 * malformed list gives an error, never a crash or a hang; and every event
 * the atlas would count has a raw spelling (bt_atlas_raw_event, what the
 * generated validation spec writes) that the raw-event parser reads back
 * to the same encoding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu/event-encode.h"
#include "validate/atlas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-atlas-XXXXXX";
	int fd = mkstemp(path);
	struct bt_atlas_list l;
	struct bt_diag d;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		unlink(path);
		return 0;
	}
	close(fd);
	if (bt_atlas_list_load(path, &l, &d) == BT_OK) {
		bool amd = strcmp(l.format, "linux-perf-amd") == 0;
		for (int i = 0; i < l.n; i++) {
			const struct bt_event *e = &l.v[i].ev;
			char raw[512];
			struct bt_event back;
			if (l.v[i].refused || !e->counters || (!amd && e->code > 0xFF))
				continue;
			bt_atlas_raw_event(e, l.v[i].name, raw, sizeof(raw));
			if (strlen(raw) + 1 >= sizeof(raw))
				continue; /* cut: a name too long for the buffer */
			if (bt_event_parse_encoding(raw, amd, &back, &d) != BT_OK)
				abort(); /* the spec would not read back */
			uint16_t f = BT_EVF_INV | BT_EVF_EDGE | BT_EVF_ANY | BT_EVF_EQ | BT_EVF_ALONE;
			if (back.code != e->code || back.umask != e->umask || back.umask_ext != e->umask_ext ||
			    back.cmask != e->cmask || (back.flags & f) != (e->flags & f))
				abort();
		}
	}
	bt_atlas_list_free(&l);
	unlink(path);
	return 0;
}
