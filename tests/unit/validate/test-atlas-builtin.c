/* SPDX-License-Identifier: MIT */
/*
 * The atlas's built-in lists (validate/atlas-builtin.c, packed by
 * tools/gen-atlas) against the reference: the list bt_atlas_list_load
 * reads from the very file each was generated from (--events-file), field
 * by field, for every built-in part (skipped when ../shared/reference is
 * absent). Without the files, facts of the SDM's architectural events and
 * fixed counters (vol. 3B Tables 20-1, 20-2) that every Intel list spells
 * the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "metrics/load.h"
#include "validate/atlas-pack.h"
#include "validate/atlas.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/vector-walk.h"

static bool same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Every field of two lists' events: 0 when all are equal. */
static int compare(const char *model, const struct bt_atlas_list *ref,
		   const struct bt_atlas_list *got)
{
	int diffs = 0;
	CHECK_MSG(ref->n == got->n, "%s: %d events read, %d built in", model, ref->n, got->n);
	CHECK_MSG(same_str(ref->format, got->format), "%s: format", model);
	CHECK_MSG(same_str(ref->version, got->version), "%s: version %s, built in %s", model,
		  ref->version ? ref->version : "-", got->version ? got->version : "-");
	for (int i = 0; i < ref->n && i < got->n; i++) {
		const struct bt_atlas_event *a = &ref->v[i], *b = &got->v[i];
		const struct bt_event *x = &a->ev, *y = &b->ev;
#define FIELD(cond, what)                                                                  \
	if (!(cond)) {                                                                     \
		diffs++;                                                                   \
		CHECK_MSG(false, "%s: event %d %s: %s differs", model, i, a->name, what); \
	}
		FIELD(same_str(a->name, b->name), "name");
		FIELD(same_str(x->name, y->name), "ev.name");
		FIELD(a->deprecated == b->deprecated, "deprecated");
		FIELD(same_str(a->refused, b->refused), "refused");
		FIELD(x->source == y->source, "source");
		FIELD(x->flags == y->flags, "flags");
		FIELD(x->code == y->code, "code");
		FIELD(x->code2 == y->code2, "code2");
		FIELD(x->umask == y->umask, "umask");
		FIELD(x->umask_ext == y->umask_ext, "umask_ext");
		FIELD(x->cmask == y->cmask, "cmask");
		FIELD(x->fixed == y->fixed, "fixed");
		FIELD(x->pm_field == y->pm_field, "pm_field");
		FIELD(x->counters == y->counters, "counters");
		FIELD(x->counters_ht_off == y->counters_ht_off, "counters_ht_off");
		FIELD(x->msr_index == y->msr_index, "msr_index");
		FIELD(x->msr_value == y->msr_value, "msr_value");
#undef FIELD
		if (diffs > 20)
			break;
	}
	return diffs;
}

static const char *recipe_file(const char *model)
{
	for (unsigned i = 0; i < bt_model_recipe_count; i++)
		if (!strcmp(bt_model_recipes[i].id, model))
			return bt_model_recipes[i].events[0];
	return NULL;
}

TEST(builtin_lists_equal_the_files_read_by_the_events_file_reader)
{
	const char *ref = bt_reference_dir();
	if (!ref) {
		bt_test_skip("../shared/reference is absent: nothing to compare with");
		return;
	}
	struct bt_pmu_caps caps = { .kind = BT_PMU_INTEL_ARCH, .num_gp = 8, .fixed_mask = 0xF };
	CHECK(bt_atlas_pack_n_lists >= 1);
	for (unsigned i = 0; i < bt_atlas_pack_n_lists; i++) {
		const struct bt_atlas_pack_list *pl = &bt_atlas_pack_lists[i];
		/* the file is the model's recipe's, not the generator's say-so */
		const char *file = recipe_file(pl->model);
		CHECK_MSG(file && !strcmp(file, pl->file), "%s: built from %s, its recipe reads %s",
			  pl->model, pl->file, file ? file : "(no recipe)");
		if (!file)
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", ref, file);
		struct bt_atlas_list a, b;
		struct bt_diag d = { "" };
		CHECK_MSG(bt_atlas_list_load(path, &a, &d) == BT_OK, "%s", d.text);
		CHECK_MSG(bt_atlas_list_builtin(pl->model, &caps, &b, &d) == BT_OK, "%s", d.text);
		CHECK_EQ_INT(compare(pl->model, &a, &b), 0);
		/* the results name the source */
		char want[256];
		snprintf(want, sizeof(want), "built-in %s list, %d events, generated from perfmon "
			 "version %s", pl->list, a.n, a.version ? a.version : "");
		CHECK_MSG(b.file && !strncmp(b.file, want, strlen(want)), "%s: file says %s",
			  pl->model, b.file ? b.file : "(null)");
		bt_atlas_list_free(&a);
		bt_atlas_list_free(&b);
	}
}

