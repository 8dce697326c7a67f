/* SPDX-License-Identifier: MIT */
/* bt_app_main on the machine double: see machine-run.h. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app-main.h"
#include "tests/unit/lib/machine-run.h"
#include "tests/unit/lib/test.h"

bool md_run(struct md_run *r, const char *spec, const char *args)
{
	struct bt_diag d = { "" };
	char words[1024], out_path[96];
	char *argv[64];
	int argc = 0;

	memset(r, 0, sizeof(*r));
	bt_arena_init(&r->arena);
	if (bt_md_new(spec, NULL, &r->md, &d) != BT_OK) {
		CHECK_MSG(false, "machine %s: %s", spec, d.text);
		return false;
	}
	bt_md_platform(r->md, &r->plat);
	snprintf(r->dir, sizeof(r->dir), "/tmp/bt-machine-XXXXXX");
	CHECK(mkdtemp(r->dir) != NULL);
	snprintf(words, sizeof(words), "%s", args);
	argv[argc++] = "baretop";
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && argc < 60;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc++] = "--results-dir";
	argv[argc++] = r->dir;
	argv[argc] = NULL;

	/* the program's output (a usage error's line on stderr too) to a file,
	 * the test's TAP lines untouched */
	snprintf(out_path, sizeof(out_path), "%s.out", r->dir);
	fflush(stdout);
	fflush(stderr);
	int saved = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
	int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
	r->status = bt_app_main(argc, argv, &r->plat);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved);
	close(saved_err);

	size_t len;
	if (bt_file_read(&r->arena, out_path, &r->out, &len, &d) != BT_OK)
		r->out = "";
	unlink(out_path);
	char results[128];
	snprintf(results, sizeof(results), "%s/000001.json", r->dir);
	if (bt_json_load_file(&r->arena, results, &r->results, &d) != BT_OK)
		r->results = NULL;
	unlink(results);
	return true;
}

void md_run_free(struct md_run *r)
{
	bt_md_free(r->md);
	bt_arena_free(&r->arena);
	rmdir(r->dir);
	memset(r, 0, sizeof(*r));
}

static const struct bt_json *workloads(const struct md_run *r)
{
	const struct bt_json *w = bt_json_get(bt_json_get(r->results, "run"), "workloads");

	return w && w->type == BT_JSON_ARRAY ? w : NULL;
}

unsigned md_outcomes(const struct md_run *r)
{
	const struct bt_json *w = workloads(r);

	return w ? (unsigned)w->u.arr.n : 0;
}

const struct bt_json *md_outcome(const struct md_run *r, const char *name, unsigned cpu)
{
	const struct bt_json *w = workloads(r);

	for (size_t k = 0; w && k < w->u.arr.n; k++) {
		const struct bt_json *o = w->u.arr.items[k], *c = bt_json_get(o, "cpu");
		const char *n = bt_json_get_str(o, "name");
		if (n && strcmp(n, name) == 0 && c && c->type == BT_JSON_NUMBER &&
		    c->u.num.value == cpu)
			return o;
	}
	return NULL;
}

const char *md_str(const struct bt_json *v, const char *k1, const char *k2)
{
	if (k1)
		v = bt_json_get(v, k1);
	if (k2)
		v = bt_json_get(v, k2);
	const char *s = bt_json_str(v);
	return s ? s : "";
}
