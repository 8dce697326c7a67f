/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "base/array.h"
#include "base/near-name.h"
#include "report/results-file.h"
#include "arch/sim/sim.h"
#include "synth/sim-run.h"

enum arg_kind {
	ARG_NONE,     /* --flag */
	ARG_REQUIRED, /* --opt VALUE or --opt=VALUE */
	ARG_OPTIONAL, /* --opt or --opt=VALUE (never takes the next word) */
};

typedef bt_status apply_fn(struct bt_options *o, const char *value, struct bt_diag *d);

struct option_def {
	const char *section;  /* starts a new --help section when not NULL */
	const char *name;     /* long name without "--" */
	char short_name;
	enum arg_kind arg;
	const char *metavar;
	const char *help;
	apply_fn *apply;
};

bt_status bt_options_parse_u64(const char *s, uint64_t max, uint64_t *ret)
{
	int base = 10;
	char *end;

	if (!s)
		return BT_ERR_INVALID;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return BT_ERR_INVALID;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || *end || v > max)
		return BT_ERR_INVALID;
	*ret = v;
	return BT_OK;
}

#define FLAG(field)                                                                     \
	static bt_status set_##field(struct bt_options *o, const char *v, struct bt_diag *d) \
	{                                                                               \
		(void)v; (void)d;                                                       \
		o->field = true;                                                        \
		return BT_OK;                                                           \
	}
FLAG(help)
FLAG(version)
FLAG(quiet)
FLAG(shutdown)
FLAG(no_results)
FLAG(no_config)
FLAG(fault_selftest)
FLAG(fault_selftest_ap)
FLAG(fault_selftest_ap_lost)
FLAG(crash_test)
FLAG(stack_smash_test)
FLAG(assert_test)
FLAG(assume_amd_legacy_pmu)
FLAG(no_health_check)
FLAG(quick)
FLAG(no_pebs)
FLAG(no_default_rl)
FLAG(list_workloads)
FLAG(no_workloads)
FLAG(list_models)
FLAG(no_count)
FLAG(validate)
FLAG(bring_up)
FLAG(list_option_combos)

static bt_status set_validate_spec(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->validate = true;
	o->validate_spec = v;
	return BT_OK;
}
FLAG(kernel_ticks)
FLAG(atlas)

static bt_status set_events_file(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->atlas = true;
	o->events_file = v;
	return BT_OK;
}

static bt_status set_atlas_json(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->atlas = true;
	o->atlas_json = v;
	return BT_OK;
}

static bt_status set_atlas_spec(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->atlas = true;
	o->atlas_spec = v;
	return BT_OK;
}

static bt_status set_drilldown(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)v; (void)d;
	o->drilldown = true;
	o->level = 0;
	return BT_OK;
}

static bt_status set_model(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!*v) {
		bt_diag_set(d, "--model: empty model id (--list-models lists them)");
		return BT_ERR_INVALID;
	}
	o->model = v;
	return BT_OK;
}

static bt_status set_model_files(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!strchr(v, ',')) {
		bt_diag_set(d, "--model-files %s: give the metrics file and the events "
			    "file(s), separated by commas", v);
		return BT_ERR_INVALID;
	}
	o->model_files = v;
	return BT_OK;
}

static bt_status set_sim(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->sim = true;
	o->perf = false;
	/* Names without case: --sim=icx is the ICX model's CPU (an exact
	 * spelling wins: --sim=skl is the preset, --sim=SKL the model's). An
	 * unknown name is refused later, with the list (app-main.c). */
	o->sim_name = v && *v ? bt_synth_canonical(v) ? bt_synth_canonical(v) : v : NULL;
	return BT_OK;
}

/* --backend=hw|sim|perf: who programs the counters. sim is --sim (its
 * preset given with --sim=NAME); perf exists where the platform has an
 * operating system's driver (platform.h os_pmu). */
static bt_status set_backend(struct bt_options *o, const char *v, struct bt_diag *d)
{
	o->backend = v;
	if (strcmp(v, "hw") == 0) {
		o->sim = false;
		o->perf = false;
	} else if (strcmp(v, "sim") == 0) {
		o->sim = true;
		o->perf = false;
	} else if (strcmp(v, "perf") == 0) {
		o->perf = true;
		o->sim = false;
	} else {
		bt_diag_set(d, "--backend hw, sim or perf, not '%s'", v);
		return BT_ERR_INVALID;
	}
	return BT_OK;
}

static bt_status set_sim_cpuid(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!v || !*v || *v == '@') {
		bt_diag_set(d, "--sim-cpuid FILE[@CPU]: a CPUID dump and a logical CPU of it");
		return BT_ERR_INVALID;
	}
	o->sim = true;
	o->sim_cpuid = v;
	return BT_OK;
}

static bt_status set_counts(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->counts_file = v;
	return BT_OK;
}

static bt_status set_retire_latency_file(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->retire_latency_file = v;
	return BT_OK;
}

