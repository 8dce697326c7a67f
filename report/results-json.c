/* SPDX-License-Identifier: MIT */
/*
 * The results document as JSON: one walk over struct bt_results, in the
 * order the document has always had (format, baretop, time, platform, cpu,
 * pmu, run, fault_guard, result). The key names and what each holds are
 * read by tests/qemu/check-*.py, `baretop-host counts` and people.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "arch/arch.h"
#include "base/json-write.h"
#include "pmu/counter-health.h"
#include "pmu/cpu-detect.h"
#include "pmu/pmu-caps.h"
#include "firmware/run-id.h"
#include "report/consistency.h"
#include "report/machine.h"
#include "report/results.h"
#include "report/results-boot.h"
#include "report/tree.h"

static void json_opt_str(struct bt_jw *j, const char *key, const char *v)
{
	bt_jw_str(j, key, v && *v ? v : NULL);
}

/* The platform, cpu and pmu sections: what detection found. */
static void detect_json(struct bt_jw *j, const struct bt_platform_facts *p,
			const struct bt_cpu_info *ci, const struct bt_cpu_census *cs,
			const char *whose)
{
	const struct bt_pmu_caps *pmu = &ci->pmu;
	char buf[32];
	uint32_t tpc;

	bt_jw_object(j, "platform");
	bt_jw_str(j, "name", p->name);
	if (p->uefi_revision) {
		bt_uefi_revision_str(p->uefi_revision, buf, sizeof(buf));
		bt_jw_str(j, "uefi_revision", buf);
	} else {
		bt_jw_null(j, "uefi_revision");
	}
	json_opt_str(j, "firmware_vendor", p->firmware_vendor);
	bt_jw_hex(j, "firmware_revision", p->firmware_revision);
	json_opt_str(j, "program_path", p->program_path);
	bt_jw_str(j, "arch_backend", p->arch_backend);
	bt_jw_end(j);

	bt_jw_object(j, "cpu");
	if (whose)
		bt_jw_str(j, "whose", whose);
	bt_jw_str(j, "vendor", ci->vendor_str);
	json_opt_str(j, "brand", ci->brand);
	bt_jw_hex(j, "signature", ci->signature);
	bt_jw_u64(j, "family", ci->family);
	bt_jw_hex(j, "family_hex", ci->family);
	bt_jw_u64(j, "model", ci->model);
	bt_jw_hex(j, "model_hex", ci->model);
	bt_jw_u64(j, "stepping", ci->stepping);
	if (ci->microcode_valid)
		bt_jw_hex(j, "microcode", ci->microcode);
	else
		bt_jw_null(j, "microcode");
	json_opt_str(j, "microcode_note", ci->microcode_note);
	bt_jw_bool(j, "hypervisor", ci->hypervisor);
	json_opt_str(j, "hypervisor_vendor", ci->hypervisor_vendor);
	if (cs->total) {
		bt_jw_u64(j, "logical_cpus", cs->total);
		bt_jw_u64(j, "logical_cpus_enabled", cs->enabled);
		if (cs->packages)
			bt_jw_u64(j, "packages", cs->packages);
		else
			bt_jw_null(j, "packages");
	} else {
		bt_jw_null(j, "logical_cpus");
		bt_jw_str(j, "logical_cpus_note", cs->note);
	}
	tpc = cs->threads_per_core ? cs->threads_per_core : ci->threads_per_core;
	bt_jw_u64(j, "threads_per_core", tpc);
	bt_jw_bool(j, "smt", tpc > 1);
	bt_jw_bool(j, "hybrid", ci->hybrid);
	json_opt_str(j, "core_type", bt_core_type_name(ci->core_type));
	if (ci->hybrid)
		bt_jw_hex(j, "native_model_id", ci->native_model_id);
	if (ci->tsc_hz)
		bt_jw_u64(j, "tsc_hz", ci->tsc_hz);
	else
		bt_jw_null(j, "tsc_hz");
	bt_jw_str(j, "tsc_source", bt_tsc_source_name(ci->tsc_source));
	bt_jw_bool(j, "invariant_tsc", ci->invariant_tsc);
	bt_jw_bool(j, "aperf_mperf", ci->aperf_mperf);
	bt_jw_bool(j, "avx", ci->avx);
	bt_jw_bool(j, "avx2", ci->avx2);
	bt_jw_bool(j, "avx512f", ci->avx512f);
	bt_jw_end(j);

	bt_jw_object(j, "pmu");
	bt_jw_bool(j, "present", pmu->kind != BT_PMU_NONE);
	bt_jw_str(j, "kind", bt_pmu_kind_name(pmu->kind));
	if (pmu->kind == BT_PMU_NONE) {
		bt_jw_str(j, "reason", pmu->absent_reason);
	} else {
		bt_jw_u64(j, "general_counters", pmu->num_gp);
		bt_jw_u64(j, "general_width", pmu->gp_width);
	}
	if (ci->vendor == BT_VENDOR_INTEL) {
		bt_jw_u64(j, "arch_perfmon_version", pmu->version);
		if (pmu->kind != BT_PMU_NONE) {
			bt_jw_u64(j, "fixed_counters", pmu->num_fixed);
			bt_jw_hex(j, "fixed_mask", pmu->fixed_mask);
			bt_jw_u64(j, "fixed_width", pmu->fixed_width);
			bt_jw_hex(j, "arch_events_unavailable", pmu->arch_events_na);
			bt_jw_bool(j, "any_thread_deprecated", pmu->any_thread_deprecated);
			if (pmu->has_perf_capabilities)
				bt_jw_hex(j, "perf_capabilities", pmu->perf_capabilities);
			else
				bt_jw_null(j, "perf_capabilities");
			bt_jw_bool(j, "full_width_write", pmu->full_width_write);
			bt_jw_bool(j, "perf_metrics", pmu->perf_metrics);
			char notes[8][200];
			unsigned n = bt_pmu_caps_notes(pmu, notes, 8);
			bt_jw_array(j, "corrections");
			for (unsigned i = 0; i < n; i++)
				bt_jw_str(j, NULL, notes[i]);
			bt_jw_end(j);
		}
	} else if (ci->vendor == BT_VENDOR_AMD) {
		bt_jw_bool(j, "core_extension", pmu->amd_core_ext);
		bt_jw_bool(j, "perfmon_v2", pmu->amd_perfmon_v2);
	}
	bt_jw_end(j);
}

