/* SPDX-License-Identifier: MIT */
/*
 * The simulated PMU of one run (synth/sim-run.h): names it knows and
 * refuses, defects and miscounts as notes and errors, and the count
 * sources it attaches to the simulated PMU -- each one its own, replaced by
 * the next use, none left behind (the sim's attach/detach pair).
 */
#include <string.h>

#include "arch/sim/sim.h"
#include "kernels/kernel.h"
#include "metrics/builtin.h"
#include "metrics/model.h"
#include "synth/sim-run.h"
#include "tests/unit/lib/test.h"

static struct bt_sim *sim_of(struct bt_synth *s)
{
	return bt_synth_arch(s)->ctx;
}

TEST(names_known_and_unknown)
{
	struct bt_diag d = { "" };

	CHECK(bt_synth_known("SKL", &d));
	CHECK(bt_synth_known("skl", &d));
	CHECK(bt_synth_known("zen4", &d));
	CHECK(!bt_synth_known("no-such-cpu", &d));
	CHECK(strstr(d.text, "no-such-cpu") != NULL);

	struct bt_synth *s = NULL;
	struct bt_synth_opts o = { .name = "no-such-cpu" };
	CHECK(bt_synth_new(&o, &s, &d) == BT_ERR_INVALID);
	CHECK(s == NULL);
	o = (struct bt_synth_opts){ .name = "skl", .defects = "no-such-defect" };
	CHECK(bt_synth_new(&o, &s, &d) == BT_ERR_INVALID);
	CHECK(s == NULL);
	/* A legacy AMD PMU (no PerfMonV2) has no global status or enable
	 * register: a defect of either cannot apply and is refused; Zen 4's
	 * PerfMonV2 and every Intel preset (version >= 2) have both. */
	static const char *const glob[] = { "no-overflow-bit:1", "global-ignored" };
	for (int k = 0; k < 2; k++) {
		o = (struct bt_synth_opts){ .name = "zen2", .defects = glob[k] };
		d.text[0] = 0;
		CHECK(bt_synth_new(&o, &s, &d) == BT_ERR_INVALID);
		CHECK(s == NULL && strstr(d.text, "cannot apply") && strstr(d.text, "no PerfMonV2"));
		o = (struct bt_synth_opts){ .name = "amd-legacy", .defects = glob[k] };
		CHECK(bt_synth_new(&o, &s, &d) == BT_ERR_INVALID);
		o = (struct bt_synth_opts){ .name = "zen4", .defects = glob[k] };
		CHECK(bt_synth_new(&o, &s, &d) == BT_OK);
		bt_synth_free(s);
		s = NULL;
		o = (struct bt_synth_opts){ .name = "core2", .defects = glob[k] };
		CHECK(bt_synth_new(&o, &s, &d) == BT_OK);
		bt_synth_free(s);
		s = NULL;
	}
}

TEST(defects_are_a_note)
{
	struct bt_diag d = { "" };
	struct bt_synth *s = NULL;
	struct bt_synth_opts o = { .name = "icl", .defects = "stuck-counter:1" };

	CHECK(bt_synth_new(&o, &s, &d) == BT_OK);
	CHECK(bt_synth_note(s, 0) && strstr(bt_synth_note(s, 0), "--sim-defect stuck-counter:1"));
	CHECK(bt_synth_note(s, 1) == NULL);
	CHECK_STR(bt_synth_cpu(s)->name, "icl");
	CHECK(bt_synth_cpu(s)->defects.mask == BT_SIM_DEFECT_STUCK_COUNTER);
	CHECK(sim_of(s)->source == NULL);
	bt_synth_free(s);
}

/* A model's events with generated counts, then --sim-miscount: stuck=N
 * replaces the event's count (seen through the attached source); an event
 * the model does not have is an error naming it and the model. */
