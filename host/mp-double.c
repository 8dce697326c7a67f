/* SPDX-License-Identifier: MIT */
/* The MP services double: see mp-double.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#include "host/mp-double.h"
#include "base/array.h"

/* Never mapped below each AP stack: a frame larger than a page (baretop's
 * measuring engine has a 10 KB one) jumps a one-page guard, not this. */
#define GUARD_BYTES (1u << 20)
#define ALT_STACK_BYTES (64u * 1024u)
#define PAINT 0xA5
#define MAX_VIOLATIONS 8

/* How a procedure ended, as run_proc sees it. */
enum how {
	HOW_RETURNED = 0,
	HOW_PARKED = 1,
	HOW_DEAD = 2,          /* an exception nobody handles, or a stack overflow */
	HOW_TERMINATED = 3,    /* INIT from a timeout */
};

struct bt_mpd_event {
	bool signalled;
};

struct mpd_ap {
	struct bt_mpd *m;
	uint32_t idx;
	pthread_t thread;
	bool started;
	pthread_cond_t wake;
	/* under m->lock */
	enum bt_mpd_ap_state state;
	bt_mpd_proc *proc;
	void *arg;
	struct bt_mpd_event *event;    /* a non-blocking call's WaitEvent */
	struct bt_mpd_ap_record rec;
	/* the AP's own */
	uint8_t *map;                  /* the guard region, then the stack */
	uint8_t *stack_lo;
	ucontext_t home, fw;
	sigjmp_buf jmp;
	volatile sig_atomic_t in_proc;
	uint8_t *alt;
	char why[200];                 /* set on the AP before it jumps home */
};

struct bt_mpd {
	struct bt_mpd_config cfg;
	pthread_mutex_t lock;
	pthread_cond_t done;
	bool quit, exited;
	struct mpd_ap *ap;             /* [n_cpus]; the BSP's entry is unused */
	struct {
		bt_mpd_handler *fn;
		void *user;
	} handler[32];
	void (*on_activity)(void *ctx);
	void *activity_ctx;
	char violations[MAX_VIOLATIONS][200];
	unsigned n_violations;
};

static __thread struct mpd_ap *this_ap;

const char *bt_mpd_status_name(enum bt_mpd_status s)
{
	static const char *const names[] = {
		[BT_MPD_SUCCESS] = "EFI_SUCCESS", [BT_MPD_UNSUPPORTED] = "EFI_UNSUPPORTED",
		[BT_MPD_TIMEOUT] = "EFI_TIMEOUT", [BT_MPD_NOT_READY] = "EFI_NOT_READY",
		[BT_MPD_INVALID_PARAMETER] = "EFI_INVALID_PARAMETER",
		[BT_MPD_DEVICE_ERROR] = "EFI_DEVICE_ERROR", [BT_MPD_NOT_STARTED] = "EFI_NOT_STARTED",
	};
	return (unsigned)s < BT_ARRAY_SIZE(names) ? names[s] : "?";
}

