/* SPDX-License-Identifier: MIT */
/*
 * BT_ASSERT(cond): an invariant the code relies on, checked in every build
 * (there is no NDEBUG switch: a broken invariant in a bare-metal run would
 * otherwise become wrong counts, not a message). When it does not hold, the
 * file, line and expression are reported and the program stops:
 *
 *   hosted   "baretop: assertion failed: file.c:42: n <= max" on stderr,
 *            then abort() (a core dump, or the sanitizer's report);
 *   EFI app  the same text through the fault reporter (efi/fault-guard.c's
 *            bt_efi_fatal): the PMU session of this CPU is closed, the
 *            address printed, and the machine powered off as a failure; on
 *            an AP, recorded for the BSP to report and that CPU parked, as
 *            after an unexpected exception there.
 *
 * Not for input that may be wrong (a file, an option, a CPU's answer): those
 * return a bt_status with a bt_diag. And never inside a measurement window
 * (between the counters' start and stop writes: the workload body, the
 * window routine): the check's own instructions would be counted, and its
 * report would run with baretop's counters live. Check before the window
 * opens or after it closes.
 */
#ifndef BASE_ASSERT_H
#define BASE_ASSERT_H

#define BT_ASSERT(cond) \
	((cond) ? (void)0 : bt_assert_fail(__FILE__, __LINE__, #cond))

_Noreturn void bt_assert_fail(const char *file, unsigned line, const char *expr);

/*
 * The EFI app's end for a failed assertion: provided by the platform layer
 * (efi/fault-guard.c) and used by bt_assert_fail in that build only; base/
 * includes nothing from efi/, it only names the function it calls. `where`
 * is a return address in the function whose check failed.
 */
_Noreturn void bt_platform_fatal(const char *what, const char *detail, const void *where);

#endif
