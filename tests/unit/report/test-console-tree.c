/* SPDX-License-Identifier: MIT */
/*
 * The console tree: every line within 79 columns for every built-in model
 * (their deepest and longest node names, extreme values), names and
 * numbers never cut, long names of a model loaded at run time wrapped;
 * which rows are highlighted; the level-1 bars.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "base/array.h"
#include "report/text-fit.h"
#include "report/tree.h"
#include "tests/unit/lib/test.h"

/* Lines longer than BT_CONSOLE_COLS columns (markers of the recording
 * styler below, bytes < 0x08, take no column). */
static int long_lines(const char *text, size_t *worst)
{
	int n = 0;
	size_t cols = 0;

	*worst = 0;
	for (const unsigned char *p = (const unsigned char *)text;; p++) {
		if (*p == '\n' || !*p) {
			if (cols > BT_CONSOLE_COLS)
				n++;
			if (cols > *worst)
				*worst = cols;
			cols = 0;
			if (!*p)
				break;
		} else if (*p >= 0x08 && (*p & 0xc0) != 0x80) {
			cols++;
		}
	}
	return n;
}

static char *render(const struct bt_model *m, const struct bt_result *r,
		    const struct bt_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(bt_report_text(f, m, r, o) == BT_OK);
	fclose(f);
	return buf;
}

/* The bottleneck path down the first child at each level, every node
 * flagged: every row has a mark, the longest tail. */
static void fill(const struct bt_model *m, struct bt_result *r, double value)
{
	unsigned nn = bt_model_node_count(m);

	for (unsigned i = 0; i < nn; i++) {
		r->value[i] = value;
		r->state[i] = BT_NODE_OK;
		r->flag[i] = 1;
		r->has_flag[i] = 1;
		r->cpi_share[i] = 123.4567; /* a CPI share of a very slow workload */
	}
	r->cpi = 321.0;
	const uint16_t *roots;
	unsigned n = bt_model_roots(m, &roots), at = n ? roots[0] : 0;
	r->path_len = 0;
	while (n && r->path_len < BT_PATH_MAX) {
		r->path[r->path_len++] = (uint16_t)at;
		const uint16_t *kids;
		n = bt_model_node_children(m, at, &kids);
		if (n)
			at = kids[0];
	}
}

TEST(every_model_fits_79_columns)
{
	/* 100 %, a value beyond any sane fraction, negative, n/a */
	static const double values[] = { 1.0, 12345.678, -0.75, NAN };
	int models = 0, rows = 0;

	for (unsigned k = 0; k < bt_builtin_model_count; k++) {
		struct bt_diag d = { "" };
		struct bt_model *m;

		CHECK_MSG(bt_model_open(bt_builtin_models[k], &m, &d) == BT_OK, "%s", d.text);
		struct bt_result *r = bt_result_new(m);
		for (size_t v = 0; v < BT_ARRAY_SIZE(values); v++) {
			fill(m, r, values[v]);
			struct bt_report_opts o = {
				.info = 1,
				.input_label = "SIMULATED PMU (Intel(R) Core(TM) i7-6700K) on CPU 0, "
					       "counts of each built-in workload's model: not measured "
					       "on hardware",
			};
			char *text = render(m, r, &o);
			size_t worst;
			CHECK_MSG(long_lines(text, &worst) == 0, "%s, value %g: a line of %zu columns",
				  bt_builtin_models[k]->id, values[v], worst);
			/* every tree node's name is there whole, on a line of its own
			 * or its row: names are never cut */
			for (unsigned i = 0; i < bt_model_node_count(m); i++) {
				const char *name = bt_model_node(m, i)->name;
				char *at = strstr(text, name);
				CHECK_MSG(at != NULL, "%s: %s not in the tree", bt_builtin_models[k]->id,
					  name);
			}
			/* at 100 %, every built-in node's row holds its name and its
			 * value on one line: no built-in name needs wrapping */
			for (unsigned i = 0; values[v] == 1.0 && i < bt_model_node_count(m); i++) {
				const struct bt_node_def *nd = bt_model_node(m, i);
				char row[160];

				if (nd->kind != BT_NODE_TREE)
					continue;
				/* indented by depth in the tree, which is not always
				 * level - 1 (SKX: Serializing_Operation, level 3,
				 * is a child of a level-4 node) */
				int depth = 0;
				for (const struct bt_node_def *a = nd; a->parent && depth < 16; depth++)
					a = bt_model_node(m, (unsigned)bt_model_node_find(m, a->parent));
				snprintf(row, sizeof(row), "\n  %-5u %*s%s ", nd->level, 2 * depth, "",
					 nd->name);
				const char *at = strstr(text, row);
				const char *eol = at ? strchr(at + 1, '\n') : NULL;
				const char *val = at ? strstr(at, "100.00%") : NULL;
				CHECK_MSG(at && eol && val && val < eol, "%s: %s not on one row",
					  bt_builtin_models[k]->id, nd->name);
				rows += at && eol && val && val < eol;
			}
			/* numbers whole */
			if (values[v] == 1.0)
				CHECK(strstr(text, "100.00%") && strstr(text, "123.4567"));
			if (values[v] > 100)
				CHECK(strstr(text, "1.235e+06%") != NULL);
			free(text);
		}
		bt_result_free(r);
		bt_model_close(m);
		models++;
	}
	CHECK(models >= 20);
	printf("# %d models, %d node rows each on one line within %d columns\n", models, rows,
	       BT_CONSOLE_COLS);
}