__attribute__((format(printf, 2, 3)))
static void violation(struct bt_mpd *m, const char *fmt, ...)
{
	va_list ap;

	if (m->n_violations == MAX_VIOLATIONS)
		return;
	va_start(ap, fmt);
	vsnprintf(m->violations[m->n_violations++], sizeof(m->violations[0]), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------ exceptions */

/* One set of handlers for the process, installed while a double exists;
 * a signal on a thread that is no AP goes to whoever had it before. */
static const int fault_signals[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGUSR2 };
#define N_FAULT_SIGNALS (BT_ARRAY_SIZE(fault_signals))
static struct sigaction previous[N_FAULT_SIGNALS];
static int installed;
static pthread_mutex_t install_lock = PTHREAD_MUTEX_INITIALIZER;

static void chain(int sig, siginfo_t *si, void *uc)
{
	for (size_t i = 0; i < N_FAULT_SIGNALS; i++) {
		if (fault_signals[i] != sig)
			continue;
		if (previous[i].sa_flags & SA_SIGINFO) {
			previous[i].sa_sigaction(sig, si, uc);
		} else if (previous[i].sa_handler != SIG_IGN && previous[i].sa_handler != SIG_DFL) {
			previous[i].sa_handler(sig);
		} else {
			/* a synchronous fault re-executes: it then meets the
			 * default action */
			signal(sig, SIG_DFL);
			if (sig == SIGUSR2)
				raise(sig);
		}
	}
}

static uint8_t vector_of(int sig, const siginfo_t *si)
{
	switch (sig) {
	case SIGILL:
		return 6;
	case SIGFPE:
		return 0;
	case SIGTRAP:
		return 3;
	default:
		/* Linux reports #GP as SI_KERNEL, a page fault with its address */
		return si->si_code == SI_KERNEL ? 13 : 14;
	}
}

static void on_signal(int sig, siginfo_t *si, void *uc_)
{
	struct mpd_ap *ap = this_ap;
	ucontext_t *uc = uc_;

	if (!ap) {
		chain(sig, si, uc_);
		return;
	}
	if (sig == SIGUSR2) {
		/* INIT: whatever the AP runs is terminated */
		if (ap->in_proc)
			siglongjmp(ap->jmp, HOW_TERMINATED);
		return;
	}
	if (!ap->in_proc) {
		chain(sig, si, uc_);
		return;
	}
	greg_t *g = uc->uc_mcontext.gregs;
	uint64_t rsp = (uint64_t)g[REG_RSP];
	struct bt_mpd *m = ap->m;
	if ((sig == SIGSEGV || sig == SIGBUS) && rsp < (uint64_t)(uintptr_t)ap->stack_lo &&
	    rsp + 16ull * GUARD_BYTES > (uint64_t)(uintptr_t)ap->stack_lo) {
		snprintf(ap->why, sizeof(ap->why), "stack overflow: a procedure needed at least "
			 "%llu bytes of the %u-byte AP stack (%u of them the firmware's own "
			 "frames), RIP %#llx",
			 (unsigned long long)((uint64_t)(uintptr_t)ap->stack_lo + m->cfg.ap_stack -
					      rsp), m->cfg.ap_stack, BT_MPD_FW_FRAME,
			 (unsigned long long)g[REG_RIP]);
		siglongjmp(ap->jmp, HOW_DEAD);
	}
	struct bt_mpd_context c = {
		.vector = vector_of(sig, si),
		.rip = (uint64_t)g[REG_RIP], .rsp = rsp, .rflags = (uint64_t)g[REG_EFL],
		.rax = (uint64_t)g[REG_RAX], .rdi = (uint64_t)g[REG_RDI],
		.cr2 = (uint64_t)(uintptr_t)si->si_addr,
	};
	__atomic_add_fetch(&ap->rec.exceptions, 1, __ATOMIC_RELAXED);
	if (!m->handler[c.vector].fn) {
		snprintf(ap->why, sizeof(ap->why), "exception %u at RIP %#llx with no handler: "
			 "the firmware dead-loops (CpuDeadLoop)", c.vector,
			 (unsigned long long)c.rip);
		siglongjmp(ap->jmp, HOW_DEAD);
	}
	m->handler[c.vector].fn(m, &c, m->handler[c.vector].user);
	/* IRETQ with the context as the handler left it */
	g[REG_RIP] = (greg_t)c.rip;
	g[REG_RSP] = (greg_t)c.rsp;
	g[REG_EFL] = (greg_t)c.rflags;
	g[REG_RAX] = (greg_t)c.rax;
	g[REG_RDI] = (greg_t)c.rdi;
}

_Noreturn void bt_mpd_park(struct bt_mpd *m, const char *where)
{
	struct mpd_ap *ap = this_ap;

	(void)m;
	snprintf(ap->why, sizeof(ap->why), "parked in %s", where);
	siglongjmp(ap->jmp, HOW_PARKED);
}

static void install(void)
{
	pthread_mutex_lock(&install_lock);
	if (installed++ == 0) {
		struct sigaction sa = { .sa_sigaction = on_signal,
					.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER };
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
			sigaction(fault_signals[i], &sa, &previous[i]);
	}
	pthread_mutex_unlock(&install_lock);
}

static void uninstall(void)
{
	pthread_mutex_lock(&install_lock);
	if (--installed == 0)
		for (size_t i = 0; i < N_FAULT_SIGNALS; i++)
			sigaction(fault_signals[i], &previous[i], NULL);
	pthread_mutex_unlock(&install_lock);
}

/* ------------------------------------------------------------ the APs */

static void fw_entry(void)
{
	struct mpd_ap *ap = this_ap;

	ap->proc(ap->arg);
}

/* Bytes of the AP stack in use at the deepest point, the firmware's frames
 * above the procedure included. */
static uint32_t stack_peak(const struct mpd_ap *ap)
{
	uint32_t usable = ap->m->cfg.ap_stack - BT_MPD_FW_FRAME, k = 0;

	while (k < usable && ap->stack_lo[k] == PAINT)
		k++;
	return ap->m->cfg.ap_stack - k;
}

static enum how run_proc(struct mpd_ap *ap)
{
	uint32_t usable = ap->m->cfg.ap_stack - BT_MPD_FW_FRAME;
	volatile enum how how;

	memset(ap->stack_lo, PAINT, usable);
	how = (enum how)sigsetjmp(ap->jmp, 1);
	if (how == HOW_RETURNED) {
		getcontext(&ap->fw);
		ap->fw.uc_stack.ss_sp = ap->stack_lo;
		ap->fw.uc_stack.ss_size = usable;
		ap->fw.uc_link = &ap->home;
		makecontext(&ap->fw, fw_entry, 0);
		ap->in_proc = 1;
		swapcontext(&ap->home, &ap->fw);
	}
	ap->in_proc = 0;
	return how;
}

static void activity_changed(struct bt_mpd *m);

static void *ap_main(void *p)
{
	struct mpd_ap *ap = p;
	struct bt_mpd *m = ap->m;
	stack_t ss = { .ss_sp = ap->alt, .ss_size = ALT_STACK_BYTES }, old;

	this_ap = ap;
	sigset_t init;
	sigemptyset(&init);
	sigaddset(&init, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &init, NULL);
	/* A stack for the handlers: an overflow leaves none. ASan gives each
	 * thread one of its own, and unmaps whatever is set at thread exit:
	 * its own is kept, ours put back to what was there before. */
	bool mine = sigaltstack(NULL, &old) == 0 &&
		    ((old.ss_flags & SS_DISABLE) || old.ss_size < ALT_STACK_BYTES / 2);
	if (mine)
		sigaltstack(&ss, NULL);
	pthread_mutex_lock(&m->lock);
	for (;;) {
		while (!m->quit && ap->state != BT_MPD_AP_BUSY)
			pthread_cond_wait(&ap->wake, &m->lock);
		if (m->quit)
			break;
		ap->why[0] = '\0';
		pthread_mutex_unlock(&m->lock);
		enum how how = run_proc(ap);
		uint32_t peak = stack_peak(ap);
		pthread_mutex_lock(&m->lock);
		if (peak > ap->rec.stack_peak)
			ap->rec.stack_peak = peak;
		if (ap->why[0])
			snprintf(ap->rec.last, sizeof(ap->rec.last), "%s", ap->why);
		switch (how) {
		case HOW_RETURNED:
			ap->rec.returned++;
			ap->state = BT_MPD_AP_FINISHED;
			break;
		case HOW_PARKED:
			ap->state = BT_MPD_AP_PARKED;
			break;
		case HOW_DEAD:
			if (strncmp(ap->why, "stack overflow", 14) == 0)
				ap->rec.overflows++;
			ap->state = BT_MPD_AP_DEAD;
			break;
		case HOW_TERMINATED:
			ap->rec.terminated++;
			ap->state = BT_MPD_AP_IDLE;
			break;
		}
		/* Back in the idle loop now, not when the call that started it
		 * ends: an AP of a StartupAllAPs without work returns at once
		 * and its SMT sibling sees it idle (halted or in MWAIT) while
		 * the measured AP of the same call counts. */
		activity_changed(m);
		pthread_cond_broadcast(&m->done);
	}
	pthread_mutex_unlock(&m->lock);
	if (mine)
		sigaltstack(&old, NULL);
	return NULL;
}

struct bt_mpd *bt_mpd_new(const struct bt_mpd_config *cfg)
{
	struct bt_mpd *m = calloc(1, sizeof(*m));

	if (!m || cfg->n_cpus == 0 || cfg->bsp >= cfg->n_cpus || cfg->ap_stack % 4096 ||
	    cfg->ap_stack <= BT_MPD_FW_FRAME) {
		free(m);
		return NULL;
	}
	m->cfg = *cfg;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->done, NULL);
	m->ap = calloc(cfg->n_cpus, sizeof(*m->ap));
	if (!m->ap) {
		free(m);
		return NULL;
	}
	install();
	for (uint32_t i = 0; i < cfg->n_cpus; i++) {
		struct mpd_ap *ap = &m->ap[i];

		ap->m = m;
		ap->idx = i;
		if (i == cfg->bsp)
			continue;
		pthread_cond_init(&ap->wake, NULL);
		ap->map = mmap(NULL, GUARD_BYTES + cfg->ap_stack, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		ap->alt = malloc(ALT_STACK_BYTES);
		if (ap->map == MAP_FAILED || !ap->alt ||
		    mprotect(ap->map + GUARD_BYTES, cfg->ap_stack, PROT_READ | PROT_WRITE) != 0) {
			if (ap->map == MAP_FAILED)
				ap->map = NULL;
			bt_mpd_free(m);
			return NULL;
		}
		ap->stack_lo = ap->map + GUARD_BYTES;
		/* The thread starts with INIT (SIGUSR2) blocked and unblocks it
		 * once it knows it is an AP: on a loaded machine a timeout can
		 * send INIT before the new thread ran a line, and the handler
		 * would take it for a stray signal to a thread that is no AP. */
		sigset_t init, before;
		sigemptyset(&init);
		sigaddset(&init, SIGUSR2);
		pthread_sigmask(SIG_BLOCK, &init, &before);
		int rc = pthread_create(&ap->thread, NULL, ap_main, ap);
		pthread_sigmask(SIG_SETMASK, &before, NULL);
		if (rc != 0) {
			bt_mpd_free(m);
			return NULL;
		}
		ap->started = true;
	}
	return m;
}

void bt_mpd_free(struct bt_mpd *m)
{
	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	m->quit = true;
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++)
		if (m->ap[i].started)
			pthread_cond_signal(&m->ap[i].wake);
	pthread_mutex_unlock(&m->lock);
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
		struct mpd_ap *ap = &m->ap[i];
		if (ap->started)
			pthread_join(ap->thread, NULL);
		if (ap->map)
			munmap(ap->map, GUARD_BYTES + m->cfg.ap_stack);
		free(ap->alt);
	}
	uninstall();
	free(m->ap);
	free(m);
}

