/* SPDX-License-Identifier: MIT */
/* The run policy's decisions, boot after boot. */
#include <string.h>

#include "app/app-main.h"
#include "base/array.h"
#include "app/boot-policy.h"
#include "app/options.h"
#include "tests/unit/lib/test.h"

/* Boots `n` times under policy c, each measurement ending ok; writes '1'
 * for a boot that measured and '0' for one that did not. */
static void boots(const struct bt_boot_config *c, int n, char *pattern, struct bt_boot_state *s)
{
	struct bt_boot_decision dec;
	bool have = false;

	for (int i = 0; i < n; i++) {
		bt_boot_begin(c, have, s, &dec);
		have = true;
		pattern[i] = dec.measure ? '1' : '0';
		if (dec.measure) {
			CHECK(s->flags & BT_BOOT_STATE_IN_PROGRESS);
			bt_boot_end(s, BT_BOOT_STATUS_OK, s->runs);
		}
		CHECK(!(s->flags & BT_BOOT_STATE_IN_PROGRESS));
	}
	pattern[n] = '\0';
}

TEST(once_measures_the_first_boot_only)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE };
	struct bt_boot_state s;
	char p[16];

	boots(&c, 4, p, &s);
	CHECK_STR(p, "1000");
	CHECK_EQ_U64(s.boots, 4);
	CHECK_EQ_U64(s.runs, 1);
	CHECK_EQ_U64(s.completed, 1);
	CHECK_EQ_U64(s.last_seq, 1);
}

TEST(every_n_measures_the_first_then_every_nth)
{
	struct bt_boot_config c = { .run = BT_RUN_EVERY_N, .every_n = 2 };
	struct bt_boot_state s;
	char p[16];

	boots(&c, 7, p, &s);
	CHECK_STR(p, "1010101");
	CHECK_EQ_U64(s.runs, 4);
	c.every_n = 3;
	boots(&c, 7, p, &s);
	CHECK_STR(p, "1001001");
	c.every_n = 1;
	boots(&c, 3, p, &s);
	CHECK_STR(p, "111");
	c = (struct bt_boot_config){ .run = BT_RUN_EVERY_BOOT };
	boots(&c, 3, p, &s);
	CHECK_STR(p, "111");
}

TEST(a_run_that_never_ended_is_hung_and_the_next_boot_hands_over)
{
	struct bt_boot_config c = { .run = BT_RUN_EVERY_BOOT };
	struct bt_boot_state s;
	struct bt_boot_decision dec;

	bt_boot_begin(&c, false, &s, &dec);
	CHECK(dec.measure && !dec.previous_hung);
	/* ... the machine resets here: no bt_boot_end ... */
	bt_boot_begin(&c, true, &s, &dec);
	CHECK(!dec.measure && dec.previous_hung);
	CHECK(strstr(dec.reason, "hung") != NULL);
	CHECK_EQ_U64(s.hung, 1);
	CHECK_EQ_U64(s.runs, 1);
	CHECK_EQ_U64(s.completed, 0);
	CHECK_EQ_U64(s.last_status, BT_BOOT_STATUS_HUNG);
	CHECK(!(s.flags & BT_BOOT_STATE_IN_PROGRESS));
	/* every-boot measures again on the boot after */
	bt_boot_begin(&c, true, &s, &dec);
	CHECK(dec.measure);
	CHECK_EQ_U64(s.runs, 2);
	CHECK_EQ_U64(s.boots, 3);

	/* once: a hung first run is the run; no other */
	c.run = BT_RUN_ONCE;
	bt_boot_begin(&c, false, &s, &dec);
	bt_boot_begin(&c, true, &s, &dec);
	CHECK(dec.previous_hung && !dec.measure);
	bt_boot_begin(&c, true, &s, &dec);
	CHECK(!dec.measure && !dec.previous_hung);
}