static bt_status set_sim_miscount(struct bt_options *o, const char *v, struct bt_diag *d)
{
	const char *colon = v ? strchr(v, ':') : NULL;
	if (!colon || colon == v ||
	    (strncmp(colon + 1, "scale=", 6) && strncmp(colon + 1, "stuck=", 6) &&
	     strncmp(colon + 1, "swap=", 5))) {
		bt_diag_set(d, "--sim-miscount EVENT:scale=X|stuck=N|swap=OTHER, not '%s'",
			    v ? v : "");
		return BT_ERR_INVALID;
	}
	/* The number after scale= or stuck= through a checked reader: text,
	 * an empty value, an overflow or a sign is an error with the accepted
	 * form, never 0 or a count wrapped at the counter's width. */
	const char *how = colon + 1, *num = strchr(how, '=') + 1;
	if (!strncmp(how, "scale=", 6) && !bt_options_plain_decimal(num, BT_SIM_MISCOUNT_SCALE_MAX)) {
		bt_diag_set(d, "--sim-miscount %s: scale=X takes a decimal number from 0 to %g "
			    "(e.g. scale=0.6), not '%s'", v, BT_SIM_MISCOUNT_SCALE_MAX, num);
		return BT_ERR_INVALID;
	}
	uint64_t n;
	if (!strncmp(how, "stuck=", 6) && bt_options_parse_u64(num, BT_SIM_MISCOUNT_STUCK_MAX, &n) != BT_OK) {
		bt_diag_set(d, "--sim-miscount %s: stuck=N takes a whole number from 0 to %llu (2^48 - 1, "
			    "decimal or 0x hex), not '%s'", v, (unsigned long long)BT_SIM_MISCOUNT_STUCK_MAX, num);
		return BT_ERR_INVALID;
	}
	if (!strncmp(how, "swap=", 5) && !*num) {
		bt_diag_set(d, "--sim-miscount %s: swap=OTHER takes the name of another event", v);
		return BT_ERR_INVALID;
	}
	o->sim_miscount = v;
	return BT_OK;
}

/* --sim-defect NAME[:PARAM],...: checked here (arch/sim/sim-defect.c),
 * applied where the simulated PMU is set up (count.c setup_sim). */
static bt_status set_sim_defect(struct bt_options *o, const char *v, struct bt_diag *d)
{
	struct bt_sim_defects df;
	if (v && strcmp(v, "help") == 0) {
		o->list_sim_defects = true;
		return BT_OK;
	}
	if (bt_sim_defects_parse(v, &df, d) != BT_OK)
		return BT_ERR_INVALID;
	o->sim_defect = v;
	return BT_OK;
}

/* --sim-sibling-active F: applied where the simulated PMU is set up
 * (count.c setup_sim, arch/sim/sim.h bt_sim_set_sibling_active). */
static bt_status set_sim_sibling(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!bt_options_plain_decimal(v, 1)) {
		bt_diag_set(d, "--sim-sibling-active %s: give a fraction from 0 to 1", v);
		return BT_ERR_INVALID;
	}
	o->sim_sibling_active = strtod(v, NULL);
	o->sim_sibling_set = true;
	return BT_OK;
}

static bt_status set_workload(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (o->n_workloads == BT_MAX_WORKLOAD_SPECS) {
		bt_diag_set(d, "at most %d -w options", BT_MAX_WORKLOAD_SPECS);
		return BT_ERR_INVALID;
	}
	if (!*v) {
		bt_diag_set(d, "-w: empty workload name");
		return BT_ERR_INVALID;
	}
	o->workloads[o->n_workloads++] = v;
	return BT_OK;
}

static bt_status set_count(unsigned *field, const char *name, uint64_t min, uint64_t max,
			   const char *v, struct bt_diag *d)
{
	uint64_t n;

	if (bt_options_parse_u64(v, max, &n) != BT_OK || n < min) {
		bt_diag_set(d, "%s=%s: not a number from %llu to %llu", name, v,
			    (unsigned long long)min, (unsigned long long)max);
		return BT_ERR_INVALID;
	}
	*field = (unsigned)n;
	return BT_OK;
}

static bt_status set_color(struct bt_options *o, const char *v, struct bt_diag *d)
{
	static const char *const when[] = { "auto", "always", "never" };

	for (int k = 0; k < 3; k++)
		if (!strcmp(v ? v : "always", when[k])) {
			o->color = (enum bt_color_when)k;
			return BT_OK;
		}
	bt_diag_set(d, "--color=%s: auto, always or never", v);
	return BT_ERR_INVALID;
}

static bt_status set_level(struct bt_options *o, const char *v, struct bt_diag *d)
{
	o->drilldown = false;
	return set_count(&o->level, "--level", 1, 16, v, d);
}

static bt_status set_reps(struct bt_options *o, const char *v, struct bt_diag *d)
{
	return set_count(&o->reps, "--reps", 1, 64, v, d);
}

static bt_status set_warmups(struct bt_options *o, const char *v, struct bt_diag *d)
{
	o->warmups_set = true;
	return set_count(&o->warmups, "--warmups", 0, 100, v, d);
}

bool bt_options_plain_decimal(const char *v, double max)
{
	/* digits with at most one '.': strtod alone would also take " 5",
	 * "inf", "nan", "1e400" (HUGE_VAL), hex or a sign */
	bool digit = false, dot = false;
	for (const char *p = v; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digit = true;
		else if (*p == '.' && !dot)
			dot = true;
		else
			return false;
	}
	if (!digit)
		return false;
	char *end = NULL;
	double x = strtod(v, &end);
	return end && !*end && x >= 0 && x <= max;
}