void bt_mpd_on_activity(struct bt_mpd *m, void (*fn)(void *ctx), void *ctx)
{
	m->on_activity = fn;
	m->activity_ctx = ctx;
}


static void activity_changed(struct bt_mpd *m)
{
	if (m->on_activity)
		m->on_activity(m->activity_ctx);
}

bool bt_mpd_cpu_active(struct bt_mpd *m, uint32_t cpu)
{
	if (cpu == m->cfg.bsp)
		return true;
	switch (__atomic_load_n(&m->ap[cpu].state, __ATOMIC_RELAXED)) {
	case BT_MPD_AP_BUSY:
	case BT_MPD_AP_DEAD:
		return true;
	case BT_MPD_AP_IDLE:
	case BT_MPD_AP_FINISHED:
		return m->cfg.loop == BT_MPD_LOOP_RUN;
	case BT_MPD_AP_PARKED:
		return false;
	}
	return false;
}

/* ------------------------------------------------------------ the protocol */

enum bt_mpd_status bt_mpd_who_am_i(struct bt_mpd *m, uint32_t *ret)
{
	*ret = this_ap && this_ap->m == m ? this_ap->idx : m->cfg.bsp;
	return BT_MPD_SUCCESS;
}

/* The checks every Startup* call makes first (MpLib.c StartupThisAPWorker,
 * StartupAllCPUsWorker) and the PI rule on non-blocking requests. */