/* The counter health check before the first counted workload
 * (pmu/counter-health.h): every counter with its count and verdict, and the
 * general counters left out of the plans. */
static void health_counter(struct bt_jw *j, const char *name, uint64_t count, bool fail,
			   const char *why)
{
	bt_jw_object(j, NULL);
	bt_jw_str(j, "counter", name);
	bt_jw_u64(j, "count", count);
	bt_jw_str(j, "verdict", fail ? "FAIL" : "PASS");
	if (fail)
		bt_jw_str(j, "why", why);
	bt_jw_end(j);
}

static void health_json(struct bt_jw *j, const char *key, const struct bt_counter_health *h,
			uint64_t tsc_hz)
{
	char name[24];

	bt_jw_object(j, key);
	bt_jw_u64(j, "cpu", h->cpu);
	if (h->elapsed_ticks) {
		bt_jw_u64(j, "elapsed_tsc_ticks", h->elapsed_ticks);
		if (tsc_hz)
			bt_jw_double(j, "elapsed_ms", bt_ticks_ms(tsc_hz, h->elapsed_ticks));
	}
	if (h->state != BT_HEALTH_RAN) {
		bt_jw_str(j, "verdict", "NOT RUN");
		bt_jw_str(j, "why", h->why);
		bt_jw_end(j);
		return;
	}
	bool fail = h->gp_fail || bt_counter_health_fixed_failed(h);
	bt_jw_str(j, "verdict", fail ? "FAIL" : "PASS");
	bt_jw_str(j, "event", "instructions retired (0xC0; fixed counter 0: INST_RETIRED.ANY)");
	bt_jw_str(j, "kernel", h->kernel);
	bt_jw_u64(j, "n", h->n);
	bt_jw_u64(j, "declared_instructions", h->declared);
	bt_jw_u64(j, "runs", h->runs);
	bt_jw_double(j, "tolerance", h->tolerance_ppm / 1e6);
	bt_jw_u64(j, "consensus", h->consensus);
	if (h->why[0])
		bt_jw_str(j, "why", h->why);
	bt_jw_array(j, "counters");
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(h->gp_mask & (1u << i)))
			continue;
		snprintf(name, sizeof(name), "general %u", i);
		health_counter(j, name, h->gp[i], (h->gp_fail >> i) & 1, h->gp_why[i]);
	}
	if (h->has_fixed0)
		health_counter(j, "fixed 0", h->fixed0, h->fixed0_fail, h->fixed0_why);
	bt_jw_end(j);
	if (h->has_fixed1) {
		/* The second window: cycles, fixed counter 1 against its twin. */
		bt_jw_object(j, "cycles");
		bt_jw_u64(j, "general_counter", h->cycles_gp);
		bt_jw_u64(j, "general_count", h->cycles);
		bt_jw_u64(j, "fixed1_count", h->fixed1);
		bt_jw_double(j, "tolerance", BT_HEALTH_CYCLES_TOLERANCE_PPM / 1e6);
		bt_jw_str(j, "verdict", h->fixed1_fail ? "FAIL" : "PASS");
		if (h->fixed1_fail)
			bt_jw_str(j, "why", h->fixed1_why);
		bt_jw_end(j);
	}
	if (h->has_fixed2) {
		bt_jw_object(j, "ref_tsc");
		bt_jw_u64(j, "fixed2_count", h->fixed2);
		bt_jw_u64(j, "tsc_ticks", h->tsc);
		bt_jw_double(j, "tolerance", BT_HEALTH_REF_TSC_TOLERANCE_PPM / 1e6);
		bt_jw_str(j, "verdict", h->fixed2_fail ? "FAIL" : "PASS");
		if (h->fixed2_fail)
			bt_jw_str(j, "why", h->fixed2_why);
		bt_jw_end(j);
	}
	if (h->has_fixed3) {
		bt_jw_object(j, "slots");
		bt_jw_u64(j, "fixed3_count", h->fixed3);
		bt_jw_u64(j, "cycles", h->cycles);
		bt_jw_u64(j, "max_per_cycle", BT_HEALTH_MAX_WIDTH);
		bt_jw_str(j, "verdict", h->fixed3_fail ? "FAIL" : "PASS");
		if (h->fixed3_fail)
			bt_jw_str(j, "why", h->fixed3_why);
		bt_jw_end(j);
	}
	bt_jw_array(j, "left_out_of_plan");
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++)
		if (h->gp_fail & (1u << i))
			bt_jw_u64(j, NULL, i);
	bt_jw_end(j);
	bt_jw_end(j);
}

