/* SPDX-License-Identifier: MIT */
/*
 * The console report, piece by piece: app/ prints each piece as the run
 * gets there (detection first, each workload as it finishes), so a run
 * that hangs shows how far it got. The results file says the same and
 * more, written at the end from the whole struct bt_results.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "pmu/cpu-detect.h"
#include "pmu/pmu-caps.h"
#include "report/consistency.h"
#include "report/console.h"
#include "report/text-fit.h"
#include "report/tree.h"

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

void bt_report_detect_print(FILE *f, const struct bt_cpu_info *ci, const struct bt_cpu_census *cs,
			    const char *whose)
{
	const struct bt_pmu_caps *pmu = &ci->pmu;

	fprintf(f, "CPU%s%s%s\n", whose ? " (" : "", whose ? whose : "", whose ? ")" : "");
	fprintf(f, "  vendor        %s (%s)\n", ci->vendor_str, bt_vendor_name(ci->vendor));
	fprintf(f, "  brand         %s\n", ci->brand[0] ? ci->brand : "(no brand string)");
	fprintf(f, "  signature     0x%" PRIx32 ": family %" PRIu32 " (0x%" PRIx32 "), model %" PRIu32
		   " (0x%" PRIx32 "), stepping %" PRIu32 "\n",
		ci->signature, ci->family, ci->family, ci->model, ci->model, ci->stepping);
	if (ci->microcode_valid)
		fprintf(f, "  microcode     0x%" PRIx32 "%s%s\n", ci->microcode,
			ci->microcode_note[0] ? ", " : "", ci->microcode_note);
	else
		fprintf(f, "  microcode     unknown: %s\n", ci->microcode_note);
	if (ci->hypervisor)
		fprintf(f, "  hypervisor    yes%s%s%s\n", ci->hypervisor_vendor[0] ? " (" : "",
			ci->hypervisor_vendor, ci->hypervisor_vendor[0] ? ")" : "");
	else
		fprintf(f, "  hypervisor    no\n");
	uint32_t tpc = cs->threads_per_core ? cs->threads_per_core : ci->threads_per_core;
	if (cs->total) {
		fprintf(f, "  logical CPUs  %" PRIu32 " (%" PRIu32 " enabled)", cs->total, cs->enabled);
		if (cs->packages)
			fprintf(f, ", %" PRIu32 " package(s)", cs->packages);
		fprintf(f, ", %" PRIu32 " thread(s) per core: SMT %s\n", tpc, tpc > 1 ? "on" : "off");
	} else
		fprintf(f, "  logical CPUs  unknown: %s\n", cs->note);
	if (ci->hybrid)
		fprintf(f, "  hybrid        yes, this is a%s %s (CPUID.1AH native model 0x%" PRIx32 ")\n",
			ci->core_type == BT_CORE_TYPE_ATOM ? "n" : "",
			bt_core_type_name(ci->core_type) ? bt_core_type_name(ci->core_type)
							 : "core of unknown type",
			ci->native_model_id);
	else
		fprintf(f, "  hybrid        no\n");
	if (ci->tsc_hz)
		fprintf(f, "  TSC           %.3f GHz (%s), invariant %s\n", ci->tsc_hz / 1e9,
			bt_tsc_source_name(ci->tsc_source), yes_no(ci->invariant_tsc));
	else
		fprintf(f, "  TSC           frequency unknown\n");
	fprintf(f, "  vector ISA    AVX %s, AVX2 %s, AVX-512F %s; APERF/MPERF %s\n",
		yes_no(ci->avx), yes_no(ci->avx2), yes_no(ci->avx512f), yes_no(ci->aperf_mperf));

	fprintf(f, "PMU%s%s%s\n", whose ? " (" : "", whose ? whose : "", whose ? ")" : "");
	if (pmu->kind == BT_PMU_NONE) {
		fprintf(f, "  none: %s\n", pmu->absent_reason);
		fprintf(f, "  Counting is not possible here; workloads can still run and be timed.\n");
		return;
	}
	fprintf(f, "  kind          %s", bt_pmu_kind_name(pmu->kind));
	if (pmu->kind == BT_PMU_INTEL_ARCH)
		fprintf(f, " version %u", pmu->version);
	fprintf(f, "\n  general       %u counters, %u bits\n", pmu->num_gp, pmu->gp_width);
	if (pmu->kind == BT_PMU_INTEL_ARCH) {
		fprintf(f, "  fixed         %u counters (mask 0x%" PRIx32 "), %u bits\n",
			pmu->num_fixed, pmu->fixed_mask, pmu->fixed_width);
		if (pmu->has_perf_capabilities)
			fprintf(f, "  capabilities  IA32_PERF_CAPABILITIES 0x%" PRIx64
				   ": full-width writes %s, PERF_METRICS %s\n",
				pmu->perf_capabilities, yes_no(pmu->full_width_write),
				yes_no(pmu->perf_metrics));
		else
			fprintf(f, "  capabilities  no IA32_PERF_CAPABILITIES (CPUID.01H:ECX[15] clear)\n");
		if (pmu->version >= 5)
			fprintf(f, "  AnyThread     %s\n", pmu->any_thread_deprecated
							? "deprecated (CPUID.0AH:EDX[15])" : "supported");
		char notes[8][200];
		unsigned n = bt_pmu_caps_notes(pmu, notes, 8);
		for (unsigned i = 0; i < n; i++)
			fprintf(f, "  correction    %s\n", notes[i]);
	}
}

void bt_report_detect_line(FILE *f, const struct bt_cpu_info *ci)
{
	fprintf(f, "CPU           %s, %s family 0x%x model 0x%x; PMU: %s\n", ci->brand,
		ci->vendor_str, (unsigned)ci->family, (unsigned)ci->model,
		ci->pmu.kind == BT_PMU_NONE ? ci->pmu.absent_reason
					    : bt_pmu_kind_name(ci->pmu.kind));
}

void bt_fault_selftest_print(FILE *f, const struct bt_fault_selftest *t)
{
	fprintf(f, "Fault-guard self-test\n");
	for (int i = 0; i < t->n; i++)
		fprintf(f, "  %-44s %s\n", t->probe[i].what, t->probe[i].note);
}

void bt_count_setup_describe(const struct bt_count_setup *c, char *buf, size_t len)
{
	bool os = c->counted_by && c->counted_by[0];
	snprintf(buf, len, "model %s (%s; %s), %s%s PMU%s: %u general counters, fixed mask 0x%x%s",
		 c->model_id, c->uarch, c->how, c->simulated ? "SIMULATED " : "", c->pmu,
		 os ? " through the operating system's driver" : "",
		 c->general_counters, (unsigned)c->fixed_mask, c->perf_metrics ? ", PERF_METRICS" : "");
}

void bt_count_setup_print(FILE *f, const struct bt_count_setup *c)
{
	char describe[600];

	bt_count_setup_describe(c, describe, sizeof(describe));
	fprintf(f, "  counting: %s\n", describe);
	if (c->simulated)
		fprintf(f, "  SIMULATED: every count below comes from the simulated PMU (%s), not "
			   "from hardware\n", c->source_label);
	if (c->counted_by && c->counted_by[0])
		fprintf(f, "  %s\n", c->counted_by);
	for (int k = 0; k < c->n_notes; k++)
		fprintf(f, "  note: %s\n", c->notes[k]);
	fprintf(f, "  nodes: %s; %u warm-up + %u runs per counter group, %s\n",
		c->level ? "every node to the given level" : "drill-down (level 1, then the "
		"children of flagged nodes)", c->warmups, c->reps,
		c->exec_mode ? "interrupts enabled in the window (an EFI application may wait "
			       "for timer events; the firmware's work in StartImage counts too)"
			     : "interrupts masked");
}

/* The step's clock from APERF/MPERF. Not for simulated PMUs: their APERF
 * follows the count file's cycles and their TSC a fixed window length, so
 * the ratio says nothing about a clock. */

