/* SPDX-License-Identifier: MIT */
/*
 * The results document of one run, as plain data: app/ fills a struct
 * bt_results (pointers into its own state, nothing copied) and hands it to
 * a format, which walks it and renders the document; results-file.c saves
 * it as DIR/NNNNNN.<ext>. JSON is the one format today (results-json.c);
 * another is one more file that walks the same struct (README.md, "Add an
 * output format").
 */
#ifndef REPORT_RESULTS_H
#define REPORT_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "firmware/machine.h"
#include "pmu/cpu-info.h"
#include "pmu/measure.h"
#include "report/counted.h"
#include "report/results-file.h"

/* Version of the results-file layout; bumped on incompatible changes. */
#define BT_RESULTS_FORMAT_VERSION 3

/* Logical CPUs as the platform enumerates them (app/ takes the census). */
struct bt_cpu_census {
	uint32_t total, enabled;   /* 0 = unknown */
	uint32_t packages;         /* distinct package numbers seen */
	uint32_t threads_per_core; /* max thread index + 1 seen, 0 = unknown */
	char note[128];            /* why unknown */
};

/* What the results say about the platform baretop ran on. */
struct bt_platform_facts {
	const char *name;            /* "UEFI" or "hosted" */
	uint32_t uefi_revision;      /* (major << 16) | minor, 0 when hosted */
	const char *firmware_vendor; /* "" when unknown */
	uint32_t firmware_revision;
	const char *program_path;    /* "" when unknown */
	const char *arch_backend;    /* the privileged-instruction backend's name */
	bool fault_guard_installed;
	const char *fault_guard_detail;
};

/* The fault-guard self-test (app/fault-selftest.c runs it). */
#define BT_FAULT_PROBES 3

struct bt_fault_probe {
	const char *what;        /* "RDPMC ECX=0" */
	bool ran;
	bool faulted;
	uint8_t vector;
	uint64_t value;          /* when it did not fault */
	char note[160];
};

struct bt_fault_selftest {
	struct bt_fault_probe probe[BT_FAULT_PROBES];
	int n;
};

/* One workload run (app/run.c fills it). */
enum bt_outcome_state {
	BT_OUTCOME_RAN,
	BT_OUTCOME_SKIPPED,      /* cannot run here (reason says why) */
	BT_OUTCOME_FAILED,       /* started and failed (reason says how) */
};

struct bt_outcome {
	char name[64];
	uint32_t cpu;            /* the logical CPU it ran on */
	enum bt_core_type core_type; /* read on that CPU (hybrid parts) */
	unsigned copies;         /* simultaneous copies (1 = alone) */
	char params[200];        /* "n=128 isa=auto" or the -x command line */
	char note[240];          /* setup remark ("isa=avx (auto)"), -x exit status */
	enum bt_outcome_state state;
	char reason[320];
	bool has_checksum;
	uint64_t checksum;
	bool timed;
	struct bt_timing timing; /* TSC ticks, when not counted */
	struct bt_tree_outcome *counted; /* NULL when not counted */
	char not_counted[320];   /* why there are no counts */
	int32_t partner_cpu;     /* a two-core workload's partner CPU; -1: none */
	uint32_t *copy_cpus;     /* --copies: the other copies' CPUs (heap), n_copy_cpus */
	unsigned n_copy_cpus;
	/* Why it ran on this CPU and not where asked, or what disturbed that
	 * CPU (app/run.c); "": nothing to say. */
	char placement[320];
	/* Measured, but something the run could not stop ran beside it on its
	 * core (placement says what): every output marks the tree. */
	bool perturbed;
	/* The counter health check of the CPU it was counted on (NULL: none). */
	const struct bt_counter_health *health;
	/* Its jobs on an AP (app/on-cpu.h), at the most: bytes of baretop's
	 * own AP stack of ap_stack_size, and of the firmware's AP stack. */
	uint32_t ap_jobs;
	uint32_t ap_stack_used, ap_stack_size, fw_stack_used;
	bool ap_stack_overflow;
};

