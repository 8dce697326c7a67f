/* SPDX-License-Identifier: MIT */
/* The run policy's decisions (app/boot-policy.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app-main.h"
#include "app/boot-policy.h"

/* A decimal number from 1 to max, nothing else (no sign, blank or octal). */
static bool parse_count(const char *s, uint64_t max, uint64_t *ret)
{
	char *end;

	if (!isdigit((unsigned char)*s) || *s == '0')
		return false;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*ret = v;
	return true;
}

bt_status bt_boot_parse_run(const char *v, struct bt_boot_config *c, struct bt_diag *d)
{
	uint64_t n;

	if (strcmp(v, "once") == 0) {
		c->run = BT_RUN_ONCE;
		return BT_OK;
	}
	if (strcmp(v, "every-boot") == 0) {
		c->run = BT_RUN_EVERY_BOOT;
		return BT_OK;
	}
	if (strncmp(v, "every=", 6) == 0 && parse_count(v + 6, 65535, &n)) {
		c->run = BT_RUN_EVERY_N;
		c->every_n = (uint32_t)n;
		return BT_OK;
	}
	bt_diag_set(d, "--run %s: give once, every-boot or every=N (N from 1 to 65535)", v);
	return BT_ERR_INVALID;
}

void bt_boot_run_str(const struct bt_boot_config *c, char *buf, size_t len)
{
	switch (c->run) {
	case BT_RUN_ONCE:       snprintf(buf, len, "once"); break;
	case BT_RUN_EVERY_BOOT: snprintf(buf, len, "every-boot"); break;
	case BT_RUN_EVERY_N:    snprintf(buf, len, "every=%u", (unsigned)c->every_n); break;
	default:                snprintf(buf, len, "%s", ""); break;
	}
}

bt_status bt_boot_parse_budget(const char *v, struct bt_boot_config *c, struct bt_diag *d)
{
	uint64_t n;

	if (!parse_count(v, BT_BUDGET_MAX_S, &n)) {
		bt_diag_set(d, "--budget %s: give whole seconds, from 1 to %u", v, BT_BUDGET_MAX_S);
		return BT_ERR_INVALID;
	}
	c->budget_s = (uint32_t)n;
	return BT_OK;
}

/* Counters saturate: a machine that boots for decades stays readable. */
static void inc(uint32_t *v)
{
	if (*v != UINT32_MAX)
		++*v;
}

void bt_boot_begin(const struct bt_boot_config *c, bool have, struct bt_boot_state *s,
		   struct bt_boot_decision *ret)
{
	bool always = c->run == BT_RUN_ALWAYS;

