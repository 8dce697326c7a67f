/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/out-check.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"

static char dir[64];

static const char *make(const char *name, const char *text)
{
	static char paths[16][128];
	static int k;
	char *p = paths[k++ % 16];
	snprintf(p, 128, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

static void teardown(void)
{
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/bt-out-check-XXXXXX");
	if (!mkdtemp(dir))
		abort();
}

/* Every kind of file baretop wrote or reads, as its writer or its vendor
 * spells it (the first bytes): refused, with the kind named; the same
 * bytes with the marker left out are an ordinary file, replaced. */
TEST(every_kind_of_baretop_file_is_refused_and_named)
{
	static const struct {
		const char *text, *kind;
	} k[] = {
		{ "{\"format\": \"baretop-results\", \"run\": {}}", "a baretop results file" },
		{ "# replayed counts from perf stat\n", "a file of replayed counts" },
		{ "{\"format\": \"baretop-atlas\"}", "an event atlas" },
		{ "{\"format\": \"baretop-validate-spec\", \"checks\": []}", "a validation spec" },
		{ "{\"model\": \"SKL\", \"counts\": {\"INST_RETIRED.ANY\": 1}}", "a count file" },
		{ "[{\"EventName\": \"ex_ret_brn\", \"EventCode\": \"0xc2\"}]", "an event list" },
		{ "[{\"MetricName\": \"IPC\", \"MetricExpr\": \"a / b\"}]", "a model's metrics file" },
	};
	struct bt_diag d = { "" };

	setup();
	for (size_t i = 0; i < BT_ARRAY_SIZE(k); i++) {
		const char *p = make("f.json", k[i].text);
		CHECK_EQ_INT(bt_output_check(p, NULL, &d), BT_ERR_INVALID);
		CHECK_MSG(strstr(d.text, k[i].kind) != NULL, "%s: got '%s'", k[i].kind, d.text);
		p = make("g.json", "{\"format\": \"something else\"}\n");
		CHECK_EQ_INT(bt_output_check(p, NULL, &d), BT_OK);
	}
	teardown();
}

TEST(an_input_a_folder_and_new_files)
{
	struct bt_diag d = { "" };
	char link[160], other[160];

	setup();
	const char *in = make("page.txt", "plain text\n");
	const char *inputs[] = { "unrelated", in, NULL };
	CHECK_EQ_INT(bt_output_check(in, inputs, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "this command also reads it") != NULL);
	/* another name for the same file: refused by device and inode */
	snprintf(link, sizeof(link), "%s/link.txt", dir);
	CHECK(symlink(in, link) == 0);
	CHECK_EQ_INT(bt_output_check(link, inputs, &d), BT_ERR_INVALID);
	/* the same file not among the inputs: an ordinary file, replaced */
	CHECK_EQ_INT(bt_output_check(in, NULL, &d), BT_OK);
	CHECK_EQ_INT(bt_output_check(dir, NULL, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "it is a folder") != NULL);
	snprintf(other, sizeof(other), "%s/new.json", dir);
	CHECK_EQ_INT(bt_output_check(other, inputs, &d), BT_OK);
	CHECK_EQ_INT(bt_output_check("-", inputs, &d), BT_OK);
	CHECK_EQ_INT(bt_output_check("", NULL, &d), BT_ERR_INVALID);
	teardown();
}