static enum bt_mpd_status callable(struct bt_mpd *m, const char *what, bool non_blocking)
{
	if (this_ap) {
		violation(m, "%s called on an AP (CPU %u)", what, this_ap->idx);
		return BT_MPD_DEVICE_ERROR;
	}
	if (m->exited) {
		violation(m, "%s after ExitBootServices", what);
		return BT_MPD_UNSUPPORTED;
	}
	if (non_blocking && !m->cfg.forgiving) {
		violation(m, "%s in non-blocking mode after ReadyToBoot: EFI_UNSUPPORTED "
			     "(PI spec, MpService.h)", what);
		return BT_MPD_UNSUPPORTED;
	}
	return BT_MPD_SUCCESS;
}

static void start(struct mpd_ap *ap, bt_mpd_proc *proc, void *arg, struct bt_mpd_event *e)
{
	ap->proc = proc;
	ap->arg = arg;
	ap->event = e;
	ap->state = BT_MPD_AP_BUSY;
	ap->rec.procedures++;
	pthread_cond_signal(&ap->wake);
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ull + (uint64_t)ts.tv_nsec / 1000;
}

/* ResetProcessorToIdleState: INIT. A live AP is terminated (the signal
 * stands for the IPI); one that can never return just becomes idle. */
static void reset_to_idle(struct bt_mpd *m, struct mpd_ap *ap, uint64_t timeout_us)
{
	if (ap->state == BT_MPD_AP_BUSY) {
		pthread_kill(ap->thread, SIGUSR2);
		while (ap->state == BT_MPD_AP_BUSY)
			pthread_cond_wait(&m->done, &m->lock);
	} else if (ap->state == BT_MPD_AP_PARKED || ap->state == BT_MPD_AP_DEAD) {
		size_t n = strlen(ap->rec.last);
		snprintf(ap->rec.last + n, sizeof(ap->rec.last) - n, "; the %llu us timeout "
			 "taken as expired at once (it could not return), then INIT",
			 (unsigned long long)timeout_us);
		ap->rec.terminated++;
	}
	ap->state = BT_MPD_AP_IDLE;
}

