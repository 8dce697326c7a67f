/* SPDX-License-Identifier: MIT */
/*
 * Options that contradict each other, or do nothing together: one table
 * (combos[] below) drives the checks, the "Combinations" table of --help
 * and the suite's option-combinations step (the hidden
 * --option-combinations prints it with an example command line per row),
 * so the three cannot drift apart. See app/options.h.
 *
 * When a row is checked:
 *  - SOURCE: both options given in the same source (the configuration file,
 *    or the command line). Across sources the later one overrides by design
 *    (a configuration file's `-w` list and `--no-workloads` on the command
 *    line for a quick identification is no contradiction).
 *  - FINAL: the options of every source together (an option that feeds the
 *    simulated PMU with no --sim anywhere).
 *  - MODEL: once the model is chosen (app/count.c): an option that has
 *    nothing to act on for that model.
 */
#include <string.h>

#include "app/options.h"
#include "base/array.h"

enum combo_stage { STAGE_SOURCE, STAGE_FINAL, STAGE_MODEL };

struct combo {
	enum combo_stage stage;
	bool refused;         /* else accepted with a one-line note */
	const char *what;     /* the combination, for --help */
	const char *reason;
	/* command lines that have it (" ; " between them), and the words of a
	 * configuration file they read ("--config FILE" added), for the suite */
	const char *example, *example_config;
	bool (*applies)(const struct bt_options *o, const struct bt_option_source *s);
};

static bool given(const struct bt_option_source *s, const char *name)
{
	return s && s->given && s->given(s->ctx, name);
}

static bool backend_vs_sim(const struct bt_options *o, const struct bt_option_source *s)
{
	return given(s, "backend") && o->backend && strcmp(o->backend, "sim") != 0 &&
	       (given(s, "sim") || given(s, "sim-cpuid"));
}

static bool no_workloads_vs_w(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)o;
	return given(s, "no-workloads") && (given(s, "workload") || given(s, "exec"));
}

static bool no_results_vs_keep(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)o;
	return given(s, "no-results") && given(s, "keep-results");
}

static bool level_vs_drilldown(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)o;
	return given(s, "level") && given(s, "drilldown");
}

static bool config_in_config(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)o;
	return s->in_config && (given(s, "config") || given(s, "no-config"));
}

static bool counts_without_sim(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->counts_file && !o->sim;
}

static bool miscount_without_sim(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->sim_miscount && !o->sim;
}

static bool defect_without_sim(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->sim_defect && !o->sim;
}

static bool sibling_without_sim(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->sim_sibling_set && !o->sim;
}

static bool copies_with_exec(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->copies > 1 && o->exec_path;
}

static bool no_pebs_no_rl(const struct bt_options *o, const struct bt_option_source *s)
{
	return o->no_pebs && s->model_id && s->model_retire_latencies == 0;
}

static bool rl_file_no_rl(const struct bt_options *o, const struct bt_option_source *s)
{
	return o->retire_latency_file && s->model_id && s->model_retire_latencies == 0;
}

static bool atlas_vs_modes(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->atlas && (o->validate || o->bring_up);
}

static bool atlas_vs_workloads(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->atlas && (o->n_workloads > 0 || o->exec_path);
}

/* What the atlas would ignore: it counts the known-count kernels on
 * baretop's own CPU, one copy, and evaluates no Top-Down tree
 * (app/atlas-mode.c). */
static bool atlas_vs_run_options(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->atlas && (o->level || o->drilldown || o->copies > 1 || o->cpu_all ||
			    o->n_cpus > 0);
}

/* --validate alone validates the spec's events over the known-count
 * kernels on baretop's own CPU (app/validate-mode.c): the workloads, the
 * nodes and the CPUs are --bring-up's, which runs the Top-Down tree after. */
static bool validate_vs_run_options(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)s;
	return o->validate && !o->bring_up && !o->atlas &&
	       (o->n_workloads > 0 || o->exec_path || o->level || o->drilldown || o->copies > 1 ||
		o->cpu_all || o->n_cpus > 0);
}

/* --counts and --retire-latency-file feed the workloads' Top-Down trees;
 * the atlas and a validation count the known-count kernels, each of which
 * is its own count source (synth/sim-run.c bt_synth_count_kernel). */
static bool workload_inputs_vs_kernel_modes(const struct bt_options *o,
					    const struct bt_option_source *s)
{
	(void)s;
	return (o->counts_file || o->retire_latency_file) &&
	       (o->atlas || (o->validate && !o->bring_up));
}