	memset(ret, 0, sizeof(*ret));
	if (!have)
		memset(s, 0, sizeof(*s));
	/* The counts are the policy's: a boot without --run keeps only the
	 * marks that make the next boot hand over. */
	if (!always) {
		inc(&s->boots);
		inc(&s->boots_since_run);
	}
	if (s->flags & BT_BOOT_STATE_UNCOUNTED) {
		/* a run without --run that never ended */
		s->flags &= ~(BT_BOOT_STATE_IN_PROGRESS | BT_BOOT_STATE_UNCOUNTED);
		ret->previous_hung = true;
		snprintf(ret->reason, sizeof(ret->reason),
			 "the last run (without --run) never ended (hung, crashed or reset): handing "
			 "over without measuring");
		return;
	}
	if (s->flags & BT_BOOT_STATE_IN_PROGRESS) {
		/* It was counted as a run when it started. */
		s->flags &= ~BT_BOOT_STATE_IN_PROGRESS;
		inc(&s->hung);
		s->last_status = BT_BOOT_STATUS_HUNG;
		s->last_seq = 0;
		ret->previous_hung = true;
		snprintf(ret->reason, sizeof(ret->reason),
			 "run %u never ended (hung, crashed or reset): recorded as hung; handing "
			 "over without measuring", (unsigned)s->runs);
		return;
	}
	if (s->flags & BT_BOOT_STATE_HAND_OVER_NEXT) {
		s->flags &= ~BT_BOOT_STATE_HAND_OVER_NEXT;
		snprintf(ret->reason, sizeof(ret->reason),
			 "the boot before reset the machine after run %u ended %s: handing over "
			 "without measuring", (unsigned)s->runs, bt_boot_status_name(s->last_status));
		return;
	}
	switch (c->run) {
	case BT_RUN_ONCE:
		ret->measure = s->runs == 0;
		snprintf(ret->reason, sizeof(ret->reason), "%s",
			 ret->measure ? "run=once: the first run"
				      : "run=once: done already; handing over without measuring");
		break;
	case BT_RUN_EVERY_N:
		/* The first boot measures, then every N-th: boots_since_run
		 * reaches N on the N-th boot after the last run started. */
		ret->measure = s->runs == 0 || s->boots_since_run >= c->every_n;
		if (ret->measure)
			snprintf(ret->reason, sizeof(ret->reason), "every=%u: measuring on this boot",
				 (unsigned)c->every_n);
		else
			snprintf(ret->reason, sizeof(ret->reason),
				 "every=%u: %u boot(s) since the last run; handing over without "
				 "measuring", (unsigned)c->every_n, (unsigned)s->boots_since_run);
		break;
	case BT_RUN_EVERY_BOOT:
	case BT_RUN_ALWAYS:
	default:
		ret->measure = true;
		snprintf(ret->reason, sizeof(ret->reason), "%s: measuring",
			 c->run == BT_RUN_ALWAYS ? "no --run" : "every-boot");
		break;
	}
	if (ret->measure && always) {
		s->flags |= BT_BOOT_STATE_IN_PROGRESS | BT_BOOT_STATE_UNCOUNTED;
	} else if (ret->measure) {
		inc(&s->runs);
		s->boots_since_run = 0;
		s->flags |= BT_BOOT_STATE_IN_PROGRESS;
	}
}

bool bt_boot_state_must_write(const struct bt_boot_config *c, bool have,
			      const struct bt_boot_state *before,
			      const struct bt_boot_state *after)
{
	if (!have)
		return true;
	struct bt_boot_state a = *before, b = *after;
	/* What no later boot decides on is not compared. */
	a.boots = b.boots = 0;
	if (c->run != BT_RUN_EVERY_N)
		a.boots_since_run = b.boots_since_run = 0;
	return memcmp(&a, &b, sizeof(a)) != 0;
}

bool bt_boot_budget_fits(uint32_t budget_s, double elapsed_s, double steps_s, int n_steps,
			 double *ret_est_s)
{
	*ret_est_s = n_steps > 0 && steps_s > 0 ? steps_s / n_steps : 0;
	return elapsed_s + *ret_est_s < (double)budget_s;
}

void bt_boot_end(struct bt_boot_state *s, enum bt_boot_status status, uint32_t seq)
{
	bool uncounted = s->flags & BT_BOOT_STATE_UNCOUNTED;

	s->flags &= ~(BT_BOOT_STATE_IN_PROGRESS | BT_BOOT_STATE_UNCOUNTED);
	if (uncounted)
		return;
	inc(&s->completed);
	s->last_status = status;
	s->last_seq = seq;
}

enum bt_boot_gap bt_boot_gap(bool have_now, uint64_t now, uint64_t then)
{
	uint32_t hn = (uint32_t)(now >> 32), ht = (uint32_t)(then >> 32);

	if (!have_now || !then)
		return BT_GAP_UNKNOWN;
	if (hn == ht)
		return (uint32_t)now > (uint32_t)then ? BT_GAP_SAME_BOOT : BT_GAP_STUCK;
	if (hn < ht)
		return BT_GAP_STUCK;
	return hn - ht == 1 ? BT_GAP_NEXT_BOOT : BT_GAP_LATER_BOOT;
}

