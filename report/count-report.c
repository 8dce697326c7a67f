/* SPDX-License-Identifier: MIT */
/* Console and results-file output of the counted part of a run. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app/count-internal.h"
#include "report/tree.h"
#include "pmu/cpu-detect.h"

void bt_count_describe_build(struct bt_count_ctx *c)
{
	snprintf(c->describe, sizeof(c->describe), "model %s (%s; %s), %s%s PMU: %u general "
		 "counters, fixed mask 0x%x%s",
		 c->def->id, c->def->uarch, c->how, c->simulated ? "SIMULATED " : "",
		 c->simulated ? c->simcfg.brand : bt_pmu_kind_name(c->caps.kind),
		 (unsigned)__builtin_popcount(c->caps.gp_mask), (unsigned)c->caps.fixed_mask,
		 c->caps.perf_metrics ? ", PERF_METRICS" : "");
}

const char *bt_count_describe(const struct bt_count_ctx *c)
{
	return c->describe;
}

void bt_count_print_header(FILE *f, const struct bt_count_ctx *c)
{
	fprintf(f, "  counting: %s\n", c->describe);
	if (c->simulated)
		fprintf(f, "  SIMULATED: every count below comes from the simulated PMU (%s), not "
			   "from hardware\n", c->source_label);
	for (int k = 0; k < c->n_notes; k++)
		fprintf(f, "  note: %s\n", c->notes[k]);
	fprintf(f, "  nodes: %s; %u warm-up + %u runs per counter group, %s\n",
		c->level ? "every node to the given level" : "drill-down (level 1, then the "
		"children of flagged nodes)", c->mopts.warmups, c->mopts.reps,
		c->exec_mode ? "interrupts enabled in the window (an EFI application may wait "
			       "for timer events; the firmware's work in StartImage counts too)"
			     : "interrupts masked");
}

void bt_count_json(struct bt_jw *j, const struct bt_count_ctx *c)
{
	bt_jw_object(j, "counting");
	bt_jw_str(j, "model", c->def->id);
	bt_jw_str(j, "uarch", c->def->uarch);
	bt_jw_str(j, "model_source", c->def->source);
	bt_jw_str(j, "model_chosen", c->how);
	bt_jw_bool(j, "simulated", c->simulated);
	bt_jw_str(j, "pmu", c->simulated ? c->simcfg.brand : bt_pmu_kind_name(c->caps.kind));
	if (c->simulated)
		bt_jw_str(j, "simulated_counts", c->source_label);
	bt_jw_u64(j, "general_counters", (uint64_t)__builtin_popcount(c->caps.gp_mask));
	bt_jw_hex(j, "fixed_mask", c->caps.fixed_mask);
	bt_jw_bool(j, "perf_metrics", c->caps.perf_metrics);
	bt_jw_str(j, "nodes", c->level ? "level" : "drilldown");
	if (c->level)
		bt_jw_u64(j, "level", c->level);
	bt_jw_u64(j, "warmups", c->mopts.warmups);
	bt_jw_u64(j, "reps", c->mopts.reps);
	bt_jw_u64(j, "calibration_runs", c->mopts.calib_runs);
	bt_jw_double(j, "tolerance", c->mopts.tolerance);
	bt_jw_u64(j, "max_retries", c->mopts.max_retries);
	bt_jw_array(j, "notes");
	for (int k = 0; k < c->n_notes; k++)
		bt_jw_str(j, NULL, c->notes[k]);
	bt_jw_end(j);
	bt_jw_end(j);
}

/* The step's clock from APERF/MPERF. Not for simulated PMUs: their APERF
 * follows the count file's cycles and their TSC a fixed window length, so
 * the ratio says nothing about a clock. */
static void print_freq(FILE *f, const struct bt_tree_outcome *t, const struct bt_tree_step *st)
{
	const struct bt_run_freq *q = &st->freq;

	if (t->simulated || !q->n_runs)
		return;
	fprintf(f, "      clock: APERF/MPERF %.3f (%.3f..%.3f)", q->ratio_median, q->ratio_min,
		q->ratio_max);
	if (!isnan(q->hz_median))
		fprintf(f, ", effective %.0f MHz", q->hz_median / 1e6);
	if (!isnan(q->c0_median))
		fprintf(f, ", C0 %.1f%% of the window", 100 * q->c0_median);
	fprintf(f, "\n");
}

