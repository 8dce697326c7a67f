/* SPDX-License-Identifier: MIT */
/*
 * baretop's options. One table (app/options.c) drives the parser and the
 * --help text, so the two cannot drift apart. Options come from the
 * configuration file next to the app first (an app started by the boot
 * manager gets no command line), then from the command line; a later
 * option overrides an earlier one.
 */
#ifndef APP_OPTIONS_H
#define APP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/boot-policy.h"
#include "base/diag.h"
#include "base/status.h"

#define BT_DEFAULT_RESULTS_DIR "/baretop/results"
/* The hosted platform's fallback (host/platform-host.c), relative to the
 * working directory; baretop-host run replaces it with results/ next to its
 * binary (tools/baretop-host/cmd-run.c), so nothing lands where it is run. */
#define BT_HOST_RESULTS_DIR "baretop/results"
#define BT_QEMU_DEBUG_EXIT_PORT 0xf4
#define BT_MAX_WORKLOAD_SPECS 32
#define BT_MAX_CPU_LIST 64

struct bt_options {
	bool help;
	bool version;
	bool quiet;
	/* --color=auto|always|never: console highlighting and block-character
	 * bars (auto: when the console is a screen or terminal, app/console-ui.c) */
	enum bt_color_when { BT_COLOR_AUTO, BT_COLOR_ALWAYS, BT_COLOR_NEVER } color;

	/* End of the run */
	bool shutdown;            /* power off when done */
	const char *then_boot;    /* chainload this EFI application when done */
	bool qemu_exit;           /* report a failure to isa-debug-exit */
	uint16_t qemu_exit_port;
	/* Boot-time runs: --run, --then (next-boot-entry, reboot, return; its
	 * chainload and shutdown set then_boot and shutdown), --budget */
	struct bt_boot_config boot;
	bool test_hang;           /* --test-hang: spin until the watchdog resets */

	/* Files */
	const char *results_dir;
	bool no_results;
	unsigned keep_results;    /* --keep-results N: keep the newest N files; 0 = all
				   * (BT_KEEP_RESULTS_DEFAULT unless given) */
	unsigned min_free_mib;    /* --min-free MIB: no results file below it; 0 = none */
	const char *config_path;  /* --config FILE; NULL = the platform's default */
	bool no_config;

	/* Detection and self-tests */
	bool fault_selftest;
	bool fault_selftest_ap;
	bool fault_selftest_ap_lost;  /* ... and a UD2 in its cleanup: that CPU is unaccounted */
	bool crash_test;
	bool stack_smash_test; /* hidden test options: the error path's report */
	bool assert_test;
	bool assume_amd_legacy_pmu;
	bool no_health_check;      /* --no-health-check: counters not checked before counting */

	/* Workloads */
	const char *workloads[BT_MAX_WORKLOAD_SPECS]; /* -w SPEC, in order */
	int n_workloads;
	bool quick;               /* the small parameter preset (QEMU) */
	bool list_workloads;
	bool no_workloads;        /* identification only */
	unsigned reps;            /* 0: BT_MEASURE_REPS_DEFAULT */
	unsigned warmups;
	bool warmups_set;
	double max_window_ms;     /* --max-window-ms: the longest masked window (BT_MAX_WINDOW_MS_*) */
	/* Counting */
	const char *model;        /* --model ID: force a built-in model */
	bool list_models;
	bool kernel_ticks;        /* hidden: time the known-count kernels (the `kernel-icount` step) */
	const char *model_files;  /* --model-files METRICS.json,EVENTS.json[,...] */
	unsigned level;           /* --level N: every node to level N; 0 = drill-down */
	bool drilldown;
	bool sim;                 /* --sim[=NAME]: the simulated PMU, never chosen by itself */
	const char *sim_name;     /* a preset or model id; NULL = the model's own */
	const char *backend;      /* --backend's word as given (hw, sim, perf); NULL when not given */
	bool list_option_combos;  /* hidden --option-combinations: the table for the suite */
	bool perf;                /* --backend=perf: the OS's PMU driver (baretop-host: Linux
				   * perf_event), never baretop's registers */
	const char *sim_cpuid;    /* --sim-cpuid FILE[@CPU]: CPUID of a dump (implies --sim) */
	const char *counts_file;  /* --counts FILE: the simulated PMU's counts */
	const char *retire_latency_file; /* --retire-latency-file F: latencies the user brings */
	const char *sim_miscount; /* --sim-miscount EVENT:HOW: one event miscounts */
	const char *sim_defect;   /* --sim-defect SPEC: hardware defects of the simulated PMU */
	/* --sim-sibling-active F: the simulated CPU's SMT sibling is active in
	 * a fraction F (0..1) of the measured thread's unhalted time */
	double sim_sibling_active;
	bool sim_sibling_set;
	bool list_sim_defects;    /* --sim-defect=help */
	bool no_count;            /* time the workloads only */
	bool no_pebs;             /* --no-pebs: do not sample retire latencies */
	bool no_default_rl;       /* --no-default-retire-latency: the formulas' own
				   * fallback, not the published means */

	/* CPUs: run on these logical CPUs one after another (cpu_all, or the
	 * listed ones), and/or with `copies` simultaneous copies */
	bool cpu_all;
	int n_cpus;
	uint32_t cpus[BT_MAX_CPU_LIST];
	unsigned copies;          /* 0/1: one copy */
	const char *exec_path;    /* -x FILE: an EFI application as the workload */
	int exec_argc;            /* its arguments, argv[0] = FILE */
	char **exec_argv;

