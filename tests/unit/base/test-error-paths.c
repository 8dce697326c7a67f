/* SPDX-License-Identifier: MIT */
/* BT_ASSERT's hosted report and bt_log_status's line and return value. */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/assert.h"
#include "base/log.h"
#include "tests/unit/lib/test.h"

/* Runs fn in a child with stderr into a pipe: its stderr text in buf and
 * its wait status. */
static int run_child(void (*fn)(void), char *buf, size_t len)
{
	int p[2], status = -1;
	size_t got = 0;
	ssize_t r;

	buf[0] = '\0';
	if (pipe(p) != 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		dup2(p[1], 2);
		fn();
		_exit(0);
	}
	close(p[1]);
	while (got + 1 < len && (r = read(p[0], buf + got, len - 1 - got)) > 0)
		got += (size_t)r;
	buf[got] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return status;
}

static void failing_assert(void)
{
	volatile int two = 2;

	BT_ASSERT(two + 2 == 5);
}
/* The line of the BT_ASSERT above. */
static const int failing_assert_line = __LINE__ - 3;

static void holding_assert(void)
{
	volatile int two = 2;

	BT_ASSERT(two + 2 == 4);
}

TEST(a_failed_assert_reports_file_line_and_expression_and_aborts)
{
	char out[512], want[256];
	int status = run_child(failing_assert, out, sizeof(out));

	CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "wait status 0x%x", status);
	snprintf(want, sizeof(want),
		 "baretop: assertion failed: tests/unit/base/test-error-paths.c:%d: two + 2 == 5\n",
		 failing_assert_line);
	CHECK_MSG(strstr(out, want) != NULL, "stderr was '%s', wanted '%s'", out, want);
}

TEST(an_assert_that_holds_says_nothing)
{
	char out[512];
	int status = run_child(holding_assert, out, sizeof(out));

	CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "wait status 0x%x", status);
	CHECK_MSG(out[0] == '\0', "stderr was '%s'", out);
}

static void log_lines(void)
{
	bt_status a = bt_log_status(BT_ERR_NOT_FOUND, "cannot open %s", "x.json");
	bt_status b = bt_log_status_ignoring(BT_ERR_IO, "cannot close %s", "y.json");

	/* The exit status carries what the calls returned. */
	_exit(a == BT_ERR_NOT_FOUND && b == BT_ERR_IO ? 7 : 1);
}

TEST(log_status_prints_the_status_text_and_returns_the_status)
{
	char out[512];
	int status = run_child(log_lines, out, sizeof(out));

	CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 7, "wait status 0x%x", status);
	CHECK_MSG(strcmp(out, "baretop: cannot open x.json: not found\n"
			      "baretop: cannot close y.json: input/output error, ignoring\n") == 0,
		  "stderr was '%s'", out);
}

static void log_long(void)
{
	char msg[1000];

	memset(msg, 'm', sizeof(msg) - 1);
	msg[sizeof(msg) - 1] = '\0';
	bt_log_status(BT_ERR_FULL, "%s", msg);
	_exit(0);
}

TEST(a_long_message_is_cut_but_keeps_its_status)
{
	char out[2048];

	run_child(log_long, out, sizeof(out));
	size_t n = strlen(out);
	CHECK(n > 0 && n < 700);
	CHECK_MSG(n > 20 && strcmp(out + n - strlen(": no space left\n"), ": no space left\n") == 0,
		  "stderr was '%s'", out);
}
