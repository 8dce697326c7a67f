/* SPDX-License-Identifier: MIT */
/* One boot under the run policy (app/boot-run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-run.h"

static void handover_str(const struct bt_options *o, char *buf, size_t len)
{
	if (o->then_boot)
		snprintf(buf, len, "chainload:%s", o->then_boot);
	else if (o->boot.then == BT_THEN_NEXT_BOOT_ENTRY)
		snprintf(buf, len, "next-boot-entry");
	else if (o->boot.then == BT_THEN_REBOOT)
		snprintf(buf, len, "reboot");
	else if (o->boot.then == BT_THEN_RETURN || !o->shutdown)
		snprintf(buf, len, "return");
	else
		snprintf(buf, len, "shutdown");
}

static bool write_state(struct bt_boot_run *b, const char *when)
{
	uint8_t buf[BT_BOOT_STATE_SIZE];
	struct bt_diag d = { "" };

	bt_boot_state_encode(&b->state, buf);
	if (b->plat->nv_write(BT_BOOT_STATE_NAME, buf, sizeof(buf), &d) != BT_OK) {
		snprintf(b->nvram, sizeof(b->nvram), "not written %s: %.120s", when, d.text);
		return false;
	}
	b->plat->nv_writes++;
	snprintf(b->nvram, sizeof(b->nvram), "written");
	return true;
}

/* Reads the state; false (starting from zero) when there is none or it
 * cannot be read, with the reason in b->nvram. */
static bool read_state(struct bt_boot_run *b)
{
	uint8_t buf[256];
	size_t len = sizeof(buf);
	struct bt_diag d = { "" };
	bt_status st = b->plat->nv_read(BT_BOOT_STATE_NAME, buf, &len, &d);

	if (st == BT_ERR_NOT_FOUND) {
		snprintf(b->nvram, sizeof(b->nvram), "none yet (first boot)");
		return false;
	}
	if (st != BT_OK) {
		snprintf(b->nvram, sizeof(b->nvram), "unreadable (%.120s): starting again", d.text);
		return false;
	}
	if (bt_boot_state_decode(buf, len, &b->before, &d) != BT_OK) {
		snprintf(b->nvram, sizeof(b->nvram), "%.130s: starting again", d.text);
		return false;
	}
	return true;
}

static uint64_t now_tsc(const struct bt_boot_run *b)
{
	return bt_rdtsc(b->plat->arch);
}

/* The hand-over time of a boot that does not measure: TSC ticks from the
 * entry point, and the TSC frequency from a 2 ms firmware stall (measured
 * after the ticks were taken, so it is not part of them). */
static void print_skip_time(struct bt_boot_run *b)
{
	uint64_t ticks = now_tsc(b) - b->t0;

	if (!b->plat->stall_us) {
		printf("boot          hand-over %llu TSC ticks after the entry point\n",
		       (unsigned long long)ticks);
		return;
	}
	uint64_t s = now_tsc(b);
	b->plat->stall_us(2000);
	uint64_t hz = (now_tsc(b) - s) * 500;
	printf("boot          hand-over %llu TSC ticks after the entry point (%.3f ms at %.0f MHz, "
	       "the TSC rate over a 2 ms platform stall)\n",
	       (unsigned long long)ticks, hz ? (double)ticks * 1e3 / (double)hz : 0.0,
	       (double)hz / 1e6);
}