const char *bt_boot_gap_name(enum bt_boot_gap g)
{
	static const char *const names[] = {
		"unknown (no monotonic count)", "the same boot", "the next boot", "a later boot",
		"not advancing (the monotonic count did not grow across a reset)",
	};
	return g <= BT_GAP_STUCK ? names[g] : "?";
}

const char *bt_parent_name(enum bt_parent p)
{
	static const char *const names[] = {
		"boot-manager", "platform-recovery", "shell", "shim", "systemd-boot", "loader",
		"self", "hosted",
	};
	return p <= BT_PARENT_HOSTED ? names[p] : "?";
}

const char *bt_end_action_name(enum bt_end_action a)
{
	static const char *const names[] = {
		"return", "return-not-started", "next-boot-entry", "chainload", "restart-parent",
		"reset", "power-off",
	};
	return a <= BT_END_POWER_OFF ? names[a] : "?";
}

enum bt_return_status bt_boot_return_status(enum bt_end_action a, int exit_status)
{
	if (a != BT_END_RETURN)
		return BT_RETURN_NOT_STARTED;
	return exit_status == BT_EXIT_OK      ? BT_RETURN_SUCCESS
	       : exit_status == BT_EXIT_USAGE ? BT_RETURN_INVALID_PARAMETER
					      : BT_RETURN_ABORTED;
}

bool bt_boot_start_stale_boot_next(const struct bt_boot_start *s)
{
	return s->have_boot_current && s->have_boot_next && s->boot_next == s->boot_current;
}

/* The boots the state's resets were made in a row with this one: none
 * once a boot came between (the monotonic count two or more boots later),
 * all of them when that cannot be shown. */
static uint32_t resets_in_a_row(const struct bt_boot_state *s, const struct bt_boot_start *st)
{
	if (!s->resets)
		return 0;
	return bt_boot_gap(st->have_count, st->count, s->reset_count) == BT_GAP_LATER_BOOT
		       ? 0 : s->resets;
}

/* Whether the next boot skips baretop: the firmware's boot manager started
 * it from BootNext (not in BootOrder), which is gone. */
static bool one_shot(const struct bt_boot_start *s, char *why, size_t len)
{
	if (s->parent != BT_PARENT_BOOT_MANAGER && s->parent != BT_PARENT_SHIM)
		snprintf(why, len, "started by %s, not one-shot by the boot manager",
			 bt_parent_name(s->parent));
	else if (!s->have_boot_current)
		snprintf(why, len, "there is no BootCurrent");
	else if (!s->boot_order_read)
		snprintf(why, len, "BootOrder could not be read whole, so BootCurrent Boot%04X "
			 "is not known to be outside it", (unsigned)s->boot_current);
	else if (s->current_in_order)
		snprintf(why, len, "BootCurrent Boot%04X is in BootOrder: the next boot starts it "
			 "again", (unsigned)s->boot_current);
	else if (bt_boot_start_stale_boot_next(s) && !s->boot_next_deleted)
		snprintf(why, len, "BootNext is still Boot%04X and could not be deleted: the next "
			 "boot starts it again", (unsigned)s->boot_current);
	else {
		snprintf(why, len, "BootCurrent Boot%04X is not in BootOrder: started one-shot, "
			 "the next boot follows BootOrder", (unsigned)s->boot_current);
		return true;
	}
	return false;
}

static bool every_boot_measures(const struct bt_boot_config *c)
{
	return c->run == BT_RUN_ALWAYS || c->run == BT_RUN_EVERY_BOOT ||
	       (c->run == BT_RUN_EVERY_N && c->every_n == 1);
}

/* A power-off ends the boot without the OS as a reset does: it is counted
 * in the same row (b), so that the next power-on in a row hands over,
 * whatever the policy. Unlike --then reboot it needs no policy that skips
 * the next boot: the next boot comes only when someone powers the machine
 * on, and that one reaches the OS. */
enum reset_kind { RESET_REBOOT, RESET_FAULT, RESET_LOADER, RESET_POWER_OFF };

