/* SPDX-License-Identifier: MIT */
/*
 * Built-in workloads: small kernels with a known bottleneck, run inside the
 * counting window once per counter group.
 *
 * Every workload
 *   - has a name and parameters (each with a default and a "quick" value for
 *     QEMU TCG, which is 50-100x slower than the hardware), set from
 *     "name=value" strings;
 *   - is set up once (buffers, tables, generated code) outside the window;
 *   - has a measured body `run(state)` with the bt_window_fn signature from
 *     arch/arch.h. It is re-runnable and deterministic: given the same state it
 *     retires the same instructions every time (what it mutates it resets
 *     first, or it rewrites the same values);
 *   - leaves its results in its state, from which `checksum(state)` computes a
 *     64-bit value after the window. The checksum depends only on computed
 *     data (never on addresses, time or uninitialised memory), so a hosted
 *     build and the EFI build of the same code give the same value, and the
 *     compiler cannot delete the work;
 *   - documents the Top-Down node expected to dominate (workloads/README.md).
 *
 * What differs between UEFI and Linux (executable memory, a second CPU, what
 * the CPU can execute) comes in through struct bt_wl_env, filled by the
 * caller: host/env-host.c on Linux, efi/ in the app. Workloads never
 * execute CPUID or XGETBV themselves (arch/arch.h is the only seam for that).
 *
 * The caller's sequence for one workload:
 *
 *     struct bt_wl_config cfg;
 *     struct bt_wl_instance inst;
 *     struct bt_diag d;                               // the message of a failure
 *     bt_wl_config_from_spec(&cfg, "ptr-chase-l2:steps=1M", BT_WL_DEFAULT, &d);
 *     bt_wl_setup(&inst, &cfg, &env, &d);             // BT_ERR_UNSUPPORTED: say why, skip
 *     for each counter group and repetition:
 *         bt_wl_before_run(&inst);                        // outside the window
 *         bt_run_window(arch, msr, start, stop, inst.wl->run, inst.state);
 *         bt_wl_after_run(&inst);                         // outside the window
 *     checksum = bt_wl_checksum(&inst);
 *     bt_wl_teardown(&inst);
 *
 * Floating-point environment: the workloads assume the x86-64 defaults
 * (MXCSR = 0x1F80: round to nearest, all exceptions masked, FTZ and DAZ off),
 * which both the UEFI spec and the Linux ABI guarantee at entry; only
 * integer-valued data go through the FP units elsewhere, so no other
 * result depends on it. The one workload whose signature depends on
 * FTZ/DAZ, denormal-assist, loads 0x1F80 itself for its body and restores
 * the caller's MXCSR after it.
 */
#ifndef WORKLOADS_WORKLOAD_H
#define WORKLOADS_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"
#include "arch/cpuid.h"

/* ------------------------------------------------------------ platform */

/*
 * CPU facts the caller establishes. The vector ISA is what is usable (the
 * CPU has it AND its register state is enabled in XCR0, so its
 * instructions will not raise #UD), read with bt_cpu_features_read()
 * (arch/cpuid.h) after the state was enabled. Cache sizes are informational
 * (notes only), 0 when unknown: parameters never depend on them, so
 * checksums stay comparable.
 */
struct bt_wl_cpu {
	struct bt_cpu_features isa; /* matmul: .avx (256-bit), .avx512f */
	uint32_t logical_cpus;  /* 0 = unknown */
	uint64_t l1d_bytes, l2_bytes, l3_bytes;  /* per core / shared; 0 = unknown */
};

/*
 * Platform services. Every function pointer may be NULL: the workloads that
 * need it then fail setup with BT_ERR_UNSUPPORTED and a message saying what
 * is missing. `ctx` is passed back unchanged.
 */
struct bt_wl_env {
	struct bt_wl_cpu cpu;

	/*
	 * Memory for generated code (code-footprint). code_alloc returns
	 * `size` bytes, page aligned, readable and writable; code_seal then
	 * makes them executable (it may drop write access: W^X); code_free
	 * releases them. Must be mapped with 4 KiB pages where the platform can
	 * (the ITLB-miss part of the signature depends on it).
	 */
	void *(*code_alloc)(size_t size, void *ctx);
	bt_status (*code_seal)(void *p, size_t size, void *ctx);
	void (*code_free)(void *p, size_t size, void *ctx);

