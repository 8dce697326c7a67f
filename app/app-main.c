/* SPDX-License-Identifier: MIT */
/*
 * The program's flow: options, identification, self-tests, the workloads,
 * then the results file; report/ writes the console report and the
 * document from the data gathered here. Portable: efi/efi-main.c calls it
 * with the UEFI platform, the tests and baretop-host with a hosted one.
 */
#include <stdarg.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app-main.h"
#include "app/boot-run.h"
#include "app/validate-mode.h"
#include "app/atlas-mode.h"
#include "app/targets.h"
#include "app/kernel-ticks.h"
#include "app/count.h"
#include "app/count-internal.h"
#include "app/cpu-census.h"
#include "app/fault-selftest.h"
#include "app/on-cpu.h"
#include "app/options.h"
#include "app/run.h"
#include "app/version.h"
#include "base/assert.h"
#include "base/log.h"
#include "report/console.h"
#include "report/machine.h"
#include "report/results.h"
#include "report/results-boot.h"
#include "report/results-file.h"
#include "metrics/builtin.h"
#include "arch/sim/sim.h"
#include "synth/sim-run.h"
#include "pmu/cpu-detect.h"

struct run {
	struct bt_platform *plat;
	struct bt_options opt;
	int argc;
	char **argv;
	struct bt_config_words config; /* the configuration file's words */
	char time[40];
	struct bt_cpu_info cpu;
	struct bt_cpu_census census;
	struct bt_machine machine;
	uint8_t guard_check_vector;   /* UD2 through the guard: 6 if it works */
	bool selftest_ran;
	struct bt_fault_selftest selftest;
	int status;
	bool ran_workloads;
	bool counting_simulated;
	struct bt_run_phase phase;
	const char *cpu_whose;         /* whose CPU the detection is (results' cpu.whose) */
	char messages[BT_RESULTS_MAX_MESSAGES][BT_RESULTS_MESSAGE_LEN];
	int n_messages;
	struct bt_boot_run boot;       /* --run, --then, --budget */
	unsigned results_seq;          /* the results file written; 0 none */
	bool end_noted;                /* its sequence note records the measurement's end */
	struct bt_validation_run *validation; /* --validate */
	struct bt_atlas_run *atlas;    /* --atlas */
};

/* The longest message: "no PMU: " and the CPU's reason, whole. */
_Static_assert(BT_RESULTS_MESSAGE_LEN >= sizeof(((struct bt_cpu_info *)0)->pmu.absent_reason) + 64,
	       "a PMU's absent reason must fit a results message");

__attribute__((format(printf, 2, 3)))
static void note(struct run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_messages == BT_RESULTS_MAX_MESSAGES)
		return;
	char *m = r->messages[r->n_messages++];
	va_start(ap, fmt);
	int n = vsnprintf(m, sizeof(r->messages[0]), fmt, ap);
	va_end(ap);
	/* a message longer than the slot says it was cut, never silently */
	if (n >= (int)sizeof(r->messages[0]))
		memcpy(m + sizeof(r->messages[0]) - 16, " ... (cut here)", 16);
}

static void stall_cb(uint64_t us, void *ctx)
{
	((struct bt_platform *)ctx)->stall_us(us);
}

/* The results document's data (report/results.h): pointers into the run,
 * nothing copied; the parts are the caller's, alive while it is written. */
static void results_of(const struct run *r, struct bt_results *res,
		       struct bt_platform_facts *pf, struct bt_run_record *run,
		       struct bt_count_setup *count)
{
	const struct bt_platform *p = r->plat;

	*pf = (struct bt_platform_facts){
		.name = p->name,
		.uefi_revision = p->uefi_revision,
		.firmware_vendor = p->firmware_vendor,
		.firmware_revision = p->firmware_revision,
		.program_path = p->program_path,
		.arch_backend = p->arch->name,
		.fault_guard_installed = p->fault_guard.installed,
		.fault_guard_detail = p->fault_guard.detail,
	};
	if (r->ran_workloads)
		bt_run_phase_record(&r->phase, run, count);
	*res = (struct bt_results){
		.simulated = p->arch->simulated || r->counting_simulated,
		.version = BT_VERSION,
		.argc = r->argc,
		.argv = r->argv,
		.config_file = r->config.path,
		.config_argc = r->config.argc,
		.config_argv = r->config.argv,
		.firmware_clock = r->time[0] ? r->time : NULL,
		.platform = pf,
		.cpu = &r->cpu,
		.cpu_whose = r->cpu_whose,
		.census = &r->census,
		.machine = &r->machine,
		.run = r->ran_workloads ? run : NULL,
		.fault_guard_check = r->guard_check_vector,
		.selftest = r->selftest_ran ? &r->selftest : NULL,
		.ap_faults = r->plat->ap_faults,
		.n_ap_faults = r->plat->n_ap_faults,
		.exit_status = r->status,
		.messages = r->messages,
		.n_messages = r->n_messages,
	};
}

