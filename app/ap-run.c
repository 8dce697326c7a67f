/* SPDX-License-Identifier: MIT */
/* A job on an AP on baretop's own stack: see ap-run.h. */
#include <stdlib.h>
#include <string.h>

#include "app/ap-run.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
/* A job abandoned after a fault leaves its frames' redzones poisoned in
 * AddressSanitizer's shadow (hosted tests): cleared before the stack is
 * used or freed again. */
#define STACK_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#define NO_ASAN __attribute__((no_sanitize_address))
#else
#define STACK_UNPOISON(p, n) ((void)(p), (void)(n))
#define NO_ASAN
#endif

#define PAINT 0x5A
#define ALLOC (BT_AP_STACK_GUARD + BT_AP_STACK_BYTES + 16)

/*
 * The jobs whose stacks a fault handler may meet. Written on the BSP only
 * while no job runs (before and after the MP call), read by handlers on
 * the APs during it: the firmware's MP call is the barrier between them.
 * A static because an exception handler has nothing else to find it by.
 */
static struct bt_ap_run *volatile runs;

static uint8_t *stack_lo(const struct bt_ap_run *r)
{
	return r->mem + BT_AP_STACK_GUARD;
}

static bool on_stack(const struct bt_ap_run *r, uint64_t sp)
{
	return sp >= (uint64_t)(uintptr_t)r->mem && sp < (uint64_t)(uintptr_t)r->top;
}

bt_status bt_ap_run_prepare(struct bt_ap_run *r, void (*fn)(void *), void *arg)
{
	memset(r, 0, sizeof(*r));
	r->mem = malloc(ALLOC);
	if (!r->mem)
		return BT_ERR_NOMEM;
	r->fn = fn;
	r->arg = arg;
	r->top = (uint8_t *)(((uintptr_t)stack_lo(r) + BT_AP_STACK_BYTES) & ~(uintptr_t)15);
	memset(r->mem, PAINT, (size_t)(r->top - r->mem));
	r->next = runs;
	runs = r;
	return BT_OK;
}

static void body(void *p)
{
	struct bt_ap_run *r = p;

	r->fn(r->arg);
}

/* The abandon cleanups, last registered first; a fault in one ends them. */
static void cleanups(void *p)
{
	struct bt_ap_run *r = p;

	while (r->n_cleanup) {
		unsigned k = --r->n_cleanup;
		r->cleanup[k](r->cleanup_arg[k]);
	}
}

void bt_ap_run_entry(struct bt_ap_run *r, uint64_t entry_sp)
{
	r->entry_sp = entry_sp;
	r->entered = true;
	if (bt_stack_call(&r->sc, body, r, r->top) != 0 && r->faults == 1) {
		/* back from a fault: the cleanups on a fresh stack */
		STACK_UNPOISON(r->mem, (size_t)(r->top - r->mem));
		bt_stack_call(&r->sc, cleanups, r, r->top);
	}
	r->returned = true;
}

/* The deepest byte written below the top, and whether the guard was. */
NO_ASAN static void measure(struct bt_ap_run *r)
{
	const uint8_t *lo = stack_lo(r), *p = r->mem;

	while (p < r->top && *p == PAINT)
		p++;
	r->use.size = BT_AP_STACK_BYTES;
	r->use.used = (uint32_t)(r->top - (p > lo ? p : lo));
	r->use.overflow = p < lo;
	/* from the firmware's stack pointer before it called the procedure
	 * (entry_sp + 8, past the return address it pushed) down to the
	 * lowest the switch went (what it saved) */
	if (r->entered)
		r->use.fw_used = (uint32_t)(r->entry_sp + 8 - r->sc.saved_rsp);
}

void bt_ap_run_finish(struct bt_ap_run *r)
{
	for (struct bt_ap_run *volatile *pp = &runs; *pp; pp = &(*pp)->next)
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	if (!r->mem)
		return;
	measure(r);
	STACK_UNPOISON(r->mem, ALLOC);
	free(r->mem);
	r->mem = NULL;
}

/* The run whose stack holds sp, or NULL. */
static struct bt_ap_run *run_at(uint64_t sp)
{
	for (struct bt_ap_run *r = runs; r; r = r->next)
		if (on_stack(r, sp))
			return r;
	return NULL;
}

static struct bt_ap_run *current(void)
{
	volatile char here;

	return run_at((uint64_t)(uintptr_t)&here);
}

bool bt_ap_run_on_abandon(void (*fn)(void *), void *arg)
{
	struct bt_ap_run *r = current();

	if (!r || r->n_cleanup == BT_AP_RUN_CLEANUPS)
		return false;
	r->cleanup_arg[r->n_cleanup] = arg;
	r->cleanup[r->n_cleanup] = fn;
	r->n_cleanup++;
	return true;
}

bool bt_ap_run_drop_abandon(void)
{
	struct bt_ap_run *r = current();

	if (!r)
		return false;
	if (r->n_cleanup)
		r->n_cleanup--;
	return true;
}

/* The run a fault at sp abandons, its first fault recorded; NULL when
 * there is none to go back to (a third fault would be in the way back
 * itself). */
static struct bt_ap_run *abandon(uint64_t sp, const struct bt_ap_fault *f)
{
	struct bt_ap_run *r = run_at(sp);

	if (!r || r->faults >= 2)
		return NULL;
	if (r->faults++ == 0)
		r->fault = *f;
	return r;
}

bool bt_ap_fault_recover(const struct bt_ap_fault *f, uint64_t rsp, uint64_t *ret_rip,
			 uint64_t *ret_rsp)
{
	struct bt_ap_run *r = abandon(rsp, f);

	if (!r)
		return false;
	*ret_rip = bt_stack_resume_address();
	*ret_rsp = r->sc.saved_rsp;
	return true;
}

bool bt_ap_abandon_here(const struct bt_ap_fault *f)
{
	volatile char here;
	struct bt_ap_run *r = abandon((uint64_t)(uintptr_t)&here, f);

	if (!r)
		return false;
	bt_stack_abandon(&r->sc);
}