TEST(an_unreadable_state_starts_again)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE };
	struct bt_boot_state s;
	struct bt_boot_decision dec;

	memset(&s, 0xff, sizeof(s));
	bt_boot_begin(&c, false, &s, &dec);
	CHECK(dec.measure);
	CHECK_EQ_U64(s.boots, 1);
	/* counters saturate instead of wrapping */
	s.boots = UINT32_MAX;
	bt_boot_begin(&c, true, &s, &dec);
	CHECK_EQ_U64(s.boots, UINT32_MAX);
}

TEST(status_of_an_ended_measurement)
{
	CHECK_EQ_INT(bt_boot_status_of(BT_EXIT_OK, false), BT_BOOT_STATUS_OK);
	CHECK_EQ_INT(bt_boot_status_of(BT_EXIT_OK, true), BT_BOOT_STATUS_BUDGET);
	CHECK_EQ_INT(bt_boot_status_of(BT_EXIT_FAILED, true), BT_BOOT_STATUS_FAILED);
	CHECK_EQ_INT(bt_boot_status_of(BT_EXIT_NO_RESULTS, false), BT_BOOT_STATUS_NO_RESULTS);
}

/* --max-window-ms: milliseconds as a plain decimal, 0.01 to 60000,
 * default 1000. */
TEST(max_window_ms_option)
{
	struct bt_options o;
	struct bt_diag d;

	bt_options_defaults(&o);
	CHECK(o.max_window_ms == 1000.0);
	char *w[] = { "--max-window-ms", "0.25" };
	CHECK_EQ_INT(bt_options_parse(&o, 2, w, "test", &d), BT_OK);
	CHECK(o.max_window_ms == 0.25);
	static const char *const good[] = { "0.01", "60000", "1", ".5" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(good); i++) {
		char *wg[] = { "--max-window-ms", (char *)good[i] };
		bt_options_defaults(&o);
		CHECK_MSG(bt_options_parse(&o, 2, wg, "test", &d) == BT_OK, "%s refused", good[i]);
	}
	static const char *const bad[] = { "0", "0.001", "60001", "-1", " 5", "5ms", "inf",
					   "nan", "0x10", "1e3", "" };
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		char *wb[] = { "--max-window-ms", (char *)bad[i] };
		bt_options_defaults(&o);
		CHECK_MSG(bt_options_parse(&o, 2, wb, "test", &d) == BT_ERR_INVALID, "'%s' accepted",
			  bad[i]);
	}
}

TEST(run_then_and_budget_options)
{
	struct bt_options o;
	struct bt_diag d;
	char buf[32];

	bt_options_defaults(&o);
	char *w[] = { "--shutdown", "--run=every=3", "--then", "chainload:\\EFI\\x.efi",
		      "--budget=90" };
	CHECK_EQ_INT(bt_options_parse(&o, 5, w, "test", &d), BT_OK);
	CHECK(o.boot.run == BT_RUN_EVERY_N && o.boot.every_n == 3 && o.boot.budget_s == 90);
	/* --then chainload is --then-boot, and replaces the earlier --shutdown */
	CHECK_STR(o.then_boot, "\\EFI\\x.efi");
	CHECK(!o.shutdown);
	bt_boot_run_str(&o.boot, buf, sizeof(buf));
	CHECK_STR(buf, "every=3");

	char *w2[] = { "--then-boot", "x.efi", "--then=reboot" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_parse(&o, 3, w2, "test", &d), BT_OK);
	CHECK(o.then_boot == NULL && o.boot.then == BT_THEN_REBOOT);
	char *w3[] = { "--then=shutdown", "--run", "once" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_parse(&o, 3, w3, "test", &d), BT_OK);
	CHECK(o.shutdown && o.boot.then == BT_THEN_DEFAULT && o.boot.run == BT_RUN_ONCE);
	char *w4[] = { "--then=next-boot-entry" };
	CHECK_EQ_INT(bt_options_parse(&o, 1, w4, "test", &d), BT_OK);
	CHECK(!o.shutdown && o.boot.then == BT_THEN_NEXT_BOOT_ENTRY);

	static const char *const bad[][2] = {
		{ "--run", "twice" }, { "--run", "every=0" }, { "--run", "every=65536" },
		{ "--run", "every=-1" }, { "--run", "every=010" }, { "--then", "chainload:" },
		{ "--then", "halt" }, { "--budget", "0" }, { "--budget", "86401" },
		{ "--budget", "1.5" }, { "--budget", " 5" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(bad); i++) {
		char *wb[] = { (char *)bad[i][0], (char *)bad[i][1] };
		bt_options_defaults(&o);
		CHECK_MSG(bt_options_parse(&o, 2, wb, "test", &d) == BT_ERR_INVALID, "%s %s accepted",
			  bad[i][0], bad[i][1]);
	}
}

TEST(run_and_then_survive_a_bad_configuration)
{
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "--run", "once", "--no-such-option", "--then=chainload:\\os.efi" };

	bt_options_defaults(&o);
	bt_options_scan_end_actions(&o, 4, w);
	CHECK_EQ_INT(bt_options_parse(&o, 4, w, "test", &d), BT_ERR_INVALID);
	CHECK(o.boot.run == BT_RUN_ONCE);
	CHECK_STR(o.then_boot, "\\os.efi");
	/* without the scan the parse stops before --then */
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_parse(&o, 4, w, "test", &d), BT_ERR_INVALID);
	CHECK(o.then_boot == NULL);
}

