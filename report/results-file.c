/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "report/results-file.h"

/* A hint, not a source of truth: the next sequence number to try. Losing
 * or corrupting it only costs a few extra stat() calls. */
#define HINT_NAME "next-sequence"

const char *bt_file_error_phrase(int err)
{
	switch (err) {
	case EROFS:  return "the volume is write-protected";
	case ENOSPC: return "the volume is full";
	case ENXIO:  return "the boot device has no file system baretop can use";
	case EACCES: return "access denied";
	case ENOENT: return "no such file or directory";
	case EEXIST: return "the file already exists";
	case ENOMEM: return "out of memory";
	}
	return strerror(err);
}

int bt_mkdir_p(const char *dir)
{
	char path[256];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(path))
		return ENAMETOOLONG;
	memcpy(path, dir, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\\' && path[i] != '\0')
			continue;
		char saved = path[i];
		path[i] = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			struct stat st;
			int e = errno;
			/* Some file systems report other errors for an existing
			 * directory (read-only volumes: EROFS); accept those. */
			if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
				return e;
		}
		path[i] = saved;
	}
	return 0;
}

/* Reads one note file: "N\n", then optionally "SEQ NOTE\n", whole (each
 * line ends with a newline). */
static bool read_note_file(const char *path, unsigned *ret_next, unsigned *ret_seq, char *note,
			   size_t len)
{
	char buf[320], *nl, *end;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (!isdigit((unsigned char)buf[0]))
		return false;
	unsigned long next = strtoul(buf, &end, 10), seq = 0;
	if (*end != '\n' || next == 0 || next > BT_RESULTS_MAX_SEQ + 1)
		return false;
	char *rest = end + 1;
	if (*rest) {
		if (!(nl = strchr(rest, '\n')) || nl[1] || !isdigit((unsigned char)*rest))
			return false; /* a note line cut short, or more than one */
		*nl = '\0';
		seq = strtoul(rest, &end, 10);
		if (*end != ' ' || seq == 0 || seq >= next)
			return false;
		rest = end + 1;
	}
	*ret_next = (unsigned)next;
	if (ret_seq)
		*ret_seq = (unsigned)seq;
	if (note)
		snprintf(note, len, "%s", rest);
	return true;
}

bool bt_results_note_read(const char *dir, unsigned *ret_next, unsigned *ret_seq, char *note,
			  size_t len)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s", dir, HINT_NAME);
	if (read_note_file(path, ret_next, ret_seq, note, len))
		return true;
	snprintf(path, sizeof(path), "%s/%s.tmp", dir, HINT_NAME);
	return read_note_file(path, ret_next, ret_seq, note, len);
}

static unsigned read_hint(const char *dir)
{
	unsigned seq = 1;

	if (!bt_results_note_read(dir, &seq, NULL, NULL, 0) || seq > BT_RESULTS_MAX_SEQ)
		seq = 1;
	return seq;
}

static int write_whole_file(const char *path, const char *data, size_t len);

/* The note, replaced as results-file.h says; true when it is in place. A
 * file written without a note keeps the one there (another run's). */
static bool write_hint(const char *dir, unsigned next, unsigned seq, const char *note,
		       bt_rename_noreplace_fn *rename_noreplace)
{
	char path[300], tmp[310], text[320], old[256] = "";
	unsigned old_next, old_seq = 0;

	if (!note && bt_results_note_read(dir, &old_next, &old_seq, old, sizeof(old)) && old_seq) {
		seq = old_seq;
		note = old;
	}
	int n = note ? snprintf(text, sizeof(text), "%u\n%u %s\n", next, seq, note)
		     : snprintf(text, sizeof(text), "%u\n", next);
	if (n < 0 || (size_t)n >= sizeof(text))
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, HINT_NAME);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	remove(tmp);
	if (write_whole_file(tmp, text, (size_t)n) != 0) {
		remove(tmp);
		return false;
	}
	remove(path);
	return rename_noreplace(tmp, path) == 0;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Writes all of data to path; returns 0 or an errno value. */
static int write_whole_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int err = 0;

	if (!f)
		return errno ? errno : EIO;
	if (len && fwrite(data, 1, len, f) != len)
		err = errno ? errno : EIO;
	if (fflush(f) != 0 && !err)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	return err;
}

bt_status bt_results_write(const char *dir, const char *ext, bt_render_fn *render, void *ctx,
			   bt_rename_noreplace_fn *rename_noreplace, const char *note,
			   struct bt_results_written *ret, struct bt_diag *d)
{
	char final[256], tmp[256];
	int e = bt_mkdir_p(dir);

	if (e) {
		bt_diag_set(d, "cannot create %s: %s", dir, bt_file_error_phrase(e));
		return e == EROFS ? BT_ERR_READ_ONLY : e == ENOSPC ? BT_ERR_FULL : BT_ERR_IO;
	}
	for (unsigned seq = read_hint(dir), tries = 0; seq <= BT_RESULTS_MAX_SEQ; seq++) {
		snprintf(final, sizeof(final), "%s/%06u.%s", dir, seq, ext);
		if (exists(final))
			continue;
		if (++tries > 100) {
			bt_diag_set(d, "gave up after 100 attempts to claim a name in %s", dir);
			return BT_ERR_IO;
		}
		snprintf(tmp, sizeof(tmp), "%s/%06u.tmp", dir, seq);
		remove(tmp); /* left behind by an interrupted run, if at all */

		struct bt_strbuf doc;
		memset(&doc, 0, sizeof(doc));
		bt_status st = render(seq, &doc, ctx);
		if (st == BT_OK && !!doc.oom)
			st = BT_ERR_NOMEM;
		if (st != BT_OK) {
			bt_sb_free(&doc);
			bt_diag_set(d, "rendering the results failed: %s", bt_status_str(st));
			return st;
		}
		e = write_whole_file(tmp, bt_sb_str(&doc), doc.n);
		bt_sb_free(&doc);
		if (e) {
			remove(tmp);
			bt_diag_set(d, "cannot write %s: %s", tmp, bt_file_error_phrase(e));
			return e == EROFS ? BT_ERR_READ_ONLY : e == ENOSPC ? BT_ERR_FULL : BT_ERR_IO;
		}
		if (rename_noreplace(tmp, final) != 0) {
			e = errno;
			if (e == EEXIST) {
				remove(tmp);
				continue; /* someone took the name meanwhile: next one */
			}
			remove(tmp);
			bt_diag_set(d, "cannot rename %s to %s: %s", tmp, final,
				    bt_file_error_phrase(e));
			return BT_ERR_IO;
		}
		ret->note_written = write_hint(dir, seq + 1, seq, note, rename_noreplace) && note;
		ret->seq = seq;
		snprintf(ret->path, sizeof(ret->path), "%s", final);
		return BT_OK;
	}
	bt_diag_set(d, "%s holds results up to sequence %u already", dir, BT_RESULTS_MAX_SEQ);
	return BT_ERR_FULL;
}

unsigned bt_results_prune(const char *dir, const char *ext, unsigned current, unsigned keep)
{
	unsigned removed = 0, misses = 0;
	char path[300];

	if (!keep || current <= keep)
		return 0;
	for (unsigned seq = current - keep; seq >= 1 && misses < BT_RESULTS_PRUNE_GAP; seq--) {
		snprintf(path, sizeof(path), "%s/%06u.%s", dir, seq, ext);
		if (remove(path) == 0) {
			removed++;
			misses = 0;
		} else {
			misses++;
		}
	}
	return removed;
}