/* A checker that cannot fail proves nothing: the old layout (46-column
 * names, 10-column values) made 81-column rows. */
TEST(width_check_sees_a_wide_line)
{
	size_t worst;
	char line[100];

	snprintf(line, sizeof(line), "  %-5u %-46s %10s  %-3s  %9s\n", 1u, "Frontend_Bound", "12.34%",
		 "<==", "0.1234");
	CHECK_EQ_INT(long_lines(line, &worst), 1);
	CHECK_EQ_INT(worst, 81);
}

/* A model as vendor files loaded at run time could give it: names longer
 * than the name column, one longer than a whole line. */
static const struct bt_node_def long_nodes[] = {
	{ .name = "Frontend_Bound", .formula = "0.25",
	  .kind = BT_NODE_TREE, .level = 1 },
	{ .name = "Frontend_Bound.Fetch_Latency.ICache_Misses_With_A_Long_Vendor_Name",
	  .parent = "Frontend_Bound", .formula = "0.125",
	  .kind = BT_NODE_TREE, .level = 2 },
	{ .name = "Frontend_Bound.Fetch_Latency.ICache_Misses.Of_A_Name_Longer_Than_The_Whole_"
		  "Console_Line_Is_Wide",
	  .parent = "Frontend_Bound", .formula = "0.0625", .kind = BT_NODE_TREE, .level = 2 },
	{ .name = "Backend_Bound", .formula = "0.75", .kind = BT_NODE_TREE, .level = 1 },
};

static const struct bt_model_def long_def = {
	.id = "LONG", .vendor = "GenuineIntel", .uarch = "test", .source = "hand-written",
	.pipeline_width = 4, .n_nodes = 4, .nodes = long_nodes,
};

TEST(long_names_wrap_and_numbers_stay_whole)
{
	struct bt_diag d = { "" };
	struct bt_model *m;

	bt_status st = bt_model_open(&long_def, &m, &d);
	CHECK_MSG(st == BT_OK, "%s", d.text);
	if (st != BT_OK)
		return;
	struct bt_counts *c = bt_counts_new(m);
	struct bt_result *r = bt_result_new(m);
	CHECK(bt_evaluate(m, c, r) == BT_OK);
	struct bt_report_opts o = { 0 };
	char *text = render(m, r, &o);
	size_t worst;
	CHECK_MSG(long_lines(text, &worst) == 0, "a line of %zu columns:\n%s", worst, text);
	/* the long name on a line of its own, its numbers on the next */
	const char *at = strstr(text, "ICache_Misses_With_A_Long_Vendor_Name");
	CHECK(at != NULL);
	const char *eol = at ? strchr(at, '\n') : NULL;
	CHECK(eol && eol[-1] == 'e');
	CHECK(eol && strstr(eol, "12.50%") && strstr(eol, "12.50%") < strchr(eol + 1, '\n'));
	/* the longest one abbreviated in its middle, its start and end kept */
	CHECK(strstr(text, "Frontend_Bound.Fetch_Lat") && strstr(text, "..") &&
	      strstr(text, "Console_Line_Is_Wide"));
	CHECK(strstr(text, "6.25%") != NULL);
	free(text);
	bt_result_free(r);
	bt_counts_free(c);
	bt_model_close(m);
}

/* A styler that writes a marker byte per style into the text. */
static void mark_style(void *ctx, FILE *f, enum bt_text_style s)
{
	(void)ctx;
	fputc(1 + (int)s, f);
}

/* The style in force on the row that holds `name`, and that it is reset
 * before the row's end. */
static int style_of_row(const char *text, const char *name, int *reset)
{
	const char *at = strstr(text, name);
	int style = 1 + BT_STYLE_NORMAL;

	*reset = 0;
	if (!at)
		return -1;
	const char *bol = at;
	while (bol > text && bol[-1] != '\n')
		bol--;
	for (const char *p = bol; p < at; p++)
		if (*p >= 1 && *p <= 7)
			style = *p;
	const char *eol = strchr(at, '\n');
	*reset = eol && eol[-1] == 1 + BT_STYLE_NORMAL;
	return style;
}

