/* SPDX-License-Identifier: MIT */
/*
 * baretop-host plan --events FILE [--preset P] [--smt-off] [--json]
 *
 * Plans counter groups (no multiplexing) for the events in FILE, one raw
 * event per line (see pmu/event-encode.h; '#' starts a comment), for the
 * PMU of a simulated preset (the host has no PMU of its own to plan for:
 * the output says which caps were used). Exits non-zero if the plan is
 * invalid by the independent validator, or events could not be placed.
 */
#include <stdlib.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/plan.h"
#include "pmu/sim.h"
#include "tools/host/command.h"
#include "tools/host/plan-print.h"

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *nm(const struct bt_event *const *ev, int i)
{
	return ev[i]->name ? ev[i]->name : "?";
}

int bt_host_plan_print(const struct bt_event *const *events, int n, const struct bt_pmu_caps *caps,
		       const char *caps_label, bool smt_off, bool json, FILE *out)
{
	static struct bt_plan p;
	struct bt_plan_opts opts = { .smt_off = smt_off };
	bt_status st = bt_plan_events(events, n, caps, &opts, &p);
	char err[256] = "";
	bt_status vst = st == BT_OK ? bt_plan_validate(&p, events, n, caps, &opts, err, sizeof(err))
				    : BT_ERR_INVALID;
	if (st != BT_OK && !err[0])
		snprintf(err, sizeof(err), "%d events could not be placed (%s)", p.n_unplaced,
			 bt_status_str(st));
	const struct bt_plan_bound *b = &p.bound;
	if (json) {
		fprintf(out, "{\"caps\": ");
		json_str(out, caps_label);
		fprintf(out, ", \"general_counters\": %d, \"events\": %d, \"groups\": %d, "
			"\"lower_bound\": %d, \"bound\": {\"alone\": %d, \"capacity\": %d, \"hall\": %d, "
			"\"msr\": %d}, \"valid\": %s",
			caps->num_gp, n, p.n_groups, p.lower_bound, b->alone, b->capacity, b->hall, b->msr,
			vst == BT_OK ? "true" : "false");
		if (vst != BT_OK) {
			fprintf(out, ", \"error\": ");
			json_str(out, err);
		}
		fprintf(out, ",\n \"plan\": [");
		for (int g = 0; g < p.n_groups; g++) {
			const struct bt_plan_group *G = &p.groups[g];
			fprintf(out, "%s\n  {\"group\": %d, \"counters\": {", g ? "," : "", g);
			for (int i = 0; i < G->n_gp; i++) {
				fprintf(out, "%s\"%d\": ", i ? ", " : "", G->gp[i].counter);
				json_str(out, nm(events, G->gp[i].event));
			}
			fprintf(out, "}, \"fixed\": {");
			int k = 0;
			for (int i = 0; i < n; i++)
				if (p.ev[i].place == BT_PLACE_FIXED) {
					fprintf(out, "%s\"%d\": ", k++ ? ", " : "", p.ev[i].counter);
					json_str(out, nm(events, i));
				}
			fprintf(out, "}, \"extra_msrs\": {");
			k = 0;
			for (int s = 0; s < BT_PLAN_MSR_SLOTS; s++)
				if (G->msr_used[s])
					fprintf(out, "%s\"%s\": \"0x%llx\"", k++ ? ", " : "", bt_plan_msr_name(s),
						(unsigned long long)G->msr_value[s]);
			fprintf(out, "}, \"perf_metrics\": %s}", p.perf_metrics ? "true" : "false");
		}
		fprintf(out, "],\n \"every_group\": [");
		int k = 0;
		for (int i = 0; i < n; i++)
			if (p.ev[i].place == BT_PLACE_FIXED || p.ev[i].place == BT_PLACE_PERF_METRICS ||
			    p.ev[i].place == BT_PLACE_FREE) {
				fprintf(out, "%s", k++ ? ", " : "");
				json_str(out, nm(events, i));
			}
		fprintf(out, "],\n \"unmeasurable\": [");
		k = 0;
		for (int i = 0; i < n; i++)
			if (p.ev[i].place == BT_PLACE_UNMEASURABLE) {
				fprintf(out, "%s{\"event\": ", k++ ? ", " : "");
				json_str(out, nm(events, i));
				fprintf(out, ", \"reason\": ");
				json_str(out, p.ev[i].reason);
				fputc('}', out);
			}
		fprintf(out, "]}\n");
	} else {
		fprintf(out, "caps: %s (%d general counters, fixed mask 0x%X%s)\n", caps_label,
			caps->num_gp, caps->fixed_mask, caps->perf_metrics ? ", PERF_METRICS" : "");
		for (int g = 0; g < p.n_groups; g++) {
			const struct bt_plan_group *G = &p.groups[g];
			fprintf(out, "group %d:", g);
			for (int i = 0; i < G->n_gp; i++)
				fprintf(out, " c%d=%s%s", G->gp[i].counter, nm(events, G->gp[i].event),
					G->gp[i].code2 ? "(code2)" : "");
			for (int s = 0; s < BT_PLAN_MSR_SLOTS; s++)
				if (G->msr_used[s])
					fprintf(out, " [%s=0x%llx]", bt_plan_msr_name(s),
						(unsigned long long)G->msr_value[s]);
			fputc('\n', out);
		}
		for (int i = 0; i < n; i++) {
			const struct bt_plan_event *e = &p.ev[i];
			if (e->place == BT_PLACE_FIXED)
				fprintf(out, "every group: fixed counter %d = %s\n", e->counter, nm(events, i));
			else if (e->place == BT_PLACE_PERF_METRICS)
				fprintf(out, "every group: PERF_METRICS field %d = %s\n", e->counter, nm(events, i));
			else if (e->place == BT_PLACE_FREE)
				fprintf(out, "every group: %s\n", nm(events, i));
			else if (e->place == BT_PLACE_UNMEASURABLE)
				fprintf(out, "unmeasurable: %s: %s\n", nm(events, i), e->reason);
		}
		fprintf(out, "groups: %d, lower bound: %d (alone %d + max(capacity %d, hall %d, msr %d))\n",
			p.n_groups, p.lower_bound, b->alone, b->capacity, b->hall, b->msr);
		if (vst != BT_OK)
			fprintf(out, "INVALID PLAN: %s\n", err);
	}
	return vst == BT_OK ? 0 : 1;
}