/* Waits for the APs in `set` (a blocking call): true when all returned;
 * false after the timeout, with each one still out reset (INIT) and
 * listed in failed. An AP that can never return makes the wait end at
 * once when there is a timeout; without one the real BSP spins forever,
 * which the double records as a violation and ends. */
static bool wait_all(struct bt_mpd *m, const bool *set, uint64_t timeout_us, uint32_t *failed,
		     uint32_t *n_failed, const char *what)
{
	uint64_t deadline = timeout_us ? now_us() + timeout_us : 0;
	bool all = false;

	for (;;) {
		bool out = false, stuck = false;
		for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
			if (!set[i])
				continue;
			enum bt_mpd_ap_state s = m->ap[i].state;
			out |= s == BT_MPD_AP_BUSY;
			stuck |= s == BT_MPD_AP_PARKED || s == BT_MPD_AP_DEAD;
		}
		if (!out && !stuck) {
			all = true;
			break;
		}
		if (!out && stuck && !timeout_us) {
			violation(m, "%s with no timeout waits forever for an AP that cannot "
				     "return: the machine hangs", what);
			break;
		}
		if (!out || (deadline && now_us() >= deadline))
			break;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&m->done, &m->lock, &ts);
	}
	if (n_failed)
		*n_failed = 0;
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
		struct mpd_ap *ap = &m->ap[i];
		if (!set[i])
			continue;
		if (ap->state == BT_MPD_AP_FINISHED) {
			ap->state = BT_MPD_AP_IDLE;
			continue;
		}
		if (all)
			continue;
		reset_to_idle(m, ap, timeout_us);
		if (failed)
			failed[(*n_failed)++] = i;
	}
	return all;
}

