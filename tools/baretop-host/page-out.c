/* SPDX-License-Identifier: MIT */
/* What `report` and `diff` share: page-out.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tools/baretop-host/page-out.h"

int bt_host_page_load(struct bt_arena *a, char *const *paths, size_t n, struct bt_page *p)
{
	struct bt_diag d = { "" };
	struct bt_results_doc *docs = bt_arena_alloc(a, (n + 1) * sizeof(*docs));
	size_t n_views = 0;
	memset(p, 0, sizeof(*p));
	if (!docs)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (bt_results_doc_load_any(a, paths[i], &docs[i], &d) != BT_OK) {
			fprintf(stderr, "baretop-host: %s\n", d.text);
			return -1;
		}
		n_views += docs[i].n_counted;
	}
	struct bt_view *views = bt_arena_alloc(a, (n_views + 1) * sizeof(*views));
	if (!views)
		return -1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!docs[i].n_counted)
			fprintf(stderr, "baretop-host: %s: no counted workload (%s)\n", paths[i],
				docs[i].not_counted_reason ? docs[i].not_counted_reason : "no counts in the file");
		for (size_t w = 0; w < docs[i].n_workloads; w++) {
			if (!docs[i].workloads[w].counted)
				continue;
			if (bt_view_build(a, &docs[i], &docs[i].workloads[w], &views[k], &d) != BT_OK) {
				fprintf(stderr, "baretop-host: %s\n", d.text);
				return -1;
			}
			k++;
		}
	}
	p->docs = docs;
	p->n_docs = n;
	p->views = views;
	p->n_views = k;
	return 0;
}

static int write_one(const char *cmd, const char *path, const struct bt_page *p, void (*render)(struct bt_strbuf *, const struct bt_page *))
{
	struct bt_strbuf sb = { 0 };
	render(&sb, p);
	if (sb.oom) {
		fprintf(stderr, "baretop-host: out of memory\n");
		bt_sb_free(&sb);
		return -1;
	}
	int rc = host_write_whole(cmd, path, sb.buf ? sb.buf : "", sb.n) ? 0 : -1;
	bt_sb_free(&sb);
	return rc;
}

int bt_host_page_write(const char *cmd, const struct bt_page *p, const char *text, const char *html, const char *csv)
{
	int rc = 0;
	if (text && write_one(cmd, text, p, bt_page_text) < 0)
		rc = -1;
	if (html && write_one(cmd, html, p, bt_page_html) < 0)
		rc = -1;
	if (csv && write_one(cmd, csv, p, bt_page_csv) < 0)
		rc = -1;
	return rc;
}

int bt_host_page_args(int argc, char **argv, int allow_diff, struct bt_page_args *o,
		      const struct host_cmd_args *cmd)
{
	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, cmd, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		switch (k) {
		case 0:
			o->text = v;
			break;
		case 1:
			o->html = v;
			break;
		case 2:
			o->csv = v;
			break;
		case 3:
			if (!allow_diff)
				return -1; /* not in diff's table: cannot happen */
			o->want_diff = 1;
			break;
		case HOST_ARGS_HELP:
			return 1;
		case HOST_ARGS_BAD:
			return -1;
		case HOST_ARGS_POSITIONAL:
			if (o->n_files == o->max_files) {
				host_usage_error(cmd, "too many files ('%s'): %zu at most", v, o->max_files);
				return -1;
			}
			o->files[o->n_files++] = (char *)v;
			break;
		default:
			return -1;
		}
	}
	if (!o->text && !o->html && !o->csv)
		o->text = "-";
	const char *outs[] = { o->text, o->html, o->csv };
	for (size_t i = 0; i < 3; i++)
		if (outs[i] && !host_output_ok(cmd->name, outs[i]))
			return -1;
	return 0;
}

int bt_host_page_diff(struct bt_arena *a, struct bt_page *p, struct bt_diff *df)
{
	size_t na = 0;
	while (na < p->n_views && p->views[na].doc == &p->docs[0])
		na++;
	if (bt_diff_build(a, p->views, na, p->views + na, p->n_views - na, df) != BT_OK)
		return -1;
	df->path_a = p->docs[0].path;
	df->path_b = p->docs[1].path;
	p->diff = df;
	return 0;
}
