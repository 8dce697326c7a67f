/* SPDX-License-Identifier: MIT */
/* The count context, shared by app/count*.c only. */
#ifndef APP_COUNT_INTERNAL_H
#define APP_COUNT_INTERNAL_H

#include "app/count.h"
#include "base/arena.h"
#include "metrics/counts-file.h"
#include "metrics/retire-latency-file.h"
#include "metrics/rules.h"
#include "pmu/counter-health.h"
#include "synth/sim-run.h"
#include "report/tree.h"

/* One CPU's counter health check, in its context's list. */
struct bt_cpu_health {
	struct bt_counter_health h;
	struct bt_cpu_health *next;
};

struct bt_count_ctx {
	struct bt_arena arena;
	/* --bring-up: per model event, the check that did not pass (event ""
	 * = passed or not checked); NULL without --bring-up. Each tree marks
	 * the nodes whose formulas read such an event (count-run.c). */
	struct bt_untrust *ev_untrust;
	unsigned n_cross_untrusted;    /* nodes untrusted by a violated cross-check,
					* summed over the workloads' trees (a node in
					* two trees counts twice) */
	const struct bt_cpu_info *cpu;
	const struct bt_model_def *def;
	struct bt_model *model;
	struct bt_rule_set *rules;     /* its consistency rules (NULL: not derived) */
	char how[320];                 /* how the model was chosen */
	const char *like_id;           /* --model-files: the built-in model it stands in for */
	/* Issue slots per cycle for the simulated workload model: the model's
	 * pipeline width, or for ARCH without one (no SLOTS_PER_CYC) that of
	 * the published model nearest the simulated core. */
	unsigned sim_width;
	struct bt_pmu pmu;             /* the PMU: its backend and what it can do */
	struct bt_synth *synth;        /* --sim: the simulated PMU and its counts; NULL: hardware */
	/* The platform's simulated machine (platform.h sim_machine): the
	 * synth counts on its CPUs' PMUs. NULL: none. */
	const struct bt_sim_machine *machine;
	/* --backend=perf (pmu.driver set, platform.h os_pmu): the
	 * provenance every output carries; "" otherwise. */
	char counted_by[320];
	/* The platform's reader of the pages that map baretop's memory (the
	 * kernels' buffers: the real machine's, also under --sim). */
	void (*memory_pages)(const void *addr, uint64_t len, struct bt_page_span *ret);
	struct bt_count_file cf;       /* --counts */
	bool have_cf;
	struct bt_counts *file_counts; /* its counts, latencies and constants */
	struct bt_rl_file rl_file;     /* --retire-latency-file */
	bool have_rl_file;
	bool no_pebs;                  /* --no-pebs */
	bool no_default_rl;            /* --no-default-retire-latency */
	char pebs_why[512];            /* timed PEBS not used: why ("" = usable) */
	/* events as the planner sees them (index = model event index) */
	const struct bt_event **evp;
	struct bt_event *twins;
	double constants[BT_CONST_COUNT];
	/* The clock the counted TSC ticks at: the simulated CPU's stated one
	 * under --sim (its windows last the workload model's cycles), else the
	 * CPU's. 0: unknown. */
	uint64_t tsc_hz;
	/* Threads per core of the simulated CPU (its CPUID, as the part it
	 * answers as); 0: not simulated, the census's or the CPU's count. */
	uint32_t sim_threads_per_core;
	bool smt;
	bool sim_sibling_given;        /* --sim-sibling-active set the simulated sibling */
	unsigned copies;
	bool exec_mode;                /* -x: the window keeps interrupts enabled */
	unsigned level;                /* 0 = drill-down */
	struct bt_measure_opts mopts;
	double max_window_ms;          /* --max-window-ms (mopts.max_window_ticks: 0 = no TSC rate) */
	char describe[600];
	char notes[14][320];           /* about the count source, printed once (an OS
					* driver's facts take up to 10: host/perf-plan.h) */
	int n_notes;
	unsigned notes_dropped;        /* past the last slot (base/notes.h) */
	struct bt_console_ui *ui;      /* the progress line, or NULL */
	const struct bt_boot_run *boot; /* the time budget (--budget), or NULL */
	struct bt_cpu_team *team;      /* the current workload's CPUs (on-cpu.h), or NULL */
	/* The counter health checks (count-health.c), one per CPU before its
	 * first counted workload (each CPU has its own counters: one that is
	 * stuck on CPU 2 says nothing about CPU 0's), in the order run, in the
	 * arena; health is the one of the CPU counted now (the plan and the
	 * tree's note follow it), NULL before the first. Skipped with why when
	 * health_off. */
	struct bt_cpu_health *health_list;
	struct bt_cpu_health *health;
	const char *health_off;        /* NULL: check; else why not */
	bool quick;                    /* --quick: the check's loop at its quick size */
};

#endif
