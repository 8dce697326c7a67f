/* SPDX-License-Identifier: MIT */
/* One boot under the run policy (app/boot-run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/boot-run.h"
#include "report/results-file.h"

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

/* The results folder's record of a full variable store: the monotonic
 * count when a write failed with it (0: no count); false when none. */
static bool nvram_full_read(const struct bt_boot_run *b, uint64_t *ret)
{
	char path[300], text[40] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", b->opt->results_dir, BT_NVRAM_FULL_FILE);
	if (!(f = fopen(path, "r")))
		return false;
	bool ok = fgets(text, sizeof(text), f) && !strncmp(text, "count=", 6);
	fclose(f);
	*ret = ok ? strtoull(text + 6, NULL, 16) : 0;
	return true;
}

static void nvram_full_record(const struct bt_boot_run *b)
{
	const struct bt_boot_start *st = &b->plat->boot_start;
	char path[300];
	FILE *f;

	bt_mkdir_p(b->opt->results_dir);
	snprintf(path, sizeof(path), "%s/%s", b->opt->results_dir, BT_NVRAM_FULL_FILE);
	if ((f = fopen(path, "w"))) {
		fprintf(f, "count=%llx\n", (unsigned long long)(st->have_count ? st->count : 0));
		fclose(f);
	}
}

/* Whether writes may be tried: not while a full store is recorded, for
 * BT_NVRAM_FULL_RETRY_BOOTS boots (never without a count that grows). */
static bool nvram_writable(struct bt_boot_run *b)
{
	const struct bt_boot_start *st = &b->plat->boot_start;
	uint64_t then;
	char path[300];

	if (!nvram_full_read(b, &then))
		return true;
	uint64_t boots = (st->count >> 32) - (then >> 32);
	if (st->have_count && then && bt_boot_gap(true, st->count, then) == BT_GAP_LATER_BOOT &&
	    boots >= BT_NVRAM_FULL_RETRY_BOOTS) {
		snprintf(path, sizeof(path), "%s/%s", b->opt->results_dir, BT_NVRAM_FULL_FILE);
		remove(path);
		return true;
	}
	snprintf(b->nvram, sizeof(b->nvram), "not written: the variable store was full %s (%s/%s; "
		 "tried again after %u boots, or when that file is deleted)",
		 st->have_count && then ? "earlier" : "once", b->opt->results_dir,
		 BT_NVRAM_FULL_FILE, BT_NVRAM_FULL_RETRY_BOOTS);
	return false;
}

