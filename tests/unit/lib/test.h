/* SPDX-License-Identifier: MIT */
/*
 * A small hosted test harness. Each test file defines tests with
 *
 *     TEST(parses_empty_object) { CHECK(x == 1); CHECK_EQ_U64(a, b); }
 *
 * and links tests/unit/lib/test-main.c, which runs them all in file order,
 * prints one TAP line per test and exits non-zero if any check failed.
 * `test-foo -k substring` runs only the tests whose name contains it.
 */
#ifndef TESTS_UNIT_LIB_TEST_H
#define TESTS_UNIT_LIB_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void bt_test_fn(void);
void bt_test_register(const char *name, bt_test_fn *fn);
void bt_test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Directory of the shared test data (../shared/testdata), or NULL if absent. */
const char *bt_test_shared_dir(void);
/* Mark the running test as skipped, with a reason (printed as TAP "# SKIP"). */
void bt_test_skip(const char *why);

#define TEST(name)                                                          \
	static void test_##name(void);                                      \
	__attribute__((constructor)) static void register_##name(void)      \
	{                                                                   \
		bt_test_register(#name, test_##name);                       \
	}                                                                   \
	static void test_##name(void)

#define CHECK(cond)                                                         \
	do {                                                                \
		if (!(cond))                                                \
			bt_test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); \
	} while (0)

#define CHECK_MSG(cond, ...)                                                \
	do {                                                                \
		if (!(cond))                                                \
			bt_test_fail(__FILE__, __LINE__, __VA_ARGS__);      \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                  \
	do {                                                                \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);            \
		if (a_ != b_)                                               \
			bt_test_fail(__FILE__, __LINE__,                    \
				     "%s == %s: 0x%llx != 0x%llx", #a, #b,  \
				     (unsigned long long)a_,                \
				     (unsigned long long)b_);               \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                  \
	do {                                                                \
		long long a_ = (long long)(a), b_ = (long long)(b);         \
		if (a_ != b_)                                               \
			bt_test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", \
				     #a, #b, a_, b_);                       \
	} while (0)

#define CHECK_STR(a, b)                                                     \
	do {                                                                \
		const char *a_ = (a), *b_ = (b);                            \
		if (!a_ || !b_ || strcmp(a_, b_) != 0)                      \
			bt_test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				     #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
	} while (0)

/* |a-b| <= abs_tol or <= rel_tol*max(|a|,|b|); NaN only equals NaN. */
bool bt_test_near(double a, double b, double rel_tol, double abs_tol);
#define CHECK_NEAR(a, b, rel, abs_)                                         \
	do {                                                                \
		double a_ = (a), b_ = (b);                                  \
		if (!bt_test_near(a_, b_, rel, abs_))                       \
			bt_test_fail(__FILE__, __LINE__, "%s ~= %s: %.17g != %.17g", \
				     #a, #b, a_, b_);                       \
	} while (0)

#endif