/* Boots n times with the state kept only as NVRAM keeps it: read at the
 * start, written when bt_boot_state_must_write says so and after each
 * measurement. Per boot: writes ('0'..'9') and whether it measured. */
static void nv_boots(const struct bt_boot_config *c, int n, char *writes, char *pattern,
		     struct bt_boot_state *nv)
{
	bool have = false;

	memset(nv, 0, sizeof(*nv));
	for (int i = 0; i < n; i++) {
		struct bt_boot_state before = *nv, s = *nv;
		struct bt_boot_decision dec;
		int w = 0;

		bt_boot_begin(c, have, &s, &dec);
		if (bt_boot_state_must_write(c, have, &before, &s)) {
			*nv = s;
			w++;
		}
		have = true;
		if (dec.measure) {
			bt_boot_end(&s, BT_BOOT_STATUS_OK, s.runs);
			*nv = s;
			w++;
		}
		writes[i] = (char)('0' + w);
		pattern[i] = dec.measure ? '1' : '0';
	}
	writes[n] = pattern[n] = '\0';
}

TEST(nvram_written_only_when_a_later_boot_needs_it)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE };
	struct bt_boot_state nv;
	char w[16], p[16];

	/* once: the run's two writes, then none at all */
	nv_boots(&c, 4, w, p, &nv);
	CHECK_STR(p, "1000");
	CHECK_STR(w, "2000");
	CHECK_EQ_U64(nv.boots, 1);
	CHECK_EQ_U64(nv.runs, 1);
	/* every=2: the boot in between writes boots_since_run, or the
	 * pattern would never reach its N-th boot */
	c = (struct bt_boot_config){ .run = BT_RUN_EVERY_N, .every_n = 2 };
	nv_boots(&c, 5, w, p, &nv);
	CHECK_STR(p, "10101");
	CHECK_STR(w, "21212");
	c = (struct bt_boot_config){ .run = BT_RUN_EVERY_BOOT };
	nv_boots(&c, 3, w, p, &nv);
	CHECK_STR(w, "222");
	/* a first boot always writes; a changed flag (a BootNext attempt
	 * recorded) is worth a write, the boot count alone is not */
	struct bt_boot_state a = { .boots = 3, .runs = 1 }, b = a;
	c = (struct bt_boot_config){ .run = BT_RUN_ONCE };
	CHECK(bt_boot_state_must_write(&c, false, &a, &b));
	b.boots = 4;
	b.boots_since_run = 9;
	CHECK(!bt_boot_state_must_write(&c, true, &a, &b));
	b.flags = BT_BOOT_STATE_BOOTNEXT_TRIED;
	CHECK(bt_boot_state_must_write(&c, true, &a, &b));
}

