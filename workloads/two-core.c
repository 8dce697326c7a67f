/* SPDX-License-Identifier: MIT */
/*
 * Two-core workloads: the measured CPU and a partner CPU (env->start_partner)
 * touch the same cache lines. Only the measured CPU is counted; it runs a
 * fixed number of iterations, so its instruction count is the same every
 * run. The partner runs from before_run (outside the window) until
 * after_run tells it to stop, so it is busy during the whole window.
 *
 *   false-sharing  both CPUs increment their own 8-byte counter; the two
 *       counters share one cache line, which moves between the cores on
 *       every store (the Top-Down paper's case study 2: classified
 *       Backend.Memory.Stores Bound). layout=padded puts the partner's
 *       counter on another line: the control.
 *
 *   memory-order-clears  the measured CPU loads two lines the partner keeps
 *       writing, between multiplies that make retirement lag, so loads have
 *       executed speculatively when the partner's store invalidates their
 *       line; x86 ordering rules then force a machine clear
 *       (MACHINE_CLEARS.MEMORY_ORDERING on Intel). layout=padded: the
 *       partner writes other lines (control). The loaded values vary from
 *       run to run, so they are discarded: the checksum covers only the
 *       multiply chain (the loads stay because they are in inline assembly).
 *
 * The two control flags use the __atomic builtins of gcc and clang, not
 * <stdatomic.h>: the EFI build finds newlib 3.3.0's stdatomic.h first, and
 * that one does not compile with gcc 12 (it takes its non-gcc branch).
 *
 * Without a partner CPU (start_partner NULL, one CPU, or start failure)
 * setup or before_run returns BT_ERR_UNSUPPORTED "needs a second CPU".
 */
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "workloads/workloads.h"

#define LINE 64
#define READY_SPIN_LIMIT (1ull << 30)  /* pauses before giving up on the partner */

enum layout { LAYOUT_SHARED, LAYOUT_PADDED };
static const char *const layout_names[] = { "shared-line", "padded", NULL };

/* Cache lines of the shared region (one 64-byte line each). */
enum {
	LINE_MINE_0 = 0,      /* the measured CPU's data */
	LINE_MINE_1 = 1,
	LINE_PADDED_0 = 4,    /* the partner's targets when padded */
	LINE_PADDED_1 = 5,
	LINE_READY = 8,       /* control flags, each alone on its line */
	LINE_STOP = 9,
	N_LINES = 10,
};

struct two_core {
	uint8_t *mem;
	struct bt_wl_buf buf;
	const struct bt_wl_env *env;
	uint64_t iterations, k;
	volatile uint64_t *mine;         /* measured CPU: counter / first loaded line */
	volatile uint64_t *mine2;        /* memory-order-clears: second loaded line */
	volatile uint64_t *partner_w0, *partner_w1;  /* what the partner writes */
	uint32_t *ready, *stop;        /* accessed with __atomic builtins only */
	bool partner_running;
	uint64_t result;
};

static volatile uint64_t *word_at(struct two_core *t, unsigned line, unsigned byte)
{
	return (volatile uint64_t *)(t->mem + line * LINE + byte);
}

/* Runs on the partner CPU: increment two words until told to stop. */
static void partner_loop(void *arg)
{
	struct two_core *t = arg;
	volatile uint64_t *w0 = t->partner_w0, *w1 = t->partner_w1;

	__atomic_store_n(t->ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(t->stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 64; i++) {
			*w0 = *w0 + 1;
			*w1 = *w1 + 1;
		}
	}
}