enum bt_mpd_status bt_mpd_startup_this_ap(struct bt_mpd *m, bt_mpd_proc *proc, uint32_t cpu,
					  struct bt_mpd_event *wait_event, uint64_t timeout_us,
					  void *arg, bool *finished)
{
	enum bt_mpd_status st = callable(m, "StartupThisAP", wait_event != NULL);

	if (finished)
		*finished = false;
	if (st != BT_MPD_SUCCESS)
		return st;
	if (cpu >= m->cfg.n_cpus)
		return BT_MPD_INVALID_PARAMETER;
	if (cpu == m->cfg.bsp || !proc)
		return BT_MPD_INVALID_PARAMETER;
	pthread_mutex_lock(&m->lock);
	struct mpd_ap *ap = &m->ap[cpu];
	if (ap->state != BT_MPD_AP_IDLE) {
		pthread_mutex_unlock(&m->lock);
		return BT_MPD_NOT_READY;
	}
	start(ap, proc, arg, wait_event);
	pthread_mutex_unlock(&m->lock);
	activity_changed(m);
	if (wait_event)
		return BT_MPD_SUCCESS;
	bool set[m->cfg.n_cpus];
	memset(set, 0, sizeof(set));
	set[cpu] = true;
	pthread_mutex_lock(&m->lock);
	bool all = wait_all(m, set, timeout_us, NULL, NULL, "StartupThisAP");
	pthread_mutex_unlock(&m->lock);
	activity_changed(m);
	if (finished)
		*finished = all;
	return all ? BT_MPD_SUCCESS : BT_MPD_TIMEOUT;
}

enum bt_mpd_status bt_mpd_startup_all_aps(struct bt_mpd *m, bt_mpd_proc *proc, bool single_thread,
					  struct bt_mpd_event *wait_event, uint64_t timeout_us,
					  void *arg, uint32_t *failed, uint32_t *n_failed)
{
	enum bt_mpd_status st = callable(m, "StartupAllAPs", wait_event != NULL);

	if (n_failed)
		*n_failed = 0;
	if (st != BT_MPD_SUCCESS)
		return st;
	if (!proc)
		return BT_MPD_INVALID_PARAMETER;
	if (single_thread || wait_event) {
		/* not used by baretop: one at a time, or the event's
		 * bookkeeping for several APs */
		violation(m, "StartupAllAPs with SingleThread or a WaitEvent: not modelled");
		return BT_MPD_UNSUPPORTED;
	}
	if (m->cfg.n_cpus == 1)
		return BT_MPD_NOT_STARTED;
	bool set[m->cfg.n_cpus];
	memset(set, 0, sizeof(set));
	pthread_mutex_lock(&m->lock);
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++)
		if (i != m->cfg.bsp && m->ap[i].state != BT_MPD_AP_IDLE) {
			pthread_mutex_unlock(&m->lock);
			return BT_MPD_NOT_READY;
		}
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
		if (i == m->cfg.bsp)
			continue;
		set[i] = true;
		start(&m->ap[i], proc, arg, NULL);
	}
	pthread_mutex_unlock(&m->lock);
	activity_changed(m);
	pthread_mutex_lock(&m->lock);
	bool all = wait_all(m, set, timeout_us, failed, n_failed, "StartupAllAPs");
	pthread_mutex_unlock(&m->lock);
	activity_changed(m);
	return all ? BT_MPD_SUCCESS : BT_MPD_TIMEOUT;
}

