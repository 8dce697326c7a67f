/* SPDX-License-Identifier: MIT */
/*
 * baretop-host plan --events FILE [--preset P] [--smt|--smt-off] [--json[=FILE]]
 * baretop-host plan --model M [--level N] [--smt|--smt-off] [--json[=FILE]]
 *
 * Plans counter groups (no multiplexing) for the events in FILE, one raw
 * event per line (see pmu/event-encode.h; '#' starts a comment), for the
 * PMU of a simulated preset (the host has no PMU of its own to plan for:
 * the output says which caps were used). Exits non-zero if the plan is
 * invalid by the independent validator, or events could not be placed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/array.h"
#include "metrics/model.h"
#include "analysis/json-file.h"
#include "report/tree.h"
#include "pmu/event-encode.h"
#include "pmu/plan.h"
#include "pmu/pmu-caps.h"
#include "pmu/sibling.h"
#include "arch/sim/sim.h"
#include "synth/count-sources.h"
#include "metrics/builtin.h"
#include "synth/sim-run.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "tools/baretop-host/model-open-host.h"
#include "tools/baretop-host/plan-print.h"

static const char *nm(const struct bt_event *const *ev, int i)
{
	return ev[i]->name ? ev[i]->name : "?";
}

int bt_host_plan_print(const struct bt_event *const *events, int n, const struct bt_pmu_caps *caps,
		       const char *caps_label, bool smt_off, bool json, FILE *out)
{
	static struct bt_plan p;
	static struct bt_plan_scratch scratch;
	struct bt_plan_opts opts = { .smt_off = smt_off };
	bt_status st = bt_plan_events(events, n, caps, &opts, &scratch, &p);
	struct bt_diag d = { "" };
	bt_status vst = st == BT_OK
		? bt_plan_validate(&p, events, n, caps, &opts, &scratch, &d)
		: BT_ERR_INVALID;
	if (st != BT_OK && !d.text[0])
		bt_diag_set(&d, "%d events could not be placed (%s)", p.n_unplaced,
			    bt_status_str(st));
	const struct bt_plan_bound *b = &p.bound;
	if (json) {
		fprintf(out, "{\"caps\": ");
		bt_json_put_string(out, caps_label);
		fprintf(out, ", \"general_counters\": %d, \"events\": %d, \"groups\": %d, "
			"\"lower_bound\": %d, \"bound\": {\"alone\": %d, \"capacity\": %d, \"hall\": %d, "
			"\"msr\": %d}, \"valid\": %s",
			caps->num_gp, n, p.n_groups, p.lower_bound, b->alone, b->capacity, b->hall, b->msr,
			vst == BT_OK ? "true" : "false");
		if (vst != BT_OK) {
			fprintf(out, ", \"error\": ");
			bt_json_put_string(out, d.text);
		}
		fprintf(out, ",\n \"plan\": [");
		for (int g = 0; g < p.n_groups; g++) {
			const struct bt_plan_group *G = &p.groups[g];
			fprintf(out, "%s\n  {\"group\": %d, \"counters\": {", g ? "," : "", g);
			for (int i = 0; i < G->n_gp; i++) {
				fprintf(out, "%s\"%d\": ", i ? ", " : "", G->gp[i].counter);
				bt_json_put_string(out, nm(events, G->gp[i].event));
			}
			fprintf(out, "}, \"fixed\": {");
			int k = 0;
			for (int i = 0; i < n; i++)
				if (p.ev[i].place == BT_PLACE_FIXED) {
					fprintf(out, "%s\"%d\": ", k++ ? ", " : "", p.ev[i].counter);
					bt_json_put_string(out, nm(events, i));
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
				bt_json_put_string(out, nm(events, i));
			}
		fprintf(out, "],\n \"unmeasurable\": [");
		k = 0;
		for (int i = 0; i < n; i++)
			if (p.ev[i].place == BT_PLACE_UNMEASURABLE) {
				fprintf(out, "%s{\"event\": ", k++ ? ", " : "");
				bt_json_put_string(out, nm(events, i));
				fprintf(out, ", \"reason\": ");
				bt_json_put_string(out, p.ev[i].reason);
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
		if (p.has_inst_gp)
			fprintf(out, "every group: general counter %d = retired instructions (0xC0), "
				"judges the run\n", p.inst_gp);
		if (p.has_smi_gp)
			fprintf(out, "every group: general counter %d = SMIs received (0x2B), the "
				"run's SMI count\n", p.smi_gp);
		if (p.has_sibling_gp && p.has_xclk_gp)
			fprintf(out, "every group: general counters %d, %d = ONE_THREAD_ACTIVE (0x3C/0x02), "
				"REF_XCLK (0x3C/0x01), the SMT sibling probe\n", p.ota_gp, p.xclk_gp);
		else if (p.has_sibling_gp)
			fprintf(out, "every group: general counter %d = ONE_THREAD_ACTIVE (0x3C/0x02), the "
				"SMT sibling probe (REF_XCLK from fixed counter 2)\n", p.ota_gp);
		fprintf(out, "groups: %d, lower bound: %d (alone %d + max(capacity %d, hall %d, msr %d))\n",
			p.n_groups, p.lower_bound, b->alone, b->capacity, b->hall, b->msr);
		if (vst != BT_OK)
			fprintf(out, "INVALID PLAN: %s\n", d.text);
	}
	return vst == BT_OK ? 0 : 1;
}

static int cmd_plan(int argc, char **argv);
BT_HOST_COMMAND(plan, "plan (--model M | --all-models | --events FILE) [...]",
		"plan counter groups (no multiplexing) for a model or raw events, with the lower bound")

/* The caps a correct detection derives from a simulated PMU configuration. */
static bool sim_caps(const struct bt_sim_config *cfg, struct bt_pmu_caps *ret)
{
	static struct bt_sim sim;

	if (bt_sim_init(&sim, cfg) != BT_OK)
		return false;
	bt_pmu_caps_detect(&sim.arch, ret);
	bt_sim_free(&sim);
	return true;
}