static int cmd_plan(int argc, char **argv);
BT_HOST_COMMAND(plan, "plan --events FILE [--preset P] [--smt-off] [--json]",
		"plan counter groups (no multiplexing) for raw events, with the lower bound")

static int cmd_plan(int argc, char **argv)
{
	const char *file = NULL, *preset = "skl";
	bool json = false, smt_off = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--events") == 0 && i + 1 < argc)
			file = argv[++i];
		else if (strcmp(argv[i], "--preset") == 0 && i + 1 < argc)
			preset = argv[++i];
		else if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--smt-off") == 0)
			smt_off = true;
		else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: baretop-host plan --events FILE [--preset P] [--smt-off] [--json]\n"
			       "FILE: one raw event per line (cpu/event=0x..,umask=0x..,.../, rUUEE,\n"
			       "tsc, duration_time; extensions counters=MASK fixed=N alone code2=\n"
			       "perf_metrics=FIELD). The caps are those of a simulated PMU preset:\n");
			for (int k = 0; bt_sim_preset_names[k]; k++)
				printf("  %s\n", bt_sim_preset_names[k]);
			return 0;
		} else {
			fprintf(stderr, "plan: unknown argument '%s' (try --help)\n", argv[i]);
			return 2;
		}
	}
	if (!file) {
		fprintf(stderr, "plan: --events FILE is required\n");
		return 2;
	}
	const struct bt_sim_config *cfg = bt_sim_preset(preset);
	if (!cfg) {
		fprintf(stderr, "plan: unknown preset '%s' (try --help)\n", preset);
		return 2;
	}
	static struct bt_sim sim;
	if (bt_sim_init(&sim, cfg) != BT_OK)
		return 2;
	struct bt_pmu_caps caps;
	bt_sim_detect_caps(&sim, &caps);
	bt_sim_free(&sim);

	FILE *f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "plan: cannot open %s\n", file);
		return 2;
	}
	static struct bt_raw_event raw[BT_PLAN_MAX_EVENTS];
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	char line[1024];
	int n = 0, lineno = 0, bad = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\n' || *p == '\r')
			continue;
		if (n == BT_PLAN_MAX_EVENTS) {
			fprintf(stderr, "%s:%d: more than %d events\n", file, lineno, BT_PLAN_MAX_EVENTS);
			bad = 1;
			break;
		}
		char err[200];
		if (bt_event_parse(p, cfg->vendor, &raw[n], err, sizeof(err)) != BT_OK) {
			fprintf(stderr, "%s:%d: %s\n", file, lineno, err);
			bad = 1;
			continue;
		}
		evp[n] = &raw[n].ev;
		n++;
	}
	fclose(f);
	if (bad)
		return 1;
	char label[96];
	snprintf(label, sizeof(label), "simulated PMU preset %s", preset);
	return bt_host_plan_print(evp, n, &caps, label, smt_off, json, stdout);
}