/* How the run counts: the model and the PMU, once per run. */
static void count_setup_json(struct bt_jw *j, const struct bt_count_setup *c)
{
	bt_jw_object(j, "counting");
	bt_jw_str(j, "model", c->model_id);
	bt_jw_str(j, "uarch", c->uarch);
	bt_jw_str(j, "model_source", c->model_source);
	bt_jw_str(j, "model_chosen", c->how);
	bt_jw_bool(j, "simulated", c->simulated);
	bt_jw_str(j, "pmu", c->pmu);
	if (c->simulated)
		bt_jw_str(j, "simulated_counts", c->source_label);
	if (c->counted_by && c->counted_by[0])
		bt_jw_str(j, "counted_by", c->counted_by);
	bt_jw_u64(j, "general_counters", c->general_counters);
	bt_jw_hex(j, "fixed_mask", c->fixed_mask);
	bt_jw_bool(j, "perf_metrics", c->perf_metrics);
	bt_jw_str(j, "nodes", c->level ? "level" : "drilldown");
	if (c->level)
		bt_jw_u64(j, "level", c->level);
	bt_jw_u64(j, "warmups", c->warmups);
	bt_jw_u64(j, "reps", c->reps);
	bt_jw_u64(j, "calibration_runs", c->calibration_runs);
	bt_jw_double(j, "tolerance", c->tolerance);
	if (c->max_window_ms > 0)
		bt_jw_double(j, "max_window_ms", c->max_window_ms);
	else
		bt_jw_null(j, "max_window_ms");
	bt_jw_u64(j, "max_retries", c->max_retries);
	bt_jw_array(j, "notes");
	for (int k = 0; k < c->n_notes; k++)
		bt_jw_str(j, NULL, c->notes[k]);
	bt_jw_end(j);
	if (c->health)
		health_json(j, "counter_health", c->health, 0);
	bt_jw_end(j);
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
	/* every input, each with its value and where it came from (format 3;
	 * format 2 had {EVENT: cycles} for those with a value) */
	bt_jw_object(j, "retire_latency");
	for (unsigned i = 0; i < nrl; i++) {
		const struct bt_rl_stat *s = t->rl ? &t->rl[i] : NULL;
		bool given = c->retire_latency_source[i] != BT_RL_NONE;

		bt_jw_object_styled(j, bt_model_retire_latency_name(t->model, i), BT_JW_INLINE);
		bt_jw_double(j, "mean", given ? c->retire_latency[i] : NAN);
		bt_jw_double(j, "median", s ? s->median : NAN);
		bt_jw_double(j, "min", s ? s->min : NAN);
		bt_jw_double(j, "max", s ? s->max : NAN);
		if (s && s->samples >= 0)
			bt_jw_i64(j, "samples", s->samples);
		else
			bt_jw_null(j, "samples");
		if (s && s->saturated >= 0)
			bt_jw_i64(j, "saturated", s->saturated);
		else
			bt_jw_null(j, "saturated");
		bt_jw_str(j, "source", bt_rl_source_name((enum bt_rl_source)c->retire_latency_source[i]));
		/* the vendor's figure beside a measured one (not used: measured wins) */
		double pub = bt_model_retire_latency_published(t->model, i);
		if (!isnan(pub) && c->retire_latency_source[i] == BT_RL_MEASURED)
			bt_jw_double(j, "published", pub);
		if (s && s->detail)
			bt_jw_str(j, "detail", s->detail);
		if (s && s->budget_skipped)
			bt_jw_str(j, "not_sampled", "budget");
		bt_jw_end(j);
		n_default += given && c->retire_latency_default[i];
	}
	bt_jw_end(j);
	bt_jw_array(j, "retire_latency_defaults");
	for (unsigned i = 0; n_default && i < nrl; i++)
		if (c->retire_latency[i] >= 0 && c->retire_latency_default[i])
			bt_jw_str(j, NULL, bt_model_retire_latency_name(t->model, i));
	bt_jw_end(j);
}