TEST(highlighting_follows_flags_and_path)
{
	struct bt_diag d = { "" };
	struct bt_model *m;

	CHECK(bt_model_open(bt_builtin_find("SKL"), &m, &d) == BT_OK);
	struct bt_result *r = bt_result_new(m);
	fill(m, r, 0.5);
	/* flagged: Backend_Bound (path) and Retiring; not: the others */
	for (unsigned i = 0; i < bt_model_node_count(m); i++)
		r->flag[i] = 0;
	unsigned be = (unsigned)bt_model_node_find(m, "Backend_Bound");
	unsigned mb = (unsigned)bt_model_node_find(m, "Memory_Bound");
	unsigned ret = (unsigned)bt_model_node_find(m, "Retiring");
	unsigned fe = (unsigned)bt_model_node_find(m, "Frontend_Bound");
	r->flag[be] = r->flag[mb] = r->flag[ret] = 1;
	r->path[0] = (uint16_t)be;
	r->path[1] = (uint16_t)mb;
	r->path_len = 2;
	CHECK_EQ_INT(bt_tree_node_style(r, be), BT_STYLE_PATH);
	CHECK_EQ_INT(bt_tree_node_style(r, ret), BT_STYLE_FLAGGED);
	CHECK_EQ_INT(bt_tree_node_style(r, fe), BT_STYLE_NORMAL);

	struct bt_text_styler sty = { .set = mark_style };
	struct bt_report_opts o = { .styler = &sty };
	char *text = render(m, r, &o);
	int reset;
	/* the table rows ("  1     Name"), then the bars ("  Name   ###") */
	CHECK_EQ_INT(style_of_row(text, "  1     Backend_Bound ", &reset), 1 + BT_STYLE_PATH);
	CHECK(reset);
	CHECK_EQ_INT(style_of_row(text, "  2       Memory_Bound ", &reset), 1 + BT_STYLE_PATH);
	CHECK(reset);
	CHECK_EQ_INT(style_of_row(text, "  1     Retiring ", &reset), 1 + BT_STYLE_FLAGGED);
	CHECK(reset);
	CHECK_EQ_INT(style_of_row(text, "  1     Frontend_Bound ", &reset), 1 + BT_STYLE_NORMAL);
	CHECK_EQ_INT(style_of_row(text, "  2       Core_Bound ", &reset), 1 + BT_STYLE_NORMAL);
	CHECK_EQ_INT(style_of_row(text, "  Backend_Bound        #", &reset), 1 + BT_STYLE_PATH);
	CHECK_EQ_INT(style_of_row(text, "  Retiring             #", &reset), 1 + BT_STYLE_FLAGGED);
	CHECK_EQ_INT(style_of_row(text, "  Frontend_Bound       #", &reset), 1 + BT_STYLE_NORMAL);
	/* no styler: not one marker */
	free(text);
	o.styler = NULL;
	text = render(m, r, &o);
	for (const char *p = text; *p; p++)
		CHECK_MSG(*p >= 8 || *p == '\n' || *p == '\t', "a control byte %d", *p);
	free(text);
	bt_result_free(r);
	bt_model_close(m);
}

TEST(level1_bars)
{
	char bar[BT_BAR_CELLS * 3 + 1];

	bt_bar_text(bar, sizeof(bar), 0.5, 40, false);
	CHECK_STR(bar, "####################....................");
	bt_bar_text(bar, sizeof(bar), 0.0125, 40, false); /* half a cell rounds up */
	CHECK_EQ_INT(strspn(bar, "#"), 1);
	bt_bar_text(bar, sizeof(bar), 1.7, 40, false);
	CHECK_EQ_INT(strspn(bar, "#"), 40);
	bt_bar_text(bar, sizeof(bar), -0.3, 40, false);
	CHECK_EQ_INT(strspn(bar, "."), 40);
	bt_bar_text(bar, sizeof(bar), NAN, 40, false);
	CHECK_EQ_INT(strspn(bar, "."), 40);
	bt_bar_text(bar, sizeof(bar), 0.25, 40, true);
	CHECK_EQ_INT(strlen(bar), 120);
	CHECK_EQ_INT(bt_text_cols(bar), 40);
	CHECK(memcmp(bar, "\xe2\x96\x88", 3) == 0);              /* U+2588 FULL BLOCK */
	CHECK(memcmp(bar + 10 * 3, "\xe2\x96\x91", 3) == 0);     /* U+2591 LIGHT SHADE */
	CHECK(memcmp(bar + 9 * 3, "\xe2\x96\x88", 3) == 0);
	/* a small buffer: whole characters only */
	char small[8];
	bt_bar_text(small, sizeof(small), 1, 40, true);
	CHECK_EQ_INT(strlen(small), 6);
}

TEST(wrap_keeps_words_whole)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	bt_text_wrap(f, 20, "a: ", "   ", "one two three four five six \\EFI\\BOOT\\a-very-long-path.json");
	fclose(f);
	CHECK_STR(buf, "a: one two three\n   four five six\n   \\EFI\\BOOT\\a-very-long-path.json\n");
	free(buf);
}
