/* SPDX-License-Identifier: MIT */
/*
 * printf, fprintf and vfprintf of the EFI app, over vsnprintf, and
 * newlib's __assert_func over them.
 *
 * newlib formats streams with _vfprintf_r and strings with _svfprintf_r:
 * two compiled copies of the same formatter (libc/stdio/vfprintf.c), and
 * the stream one pulls in its integer-only twin _vfiprintf_r as well,
 * ~13 KB of baretop.efi's 1 MiB budget (tests/suite/11-efi-size.sh) for
 * formatting snprintf already does. These take the linker's choice over
 * newlib's archive members: the text is formatted by vsnprintf into a
 * buffer on the stack (on the heap when longer) and handed to fwrite, so
 * the stream's buffering, line flushing and error flag stay newlib's. The
 * conversions are the same code, so the output is the same text.
 *
 * newlib's own __assert_func (libc/stdlib/assert.c: its dtoa checks its
 * allocations with assert) printed with fiprintf, the integer-only stream
 * formatter; this one prints the same line with fprintf, then abort()s as
 * newlib's does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void __assert_func(const char *file, int line, const char *func, const char *failedexpr);

int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
	char small[256], *text = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof(small)) {
		text = malloc((size_t)n + 1);
		if (text)
			vsnprintf(text, (size_t)n + 1, fmt, again);
		else
			errno = ENOMEM;
	}
	va_end(again);
	if (n < 0 || !text)
		return -1;
	if (fwrite(text, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	if (text != small)
		free(text);
	return n;
}

int fprintf(FILE *restrict f, const char *restrict fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int printf(const char *restrict fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

void __assert_func(const char *file, int line, const char *func, const char *failedexpr)
{
	fprintf(stderr, "assertion \"%s\" failed: file \"%s\", line %d%s%s\n", failedexpr, file, line,
		func ? ", function: " : "", func ? func : "");
	abort();
}
