/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU of one baretop run (--sim): the simulated CPU, the count
 * sources it counts and the policy of what they hold -- a count file's
 * counts (--counts), each built-in workload's model, generated counts for an
 * -x application, a known-count kernel's counts (--validate) -- and an
 * injected miscount (--sim-miscount). One opaque object: app/ asks it for
 * the arch to count through and for labels and notes, and never writes a
 * field of the simulator.
 *
 * It owns everything it attaches to the simulated PMU (the sources and
 * their entries): each use replaces what was attached, and bt_synth_free
 * detaches before freeing, so the simulator never holds a pointer into
 * anything that is gone.
 */
#ifndef SYNTH_SIM_RUN_H
#define SYNTH_SIM_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/event.h"
#include "base/status.h"
#include "arch/arch.h"
#include "arch/sim/sim.h"
#include "pmu/cpu-info.h"
#include "synth/wl-profile.h"

struct bt_kernel;
struct bt_synth;

struct bt_synth_opts {
	const char *name;          /* a built-in model id or a preset (arch/sim/sim-presets.c) */
	const char *defects;       /* --sim-defect NAME[:K],..., or NULL */
	const char *miscount;      /* --sim-miscount EVENT:HOW, or NULL */
	/* --sim-cpuid FILE[@CPU]: CPUID as that CPU of a dump answered it
	 * (synth/sim-cpuid-dump.h); `name` is then the preset for its MSRs,
	 * or NULL to take the preset of the same core class. */
	const char *cpuid_dump;
	/* NULL, or the machine whose CPUs of this kind it counts on
	 * (arch/sim/sim.h struct bt_sim_machine). */
	const struct bt_sim_machine *machine;
};

/* The CPU identity the simulated CPU of these options answers (its CPUID
 * through the driver's detection), so that a model is chosen for it: a
 * preset, a model's simulated CPU or a --sim-cpuid dump. false (d says why)
 * when there is none. */
bool bt_synth_identity(const struct bt_synth_opts *o, struct bt_cpu_info *ret,
		       struct bt_diag *d);

/* NAME names a simulated CPU (a model id with a row in model-cpus.c, or a
 * preset); otherwise false with the "no such simulated PMU" text in d. */
bool bt_synth_known(const char *name, struct bt_diag *d);

/* The spelling of a simulated CPU's name that the tables use: NAME itself
 * when it is one exactly (a model id, then a preset: "skl" is the preset,
 * "SKL" the model's CPU), else the model id, then the preset, that equals
 * it without case ("icx" -> "ICX", "Zen4" -> "ZEN4", "ADL-p" -> "adl-p").
 * NULL when none does. */
const char *bt_synth_canonical(const char *name);

/* The CPU identity this run's simulated CPU answers (bt_synth_identity
 * above, for the CPU of a bt_synth) (its threads per core: SMT on or
 * off as the part it answers as; a fresh copy is asked, so the run's access
 * log stays the run's). false when it cannot be set up. */
bool bt_synth_cpu_info(const struct bt_synth *s, struct bt_cpu_info *ret);

/* Sets up the simulated CPU o->name with o->defects injected. Nothing
 * counts until a source is chosen below. BT_ERR_INVALID: unknown name or
 * malformed defect list (d says which). */
bt_status bt_synth_new(const struct bt_synth_opts *o, struct bt_synth **ret, struct bt_diag *d);
void bt_synth_free(struct bt_synth *s);

/* The simulated PMU to count through (owned by s; the machine's when
 * there is one). */
struct bt_arch *bt_synth_arch(struct bt_synth *s);
/* The caps a correct detection derives from the simulated CPU. */
void bt_synth_caps(struct bt_synth *s, struct bt_pmu_caps *ret);
/* What it simulates (preset name, brand, APERF/MPERF, SMI_COUNT, ...). */
const struct bt_sim_config *bt_synth_cpu(const struct bt_synth *s);

/* ---------------------------------------------------------- a model's events */

/* The model's events as the planner programs them (copied); `model_id`
 * names the model in messages. Then one of: */
bt_status bt_synth_set_events(struct bt_synth *s, const struct bt_event *const *evp, size_t n,
			      const char *model_id);
/* counts[i] for event i (a count file's; NaN or negative: the file has
 * none, the event counts nothing); `label` says where they come from. Notes
 * where the file says what no PMU can (two events of one encoding counting
 * differently, a PERF_METRICS count no 8-bit field gives). */
bt_status bt_synth_use_counts(struct bt_synth *s, const double *counts, const char *label,
			      struct bt_diag *d);
/* Generated counts (generated-counts.c), until a workload's model replaces
 * them (an -x application keeps them). */
bt_status bt_synth_use_generated(struct bt_synth *s, struct bt_diag *d);
/* The model of the built-in workload `workload` (workload-profiles.c) at
 * the parameters `param` reads, on the simulated core: its width
 * (bt_synth_set_width; 0: unknown, 4 slots) and its memory hierarchy
 * (mem-hierarchy.h, from its CPUID). No-op for counts from a file and for
 * a workload without a profile. */
bt_status bt_synth_use_workload(struct bt_synth *s, const char *workload, bt_wl_param_fn *param,
				const void *param_ctx, struct bt_diag *d);

/* Attaches the current source for windows that run `body` (an empty
 * calibration window then counts only the modelled overhead). */
void bt_synth_attach(struct bt_synth *s, bt_window_fn *body);

/* What the counts are: the current workload's, and the run's said once. */
const char *bt_synth_source_label(const struct bt_synth *s);
const char *bt_synth_setup_label(const struct bt_synth *s);
/* The notes about the count source for the run (k = 0, 1, ...; NULL past
 * the last), and per tree: events the workload model has no rule for ("" if
 * none), the injected miscount ("" if none). */
const char *bt_synth_note(const struct bt_synth *s, int k);
const char *bt_synth_unknown(const struct bt_synth *s);
const char *bt_synth_miscount_note(const struct bt_synth *s);
/* A count the simulated register could not hold since the last call (its
 * text, kept until the next call), or NULL. */
const char *bt_synth_take_source_error(struct bt_synth *s);

/* ---------------------------------------------------------- --validate */

/* Kernel k run n times is what the windows running k->run count; kernel
 * `empty`, which calibrates the window, counts its own model. */
/* The counted core's issue slots per cycle, for SLOTS = width x cycles in
 * every window the synth counts (the workloads', the health check's and
 * conformance's, the kernels'): the model's bt_model_def.pipeline_width
 * (the one home of that fact; app/count.c sets it once, with the synth);
 * 0 when no model is chosen. */
void bt_synth_set_width(struct bt_synth *s, unsigned width);
void bt_synth_count_kernel(struct bt_synth *s, const struct bt_kernel *k, uint64_t n);
/* Whether the kernel windows (after bt_synth_count_kernel) model encoding
 * e at all: its event select and unit masks (CMASK, INV, E and EQ are
 * derived per cycle from those, arch/sim/sim-count.c), or for an event
 * only a fixed counter counts, that fixed counter. An encoding they do not
 * model counts 0 and is "not modelled by the simulated PMU" (the atlas),
 * never a dead event. */
bool bt_synth_kernel_models(const struct bt_synth *s, const struct bt_event *e);
/* The PMU conformance checks' window: loop-dec-jnz run n times, with
 * modelled cycles, SLOTS and PERF_METRICS bytes (window-counts.c). */
void bt_synth_count_conformance(struct bt_synth *s, uint64_t n);

#endif