static void end_text(const struct bt_boot_end_in *in, struct bt_boot_end *ret, const char *what,
		     const char *why);

/* Whether this boot may end in a reset of the given kind; why (not). */
static bool may_reset(const struct bt_boot_end_in *in, bool measured, uint32_t in_row,
		      enum reset_kind kind, char *why, size_t len)
{
	char start[160];
	bool once = one_shot(&in->start, start, sizeof(start));

	if (!measured) {
		snprintf(why, len, "this boot did not measure, and a boot that does not never "
			 "resets (%s)", start);
		return false;
	}
	if (in_row >= BT_BOOT_RESETS_MAX) {
		snprintf(why, len, "baretop reset or powered off the boot before and no boot is "
			 "known to have come between (the monotonic count: %s): at most %u in a row",
			 bt_boot_gap_name(bt_boot_gap(in->start.have_count, in->start.count,
						     in->state.reset_count)),
			 BT_BOOT_RESETS_MAX);
		return false;
	}
	if (!in->state_kept && !once) {
		snprintf(why, len, "no NVRAM state to count the reset or to tell the next boot not "
			 "to measure, and %s", start);
		return false;
	}
	if (kind == RESET_REBOOT && !once && every_boot_measures(in->cfg)) {
		snprintf(why, len, "every boot measures (no --run, --run every-boot or every=1) and "
			 "%s: a restart would measure and restart again (start it one-shot with "
			 "BootNext, or use --run once / every=N)", start);
		return false;
	}
	if (once)
		snprintf(why, len, "%s", start);
	else if (kind == RESET_REBOOT)
		snprintf(why, len, "this boot measured; a boot that does not will not restart: %s",
			 start);
	else if (kind == RESET_FAULT)
		snprintf(why, len, "the next boot is told not to measure");
	else if (kind == RESET_POWER_OFF)
		snprintf(why, len, "this boot measured; the next power-on in a row hands over: %s",
			 start);
	else
		snprintf(why, len, "the loader boots its default entry after the reset");
	return true;
}

/* The hand-over of a boot that does not reset: back to what started it. */
static enum bt_end_action hand_back(const struct bt_boot_end_in *in)
{
	switch (in->start.parent) {
	case BT_PARENT_SYSTEMD_BOOT:
	case BT_PARENT_LOADER:
		return BT_END_RESTART_PARENT;
	case BT_PARENT_SHELL:
	case BT_PARENT_HOSTED:
		/* a person or a script: the real status, unless unattended */
		return in->active ? BT_END_RETURN_NOT_STARTED : BT_END_RETURN;
	default:
		return BT_END_RETURN_NOT_STARTED;
	}
}

static bool loader_parent(const struct bt_boot_start *s)
{
	return s->parent == BT_PARENT_SYSTEMD_BOOT || s->parent == BT_PARENT_LOADER;
}

/* The same-boot hand-over the options ask for, or the hand-back. */
static enum bt_end_action configured_hand_over(const struct bt_boot_end_in *in)
{
	if (in->start.parent == BT_PARENT_SELF)
		return BT_END_RETURN_NOT_STARTED;
	if (in->chainload)
		return BT_END_CHAINLOAD;
	if (in->cfg->then == BT_THEN_NEXT_BOOT_ENTRY && !loader_parent(&in->start))
		return BT_END_NEXT_BOOT_ENTRY;
	return hand_back(in);
}

/* The state after this boot: the measurement's end, the fault record, the
 * reset count; written when it differs from NVRAM's in what a later boot
 * decides on (the end of a measurement its note records is not). */