static bool write_state(struct bt_boot_run *b, const char *when)
{
	uint8_t buf[BT_BOOT_STATE_SIZE];
	struct bt_diag d = { "" };

	if (!b->state_writable)
		return false;
	bt_boot_state_encode(&b->state, buf);
	bt_status st = b->plat->nv_write(BT_BOOT_STATE_NAME, buf, sizeof(buf), &d);
	b->plat->nv_writes++;
	if (st != BT_OK) {
		snprintf(b->nvram, sizeof(b->nvram), "not written %s: %.120s", when, d.text);
		if (st == BT_ERR_FULL) {
			/* No write again for a while: each one would reclaim. */
			b->state_writable = false;
			nvram_full_record(b);
		}
		return false;
	}
	b->stored = b->state;
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

static void arm_watchdog(struct bt_platform *plat, uint32_t seconds)
{
	if (plat->set_watchdog)
		plat->set_watchdog(seconds);
}

void bt_boot_run_settle(struct bt_platform *plat)
{
	struct bt_boot_start *st = &plat->boot_start;
	struct bt_diag d = { "" };

	if (st->parent != BT_PARENT_SHELL && st->parent != BT_PARENT_HOSTED)
		arm_watchdog(plat, BT_WATCHDOG_START_S);
	if (!bt_boot_start_stale_boot_next(st) || !plat->boot_next_delete)
		return;
	plat->nv_writes++;
	st->boot_next_deleted = plat->boot_next_delete(&d) == BT_OK;
	printf("boot          BootNext is still Boot%04X, baretop's own entry (the firmware kept "
	       "it): %s\n", (unsigned)st->boot_next,
	       st->boot_next_deleted ? "deleted, so the next boot does not start baretop again"
				     : d.text);
}

static uint64_t now_tsc(const struct bt_boot_run *b)
{
	return bt_rdtsc(b->plat->arch);
}

/* The hand-over time of a boot that does not measure: TSC ticks from the
 * entry point, and the TSC frequency from firmware stalls (measured after
 * the ticks were taken, so they are not part of them). A stall can only
 * last longer than asked (an SMI; under QEMU TCG a vCPU thread the host
 * descheduled: the guest's TSC is the host's, its timer the host's clock,
 * and one 2 ms stall read 2.6 to 17.5 GHz on a busy host), never shorter:
 * the lowest rate of three 1 ms stalls is the nearest. */
static void print_skip_time(struct bt_boot_run *b)
{
	uint64_t ticks = now_tsc(b) - b->t0, hz = 0;

	if (!b->plat->stall_us) {
		printf("boot          hand-over %llu TSC ticks after the entry point\n",
		       (unsigned long long)ticks);
		return;
	}
	for (int i = 0; i < 3; i++) {
		uint64_t s = now_tsc(b);
		b->plat->stall_us(1000);
		uint64_t r = (now_tsc(b) - s) * 1000;
		if (r && (!hz || r < hz))
			hz = r;
	}
	printf("boot          hand-over %llu TSC ticks after the entry point (%.3f ms at %.0f MHz, "
	       "the lowest TSC rate over three 1 ms platform stalls)\n",
	       (unsigned long long)ticks, hz ? (double)ticks * 1e3 / (double)hz : 0.0,
	       (double)hz / 1e6);
}

/* The state of this boot from NVRAM, the previous run's end from the
 * results folder's note, and the decision (app/boot-policy.h). */
static void begin_with_state(struct bt_boot_run *b)
{
	const struct bt_options *opt = b->opt;
	struct bt_platform *plat = b->plat;
	bool have = read_state(b);
	char note[128] = "";
	unsigned next = 0, seq = 0;

	if (!have)
		memset(&b->before, 0, sizeof(b->before));
	b->stored = b->before;
	b->state = b->before;
	b->have_state = true;
	b->state_writable = nvram_writable(b);
	if ((b->state.flags & BT_BOOT_STATE_IN_PROGRESS) &&
	    bt_results_note_read(opt->results_dir, &next, &seq, note, sizeof(note)) &&
	    bt_boot_note_resolve(&b->state, note, seq))
		snprintf(b->previous, sizeof(b->previous), "run %u ended %s (results %06u, recorded "
			 "in %s's note)", (unsigned)b->state.runs,
			 bt_boot_status_name(b->state.last_status), seq, opt->results_dir);
	bt_boot_begin(&opt->boot, have, &b->state, &b->decision);
	if (b->decision.measure) {
		/* Names this measurement in its end note: the TSC at entry
		 * and the count, so that a note of another run never matches. */
		uint64_t tag = b->t0 ^ plat->boot_start.count;
		b->state.run_tag = tag ? tag : 1;
	}
	/* The state is written before anything is measured: a boot that
	 * hangs from here on is seen as hung by the next one. A boot that
	 * changed nothing a later boot needs writes nothing (flash wear). */
	if (!bt_boot_state_must_write(&opt->boot, have, &b->stored, &b->state)) {
		snprintf(b->nvram, sizeof(b->nvram),
			 "unchanged, not written (nothing a later boot needs changed)");
		return;
	}
	if (write_state(b, "before the run") || !b->decision.measure)
		return;
	b->decision.measure = false;
	snprintf(b->decision.reason, sizeof(b->decision.reason),
		 "the boot state could not be written, so a hang could not be told from a new "
		 "boot: handing over without measuring");
}

bool bt_boot_run_begin(struct bt_boot_run *b, struct bt_platform *plat,
		       const struct bt_options *opt)
{
	enum bt_parent parent = plat->boot_start.parent;

	memset(b, 0, sizeof(*b));
	b->plat = plat;
	b->opt = opt;
	b->elapsed_s = -1;
	b->t0 = plat->entry_tsc ? plat->entry_tsc : now_tsc(b);
	b->active = opt->boot.run != BT_RUN_ALWAYS || opt->boot.budget_s ||
		    opt->boot.then != BT_THEN_DEFAULT;
	/* A person's start: from the shell (or hosted) with none of --run,
	 * --then, --budget, --then-boot, --shutdown. */
	b->unattended = b->active || opt->then_boot || opt->shutdown ||
			(parent != BT_PARENT_SHELL && parent != BT_PARENT_HOSTED);
	bt_boot_run_str(&opt->boot, b->policy, sizeof(b->policy));
	handover_str(opt, b->handover, sizeof(b->handover));
	snprintf(b->nvram, sizeof(b->nvram), "not used (no --run, started by a person)");
	bool nv = plat->nv_read && plat->nv_write;
	if (parent == BT_PARENT_SELF) {
		snprintf(b->nvram, sizeof(b->nvram), "not read (baretop is already running in this "
			 "boot)");
		snprintf(b->decision.reason, sizeof(b->decision.reason),
			 "started by an image baretop started in this boot (the loader it handed "
			 "back to, whose default entry it is, or its --then chainload file): not "
			 "measuring");
	} else if (nv && b->unattended) {
		begin_with_state(b);
	} else if (opt->boot.run == BT_RUN_ALWAYS) {
		b->decision.measure = true;
		if (b->unattended)
			snprintf(b->nvram, sizeof(b->nvram), "this platform keeps no NVRAM variables");
	} else {
		/* Without a state a hang could repeat at every boot: never measure. */
		snprintf(b->nvram, sizeof(b->nvram), "this platform keeps no NVRAM variables");
		snprintf(b->decision.reason, sizeof(b->decision.reason),
			 "--run needs the NVRAM state, which this platform does not keep; handing "
			 "over without measuring");
	}
	if (b->unattended) {
		if (b->policy[0])
			printf("boot          policy %s, started by %s; boots %u (those that changed the "
			       "state, and this one), runs %u (%u hung); state %s\n", b->policy,
			       bt_parent_name(parent),
			       (unsigned)b->state.boots, (unsigned)b->state.runs,
			       (unsigned)b->state.hung, b->nvram);
		else
			printf("boot          no --run, started by %s; state %s\n",
			       bt_parent_name(parent), b->nvram);
		if (b->previous[0])
			printf("boot          %s\n", b->previous);
		if (b->decision.reason[0])
			printf("boot          %s\n", b->decision.reason);
	}
	if (!b->decision.measure) {
		printf("boot          then %s\n", b->handover);
		print_skip_time(b);
		return false;
	}
	uint32_t wd = opt->boot.budget_s ? opt->boot.budget_s + BT_BUDGET_WATCHDOG_GRACE_S
		      : b->unattended   ? BT_WATCHDOG_RUN_S : 0;
	bool armed = wd && plat->set_watchdog && plat->set_watchdog(wd) == BT_OK;
	b->watchdog_armed = armed;
	if (!wd && plat->set_watchdog)
		plat->set_watchdog(0);
	if (opt->boot.budget_s)
		printf("boot          budget %u s; watchdog %s\n", (unsigned)opt->boot.budget_s,
		       armed ? "armed to it plus 5 s" : "NOT available on this platform");
	else if (armed)
		printf("boot          watchdog armed to %u s for the measurement\n", (unsigned)wd);
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
	b->n_not_run_all++;
	if (b->n_not_run < BT_BOOT_MAX_NOT_RUN) {
		char *copy = malloc(strlen(line) + 1);
		if (copy) {
			strcpy(copy, line);
			b->not_run[b->n_not_run++] = copy;
		}
	}
	return false;
}

_Static_assert(BT_BOOT_MAX_NOT_RUN == 64, "the budget line and the schema say 64");

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
	b->n_partial_all++;
	if (b->n_partial < BT_BOOT_MAX_NOT_RUN) {
		char *copy = malloc(strlen(line) + 1);
		if (copy) {
			strcpy(copy, line);
			b->partial[b->n_partial++] = copy;
		}
	}
}