/* Every retire-latency input the tree's formulas use, with its value and
 * source (report/counted.h): one line each, in the model's order. */
static void print_latencies(FILE *f, const struct bt_tree_outcome *t)
{
	unsigned n = bt_model_retire_latency_count(t->model);
	struct bt_strbuf sb = { 0 };

	if (!n || !t->rl)
		return;
	bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ",
		     "retire latencies (cycles; source, in the order tried: measured, file, "
		     "published, the formula's fallback):");
	for (unsigned i = 0; i < n; i++) {
		const struct bt_rl_stat *s = &t->rl[i];
		sb.n = 0;
		bt_sb_printf(&sb, "%s:R ", bt_model_retire_latency_name(t->model, i));
		if (s->source == BT_RL_NONE && s->budget_skipped)
			bt_sb_puts(&sb, "not measured (budget): its timed-PEBS sampling did not fit in "
				   "the time budget (--budget); the formula's fallback, or the node is "
				   "not measured");
		else if (s->source == BT_RL_NONE)
			bt_sb_puts(&sb, "not measured: the formula's fallback, or the node is not measured");
		else
			bt_sb_printf(&sb, "%.2f %s", s->mean, bt_rl_source_name((enum bt_rl_source)s->source));
		double pub = bt_model_retire_latency_published(t->model, i);
		if (s->samples >= 0)
			bt_sb_printf(&sb, " (%lld samples, median %.0f, min %.0f, max %.0f, %lld saturated)",
				     (long long)s->samples, s->median, s->min, s->max, (long long)s->saturated);
		if (s->source != BT_RL_NONE && s->budget_skipped)
			bt_sb_puts(&sb, " (timed-PEBS sampling not run: budget)");
		if (s->source == BT_RL_MEASURED && !isnan(pub))
			bt_sb_printf(&sb, "; published %.2f, not used", pub);
		else if (!isnan(s->min) && !isnan(s->max))
			bt_sb_printf(&sb, " (min %.0f, max %.0f)", s->min, s->max);
		bt_text_wrap(f, BT_CONSOLE_COLS, "      ", "          ", bt_sb_str(&sb));
	}
	/* where each source's values come from, once */
	for (uint8_t src = BT_RL_GIVEN; src <= BT_RL_FILE; src++)
		for (unsigned i = 0; i < n; i++)
			if (t->rl[i].source == src && t->rl[i].detail) {
				sb.n = 0;
				bt_sb_printf(&sb, "%s: %s", bt_rl_source_name((enum bt_rl_source)src),
					     t->rl[i].detail);
				bt_text_wrap(f, BT_CONSOLE_COLS, "      ", "          ", bt_sb_str(&sb));
				break;
			}
	bt_sb_free(&sb);
}
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