/* The modes that run instead of the workloads, or before them, run in the
 * phase --no-workloads skips: nothing would be done. */
static bool no_workloads_vs_modes(const struct bt_options *o, const struct bt_option_source *s)
{
	(void)o;
	return given(s, "no-workloads") &&
	       (given(s, "atlas") || given(s, "events-file") || given(s, "atlas-json") ||
		given(s, "atlas-spec") || given(s, "validate") || given(s, "validate-spec") ||
		given(s, "bring-up"));
}

static const struct combo combos[] = {
	{ STAGE_SOURCE, true, "--backend=hw|perf with --sim or --sim-cpuid (either order)",
	  "two counting backends: --backend=hw or perf counts with a real PMU, --sim with the "
	  "simulated one; give one (--backend=sim is --sim)",
	  "--backend=perf --sim=spr -w multiply1 ; --sim=spr --backend=perf -w multiply1 ; "
	  "--backend=hw --sim-cpuid dump.txt -w multiply1", NULL, backend_vs_sim },
	{ STAGE_SOURCE, true, "--no-workloads with -w or -x",
	  "--no-workloads runs nothing, -w and -x name what to run; give one",
	  "--sim=spr --no-workloads -w multiply1", NULL, no_workloads_vs_w },
	{ STAGE_SOURCE, true, "--no-workloads with --atlas, --validate or --bring-up (or what "
	  "implies them)",
	  "--no-workloads skips the phase they run in: nothing would be done; give one",
	  "--sim=spr --atlas --no-workloads ; --sim=spr --validate --no-workloads ; --sim=spr "
	  "--bring-up --no-workloads ; --sim=spr --validate-spec s.json --no-workloads", NULL,
	  no_workloads_vs_modes },
	{ STAGE_SOURCE, true, "--no-results with --keep-results",
	  "--keep-results prunes the results folder after writing a file, and --no-results "
	  "writes none; give one",
	  "--sim=spr -w multiply1 --no-results --keep-results 3", NULL, no_results_vs_keep },
	{ STAGE_SOURCE, true, "--level N with --drilldown",
	  "--level N measures every node to level N, --drilldown only the children of "
	  "flagged nodes; give one",
	  "--sim=spr -w multiply1 --level 2 --drilldown", NULL, level_vs_drilldown },
	{ STAGE_SOURCE, true, "--config or --no-config inside a configuration file",
	  "they choose which configuration file is read: give them on the command line",
	  "--sim=spr -w multiply1", "--config other.cfg", config_in_config },
	{ STAGE_FINAL, true, "--counts without --sim",
	  "--counts feeds the simulated PMU: add --sim", "-w multiply1 --counts c.json", NULL,
	  counts_without_sim },
	{ STAGE_FINAL, true, "--sim-miscount without --sim",
	  "--sim-miscount makes the simulated PMU miscount: add --sim",
	  "-w multiply1 --sim-miscount INST_RETIRED.ANY:scale=2", NULL, miscount_without_sim },
	{ STAGE_FINAL, true, "--sim-defect without --sim",
	  "--sim-defect breaks the simulated PMU: add --sim",
	  "-w multiply1 --sim-defect stuck-counter:0", NULL, defect_without_sim },
	{ STAGE_FINAL, true, "--sim-sibling-active without --sim",
	  "--sim-sibling-active sets the simulated CPU's SMT sibling: add --sim",
	  "-w multiply1 --sim-sibling-active 1", NULL, sibling_without_sim },
	{ STAGE_FINAL, true, "--copies N (N > 1) with -x",
	  "an EFI application (-x) runs as one copy", "--sim=spr --copies 2 -x app.efi", NULL,
	  copies_with_exec },
	{ STAGE_FINAL, true, "--atlas with --validate, --validate-spec or --bring-up",
	  "each of them runs instead of the workloads (the atlas, a validation, a bring-up): "
	  "give one; a spec the atlas generated is validated by a later boot",
	  "--sim=spr --atlas --validate ; --sim=spr --atlas --bring-up", NULL, atlas_vs_modes },
	{ STAGE_FINAL, true, "--atlas (or --atlas-json, --atlas-spec) with -w or -x",
	  "the atlas counts the known-count kernels, not workloads: give one",
	  "--sim=spr --atlas -w multiply1 ; --sim=spr -w multiply1 --atlas-json atlas.json ; "
	  "--sim=spr --atlas-spec s.json -x app.efi", NULL, atlas_vs_workloads },
	{ STAGE_FINAL, true, "--atlas with --level, --drilldown, --copies or --cpu",
	  "the atlas counts the known-count kernels in one copy on baretop's own CPU and "
	  "evaluates no Top-Down tree: leave them out",
	  "--sim=spr --atlas --level 2 ; --sim=spr --atlas --drilldown ; --sim=spr --atlas "
	  "--copies 2 ; --sim=spr --atlas --cpu all ; --sim=spr --atlas --cpu 0", NULL,
	  atlas_vs_run_options },
	{ STAGE_FINAL, true, "--validate (without --bring-up) with -w, -x, --level, --drilldown, "
	  "--copies or --cpu",
	  "--validate checks events over the known-count kernels on baretop's own CPU and runs "
	  "no workload or tree: --bring-up validates, then runs them",
	  "--sim=spr --validate -w multiply1 ; --sim=spr --validate --level 3 ; --sim=spr "
	  "--validate --drilldown ; --sim=spr --validate --copies 2 ; --sim=spr --validate --cpu "
	  "all", NULL, validate_vs_run_options },
	{ STAGE_FINAL, true, "--counts or --retire-latency-file with --atlas or --validate "
	  "(without --bring-up)",
	  "they feed the workloads' Top-Down trees, and the atlas and --validate count the "
	  "known-count kernels, which have counts of their own",
	  "--sim=spr --atlas --counts c.json ; --sim=spr --validate --counts c.json ; --sim=spr "
	  "--validate --retire-latency-file rl.json", NULL, workload_inputs_vs_kernel_modes },
	{ STAGE_MODEL, false, "--no-pebs on a model with no retire-latency inputs",
	  "the model's formulas have no EVENT:R input: there is nothing to sample (accepted, "
	  "with this note)",
	  "--sim=skl -w multiply1:n=64 --no-pebs", NULL, no_pebs_no_rl },
	{ STAGE_MODEL, false, "--retire-latency-file on a model with no retire-latency inputs",
	  "the model's formulas have no EVENT:R input: the file's latencies are not used "
	  "(accepted, with this note)",
	  "--sim=skl -w multiply1:n=64 --retire-latency-file empty.json", NULL, rl_file_no_rl },
};