	/* Validation (validate/): check PMU events over known-count kernels */
	bool validate;            /* --validate: instead of the workloads */
	const char *validate_spec; /* --validate-spec FILE: a spec file instead of the built-in one */
	bool bring_up;            /* --bring-up: conformance, validate the model's events, then
				   * the Top-Down run with untrusted nodes marked */
	/* The event atlas (validate/atlas.h) */
	bool atlas;               /* --atlas: instead of the workloads */
	const char *events_file;  /* --events-file FILE: the event list */
	const char *atlas_json;   /* --atlas-json FILE ("-": stdout) */
	const char *atlas_spec;   /* --atlas-spec FILE: the generated validation spec */
};

void bt_options_defaults(struct bt_options *o);

/*
 * Parses words[0..n) into *o. `where` names their source for messages
 * ("command line", "\EFI\BOOT\baretop.cfg"). On error returns
 * BT_ERR_INVALID with one line in d ("unknown option '--foo'"). The
 * strings in *o point into words, which must outlive *o. The words must be
 * writable: --exec=FILE is rewritten in place to FILE, the argv[0] of the
 * application.
 */
bt_status bt_options_parse(struct bt_options *o, int n, char **words, const char *where,
			   struct bt_diag *d);

/* True if words contain an option that ends the run unattended
 * (--shutdown, --qemu-exit, --run, --then): honoured even when parsing fails, so that a
 * bad configuration never leaves a machine waiting. */
void bt_options_scan_end_actions(struct bt_options *o, int n, char **words);
bool bt_options_has(int n, char **words, const char *long_name);
/* An option's number: decimal, or hexadecimal with 0x. Not octal ("--cpu
 * 010" is CPU 10 to a reader, not CPU 8); no sign, no white space, at most
 * max. BT_ERR_INVALID otherwise. */
bt_status bt_options_parse_u64(const char *s, uint64_t max, uint64_t *ret);
/* A plain decimal number (digits, at most one '.'; no sign, exponent,
 * space, inf or nan) from 0 to max. */
bool bt_options_plain_decimal(const char *s, double max);
/* --sim-miscount's numbers: a scale up to 1000 keeps a scaled count of any
 * workload far below a counter's 2^48 (the simulated counters' width), a
 * stuck count is one such counter's value. */
#define BT_SIM_MISCOUNT_SCALE_MAX 1000.0
#define BT_SIM_MISCOUNT_STUCK_MAX 0xFFFFFFFFFFFFull
/* Index of -x/--exec in words (the words after it are the application's),
 * or n. */
int bt_options_scan_limit(int n, char **words);

/* The words read from the configuration file. */
struct bt_config_words {
	const char *path;   /* the file they came from; NULL when none was used */
	int argc;
	char **argv;        /* owned: bt_config_words_free */
};

/*
 * All of a run's options (app/options-config.c): the configuration file
 * first -- `--config FILE` on the command line, else default_path (the
 * platform's baretop.cfg next to the app) unless `--no-config` -- then the
 * command line argv[1..argc), which overrides it. A missing default file is
 * not an error; a missing --config file is. On a usage error returns
 * BT_ERR_INVALID with one line in d; even then o's end actions (--shutdown,
 * --qemu-exit) are those of every word that could be read, so a bad file
 * never leaves an unattended machine waiting. The caller frees cfg_words in
 * every case (o points into it).
 */
bt_status bt_options_load(struct bt_options *o, int argc, char **argv, const char *default_path,
			  struct bt_config_words *cfg_words, struct bt_diag *d);
void bt_config_words_free(struct bt_config_words *cfg_words);

/*
 * Options that contradict each other or do nothing together (one table,
 * app/options-combos.c, which also prints the "Combinations" table of
 * --help and, for the suite, every row with an example command line).
 * A source is one place options came from: the configuration file or the
 * command line; given() says whether it gave an option (long name).
 */
struct bt_option_source {
	bool (*given)(const void *ctx, const char *long_name);
	const void *ctx;
	bool in_config;                    /* the configuration file */
	const char *model_id;              /* the chosen model (bt_option_combos_model) */
	unsigned model_retire_latencies;   /* its EVENT:R inputs */
};
/* Two options of one source that contradict each other: BT_ERR_INVALID
 * with "WHERE: COMBINATION: REASON" in d (bt_options_parse calls it). */
bt_status bt_option_combos_source(const struct bt_options *o, const struct bt_option_source *s,
				  const char *where, struct bt_diag *d);
/* The same for the options of every source together (app-main.c). */
bt_status bt_option_combos_final(const struct bt_options *o, struct bt_diag *d);
/* Once the model is chosen: a note for each option that has nothing to act
 * on with it (app/count.c). */
void bt_option_combos_model(const struct bt_options *o, const char *model_id, unsigned retire_latencies,
			    void (*note)(void *ctx, const char *text), void *ctx);
void bt_option_combos_help(FILE *f);
/* KIND<TAB>COMBINATION<TAB>EXAMPLES<TAB>CONFIG WORDS or -<TAB>REASON per row */
void bt_option_combos_list(FILE *f);

void bt_options_usage(FILE *f, const char *program);
/* The help lines of the options named (long names, NULL-terminated list),
 * as bt_options_usage prints them: a command that takes a few of them
 * (`baretop-host validate`) shows only those. */
void bt_options_usage_only(FILE *f, const char *const *names);

/* --max-window-ms: its default and range (README, "Boot-time runs for
 * fleets"). A second is far below the UEFI watchdog's 5 minutes and
 * keeps a run's windows few (a few hundred register accesses each); the
 * lower end lets the suite split the simulated PMU's sub-millisecond
 * windows. */
#define BT_MAX_WINDOW_MS_DEFAULT 1000.0
#define BT_MAX_WINDOW_MS_MIN 0.01
#define BT_MAX_WINDOW_MS_MAX 60000.0

#endif