static bt_status set_max_window(struct bt_options *o, const char *v, struct bt_diag *d)
{
	char *end = NULL;
	double ms = strtod(v, &end);

	/* A plain decimal number: strtod alone would also take " 5", "inf"
	 * or hex. */
	bool plain = (*v >= '0' && *v <= '9') || *v == '.';
	for (const char *p = v; plain && *p; p++)
		plain = (*p >= '0' && *p <= '9') || *p == '.';
	if (!plain || !end || *end || !(ms >= BT_MAX_WINDOW_MS_MIN && ms <= BT_MAX_WINDOW_MS_MAX)) {
		bt_diag_set(d, "--max-window-ms %s: give milliseconds from %g to %g", v,
			    BT_MAX_WINDOW_MS_MIN, BT_MAX_WINDOW_MS_MAX);
		return BT_ERR_INVALID;
	}
	o->max_window_ms = ms;
	return BT_OK;
}

/* --cpu all | N[,N...]: strict, so "1,,2" or "1," is an error and not a
 * silently shorter list. */
static bt_status set_cpu(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (strcmp(v, "all") == 0) {
		o->cpu_all = true;
		o->n_cpus = 0;
		return BT_OK;
	}
	o->cpu_all = false;
	o->n_cpus = 0;
	for (const char *p = v;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char tok[16];
		uint64_t n;

		if (len == 0 || len >= sizeof(tok)) {
			bt_diag_set(d, "--cpu %s: expected 'all' or CPU numbers separated by "
				    "commas", v);
			return BT_ERR_INVALID;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		if (bt_options_parse_u64(tok, 4095, &n) != BT_OK) {
			bt_diag_set(d, "--cpu %s: '%s' is not a CPU number (or use 'all')", v, tok);
			return BT_ERR_INVALID;
		}
		if (o->n_cpus == BT_MAX_CPU_LIST) {
			bt_diag_set(d, "--cpu: at most %d CPUs in a list", BT_MAX_CPU_LIST);
			return BT_ERR_INVALID;
		}
		for (int k = 0; k < o->n_cpus; k++)
			if (o->cpus[k] == n) {
				bt_diag_set(d, "--cpu %s: CPU %llu named twice (each CPU is measured "
					    "once)", v, (unsigned long long)n);
				return BT_ERR_INVALID;
			}
		o->cpus[o->n_cpus++] = (uint32_t)n;
		if (!comma)
			return BT_OK;
		p = comma + 1;
	}
}

static bt_status set_copies(struct bt_options *o, const char *v, struct bt_diag *d)
{
	return set_count(&o->copies, "--copies", 1, 4096, v, d);
}

/* -x takes the rest of the words (bt_options_parse hands them over). */
static bt_status set_exec(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->exec_path = v;
	return BT_OK;
}

static bt_status set_qemu_exit(struct bt_options *o, const char *v, struct bt_diag *d)
{
	uint64_t port = BT_QEMU_DEBUG_EXIT_PORT;

	if (v && bt_options_parse_u64(v, 0xffff, &port) != BT_OK) {
		bt_diag_set(d, "--qemu-exit=%s: not an I/O port number (0-0xffff)", v);
		return BT_ERR_INVALID;
	}
	o->qemu_exit = true;
	o->qemu_exit_port = (uint16_t)port;
	return BT_OK;
}

static bt_status set_then_boot(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!*v) {
		bt_diag_set(d, "--then-boot: empty file name");
		return BT_ERR_INVALID;
	}
	o->then_boot = v;
	return BT_OK;
}

static bt_status set_run(struct bt_options *o, const char *v, struct bt_diag *d)
{
	return bt_boot_parse_run(v, &o->boot, d);
}

/* --then replaces whatever end action came before it (--then-boot,
 * --shutdown or another --then): the later option wins. */
static bt_status set_then(struct bt_options *o, const char *v, struct bt_diag *d)
{
	static const struct { const char *name; enum bt_then then; } plain[] = {
		{ "next-boot-entry", BT_THEN_NEXT_BOOT_ENTRY },
		{ "reboot", BT_THEN_REBOOT },
		{ "return", BT_THEN_RETURN },
		{ "shutdown", BT_THEN_DEFAULT },
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(plain); i++)
		if (strcmp(v, plain[i].name) == 0) {
			o->then_boot = NULL;
			o->boot.then = plain[i].then;
			o->shutdown = plain[i].then == BT_THEN_DEFAULT;
			return BT_OK;
		}
	if (strncmp(v, "chainload:", 10) == 0 && v[10]) {
		o->then_boot = v + 10;
		o->boot.then = BT_THEN_DEFAULT;
		o->shutdown = false;
		return BT_OK;
	}
	bt_diag_set(d, "--then %s: give chainload:FILE, next-boot-entry, shutdown, reboot or "
		    "return", v);
	return BT_ERR_INVALID;
}

static bt_status set_budget(struct bt_options *o, const char *v, struct bt_diag *d)
{
	return bt_boot_parse_budget(v, &o->boot, d);
}

FLAG(test_hang)

static bt_status set_results_dir(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (!*v) {
		bt_diag_set(d, "--results-dir: empty directory name");
		return BT_ERR_INVALID;
	}
	o->results_dir = v;
	return BT_OK;
}

static bt_status set_keep_results(struct bt_options *o, const char *v, struct bt_diag *d)
{
	if (strcmp(v, "all") == 0) {
		o->keep_results = 0;
		return BT_OK;
	}
	return set_count(&o->keep_results, "--keep-results", 1, BT_RESULTS_MAX_SEQ, v, d);
}

static bt_status set_min_free(struct bt_options *o, const char *v, struct bt_diag *d)
{
	return set_count(&o->min_free_mib, "--min-free", 0, 1u << 20, v, d);
}

static bt_status set_config(struct bt_options *o, const char *v, struct bt_diag *d)
{
	(void)d;
	o->config_path = v;
	return BT_OK;
}