	/*
	 * Large data buffers (hundreds of MiB for the DRAM pointer chase and
	 * the streams). Optional: when NULL the workloads use malloc. Returns
	 * memory aligned to at least 64 bytes, or NULL.
	 */
	void *(*data_alloc)(size_t size, void *ctx);
	void (*data_free)(void *p, size_t size, void *ctx);

	/*
	 * A partner CPU for the two-core workloads (false sharing, memory
	 * ordering clears). start_partner runs fn(arg) on another logical CPU
	 * -- on another physical core when there is one -- and returns at once
	 * while fn keeps running. wait_partner blocks until fn has returned,
	 * and gives up (BT_ERR_TIMEOUT) on a partner that never ran. fn only
	 * spins on memory (no firmware calls, no FP/vector state, a few
	 * hundred bytes of stack) and returns when the workload tells it to.
	 * One partner at a time. In the program both are the measured CPU's
	 * team's (app/on-cpu.h bt_cpu_team_env: the partner loops on an AP in
	 * the same blocking MP call as the measured job), with partner_ctx.
	 */
	bt_status (*start_partner)(void (*fn)(void *arg), void *arg, void *ctx);
	bt_status (*wait_partner)(void *ctx);
	void *partner_ctx;

	void *ctx;                /* the memory hooks' */
};

/* ------------------------------------------------------------ descriptions */

enum bt_wl_param_kind {
	BT_WL_PARAM_COUNT,   /* an integer: decimal, 0x hex, optional K/M/G (x1000^n) */
	BT_WL_PARAM_BYTES,   /* a size: decimal or 0x hex, optional K/M/G (x1024^n), KiB/MiB/GiB */
	BT_WL_PARAM_CHOICE,  /* one of `choices`; the value is its index */
};

struct bt_wl_param {
	const char *name;
	enum bt_wl_param_kind kind;
	uint64_t def;        /* default: the setting the signature is documented for */
	uint64_t quick;      /* small enough for QEMU TCG */
	uint64_t min, max;   /* inclusive; for CHOICE: 0 .. number of choices - 1 */
	uint64_t multiple;   /* the value must be a multiple of this (0 or 1: any) */
	const char *const *choices;  /* CHOICE only: NULL-terminated */
	const char *help;
};

#define BT_WL_MAX_PARAMS 6

enum {
	BT_WL_NEEDS_PARTNER = 1u << 0,     /* a second CPU: start_partner/wait_partner */
	BT_WL_NEEDS_CODE_MEMORY = 1u << 1, /* executable memory: code_alloc/seal/free */
};

struct bt_workload {
	const char *name;
	const char *summary;          /* what it does, one line */
	const char *signature_intel;  /* expected dominant Top-Down nodes on Intel Core */
	const char *signature_amd;    /* ... on AMD Zen (PipelineL1/L2) */
	const struct bt_wl_param *params;
	unsigned n_params;
	unsigned flags;

	/* Allocate and initialise; `values` holds n_params validated values. */
	bt_status (*setup)(const uint64_t *values, const struct bt_wl_env *env,
			   void **ret_state, struct bt_diag *d);
	/* Optional, outside the window: e.g. start the partner CPU. */
	bt_status (*before_run)(void *state, struct bt_diag *d);
	/* The measured body. */
	bt_window_fn *run;
	/* Optional, outside the window: e.g. stop the partner CPU. */
	bt_status (*after_run)(void *state, struct bt_diag *d);
	uint64_t (*checksum)(const void *state);
	void (*teardown)(void *state);
	/* Optional: a remark about this instance for the results, e.g. the
	 * ISA multiply3 chose or how a working set compares with the caches. */
	void (*describe)(const void *state, const struct bt_wl_env *env, char *buf, size_t len);
	/*
	 * Optional: the body's iteration space can be split exactly, so that a
	 * run longer than the window cap (--max-window-ms) is measured in
	 * several windows with interrupts open between them. iterations(state)
	 * is its size; set_range(state, b, e) makes the next runs do
	 * iterations [b, e) only, so that runs of [0, a), [a, b), ..., [.., n)
	 * one after the other compute what one whole run does, with the same
	 * work (the run's own set-up, such as zeroing an accumulator, is done
	 * by the part that starts at 0); set_range(state, 0, n) restores the
	 * whole run. NULL: the body runs whole (the app says so when a run is
	 * longer than the cap).
	 */
	uint64_t (*iterations)(const void *state);
	void (*set_range)(void *state, uint64_t begin, uint64_t end);
};