#define N_COMBOS (BT_ARRAY_SIZE(combos))

static bt_status check(const struct bt_options *o, const struct bt_option_source *s,
		       enum combo_stage stage, const char *where, struct bt_diag *d)
{
	for (size_t i = 0; i < N_COMBOS; i++) {
		const struct combo *c = &combos[i];
		if (c->stage != stage || !c->refused || !c->applies(o, s))
			continue;
		bt_diag_set(d, "%s: %s: %s (--help, \"Combinations\")", where, c->what, c->reason);
		return BT_ERR_INVALID;
	}
	return BT_OK;
}

bt_status bt_option_combos_source(const struct bt_options *o, const struct bt_option_source *s,
				  const char *where, struct bt_diag *d)
{
	return check(o, s, STAGE_SOURCE, where, d);
}

bt_status bt_option_combos_final(const struct bt_options *o, struct bt_diag *d)
{
	struct bt_option_source none = { 0 };
	return check(o, &none, STAGE_FINAL, "options", d);
}

void bt_option_combos_model(const struct bt_options *o, const char *model_id, unsigned retire_latencies,
			    void (*note)(void *ctx, const char *text), void *ctx)
{
	struct bt_option_source s = { .model_id = model_id, .model_retire_latencies = retire_latencies };
	char line[BT_DIAG_MAX];

	for (size_t i = 0; i < N_COMBOS; i++) {
		const struct combo *c = &combos[i];
		if (c->stage != STAGE_MODEL || !c->applies(o, &s))
			continue;
		snprintf(line, sizeof(line), "model %s: %s: %s", model_id, c->what, c->reason);
		note(ctx, line);
	}
}

void bt_option_combos_help(FILE *f)
{
	fprintf(f, "\nCombinations (refused: exit status 2 with the reason; noted: accepted with "
		   "a note):\n");
	for (size_t i = 0; i < N_COMBOS; i++)
		fprintf(f, "  %-8s %s\n", combos[i].refused ? "refused" : "noted", combos[i].what);
}

void bt_option_combos_list(FILE *f)
{
	for (size_t i = 0; i < N_COMBOS; i++)
		fprintf(f, "%s\t%s\t%s\t%s\t%s\n", combos[i].refused ? "refused" : "noted", combos[i].what,
			combos[i].example, combos[i].example_config ? combos[i].example_config : "-",
			combos[i].reason);
}