void bt_tree_outcome_print(FILE *f, const struct bt_tree_outcome *t, bool verbose)
{
	struct bt_report_opts o = {
		.max_level = 0,
		.flagged_only = !verbose,
		.input_label = t->input_label,
		.targeted = t->targeted,
		.untargeted_why = t->untargeted_why,
	};

	for (int s = 0; s < t->n_steps; s++) {
		const struct bt_tree_step *st = &t->steps[s];

		fprintf(f, "    level %u: %u nodes, %d new events in %d group(s) (lower bound %d)",
			st->level, st->n_nodes, st->n_events, st->groups, st->bound);
		if (st->runs && st->has_inst)
			fprintf(f, ", %d runs, instructions %" PRIu64 " (spread %" PRIu64 "..%" PRIu64
				   ")%s", st->runs, st->inst_median, st->inst_min, st->inst_max,
				st->retried ? ", retried" : "");
		else if (st->runs)
			fprintf(f, ", %d runs (no fixed instruction counter to cross-check them)%s",
				st->runs, st->retried ? ", retried" : "");
		fprintf(f, "\n");
		print_freq(f, t, st);
	}
	if (t->n_steps && t->steps[0].runs) {
		int frozen = 0;

		for (int s = 0; s < t->n_steps; s++)
			frozen += t->steps[s].smm_frozen;
		if (frozen == t->n_steps)
			fprintf(f, "    SMM: counters frozen while an SMI handler runs "
				   "(IA32_DEBUGCTL.FREEZE_WHILE_SMM); run times still include it\n");
		else if (frozen)
			fprintf(f, "    SMM: counters frozen in %d of %d steps only\n", frozen,
				t->n_steps);
	}
	bt_report_text(f, t->model, t->result, &o);
	for (int k = 0; k < t->n_notes; k++)
		fprintf(f, "    note: %s\n", t->notes[k]);
}

/* The other inputs the tree was evaluated with, so that "events" plus
 * these reproduce it exactly (baretop-host counts writes them to a count
 * file): the constants that were set, and the retire latencies that have a
 * value, those from the vendor's published defaults named as such. */
static void inputs_json(struct bt_jw *j, const struct bt_tree_outcome *t)
{
	const struct bt_counts *c = t->counts;
	unsigned nrl = bt_model_retire_latency_count(t->model), n_default = 0;

	bt_jw_object(j, "constants");
	for (int k = 0; k < BT_CONST_COUNT; k++)
		if (!isnan(c->constants[k]))
			bt_jw_double(j, bt_constant_name((enum bt_constant)k), c->constants[k]);
	bt_jw_end(j);
	bt_jw_object(j, "retire_latency");
	for (unsigned i = 0; i < nrl; i++) {
		if (c->retire_latency[i] < 0)
			continue; /* not measured */
		bt_jw_double(j, bt_model_retire_latency_name(t->model, i), c->retire_latency[i]);
		n_default += c->retire_latency_default[i];
	}
	bt_jw_end(j);
	bt_jw_array(j, "retire_latency_defaults");
	for (unsigned i = 0; n_default && i < nrl; i++)
		if (c->retire_latency[i] >= 0 && c->retire_latency_default[i])
			bt_jw_str(j, NULL, bt_model_retire_latency_name(t->model, i));
	bt_jw_end(j);
}