static void end_state(const struct bt_boot_end_in *in, enum bt_boot_status status, bool reset,
		      bool fault, uint32_t in_row, struct bt_boot_end *ret)
{
	struct bt_boot_state s = in->state, needed;

	if (reset) {
		s.resets = in_row + 1;
		s.reset_count = in->start.have_count ? in->start.count : 0;
		if (fault)
			s.flags |= BT_BOOT_STATE_HAND_OVER_NEXT;
	} else if (in_row == 0) {
		s.resets = 0; /* a boot came between: the row is over */
	}
	needed = s;
	if (in->measuring && (s.flags & BT_BOOT_STATE_IN_PROGRESS))
		bt_boot_end(&s, status, in->seq);
	if (!in->end_noted || fault)
		needed = s;
	ret->state = s;
	needed.boots = in->stored.boots;
	if (in->cfg->run != BT_RUN_EVERY_N)
		needed.boots_since_run = in->stored.boots_since_run;
	if (!reset)
		needed.resets = in->stored.resets; /* the row's end alone is not worth a write */
	ret->write_state = in->state_kept && memcmp(&needed, &in->stored, sizeof(needed)) != 0;
}

void bt_boot_decide_end(const struct bt_boot_end_in *in, struct bt_boot_end *ret)
{
	char why[400] = "";
	bool measured = in->measuring && (in->outcome == BT_OUTCOME_MEASURED ||
					  in->outcome == BT_OUTCOME_CRASH ||
					  in->outcome == BT_OUTCOME_CPUS_LEFT);
	uint32_t in_row = resets_in_a_row(&in->state, &in->start);
	enum bt_boot_status status = bt_boot_status_of(in->exit_status, in->budget_ended);
	const char *what = "";

	memset(ret, 0, sizeof(*ret));
	ret->resets_in_a_row = in_row;
	ret->bootnext_may_reset = in->start.parent == BT_PARENT_SHELL &&
				  may_reset(in, measured, in_row, RESET_REBOOT, why, sizeof(why));
	why[0] = '\0';
	switch (in->outcome) {
	case BT_OUTCOME_INFO:
		/* --help, --version, a listing: no boot's run, nothing measured
		 * nor changed; --shutdown still ends it (a test's end) */
		ret->action = in->shutdown ? BT_END_POWER_OFF : hand_back(in);
		what = "not a boot's run (help, version or a listing)";
		break;
	case BT_OUTCOME_CRASH:
	case BT_OUTCOME_CPUS_LEFT: {
		bool crash = in->outcome == BT_OUTCOME_CRASH;
		status = crash ? BT_BOOT_STATUS_CRASHED : BT_BOOT_STATUS_CPUS_LEFT;
		bool r = may_reset(in, measured, in_row, RESET_FAULT, why, sizeof(why));
		ret->action = r ? BT_END_RESET : configured_hand_over(in);
		end_state(in, status, r, r, in_row, ret);
		what = crash ? "after an exception on baretop's CPU"
			     : "with CPUs baretop started left behind";
		break;
	}
	case BT_OUTCOME_MEASURED:
		if (!measured)
			goto not_measured;
		if (in->start.parent == BT_PARENT_SELF) {
			ret->action = BT_END_RETURN_NOT_STARTED;
		} else if (in->chainload) {
			ret->action = BT_END_CHAINLOAD;
		} else if (in->shutdown) {
			bool r = may_reset(in, true, in_row, RESET_POWER_OFF, why, sizeof(why));
			ret->action = r ? BT_END_POWER_OFF : configured_hand_over(in);
			what = r ? "--then shutdown on a measuring boot" : "--then shutdown NOT taken";
		} else if (in->cfg->then == BT_THEN_REBOOT) {
			bool r = may_reset(in, true, in_row, RESET_REBOOT, why, sizeof(why));
			ret->action = r ? BT_END_RESET : hand_back(in);
			what = r ? "" : "--then reboot NOT taken";
		} else if (loader_parent(&in->start)) {
			bool r = may_reset(in, true, in_row, RESET_LOADER, why, sizeof(why));
			ret->action = r ? BT_END_RESET : BT_END_RESTART_PARENT;
			what = r ? "back to the loader by a reset"
				 : "back to the loader by starting it again";
		} else {
			ret->action = configured_hand_over(in);
		}
		end_state(in, status,
			  ret->action == BT_END_RESET || ret->action == BT_END_POWER_OFF, false,
			  in_row, ret);
		break;
	default:
	not_measured:
		/* (a): whatever the options say, no reset and no power-off */
		ret->action = configured_hand_over(in);
		end_state(in, status, false, false, in_row, ret);
		if (in->cfg->then == BT_THEN_REBOOT || in->shutdown) {
			what = in->shutdown ? "--then shutdown NOT taken" : "--then reboot NOT taken";
			snprintf(why, sizeof(why), "this boot did not measure, and a boot that does not "
				 "never resets or powers off");
		}
		break;
	}
	if (in->start.parent == BT_PARENT_SELF)
		snprintf(why, sizeof(why), "baretop was started again by an image it started in "
			 "this boot: the loader it handed back to, whose default entry it is, never "
			 "reaches the OS (make the OS the default; start baretop one-shot), or its "
			 "--then chainload file is baretop itself");
	end_text(in, ret, what, why);
}