TEST(budget_plans_the_next_step_from_the_mean_of_those_before)
{
	double est;

	/* nothing to go by: time left is enough */
	CHECK(bt_boot_budget_fits(10, 9.9, 0, 0, &est));
	CHECK(est == 0);
	CHECK(!bt_boot_budget_fits(10, 10.0, 0, 0, &est));
	/* 4 steps of 2 s each, 8.5 s in: 8.5 + 2 passes 10, so not started
	 * (the check before planning started it: 8.5 < 10) */
	CHECK(!bt_boot_budget_fits(10, 8.5, 8.0, 4, &est));
	CHECK(est == 2.0);
	/* 7.9 s in: 7.9 + 2 fits */
	CHECK(bt_boot_budget_fits(10, 7.9, 8.0, 4, &est));
	/* the mean, not the last: 1 s and 5 s before give an estimate of 3 s */
	CHECK(!bt_boot_budget_fits(10, 7.5, 6.0, 2, &est));
	CHECK(est == 3.0);
}

/* The monotonic count's high half is the boot: equal with a grown low
 * half is the same boot, equal otherwise (or lower) a count that did not
 * advance across a reset. */
TEST(boot_gap_from_the_monotonic_count)
{
	uint64_t k = 41ull << 32 | 7;

	CHECK_EQ_INT(bt_boot_gap(false, k, k), BT_GAP_UNKNOWN);
	CHECK_EQ_INT(bt_boot_gap(true, k, 0), BT_GAP_UNKNOWN);
	CHECK_EQ_INT(bt_boot_gap(true, k + 3, k), BT_GAP_SAME_BOOT);
	CHECK_EQ_INT(bt_boot_gap(true, 41ull << 32 | 2, k), BT_GAP_STUCK);
	CHECK_EQ_INT(bt_boot_gap(true, k, k), BT_GAP_STUCK);
	CHECK_EQ_INT(bt_boot_gap(true, 42ull << 32 | 1, k), BT_GAP_NEXT_BOOT);
	CHECK_EQ_INT(bt_boot_gap(true, 43ull << 32, k), BT_GAP_LATER_BOOT);
	CHECK_EQ_INT(bt_boot_gap(true, 40ull << 32 | 9, k), BT_GAP_STUCK);
}

/* A boot that started from BootOrder entry Boot0001 (EDK2: BootCurrent
 * set, in BootOrder), count 100:1, with policy c and outcome o. */
static struct bt_boot_end_in end_in(const struct bt_boot_config *c, enum bt_boot_outcome o,
				    bool measuring)
{
	struct bt_boot_end_in in = {
		.cfg = c, .active = true, .state_kept = true, .measuring = measuring,
		.outcome = o,
		.start = { .parent = BT_PARENT_BOOT_MANAGER, .have_boot_current = true,
			   .boot_current = 1, .boot_order_read = true, .current_in_order = true,
			   .have_count = true, .count = 100ull << 32 | 1 },
	};
	if (measuring)
		in.state.flags = in.stored.flags = BT_BOOT_STATE_IN_PROGRESS;
	return in;
}

/* (a): no reset and no power-off on a boot that did not measure, whatever
 * --then says; the boot manager goes on with BootOrder instead. */
