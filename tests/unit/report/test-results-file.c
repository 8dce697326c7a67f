/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/results-file.h"
#include "tests/unit/lib/test.h"

static char root[64];

static void fresh_dir(void)
{
	snprintf(root, sizeof(root), "/tmp/bt-results-XXXXXX");
	CHECK(mkdtemp(root) != NULL);
}

static void remove_tree(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static bt_status render_seq(unsigned seq, struct bt_strbuf *out, void *ctx)
{
	bt_sb_printf(out, "{\"sequence\": %u, \"tag\": \"%s\"}\n", seq, (const char *)ctx);
	return BT_OK;
}

static bt_status render_fails(unsigned seq, struct bt_strbuf *out, void *ctx)
{
	(void)seq; (void)out; (void)ctx;
	return BT_ERR_INTERNAL;
}

static int noreplace(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return -1;
	return unlink(from);
}

static int race_once_calls;
static int rename_loses_race_once(const char *from, const char *to)
{
	if (race_once_calls++ == 0) {
		/* Another writer takes the name between our check and rename. */
		FILE *f = fopen(to, "w");
		fputs("someone else\n", f);
		fclose(f);
	}
	return noreplace(from, to);
}

static int rename_io_error(const char *from, const char *to)
{
	(void)from; (void)to;
	errno = EIO;
	return -1;
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int count_entries(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		if (l >= s && strcmp(e->d_name + l - s, suffix) == 0)
			n++;
	}
	closedir(d);
	return n;
}

TEST(sequence_numbers_never_overwrite)
{
	char dir[128], path[160];
	struct bt_diag d;
	struct bt_results_written w;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/baretop/results", root);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "first", noreplace, &w, &d), BT_OK);
	CHECK_EQ_U64(w.seq, 1);
	snprintf(path, sizeof(path), "%s/000001.json", dir);
	CHECK_STR(w.path, path);
	CHECK_STR(slurp(path), "{\"sequence\": 1, \"tag\": \"first\"}\n");

	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "second", noreplace, &w, &d), BT_OK);
	CHECK_EQ_U64(w.seq, 2);
	CHECK_STR(slurp(path), "{\"sequence\": 1, \"tag\": \"first\"}\n");
	CHECK_EQ_INT(count_entries(dir, ".json"), 2);
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	remove_tree(root);
}

TEST(a_stale_or_broken_hint_only_costs_probes)
{
	char dir[128], path[160];
	struct bt_diag d;
	struct bt_results_written w;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/r", root);
	CHECK_EQ_INT(bt_mkdir_p(dir), 0);
	for (int i = 1; i <= 3; i++) {
		snprintf(path, sizeof(path), "%s/%06d.json", dir, i);
		FILE *f = fopen(path, "w");
		fputs("earlier\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/next-sequence", dir);
	FILE *f = fopen(path, "w");
	fputs("garbage\n", f);
	fclose(f);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, &w, &d),
		     BT_OK);
	CHECK_EQ_U64(w.seq, 4);
	snprintf(path, sizeof(path), "%s/000002.json", dir);
	CHECK_STR(slurp(path), "earlier\n");
	remove_tree(root);
}

/* The hint names the first number tried: a whole number 1..max, with
 * leading blanks; anything else starts again at 1. */
TEST(the_hint_is_read_as_a_number_in_range)
{
	static const struct {
		const char *hint;
		unsigned seq;
	} cases[] = {
		{ "7\n", 7 }, { "  12\n", 12 }, { "\n5", 5 }, { "3 junk", 3 }, { "0\n", 1 },
		{ "999999\n", 999999 }, { "1000000\n", 1 }, { "-3\n", 1 }, { "", 1 }, { "x9", 1 },
	};
	char dir[128], path[160];
	struct bt_diag d;
	struct bt_results_written w;

	CHECK_EQ_U64(BT_RESULTS_MAX_SEQ, 999999);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh_dir();
		snprintf(dir, sizeof(dir), "%s/r", root);
		CHECK_EQ_INT(bt_mkdir_p(dir), 0);
		snprintf(path, sizeof(path), "%s/next-sequence", dir);
		FILE *f = fopen(path, "w");
		fputs(cases[i].hint, f);
		fclose(f);
		CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, &w, &d), BT_OK);
		CHECK_MSG(w.seq == cases[i].seq, "hint \"%s\": sequence %u, expected %u", cases[i].hint, w.seq,
			  cases[i].seq);
		remove_tree(root);
	}
}