static bt_status with_miscount(const char *miscount, uint64_t *inst, struct bt_diag *d)
{
	struct bt_model *m;
	struct bt_synth *s = NULL;
	struct bt_synth_opts o = { .name = "SKL", .miscount = miscount };

	if (bt_model_open(bt_builtin_find("SKL"), &m, d) != BT_OK)
		return BT_ERR_INTERNAL;
	unsigned n = bt_model_event_count(m);
	const struct bt_event *evp[512];
	for (unsigned i = 0; i < n && i < 512; i++)
		evp[i] = bt_model_event(m, i);
	bt_status st = n <= 512 ? bt_synth_new(&o, &s, d) : BT_ERR_INTERNAL;
	if (st == BT_OK)
		st = bt_synth_set_events(s, evp, n, "SKL");
	if (st == BT_OK)
		st = bt_synth_use_generated(s, d);
	if (st == BT_OK) {
		bt_synth_attach(s, NULL);
		const struct bt_sim_source *src = sim_of(s)->source;
		for (size_t k = 0; src && k < src->n; k++)
			if (src->entries[k].ev.name &&
			    !strcmp(src->entries[k].ev.name, "INST_RETIRED.ANY"))
				*inst = src->entries[k].count;
		/* The note is said once, per run. */
		if (!bt_synth_note(s, 0) || !strstr(bt_synth_note(s, 0), "miscounts on purpose"))
			st = BT_ERR_INTERNAL;
	}
	bt_synth_free(s);
	bt_model_close(m);
	return st;
}

TEST(miscount)
{
	struct bt_diag d = { "" };
	uint64_t inst = 0;

	CHECK(with_miscount("INST_RETIRED.ANY:stuck=12345", &inst, &d) == BT_OK);
	CHECK_EQ_U64(inst, 12345);
	CHECK(with_miscount("NO_SUCH.EVENT:scale=2", &inst, &d) != BT_OK);
	CHECK(strstr(d.text, "NO_SUCH.EVENT") && strstr(d.text, "SKL"));
	CHECK(with_miscount("INST_RETIRED.ANY:halve", &inst, &d) != BT_OK);
	CHECK(strstr(d.text, "EVENT:scale=X|stuck=N|swap=OTHER") != NULL);
}

/* --validate: a kernel's window counts its own source, kernel `empty`
 * the calibration source; the conformance window replaces both. Every
 * source attached is the synth object's own. */
TEST(kernel_and_conformance_sources)
{
	struct bt_diag d = { "" };
	struct bt_synth *s = NULL;
	struct bt_synth_opts o = { .name = "skl" };
	const struct bt_kernel *loop = bt_kernel_find("loop-dec-jnz");
	const struct bt_kernel *empty = bt_kernel_find("empty");

	CHECK(loop && empty);
	if (!loop || !empty)
		return;
	CHECK(bt_synth_new(&o, &s, &d) == BT_OK);
	struct bt_sim *sim = sim_of(s);

	bt_synth_count_kernel(s, loop, 1000);
	CHECK(sim->source && sim->source->body == loop->run && sim->source->n > 0);
	CHECK(sim->source_alt && sim->source_alt->body == empty->run);
	uint64_t inst = 0;
	for (size_t k = 0; k < sim->source->n; k++)
		if (sim->source->entries[k].ev.fixed == 0)
			inst = sim->source->entries[k].count;
	int64_t declared = 0;
	CHECK(bt_kernel_count(loop, BT_KC_INSTRUCTIONS, 1000, &declared));
	CHECK_EQ_U64(inst, (uint64_t)declared);

	bt_synth_count_kernel(s, empty, 1);
	CHECK(sim->source && sim->source->body == empty->run);
	CHECK(sim->source_alt == NULL);

	bt_synth_count_conformance(s, 2000);
	CHECK(sim->source && sim->source->body == loop->run);
	CHECK(sim->source_alt == NULL);
	bt_synth_free(s);
}

TEST(sim_attach_detach)
{
	struct bt_sim sim;
	struct bt_sim_count c[1] = { { .count = 7 } };
	struct bt_sim_source a = { .entries = c, .n = 1 }, b = { .entries = c, .n = 1 };

	memset(&sim, 0, sizeof(sim));
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	bt_sim_attach_sources(&sim, &a, &b);
	CHECK(sim.source == &a && sim.source_alt == &b);
	bt_sim_set_source(&sim, &b);
	CHECK(sim.source == &b && sim.source_alt == &b);
	bt_sim_detach_sources(&sim);
	CHECK(sim.source == NULL && sim.source_alt == NULL);
	bt_sim_attach_sources(&sim, &a, NULL);
	bt_sim_free(&sim);
	CHECK(sim.source == NULL && sim.source_alt == NULL);
}