static const struct option_def options[] = {
	{ "General", "help", 'h', ARG_NONE, NULL, "show this help and exit", set_help },
	{ NULL, "version", 'V', ARG_NONE, NULL, "show the version and exit", set_version },
	{ NULL, "quiet", 'q', ARG_NONE, NULL,
	  "console: one line for the CPU and one per workload, no trees (the results file "
	  "has everything)", set_quiet },
	{ NULL, "color", 0, ARG_OPTIONAL, "WHEN",
	  "highlight flagged nodes (yellow) and the bottleneck path (red), draw the level-1 "
	  "bars in block characters where the console shows them (not with a serial terminal "
	  "attached): auto (default: on the UEFI console, and hosted when stdout is a "
	  "terminal), always, never (plain text, '#' bars); --color alone is always",
	  set_color },

	{ "Unattended runs", "shutdown", 0, ARG_NONE, NULL,
	  "power the machine off when done (UEFI ResetSystem), on a boot that measured; any "
	  "other boot hands over", set_shutdown },
	{ NULL, "then-boot", 0, ARG_REQUIRED, "FILE",
	  "when done (results written, every register restored), start the EFI application "
	  "FILE, e.g. the OS loader \\EFI\\debian\\shimx64.efi: boot, measure, save, hand over",
	  set_then_boot },
	{ NULL, "qemu-exit", 0, ARG_OPTIONAL, "PORT",
	  "on failure, report the exit status to QEMU's isa-debug-exit device at PORT "
	  "(default 0xf4; QEMU then exits with 2*status+1); with --shutdown a success powers "
	  "off (QEMU exits with 0)",
	  set_qemu_exit },

	{ NULL, "run", 0, ARG_REQUIRED, "once|every-boot|every=N",
	  "boot-time runs: measure on the first boot only, on every boot, or on the first and "
	  "then every N-th; the state is kept in the NVRAM variable BaretopState (README, "
	  "\"Boot-time runs for fleets\"); a boot that does not measure hands over at once",
	  set_run },
	{ NULL, "then", 0, ARG_REQUIRED, "ACTION",
	  "when done: chainload:FILE (as --then-boot FILE), next-boot-entry (the BootOrder "
	  "entry after BootCurrent), shutdown (as --shutdown), reboot (on a boot that measured, "
	  "where the next boot cannot restart again, never two boots in a row), or return (to "
	  "the boot manager, as \"not started\" so that it goes on with BootOrder); replaces an "
	  "earlier end action. With none, an unattended run returns the same way; under "
	  "systemd-boot or another loader it hands back to it (README, \"Boot-time runs for "
	  "fleets\")",
	  set_then },
	{ NULL, "budget", 0, ARG_REQUIRED, "SECONDS",
	  "time budget of a boot, from baretop's start, kept by planning: no workload starts "
	  "when the time so far plus its estimate (the mean of the workloads before it) would "
	  "pass it, and no counter group or timed-PEBS sampling (one run) of a started "
	  "workload starts when its estimate (the longest run of that workload so far, its "
	  "warm-up for the first group, times the runs still to do) would; what is left out is "
	  "listed, a workload cut short is "
	  "recorded as partial (\"not measured (budget)\"). Nothing stops a window once "
	  "started. The UEFI watchdog, armed to the budget plus 5 s, resets a machine that "
	  "hangs with interrupts open and the next boot records the hang; it is a timer "
	  "event, which cannot fire in a window (interrupts masked): a hung window is caught "
	  "only by a hardware (platform TCO/BMC) watchdog",
	  set_budget },
	{ NULL, "test-hang", 0, ARG_NONE, NULL,
	  "(for tests) after the boot state is written, spin forever with interrupts enabled, "
	  "as a hung workload would: only the watchdog of --budget ends it", set_test_hang },

	{ "Files", "results-dir", 0, ARG_REQUIRED, "DIR",
	  "write results under DIR on the boot volume (default \\baretop\\results; "
	  "baretop-host run: results next to the baretop-host binary, build/results, never "
	  "the working directory)",
	  set_results_dir },
	{ NULL, "no-results", 0, ARG_NONE, NULL, "do not write a results file", set_no_results },
	{ NULL, "keep-results", 0, ARG_REQUIRED, "N|all",
	  "after writing a results file, delete the oldest ones so that N remain (never the "
	  "file just written; default 100, all: keep every file): an ESP shared with the OS "
	  "does not fill up under --run every-boot; the volume's free space is in every "
	  "results file",
	  set_keep_results },
	{ NULL, "min-free", 0, ARG_REQUIRED, "MIB",
	  "write no results file while the results volume has less than MIB MiB free "
	  "(default 32, 0: no floor): the OS's kernel installs and capsule updates need room "
	  "on the ESP; the report is on the console all the same (exit status 3)",
	  set_min_free },
	{ NULL, "config", 0, ARG_REQUIRED, "FILE",
	  "read options from FILE (default: baretop.cfg next to baretop.efi, if present)",
	  set_config },
	{ NULL, "no-config", 0, ARG_NONE, NULL, "ignore the configuration file", set_no_config },

	{ "Detection and self-tests", "fault-selftest", 0, ARG_NONE, NULL,
	  "execute instructions that fault (UD2, RDPMC, a reserved MSR) through the fault "
	  "guard and report what each raised",
	  set_fault_selftest },
	{ NULL, "fault-selftest-ap", 0, ARG_NONE, NULL,
	  "execute an unguarded UD2 in a job on another CPU: baretop must report it, bring "
	  "that CPU back to the firmware and go on", set_fault_selftest_ap },
	{ NULL, "fault-selftest-ap-lost", 0, ARG_NONE, NULL,
	  "as --fault-selftest-ap, its cleanup faulting too: the run must fail (exit 1) and end "
	  "with a reset (a hand-over if the boot before was already ended by one)",
	  set_fault_selftest_ap_lost },
	{ NULL, "crash-test", 0, ARG_NONE, NULL,
	  "raise an unexpected #UD on baretop's own CPU: it must be reported and the run end as "
	  "a crashed one (a reset within the cap, the next boot handing over; else the "
	  "hand-over; never a power-off; with --qemu-exit, a failure once recorded); to test "
	  "unattended setups", set_crash_test },
	/* Hidden (no help): the tests of the stack protector's and BT_ASSERT's
	 * report, like --crash-test's but not for unattended setups. */
	{ NULL, "stack-smash-test", 0, ARG_NONE, NULL, NULL, set_stack_smash_test },
	{ NULL, "assert-test", 0, ARG_NONE, NULL, NULL, set_assert_test },
	{ NULL, "assume-amd-legacy-pmu", 0, ARG_NONE, NULL,
	  "on AMD under a hypervisor, assume the 4 legacy counters exist (they have no CPUID bit)",
	  set_assume_amd_legacy_pmu },

	{ "Top-Down", "model", 0, ARG_REQUIRED, "ID",
	  "use this built-in model whatever the CPU (default: chosen from CPUID; ARCH: the "
	  "architectural model, from the Top-Down events the CPU enumerates; TNT: Tremont's "
	  "own Top-Down events)", set_model },
	{ NULL, "list-models", 0, ARG_NONE, NULL, "list the built-in models", set_list_models },
	{ NULL, "model-files", 0, ARG_REQUIRED, "METRICS,EVENTS[,...]",
	  "load the model from Intel perfmon files on the boot volume (new silicon needs no "
	  "rebuild): the *_metrics.json file, then the *_core.json event file(s)",
	  set_model_files },
	{ NULL, "level", 0, ARG_REQUIRED, "N", "measure every node down to level N", set_level },
	{ NULL, "drilldown", 0, ARG_NONE, NULL,
	  "measure level 1, then only the children of flagged nodes, level by level (default)",
	  set_drilldown },
	{ NULL, "sim", 0, ARG_OPTIONAL, "NAME",
	  "count with the SIMULATED PMU (of the model's CPU, or NAME: a model id or a preset); "
	  "every output says so", set_sim },
	{ NULL, "backend", 0, ARG_REQUIRED, "hw|sim|perf",
	  "who programs the counters: hw, baretop's own driver (the default); sim, the SIMULATED "
	  "PMU (as --sim); perf, Linux perf_event (baretop-host run only: the kernel's driver "
	  "counts user mode, one pinned group per planned group, never multiplexed; every output "
	  "says so and names the kernel and any hypervisor)", set_backend },
	{ NULL, "sim-cpuid", 0, ARG_REQUIRED, "FILE[@CPU]",
	  "count with the SIMULATED PMU of a CPU that answers CPUID as logical CPU CPU (default "
	  "0) of a dump (../shared/reference/cpuid format or `cpuid -r` output): its counters, "
	  "23H bitmaps, SLOTS_PER_CYC; its MSRs (IA32_PERF_CAPABILITIES) from the preset of "
	  "the same core class, or --sim=PRESET; the output says which", set_sim_cpuid },
	{ NULL, "counts", 0, ARG_REQUIRED, "FILE",
	  "with --sim: the counts the simulated PMU produces (a count file as in "
	  "testdata/tma/FORMAT.md; its constants are replayed too)", set_counts },
	{ NULL, "retire-latency-file", 0, ARG_REQUIRED, "F",
	  "retire latencies for the formulas' EVENT:R inputs that no measurement gives "
	  "(before the published means): Intel's retire-latency JSON (\"Data\": {EVENT: "
	  "{\"MEAN\": ...}}) or {EVENT: cycles}; on the boot volume too. Every output "
	  "names each input's source", set_retire_latency_file },
	{ NULL, "no-default-retire-latency", 0, ARG_NONE, NULL,
	  "an EVENT:R input no measurement or file gives: the formula's own fallback (its "
	  "cap), not the published mean (GNR: Intel's; LNL, ARL, MTL: pmu-tools')",
	  set_no_default_rl },
	{ NULL, "sim-miscount", 0, ARG_REQUIRED, "EVENT:HOW",
	  "with --sim: make one event miscount, to test the consistency rules: HOW is scale=X "
	  "(its count times X, a decimal number from 0 to 1000), stuck=N (always N, a whole number "
	  "below 2^48) or swap=OTHER (counts OTHER's count); the known-count kernels of "
	  "--validate, --bring-up and --atlas count it so too",
	  set_sim_miscount },
	{ NULL, "sim-defect", 0, ARG_REQUIRED, "NAME[:K],...",
	  "with --sim: inject hardware defects into the simulated PMU (stuck-counter:K, "
	  "double-count:CODE/UMASK, narrow-counter:K, fixed-dead:K, no-overflow-bit:K, "
	  "umask-ignored:CODE, fw-truncates, ...); --sim-defect=help lists them", set_sim_defect },
	{ NULL, "sim-sibling-active", 0, ARG_REQUIRED, "F",
	  "with --sim: the SIMULATED SMT sibling runs a fraction F (0..1) of the time "
	  "(default 0)", set_sim_sibling },
	{ NULL, "no-count", 0, ARG_NONE, NULL, "time the workloads, do not count", set_no_count },
	{ NULL, "no-pebs", 0, ARG_NONE, NULL,
	  "do not sample the formulas' retire latencies with timed PEBS (where "
	  "IA32_PERF_CAPABILITIES[17] offers it); the other sources still apply", set_no_pebs },
	{ NULL, "no-health-check", 0, ARG_NONE, NULL,
	  "skip the counter health check before counting (every general counter and fixed "
	  "counter 0 count instructions over a known loop and must agree within 0.1 %; a counter "
	  "that does not is named and left out of the plan)", set_no_health_check },

	{ "Workloads", "workload", 'w', ARG_REQUIRED, "SPEC",
	  "run workload SPEC = NAME[:PARAM=VALUE,...] (repeatable; default: the default suite)",
	  set_workload },
	{ NULL, "list-workloads", 0, ARG_NONE, NULL,
	  "list the built-in workloads, their parameters and expected signatures", set_list_workloads },
	{ NULL, "quick", 0, ARG_NONE, NULL,
	  "use the small parameter preset of every workload (for emulators such as QEMU TCG)",
	  set_quick },
	{ NULL, "no-workloads", 0, ARG_NONE, NULL, "identify the CPU and PMU only", set_no_workloads },
	{ NULL, "reps", 0, ARG_REQUIRED, "N", "measured repetitions per counter group (default 5)",
	  set_reps },
	{ NULL, "warmups", 0, ARG_REQUIRED, "N", "discarded warm-up runs before them (default 1)",
	  set_warmups },
	{ NULL, "max-window-ms", 0, ARG_REQUIRED, "MS",
	  "the longest a counting window may run with interrupts masked (default 1000, from "
	  "0.01 to 60000): when the first run of a workload (its warm-up) is longer, its later "
	  "runs (its timed-PEBS samplings too) are split into windows under it, counters "
	  "stopped and interrupts open between "
	  "them, their counts summed; a workload that cannot be split (multiply1-3 can, by "
	  "rows) runs whole, with a warning. Only counted runs are split, not timed ones. A "
	  "plan, like --budget: it cannot end a window that hangs (only a hardware watchdog "
	  "can)",
	  set_max_window },
	{ NULL, "cpu", 0, ARG_REQUIRED, "N[,N...]|all",
	  "run on these logical CPUs (numbers as MP services counts them), one after another; "
	  "'all' = every enabled CPU but the SMT siblings of baretop's (default: the one "
	  "baretop started on)", set_cpu },
	{ NULL, "copies", 0, ARG_REQUIRED, "N",
	  "run N copies at once (the paper's multi-copy mode) on N other CPUs, each with its "
	  "own data; one is measured", set_copies },
	{ NULL, "exec", 'x', ARG_REQUIRED, "FILE [ARGS...]",
	  "measure the EFI application FILE (with ARGS, the rest of the command line) as the "
	  "workload: only its StartImage is counted, once per counter group",
	  set_exec },

	{ "Validation", "validate", 0, ARG_NONE, NULL,
	  "validate PMU events over known-count kernels instead of running workloads: "
	  "PASS/WARN/FAIL/SKIP per check; exit 1 if any FAILs, 2 for a malformed spec, 4 if "
	  "there is no PMU to validate (README \"Validating PMU events\")", set_validate },
	{ NULL, "validate-spec", 0, ARG_REQUIRED, "FILE",
	  "with --validate (implied): check the events of spec FILE (docs/validate-spec.md, at "
	  "most 4096 checks) instead of the built-in spec", set_validate_spec },
	{ NULL, "bring-up", 0, ARG_NONE, NULL,
	  "one run for new silicon: PMU conformance and --validate over the events of the "
	  "chosen model (ARCH, --model ID or --model-files; to --level N if given), then the Top-Down run; a node "
	  "whose formula uses an event that FAILed or was SKIPped is marked 'untrusted: EVENT "
	  "failed validation (CHECK)' and is never the bottleneck, as is (ARCH with PERF_METRICS) a "
	  "level-1 node whose cross-check is violated; one results file holds both; exit 1 if a "
	  "check FAILed or a cross-check was violated (the trusted tree is still written)", set_bring_up },
	{ NULL, "atlas", 0, ARG_NONE, NULL,
	  "the event atlas instead of the workloads: every event of --events-file counted over "
	  "the known-count kernels at n and 2n and the empty window, in counter groups at the "
	  "planner's lower bound; a class per event (zero, constant, linear with its slope and "
	  "matching declared count, nonlinear, noisy, refused, not modelled) and invariants "
	  "(CMASK=1 <= cycles, c1 + c1:inv = cycles, edge <= c1, ...); exit 1 if an invariant "
	  "is violated (README \"The event atlas\"); without --events-file the built-in list: "
	  "the part's full core list (Intel's perfmon file, packed) for the built-in Intel models "
	  "made from perfmon files (every one but TNT; `baretop-host models`); else Intel's architectural events the core "
	  "enumerates and its fixed counters, or AMD's six core events", set_atlas },
	{ NULL, "events-file", 0, ARG_REQUIRED, "FILE",
	  "with --atlas (implied): the event list, Intel's perfmon core events JSON or a Linux "
	  "perf AMD JSON array, read as untrusted input", set_events_file },
	{ NULL, "atlas-json", 0, ARG_REQUIRED, "FILE",
	  "with --atlas (implied): also write the atlas alone as JSON to FILE ('-': standard "
	  "output)", set_atlas_json },
	{ NULL, "atlas-spec", 0, ARG_REQUIRED, "FILE",
	  "with --atlas (implied): write a validation spec of every linear event (its slope) to "
	  "FILE, for --validate-spec on the next run", set_atlas_spec },
	/* Hidden (no help text): the combinations table with examples, for the
	 * suite's option-combinations step (app/options-combos.c). */
	{ NULL, "option-combinations", 0, ARG_NONE, NULL, NULL, set_list_option_combos },
	/* Hidden (no help text): for the suite's `kernel-icount` step, app/kernel-ticks.h. */
	{ NULL, "kernel-ticks", 0, ARG_NONE, NULL, NULL, set_kernel_ticks },
};