bool bt_boot_run_begin(struct bt_boot_run *b, struct bt_platform *plat,
		       const struct bt_options *opt)
{
	memset(b, 0, sizeof(*b));
	b->plat = plat;
	b->opt = opt;
	b->elapsed_s = -1;
	b->t0 = plat->entry_tsc ? plat->entry_tsc : now_tsc(b);
	b->active = opt->boot.run != BT_RUN_ALWAYS || opt->boot.budget_s ||
		    opt->boot.then != BT_THEN_DEFAULT;
	bt_boot_run_str(&opt->boot, b->policy, sizeof(b->policy));
	handover_str(opt, b->handover, sizeof(b->handover));
	snprintf(b->nvram, sizeof(b->nvram), "not used (no --run)");
	if (opt->boot.run == BT_RUN_ALWAYS) {
		b->decision.measure = true;
	} else if (!plat->nv_read || !plat->nv_write) {
		/* Without a state a hang could repeat at every boot: never measure. */
		snprintf(b->nvram, sizeof(b->nvram), "this platform keeps no NVRAM variables");
		snprintf(b->decision.reason, sizeof(b->decision.reason),
			 "--run needs the NVRAM state, which this platform does not keep; handing "
			 "over without measuring");
	} else {
		bool have = read_state(b);
		b->state = b->before;
		bt_boot_begin(&opt->boot, have, &b->state, &b->decision);
		b->have_state = true;
		/* The state is written before anything is measured: a boot that
		 * hangs from here on is seen as hung by the next one. A boot that
		 * changed nothing a later boot needs writes nothing (flash wear). */
		if (!bt_boot_state_must_write(&opt->boot, have, &b->before, &b->state)) {
			b->state = b->before;
			snprintf(b->nvram, sizeof(b->nvram),
				 "unchanged, not written (nothing a later boot needs changed)");
		} else if (!write_state(b, "before the run") && b->decision.measure) {
			b->decision.measure = false;
			snprintf(b->decision.reason, sizeof(b->decision.reason),
				 "the boot state could not be written, so a hang could not be told "
				 "from a new boot: handing over without measuring");
		}
	}
	if (opt->boot.run != BT_RUN_ALWAYS) {
		printf("boot          policy %s, boot %u, runs %u (%u hung); state %s\n", b->policy,
		       (unsigned)b->state.boots, (unsigned)b->state.runs, (unsigned)b->state.hung,
		       b->nvram);
		printf("boot          %s\n", b->decision.reason);
	}
	if (!b->decision.measure) {
		printf("boot          then %s\n", b->handover);
		print_skip_time(b);
		return false;
	}
	if (b->have_state && plat->set_crash_reset)
		plat->set_crash_reset(true);
	if (opt->boot.budget_s) {
		uint32_t wd = opt->boot.budget_s + BT_BUDGET_WATCHDOG_GRACE_S;
		bool armed = plat->set_watchdog && plat->set_watchdog(wd) == BT_OK;
		b->watchdog_armed = armed;
		printf("boot          budget %u s; watchdog %s\n", (unsigned)opt->boot.budget_s,
		       armed ? "armed to it plus 5 s" : "NOT available on this platform");
	}
	return true;
}

void bt_boot_run_set_tsc_hz(struct bt_boot_run *b, uint64_t tsc_hz)
{
	b->tsc_hz = tsc_hz;
}

static double elapsed(const struct bt_boot_run *b)
{
	return b->tsc_hz ? (double)(now_tsc(b) - b->t0) / (double)b->tsc_hz : -1;
}

/*
 * Whether the next step fits in the budget: the time so far plus the
 * step's estimate, the mean of the steps before it (every step started so
 * far has ended when the next one asks: the time since the first one
 * started is theirs). The first step has nothing to go by and only needs
 * time left. A step that runs with interrupts masked cannot be stopped
 * once started, so it is planned, not interrupted.
 */
static bool step_fits(const struct bt_boot_run *b, double *ret_e, double *ret_est)
{
	double e = elapsed(b), steps = 0;

	*ret_e = e;
	*ret_est = 0;
	if (e < 0)
		return true;
	if (b->n_steps && b->tsc_hz)
		steps = (double)(now_tsc(b) - b->first_step_tsc) / (double)b->tsc_hz;
	return bt_boot_budget_fits(b->opt->boot.budget_s, e, steps, b->n_steps, ret_est);
}

bool bt_boot_run_budget_left(const struct bt_boot_run *b)
{
	double e, est;

	if (!b || !b->opt->boot.budget_s)
		return true;
	if (b->budget_ended)
		return false;
	return step_fits(b, &e, &est);
}

bool bt_boot_run_step_allowed(struct bt_boot_run *b, const char *name, uint32_t cpu)
{
	if (!b || !b->opt->boot.budget_s)
		return true;
	if (!b->budget_ended) {
		double e, est;
		if (step_fits(b, &e, &est)) {
			if (!b->n_steps++)
				b->first_step_tsc = now_tsc(b);
			return true;
		}
		b->budget_ended = true;
		if (est > 0 && e < (double)b->opt->boot.budget_s)
			printf("  budget of %u s: %.1f s left, and a workload takes %.1f s (the mean of "
			       "the %d so far): the remaining workloads are not run\n",
			       (unsigned)b->opt->boot.budget_s, (double)b->opt->boot.budget_s - e, est,
			       b->n_steps);
		else
			printf("  budget of %u s spent after %.1f s: the remaining workloads are not "
			       "run\n", (unsigned)b->opt->boot.budget_s, e);
	}
	char line[96];
	snprintf(line, sizeof(line), "%s on CPU %u", name, (unsigned)cpu);
	printf("  %-22s NOT RUN (budget)\n", line);
	if (b->n_not_run < BT_BOOT_MAX_NOT_RUN) {
		char *copy = malloc(strlen(line) + 1);
		if (copy) {
			strcpy(copy, line);
			b->not_run[b->n_not_run++] = copy;
		}
	}
	return false;
}