/* The SMT sibling probe of every run pooled (pmu/sibling.h): the raw sums
 * and the reference clock REF_XCLK was derived at, so that the fraction
 * the tree's formulas were chosen by can be computed again from them. */
static void sibling_json(struct bt_jw *j, const struct bt_tree_outcome *t)
{
	const struct bt_sibling_sums *s = &t->sibling;
	const struct bt_xclk_ratio *x = &t->xclk;

	bt_jw_object(j, "smt_probe");
	bt_jw_u64(j, "one_thread_active", s->ota);
	bt_jw_u64(j, "ref_tsc", s->ref_tsc);
	bt_jw_u64(j, "ref_xclk", s->xclk);
	bt_jw_double(j, "tsc_per_xclk", x->used);
	if (x->from)
		bt_jw_str(j, "tsc_per_xclk_from", x->from);
	else
		bt_jw_null(j, "tsc_per_xclk_from");
	bt_jw_double(j, "tsc_per_xclk_enumerated", x->enumerated);
	if (x->enumerated_from)
		bt_jw_str(j, "enumerated_from", x->enumerated_from);
	bt_jw_double(j, "tsc_per_xclk_counted", x->counted);
	bt_jw_u64(j, "check_ref_tsc", s->check_tsc);
	bt_jw_u64(j, "check_ref_xclk", s->check_xclk);
	bt_jw_bool(j, "ratio_disagrees", x->disagrees);
	bt_jw_double(j, "sibling_active", bt_sibling_active(s, x->used));
	bt_jw_end(j);
}

/* A counted workload: every step and kept run, the counts, the other
 * inputs, and the tree as the standalone tree report writes it. */