#define N_OPTIONS (BT_ARRAY_SIZE(options))

void bt_options_defaults(struct bt_options *o)
{
	memset(o, 0, sizeof(*o));
	o->results_dir = BT_DEFAULT_RESULTS_DIR;
	o->qemu_exit_port = BT_QEMU_DEBUG_EXIT_PORT;
	o->max_window_ms = BT_MAX_WINDOW_MS_DEFAULT;
	o->keep_results = BT_KEEP_RESULTS_DEFAULT;
	o->min_free_mib = BT_RESULTS_MIN_FREE_MIB_DEFAULT;
}

static const struct option_def *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
			return &options[i];
	return NULL;
}

/* The visible option nearest to a misspelled long name ("resluts-dir"). */
static const char *nearest_long(const char *w)
{
	size_t len = strcspn(w, "=");
	const char *best = NULL;
	unsigned best_d = 255;

	for (size_t i = 0; i < N_OPTIONS; i++) {
		unsigned dist = bt_edit_distance(w, len, options[i].name, strlen(options[i].name));
		if (options[i].help && bt_suggest_near(w, len, options[i].name) && dist < best_d) {
			best = options[i].name;
			best_d = dist;
		}
	}
	return best;
}

static const struct option_def *find_short(char c)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (options[i].short_name && options[i].short_name == c)
			return &options[i];
	return NULL;
}