struct bt_mpd_event *bt_mpd_create_event(struct bt_mpd *m)
{
	(void)m;
	return calloc(1, sizeof(struct bt_mpd_event));
}

bool bt_mpd_check_event(struct bt_mpd *m, struct bt_mpd_event *e)
{
	bool changed = false;

	pthread_mutex_lock(&m->lock);
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
		struct mpd_ap *ap = &m->ap[i];
		if (ap->event == e && ap->state == BT_MPD_AP_FINISHED) {
			ap->state = BT_MPD_AP_IDLE;
			ap->event = NULL;
			e->signalled = true;
			changed = true;
		}
	}
	bool s = e->signalled;
	pthread_mutex_unlock(&m->lock);
	if (changed)
		activity_changed(m);
	return s;
}

void bt_mpd_close_event(struct bt_mpd *m, struct bt_mpd_event *e)
{
	pthread_mutex_lock(&m->lock);
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++)
		if (m->ap[i].event == e)
			m->ap[i].event = NULL;
	pthread_mutex_unlock(&m->lock);
	free(e);
}

void bt_mpd_register_handler(struct bt_mpd *m, uint8_t vector, bt_mpd_handler *h, void *user)
{
	if (vector < 32) {
		m->handler[vector].fn = h;
		m->handler[vector].user = user;
	}
}

bool bt_mpd_exit_boot_services(struct bt_mpd *m, char *why, size_t len)
{
	bool ok = true;
	size_t n = 0;

	why[0] = '\0';
	pthread_mutex_lock(&m->lock);
	for (uint32_t i = 0; i < m->cfg.n_cpus; i++) {
		struct mpd_ap *ap = &m->ap[i];
		const char *what = NULL;
		bool hlt = m->cfg.loop == BT_MPD_LOOP_HLT;

		if (i == m->cfg.bsp)
			continue;
		switch (ap->state) {
		case BT_MPD_AP_IDLE:
			break;
		case BT_MPD_AP_FINISHED:
			break;         /* returned to the firmware's loop */
		case BT_MPD_AP_BUSY:
			what = "is still running a procedure started without waiting for it";
			break;
		case BT_MPD_AP_PARKED:
			what = hlt ? "is parked inside the caller's image: INIT-SIPI-SIPI (HLT loop "
				     "mode) resets it, but it was inside baretop at the hand-over"
				   : "is parked inside the caller's image (cli; hlt) and never reads "
				     "the startup signal: MpInitChangeApLoopCallback spins forever";
			break;
		case BT_MPD_AP_DEAD:
			if (!hlt)
				what = "dead-loops in the firmware's exception handler and never "
				       "answers: MpInitChangeApLoopCallback spins forever";
			break;
		}
		if (!what)
			continue;
		ok = false;
		if (n < len)
			n += (size_t)snprintf(why + n, len - n, "%sCPU %u %s", n ? "; " : "", i, what);
	}
	m->exited = true;
	pthread_mutex_unlock(&m->lock);
	return ok;
}

void bt_mpd_record(struct bt_mpd *m, uint32_t cpu, struct bt_mpd_ap_record *ret)
{
	pthread_mutex_lock(&m->lock);
	*ret = m->ap[cpu].rec;
	ret->state = m->ap[cpu].state;
	pthread_mutex_unlock(&m->lock);
}

unsigned bt_mpd_violations(struct bt_mpd *m, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < m->n_violations && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s\n", m->violations[i]);
	return m->n_violations;
}

const struct bt_mpd_config *bt_mpd_config(const struct bt_mpd *m)
{
	return &m->cfg;
}