/* The SMT sibling probe's share of each group's windows (pmu/sibling.h), at
 * the reference clock the tree used. */
static void print_sibling(FILE *f, const struct bt_tree_outcome *t, const struct bt_tree_step *st)
{
	struct bt_strbuf sb = { 0 };
	struct bt_sibling_sums g = { 0 };
	int group = -1, n = 0;

	for (int k = 0; k <= st->n_run_log; k++) {
		const struct bt_measure_run *r = k < st->n_run_log ? &st->run_log[k] : NULL;
		if (r && !r->has_sibling)
			continue;
		if (group >= 0 && (!r || r->group != group)) {
			double a = bt_sibling_active(&g, t->xclk.used);
			if (!n)
				bt_sb_printf(&sb, "SMT sibling active, per group:");
			if (isnan(a))
				bt_sb_printf(&sb, " %d: unknown", group);
			else
				bt_sb_printf(&sb, " %d: %.1f%%", group, a * 100);
			n++;
			memset(&g, 0, sizeof(g));
		}
		if (!r)
			break;
		group = r->group;
		bt_sibling_add(&g, r);
	}
	if (n && st == &t->steps[0] && !isnan(t->xclk.used)) {
		bt_sb_printf(&sb, "; REF_XCLK = fixed counter 2 / %.4g (%s", t->xclk.used, t->xclk.from);
		if (!isnan(t->xclk.counted) && !t->xclk.disagrees)
			bt_sb_printf(&sb, "; counted %.4g", t->xclk.counted);
		else if (t->xclk.disagrees)
			bt_sb_printf(&sb, "; the part enumerates %.4g, NOT what REF_XCLK counts",
				     t->xclk.enumerated);
		bt_sb_printf(&sb, ")");
	}
	if (n)
		bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ", bt_sb_str(&sb));
	bt_sb_free(&sb);
}