/* Which options one source (bt_options_parse call) gave: bt_option_source. */
struct given_set {
	bool by_index[N_OPTIONS];
};

static bool given_in(const void *ctx, const char *long_name)
{
	const struct option_def *def = find_long(long_name, strlen(long_name));
	return def && ((const struct given_set *)ctx)->by_index[def - options];
}

static bt_status parse_words(struct bt_options *o, int n, char **words, const char *where,
			     struct given_set *g, struct bt_diag *d);

bt_status bt_options_parse(struct bt_options *o, int n, char **words, const char *where,
			   struct bt_diag *d)
{
	struct given_set g;
	memset(&g, 0, sizeof(g));
	if (parse_words(o, n, words, where, &g, d) != BT_OK)
		return BT_ERR_INVALID;
	/* The command line is named "command line" (options-config.c); any
	 * other source is a configuration file. */
	struct bt_option_source s = { .given = given_in, .ctx = &g,
				      .in_config = strcmp(where, "command line") != 0 };
	return bt_option_combos_source(o, &s, where, d);
}

static bt_status parse_words(struct bt_options *o, int n, char **words, const char *where,
			     struct given_set *g, struct bt_diag *d)
{
	for (int i = 0; i < n; i++) {
		const char *w = words[i], *value = NULL;
		const struct option_def *def = NULL;
		char shown[64];

		if (w[0] == '-' && w[1] == '-' && w[2]) {
			const char *eq = strchr(w + 2, '=');
			size_t len = eq ? (size_t)(eq - (w + 2)) : strlen(w + 2);

			def = find_long(w + 2, len);
			snprintf(shown, sizeof(shown), "--%.*s", (int)len, w + 2);
			if (eq)
				value = eq + 1;
		} else if (w[0] == '-' && w[1] && !w[2]) {
			def = find_short(w[1]);
			snprintf(shown, sizeof(shown), "-%c", w[1]);
		} else {
			bt_diag_set(d, "%s: unexpected argument '%s'", where, w);
			return BT_ERR_INVALID;
		}
		if (!def) {
			const char *near = w[1] == '-' ? nearest_long(w + 2) : NULL;
			if (near)
				bt_diag_set(d, "%s: unknown option '%s', did you mean --%s?", where, w, near);
			else
				bt_diag_set(d, "%s: unknown option '%s'", where, w);
			return BT_ERR_INVALID;
		}
		switch (def->arg) {
		case ARG_NONE:
			if (value) {
				bt_diag_set(d, "%s: option '%s' takes no value", where, shown);
				return BT_ERR_INVALID;
			}
			break;
		case ARG_REQUIRED:
			if (!value) {
				if (i + 1 >= n) {
					bt_diag_set(d, "%s: option '%s' needs a value (%s)",
						    where, shown, def->metavar);
					return BT_ERR_INVALID;
				}
				value = words[++i];
			}
			break;
		case ARG_OPTIONAL:
			break;
		}
		if (def->apply(o, value, d) != BT_OK) {
			bt_diag_prefix(d, "%s", where);
			return BT_ERR_INVALID;
		}
		g->by_index[def - options] = true;
		if (def->apply == set_exec) {
			/* Everything after -x FILE belongs to FILE: argv[0] = FILE.
			 * For --exec=FILE the word itself becomes "FILE", moved in
			 * place: the pointer stays the one its owner frees. */
			if (words[i] != value) {
				memmove(words[i], value, strlen(value) + 1);
				o->exec_path = words[i];
			}
			o->exec_argc = n - i;
			o->exec_argv = &words[i];
			return BT_OK;
		}
	}
	return BT_OK;
}