TEST(leftover_temporary_file_is_replaced)
{
	char dir[128], path[160];
	struct bt_diag d;
	struct bt_results_written w;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/r", root);
	CHECK_EQ_INT(bt_mkdir_p(dir), 0);
	snprintf(path, sizeof(path), "%s/000001.tmp", dir);
	FILE *f = fopen(path, "w");
	fputs("half a result from a run that lost power", f);
	fclose(f);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, &w, &d),
		     BT_OK);
	CHECK_EQ_U64(w.seq, 1);
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	remove_tree(root);
}

TEST(losing_a_rename_race_takes_the_next_number)
{
	char dir[128], path[160];
	struct bt_diag d;
	struct bt_results_written w;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/r", root);
	race_once_calls = 0;
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "mine", rename_loses_race_once, &w,
				      &d), BT_OK);
	CHECK_EQ_U64(w.seq, 2);
	snprintf(path, sizeof(path), "%s/000001.json", dir);
	CHECK_STR(slurp(path), "someone else\n");
	snprintf(path, sizeof(path), "%s/000002.json", dir);
	CHECK_STR(slurp(path), "{\"sequence\": 2, \"tag\": \"mine\"}\n");
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	remove_tree(root);
}

TEST(failures_leave_nothing_behind)
{
	char dir[128];
	struct bt_diag d;
	struct bt_results_written w;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/r", root);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_fails, NULL, noreplace, &w, &d),
		     BT_ERR_INTERNAL);
	CHECK(strstr(d.text, "rendering the results failed") != NULL);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", rename_io_error, &w, &d),
		     BT_ERR_IO);
	CHECK(strstr(d.text, "cannot rename") != NULL);
	CHECK_EQ_INT(count_entries(dir, ".json"), 0);
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	remove_tree(root);
}

TEST(mkdir_p_creates_parents_and_accepts_existing)
{
	char dir[128];
	struct stat st;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/a/b/c", root);
	CHECK_EQ_INT(bt_mkdir_p(dir), 0);
	CHECK_EQ_INT(bt_mkdir_p(dir), 0);
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
	/* A file in the way is an error. */
	char file[160];
	snprintf(file, sizeof(file), "%s/a/f", root);
	FILE *f = fopen(file, "w");
	fclose(f);
	snprintf(dir, sizeof(dir), "%s/a/f/g", root);
	CHECK(bt_mkdir_p(dir) != 0);
	remove_tree(root);
}

static bool exists(unsigned seq)
{
	char p[128];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%06u.json", root, seq);
	return stat(p, &st) == 0;
}

static void touch(unsigned seq)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/%06u.json", root, seq);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
}

TEST(keep_results_deletes_the_oldest_never_the_current)
{
	fresh_dir();
	for (unsigned s = 1; s <= 6; s++)
		touch(s);
	touch(200); /* beyond a gap of more than BT_RESULTS_PRUNE_GAP: not reached */
	/* the file just written is 6; keep 2: 5 and 6 stay */
	CHECK_EQ_U64(bt_results_prune(root, "json", 6, 2), 4);
	CHECK(!exists(1) && !exists(4));
	CHECK(exists(5) && exists(6));
	/* keep 1: only the current file is left of the consecutive ones */
	CHECK_EQ_U64(bt_results_prune(root, "json", 6, 1), 1);
	CHECK(!exists(5) && exists(6));
	/* a keep larger than the sequence number deletes nothing */
	CHECK_EQ_U64(bt_results_prune(root, "json", 6, 10), 0);
	CHECK(exists(6));
	/* a gap of more than BT_RESULTS_PRUNE_GAP numbers ends the walk */
	touch(300);
	CHECK_EQ_U64(bt_results_prune(root, "json", 300, 1), 0);
	CHECK(exists(200));
	/* from 200 down: 200 goes, then 199..136 are missing and the walk
	 * ends before it reaches 6 */
	CHECK_EQ_U64(bt_results_prune(root, "json", 300, 100), 1);
	CHECK(!exists(200) && exists(6) && exists(300));
	remove_tree(root);
}