/* The console's line: what the end does, then why. */
static void end_text(const struct bt_boot_end_in *in, struct bt_boot_end *ret, const char *what,
		     const char *why)
{
	const char *act;

	switch (ret->action) {
	case BT_END_RETURN:
		act = "returning its exit status";
		break;
	case BT_END_RETURN_NOT_STARTED:
		act = in->start.parent == BT_PARENT_RECOVERY
			      ? "returning to the firmware as \"not started\", so that it goes on with "
				"its next recovery candidate"
		      : in->start.parent == BT_PARENT_BOOT_MANAGER || in->start.parent == BT_PARENT_SHIM
			      ? "returning to the boot manager as \"not started\", so that it goes on "
				"with the next BootOrder entry"
			      : "returning \"not started\"";
		break;
	case BT_END_NEXT_BOOT_ENTRY:
		act = "starting the next BootOrder entry";
		break;
	case BT_END_CHAINLOAD:
		act = "starting the --then-boot file";
		break;
	case BT_END_RESTART_PARENT:
		act = "starting the loader that started baretop again (it boots its default entry)";
		break;
	case BT_END_RESET:
		act = in->cfg->then == BT_THEN_REBOOT && !*what ? "rebooting" : "resetting";
		break;
	default:
		act = "powering off";
		break;
	}
	if (strstr(what, "NOT taken"))
		snprintf(ret->why, sizeof(ret->why), "%s: %s; %s", what + strlen("--then "), why,
			 act);
	else
		snprintf(ret->why, sizeof(ret->why), "%s%s%s%s%s%s", act, *what ? " (" : "", what,
			 *what ? ")" : "", *why ? ": " : "", why);
}

void bt_boot_end_note(const struct bt_boot_state *s, enum bt_boot_status status, char *buf,
		      size_t len)
{
	snprintf(buf, len, "run=%016llx status=%u", (unsigned long long)s->run_tag,
		 (unsigned)status);
}

/* "KEY=" then digits in `base` up to the end or a blank; NULL when not. */
static const char *field(const char *p, const char *key, int base, unsigned long long *ret)
{
	size_t n = strlen(key);
	char *end;

	if (strncmp(p, key, n) || !isxdigit((unsigned char)p[n]))
		return NULL;
	errno = 0;
	*ret = strtoull(p + n, &end, base);
	return errno || (*end && *end != ' ') ? NULL : end;
}

bool bt_boot_note_resolve(struct bt_boot_state *s, const char *note, uint32_t seq)
{
	unsigned long long tag, status;
	const char *p = note;

	if (!p || !(s->flags & BT_BOOT_STATE_IN_PROGRESS) || !s->run_tag ||
	    !(p = field(p, "run=", 16, &tag)) || *p++ != ' ' ||
	    !(p = field(p, "status=", 10, &status)) || *p || tag != s->run_tag ||
	    status == BT_BOOT_STATUS_NONE || status >= BT_BOOT_STATUS_COUNT)
		return false;
	bt_boot_end(s, (enum bt_boot_status)status, seq);
	return true;
}