TEST(a_boot_that_did_not_measure_never_resets_or_powers_off)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE, .then = BT_THEN_REBOOT };
	struct bt_boot_end e;
	static const enum bt_boot_outcome outcomes[] = { BT_OUTCOME_NOT_NOW,
							 BT_OUTCOME_USAGE_ERROR,
							 BT_OUTCOME_CRASH };

	for (size_t i = 0; i < BT_ARRAY_SIZE(outcomes); i++) {
		struct bt_boot_end_in in = end_in(&c, outcomes[i], false);
		in.start.current_in_order = false; /* one-shot: a reset would not loop */
		bt_boot_decide_end(&in, &e);
		CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
		in.shutdown = true;
		bt_boot_decide_end(&in, &e);
		CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
		CHECK(strstr(e.why, "did not measure") != NULL);
	}
	/* the same boot measuring powers off as asked */
	struct bt_boot_end_in in = end_in(&c, BT_OUTCOME_MEASURED, true);
	in.shutdown = true;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_POWER_OFF);
}

/* --then reboot restarts only where the next boot cannot measure and
 * restart again (the loops of removable media and of PlatformRecovery). */
TEST(reboot_only_where_the_next_boot_does_not_restart_again)
{
	struct bt_boot_config once = { .run = BT_RUN_ONCE, .then = BT_THEN_REBOOT };
	struct bt_boot_config every = { .run = BT_RUN_EVERY_BOOT, .then = BT_THEN_REBOOT };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&once, BT_OUTCOME_MEASURED, true);

	/* once, from BootOrder: the next boot does not measure */
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	CHECK(strstr(e.why, "a boot that does not will not restart") != NULL);
	CHECK_EQ_U64(e.state.resets, 1);
	CHECK_EQ_U64(e.state.reset_count, 100ull << 32 | 1);
	CHECK(e.write_state);
	/* every-boot from BootOrder: never; one-shot: yes */
	in = end_in(&every, BT_OUTCOME_MEASURED, true);
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK(strstr(e.why, "every boot measures") != NULL);
	in.start.current_in_order = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	/* no BootCurrent (PlatformRecovery), every-boot: never (was 55 resets in 300 s) */
	in = end_in(&every, BT_OUTCOME_MEASURED, true);
	in.start.parent = BT_PARENT_RECOVERY;
	in.start.have_boot_current = false;
	in.start.current_in_order = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	/* (c) and the fail-open inference: BootNext kept and not deleted, or
	 * BootOrder not read whole, is no one-shot start */
	in = end_in(&every, BT_OUTCOME_MEASURED, true);
	in.start.current_in_order = false;
	in.start.have_boot_next = true;
	in.start.boot_next = 1;
	CHECK(bt_boot_start_stale_boot_next(&in.start));
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	in.start.boot_next_deleted = true;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	in.start.boot_order_read = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK(strstr(e.why, "BootOrder could not be read whole") != NULL);
	/* a BootNext of someone else's (fwupd) is not baretop's to delete */
	in.start.boot_next = 7;
	CHECK(!bt_boot_start_stale_boot_next(&in.start));
}

/* (b): at most one reset in a row, unless the monotonic count shows a boot
 * came between; a count that does not advance, or none, is "in a row". */
TEST(resets_in_a_row_are_capped_by_the_count)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE, .then = BT_THEN_REBOOT };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&c, BT_OUTCOME_MEASURED, true);

	in.state.resets = in.stored.resets = 1;
	in.state.reset_count = in.stored.reset_count = 99ull << 32 | 5; /* the boot before */
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK_EQ_U64(e.resets_in_a_row, 1);
	CHECK(strstr(e.why, "at most 1 in a row") != NULL);
	in.state.reset_count = 98ull << 32 | 5; /* boot 99 came between */
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	CHECK_EQ_U64(e.resets_in_a_row, 0);
	in.state.reset_count = 100ull << 32 | 0; /* not advancing */
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	in.state.reset_count = 98ull << 32 | 5;
	in.start.have_count = false; /* no count: fail-safe */
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
}

/* (d): a crash resets only within the cap and recorded so that the next
 * boot hands over; else, and without a state, it hands over. */
