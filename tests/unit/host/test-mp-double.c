/* SPDX-License-Identifier: MIT */
/*
 * The MP services double (host/mp-double.h) holds to the PI rules and to
 * EDK2's MpInitLib behaviour it claims, each shown with a procedure that
 * breaks it: a non-blocking call after ReadyToBoot, a stack larger than
 * PcdCpuApStackSize, a procedure past its timeout, an AP parked inside the
 * caller at ExitBootServices in each loop mode.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/mp-double.h"
#include "tests/unit/lib/test.h"

static struct bt_mpd *new_mpd(uint32_t n, uint32_t stack, enum bt_mpd_loop loop, bool forgiving)
{
	struct bt_mpd_config c = { .n_cpus = n, .bsp = 0, .ap_stack = stack, .loop = loop,
				   .forgiving = forgiving };
	struct bt_mpd *m = bt_mpd_new(&c);

	CHECK(m != NULL);
	return m;
}

struct seen {
	struct bt_mpd *m;
	uint32_t cpu[8];
	volatile int n;
};

static void who(void *p)
{
	struct seen *s = p;
	uint32_t me;

	bt_mpd_who_am_i(s->m, &me);
	s->cpu[__atomic_fetch_add(&s->n, 1, __ATOMIC_SEQ_CST)] = me;
}

TEST(blocking_calls_run_on_the_ap_and_who_am_i_says_which)
{
	struct bt_mpd *m = new_mpd(4, 4096, BT_MPD_LOOP_MWAIT, false);
	struct seen s = { .m = m };
	uint32_t me, failed[4], n_failed;

	bt_mpd_who_am_i(m, &me);
	CHECK_EQ_INT(me, 0);
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, who, 2, NULL, 1000000, &s, NULL), BT_MPD_SUCCESS);
	CHECK_EQ_INT(s.n, 1);
	CHECK_EQ_INT(s.cpu[0], 2);
	s.n = 0;
	CHECK_EQ_INT(bt_mpd_startup_all_aps(m, who, false, NULL, 1000000, &s, failed, &n_failed),
		     BT_MPD_SUCCESS);
	CHECK_EQ_INT(s.n, 3);
	CHECK_EQ_INT(n_failed, 0);
	unsigned mask = 0;
	for (int i = 0; i < s.n; i++)
		mask |= 1u << s.cpu[i];
	CHECK_EQ_INT(mask, 0xE);
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, who, 0, NULL, 0, &s, NULL), BT_MPD_INVALID_PARAMETER);
	char v[400];
	CHECK_EQ_INT(bt_mpd_violations(m, v, sizeof(v)), 0);
	bt_mpd_free(m);
}

TEST(non_blocking_after_ready_to_boot_is_unsupported)
{
	struct bt_mpd *m = new_mpd(2, 4096, BT_MPD_LOOP_MWAIT, false);
	struct bt_mpd_event *e = bt_mpd_create_event(m);
	struct seen s = { .m = m };
	char v[400];

	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, who, 1, e, 0, &s, NULL), BT_MPD_UNSUPPORTED);
	CHECK_EQ_INT(s.n, 0);
	CHECK_EQ_INT(bt_mpd_violations(m, v, sizeof(v)), 1);
	CHECK(strstr(v, "non-blocking") != NULL);
	bt_mpd_close_event(m, e);
	bt_mpd_free(m);

	/* before ReadyToBoot (what OVMF lets through) it runs */
	m = new_mpd(2, 4096, BT_MPD_LOOP_MWAIT, true);
	e = bt_mpd_create_event(m);
	s.m = m;
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, who, 1, e, 0, &s, NULL), BT_MPD_SUCCESS);
	for (int i = 0; i < 5000 && !bt_mpd_check_event(m, e); i++)
		usleep(1000);
	CHECK(bt_mpd_check_event(m, e));
	CHECK_EQ_INT(s.cpu[0], 1);
	bt_mpd_close_event(m, e);
	bt_mpd_free(m);
}

/* `bytes` of locals, touched so that they are really on the stack. */
static void use_stack(size_t bytes)
{
	volatile char *p = __builtin_alloca(bytes);

	for (size_t i = 0; i < bytes; i += 64)
		p[i] = (char)i;
}

static void small(void *p)
{
	(void)p;
	use_stack(2048);
}

static void large(void *p)
{
	(void)p;
	use_stack(10 * 1024);
}

TEST(a_procedure_larger_than_the_ap_stack_is_an_overflow)
{
	struct bt_mpd *m = new_mpd(2, 4096, BT_MPD_LOOP_MWAIT, false);
	struct bt_mpd_ap_record r;

	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, small, 1, NULL, 1000000, NULL, NULL),
		     BT_MPD_SUCCESS);
	bt_mpd_record(m, 1, &r);
	CHECK_EQ_INT(r.overflows, 0);
	/* the painted peak: the firmware's frames plus 2 KiB and a little */
	CHECK_MSG(r.stack_peak >= BT_MPD_FW_FRAME + 2048 && r.stack_peak < 4096,
		  "peak %u", r.stack_peak);
	/* 10 KiB on a 4 KiB stack: the AP dies, the call times out, INIT
	 * makes it idle again */
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, large, 1, NULL, 1000000, NULL, NULL),
		     BT_MPD_TIMEOUT);
	bt_mpd_record(m, 1, &r);
	CHECK_EQ_INT(r.overflows, 1);
	CHECK(strstr(r.last, "stack overflow") != NULL);
	CHECK_EQ_INT(r.state, BT_MPD_AP_IDLE);
	/* the same procedure fits a 32 KiB stack (OVMF's PcdCpuApStackSize) */
	bt_mpd_free(m);
	m = new_mpd(2, 0x8000, BT_MPD_LOOP_MWAIT, false);
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, large, 1, NULL, 1000000, NULL, NULL),
		     BT_MPD_SUCCESS);
	bt_mpd_record(m, 1, &r);
	CHECK_EQ_INT(r.overflows, 0);
	bt_mpd_free(m);
}