/*
 * --bring-up: PMU conformance and the model's events validated (the
 * validation mode, all the levels the tree may reach), then the Top-Down
 * run over the workloads, choosing its nodes as any run does (drill-down:
 * level 1, then the children of flagged nodes; every node to N with
 * --level N), so the deeper nodes of unflagged parents are not measured
 * and the console says so; each tree marks the
 * nodes whose formulas read an event that did not pass, and (ARCH with
 * PERF_METRICS) the level-1 nodes whose cross-check is violated (untrusted,
 * never the bottleneck). The status is 1 when a validation check FAILed or
 * a cross-check was violated: the tree of trusted nodes is written either
 * way.
 */
static void bring_up(struct run *r, bool can_count)
{
	struct bt_count_ctx *c = can_count ? r->phase.count : NULL;
	unsigned n_failed = 0, n_skipped = 0;

	r->status = bt_validate_mode(c, r->phase.no_count_reason, &r->opt, &r->validation);
	if (r->status == BT_EXIT_USAGE)
		return; /* a malformed --validate-spec: nothing to trust */
	if (r->status != BT_EXIT_OK)
		note(r, "bring-up: validation exit status %d", r->status);
	if (c && c->model) {
		if (bt_validation_mark_untrusted(r->validation, c, &n_failed, &n_skipped) != BT_OK) {
			note(r, "bring-up: out of memory");
			r->status = BT_EXIT_FAILED;
			return;
		}
		printf("bring-up      %u event(s) of model %s FAILed validation, %u SKIPped: the "
		       "nodes whose formulas read them are untrusted\n", n_failed,
		       c->def ? c->def->id : "?", n_skipped);
		if (n_failed || n_skipped)
			note(r, "bring-up: %u model event(s) failed validation, %u skipped: their "
				"nodes are untrusted", n_failed, n_skipped);
	}
	int status = r->status;
	bt_run_phase_run(&r->phase);
	r->ran_workloads = true;
	/* A violated cross-check (ARCH with PERF_METRICS: the architectural
	 * event against its field) is a check that failed too: its node is
	 * untrusted (count-run.c) and the status says so. */
	if (c && c->n_cross_untrusted) {
		note(r, "bring-up: %u level-1 node(s) untrusted over the workloads' trees: "
			"PERF_METRICS and the architectural event disagree (cross-check)",
		     c->n_cross_untrusted);
		if (status == BT_EXIT_OK)
			status = BT_EXIT_FAILED;
	}
	/* the validation's verdict stands when the run itself went well */
	if (status != BT_EXIT_OK && r->status == BT_EXIT_OK)
		r->status = status;
}

/* Model ids compare without case (metrics/builtin.c). */
static int strcasecmp_id(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 1;
	return *a != *b;
}

/* Checks what can be checked before anything runs: wrong values are usage
 * errors (exit 2), not failures found halfway through a run. */
static bool options_valid(const struct run *r, struct bt_diag *d)
{
	const struct bt_options *o = &r->opt;

	/* ARCH is built from the CPU's CPUID when the model is chosen; TNT
	 * (Tremont) is found by bt_builtin_find() but is not a packed model. */
	if (o->model && !bt_builtin_find(o->model) && strcasecmp_id(o->model, "ARCH")) {
		char list[BT_DIAG_MAX] = "";
		size_t n = 0;
		for (unsigned i = 0; i < bt_builtin_model_count && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, " %s",
					      bt_builtin_models[i]->id);
		bt_diag_set(d, "--model %s: no such model; the models are:%s TNT ARCH", o->model, list);
		return false;
	}
	/* options that contradict each other across sources (options-combos.c) */
	if (bt_option_combos_final(o, d) != BT_OK)
		return false;
	if (o->sim && o->sim_name && !bt_synth_known(o->sim_name, d))
		return false;
	if (o->n_cpus) {
		uint32_t total = 0, enabled = 0;
		if (!r->plat->cpu_count || r->plat->cpu_count(&total, &enabled) != BT_OK) {
			bt_diag_set(d, "--cpu: this platform cannot enumerate CPUs");
			return false;
		}
		for (int i = 0; i < o->n_cpus; i++)
			if (o->cpus[i] >= total) {
				bt_diag_set(d, "--cpu %u: there are %u logical CPUs (0-%u)",
					    o->cpus[i], total, total - 1);
				return false;
			}
	}
	return true;
}