static void counted_json(struct bt_jw *j, const struct bt_tree_outcome *t)
{
	bt_jw_object(j, "counted");
	bt_jw_bool(j, "simulated", t->simulated);
	bt_jw_str(j, "input", t->input_label);
	/* The clock of the TSC ticks below; simulated: the simulated CPU's
	 * stated clock, and times from it are simulated times. */
	if (t->tsc_hz)
		bt_jw_u64(j, "tsc_hz", t->tsc_hz);
	else
		bt_jw_null(j, "tsc_hz");
	bt_jw_str(j, "time", t->simulated ? "simulated: the workload model's cycles at the "
					    "simulated clock (tsc_hz), not a wall time"
					  : "measured: TSC ticks of the CPU");
	bt_jw_u64(j, "groups", (uint64_t)t->total_groups);
	if (t->probed)
		sibling_json(j, t);
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
		bt_jw_i64(j, "groups_skipped", st->groups_skipped);
		bt_jw_u64(j, "windows_per_run", st->windows_per_run);
		bt_jw_bool(j, "over_window_cap_whole", st->over_cap_whole);
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
		/* Not for simulated PMUs (console.c, print_freq): their per-run
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
			if (run->has_sibling)
				bt_jw_u64(j, "one_thread_active", run->one_thread_active);
			if (run->has_ref_tsc)
				bt_jw_u64(j, "ref_tsc", run->ref_tsc);
			if (run->has_xclk)
				bt_jw_u64(j, "ref_xclk", run->ref_xclk);
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
	/* Timed PEBS: the samplings (one run of the workload each), those the
	 * budget left out, and the
	 * wall times (the budget's clock: real time also under --sim). */
	bt_jw_object(j, "timed_pebs");
	bt_jw_i64(j, "samplings", t->pebs_windows_run);
	bt_jw_i64(j, "samplings_skipped_budget", t->budget_pebs_skipped);
	bt_jw_u64(j, "windows_per_sampling", t->pebs_windows_per_run ? t->pebs_windows_per_run : 1);
	bt_jw_double(j, "wall_s", t->pebs_wall_s);
	bt_jw_double(j, "groups_wall_s", t->groups_wall_s);
	bt_jw_double(j, "measure_end_s", t->measure_end_s);
	bt_jw_end(j);
	if (t->budget_groups_skipped || t->budget_pebs_skipped) {
		/* The time budget left counter groups or timed-PEBS windows out:
		 * what is missing, and why. */
		bt_jw_object(j, "partial");
		bt_jw_str(j, "reason", "budget");
		bt_jw_i64(j, "groups_skipped", t->budget_groups_skipped);
		bt_jw_str(j, "events_not_counted", t->budget_events);
		bt_jw_i64(j, "pebs_samplings_skipped", t->budget_pebs_skipped);
		bt_jw_str(j, "retire_latencies_not_measured", t->budget_latencies);
		bt_jw_str(j, "nodes_not_measured", t->budget_nodes);
		bt_jw_end(j);
	} else {
		bt_jw_null(j, "partial");
	}
	bt_jw_array(j, "notes");
	for (int k = 0; k < t->n_notes; k++)
		bt_jw_str(j, NULL, t->notes[k]);
	bt_jw_end(j);
	{
		struct bt_report_opts o = { .input_label = t->input_label, .targeted = t->targeted,
					    .untargeted_why = t->untargeted_why,
					    .untrusted = t->untrusted };

		bt_report_json_write(j, "tree", t->model, t->result, &o);
	}
	if (t->consistency)
		bt_report_consistency_json(j, "consistency", t->consistency, t->result);
	bt_jw_end(j);
}