/* ------------------------------------------------------------ registry */

/* All workloads, in documentation order. */
const struct bt_workload *const *bt_wl_all(size_t *ret_count);
/* NULL if there is no workload of that name. */
const struct bt_workload *bt_wl_find(const char *name);
/* The default suite (what baretop runs with no arguments). */
const struct bt_workload *const *bt_wl_default_suite(size_t *ret_count);

/* ------------------------------------------------------------ parameters */

enum bt_wl_preset {
	BT_WL_DEFAULT = 0,   /* the documented setting (paper-sized matrices ...) */
	BT_WL_QUICK,         /* small: QEMU TCG, smoke tests */
};

struct bt_wl_config {
	const struct bt_workload *wl;
	uint64_t values[BT_WL_MAX_PARAMS];
};

void bt_wl_config_init(struct bt_wl_config *cfg, const struct bt_workload *wl,
		       enum bt_wl_preset preset);

/*
 * Set one parameter from "name=value". Errors (BT_ERR_INVALID, message in
 * d): no '=', unknown name (the message lists the valid ones), a value that
 * is not a number, overflows, is out of range, not a multiple, or not one of
 * the choices. cfg is unchanged on error.
 */
bt_status bt_wl_config_set(struct bt_wl_config *cfg, const char *assignment,
			   struct bt_diag *d);

/*
 * Parse "NAME" or "NAME:p=v,p=v" (',' or ' ' between assignments) into a
 * config based on `preset`. BT_ERR_NOT_FOUND for an unknown workload name.
 * ret is set only on success.
 */
bt_status bt_wl_config_from_spec(struct bt_wl_config *ret, const char *spec,
				 enum bt_wl_preset preset, struct bt_diag *d);

/*
 * "n=2048 isa=auto" -- every parameter, sizes with the largest exact binary
 * suffix. Parsing the output with bt_wl_config_set gives the same config.
 * Returns the length it needed (like snprintf).
 */
size_t bt_wl_config_format(const struct bt_wl_config *cfg, char *buf, size_t len);

/* Value of a parameter by name (for callers that print or scale); false if none. */
bool bt_wl_config_get(const struct bt_wl_config *cfg, const char *name, uint64_t *ret);

/* ------------------------------------------------------------ running */

struct bt_wl_instance {
	const struct bt_workload *wl;
	struct bt_wl_config cfg;
	void *state;
	char note[160];       /* optional remark from setup ("fits in L2 (1 MiB)"), or "" */
};

/*
 * Validate the config against `env` and run the workload's setup. On
 * BT_ERR_UNSUPPORTED the message says what is missing, e.g. "needs a second
 * CPU". ret is set only on success.
 */
bt_status bt_wl_setup(struct bt_wl_instance *ret, const struct bt_wl_config *cfg,
		      const struct bt_wl_env *env, struct bt_diag *d);
bt_status bt_wl_before_run(struct bt_wl_instance *inst, struct bt_diag *d);
/* Run the body directly (hosted timing, tests); the harness uses run_window. */
void bt_wl_run(struct bt_wl_instance *inst);
/* The splittable iteration space (struct bt_workload iterations/set_range):
 * 0 when the body cannot be split; bt_wl_set_range does nothing then. */
uint64_t bt_wl_iterations(const struct bt_wl_instance *inst);
void bt_wl_set_range(struct bt_wl_instance *inst, uint64_t begin, uint64_t end);
bt_status bt_wl_after_run(struct bt_wl_instance *inst, struct bt_diag *d);
uint64_t bt_wl_checksum(const struct bt_wl_instance *inst);
void bt_wl_teardown(struct bt_wl_instance *inst);

#endif