static uint16_t bootnext_entry(const struct bt_boot_state *s)
{
	return (uint16_t)(s->flags >> BT_BOOT_STATE_BOOTNEXT_SHIFT);
}

enum bt_bootnext_verdict bt_bootnext_decide(struct bt_boot_state *s, uint16_t entry,
					    bool have_count, uint64_t count, bool may_reset,
					    enum bt_boot_gap *ret_gap)
{
	bool ours = (s->flags & (BT_BOOT_STATE_BOOTNEXT_TRIED | BT_BOOT_STATE_BOOTNEXT_UNREACHED)) &&
		    bootnext_entry(s) == entry;
	enum bt_boot_gap gap = bt_boot_gap(have_count, count, s->bootnext_count);

	*ret_gap = gap;
	if (!ours) {
		if (s->flags & (BT_BOOT_STATE_BOOTNEXT_TRIED | BT_BOOT_STATE_BOOTNEXT_UNREACHED))
			bt_bootnext_clear(s); /* another entry's record: this one is the way now */
		return may_reset && have_count ? BT_BOOTNEXT_TRY : BT_BOOTNEXT_SKIP;
	}
	if (s->flags & BT_BOOT_STATE_BOOTNEXT_TRIED) {
		if (gap == BT_GAP_NEXT_BOOT) {
			s->flags &= ~BT_BOOT_STATE_BOOTNEXT_TRIED;
			if (++s->bootnext_failures >= BT_BOOTNEXT_TRIES) {
				s->flags |= BT_BOOT_STATE_BOOTNEXT_UNREACHED;
				return BT_BOOTNEXT_UNREACHED;
			}
			return BT_BOOTNEXT_FAILED;
		}
		if (gap != BT_GAP_LATER_BOOT)
			return BT_BOOTNEXT_SKIP; /* cannot tell: never a reset on a guess */
		bt_bootnext_clear(s);
		return may_reset ? BT_BOOTNEXT_REACHED : BT_BOOTNEXT_SKIP;
	}
	if (s->flags & BT_BOOT_STATE_BOOTNEXT_UNREACHED)
		return BT_BOOTNEXT_UNREACHED;
	/* failed before, fewer than BT_BOOTNEXT_TRIES times: try again */
	return may_reset && have_count ? BT_BOOTNEXT_TRY : BT_BOOTNEXT_SKIP;
}

void bt_bootnext_mark(struct bt_boot_state *s, uint16_t entry, uint64_t count)
{
	uint32_t failures = bootnext_entry(s) == entry ? s->bootnext_failures : 0;

	bt_bootnext_clear(s);
	s->bootnext_failures = failures;
	s->flags |= BT_BOOT_STATE_BOOTNEXT_TRIED | (uint32_t)entry << BT_BOOT_STATE_BOOTNEXT_SHIFT;
	s->bootnext_count = count;
	s->resets = 1;
	s->reset_count = count;
}

void bt_bootnext_clear(struct bt_boot_state *s)
{
	s->flags &= ~(BT_BOOT_STATE_BOOTNEXT_TRIED | BT_BOOT_STATE_BOOTNEXT_UNREACHED |
		      0xffffu << BT_BOOT_STATE_BOOTNEXT_SHIFT);
	s->bootnext_count = 0;
	s->bootnext_failures = 0;
}

enum bt_boot_status bt_boot_status_of(int exit_status, bool budget_ended)
{
	if (exit_status == BT_EXIT_NO_RESULTS)
		return BT_BOOT_STATUS_NO_RESULTS;
	if (exit_status == BT_EXIT_USAGE)
		return BT_BOOT_STATUS_CONFIG_ERROR;
	if (exit_status != BT_EXIT_OK)
		return BT_BOOT_STATUS_FAILED;
	return budget_ended ? BT_BOOT_STATUS_BUDGET : BT_BOOT_STATUS_OK;
}