/* The option word w takes the next word as its value ("--counts FILE"). */
static bool takes_next_word(const char *w)
{
	const struct option_def *def = NULL;

	if (w[0] == '-' && w[1] == '-' && w[2] && !strchr(w + 2, '='))
		def = find_long(w + 2, strlen(w + 2));
	else if (w[0] == '-' && w[1] && !w[2])
		def = find_short(w[1]);
	return def && def->arg == ARG_REQUIRED;
}

/* Walks the words as bt_options_parse does, so a value that looks like
 * -x or --exec= ("--counts --exec=f") is a value here too. */
int bt_options_scan_limit(int n, char **words)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(words[i], "-x") == 0 || strcmp(words[i], "--exec") == 0 ||
		    strncmp(words[i], "--exec=", 7) == 0)
			return i;
		if (takes_next_word(words[i]))
			i++;
	}
	return n;
}

bool bt_options_has(int n, char **words, const char *long_name)
{
	size_t len = strlen(long_name);

	for (int i = 0; i < n; i++)
		if (words[i][0] == '-' && words[i][1] == '-' &&
		    strncmp(words[i] + 2, long_name, len) == 0 &&
		    (words[i][2 + len] == '\0' || words[i][2 + len] == '='))
			return true;
	return false;
}

void bt_options_scan_end_actions(struct bt_options *o, int n, char **words)
{
	n = bt_options_scan_limit(n, words); /* what follows -x is the application's */
	for (int i = 0; i < n; i++) {
		if (bt_options_has(1, &words[i], "shutdown"))
			o->shutdown = true;
		if (bt_options_has(1, &words[i], "qemu-exit")) {
			const char *eq = strchr(words[i], '=');
			if (set_qemu_exit(o, eq ? eq + 1 : NULL, NULL) != BT_OK)
				set_qemu_exit(o, NULL, NULL);
		}
		/* --run and --then: under a run policy the OS boots even when
		 * the rest of the words cannot be parsed. */
		bool then = bt_options_has(1, &words[i], "then");
		if (then || bt_options_has(1, &words[i], "run")) {
			const char *eq = strchr(words[i], '=');
			const char *v = eq ? eq + 1 : i + 1 < n ? words[i + 1] : NULL;
			struct bt_diag ignored;
			if (v)
				(then ? set_then : set_run)(o, v, &ignored);
		}
	}
}