static void forever(void *p)
{
	volatile int *stop = p;

	while (!*stop)
		;
}

TEST(a_timeout_terminates_the_procedure)
{
	struct bt_mpd *m = new_mpd(3, 4096, BT_MPD_LOOP_MWAIT, false);
	volatile int stop = 0;
	uint32_t failed[3], n_failed;
	struct bt_mpd_ap_record r;
	bool finished = true;

	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, forever, 2, NULL, 20000, (void *)&stop, &finished),
		     BT_MPD_TIMEOUT);
	CHECK(!finished);
	bt_mpd_record(m, 2, &r);
	CHECK_EQ_INT(r.terminated, 1);
	CHECK_EQ_INT(r.state, BT_MPD_AP_IDLE);
	CHECK_EQ_INT(bt_mpd_startup_all_aps(m, forever, false, NULL, 20000, (void *)&stop, failed,
					    &n_failed), BT_MPD_TIMEOUT);
	CHECK_EQ_INT(n_failed, 2);
	/* and the APs are available again */
	stop = 1;
	CHECK_EQ_INT(bt_mpd_startup_all_aps(m, forever, false, NULL, 1000000, (void *)&stop, failed,
					    &n_failed), BT_MPD_SUCCESS);
	bt_mpd_free(m);
}

static void park_here(struct bt_mpd *m, struct bt_mpd_context *c, void *user)
{
	(void)c;
	(void)user;
	bt_mpd_park(m, "a test's handler");
}

static void resume_after(struct bt_mpd *m, struct bt_mpd_context *c, void *user)
{
	(void)m;
	(void)user;
	c->rip += 2; /* past UD2 */
}

static void ud2(void *p)
{
	(void)p;
	__asm__ volatile("ud2");
}

TEST(an_ap_parked_inside_the_caller_hangs_exit_boot_services_unless_hlt)
{
	static const enum bt_mpd_loop loops[] = { BT_MPD_LOOP_HLT, BT_MPD_LOOP_MWAIT, BT_MPD_LOOP_RUN };

	for (int k = 0; k < 3; k++) {
		struct bt_mpd *m = new_mpd(2, 4096, loops[k], true);
		struct bt_mpd_event *e = bt_mpd_create_event(m);
		struct bt_mpd_ap_record r;
		char why[600];

		bt_mpd_register_handler(m, 6, park_here, NULL);
		/* non-blocking with no timeout, as baretop's main did */
		CHECK_EQ_INT(bt_mpd_startup_this_ap(m, ud2, 1, e, 0, NULL, NULL), BT_MPD_SUCCESS);
		for (int i = 0; i < 5000; i++) {
			bt_mpd_record(m, 1, &r);
			if (r.state == BT_MPD_AP_PARKED)
				break;
			usleep(1000);
		}
		CHECK_EQ_INT(r.state, BT_MPD_AP_PARKED);
		CHECK(!bt_mpd_cpu_active(m, 1)); /* cli; hlt */
		CHECK(!bt_mpd_exit_boot_services(m, why, sizeof(why)));
		CHECK(strstr(why, loops[k] == BT_MPD_LOOP_HLT ? "resets it" : "spins forever") != NULL);
		bt_mpd_close_event(m, e);
		bt_mpd_free(m);
	}
}

TEST(a_handler_that_resumes_lets_the_procedure_return)
{
	struct bt_mpd *m = new_mpd(2, 4096, BT_MPD_LOOP_MWAIT, false);
	struct bt_mpd_ap_record r;
	char why[200];

	bt_mpd_register_handler(m, 6, resume_after, NULL);
	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, ud2, 1, NULL, 1000000, NULL, NULL), BT_MPD_SUCCESS);
	bt_mpd_record(m, 1, &r);
	CHECK_EQ_INT(r.exceptions, 1);
	CHECK_EQ_INT(r.returned, 1);
	CHECK(bt_mpd_exit_boot_services(m, why, sizeof(why)));
	bt_mpd_free(m);
}

TEST(unhandled_exception_dead_loops_and_a_timeout_resets)
{
	struct bt_mpd *m = new_mpd(2, 4096, BT_MPD_LOOP_MWAIT, false);
	struct bt_mpd_ap_record r;

	CHECK_EQ_INT(bt_mpd_startup_this_ap(m, ud2, 1, NULL, 5000000, NULL, NULL), BT_MPD_TIMEOUT);
	bt_mpd_record(m, 1, &r);
	CHECK(strstr(r.last, "CpuDeadLoop") != NULL);
	CHECK_EQ_INT(r.state, BT_MPD_AP_IDLE);
	bt_mpd_free(m);
}

TEST(loop_modes_decide_whether_an_idle_ap_is_active)
{
	struct bt_mpd *hlt = new_mpd(2, 4096, BT_MPD_LOOP_HLT, false);
	struct bt_mpd *run = new_mpd(2, 4096, BT_MPD_LOOP_RUN, false);

	CHECK(bt_mpd_cpu_active(hlt, 0)); /* the BSP */
	CHECK(!bt_mpd_cpu_active(hlt, 1));
	CHECK(bt_mpd_cpu_active(run, 1));
	bt_mpd_free(hlt);
	bt_mpd_free(run);
}