TEST(a_crash_resets_only_recorded_and_within_the_cap)
{
	struct bt_boot_config c = { .run = BT_RUN_EVERY_BOOT };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&c, BT_OUTCOME_CRASH, true);
	struct bt_boot_decision dec;

	in.state.run_tag = in.stored.run_tag = 5;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	CHECK(e.write_state);
	CHECK(e.state.flags & BT_BOOT_STATE_HAND_OVER_NEXT);
	CHECK(!(e.state.flags & BT_BOOT_STATE_IN_PROGRESS));
	CHECK_EQ_U64(e.state.last_status, BT_BOOT_STATUS_CRASHED);
	/* the next boot hands over without measuring, and clears the flag */
	struct bt_boot_state s = e.state;
	bt_boot_begin(&c, true, &s, &dec);
	CHECK(!dec.measure);
	CHECK(!(s.flags & BT_BOOT_STATE_HAND_OVER_NEXT));
	CHECK(strstr(dec.reason, "crashed") != NULL);
	/* without a state (none, or writes failing) and not one-shot: hand over */
	in.state_kept = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK(!e.write_state);
	/* CPUs left behind: the same rule */
	in = end_in(&c, BT_OUTCOME_CPUS_LEFT, true);
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	CHECK_EQ_U64(e.state.last_status, BT_BOOT_STATUS_CPUS_LEFT);
	/* a crash on a boot that did not measure: (a) */
	in = end_in(&c, BT_OUTCOME_CRASH, false);
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
}

/* (f): under systemd-boot a measuring boot resets (systemd-boot then boots
 * its default entry), any other starts it again; next-boot-entry never
 * starts BootOrder's entry after the loader's (the OS is in its menu). */
TEST(under_a_loader_the_hand_over_goes_back_to_it)
{
	struct bt_boot_config c = { .run = BT_RUN_ONCE, .then = BT_THEN_NEXT_BOOT_ENTRY };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&c, BT_OUTCOME_MEASURED, true);

	in.start.parent = BT_PARENT_SYSTEMD_BOOT;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESET);
	in = end_in(&c, BT_OUTCOME_NOT_NOW, false);
	in.start.parent = BT_PARENT_SYSTEMD_BOOT;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RESTART_PARENT);
	/* baretop started again by the loader it restarted: refused, said why */
	in.start.parent = BT_PARENT_SELF;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK(strstr(e.why, "default entry") != NULL);
	/* from the boot manager next-boot-entry stays */
	in = end_in(&c, BT_OUTCOME_NOT_NOW, false);
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_NEXT_BOOT_ENTRY);
	/* started by a person from the shell without options: the real status */
	struct bt_boot_config none = { .run = BT_RUN_ALWAYS };
	in = end_in(&none, BT_OUTCOME_MEASURED, true);
	in.active = false;
	in.start.parent = BT_PARENT_SHELL;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN);
}

/* The end recorded in the results folder's note needs no NVRAM write at
 * the end (every-boot: one write per boot, the one before measuring); a
 * note of another run resolves nothing. */
TEST(end_note_saves_the_end_write)
{
	struct bt_boot_config c = { .run = BT_RUN_EVERY_BOOT };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&c, BT_OUTCOME_MEASURED, true);
	char note[96];

	in.state.run_tag = in.stored.run_tag = 0x1234abcd;
	in.end_noted = true;
	bt_boot_decide_end(&in, &e);
	CHECK(!e.write_state);
	CHECK(!(e.state.flags & BT_BOOT_STATE_IN_PROGRESS));
	in.end_noted = false;
	bt_boot_decide_end(&in, &e);
	CHECK(e.write_state);

	struct bt_boot_state s = in.state;
	bt_boot_end_note(&s, BT_BOOT_STATUS_OK, note, sizeof(note));
	CHECK_STR(note, "run=000000001234abcd status=1");
	CHECK(!bt_boot_note_resolve(&s, "run=000000001234abce status=1", 9));
	CHECK(!bt_boot_note_resolve(&s, "run=000000001234abcd status=1 x", 9));
	CHECK(!bt_boot_note_resolve(&s, "run=000000001234abcd status=99", 9));
	CHECK(s.flags & BT_BOOT_STATE_IN_PROGRESS);
	CHECK(bt_boot_note_resolve(&s, note, 9));
	CHECK(!(s.flags & BT_BOOT_STATE_IN_PROGRESS));
	CHECK_EQ_U64(s.last_seq, 9);
	CHECK_EQ_U64(s.completed, 1);
	CHECK_EQ_U64(s.last_status, BT_BOOT_STATUS_OK);
}