/* The decision's inputs as this boot has them. */
static void end_in(const struct bt_boot_run *b, struct bt_platform *plat,
		   const struct bt_options *opt, enum bt_boot_outcome outcome, int exit_status,
		   uint32_t seq, bool end_noted, struct bt_boot_end_in *in)
{
	*in = (struct bt_boot_end_in){
		.cfg = &opt->boot,
		.chainload = opt->then_boot != NULL,
		.shutdown = opt->shutdown && opt->boot.then != BT_THEN_RETURN,
		.active = opt->boot.run != BT_RUN_ALWAYS || opt->boot.budget_s ||
			  opt->boot.then != BT_THEN_DEFAULT,
		.state_kept = b->plat && b->have_state && b->state_writable,
		.stored = b->stored,
		.state = b->state,
		.measuring = b->plat && b->decision.measure,
		.outcome = outcome,
		.exit_status = exit_status,
		.budget_ended = b->budget_ended,
		.seq = seq,
		.end_noted = end_noted,
		.start = plat->boot_start,
	};
}

void bt_boot_run_plan(struct bt_boot_run *b, enum bt_boot_outcome outcome, int exit_status,
		      char *ret_note, size_t len)
{
	struct bt_boot_end_in in;

	end_in(b, b->plat, b->opt, outcome, exit_status, 0, true, &in);
	bt_boot_decide_end(&in, &b->end);
	ret_note[0] = '\0';
	if (b->have_state && b->decision.measure)
		bt_boot_end_note(&b->state, bt_boot_status_of(exit_status, b->budget_ended), ret_note,
				 len);
}

