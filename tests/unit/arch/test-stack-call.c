/* SPDX-License-Identifier: MIT */
/* bt_stack_call: fn runs on the given stack; an abandoned call comes back
 * with the caller's registers, flags and floating-point controls. */
#define _GNU_SOURCE
#include <fenv.h>
#include <signal.h>
#include <stdlib.h>
#include <ucontext.h>

#include "arch/stack-call.h"
#include "tests/unit/lib/test.h"

#define STACK 65536

struct probe {
	struct bt_stack_call *sc;
	uintptr_t local;           /* the address of a local of fn */
	int depth;
	int returned;
};

static void note_stack(void *p)
{
	struct probe *pr = p;
	volatile char here = 0;

	pr->local = (uintptr_t)&here;
	pr->returned = 1;
}

static void *stack_top(uint8_t *base)
{
	return (void *)(((uintptr_t)base + STACK) & ~(uintptr_t)15);
}

TEST(fn_runs_on_the_given_stack_and_returns_0)
{
	uint8_t *stack = malloc(STACK);
	struct bt_stack_call sc;
	struct probe pr = { .sc = &sc };
	volatile char mine = 0;

	CHECK_EQ_INT(bt_stack_call(&sc, note_stack, &pr, stack_top(stack)), 0);
	CHECK(pr.returned);
	CHECK_MSG(pr.local >= (uintptr_t)stack && pr.local < (uintptr_t)stack + STACK,
		  "fn's local at %#lx, not on the stack %p..+%d", (unsigned long)pr.local,
		  (void *)stack, STACK);
	/* the record points into the caller's stack, just below this frame */
	CHECK((uintptr_t)&mine > sc.saved_rsp && (uintptr_t)&mine - sc.saved_rsp < 4096);
	free(stack);
}

static void deep_then_abandon(void *p);
/* through a pointer: gcc takes a recursion that ends only in a noreturn
 * call for an infinite one */
static void (*volatile deeper)(void *) = deep_then_abandon;

static void deep_then_abandon(void *p)
{
	struct probe *pr = p;
	volatile char pad[256];

	pad[0] = (char)pr->depth;
	if (pr->depth-- == 0) {
		/* a rounding mode the caller never set */
		fesetround(FE_TOWARDZERO);
		bt_stack_abandon(pr->sc);
	}
	deeper(p);
	pr->returned = pad[0];
}

TEST(abandoned_call_returns_1_with_the_callers_state)
{
	uint8_t *stack = malloc(STACK);
	struct bt_stack_call sc;
	struct probe pr = { .sc = &sc, .depth = 20 };
	/* values the compiler keeps in callee-saved registers across the call */
	volatile uint64_t a = 0x1111, b = 0x2222;
	uint64_t x = a * 3, y = b * 5;

	fesetround(FE_TONEAREST);
	int r = bt_stack_call(&sc, deep_then_abandon, &pr, stack_top(stack));
	CHECK_EQ_INT(r, 1);
	CHECK_EQ_INT(pr.depth, -1);
	CHECK_EQ_U64(x, 0x3333);
	CHECK_EQ_U64(y, 0xAAAA);
	CHECK_MSG(fegetround() == FE_TONEAREST, "MXCSR rounding not restored: %d", fegetround());
	free(stack);
}

/* As the machine double's exception dispatch does for a faulting AP: the
 * signal handler moves RIP and RSP, the fault returns into the resume. */
static struct bt_stack_call *fault_sc;

static void on_sigill(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	(void)sig;
	(void)si;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)bt_stack_resume_address();
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)fault_sc->saved_rsp;
}

static void ud2(void *p)
{
	(void)p;
	__asm__ volatile("ud2");
}

TEST(a_fault_redirected_to_the_resume_returns_1)
{
	uint8_t *stack = malloc(STACK);
	struct bt_stack_call sc;
	struct sigaction sa = { .sa_sigaction = on_sigill, .sa_flags = SA_SIGINFO }, old;

	fault_sc = &sc;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	CHECK_EQ_INT(bt_stack_call(&sc, ud2, NULL, stack_top(stack)), 1);
	/* twice: the stack and the record are reusable */
	CHECK_EQ_INT(bt_stack_call(&sc, ud2, NULL, stack_top(stack)), 1);
	sigaction(SIGILL, &old, NULL);
	free(stack);
}
