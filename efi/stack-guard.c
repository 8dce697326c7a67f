/* SPDX-License-Identifier: MIT */
/*
 * The stack protector of the EFI app (-fstack-protector-strong with
 * -mstack-protector-guard=global, Makefile): the canary every protected
 * function copies into its frame and checks before it returns, and what
 * happens when the check fails.
 *
 * There is no TLS and no C runtime start-up before efi_main, so the canary
 * is a plain global that efi_main sets first thing (bt_efi_stack_guard_init).
 * A protected frame that is live while the canary changes would fail its own
 * check on return, so efi_main and this file's init are unprotected
 * (BT_NO_STACK_PROTECTOR); functions that run and return before the change
 * compare the old value with the old value and are fine. newlib is built
 * without the protector (tools/build-newlib.sh): its frames are unchecked.
 */
#include <stdint.h>
#include <string.h>

#include "arch/arch-hw.h"
#include "efi/efi-state.h"

/* Non-zero from the start, so a frame checked before the init (there should
 * be none) still compares equal; replaced by a random value at entry. */
uintptr_t __stack_chk_guard = 0x595e9fbd94fda766ull;

_Noreturn void __stack_chk_fail(void);

/* splitmix64's finaliser: spreads the TSC's few changing low bits over all 64. */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

BT_NO_STACK_PROTECTOR void bt_efi_stack_guard_init(uint64_t entry_tsc, const void *image_base)
{
	uint64_t v;

	/* RDRAND where the CPU has it (through arch/, which owns CPU
	 * instructions); otherwise the TSC at entry, which differs from boot
	 * to boot, mixed with where the firmware loaded the image. */
	if (!bt_hw_rdrand64(&v))
		v = mix64(entry_tsc ^ (uint64_t)(uintptr_t)image_base);
	/* A zero low byte, as glibc does: a string copy that runs over a
	 * buffer stops at the NUL before it can write the canary back, and a
	 * printed buffer does not leak the rest. */
	__stack_chk_guard = (uintptr_t)(v & ~(uint64_t)0xff);
}

/* Called by a protected function whose canary changed: its frame, and
 * perhaps its return address, are overwritten. It must not return; the
 * fault reporter says where and stops the machine. */
BT_NO_STACK_PROTECTOR _Noreturn void __stack_chk_fail(void)
{
	bt_efi_fatal("stack smashing detected (a protected function's canary changed)", NULL,
		     (uint64_t)(uintptr_t)__builtin_return_address(0));
}

/* Writes past the end of a protected local array: the function's check
 * must catch it before it returns. The length comes through a volatile so
 * that the compiler cannot see (and warn about, or drop) the overflow. */
static __attribute__((noinline)) void overflow_local(size_t n)
{
	char buf[16];

	memset(buf, 0x5a, n);
	__asm__ volatile("" : : "r"(buf) : "memory");
}

void bt_efi_stack_smash_test(void)
{
	volatile size_t n = 64;

	overflow_local(n);
}
