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
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "first", noreplace, NULL, &w, &d), BT_OK);
	CHECK_EQ_U64(w.seq, 1);
	snprintf(path, sizeof(path), "%s/000001.json", dir);
	CHECK_STR(w.path, path);
	CHECK_STR(slurp(path), "{\"sequence\": 1, \"tag\": \"first\"}\n");

	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "second", noreplace, NULL, &w, &d), BT_OK);
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
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, NULL, &w, &d),
		     BT_OK);
	CHECK_EQ_U64(w.seq, 4);
	snprintf(path, sizeof(path), "%s/000002.json", dir);
	CHECK_STR(slurp(path), "earlier\n");
	remove_tree(root);
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
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, NULL, &w, &d),
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
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "mine", rename_loses_race_once, NULL,
				      &w, &d), BT_OK);
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
	CHECK_EQ_INT(bt_results_write(dir, "json", render_fails, NULL, noreplace, NULL, &w, &d),
		     BT_ERR_INTERNAL);
	CHECK(strstr(d.text, "rendering the results failed") != NULL);
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", rename_io_error, NULL, &w, &d),
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

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The sequence note is replaced whole: after a write it holds the next
 * number and the note with its file's number; a write without a note
 * keeps the one there; a reset between the removal of the old note and
 * the rename of the new one leaves only next-sequence.tmp, which is read
 * instead; a note cut short (no final newline) is no note. */
TEST(sequence_note_is_replaced_atomically)
{
	char dir[128], path[200], tmp[210], note[96];
	struct bt_diag d;
	struct bt_results_written w;
	unsigned next = 0, seq = 0;

	fresh_dir();
	snprintf(dir, sizeof(dir), "%s/r", root);
	CHECK(!bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "x", noreplace, "run=1 status=1", &w,
				      &d), BT_OK);
	CHECK(w.note_written);
	snprintf(path, sizeof(path), "%s/next-sequence", dir);
	snprintf(tmp, sizeof(tmp), "%s/next-sequence.tmp", dir);
	CHECK_STR(slurp(path), "2\n1 run=1 status=1\n");
	CHECK(bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	CHECK(next == 2 && seq == 1);
	CHECK_STR(note, "run=1 status=1");
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	/* a file without a note (a person's run) keeps the note there */
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "y", noreplace, NULL, &w, &d), BT_OK);
	CHECK(!w.note_written);
	CHECK_STR(slurp(path), "3\n1 run=1 status=1\n");
	/* the reset after the old note was removed: the new one is the .tmp */
	remove(path);
	put(tmp, "7\n6 run=2 status=1\n");
	CHECK(bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	CHECK(next == 7 && seq == 6);
	CHECK_STR(note, "run=2 status=1");
	/* the reset while the .tmp was written: the old note stands */
	put(path, "5\n4 run=3 status=1\n");
	put(tmp, "6\n5 run=4 sta");
	CHECK(bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	CHECK_STR(note, "run=3 status=1");
	/* only a cut note: nothing; a note without a note line: ""; a note
	 * naming a number not below the next one: none */
	remove(path);
	CHECK(!bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	put(path, "9\n");
	CHECK(bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	CHECK(next == 9 && seq == 0 && note[0] == '\0');
	put(tmp, "9\n9 run=5 status=1\n");
	remove(path);
	CHECK(!bt_results_note_read(dir, &next, &seq, note, sizeof(note)));
	/* the next write takes over from a .tmp left behind */
	put(tmp, "9\n");
	CHECK_EQ_INT(bt_results_write(dir, "json", render_seq, "z", noreplace, NULL, &w, &d), BT_OK);
	CHECK_EQ_U64(w.seq, 9);
	CHECK_STR(slurp(path), "10\n");
	CHECK_EQ_INT(count_entries(dir, ".tmp"), 0);
	remove_tree(root);
}