/* The events of `model` up to `level` (0 = all), with SMT on or off;
 * with the sibling probe, both branches' (HYPERTHREADING_ON unknown: the
 * tree decides after counting, app/count.c) and REF_XCLK where a run
 * would count it there to check the ratio it derives it at
 * (pmu/sibling.h bt_sibling_add_check). */
static int model_events(struct bt_model *m, unsigned level, bool smt, bool probe,
			const struct bt_pmu_caps *caps, const struct bt_event **evp, int cap)
{
	static uint16_t idx[BT_PLAN_MAX_EVENTS * 4];
	double constants[BT_CONST_COUNT];
	unsigned n = 0;

	for (int c = 0; c < BT_CONST_COUNT; c++)
		constants[c] = __builtin_nan("");
	constants[BT_C_HYPERTHREADING_ON] = probe ? __builtin_nan("") : smt ? 1 : 0;
	static struct bt_event gp_twin[BT_PLAN_MAX_EVENTS];

	if (bt_model_event_count(m) > BT_ARRAY_SIZE(idx) ||
	    bt_model_events_up_to_level(m, level ? level : bt_model_max_level(m), constants, idx,
					&n) != BT_OK)
		return -1;
	if ((int)n + 1 > cap)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		evp[i] = bt_model_event(m, idx[i]);
		if (bt_event_fixed_to_gp(evp[i], caps, &gp_twin[i]))
			evp[i] = &gp_twin[i];
	}
	static struct bt_plan_scratch scratch;
	struct bt_plan_opts opts = { .smt_off = !smt };
	return probe ? bt_sibling_add_check(evp, (int)n, caps, &opts, &scratch) : (int)n;
}

/* --sibling-probe: the SMT sibling probe's counter reserved in every group
 * (pmu/plan.h sibling_gp) where a run would take it (app/count.c
 * sibling_probe_applies): an Intel PMU that has room for it and a model
 * whose formulas have SMT branches. */
static void probe_caps(bool probe, const struct bt_model *m, struct bt_pmu_caps *caps)
{
	caps->sibling_probe = probe && caps->kind == BT_PMU_INTEL_ARCH &&
			      bt_model_has_smt_branches(m, NULL);
	if (caps->sibling_probe && !bt_plan_sibling_gp(caps, NULL, NULL))
		caps->sibling_probe = false;
}

static int plan_model(const char *id, unsigned level, bool smt, bool probe, bool json, FILE *out)
{
	struct bt_sim_config cfg;
	struct bt_pmu_caps caps;
	struct bt_arena arena = { 0 };
	struct bt_model *m = NULL;
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	char label[160];

	if (!bt_sim_config_for_model(id, &cfg) || !sim_caps(&cfg, &caps)) {
		fprintf(stderr, "plan: no simulated PMU for model '%s'\n", id);
		return 2;
	}
	if (host_open_model(id, NULL, &arena, &m) != 0)
		return 2;
	if (level > bt_model_max_level(m)) {
		fprintf(stderr, "plan: %s has levels 1..%u\n", id, bt_model_max_level(m));
		bt_model_close(m);
		return 2;
	}
	probe_caps(probe, m, &caps);
	int n = model_events(m, level, smt, caps.sibling_probe, &caps, evp, BT_PLAN_MAX_EVENTS);
	if (n < 0) {
		fprintf(stderr, "plan: %s: too many events\n", id);
		bt_model_close(m);
		return 2;
	}
	snprintf(label, sizeof(label), "%s; model %s, level %s%u, SMT %s", cfg.brand, id,
		 level ? "" : "all = ", level ? level : bt_model_max_level(m), smt ? "on" : "off");
	int rc = bt_host_plan_print(evp, n, &caps, label, !smt, json, out);
	bt_model_close(m);
	return rc;
}