void bt_tree_outcome_json(struct bt_jw *j, const struct bt_tree_outcome *t)
{
	bt_jw_object(j, "counted");
	bt_jw_bool(j, "simulated", t->simulated);
	bt_jw_str(j, "input", t->input_label);
	bt_jw_u64(j, "groups", (uint64_t)t->total_groups);
	bt_jw_array(j, "steps");
	for (int s = 0; s < t->n_steps; s++) {
		const struct bt_tree_step *st = &t->steps[s];

		bt_jw_object(j, NULL);
		bt_jw_u64(j, "level", st->level);
		bt_jw_u64(j, "nodes", st->n_nodes);
		bt_jw_i64(j, "events", st->n_events);
		bt_jw_i64(j, "groups", st->groups);
		bt_jw_i64(j, "lower_bound", st->bound);
		bt_jw_i64(j, "unmeasurable", st->unmeasurable);
		bt_jw_i64(j, "runs", st->runs);
		bt_jw_i64(j, "retried", st->retried);
		bt_jw_i64(j, "flagged", st->flagged);
		bt_jw_bool(j, "smm_frozen", st->smm_frozen);
		bt_jw_u64(j, "instructions_median", st->inst_median);
		bt_jw_u64(j, "instructions_min", st->inst_min);
		bt_jw_u64(j, "instructions_max", st->inst_max);
		bt_jw_u64(j, "cycles_median", st->cycles_median);
		bt_jw_u64(j, "cycles_min", st->cycles_min);
		bt_jw_u64(j, "cycles_max", st->cycles_max);
		bt_jw_u64(j, "tsc_median", st->tsc_median);
		/* Not for simulated PMUs (see print_freq): their per-run
		 * APERF/MPERF stay in run_log as counted. */
		if (st->freq.n_runs && !t->simulated) {
			bt_jw_object(j, "aperf_mperf");
			bt_jw_i64(j, "runs", st->freq.n_runs);
			bt_jw_double(j, "ratio_median", st->freq.ratio_median);
			bt_jw_double(j, "ratio_min", st->freq.ratio_min);
			bt_jw_double(j, "ratio_max", st->freq.ratio_max);
			bt_jw_double(j, "effective_hz_median", st->freq.hz_median);
			bt_jw_double(j, "c0_residency_median", st->freq.c0_median);
			bt_jw_str(j, "note", "effective frequency = TSC frequency x APERF/MPERF, "
					     "taking MPERF to tick at the TSC's rate");
			bt_jw_end(j);
		}
		bt_jw_array(j, "run_log");
		for (int k = 0; k < st->n_run_log; k++) {
			const struct bt_measure_run *run = &st->run_log[k];

			bt_jw_object(j, NULL);
			bt_jw_i64(j, "group", run->group);
			bt_jw_u64(j, "rep", run->rep);
			bt_jw_u64(j, "attempts", run->attempts);
			if (run->why[0])
				bt_jw_str(j, "retried_because", run->why);
			if (run->flagged)
				bt_jw_bool(j, "still_disagrees", true);
			if (run->has_inst)
				bt_jw_u64(j, "instructions", run->inst);
			if (run->has_cycles)
				bt_jw_u64(j, "cycles", run->cycles);
			bt_jw_u64(j, "tsc", run->tsc);
			if (run->has_aperf_mperf) {
				bt_jw_u64(j, "aperf", run->aperf);
				bt_jw_u64(j, "mperf", run->mperf);
			}
			if (run->has_smi)
				bt_jw_u64(j, "smi", run->smi);
			bt_jw_end(j);
		}
		bt_jw_end(j);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_object(j, "events");
	for (unsigned i = 0; i < bt_model_event_count(t->model); i++) {
		const struct bt_measure_stat *s = &t->stat[i];

		if (!t->counted[i])
			continue;
		bt_jw_object(j, bt_model_event(t->model, i)->name);
		bt_jw_u64(j, "median", s->median);
		bt_jw_u64(j, "min", s->min);
		bt_jw_u64(j, "max", s->max);
		bt_jw_u64(j, "raw_median", s->raw_median);
		bt_jw_u64(j, "overhead", s->overhead);
		bt_jw_i64(j, "group", s->group);
		if (s->clamped)
			bt_jw_bool(j, "clamped_at_zero", true);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	inputs_json(j, t);
	bt_jw_array(j, "notes");
	for (int k = 0; k < t->n_notes; k++)
		bt_jw_str(j, NULL, t->notes[k]);
	bt_jw_end(j);
	{
		struct bt_report_opts o = { .input_label = t->input_label };

		bt_report_json_write(j, "tree", t->model, t->result, &o);
	}
	bt_jw_end(j);
}
