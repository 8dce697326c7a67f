/* SPDX-License-Identifier: MIT */
/*
 * EFI build only. The metric core reads vendor files and writes reports with
 * stdio, which newlib implements on top of these system calls. efi/ provides
 * the real ones (ESP files, console, heap); these weak fallbacks only let the
 * metric core link on its own and fail cleanly (ENOSYS) if a real one is
 * missing. Any strong definition in efi/ replaces them at link time.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#define WEAK __attribute__((weak))

WEAK int open(const char *path, int flags, ...);
WEAK int close(int fd);
WEAK int read(int fd, void *buf, size_t n);
WEAK int write(int fd, const void *buf, size_t n);
WEAK off_t lseek(int fd, off_t off, int whence);
WEAK int fstat(int fd, struct stat *st);
WEAK int isatty(int fd);
WEAK void *sbrk(ptrdiff_t incr);
WEAK int getpid(void);
WEAK int kill(int pid, int sig);
WEAK void _exit(int status);

WEAK int open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	errno = ENOSYS;
	return -1;
}

WEAK int close(int fd)
{
	(void)fd;
	errno = ENOSYS;
	return -1;
}

WEAK int read(int fd, void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	errno = ENOSYS;
	return -1;
}

WEAK int write(int fd, const void *buf, size_t n)
{
	(void)fd;
	(void)buf;
	(void)n;
	errno = ENOSYS;
	return -1;
}

WEAK off_t lseek(int fd, off_t off, int whence)
{
	(void)fd;
	(void)off;
	(void)whence;
	errno = ENOSYS;
	return -1;
}

WEAK int fstat(int fd, struct stat *st)
{
	(void)fd;
	(void)st;
	errno = ENOSYS;
	return -1;
}

WEAK int isatty(int fd)
{
	(void)fd;
	return 0;
}

WEAK void *sbrk(ptrdiff_t incr)
{
	(void)incr;
	errno = ENOMEM;
	return (void *)-1;
}

WEAK int getpid(void)
{
	return 1;
}

WEAK int kill(int pid, int sig)
{
	(void)pid;
	(void)sig;
	errno = ENOSYS;
	return -1;
}

WEAK void _exit(int status)
{
	(void)status;
	for (;;)
		;
}