static bt_status start_partner(void *state, struct bt_diag *d)
{
	struct two_core *t = state;
	const struct bt_wl_env *env = t->env;
	bt_status s;

	if (t->partner_running)
		return BT_OK;
	__atomic_store_n(t->stop, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(t->ready, 0, __ATOMIC_SEQ_CST);
	s = env->start_partner(partner_loop, t, env->partner_ctx);
	if (s != BT_OK)
		return bt_wl_fail(BT_ERR_UNSUPPORTED, d,
				  "needs a second CPU: starting the partner CPU failed: %s",
				  bt_status_str(s));
	for (uint64_t spins = 0; !__atomic_load_n(t->ready, __ATOMIC_ACQUIRE); spins++) {
		if (spins == READY_SPIN_LIMIT) {
			__atomic_store_n(t->stop, 1, __ATOMIC_SEQ_CST);
			env->wait_partner(env->partner_ctx);
			return bt_wl_fail(BT_ERR_TIMEOUT, d,
					  "the partner CPU was started but never ran");
		}
		__builtin_ia32_pause();
	}
	t->partner_running = true;
	return BT_OK;
}

static bt_status stop_partner(void *state, struct bt_diag *d)
{
	struct two_core *t = state;
	bt_status s;

	if (!t->partner_running)
		return BT_OK;
	__atomic_store_n(t->stop, 1, __ATOMIC_SEQ_CST);
	s = t->env->wait_partner(t->env->partner_ctx);
	t->partner_running = false;
	if (s != BT_OK)
		return bt_wl_fail(s, d, "waiting for the partner CPU failed: %s",
				  bt_status_str(s));
	return BT_OK;
}

static void two_core_teardown(void *state)
{
	struct two_core *t = state;

	stop_partner(t, NULL);
	bt_wl_buf_free(&t->buf, t->env);
	free(t);
}

static bt_status two_core_setup(const uint64_t *values, const struct bt_wl_env *env,
				void **ret_state, bool two_lines)
{
	struct two_core *t = calloc(1, sizeof *t);
	bool padded = values[1] == LAYOUT_PADDED;
	bt_status s;

	if (!t)
		return BT_ERR_NOMEM;
	t->env = env;
	t->iterations = values[0];
	t->k = 0x9E3779B97F4A7C15ull;
	s = bt_wl_buf_alloc(&t->buf, env, N_LINES * LINE, LINE);
	if (s != BT_OK) {
		free(t);
		return s;
	}
	t->mem = t->buf.p;
	memset(t->mem, 0, N_LINES * LINE);
	t->ready = (uint32_t *)(t->mem + LINE_READY * LINE);
	t->stop = (uint32_t *)(t->mem + LINE_STOP * LINE);
	t->mine = word_at(t, LINE_MINE_0, 0);
	t->mine2 = word_at(t, LINE_MINE_1, 0);
	if (padded) {
		t->partner_w0 = word_at(t, LINE_PADDED_0, 0);
		t->partner_w1 = word_at(t, LINE_PADDED_1, 0);
	} else if (two_lines) {
		t->partner_w0 = word_at(t, LINE_MINE_0, 8);
		t->partner_w1 = word_at(t, LINE_MINE_1, 8);
	} else {
		t->partner_w0 = word_at(t, LINE_MINE_0, 8);
		t->partner_w1 = word_at(t, LINE_MINE_0, 16);
	}
	*ret_state = t;
	return BT_OK;
}

static uint64_t two_core_checksum(const void *state)
{
	const struct two_core *t = state;

	return bt_wl_hash(BT_WL_HASH_INIT, t->result);
}

/* ------------------------------------------------------------ false-sharing */

static void false_sharing_run(void *state)
{
	struct two_core *t = state;
	volatile uint64_t *counter = t->mine;

	*counter = 0;
	for (uint64_t i = 0; i < t->iterations; i++)
		*counter = *counter + 1;
	t->result = *counter;
}

static bt_status false_sharing_setup(const uint64_t *values, const struct bt_wl_env *env,
				     void **ret_state, struct bt_diag *d)
{
	return two_core_setup(values, env, ret_state, false);
}

/* ------------------------------------------------------------ memory-order-clears */

static void mo_clears_run(void *state)
{
	struct two_core *t = state;
	uint64_t x = 1, n = t->iterations, scratch;

	/*
	 * Per iteration: two loads from the partner's lines (results thrown
	 * away, so the count of instructions and the checksum do not depend
	 * on what the partner wrote) and two dependent IMULs (3 cycles each
	 * on current cores) which keep older instructions from retiring while
	 * the next iterations' loads execute.
	 */
	__asm__ volatile(
		"1:\n\t"
		"movq (%[a]), %[s]\n\t"
		"movq (%[b]), %[s]\n\t"
		"imul %[k], %[x]\n\t"
		"imul %[k], %[x]\n\t"
		"dec %[n]\n\t"
		"jnz 1b\n\t"
		: [x] "+r"(x), [n] "+r"(n), [s] "=&r"(scratch)
		: [a] "r"(t->mine), [b] "r"(t->mine2), [k] "r"(t->k)
		: "cc", "memory");
	(void)scratch;
	t->result = x;
}

static bt_status mo_clears_setup(const uint64_t *values, const struct bt_wl_env *env,
				 void **ret_state, struct bt_diag *d)
{
	return two_core_setup(values, env, ret_state, true);
}

/* ------------------------------------------------------------ descriptors */

static const struct bt_wl_param false_sharing_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 1000000, .quick = 10000,
	  .min = 1, .max = 1ull << 40, .help = "increments by the measured CPU per run" },
	{ .name = "layout", .kind = BT_WL_PARAM_CHOICE, .def = LAYOUT_SHARED,
	  .quick = LAYOUT_SHARED, .min = 0, .max = 1, .choices = layout_names,
	  .help = "shared-line: counters share a line; padded: separate lines (control)" },
};

static const struct bt_wl_param mo_params[] = {
	{ .name = "iterations", .kind = BT_WL_PARAM_COUNT, .def = 2000000, .quick = 10000,
	  .min = 1, .max = 1ull << 40, .help = "iterations (2 loads, 2 IMULs) per run" },
	{ .name = "layout", .kind = BT_WL_PARAM_CHOICE, .def = LAYOUT_SHARED,
	  .quick = LAYOUT_SHARED, .min = 0, .max = 1, .choices = layout_names,
	  .help = "shared-line: partner writes the loaded lines; padded: other lines (control)" },
};

const struct bt_workload bt_wl_false_sharing = {
	.name = "false-sharing",
	.summary = "two CPUs increment adjacent counters in one cache line",
	.signature_intel = "Backend_Bound > Memory_Bound > Store_Bound (> False_Sharing); "
			   "L3_Bound > Contested_Accesses",
	.signature_amd = "backend_bound > backend_bound_memory",
	.params = false_sharing_params, .n_params = BT_ARRAY_SIZE(false_sharing_params),
	.flags = BT_WL_NEEDS_PARTNER,
	.setup = false_sharing_setup, .before_run = start_partner, .run = false_sharing_run,
	.after_run = stop_partner, .checksum = two_core_checksum, .teardown = two_core_teardown,
};

const struct bt_workload bt_wl_memory_order_clears = {
	.name = "memory-order-clears",
	.summary = "loads of lines another CPU keeps writing (memory-ordering nukes)",
	.signature_intel = "Bad_Speculation > Machine_Clears (memory ordering, not Other_Nukes); "
			   "some L3_Bound > Contested_Accesses",
	.signature_amd = "bad_speculation > bad_speculation_pipeline_restarts",
	.params = mo_params, .n_params = BT_ARRAY_SIZE(mo_params),
	.flags = BT_WL_NEEDS_PARTNER,
	.setup = mo_clears_setup, .before_run = start_partner, .run = mo_clears_run,
	.after_run = stop_partner, .checksum = two_core_checksum, .teardown = two_core_teardown,
};