/* Prints text wrapped at `width` columns, continuation lines indented. */
static void wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;

	while (*p) {
		int room = width - col;
		const char *end = p;
		const char *last_space = NULL;

		while (*end && end - p < room) {
			if (*end == ' ')
				last_space = end;
			end++;
		}
		if (*end && last_space)
			end = last_space;
		fprintf(f, "%.*s\n", (int)(end - p), p);
		p = *end == ' ' ? end + 1 : end;
		if (*p)
			fprintf(f, "%*s", indent, "");
		col = indent;
	}
}

static void print_option(FILE *f, const struct option_def *d);

void bt_options_usage(FILE *f, const char *program)
{
	fprintf(f, "usage: %s [OPTIONS]\n\n"
		   "baretop: bare-metal Top-Down performance analysis (UEFI application).\n"
		   "Options are read from baretop.cfg next to the app, then from the command line.\n",
		program);
	for (size_t i = 0; i < N_OPTIONS; i++) {
		const struct option_def *d = &options[i];

		if (!d->help)
			continue; /* hidden: a test's option */
		if (d->section)
			fprintf(f, "\n%s:\n", d->section);
		print_option(f, d);
	}
	bt_option_combos_help(f);
	fprintf(f, "\nExit status: 0 success, 1 run failed or a counted tree has untrusted nodes (a "
		   "violated\nconsistency rule names an event they read), 2 bad arguments, "
		   "3 results could not be written;\n--validate: 1 a check FAILed, 2 the spec "
		   "file is malformed, 4 no PMU to validate;\n--bring-up: 1 a check FAILed or a cross-check "
		   "was violated (the tree is written, its untrusted nodes marked).\n");
}

void bt_options_usage_only(FILE *f, const char *const *names)
{
	for (size_t k = 0; names[k]; k++) {
		const struct option_def *d = find_long(names[k], strlen(names[k]));
		if (d && d->help)
			print_option(f, d);
	}
}

static void print_option(FILE *f, const struct option_def *d)
{
	char left[64];
	int n;

	n = snprintf(left, sizeof(left), "  %s%c%s--%s", d->short_name ? "-" : "",
		     d->short_name ? d->short_name : ' ', d->short_name ? ", " : "  ",
		     d->name);
	if (!d->short_name)
		n = snprintf(left, sizeof(left), "      --%s", d->name);
	if (d->arg == ARG_REQUIRED && n < (int)sizeof(left))
		n += snprintf(left + n, sizeof(left) - (size_t)n, " %s", d->metavar);
	else if (d->arg == ARG_OPTIONAL && n < (int)sizeof(left))
		n += snprintf(left + n, sizeof(left) - (size_t)n, "[=%s]", d->metavar);
	fprintf(f, "%-32s", left);
	if (n >= 32)
		fprintf(f, "\n%32s", "");
	wrap(f, d->help, 32, 32, 100);
}
