/* SPDX-License-Identifier: MIT */
#include <string.h>
#include <sys/stat.h>

#include "app/targets.h"
#include "base/out-check.h"
#include "report/results-file.h"

/* The inputs a run reads: an output named like one of them is refused. */
static void run_inputs(const struct bt_options *o, const char *in[8])
{
	int n = 0;

	in[n++] = o->events_file;
	in[n++] = o->validate_spec;
	in[n++] = o->counts_file;
	in[n++] = o->retire_latency_file;
	in[n++] = o->config_path;
	in[n++] = o->sim_cpuid;
	in[n++] = o->exec_path;
	in[n] = NULL;
	/* the list ends at its first NULL: move the given ones forward */
	int k = 0;
	for (int i = 0; i < n; i++)
		if (in[i])
			in[k++] = in[i];
	in[k] = NULL;
}

static bool is_sep(char c)
{
	return c == '/' || c == '\\';
}

/* Whether folder is dir or a folder above it, on a file system whose names
 * may differ in case (FAT) and in separator. */
static bool folder_of(const char *folder, size_t len, const char *dir)
{
	size_t i = 0;

	for (; i < len && dir[i]; i++) {
		char a = folder[i], b = dir[i];
		if (is_sep(a) && is_sep(b))
			continue;
		if ((a | 0x20) != (b | 0x20) || (((a | 0x20) < 'a' || (a | 0x20) > 'z') && a != b))
			return false;
	}
	return i == len && (!dir[i] || is_sep(dir[i]));
}

/* The folder of an output exists, or is baretop's own and is made now. */
static bt_status check_folder(const char *opt, const char *path, const char *results_dir,
			      struct bt_diag *d)
{
	const char *slash = NULL;
	char folder[256];
	struct stat st;

	for (const char *p = path; *p; p++)
		if (is_sep(*p))
			slash = p;
	if (!slash || slash == path)
		return BT_OK; /* the current folder, or the volume's root */
	size_t len = (size_t)(slash - path);
	if (len >= sizeof(folder)) {
		bt_diag_set(d, "%s %s: the folder's name is too long", opt, path);
		return BT_ERR_INVALID;
	}
	memcpy(folder, path, len);
	folder[len] = '\0';
	if (stat(folder, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return BT_OK;
		bt_diag_set(d, "%s %s: %s is a file, not a folder", opt, path, folder);
		return BT_ERR_INVALID;
	}
	if (results_dir && folder_of(folder, len, results_dir)) {
		int e = bt_mkdir_p(folder);
		if (e == 0)
			return BT_OK;
		bt_diag_set(d, "%s %s: cannot make the folder %s: %s", opt, path, folder,
			    bt_file_error_phrase(e));
		return BT_ERR_INVALID;
	}
	bt_diag_set(d, "%s %s: the folder %s does not exist (baretop makes only its own, %s and "
		    "the folders above it)", opt, path, folder, results_dir ? results_dir : "none");
	return BT_ERR_INVALID;
}

static bt_status check_output(const char *opt, const char *path, bool never_replace,
			      const struct bt_options *o, struct bt_diag *d)
{
	const char *in[8];
	struct stat st;

	/* standard output, or a descriptor the caller opened (baretop-host
	 * atlas --json: /dev/fd/N) */
	if (!strcmp(path, "-") || !strncmp(path, "/dev/fd/", 8))
		return BT_OK;
	run_inputs(o, in);
	if (bt_output_check(path, in, d) != BT_OK) {
		bt_diag_prefix(d, "%s", opt);
		return BT_ERR_INVALID;
	}
	if (never_replace && stat(path, &st) == 0) {
		bt_diag_set(d, "%s %s: the file exists, and a spec is never replaced (name a new "
			    "one)", opt, path);
		return BT_ERR_INVALID;
	}
	return check_folder(opt, path, o->results_dir, d);
}

bt_status bt_targets_check(const struct bt_options *o, struct bt_diag *d)
{
	struct stat st;

	/* A results folder that is a file would lose the run's results at
	 * its end (exit 3); a missing one is made then. */
	if (!o->no_results && o->results_dir && stat(o->results_dir, &st) == 0 &&
	    !S_ISDIR(st.st_mode)) {
		bt_diag_set(d, "--results-dir %s: a file, not a folder: the results could not be "
			    "written", o->results_dir);
		return BT_ERR_INVALID;
	}
	if (o->atlas_json && check_output("--atlas-json", o->atlas_json, false, o, d) != BT_OK)
		return BT_ERR_INVALID;
	if (o->atlas_spec && check_output("--atlas-spec", o->atlas_spec, true, o, d) != BT_OK)
		return BT_ERR_INVALID;
	if (o->then_boot && (stat(o->then_boot, &st) != 0 || !S_ISREG(st.st_mode))) {
		bt_diag_set(d, "--then chainload:%s: %s on the boot volume: nothing to hand over to",
			    o->then_boot, stat(o->then_boot, &st) != 0 ? "no such file" : "not a file");
		return BT_ERR_INVALID;
	}
	return BT_OK;
}