/* The workload phase, and every workload with its outcome. */
static void run_json(struct bt_jw *j, const struct bt_run_record *r)
{
	static const char *const state_names[] = { "ran", "skipped", "failed" };

	bt_jw_object(j, "run");
	bt_jw_bool(j, "counted", r->can_count);
	if (r->count)
		count_setup_json(j, r->count);
	bt_jw_str(j, "not_counted_reason", r->can_count ? NULL : r->no_count_reason);
	bt_jw_u64(j, "warmups", r->warmups);
	bt_jw_u64(j, "reps", r->reps);
	bt_jw_bool(j, "quick_preset", r->quick_preset);
	bt_jw_str(j, "vector_state", r->vector_state);
	bt_jw_hex(j, "xcr0", r->xcr0);
	bt_jw_array(j, "workloads");
	for (int i = 0; i < r->n_outcomes; i++) {
		const struct bt_outcome *o = &r->outcomes[i];

		bt_jw_object(j, NULL);
		bt_jw_str(j, "name", o->name);
		bt_jw_str(j, "params", o->params);
		bt_jw_u64(j, "cpu", o->cpu);
		if (o->core_type)
			bt_jw_hex(j, "core_type", o->core_type);
		bt_jw_u64(j, "copies", o->copies);
		if (o->partner_cpu >= 0)
			bt_jw_u64(j, "partner_cpu", (uint64_t)o->partner_cpu);
		if (o->n_copy_cpus) {
			bt_jw_array(j, "copy_cpus");
			for (unsigned k = 0; k < o->n_copy_cpus; k++)
				bt_jw_u64(j, NULL, o->copy_cpus[k]);
			bt_jw_end(j);
		}
		bt_jw_str(j, "placement", o->placement[0] ? o->placement : NULL);
		if (o->perturbed) {
			bt_jw_object(j, "perturbed");
			bt_jw_str(j, "reason", o->placement);
			bt_jw_end(j);
		} else {
			bt_jw_null(j, "perturbed");
		}
		if (o->health)
			bt_jw_u64(j, "counter_health_cpu", o->health->cpu);
		if (o->ap_jobs) {
			bt_jw_object(j, "ap_stack");
			bt_jw_u64(j, "jobs", o->ap_jobs);
			bt_jw_u64(j, "used_bytes", o->ap_stack_used);
			bt_jw_u64(j, "size_bytes", o->ap_stack_size);
			bt_jw_bool(j, "overflow", o->ap_stack_overflow);
			bt_jw_u64(j, "firmware_used_bytes", o->fw_stack_used);
			bt_jw_end(j);
		}
		bt_jw_str(j, "state", state_names[o->state]);
		bt_jw_str(j, "reason", o->reason[0] ? o->reason : NULL);
		bt_jw_str(j, "note", o->note[0] ? o->note : NULL);
		if (o->has_checksum)
			bt_jw_hex(j, "checksum", o->checksum);
		else
			bt_jw_null(j, "checksum");
		if (o->timed) {
			bt_jw_object(j, "time");
			bt_jw_u64(j, "runs", o->timing.runs);
			bt_jw_u64(j, "tsc_min", o->timing.min);
			bt_jw_u64(j, "tsc_median", o->timing.median);
			bt_jw_u64(j, "tsc_max", o->timing.max);
			if (r->tsc_hz) {
				bt_jw_double(j, "ms_min", bt_ticks_ms(r->tsc_hz, o->timing.min));
				bt_jw_double(j, "ms_median", bt_ticks_ms(r->tsc_hz, o->timing.median));
				bt_jw_double(j, "ms_max", bt_ticks_ms(r->tsc_hz, o->timing.max));
			}
			bt_jw_end(j);
		}
		if (o->counted)
			counted_json(j, o->counted);
		bt_jw_str(j, "not_counted", o->counted || o->state != BT_OUTCOME_RAN ? NULL
										     : o->not_counted);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	/* Each measured CPU's own check, once, in the order run. */
	bt_jw_array(j, "counter_health_by_cpu");
	for (int i = 0; i < r->n_outcomes; i++) {
		const struct bt_counter_health *h = r->outcomes[i].health;
		bool seen = !h;
		for (int k = 0; k < i && !seen; k++)
			seen = r->outcomes[k].health == h;
		if (!seen)
			health_json(j, NULL, h, r->tsc_hz);
	}
	bt_jw_end(j);
	bt_jw_end(j);
}

static void selftest_json(struct bt_jw *j, const char *key, const struct bt_fault_selftest *t)
{
	bt_jw_array(j, key);
	for (int i = 0; i < t->n; i++) {
		const struct bt_fault_probe *pr = &t->probe[i];

		bt_jw_object(j, NULL);
		bt_jw_str(j, "instruction", pr->what);
		bt_jw_bool(j, "ran", pr->ran);
		bt_jw_bool(j, "faulted", pr->faulted);
		if (pr->faulted)
			bt_jw_str(j, "vector", bt_fault_name(pr->vector));
		else
			bt_jw_null(j, "vector");
		bt_jw_str(j, "note", pr->note);
		bt_jw_end(j);
	}
	bt_jw_end(j);
}

static bt_status render(const struct bt_results *res, unsigned seq, struct bt_strbuf *out)
{
	struct bt_jw j;
	struct bt_machine none;
	const struct bt_machine *machine = res->machine;

	if (!machine) {
		bt_machine_absent(&none, "not gathered");
		machine = &none;
	}

	bt_jw_init(&j, out);
	bt_jw_object(&j, NULL);
	bt_jw_str(&j, "format", "baretop-results");
	bt_jw_u64(&j, "format_version", BT_RESULTS_FORMAT_VERSION);
	bt_jw_u64(&j, "sequence", seq);
	bt_jw_bool(&j, "simulated", res->simulated);
	{
		char id[BT_RUN_ID_MAX];

		bt_run_id(&machine->smbios, seq, res->firmware_clock, id);
		bt_jw_str(&j, "run_id", id);
	}

	bt_jw_object(&j, "baretop");
	bt_jw_str(&j, "version", res->version);
	bt_jw_array(&j, "command_line");
	for (int i = 0; i < res->argc; i++)
		bt_jw_str(&j, NULL, res->argv[i]);
	bt_jw_end(&j);
	bt_jw_str(&j, "config_file", res->config_file);
	if (res->config_file) {
		bt_jw_array(&j, "config_options");
		for (int i = 0; i < res->config_argc; i++)
			bt_jw_str(&j, NULL, res->config_argv[i]);
		bt_jw_end(&j);
	}
	bt_jw_end(&j);

	bt_jw_object(&j, "time");
	bt_jw_str(&j, "firmware_clock", res->firmware_clock);
	bt_jw_str(&j, "note", "the firmware real-time clock; it carries a UTC offset only "
				"when the firmware sets one");
	bt_jw_end(&j);

	detect_json(&j, res->platform, res->cpu, res->census, res->cpu_whose);
	bt_machine_json(&j, machine);
	if (res->run)
		run_json(&j, res->run);

	bt_jw_object(&j, "fault_guard");
	bt_jw_bool(&j, "installed", res->platform->fault_guard_installed);
	bt_jw_str(&j, "detail", res->platform->fault_guard_detail);
	if (res->fault_guard_check)
		bt_jw_str(&j, "check", bt_fault_name(res->fault_guard_check));
	else
		bt_jw_null(&j, "check");
	if (res->selftest)
		selftest_json(&j, "selftest", res->selftest);
	bt_jw_array(&j, "ap_faults");
	for (unsigned i = 0; i < res->n_ap_faults && i < BT_MAX_AP_FAULT_RECORDS; i++) {
		const struct bt_ap_fault_record *f = &res->ap_faults[i];
		bt_jw_object(&j, NULL);
		bt_jw_u64(&j, "cpu", f->cpu);
		bt_jw_u64(&j, "vector", f->vector);
		bt_jw_str(&j, "exception", bt_fault_name(f->vector));
		bt_jw_hex(&j, "rip", f->rip);
		if (f->image_offset)
			bt_jw_hex(&j, "image_offset", f->image_offset);
		else
			bt_jw_null(&j, "image_offset");
		bt_jw_bool(&j, "recovered", f->recovered);
		bt_jw_bool(&j, "cleanup_faulted", f->cleanup_faulted);
		bt_jw_str(&j, "what", f->what);
		bt_jw_end(&j);
	}
	bt_jw_end(&j);
	if (res->n_ap_faults > BT_MAX_AP_FAULT_RECORDS)
		bt_jw_u64(&j, "ap_faults_not_listed", res->n_ap_faults - BT_MAX_AP_FAULT_RECORDS);
	bt_jw_end(&j);

	if (res->validation_json)
		res->validation_json(&j, res->validation_ctx);
	if (res->atlas_json)
		res->atlas_json(&j, res->atlas_ctx);

	bt_jw_object(&j, "result");
	bt_jw_i64(&j, "exit_status", res->exit_status);
	bt_jw_array(&j, "messages");
	for (int i = 0; i < res->n_messages; i++)
		bt_jw_str(&j, NULL, res->messages[i]);
	bt_jw_end(&j);
	bt_jw_object(&j, "results_volume");
	if (res->have_volume_free)
		bt_jw_u64(&j, "free_bytes", res->volume_free_bytes);
	else
		bt_jw_null(&j, "free_bytes");
	if (res->keep_results)
		bt_jw_u64(&j, "keep_results", res->keep_results);
	else
		bt_jw_null(&j, "keep_results");
	bt_jw_u64(&j, "min_free_bytes", res->min_free_bytes);
	bt_jw_end(&j);
	if (res->boot)
		bt_results_boot_json(&j, res->boot);
	bt_jw_end(&j);

	bt_jw_end(&j);
	return j.overflow ? BT_ERR_INTERNAL : BT_OK;
}

const struct bt_results_format bt_results_json = { .ext = "json", .render = render };