/* Every model at every level: the plan must be valid and have as many
 * groups as the lower bound. Prints one row per model (full depth). */
static int plan_all_models(bool smt, bool probe, bool json, FILE *out)
{
	int bad = 0;

	if (json)
		fprintf(out, "[");
	else
		fprintf(out, "%-8s %-6s %-7s %-8s %-6s %-6s %-13s %s\n", "model", "levels", "events",
		       "general", "groups", "bound", "unmeasurable", "every level optimal");
	for (int k = 0; bt_sim_model_names[k]; k++) {
		const char *id = bt_sim_model_names[k];
		struct bt_sim_config cfg;
		struct bt_pmu_caps caps;
		struct bt_arena arena = { 0 };
		struct bt_model *m = NULL;
		static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
		static struct bt_plan p;
		static struct bt_plan_scratch scratch;
		struct bt_plan_opts opts = { .smt_off = !smt };
		struct bt_diag d = { "" };
		char levels_ok[64] = "";
		int full_groups = 0, full_bound = 0, full_events = 0, full_unmeas = 0;
		bool optimal = true;

		if (!bt_sim_config_for_model(id, &cfg) || !sim_caps(&cfg, &caps) ||
		    host_open_model(id, NULL, &arena, &m) != 0) {
			fprintf(stderr, "%s: cannot set up\n", id);
			bad = 1;
			continue;
		}
		unsigned max = bt_model_max_level(m);
		probe_caps(probe, m, &caps);
		for (unsigned lv = 1; lv <= max; lv++) {
			int n = model_events(m, lv, smt, caps.sibling_probe, &caps, evp,
					     BT_PLAN_MAX_EVENTS);
			bt_status st = n < 0 ? BT_ERR_FULL
					     : bt_plan_events(evp, n, &caps, &opts, &scratch, &p);
			if (st == BT_OK)
				st = bt_plan_validate(&p, evp, n, &caps, &opts, &scratch, &d);
			if (st != BT_OK || p.n_groups != p.lower_bound) {
				optimal = false;
				bad = 1;
				fprintf(stderr, "%s level %u: %s (groups %d, bound %d)\n", id, lv,
					st != BT_OK ? (d.text[0] ? d.text : bt_status_str(st))
						    : "not optimal",
					p.n_groups, p.lower_bound);
			}
			size_t len = strlen(levels_ok);
			snprintf(levels_ok + len, sizeof(levels_ok) - len, "%s%d", lv > 1 ? "/" : "",
				 p.n_groups);
			if (lv == max) {
				full_groups = p.n_groups;
				full_bound = p.lower_bound;
				full_events = n;
				full_unmeas = p.n_unmeasurable;
			}
		}
		if (json)
			fprintf(out, "%s\n {\"model\": \"%s\", \"levels\": %u, \"events\": %d, "
			       "\"general_counters\": %d, \"groups\": %d, \"lower_bound\": %d, "
			       "\"unmeasurable\": %d, \"groups_per_level\": \"%s\", "
			       "\"every_level_optimal\": %s}",
			       k ? "," : "", id, max, full_events, caps.num_gp, full_groups, full_bound,
			       full_unmeas, levels_ok, optimal ? "true" : "false");
		else
			fprintf(out, "%-8s %-6u %-7d %-8d %-6d %-6d %-13d %s (groups per level %s)\n", id, max,
			       full_events, caps.num_gp, full_groups, full_bound, full_unmeas,
			       optimal ? "yes" : "NO", levels_ok);
		bt_model_close(m);
	}
	if (json)
		fprintf(out, "\n]\n");
	return bad;
}

