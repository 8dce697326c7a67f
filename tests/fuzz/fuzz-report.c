/* SPDX-License-Identifier: MIT */
/* libFuzzer: a results document read back (analysis/results-read.h), its
 * views, a diff with itself and the three report formats. The HTML page
 * never holds a tag a string from the file could have opened. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/page.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_arena a;
	struct bt_diag d;
	struct bt_json *root;
	struct bt_results_doc doc;
	bt_arena_init(&a);
	if (bt_json_parse(&a, (const char *)data, size, "fuzz", &root, &d) != BT_OK ||
	    bt_results_doc_from_json_any(&a, "fuzz<&>\"", root, &doc, &d) != BT_OK)
		goto out;
	struct bt_view *v = bt_arena_alloc(&a, (doc.n_counted + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; v && i < doc.n_workloads; i++)
		if (doc.workloads[i].counted && bt_view_build(&a, &doc, &doc.workloads[i], &v[n], &d) == BT_OK)
			n++;
	struct bt_diff df;
	if (!v || bt_diff_build(&a, v, n, v, n, &df) != BT_OK)
		goto out;
	struct bt_page p = { .docs = &doc, .n_docs = 1, .views = v, .n_views = n };
	struct bt_strbuf html = { 0 }, text = { 0 }, csv = { 0 };
	bt_page_html(&html, &p);
	bt_page_text(&text, &p);
	bt_page_csv(&csv, &p);
	p.diff = &df;
	bt_page_html(&html, &p);
	bt_page_csv(&csv, &p);
	/* the page has no script, image or frame of its own: any is the file's */
	const char *h = bt_sb_str(&html);
	if (!html.oom && (strstr(h, "<script") || strstr(h, "<img") || strstr(h, "<iframe")))
		abort();
	bt_sb_free(&html);
	bt_sb_free(&text);
	bt_sb_free(&csv);
out:
	bt_arena_free(&a);
	return 0;
}
