/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tests/unit/lib/test.h"

#define MAX_TESTS 1024

static struct {
	const char *name;
	bt_test_fn *fn;
} tests[MAX_TESTS];
static int n_tests;
static int current_failures;
static const char *current_skip;

void bt_test_register(const char *name, bt_test_fn *fn)
{
	if (n_tests == MAX_TESTS) {
		fprintf(stderr, "too many tests (raise MAX_TESTS)\n");
		exit(2);
	}
	tests[n_tests].name = name;
	tests[n_tests].fn = fn;
	n_tests++;
}

void bt_test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	/* Keep the log readable when a loop fails thousands of times. */
	if (++current_failures > 20)
		return;
	printf("#   %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void bt_test_skip(const char *why)
{
	current_skip = why;
}

bool bt_test_near(double a, double b, double rel_tol, double abs_tol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	double d = fabs(a - b);
	double m = fmax(fabs(a), fabs(b));
	return d <= abs_tol || d <= rel_tol * m;
}

const char *bt_test_shared_dir(void)
{
	static char path[4096];
	const char *env = getenv("BT_SHARED_TESTDATA");
	struct stat st;

	if (env && *env)
		return stat(env, &st) == 0 ? env : NULL;
	/* The tests run from the top of the tree; ../shared sits beside it. */
	snprintf(path, sizeof(path), "../shared/testdata");
	return stat(path, &st) == 0 ? path : NULL;
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	int failed = 0, run = 0;

	if (argc == 3 && strcmp(argv[1], "-k") == 0)
		filter = argv[2];
	printf("TAP version 13\n");
	for (int i = 0; i < n_tests; i++) {
		if (filter && !strstr(tests[i].name, filter))
			continue;
		current_failures = 0;
		current_skip = NULL;
		fflush(stdout);
		tests[i].fn();
		run++;
		if (current_failures) {
			failed++;
			printf("not ok %d - %s (%d failed checks)\n", run, tests[i].name,
			       current_failures);
		} else if (current_skip) {
			printf("ok %d - %s # SKIP %s\n", run, tests[i].name, current_skip);
		} else {
			printf("ok %d - %s\n", run, tests[i].name);
		}
	}
	printf("1..%d\n", run);
	if (failed)
		printf("# %d of %d tests failed\n", failed, run);
	return failed ? 1 : 0;
}