/*
 * A configuration error found before the policy started (the options, a
 * -w name, a model id): nothing was measured and no run is counted (so
 * that `once` still measures when the configuration is fixed), but a
 * fleet must see it, and a results file cannot be trusted to the options
 * that could not be read: BaretopState's last_status becomes config-error.
 * Written only when that changes (one write for a configuration that
 * stays wrong), never over a state in progress (the next good boot
 * records that hang), not while the store is recorded full, and not for a
 * person's start at the shell, who reads the message.
 */
static void record_config_error(struct bt_boot_run *b, struct bt_platform *plat,
				const struct bt_options *opt)
{
	enum bt_parent parent = plat->boot_start.parent;
	bool person = (parent == BT_PARENT_SHELL || parent == BT_PARENT_HOSTED) &&
		      opt->boot.run == BT_RUN_ALWAYS && opt->boot.then == BT_THEN_DEFAULT &&
		      !opt->boot.budget_s && !opt->then_boot && !opt->shutdown;

	if (person || parent == BT_PARENT_SELF || !plat->nv_read || !plat->nv_write)
		return;
	b->plat = plat;
	b->opt = opt;
	bool have = read_state(b);
	if (!have)
		memset(&b->before, 0, sizeof(b->before));
	if ((b->before.flags & BT_BOOT_STATE_IN_PROGRESS) || !nvram_writable(b))
		return;
	b->state = b->before;
	b->state.last_status = BT_BOOT_STATUS_CONFIG_ERROR;
	b->state.last_seq = 0;
	if (have && !memcmp(&b->state, &b->before, sizeof(b->state))) {
		snprintf(b->nvram, sizeof(b->nvram), "already recorded, not written again");
	} else {
		b->state_writable = true;
		write_state(b, "for the configuration error");
	}
	printf("boot          configuration error: BaretopState last_status config-error (no run "
	       "counted), %s\n", b->nvram);
}