/* The run in progress, for the end of a crashed one (bt_app_crash_end):
 * the exception handler's recovery comes back through the platform, not
 * through bt_app_main's frames. */
static struct run *current_run;

/*
 * Ends the run: every register baretop changed is restored, then the end
 * of the boot is decided in one place (app/boot-policy.h
 * bt_boot_decide_end, through bt_boot_run_finish) and left in the
 * platform, which carries it out after its own clean-up: return (as "not
 * started" where the boot manager must go on), next-boot-entry, chainload,
 * the loader started again, reset or power-off.
 */
static int finish_as(struct run *r, int status, enum bt_boot_outcome outcome)
{
	/* Whatever baretop changed in the CPU is put back first. */
	bt_run_phase_free(&r->phase);
	fflush(stdout);
	fflush(stderr);
	if (r->plat->aps_unaccounted && outcome == BT_OUTCOME_MEASURED) {
		printf("boot          %u CPU(s) baretop started never came back: %s\n",
		       (unsigned)r->plat->aps_unaccounted, r->plat->aps_unaccounted_why);
		outcome = BT_OUTCOME_CPUS_LEFT;
	}
	bt_boot_run_finish(&r->boot, r->plat, &r->opt, outcome, status, r->results_seq,
			   r->end_noted);
	if (r->plat->end_action == BT_END_CHAINLOAD)
		snprintf(r->plat->chainload, sizeof(r->plat->chainload), "%s", r->opt.then_boot);
	/* QEMU's exit device (tests): a failure ends QEMU, unless the next
	 * stage starts in this boot (its own end is the test's). */
	enum bt_end_action e = r->plat->end_action;
	if (r->opt.qemu_exit && status != 0 && r->plat->qemu_debug_exit &&
	    e != BT_END_CHAINLOAD && e != BT_END_NEXT_BOOT_ENTRY && e != BT_END_RESTART_PARENT)
		r->plat->qemu_debug_exit(r->opt.qemu_exit_port, (uint32_t)status);
	fflush(stdout);
	current_run = NULL;
	return status;
}

static int finish(struct run *r, int status)
{
	enum bt_boot_outcome o = status == BT_EXIT_USAGE ? BT_OUTCOME_USAGE_ERROR
				 : !r->boot.plat || !r->boot.decision.measure ? BT_OUTCOME_NOT_NOW
				 : BT_OUTCOME_MEASURED;
	return finish_as(r, status, o);
}

int bt_app_crash_end(struct bt_platform *plat)
{
	struct run *r = current_run;

	if (!r) {
		/* Before bt_app_main: the hand-over of a boot without options. */
		plat->end_action = plat->boot_start.parent == BT_PARENT_SHELL ? BT_END_RETURN
									       : BT_END_RETURN_NOT_STARTED;
		return BT_EXIT_FAILED;
	}
	/* An open PMU session was closed by the platform's park cleanup; the
	 * rest of the run's state is not touched (it may be half-updated). */
	bt_boot_run_finish(&r->boot, r->plat, &r->opt, BT_OUTCOME_CRASH, BT_EXIT_FAILED, 0, false);
	if (plat->end_action == BT_END_CHAINLOAD)
		snprintf(plat->chainload, sizeof(plat->chainload), "%s", r->opt.then_boot);
	enum bt_end_action e = plat->end_action;
	if (r->opt.qemu_exit && plat->qemu_debug_exit && e != BT_END_CHAINLOAD &&
	    e != BT_END_NEXT_BOOT_ENTRY && e != BT_END_RESTART_PARENT)
		plat->qemu_debug_exit(r->opt.qemu_exit_port, BT_EXIT_FAILED);
	current_run = NULL;
	return BT_EXIT_FAILED;
}