static const struct host_opt opts[] = {
	{ "model", NULL, HOST_VALUE, "M",
	  "the events of model M's tree (any case: skl is SKL) up to --level,\n"
	  "planned for the simulated PMU of M's microarchitecture" },
	{ "level", NULL, HOST_VALUE, "N", "with --model: levels 1..N (default: all levels)" },
	{ "all-models", NULL, HOST_FLAG, NULL,
	  "every model at every level; exits 1 unless every plan is valid\n"
	  "and has as many groups as the lower bound" },
	{ "events", NULL, HOST_VALUE, "FILE",
	  "one raw event per line (cpu/event=0x..,umask=0x..,.../, rUUEE,\n"
	  "tsc, duration_time; extensions counters=MASK fixed=N alone code2=\n"
	  "perf_metrics=FIELD)" },
	{ "preset", NULL, HOST_VALUE, "P", "with --events: the simulated PMU preset (default skl; list below)" },
	{ "smt", NULL, HOST_FLAG, NULL, "plan as if the sibling thread were on (its counter restrictions)" },
	{ "smt-off", NULL, HOST_FLAG, NULL,
	  "plan as if the sibling thread were off. Default: SMT off with\n"
	  "--model and --all-models, on with --events" },
	{ "json", NULL, HOST_OUTPUT_EQ, "FILE", "the plan as JSON (instead of the text)" },
	{ "backend", NULL, HOST_VALUE, "perf",
	  "perf: the groups `run --backend=perf` would open (perf_event_attr\n"
	  "fields, leader first), planned for the kernel's facts under\n"
	  "--kernel-root on CPU --cpuid FILE@CPU; refused events by name\n"
	  "(any refused: an incomplete plan, exit 1); a CPU, model or kernel\n"
	  "PMU driver of another vendor is refused (exit 2)" },
	{ "kernel-root", NULL, HOST_VALUE, "DIR",
	  "with --backend=perf: the kernel's files (sys/bus/event_source,\n"
	  "proc/sys/kernel, ...) under DIR instead of / (default /)" },
	{ "cpuid", NULL, HOST_VALUE, "FILE@CPU",
	  "with --backend=perf: that CPU of a CPUID dump is the one counted\n"
	  "(its built-in model unless --model)" },
	{ "sibling-probe", NULL, HOST_FLAG, NULL,
	  "with --model or --all-models, implies --smt: as `run --level N` plans\n"
	  "SMT on where the formulas have SMT branches: both branches' events,\n"
	  "ONE_THREAD_ACTIVE on a general counter reserved in every group on an\n"
	  "Intel PMU without PERF_METRICS, and REF_XCLK once (its ratio to fixed\n"
	  "counter 2, from which every group's is derived, checked)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"plan",
	"plan --model M [--level N] [--smt|--smt-off] [--json[=FILE]]\n"
	"plan --all-models [--smt|--smt-off] [--json[=FILE]]\n"
	"plan --events FILE [--preset P] [--smt|--smt-off] [--json[=FILE]]\n"
	"plan --backend=perf --cpuid FILE@CPU [--kernel-root DIR] [--model M] [--level N]\n"
	"     [--smt|--smt-off] [--json[=FILE]]",
	NULL,
	opts,
	"Presets: core2 nhm skl icl spr adl-p adl-e lnl-p arlh-p arlh-e arlh-lpe amd-legacy\n"
	"zen2 zen4 (`baretop-host models` lists the models). Names are matched without case\n"
	"when no name is spelled exactly so.\n"
	"Exit status: 0 valid plan, 1 invalid or incomplete plan (found), 2 bad arguments\n"
	"or a file that cannot be read.",
};
HOST_ARGS_REGISTER(args)

static int cmd_plan(int argc, char **argv)
{
	const char *file = NULL, *preset = NULL, *model = NULL;
	const char *json = NULL, *backend = NULL, *kroot = NULL, *cpuid = NULL;
	bool smt_off = false, smt = false, all = false, level_given = false, probe = false;
	unsigned level = 0;
	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		switch (k) {
		case 0:
			model = v;
			break;
		case 1:
			if (!host_parse_uint("plan", "--level", v, 1, 16, &level))
				return HOST_EXIT_USAGE;
			level_given = true;
			break;
		case 2:
			all = true;
			break;
		case 3:
			file = v;
			break;
		case 4:
			preset = v;
			break;
		case 5:
			smt = true;
			break;
		case 6:
			smt_off = true;
			break;
		case 7:
			json = v;
			break;
		case 8:
			backend = v;
			break;
		case 9:
			kroot = v;
			break;
		case 10:
			cpuid = v;
			break;
		case 11:
			probe = smt = true;
			break;
		case HOST_ARGS_POSITIONAL:
			return host_usage_error(&args, "unexpected argument '%s'", v);
		default:
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
		}
	}
	if (backend && strcmp(backend, "perf") != 0)
		return host_usage_error(&args, "--backend perf (the only OS driver there is), not '%s'",
					backend);
	if ((kroot || cpuid) && !backend)
		return host_usage_error(&args, "--kernel-root and --cpuid go with --backend=perf");
	if (backend) {
		if (!cpuid)
			return host_usage_error(&args, "--backend=perf needs --cpuid FILE@CPU (the CPU counted)");
		if (all || file || preset)
			return host_usage_error(&args, "--backend=perf plans a model (--model or the CPU's), "
						"not --all-models, --events or --preset");
		if (smt && smt_off)
			return host_usage_error(&args, "--smt and --smt-off together");
		struct host_output out;
		if (!host_output_begin(&out, "plan", json ? json : "-"))
			return HOST_EXIT_USAGE;
		int rc = bt_host_plan_perf(model, level, smt, kroot ? kroot : "/", cpuid, json, out.f);
		return host_output_end(&out, rc != 2) ? rc : HOST_EXIT_USAGE;
	}
	/* one mode, and no option the mode would ignore */
	if ((model != NULL) + all + (file != NULL) != 1)
		return host_usage_error(&args, "one of --model M, --all-models or --events FILE");
	if (smt && smt_off)
		return host_usage_error(&args, "--smt and --smt-off together");
	if (probe && file)
		return host_usage_error(&args, "--sibling-probe goes with --model or --all-models");
	if (level_given && !model)
		return host_usage_error(&args, "--level goes with --model");
	if (preset && !file)
		return host_usage_error(&args, "--preset goes with --events (a model has its own PMU)");
	if (model) {
		const char *canon = bt_synth_canonical(model);
		const struct bt_model_def *def = bt_builtin_find(model);
		/* the model's id as the tables spell it ("skl" is the preset,
		 * but as --model it can only mean SKL) */
		model = def ? def->id : canon ? canon : model;
	}
	if (file) {
		if (!preset)
			preset = "skl";
		else if (bt_synth_canonical(preset) && bt_sim_preset(bt_synth_canonical(preset)))
			preset = bt_synth_canonical(preset);
		else {
			for (int p = 0; bt_sim_preset_names[p]; p++)
				if (!strcasecmp(bt_sim_preset_names[p], preset))
					preset = bt_sim_preset_names[p];
		}
		smt_off = !smt && smt_off;
	}
	if (all || model) {
		struct host_output out;
		if (!host_output_begin(&out, "plan", json ? json : "-"))
			return HOST_EXIT_USAGE;
		int rc = all ? plan_all_models(smt, probe, json, out.f)
			     : plan_model(model, level, smt, probe, json, out.f);
		/* a plan that was made (valid or not) is written; an error leaves no file */
		return host_output_end(&out, rc != 2) ? rc : HOST_EXIT_USAGE;
	}
	const struct bt_sim_config *cfg = bt_sim_preset(preset);
	if (!cfg)
		return host_usage_error(&args, "unknown preset '%s'", preset);
	struct bt_pmu_caps caps;
	if (!sim_caps(cfg, &caps))
		return 2;

	FILE *f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "plan: cannot open %s: %s\n", file, strerror(errno));
		return 2;
	}
	static struct bt_raw_event raw[BT_PLAN_MAX_EVENTS];
	static const struct bt_event *evp[BT_PLAN_MAX_EVENTS];
	char line[1024];
	int n = 0, lineno = 0, bad = 0;
	errno = 0;
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
		struct bt_diag d;
		if (bt_event_parse(p, cfg->vendor, &raw[n], &d) != BT_OK) {
			fprintf(stderr, "%s:%d: %s\n", file, lineno, d.text);
			bad = 1;
			continue;
		}
		evp[n] = &raw[n].ev;
		n++;
	}
	/* A folder opens on Linux and reads as an error; an empty file reads
	 * as nothing. Either would plan 0 groups and look like an answer. */
	int read_error = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (read_error) {
		fprintf(stderr, "plan: cannot read %s: %s\n", file, strerror(read_error));
		return 2;
	}
	if (bad)
		return 1;
	if (n == 0) {
		fprintf(stderr, "plan: %s: no events in it (%d line%s, all blank or comments): "
				"nothing to plan\n", file, lineno, lineno == 1 ? "" : "s");
		return 2;
	}
	char label[96];
	snprintf(label, sizeof(label), "simulated PMU preset %s", preset);
	struct host_output out;
	if (!host_output_begin(&out, "plan", json ? json : "-"))
		return HOST_EXIT_USAGE;
	int rc = bt_host_plan_print(evp, n, &caps, label, smt_off, json, out.f);
	return host_output_end(&out, rc != 2) ? rc : HOST_EXIT_USAGE;
}