void bt_boot_run_finish(struct bt_boot_run *b, struct bt_platform *plat,
			const struct bt_options *opt, enum bt_boot_outcome outcome, int exit_status,
			uint32_t seq, bool end_noted)
{
	struct bt_boot_end_in in;
	bool begun = b->plat != NULL;

	if (b->ended)
		return;
	b->ended = true;
	if (!begun && outcome == BT_OUTCOME_USAGE_ERROR)
		record_config_error(b, plat, opt);
	if (begun) {
		b->elapsed_s = elapsed(b);
		if (b->budget_ended)
			printf("boot          budget ended the run early: %d workload run(s) left out, "
			       "%d cut short (counter groups or timed-PEBS samplings left out)%s\n",
			       b->n_not_run_all, b->n_partial_all,
			       b->n_not_run_all > b->n_not_run || b->n_partial_all > b->n_partial ?
			       "; the results name the first 64 of each" : "");
	}
	end_in(b, plat, opt, outcome, exit_status, seq, end_noted, &in);
	bt_boot_decide_end(&in, &b->end);
	if (b->end.write_state) {
		b->state = b->end.state;
		if (!write_state(b, "at the end")) {
			/* A reset that needs its record (the count, or the next
			 * boot told not to measure) is not taken without it. */
			in.state_kept = false;
			bt_boot_decide_end(&in, &b->end);
		}
		if (in.measuring && opt->boot.run == BT_RUN_ALWAYS)
			printf("boot          state: the measurement ended (no --run: not counted); "
			       "%s\n", b->nvram);
		else if (in.measuring)
			printf("boot          state: run %u ended %s; %s\n", (unsigned)b->state.runs,
			       bt_boot_status_name(b->state.last_status), b->nvram);
	} else if (begun) {
		b->state = b->end.state;
	}
	plat->end_action = b->end.action;
	plat->bootnext_may_reset = b->end.bootnext_may_reset;
	if (b->unattended || !begun)
		arm_watchdog(plat, BT_WATCHDOG_HANDOVER_S);
	else if (b->watchdog_armed)
		arm_watchdog(plat, 0);
	b->watchdog_armed = false;
	/* a person's run that returns has nothing to say about its end */
	if (outcome != BT_OUTCOME_INFO && (b->unattended || b->end.action != BT_END_RETURN))
		printf("then          %s\n", b->end.why);
}

const struct bt_results_boot *bt_boot_run_record(const struct bt_boot_run *b,
						 struct bt_results_boot *ret)
{
	if (!b->unattended)
		return NULL;
	*ret = (struct bt_results_boot){
		.policy = b->policy[0] ? b->policy : NULL,
		.handover = b->handover,
		.nvram = b->nvram,
		/* the counts are a policy's (none without --run) */
		.have_state = b->have_state && b->opt->boot.run != BT_RUN_ALWAYS,
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
		.n_not_run_all = b->n_not_run_all,
		.partial = (const char *const *)b->partial,
		.n_partial = b->n_partial,
		.n_partial_all = b->n_partial_all,
		/* the writes so far and those the end plans after this file */
		.nvram_writes = b->plat->nv_writes + (b->end.write_state ? 1u : 0u),
		.end_record = !b->have_state ? NULL : b->end.write_state ? "nvram" : "results-note",
		.parent = bt_parent_name(b->plat->boot_start.parent),
		.end_action = bt_end_action_name(b->end.action),
		.end_why = b->end.why,
		.resets_in_a_row = b->end.resets_in_a_row,
		.resets_max = BT_BOOT_RESETS_MAX,
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