/* --fault-selftest-ap's cleanup: runs on the AP after the fault, before
 * its procedure returns to the firmware (app/ap-run.h). */
static void count_cleanup(void *arg)
{
	volatile int *n = arg;
	++*n;
}

static int usage_error(struct run *r, const char *program, const char *msg)
{
	/* One line: what is wrong, and where the options are listed. */
	fprintf(stderr, "baretop: %s (see '%s --help')\n", msg, program);
	return finish(r, BT_EXIT_USAGE);
}

static void guard_check(struct run *r)
{
	struct bt_platform *p = r->plat;

	if (!p->fault_guard.installed) {
		printf("fault guard   NOT installed: %s; MSR access is disabled\n",
		       p->fault_guard.detail);
		note(r, "fault guard not installed: %s", p->fault_guard.detail);
		return;
	}
	if (p->fault_guard_selftest) {
		r->guard_check_vector = p->fault_guard_selftest();
		printf("fault guard   installed, %s\n",
		       r->guard_check_vector == 6 ? "checked (UD2 raised #UD and was caught)"
						  : "CHECK FAILED (UD2 did not come back as #UD)");
	} else {
		printf("fault guard   %s\n", p->fault_guard.detail);
	}
}

/* Shows paths the way the UEFI shell writes them: backslashes. */
static void display_path(const struct run *r, char *text)
{
	if (!r->plat->uefi_revision)
		return;
	for (char *c = text; *c; c++)
		if (*c == '/')
			*c = '\\';
}

static void write_results(struct run *r)
{
	struct bt_results_written w;
	struct bt_results res;
	struct bt_platform_facts pf;
	struct bt_run_record run;
	struct bt_count_setup count;
	struct bt_diag d;

	if (r->opt.no_results) {
		printf("results       not written (--no-results)\n");
		return;
	}
	if (r->plat->files_unavailable[0]) {
		printf("results       NOT written: %s\n", r->plat->files_unavailable);
		note(r, "results not written: %s", r->plat->files_unavailable);
		r->status = BT_EXIT_NO_RESULTS;
		return;
	}
	struct bt_results_boot boot;
	char end_note[96];

	/* CPUs left behind end the boot in a reset (finish_as): the results
	 * say so and why, and record that end, not the hand-over asked for. */
	enum bt_boot_outcome planned = BT_OUTCOME_MEASURED;
	if (r->plat->aps_unaccounted) {
		planned = BT_OUTCOME_CPUS_LEFT;
		note(r, "%u CPU(s) baretop started never came back (%.120s): the boot ends in a "
			"reset instead of a hand-over, unless a reset or power-off just ended the "
			"boot before (the reset cap: then it hands over)",
		     (unsigned)r->plat->aps_unaccounted, r->plat->aps_unaccounted_why);
	}
	results_of(r, &res, &pf, &run, &count);
	/* The end this boot will take, for its record; the note says how the
	 * measurement ended, so that its end needs no NVRAM write. */
	bt_boot_run_plan(&r->boot, planned, r->status, end_note, sizeof(end_note));
	res.boot = bt_boot_run_record(&r->boot, &boot);
	if (res.boot && r->opt.boot.then == BT_THEN_REBOOT && !r->opt.then_boot) {
		boot.restart_decided = true;
		boot.restart_taken = r->boot.end.action == BT_END_RESET;
		boot.restart_why = r->boot.end.why;
	}
	res.keep_results = r->opt.keep_results;
	res.min_free_bytes = (uint64_t)r->opt.min_free_mib << 20;
	/* The folder first: hosted, statvfs needs it to exist (its volume). */
	bt_mkdir_p(r->opt.results_dir);
	if (r->plat->volume_free &&
	    r->plat->volume_free(r->opt.results_dir, &res.volume_free_bytes) == BT_OK)
		res.have_volume_free = true;
	if (res.have_volume_free && res.volume_free_bytes < res.min_free_bytes) {
		printf("results       NOT written: the volume has %.1f MiB free, below the floor of "
		       "%u MiB (--min-free) that leaves room for the OS's updates\n",
		       (double)res.volume_free_bytes / 1048576.0, r->opt.min_free_mib);
		printf("              (the report above is complete)\n");
		note(r, "results not written: %.1f MiB free, below --min-free %u MiB",
		     (double)res.volume_free_bytes / 1048576.0, r->opt.min_free_mib);
		r->status = BT_EXIT_NO_RESULTS;
		return;
	}
	if (r->atlas) {
		res.atlas_json = bt_atlas_run_json;
		res.atlas_ctx = r->atlas;
	}
	if (r->validation) {
		res.validation_json = bt_validation_run_json;
		res.validation_ctx = r->validation;
	}
	bt_status st = bt_results_save(r->opt.results_dir, &bt_results_json, &res,
				       r->plat->rename_noreplace, end_note[0] ? end_note : NULL, &w, &d);
	if (st == BT_OK) {
		r->results_seq = w.seq;
		r->end_noted = end_note[0] && w.note_written;
		display_path(r, w.path);
		printf("results       %s\n", w.path);
		if (res.have_volume_free)
			printf("              %.1f MiB free on its volume before it was written\n",
			       (double)res.volume_free_bytes / 1048576.0);
		if (r->opt.keep_results) {
			unsigned n = bt_results_prune(r->opt.results_dir, bt_results_json.ext, w.seq,
						      r->opt.keep_results);
			printf("              --keep-results %u: %u older file(s) deleted\n",
			       r->opt.keep_results, n);
		}
	} else {
		display_path(r, d.text);
		printf("results       NOT written: %s\n", d.text);
		printf("              (the report above is complete)\n");
		r->status = BT_EXIT_NO_RESULTS;
	}
}

