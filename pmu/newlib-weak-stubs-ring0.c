/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY, EFI build only: weak placeholders for the newlib system calls
 * that snprintf/realloc in the portable PMU code pull in, so the EFI app
 * links before efi/ provides the real ones (the platform layer's job, see
 * DESIGN.md "efi/ ... newlib system calls"). Any strong definition in efi/
 * replaces these; delete this file when efi/ has them. They fail cleanly:
 * no I/O, no heap.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/stat.h>

#define WEAK __attribute__((weak))

WEAK void _exit(int status);
WEAK void _exit(int status) { for (;;) { } }
WEAK int close(int fd);
WEAK int close(int fd) { errno = EBADF; return -1; }
WEAK int fstat(int fd, struct stat *st);
WEAK int fstat(int fd, struct stat *st) { errno = EBADF; return -1; }
WEAK int getpid(void);
WEAK int getpid(void) { return 1; }
WEAK int isatty(int fd);
WEAK int isatty(int fd) { return 0; }
WEAK int kill(int pid, int sig);
WEAK int kill(int pid, int sig) { errno = EINVAL; return -1; }
WEAK long lseek(int fd, long off, int whence);
WEAK long lseek(int fd, long off, int whence) { errno = EBADF; return -1; }
WEAK int read(int fd, void *buf, size_t n);
WEAK int read(int fd, void *buf, size_t n) { errno = EBADF; return -1; }
WEAK int write(int fd, const void *buf, size_t n);
WEAK int write(int fd, const void *buf, size_t n) { errno = EBADF; return -1; }
WEAK void *sbrk(ptrdiff_t incr);
WEAK void *sbrk(ptrdiff_t incr) { errno = ENOMEM; return (void *)-1; }
