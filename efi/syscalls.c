/* SPDX-License-Identifier: MIT */
/*
 * The rest of newlib's system calls (files are in efi/files.c, the heap in
 * efi/heap.c). newlib was configured for x86_64-elf, which sets
 * MISSING_SYSCALL_NAMES: it calls these without a leading underscore,
 * except _exit.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "efi/efi-state.h"

int getpid(void);
int kill(int pid, int sig);
int link(const char *from, const char *to);
clock_t times(struct tms *buf);
int gettimeofday(struct timeval *tv, void *tz);
void _exit(int status);

static void (*exit_handler)(int status);

void bt_efi_set_exit_handler(void (*fn)(int status))
{
	exit_handler = fn;
}

int getpid(void)
{
	return 1;
}

int kill(int pid, int sig)
{
	/* abort() raises SIGABRT on itself; end the program like exit(). */
	if (pid == 1)
		_exit(128 + sig);
	errno = ESRCH;
	return -1;
}

int link(const char *from, const char *to)
{
	(void)from;
	(void)to;
	errno = ENOSYS; /* FAT has no hard links; rename() is in efi/files.c */
	return -1;
}

clock_t times(struct tms *buf)
{
	(void)buf;
	errno = ENOSYS; /* time is measured with the TSC, not with clock() */
	return (clock_t)-1;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	EFI_TIME t;

	(void)tz;
	if (bt_efi.rs->GetTime(&t, NULL) != EFI_SUCCESS || t.Month < 1 || t.Month > 12) {
		errno = EIO;
		return -1;
	}
	int64_t secs = days_from_civil(t.Year, t.Month, t.Day) * 86400 +
		       t.Hour * 3600 + t.Minute * 60 + t.Second;
	/* TimeZone is minutes to add to local time to get UTC... unless it is
	 * EFI_UNSPECIFIED_TIMEZONE, the usual case: then the RTC is taken as
	 * UTC, which the results file says. */
	if (t.TimeZone != EFI_UNSPECIFIED_TIMEZONE)
		secs += (int64_t)t.TimeZone * 60;
	tv->tv_sec = (time_t)secs;
	tv->tv_usec = (suseconds_t)(t.Nanosecond / 1000);
	return 0;
}

void _exit(int status)
{
	if (exit_handler)
		exit_handler(status);
	/* No handler (cannot happen after efi_main set it): power off. */
	bt_efi.rs->ResetSystem(EfiResetShutdown, EFI_ABORTED, 0, NULL);
	for (;;)
		;
}
