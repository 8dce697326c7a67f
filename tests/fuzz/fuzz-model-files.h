/* SPDX-License-Identifier: MIT */
/*
 * What the model-file targets (fuzz-model-perfmon.c, fuzz-model-perf.c)
 * share: the loaders read files by path (metrics/load.h: the EFI app passes
 * files from the ESP), so an input is written to scratch files first. An
 * input is the metrics file, optionally followed by a line "#EVENTS#" and
 * the events file; without one the events file is the small one below.
 * A model that loads is opened (bt_model_open: tree, DAG), its rules derived,
 * evaluated on zero counts and reported, as baretop does with --model-files.
 */
#ifndef TESTS_FUZZ_MODEL_FILES_H
#define TESTS_FUZZ_MODEL_FILES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/load.h"
#include "metrics/rules.h"
#include "report/tree.h"

/* Intel perfmon layout; encodings as in skylake_core.json (a fact each). */
static const char fz_default_events[] =
	"{\"Events\": ["
	"{\"EventName\": \"INST_RETIRED.ANY\", \"EventCode\": \"0x00\", \"UMask\": \"0x01\", \"Counter\": \"Fixed counter 0\"},"
	"{\"EventName\": \"CPU_CLK_UNHALTED.THREAD\", \"EventCode\": \"0x00\", \"UMask\": \"0x02\", \"Counter\": \"Fixed counter 1\"},"
	"{\"EventName\": \"UOPS_ISSUED.ANY\", \"EventCode\": \"0x0E\", \"UMask\": \"0x01\", \"Counter\": \"0,1,2,3\"},"
	"{\"EventName\": \"UOPS_RETIRED.RETIRE_SLOTS\", \"EventCode\": \"0xC2\", \"UMask\": \"0x02\", \"Counter\": \"0,1,2,3\"},"
	"{\"EventName\": \"IDQ_UOPS_NOT_DELIVERED.CORE\", \"EventCode\": \"0x9C\", \"UMask\": \"0x01\", \"Counter\": \"0,1,2,3\"},"
	"{\"EventName\": \"INT_MISC.RECOVERY_CYCLES\", \"EventCode\": \"0x0D\", \"UMask\": \"0x01\", \"Counter\": \"0,1,2,3\"},"
	"{\"EventName\": \"BR_MISP_RETIRED.ALL_BRANCHES\", \"EventCode\": \"0xC5\", \"UMask\": \"0x00\", \"Counter\": \"0,1,2,3\"}"
	"]}";
/* perf's AMD layout; encodings as in amdzen4 core.json / pipeline.json. */
static const char fz_default_events_amd[] =
	"[{\"EventName\": \"ls_not_halted_cyc\", \"EventCode\": \"0x76\"},"
	"{\"EventName\": \"ex_ret_instr\", \"EventCode\": \"0xc0\"},"
	"{\"EventName\": \"de_no_dispatch_per_slot.no_ops_from_frontend\", \"EventCode\": \"0x1a0\", \"UMask\": \"0x01\"},"
	"{\"EventName\": \"ex_no_retire.not_complete\", \"EventCode\": \"0xd6\", \"UMask\": \"0x02\"}]";

static char fz_dir[64];

/* Writes n bytes to dir/name; 0 on success. */
static int fz_write(const char *name, const uint8_t *p, size_t n)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", fz_dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int ok = fwrite(p, 1, n, f) == n;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* Splits the input into the two files of fz_dir (metrics.json, events.json). */
static int fz_split(const uint8_t *data, size_t size, const char *default_events)
{
	if (!fz_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fz_dir, sizeof(fz_dir), "%.40s/fzmXXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(fz_dir)) {
			fz_dir[0] = 0;
			return -1;
		}
	}
	static const char mark[] = "\n#EVENTS#\n";
	size_t m = size;
	for (size_t i = 0; i + sizeof(mark) - 1 <= size; i++)
		if (!memcmp(data + i, mark, sizeof(mark) - 1)) {
			m = i;
			break;
		}
	if (fz_write("metrics.json", data, m) < 0)
		return -1;
	if (m == size)
		return fz_write("events.json", (const uint8_t *)default_events,
				strlen(default_events));
	return fz_write("events.json", data + m + sizeof(mark) - 1, size - m - (sizeof(mark) - 1));
}

/* Loads r from fz_dir and uses what loads as baretop would. */
static void fz_load_and_use(const struct bt_model_recipe *r)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_diag d = { "" };
	struct bt_model_def *def;
	static struct bt_load_notes notes;
	struct bt_model *m = NULL;
	if (bt_model_load_noted(&a, r, fz_dir, &def, &notes, &d) == BT_OK &&
	    bt_model_open(def, &m, &d) == BT_OK) {
		struct bt_rule_set *rs = NULL;
		if (bt_rules_derive(m, &rs, &d) == BT_OK)
			bt_rules_free(rs);
		struct bt_counts *c = bt_counts_new(m);
		struct bt_result *res = bt_result_new(m);
		if (c && res) {
			for (unsigned i = 0; i < bt_model_event_count(m); i++)
				c->events[i] = 1000.0 + 37.0 * i;
			bt_evaluate(m, c, res);
			FILE *f = fopen("/dev/null", "w");
			if (f) {
				struct bt_report_opts o = { .input_label = "fuzz" };
				bt_report_text(f, m, res, &o);
				fclose(f);
			}
		}
		bt_result_free(res);
		bt_counts_free(c);
		bt_model_close(m);
	}
	bt_arena_free(&a);
}

#endif