bool bt_boot_run_ticks_left(const struct bt_boot_run *b, uint64_t *ret)
{
	if (!b || !b->opt->boot.budget_s || !b->tsc_hz)
		return false;
	uint64_t total = (uint64_t)b->opt->boot.budget_s * b->tsc_hz, used = now_tsc(b) - b->t0;
	*ret = used >= total ? 0 : total - used;
	return true;
}

void bt_boot_run_partial(struct bt_boot_run *b, const char *name, uint32_t cpu, int skipped,
			 int groups, int pebs_skipped, int pebs_windows)
{
	char line[160], what[96] = "";

	if (!b || !b->opt->boot.budget_s || (skipped <= 0 && pebs_skipped <= 0))
		return;
	b->budget_ended = true;
	if (skipped > 0)
		snprintf(what, sizeof(what), "%d of %d counter groups not run", skipped, groups);
	if (pebs_skipped > 0) {
		size_t n = strlen(what);
		snprintf(what + n, sizeof(what) - n, "%s%d of %d timed-PEBS samplings not run",
			 n ? ", " : "", pebs_skipped, pebs_windows);
	}
	snprintf(line, sizeof(line), "%s on CPU %u: %s", name, (unsigned)cpu, what);
	printf("  %s PARTIAL (budget): %s\n", name, what);
	if (b->n_partial < BT_BOOT_MAX_NOT_RUN) {
		char *copy = malloc(strlen(line) + 1);
		if (copy) {
			strcpy(copy, line);
			b->partial[b->n_partial++] = copy;
		}
	}
}

void bt_boot_run_end(struct bt_boot_run *b, int exit_status, uint32_t seq)
{
	if (!b->plat || b->ended)
		return;
	b->ended = true;
	b->elapsed_s = elapsed(b);
	if (b->have_state && b->plat->set_crash_reset)
		b->plat->set_crash_reset(false);
	if (b->watchdog_armed) {
		b->plat->set_watchdog(0);
		b->watchdog_armed = false;
	}
	if (b->budget_ended)
		printf("boot          budget ended the run early: %d workload run(s) left out, %d "
		       "cut short (counter groups or timed-PEBS samplings left out)\n", b->n_not_run,
		       b->n_partial);
	if (!b->have_state || !b->decision.measure)
		return;
	bt_boot_end(&b->state, bt_boot_status_of(exit_status, b->budget_ended), seq);
	write_state(b, "after the run");
	printf("boot          state: run %u ended %s; %s\n", (unsigned)b->state.runs,
	       bt_boot_status_name(b->state.last_status), b->nvram);
}

const struct bt_results_boot *bt_boot_run_record(const struct bt_boot_run *b,
						 struct bt_results_boot *ret)
{
	if (!b->active)
		return NULL;
	*ret = (struct bt_results_boot){
		.policy = b->policy[0] ? b->policy : NULL,
		.handover = b->handover,
		.nvram = b->nvram,
		.have_state = b->have_state,
		.boot_count = b->state.boots,
		.run_number = b->state.runs,
		.hung_runs = b->state.hung,
		.previous_status = bt_boot_status_name(b->before.last_status),
		.previous_sequence = b->before.last_seq,
		.budget_s = b->opt->boot.budget_s,
		.budget_ended = b->budget_ended,
		.elapsed_s = elapsed(b),
		.not_run = (const char *const *)b->not_run,
		.n_not_run = b->n_not_run,
		.partial = (const char *const *)b->partial,
		.n_partial = b->n_partial,
		/* the writes so far, and the one that records the end of this
		 * measurement after the results file */
		.nvram_writes = b->plat->nv_writes + (b->have_state && b->decision.measure &&
						      !b->ended ? 1u : 0u),
	};
	return ret;
}

void bt_boot_run_hang(struct bt_boot_run *b)
{
	printf("test-hang     spinning with interrupts enabled until the watchdog resets the "
	       "machine%s\n", b->watchdog_armed ? "" : " (no watchdog armed: forever)");
	fflush(stdout);
	for (;;) {
		if (b->plat->stall_us)
			b->plat->stall_us(1000);
	}
}

void bt_boot_run_free(struct bt_boot_run *b)
{
	for (int i = 0; i < b->n_not_run; i++)
		free(b->not_run[i]);
	b->n_not_run = 0;
	for (int i = 0; i < b->n_partial; i++)
		free(b->partial[i]);
	b->n_partial = 0;
}