/* The BootNext attempt: the very next boot back in baretop is a failure,
 * retried on a later boot up to BT_BOOTNEXT_TRIES attempts; boots passed
 * without baretop mean it was reached; a count that cannot tell boots
 * apart never makes a reset. */
TEST(bootnext_retried_after_a_transient_failure_with_a_bound)
{
	struct bt_boot_state s = { 0 };
	enum bt_boot_gap g;
	uint64_t k = 50ull << 32;

	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k, true, &g), BT_BOOTNEXT_TRY);
	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k, false, &g), BT_BOOTNEXT_SKIP);
	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, false, 0, true, &g), BT_BOOTNEXT_SKIP);
	for (unsigned i = 1; i <= BT_BOOTNEXT_TRIES; i++) {
		bt_bootnext_mark(&s, 5, k);
		CHECK_EQ_U64(s.resets, 1);
		k += 1ull << 32;
		enum bt_bootnext_verdict v = bt_bootnext_decide(&s, 5, true, k, true, &g);
		CHECK_EQ_INT(g, BT_GAP_NEXT_BOOT);
		CHECK_EQ_U64(s.bootnext_failures, i);
		CHECK_EQ_INT(v, i < BT_BOOTNEXT_TRIES ? BT_BOOTNEXT_FAILED : BT_BOOTNEXT_UNREACHED);
		if (i < BT_BOOTNEXT_TRIES) /* a later boot that may reset tries again */
			CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k + (2ull << 32), true, &g),
				     BT_BOOTNEXT_TRY);
	}
	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k + (9ull << 32), true, &g),
		     BT_BOOTNEXT_UNREACHED);
	/* reached: boots passed without baretop */
	bt_bootnext_clear(&s);
	bt_bootnext_mark(&s, 5, k);
	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k + (3ull << 32), true, &g),
		     BT_BOOTNEXT_REACHED);
	CHECK_EQ_U64(s.bootnext_failures, 0);
	/* the count did not advance: no verdict, no reset */
	bt_bootnext_mark(&s, 5, k);
	CHECK_EQ_INT(bt_bootnext_decide(&s, 5, true, k, true, &g), BT_BOOTNEXT_SKIP);
	CHECK_EQ_INT(g, BT_GAP_STUCK);
	CHECK(s.flags & BT_BOOT_STATE_BOOTNEXT_TRIED);
	/* another entry's record goes */
	CHECK_EQ_INT(bt_bootnext_decide(&s, 6, true, k + (1ull << 32), true, &g), BT_BOOTNEXT_TRY);
	CHECK(!(s.flags & BT_BOOT_STATE_BOOTNEXT_TRIED));
}

/* A boot without --run keeps only the marks that make the next boot hand
 * over: counts are the policy's, so a later --run once still measures. */
TEST(a_boot_without_run_counts_nothing)
{
	struct bt_boot_config none = { .run = BT_RUN_ALWAYS }, once = { .run = BT_RUN_ONCE };
	struct bt_boot_state s;
	struct bt_boot_decision dec;

	bt_boot_begin(&none, false, &s, &dec);
	CHECK(dec.measure);
	CHECK(s.flags & BT_BOOT_STATE_IN_PROGRESS);
	CHECK(s.boots == 0 && s.runs == 0);
	bt_boot_end(&s, BT_BOOT_STATUS_OK, 3);
	CHECK(s.flags == 0 && s.completed == 0 && s.last_seq == 0);
	bt_boot_begin(&once, true, &s, &dec);
	CHECK(dec.measure);
	CHECK_EQ_U64(s.runs, 1);
	/* a run without --run that never ended: the next boot hands over,
	 * counting no hang of the policy's */
	s = (struct bt_boot_state){ 0 };
	bt_boot_begin(&none, true, &s, &dec);
	bt_boot_begin(&none, true, &s, &dec);
	CHECK(!dec.measure && dec.previous_hung);
	CHECK(s.flags == 0 && s.hung == 0);
	bt_boot_begin(&none, true, &s, &dec);
	CHECK(dec.measure);
}