/* The workload phase. */
struct bt_run_record {
	bool can_count;
	const struct bt_count_setup *count; /* the core type baretop runs on; NULL if none */
	const char *no_count_reason;
	unsigned warmups, reps;
	bool quick_preset;
	const char *vector_state;           /* what was done to XCR0/CR4, and why */
	uint64_t xcr0;
	uint64_t tsc_hz;                    /* times in ms need it; 0 = unknown */
	const struct bt_outcome *outcomes;
	int n_outcomes;
};

struct bt_results_boot;
struct bt_jw;

/* An exception on an AP in a job of baretop's (app/on-cpu.c), as the
 * results file's fault_guard.ap_faults records it. */
struct bt_ap_fault_record {
	uint32_t cpu;
	uint8_t vector;
	uint64_t rip;
	uint64_t image_offset;       /* RIP - baretop.efi's base; 0: outside the image */
	bool recovered;              /* the job abandoned, its CPU back in the firmware */
	bool cleanup_faulted;        /* its cleanup faulted again: the CPU unaccounted for */
	char what[160];              /* as the console said it */
};
#define BT_MAX_AP_FAULT_RECORDS 4

/* The run's messages (result.messages): each holds the longest one written
 * (a PMU's absent reason, 256 bytes, with its prefix) whole. */
#define BT_RESULTS_MAX_MESSAGES 8
#define BT_RESULTS_MESSAGE_LEN 640

struct bt_results {
	bool simulated;                     /* anything here counted by the simulated PMU */
	const char *version;                /* baretop's */
	int argc;
	char *const *argv;
	const char *config_file;            /* NULL: none read */
	int config_argc;
	char *const *config_argv;
	const char *firmware_clock;         /* NULL: unknown */
	const struct bt_platform_facts *platform;
	const struct bt_cpu_info *cpu;
	/* Whose CPU "cpu" is when the counts are not its PMU's (--sim on a
	 * real CPU: this machine's; the machine double: the simulated one);
	 * NULL: nothing to say. */
	const char *cpu_whose;
	const struct bt_cpu_census *census;
	const struct bt_machine *machine;   /* SMBIOS, FPDT, Boot Loader Interface */
	const struct bt_run_record *run;    /* NULL: no workload phase */
	uint8_t fault_guard_check;          /* the vector UD2 came back as; 0 = not checked */
	const struct bt_fault_selftest *selftest; /* NULL: not run */
	const struct bt_ap_fault_record *ap_faults;
	unsigned n_ap_faults;
	/* --validate: writes the "validation" section (NULL: none). */
	void (*validation_json)(struct bt_jw *j, const void *ctx);
	const void *validation_ctx;
	/* --atlas: writes the "atlas" section (NULL: none). */
	void (*atlas_json)(struct bt_jw *j, const void *ctx);
	const void *atlas_ctx;
	int exit_status;
	const char (*messages)[BT_RESULTS_MESSAGE_LEN];
	int n_messages;
	const struct bt_results_boot *boot; /* NULL: no run policy, budget or hand-over */
	/* The results folder's volume (an ESP shared with the OS): its free
	 * bytes before this file was written (when have_volume_free), and
	 * --keep-results (0: every file is kept). */
	bool have_volume_free;
	uint64_t volume_free_bytes;
	unsigned keep_results;
	uint64_t min_free_bytes;     /* --min-free: no file below it; 0 none */
};

/* "2.7", "2.3.1" from a UEFI revision word. */
void bt_uefi_revision_str(uint32_t rev, char *buf, size_t len);
/* TSC ticks as milliseconds; 0 when the TSC frequency is unknown (0). */
double bt_ticks_ms(uint64_t tsc_hz, uint64_t ticks);

/* An output format of the results document. */
struct bt_results_format {
	const char *ext;                    /* file extension: "json" */
	/* Renders res for sequence number seq into out. */
	bt_status (*render)(const struct bt_results *res, unsigned seq, struct bt_strbuf *out);
};

extern const struct bt_results_format bt_results_json;  /* results-json.c */

/* Saves res in format fmt as the next DIR/NNNNNN.<ext> with the sequence
 * note `note` (results-file.h; NULL: none). */
bt_status bt_results_save(const char *dir, const struct bt_results_format *fmt,
			  const struct bt_results *res, bt_rename_noreplace_fn *rename_noreplace,
			  const char *note, struct bt_results_written *ret, struct bt_diag *d);

#endif