void bt_tree_outcome_print(FILE *f, const struct bt_tree_outcome *t, bool verbose,
			   const struct bt_text_styler *styler)
{
	struct bt_report_opts o = {
		.max_level = 0,
		.flagged_only = !verbose,
		.input_label = t->input_label,
		.targeted = t->targeted,
		.untargeted_why = t->untargeted_why,
		.styler = styler,
		.untrusted = t->untrusted,
	};

	struct bt_strbuf sb = { 0 };

	for (int s = 0; s < t->n_steps; s++) {
		const struct bt_tree_step *st = &t->steps[s];

		sb.n = 0;
		bt_sb_printf(&sb, "level %u: %u nodes, %d new events in %d group(s) (lower bound %d)",
			     st->level, st->n_nodes, st->n_events, st->groups, st->bound);
		if (st->runs && st->has_inst)
			bt_sb_printf(&sb, ", %d runs, instructions %" PRIu64 " (spread %" PRIu64
				     "..%" PRIu64 ")%s", st->runs, st->inst_median, st->inst_min,
				     st->inst_max, st->retried ? ", retried" : "");
		else if (st->runs)
			bt_sb_printf(&sb, ", %d runs (no fixed instruction counter to cross-check "
				     "them)%s", st->runs, st->retried ? ", retried" : "");
		if (st->groups_skipped)
			bt_sb_printf(&sb, "; %d group(s) NOT RUN (budget)", st->groups_skipped);
		if (st->windows_per_run > 1)
			bt_sb_printf(&sb, "; each run in %u windows, interrupts open between them "
				     "(--max-window-ms)", st->windows_per_run);
		bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ", bt_sb_str(&sb));
		print_sibling(f, t, st);
		print_freq(f, t, st);
	}
	if (t->n_steps && t->steps[0].runs) {
		int frozen = 0;

		for (int s = 0; s < t->n_steps; s++)
			frozen += t->steps[s].smm_frozen;
		sb.n = 0;
		if (frozen == t->n_steps)
			bt_sb_printf(&sb, "SMM: counters frozen while an SMI handler runs "
				     "(IA32_DEBUGCTL.FREEZE_WHILE_SMM); run times still include it");
		else if (frozen)
			bt_sb_printf(&sb, "SMM: counters frozen in %d of %d steps only", frozen,
				     t->n_steps);
		if (sb.n)
			bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ", bt_sb_str(&sb));
	}
	if (t->pebs_windows_run || t->budget_pebs_skipped) {
		/* real time on the budget's clock, also under --sim */
		sb.n = 0;
		bt_sb_printf(&sb, "timed PEBS: %d sampling(s), one run of the workload each",
			     t->pebs_windows_run);
		if (t->pebs_windows_per_run > 1)
			bt_sb_printf(&sb, ", each in %u windows, interrupts open between them "
				     "(--max-window-ms)", t->pebs_windows_per_run);
		if (t->budget_pebs_skipped)
			bt_sb_printf(&sb, ", %d NOT RUN (budget)", t->budget_pebs_skipped);
		if (!isnan(t->pebs_wall_s) && !isnan(t->groups_wall_s))
			bt_sb_printf(&sb, "; wall time %.3f s, the counting groups' %.3f s",
				     t->pebs_wall_s, t->groups_wall_s);
		bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ", bt_sb_str(&sb));
	}
	if (t->budget_groups_skipped || t->budget_pebs_skipped) {
		sb.n = 0;
		bt_sb_printf(&sb, "PARTIAL (budget): ");
		if (t->budget_groups_skipped)
			bt_sb_printf(&sb, "%d counter group(s) not run, as the time budget "
				     "(--budget) could not hold them (the next needed %.2f s, %.2f s "
				     "were left); events not counted: %s; ", t->budget_groups_skipped,
				     t->budget_est_s, t->budget_left_s,
				     t->budget_events[0] ? t->budget_events : "none");
		if (t->budget_pebs_skipped) {
			bt_sb_printf(&sb, "%d timed-PEBS sampling(s) not run, as the time budget "
				     "(--budget) could not hold them (the next needed %.2f s, %.2f s "
				     "were left); retire latencies not measured (budget): %s; ",
				     t->budget_pebs_skipped, t->budget_pebs_est_s, t->budget_pebs_left_s,
				     t->budget_latencies[0] ? t->budget_latencies : "none");
			/* Not measured is where a published mean applies (the
			 * list of latencies below says which). */
			unsigned n_pub = 0;
			for (unsigned i = 0; t->rl && i < bt_model_retire_latency_count(t->model); i++)
				n_pub += t->rl[i].budget_skipped && t->rl[i].source == BT_RL_PUBLISHED;
			if (n_pub)
				bt_sb_printf(&sb, "the published mean in place of %u of them; ", n_pub);
		}
		bt_sb_printf(&sb, "nodes not measured (budget): %s",
			     t->budget_nodes[0] ? t->budget_nodes : "none");
		bt_text_wrap(f, BT_CONSOLE_COLS, "    ", "      ", bt_sb_str(&sb));
	}
	bt_sb_free(&sb);
	bt_report_text(f, t->model, t->result, &o);
	print_latencies(f, t);
	if (t->consistency)
		bt_report_consistency_text(f, t->consistency, t->result, "    ", 0);
	for (int k = 0; k < t->n_notes; k++)
		bt_text_wrap(f, BT_CONSOLE_COLS, "    note: ", "      ", t->notes[k]);
}