/* --then shutdown with every boot measuring, from BootOrder (a fleet's
 * baretop.cfg with --shutdown): the power-off counts in the reset row
 * (b), so the next power-on in a row hands over to the OS instead of
 * measuring and powering off again; a boot between ends the row. */
TEST(power_off_counts_in_the_reset_row)
{
	struct bt_boot_config none = { .run = BT_RUN_ALWAYS };
	struct bt_boot_end e;
	struct bt_boot_end_in in = end_in(&none, BT_OUTCOME_MEASURED, true);

	in.shutdown = true;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_POWER_OFF);
	CHECK_EQ_U64(e.state.resets, 1);
	CHECK_EQ_U64(e.state.reset_count, 100ull << 32 | 1);
	CHECK(e.write_state);
	/* the next power-on (count 101): in a row, so the hand-over */
	in.state = in.stored = e.state;
	in.state.flags = in.stored.flags = BT_BOOT_STATE_IN_PROGRESS;
	in.start.count = 101ull << 32 | 1;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	CHECK(strstr(e.why, "shutdown NOT taken") != NULL);
	CHECK(strstr(e.why, "at most 1 in a row") != NULL);
	/* a boot came between (count 102 after 100): powers off again */
	in.start.count = 102ull << 32 | 1;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_POWER_OFF);
	/* without a state to count it, only a one-shot start powers off */
	in.state_kept = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_RETURN_NOT_STARTED);
	in.start.current_in_order = false;
	bt_boot_decide_end(&in, &e);
	CHECK_EQ_INT(e.action, BT_END_POWER_OFF);
}

/* Every return that hands over is EFI_NOT_STARTED: shim 16.1 starts its
 * default loader after EFI_INVALID_PARAMETER (shim.c init_grub); only a
 * person's return carries the real status. */
TEST(a_hand_over_by_returning_is_always_not_started)
{
	static const int statuses[] = { BT_EXIT_OK, BT_EXIT_FAILED, BT_EXIT_USAGE,
					BT_EXIT_NO_RESULTS };

	for (size_t i = 0; i < BT_ARRAY_SIZE(statuses); i++) {
		CHECK_EQ_INT(bt_boot_return_status(BT_END_RETURN_NOT_STARTED, statuses[i]),
			     BT_RETURN_NOT_STARTED);
		CHECK_EQ_INT(bt_boot_return_status(BT_END_RESTART_PARENT, statuses[i]),
			     BT_RETURN_NOT_STARTED);
	}
	CHECK_EQ_INT(bt_boot_return_status(BT_END_RETURN, BT_EXIT_OK), BT_RETURN_SUCCESS);
	CHECK_EQ_INT(bt_boot_return_status(BT_END_RETURN, BT_EXIT_USAGE),
		     BT_RETURN_INVALID_PARAMETER);
	CHECK_EQ_INT(bt_boot_return_status(BT_END_RETURN, BT_EXIT_FAILED), BT_RETURN_ABORTED);
	/* a usage error is its own status in the record, not "failed" */
	CHECK_EQ_INT(bt_boot_status_of(BT_EXIT_USAGE, false), BT_BOOT_STATUS_CONFIG_ERROR);
	CHECK(!strcmp(bt_boot_status_name(BT_BOOT_STATUS_CONFIG_ERROR), "config-error"));
}