static const struct bt_atlas_event *find(const struct bt_atlas_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

TEST(builtin_spr_list_spells_the_sdm_events)
{
	struct bt_pmu_caps caps = { .kind = BT_PMU_INTEL_ARCH, .num_gp = 8, .fixed_mask = 0xF };
	struct bt_atlas_list l;
	struct bt_diag d = { "" };
	CHECK_MSG(bt_atlas_list_builtin("SPR", &caps, &l, &d) == BT_OK, "%s", d.text);
	CHECK_MSG(l.n > 300, "SPR: %d events", l.n);
	CHECK(strstr(bt_atlas_builtin_parts(), "SPR") != NULL);
	/* SDM vol. 3B Table 20-2: fixed counters 0 and 1 */
	const struct bt_atlas_event *e = find(&l, "INST_RETIRED.ANY");
	CHECK(e && e->ev.fixed == 0 && !e->refused);
	e = find(&l, "CPU_CLK_UNHALTED.THREAD");
	CHECK(e && e->ev.fixed == 1 && !e->refused);
	/* Table 20-1: branch instructions retired C4H/00H, on general counters */
	e = find(&l, "BR_INST_RETIRED.ALL_BRANCHES");
	CHECK(e && e->ev.code == 0xC4 && e->ev.umask == 0x00 && e->ev.counters &&
	      e->ev.fixed == BT_EV_NO_FIXED && !e->refused);
	/* an OFFCORE_RESPONSE event: refused by name, with its MSR */
	int ocr = 0;
	for (int i = 0; i < l.n; i++)
		if (!strncmp(l.v[i].name, "OCR.", 4)) {
			ocr++;
			CHECK(l.v[i].ev.msr_index == 0x1A6 && l.v[i].refused &&
			      strstr(l.v[i].refused, "OFFCORE_RSP"));
		}
	CHECK(ocr > 0);
	bt_atlas_list_free(&l);
	/* a model without a built-in list: the architectural events */
	CHECK(bt_atlas_list_builtin("no-such-model", &caps, &l, &d) == BT_OK);
	CHECK(l.n > 0 && l.n < 20 && strstr(l.file, "architectural"));
	bt_atlas_list_free(&l);
}

/* --help says which parts have a built-in list: "the built-in Intel models
 * made from perfmon files (every one but TNT)"; the list is the generator's
 * (the atlas ranks of base/model-rows.h). Both must agree: every Intel
 * recipe has a list, and no other model does. */
TEST(help_names_the_builtin_parts)
{
	static const char *const names[] = { "atlas", NULL };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f != NULL);
	if (!f)
		return;
	bt_options_usage_only(f, names);
	fclose(f);
	/* the wrapped text as one line: runs of blanks and newlines as one space */
	char *w = buf;
	for (const char *p = buf; *p; p++)
		if (!((*p == ' ' || *p == '\n') && w > buf && w[-1] == ' '))
			*w++ = *p == '\n' ? ' ' : *p;
	*w = 0;
	const char *want = "for the built-in Intel models made from perfmon files (every one but TNT;";
	CHECK_MSG(strstr(buf, want) != NULL, "--atlas help does not say \"%s\": %s", want, buf);
	free(buf);
	/* the generated list: "SPR, SPR-HBM, ...", each an Intel recipe, all of them */
	char parts[512];
	snprintf(parts, sizeof(parts), "%s", bt_atlas_builtin_parts());
	unsigned listed = 0, intel = 0;
	for (char *save = NULL, *t = strtok_r(parts, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		const struct bt_model_recipe *r = bt_recipe_find(t);
		CHECK_MSG(r && !strcmp(r->vendor, "GenuineIntel"), "%s: no Intel recipe", t);
		listed++;
	}
	for (unsigned i = 0; i < bt_model_recipe_count; i++)
		intel += !strcmp(bt_model_recipes[i].vendor, "GenuineIntel");
	CHECK_MSG(listed == intel, "%u built-in lists, %u Intel recipes: %s", listed, intel,
		  bt_atlas_builtin_parts());
}
