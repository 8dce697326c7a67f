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
	memset(ret, 0, sizeof(*ret));
	if (!have)
		memset(s, 0, sizeof(*s));
	inc(&s->boots);
	inc(&s->boots_since_run);
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
		snprintf(ret->reason, sizeof(ret->reason), "every-boot: measuring");
		break;
	}
	if (ret->measure) {
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
	s->flags &= ~BT_BOOT_STATE_IN_PROGRESS;
	inc(&s->completed);
	s->last_status = status;
	s->last_seq = seq;
}

bool bt_boot_restart_allowed(bool measured, bool every_boot_measures, int32_t boot_current,
			     bool current_in_boot_order, char *why, size_t len)
{
	char start[160];
	bool one_shot = boot_current >= 0 && !current_in_boot_order;

	if (boot_current < 0)
		snprintf(start, sizeof(start), "there is no BootCurrent (not started by the boot "
			 "manager)");
	else if (current_in_boot_order)
		snprintf(start, sizeof(start), "BootCurrent Boot%04X is in BootOrder (a BootOrder "
			 "or removable-media entry): the next boot starts baretop again",
			 (unsigned)boot_current);
	else
		snprintf(start, sizeof(start), "BootCurrent Boot%04X is not in BootOrder: started "
			 "one-shot (BootNext), the next boot follows BootOrder", (unsigned)boot_current);
	if (one_shot)
		snprintf(why, len, "%s", start);
	else if (measured && every_boot_measures && current_in_boot_order) {
		/* Measuring is no guard here: the next boot measures too. */
		snprintf(why, len, "every boot measures (no --run, or --run every-boot) and %s: "
			 "a restart would measure and restart again, forever (start it one-shot "
			 "with BootNext, or use --run once / every=N)", start);
		return false;
	} else if (measured)
		/* Said on the measuring boot too: its results are the only
		 * file a boot that hands over leaves. */
		snprintf(why, len, "this boot measured; a boot that does not will not restart: %s",
			 start);
	else
		snprintf(why, len, "this boot did not measure and %s: a restart would loop", start);
	return one_shot || measured;
}

#define BOOT_ID_SHIFT 4
#define BOOT_ID_MASK 0xfffu

enum bt_bootnext_verdict bt_bootnext_decide(uint32_t flags, uint16_t entry, bool have_boot_id,
					    uint32_t boot_id)
{
	if (!(flags & BT_BOOT_STATE_BOOTNEXT_TRIED) ||
	    (uint16_t)(flags >> BT_BOOT_STATE_BOOTNEXT_SHIFT) != entry)
		return BT_BOOTNEXT_TRY;
	if ((flags & BT_BOOT_STATE_BOOTNEXT_UNREACHED) || !have_boot_id)
		return BT_BOOTNEXT_SKIP;
	uint32_t then = (flags >> BOOT_ID_SHIFT) & BOOT_ID_MASK;
	/* Modulo 4096: a boot 4097 boots later reads as the next one, and
	 * skips once (never a reset). */
	if (((boot_id - then) & BOOT_ID_MASK) <= 1)
		return BT_BOOTNEXT_FAILED;
	return BT_BOOTNEXT_REACHED;
}

uint32_t bt_bootnext_mark(uint32_t flags, uint16_t entry, uint32_t boot_id)
{
	return (bt_bootnext_clear(flags)) | BT_BOOT_STATE_BOOTNEXT_TRIED |
	       (boot_id & BOOT_ID_MASK) << BOOT_ID_SHIFT | (uint32_t)entry << BT_BOOT_STATE_BOOTNEXT_SHIFT;
}

uint32_t bt_bootnext_clear(uint32_t flags)
{
	return flags & ~(BT_BOOT_STATE_BOOTNEXT_TRIED | BT_BOOT_STATE_BOOTNEXT_UNREACHED |
			 BOOT_ID_MASK << BOOT_ID_SHIFT | 0xffffu << BT_BOOT_STATE_BOOTNEXT_SHIFT);
}

enum bt_boot_status bt_boot_status_of(int exit_status, bool budget_ended)
{
	if (exit_status == BT_EXIT_NO_RESULTS)
		return BT_BOOT_STATUS_NO_RESULTS;
	if (exit_status != BT_EXIT_OK)
		return BT_BOOT_STATUS_FAILED;
	return budget_ended ? BT_BOOT_STATUS_BUDGET : BT_BOOT_STATUS_OK;
}