int bt_app_main(int argc, char **argv, struct bt_platform *plat)
{
	struct run *r = calloc(1, sizeof(*r));
	const char *program = argc > 0 ? argv[0] : "baretop";
	struct bt_diag d;
	int status;

	if (!r) {
		bt_log_status(BT_ERR_NOMEM, "cannot start the run");
		return BT_EXIT_FAILED;
	}
	r->plat = plat;
	r->phase.plat = plat;
	current_run = r;
	/* BootNext still pointing at baretop's entry goes first, whatever
	 * the options (app/boot-policy.h); an unattended start's watchdog. */
	bt_boot_run_settle(plat);
	r->argc = argc;
	r->argv = argv;
	bt_options_defaults(&r->opt);
	if (plat->default_results_dir)
		r->opt.results_dir = plat->default_results_dir;
	/* The configuration file first, so the command line can override it. */
	if (bt_options_load(&r->opt, argc, argv, plat->config_path, &r->config, &d) != BT_OK) {
		status = usage_error(r, program, d.text);
		goto out;
	}
	if (r->opt.qemu_exit && plat->set_failure_exit_port)
		plat->set_failure_exit_port(r->opt.qemu_exit_port);
	if (r->opt.list_option_combos) {
		bt_option_combos_list(stdout);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}
	if (r->opt.help) {
		bt_options_usage(stdout, program);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}
	if (!options_valid(r, &d) || bt_run_check_specs(&r->opt, &d) != BT_OK ||
	    bt_run_check_team(&r->opt, plat, &d) != BT_OK ||
	    bt_targets_check(&r->opt, &d) != BT_OK) {
		status = usage_error(r, program, d.text);
		goto out;
	}
	if (r->opt.list_models) {
		bt_list_models(stdout);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}
	if (r->opt.list_sim_defects) {
		char list[2048];
		bt_sim_defects_help(list, sizeof(list));
		printf("--sim-defect=NAME[:PARAM][,...], defects of the SIMULATED PMU:\n%s\n", list);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}
	if (r->opt.list_workloads) {
		bt_list_workloads(stdout);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}
	if (r->opt.version) {
		printf("baretop %s\n", BT_VERSION);
		status = finish_as(r, BT_EXIT_OK, BT_OUTCOME_INFO);
		goto out;
	}

	/* Counted by an OS's driver the run is not bare metal, and says so. */
	if (r->opt.perf)
		printf("baretop %s: Top-Down analysis, counted by the operating system's PMU "
		       "driver (--backend=perf)\n", BT_VERSION);
	else
		printf("baretop %s: bare-metal Top-Down analysis\n", BT_VERSION);
	if (r->config.path) {
		printf("options       from %s:", r->config.path);
		for (int i = 0; i < r->config.argc; i++)
			printf(" %s", r->config.argv[i]);
		printf("\n");
	}
	/* A boot whose policy says "not now" hands over before anything else. */
	if (!bt_boot_run_begin(&r->boot, plat, &r->opt)) {
		status = finish(r, BT_EXIT_OK);
		goto out;
	}
	if (plat->uefi_revision) {
		char rev[16];

		bt_uefi_revision_str(plat->uefi_revision, rev, sizeof(rev));
		printf("platform      UEFI %s, firmware %s rev 0x%x\n", rev, plat->firmware_vendor,
		       (unsigned)plat->firmware_revision);
	} else {
		printf("platform      %s\n", plat->name);
	}
	if (plat->wallclock)
		plat->wallclock(r->time, sizeof(r->time));
	if (plat->machine_facts)
		plat->machine_facts(&r->machine);
	else
		bt_machine_absent(&r->machine, "the platform reads no firmware tables");
	bt_machine_console(&r->machine);
	guard_check(r);

	struct bt_detect_options dopt = {
		.stall_us = plat->stall_us ? stall_cb : NULL,
		.stall_ctx = plat,
		.assume_amd_legacy_pmu = r->opt.assume_amd_legacy_pmu,
	};
	bt_cpu_detect(plat->arch, &dopt, &r->cpu);
	bt_cpu_census_take(plat, &r->census);
	bt_boot_run_set_tsc_hz(&r->boot, r->cpu.tsc_hz);
	r->cpu_whose = plat->arch->simulated
		? "SIMULATED: the simulated machine's CPU, as it answers CPUID"
		: r->opt.sim || r->opt.sim_cpuid
		? "this machine's, which baretop runs on; not the SIMULATED CPU whose PMU --sim counts with"
		: NULL;
	if (r->opt.quiet)
		bt_report_detect_line(stdout, &r->cpu);
	else
		bt_report_detect_print(stdout, &r->cpu, &r->census, r->cpu_whose);
	if (r->cpu.pmu.kind == BT_PMU_NONE)
		note(r, "%s: %s", r->cpu_whose ? "this machine's PMU: none" : "no PMU",
		     r->cpu.pmu.absent_reason);

	if (r->opt.crash_test) {
		if (plat->crash_test) {
			printf("crash test    executing an unguarded UD2 on CPU %u\n",
			       plat->current_cpu ? plat->current_cpu() : 0);
			fflush(stdout);
			plat->crash_test(); /* does not return */
		}
		printf("crash test    not available on this platform\n");
	}
	if (r->opt.stack_smash_test) {
		if (plat->stack_smash_test) {
			printf("crash test    overrunning a stack buffer on CPU %u\n",
			       plat->current_cpu ? plat->current_cpu() : 0);
			fflush(stdout);
			plat->stack_smash_test(); /* does not return */
		}
		printf("crash test    not available on this platform\n");
	}
	if (r->opt.assert_test) {
		printf("crash test    failing an assertion\n");
		fflush(stdout);
		/* volatile: a check the compiler cannot fold away */
		volatile bool invariant_holds = false;
		BT_ASSERT(invariant_holds);
	}
	if (r->opt.fault_selftest_ap || r->opt.fault_selftest_ap_lost) {
		uint32_t total = 0, enabled = 0, self = plat->current_cpu ? plat->current_cpu() : 0;
		uint32_t ap = self == 0 ? 1 : 0;
		if (!plat->crash_test || !plat->run_on_cpu || !plat->cpu_count ||
		    plat->cpu_count(&total, &enabled) != BT_OK || enabled < 2) {
			printf("AP fault test  not run: needs a second CPU and the UEFI fault guard\n");
		} else {
			/* static: the AP's abandon cleanup writes it, and an AP that
			 * misses the BSP's timeout may still do so after this block
			 * has ended. */
			static volatile int cleanups;
			uint32_t lost_before = plat->aps_unaccounted;
			bool want_lost = r->opt.fault_selftest_ap_lost;
			bt_status st = bt_cpu_fault_selftest(plat, ap, count_cleanup, (void *)&cleanups,
							     want_lost);
			bool lost = plat->aps_unaccounted > lost_before;
			/* --fault-selftest-ap-lost: the cleanup faults again, so
			 * the CPU is not accounted for and this boot resets. */
			printf("AP fault test  unguarded UD2 on CPU %u: %s; its cleanup ran %d "
			       "time(s)%s\n", ap,
			       st != BT_ERR_FAULT ? "NOT caught as expected"
			       : lost ? "caught, but its cleanup faulted again: the CPU is not "
					"accounted for, so this boot resets instead of handing over"
				      : "recovered, its procedure returned to the MP services, run "
					"continues",
			       cleanups, cleanups == 1 ? "" : " (NOT once, as expected)");
			if (st != BT_ERR_FAULT || cleanups != 1 || lost != want_lost)
				r->status = BT_EXIT_FAILED;
		}
	}
	if (r->opt.fault_selftest) {
		bt_fault_selftest_run(plat, &r->cpu, &r->selftest);
		r->selftest_ran = true;
		bt_fault_selftest_print(stdout, &r->selftest);
	}

	if (r->opt.test_hang)
		bt_boot_run_hang(&r->boot);
	if (r->opt.kernel_ticks) {
		status = finish(r, bt_kernel_ticks_run(plat->arch, plat->memory_pages, stdout) == BT_OK ? BT_EXIT_OK
										: BT_EXIT_FAILED);
		goto out;
	}
	if (!r->opt.no_workloads) {
		r->phase.boot = &r->boot;
		r->phase.plat = plat;
		r->phase.opt = &r->opt;
		r->phase.cpu = &r->cpu;
		r->phase.census = &r->census;
		d.text[0] = '\0';
		bt_status cs = bt_count_prepare(plat, &r->opt, &r->cpu, &r->census, &r->phase.count,
						&d);
		/* The run's record keeps the reason in its own field (and as
		 * long as it was before: the results file prints it). */
		snprintf(r->phase.no_count_reason, sizeof(r->phase.no_count_reason), "%.*s",
			 (int)sizeof(r->phase.no_count_reason) - 1, d.text);
		if (cs == BT_ERR_INVALID) {
			status = usage_error(r, program, r->phase.no_count_reason);
			goto out;
		}
		/* --backend=perf asked for counts: timing instead would pass
		 * for a run that measured. */
		if (cs != BT_OK && r->opt.perf) {
			fprintf(stderr, "%s: --backend=perf: %s\n", program, r->phase.no_count_reason);
			status = finish(r, BT_EXIT_FAILED);
			goto out;
		}
		r->phase.can_count = cs == BT_OK;
		r->counting_simulated = cs == BT_OK && r->opt.sim;
		if (r->opt.bring_up) {
			bring_up(r, cs == BT_OK);
		} else if (r->opt.atlas) {
			r->status = bt_atlas_mode(cs == BT_OK ? r->phase.count : NULL,
						  r->phase.no_count_reason, &r->opt, plat, &r->boot,
						  &r->atlas);
			if (r->status != BT_EXIT_OK)
				note(r, "atlas: exit status %d", r->status);
		} else if (r->opt.validate) {
			r->status = bt_validate_mode(cs == BT_OK ? r->phase.count : NULL,
						     r->phase.no_count_reason, &r->opt,
						     &r->validation);
			if (r->status != BT_EXIT_OK)
				note(r, "validate: exit status %d", r->status);
		} else {
			bt_run_phase_run(&r->phase);
			r->ran_workloads = true;
		}
		if (r->phase.n_failed) {
			note(r, "%d workload(s) failed", r->phase.n_failed);
			r->status = BT_EXIT_FAILED;
		}
		/* A check found counts the formulas cannot trust (count-run.c
		 * untrust_by_rules, --bring-up's validation): the trees are
		 * written with those nodes marked, and the status says a check
		 * failed, with or without --no-health-check. */
		if (r->phase.n_untrusted) {
			note(r, "%d counted workload(s) with untrusted nodes (a violated consistency "
				"rule, a cross-check or a failed validation): never the bottleneck",
			     r->phase.n_untrusted);
			r->status = BT_EXIT_FAILED;
		}
	}

	/* CPUs baretop started and lost end the boot in a reset instead of
	 * the hand-over asked for (finish_as): never a success, even when a
	 * self-test lost them on purpose. */
	if (plat->aps_unaccounted && r->status == BT_EXIT_OK)
		r->status = BT_EXIT_FAILED;
	write_results(r);
	printf("done          exit status %d\n", r->status);
	status = finish(r, r->status);
out:
	bt_boot_run_free(&r->boot);
	bt_config_words_free(&r->config);
	bt_validation_run_free(r->validation);
	bt_atlas_run_free(r->atlas);
	free(r);
	return status;
}