void bt_outcome_print(FILE *f, const struct bt_outcome *o, uint64_t tsc_hz, bool quiet,
		      bool verbose, const struct bt_text_styler *styler)
{
	fprintf(f, "  %-20s ", o->name);
	if (o->state != BT_OUTCOME_RAN) {
		fprintf(f, "%s: %s\n", o->state == BT_OUTCOME_SKIPPED ? "skipped" : "FAILED", o->reason);
		return;
	}
	if (o->placement[0])
		fprintf(f, "%s\n  %-20s ", o->placement, "");
	if (o->counted && o->counted->n_steps) {
		uint64_t t = o->counted->steps[0].tsc_median;
		uint64_t hz = o->counted->tsc_hz ? o->counted->tsc_hz : tsc_hz;
		if (!o->counted->steps[0].runs)
			fprintf(f, "%10s no run", "");
		else if (hz && o->counted->simulated)
			/* The workload model's cycles at the simulated clock. */
			fprintf(f, "%10.3f ms per run (median, SIMULATED time at %.2f GHz)",
				bt_ticks_ms(hz, t), (double)hz / 1e9);
		else if (hz)
			fprintf(f, "%10.3f ms per run (median)", bt_ticks_ms(hz, t));
		fprintf(f, "  counted%s%s", o->counted->simulated ? " (SIMULATED PMU)" : "",
			o->counted->budget_groups_skipped || o->counted->budget_pebs_skipped
				? " PARTIAL (budget)" : "");
	}
	if (o->timed) {
		if (tsc_hz)
			fprintf(f, "%10.3f ms (min %.3f, max %.3f, %u runs)",
				bt_ticks_ms(tsc_hz, o->timing.median), bt_ticks_ms(tsc_hz, o->timing.min),
				bt_ticks_ms(tsc_hz, o->timing.max), o->timing.runs);
		else
			fprintf(f, "%12" PRIu64 " TSC ticks (%u runs)", o->timing.median,
				o->timing.runs);
	}
	if (o->has_checksum)
		fprintf(f, "  checksum %016" PRIx64, o->checksum);
	if (o->copies > 1)
		fprintf(f, "  (%u copies at once)", o->copies);
	fprintf(f, "\n");
	if (quiet) {
		/* One line: what the bottleneck path says, when counted. */
		if (o->counted && o->counted->result->path_len) {
			const struct bt_result *res = o->counted->result;
			fprintf(f, "  %-20s bottleneck:", "");
			for (unsigned k = 0; k < res->path_len; k++)
				fprintf(f, " %s%s", k ? "> " : "",
					bt_model_node(o->counted->model, res->path[k])->name);
			fprintf(f, "%s\n", res->path_largest_share ? " -- " BT_PATH_LARGEST_SHARE : "");
		}
		/* A violated rule is a finding: never left out, even here. */
		if (o->counted && o->counted->consistency && o->counted->consistency->n_violated)
			fprintf(f, "  %-20s consistency: %u rule(s) violated: an event does not count "
				   "as the formula assumes (the full report lists them)\n", "",
				o->counted->consistency->n_violated);
		return;
	}
	if (o->params[0])
		fprintf(f, "  %-20s %s\n", "", o->params);
	if (o->note[0])
		fprintf(f, "  %-20s %s\n", "", o->note);
	if (o->reason[0])
		fprintf(f, "  %-20s %s\n", "", o->reason);
	if (o->ap_jobs)
		fprintf(f, "  %-20s AP stack: %u of %u bytes%s, firmware's %u; AP jobs: %u\n", "",
			o->ap_stack_used, o->ap_stack_size, o->ap_stack_overflow ? " OVERFLOW" : "",
			o->fw_stack_used, o->ap_jobs);
	if (o->counted)
		bt_tree_outcome_print(f, o->counted, verbose, styler);
}
