/* SPDX-License-Identifier: MIT */
/* The run policy's decisions, boot after boot. */
#include <string.h>

#include "app/app-main.h"
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
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char *wg[] = { "--max-window-ms", (char *)good[i] };
		bt_options_defaults(&o);
		CHECK_MSG(bt_options_parse(&o, 2, wg, "test", &d) == BT_OK, "%s refused", good[i]);
	}
	static const char *const bad[] = { "0", "0.001", "60001", "-1", " 5", "5ms", "inf",
					   "nan", "0x10", "1e3", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
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
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
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

/* issue 31: --then reboot on a boot that does not measure loops unless the
 * next boot does not start baretop again (a one-shot BootNext start: its
 * BootCurrent is not in BootOrder, BdsEntry.c deletes BootNext first). */
TEST(restart_only_when_measured_or_started_one_shot)
{
	char why[256];

	/* removable media / a BootOrder entry, not measuring: a loop */
	CHECK(!bt_boot_restart_allowed(false, false, 1, true, why, sizeof(why)));
	CHECK(strstr(why, "BootCurrent Boot0001 is in BootOrder") != NULL);
	/* the same boot measuring: taken, and it says later boots will not */
	CHECK(bt_boot_restart_allowed(true, false, 1, true, why, sizeof(why)));
	CHECK(strstr(why, "a boot that does not will not restart") != NULL);
	/* one-shot (BootNext): taken either way */
	CHECK(bt_boot_restart_allowed(false, false, 0x1234, false, why, sizeof(why)));
	CHECK(strstr(why, "Boot1234 is not in BootOrder") != NULL);
	CHECK(bt_boot_restart_allowed(true, false, 0x1234, false, why, sizeof(why)));
	/* no BootCurrent (a shell, hosted): only a measuring boot */
	CHECK(!bt_boot_restart_allowed(false, false, -1, false, why, sizeof(why)));
	CHECK(bt_boot_restart_allowed(true, false, -1, false, why, sizeof(why)));
	/* every boot measures (no --run, every-boot): measuring is no guard
	 * from a BootOrder entry, a one-shot start still restarts */
	CHECK(!bt_boot_restart_allowed(true, true, 1, true, why, sizeof(why)));
	CHECK(strstr(why, "every boot measures") != NULL);
	CHECK(bt_boot_restart_allowed(true, true, 0x1234, false, why, sizeof(why)));
	CHECK(bt_boot_restart_allowed(true, true, -1, false, why, sizeof(why)));
}

/* The BootNext attempt's mark: the boot right after it that comes back to
 * baretop marks the entry unreached; boots passed without baretop since
 * mean the firmware reached it, and the mark goes. */
TEST(bootnext_mark_cleared_once_the_entry_was_reached)
{
	uint32_t f = BT_BOOT_STATE_IN_PROGRESS, m = bt_bootnext_mark(f, 0x0005, 41);

	CHECK(m & BT_BOOT_STATE_IN_PROGRESS);
	CHECK_EQ_U64(m >> BT_BOOT_STATE_BOOTNEXT_SHIFT, 5);
	CHECK_EQ_INT(bt_bootnext_decide(f, 5, true, 42), BT_BOOTNEXT_TRY);
	CHECK_EQ_INT(bt_bootnext_decide(m, 6, true, 42), BT_BOOTNEXT_TRY);
	/* boot 42 is the BootNext boot itself: the firmware did not reach it */
	CHECK_EQ_INT(bt_bootnext_decide(m, 5, true, 42), BT_BOOTNEXT_FAILED);
	CHECK_EQ_INT(bt_bootnext_decide(m | BT_BOOT_STATE_BOOTNEXT_UNREACHED, 5, true, 50),
		     BT_BOOTNEXT_SKIP);
	/* boot 43 or later: boot 42 went elsewhere (the entry) */
	CHECK_EQ_INT(bt_bootnext_decide(m, 5, true, 43), BT_BOOTNEXT_REACHED);
	CHECK_EQ_INT(bt_bootnext_decide(m, 5, true, 400), BT_BOOTNEXT_REACHED);
	/* the 12-bit boot number wraps: 4095 then 0 is the next boot */
	uint32_t w = bt_bootnext_mark(0, 5, 4095);
	CHECK_EQ_INT(bt_bootnext_decide(w, 5, true, 4096), BT_BOOTNEXT_FAILED);
	/* no monotonic counter: no way to tell, never a reset */
	CHECK_EQ_INT(bt_bootnext_decide(m, 5, false, 0), BT_BOOTNEXT_SKIP);
	CHECK_EQ_U64(bt_bootnext_clear(m | BT_BOOT_STATE_BOOTNEXT_UNREACHED), f);
}
