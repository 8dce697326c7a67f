/* SPDX-License-Identifier: MIT */
/*
 * Events that need more than a selector: PEBS-only and load-latency events,
 * OFFCORE_RESPONSE pairing, MSR_PEBS_FRONTEND bits, PERF_METRICS fields.
 * The simulated PMU decides from its own tables (arch/sim/sim-tables.c) what an encoding counts.
 */
#include "pmu/event-encode.h"
#include "base/array.h"
#include "pmu/pmu-caps.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_sim sim;
static struct bt_plan plan;
static struct bt_plan_scratch scratch;

static struct bt_pmu_caps caps_of(const char *preset)
{
	struct bt_pmu_caps caps;
	bt_sim_init(&sim, bt_sim_preset(preset));
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	return caps;
}

static bool plan_valid(const struct bt_event *ev, int n, const struct bt_pmu_caps *caps)
{
	static const struct bt_event *evp[FX_MAX];
	struct bt_diag d;
	fx_ptrs(ev, n, evp);
	if (bt_plan_events(evp, n, caps, NULL, &scratch, &plan) != BT_OK)
		return false;
	bool ok = bt_plan_validate(&plan, evp, n, caps, NULL, &scratch, &d) == BT_OK;
	CHECK_MSG(ok, "invalid plan: %s", d.text);
	return ok;
}

/* ------------------------------------------ PEBS-only and load-latency events */

/* SDM vol. 3B "Load Latency Performance Monitoring Facility": the facility
 * needs PEBS_EN (and LL_EN) in IA32_PEBS_ENABLE; baretop counts without
 * PEBS, so such events are reported unmeasurable, with the reason. */
TEST(pebs_only_and_load_latency_events_are_unmeasurable_with_the_reason)
{
	struct bt_pmu_caps skl = caps_of("skl");
	struct bt_event ev[4];
	ev[0] = fx_ldlat_event();
	/* SKL JSON: INST_RETIRED.PREC_DIST "PEBS": "2" */
	ev[1] = fx_gp("INST_RETIRED.PREC_DIST", 0xC0, 0x01, 0, 0x2);
	ev[1].flags = BT_EVF_PEBS_ONLY;
	ev[2] = fx_gp("UOPS_ISSUED.ANY", 0x0E, 0x01, 0, 0xF);
	ev[3] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0x00, 0, 0);
	ev[3].flags = BT_EVF_PEBS_ONLY; /* not even on a fixed counter */
	CHECK(plan_valid(ev, 4, &skl));
	CHECK_EQ_INT(plan.ev[0].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[0].reason, "IA32_PEBS_ENABLE"), "%s", plan.ev[0].reason);
	CHECK_EQ_INT(plan.ev[1].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[1].reason, "PEBS-only"), "%s", plan.ev[1].reason);
	CHECK_EQ_INT(plan.ev[2].place, BT_PLACE_GP);
	CHECK_EQ_INT(plan.ev[3].place, BT_PLACE_UNMEASURABLE);
	CHECK_EQ_INT(plan.n_groups, 1);
	CHECK_EQ_INT(plan.lower_bound, 1);
	/* Raw events: ldlat= parses (3..65535) but is unmeasurable. */
	struct bt_raw_event r;
	struct bt_diag d;
	CHECK(bt_event_parse("cpu/event=0xcd,umask=0x1,ldlat=3/", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	struct bt_encoding enc;
	CHECK(bt_event_encode_gp(&r.ev, &skl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "PEBS") != NULL);
	CHECK(bt_event_parse("cpu/event=0xcd,umask=0x1,ldlat=2/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "minimum is 3"), "%s", d.text);
}

/* What the sim does with a load-latency selector: nothing until PEBS is
 * armed for the counter (v4: PEBS_EN_PMC0 and LL_EN_PMC0, i.e.
 * 0x00000001_00000001; v5+: PEBS_EN_PMC0). */
static uint64_t ldlat_count(const char *preset, uint64_t pebs_enable)
{
	struct bt_event e = fx_ldlat_event();
	struct bt_sim_count src[1] = { { e, 12345 } };
	struct bt_sim_source source = { src, 1, 0, NULL };
	CHECK(bt_sim_init(&sim, bt_sim_preset(preset)) == BT_OK);
	bt_sim_set_source(&sim, &source);
	struct bt_arch *a = &sim.arch;
	uint64_t before, after;
	CHECK(bt_wrmsr(a, 0x38F, 0) == BT_OK);
	CHECK(bt_wrmsr(a, 0x3F6, 4) == BT_OK);                /* MSR_PEBS_LD_LAT */
	CHECK(bt_wrmsr(a, 0x3F1, pebs_enable) == BT_OK);      /* IA32_PEBS_ENABLE */
	CHECK(bt_wrmsr(a, 0x186, 0x4301CD) == BT_OK);         /* EN|OS|USR, 0x01CD */
	CHECK(bt_rdmsr(a, 0xC1, &before) == BT_OK);
	CHECK(a->ops->run_window(a, 0x38F, 1, 0, NULL, NULL) == BT_OK);
	CHECK(bt_rdmsr(a, 0xC1, &after) == BT_OK);
	bt_sim_free(&sim);
	return after - before;
}

TEST(sim_counts_load_latency_only_with_pebs_armed)
{
	CHECK_EQ_U64(ldlat_count("skl", 0), 0);
	CHECK_EQ_U64(ldlat_count("skl", 0x1), 0);             /* LL_EN missing (v4) */
	CHECK_EQ_U64(ldlat_count("skl", 0x100000001ull), 12345);
	CHECK_EQ_U64(ldlat_count("icl", 0), 0);
	CHECK_EQ_U64(ldlat_count("icl", 0x1), 12345);         /* v5: PEBS_EN_PMC0 */
}

/* ---------------------------------------------------- OFFCORE_RESPONSE pairing */

TEST(parser_takes_the_offcore_msr_from_the_code)
{
	struct bt_raw_event r;
	struct bt_diag d;
	const struct { const char *s; uint16_t msr; } ok[] = {
		{ "cpu/event=0xb7,umask=0x1,offcore_rsp=0x10001/", 0x1A6 },
		{ "cpu/offcore_rsp=0x10001,event=0xbb,umask=0x1/", 0x1A7 },
		{ "cpu/event=0x2a,umask=0x1,offcore_rsp=0x10001/", 0x1A6 },
		{ "cpu/event=0x2b,umask=0x1,offcore_rsp=0x10001/", 0x1A7 },
		{ "cpu/event=0xb7,umask=0x2,offcore_rsp=0x10001/", 0x1A7 },   /* Atom */
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(ok); i++) {
		CHECK_MSG(bt_event_parse(ok[i].s, BT_VENDOR_INTEL, &r, &d) == BT_OK,
			  "%s: %s", ok[i].s, d.text);
		CHECK_MSG(r.ev.msr_index == ok[i].msr, "%s: 0x%X", ok[i].s, r.ev.msr_index);
	}
	CHECK(bt_event_parse("cpu/event=0x3c,offcore_rsp=0x10001/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "OFFCORE_RESPONSE") != NULL);
}

/* On Skylake, event 0xBB counts against OFFCORE_RSP_1 (Linux extra_regs
 * 0x01bb -> MSR_OFFCORE_RSP_1). A raw 0xBB event is measured exactly; an
 * event whose data claims 0xBB uses OFFCORE_RSP_0 is refused. */
TEST(offcore_rsp_1_event_measured_through_the_msr_its_code_selects)
{
	struct bt_event ev[2];
	struct bt_raw_event r;
	struct bt_diag d;
	CHECK(bt_event_parse("cpu/event=0xbb,umask=0x1,offcore_rsp=0x3fffc00004,"
			     "name=OFFCORE_RESPONSE_1.X/", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	ev[0] = r.ev;
	ev[1] = fx_fixed("INST_RETIRED.ANY", 0xC0, 0x00, 0, 0);
	struct fx_outcome o = fx_measure(&sim, bt_sim_preset("skl"), ev, 2, NULL);
	CHECK_MSG(fx_clean(&o) && o.measured == 2 && o.unmeasured == 0, "%s | %s", o.msg, o.reason);
	CHECK(bt_sim_log_find(&sim, 0, BT_SIM_WRMSR, 0x1A7) >= 0);
	bt_sim_free(&sim);

	struct bt_pmu_caps skl = caps_of("skl");
	struct bt_event bad = fx_msr(fx_gp("BAD", 0xBB, 0x01, 0, 0xF), 0x1A6, 0x10001, 0);
	struct bt_encoding enc;
	CHECK(bt_event_encode_gp(&bad, &skl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "declares MSR 0x1A6") && strstr(d.text, "0x1A7"), "%s", d.text);
}

/* Atom cores pair by umask (Gracemont/Skymont JSON: EventCode 0xB7, UMask
 * "0x01,0x02"), Golden Cove and later by code (0x2A/0x2B): with three OCR
 * values both MSRs are used, through the right encoding, exactly. */
TEST(offcore_pairs_of_atom_and_golden_cove_cores)
{
	const struct { const char *preset; uint32_t alt_sel; } cases[] = {
		{ "adl-e", 0x02B7 }, { "spr", 0x012B }, { "lnl-p", 0x012B },
	};
	for (size_t k = 0; k < BT_ARRAY_SIZE(cases); k++) {
		static struct bt_event ev[FX_MAX];
		const struct bt_sim_config *c = bt_sim_preset(cases[k].preset);
		int n = fx_set_for(c, ev);
		struct fx_outcome o = fx_measure(&sim, c, ev, n, NULL);
		CHECK_MSG(fx_clean(&o) && o.unmeasured == 0, "%s: %s | %s", cases[k].preset, o.msg,
			  o.reason);
		bool alt = false, rsp1 = false;
		for (size_t i = 0; i < sim.log_len; i++) {
			const struct bt_sim_log_entry *l = &sim.log[i];
			if (l->op != BT_SIM_WRMSR)
				continue;
			alt |= (l->index == 0x186 || l->index == 0x187 || l->index == 0x188 ||
				l->index == 0x189 || (l->index >= 0x1901 && l->index % 4 == 1)) &&
			       (l->value & 0xFFFF) == cases[k].alt_sel;
			rsp1 |= l->index == 0x1A7 && (l->value == 0x10001 || l->value == 0x3FFFC00002ull ||
						     l->value == 0x3FFFC00001ull);
		}
		CHECK_MSG(alt && rsp1, "%s: alternative encoding 0x%X used %d, RSP_1 programmed %d",
			  cases[k].preset, cases[k].alt_sel, alt, rsp1);
		bt_sim_free(&sim);
	}
}

TEST(offcore_events_the_core_does_not_have_are_unmeasurable)
{
	struct bt_event ev[1];
	/* Nehalem: no OFFCORE_RSP_1, so no 0xBB. */
	struct bt_pmu_caps nhm = caps_of("nhm");
	ev[0] = fx_msr(fx_gp("OFFCORE_RESPONSE_1.X", 0xBB, 0x01, 0, 0xF), 0x1A7, 0x10001, 0);
	CHECK(plan_valid(ev, 1, &nhm));
	CHECK_EQ_INT(plan.ev[0].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[0].reason, "Nehalem"), "%s", plan.ev[0].reason);
	/* A model without a verified table: refused, not guessed. */
	struct bt_pmu_caps unk = caps_of("skl");
	unk.uarch = BT_UARCH_UNKNOWN;
	ev[0] = fx_msr(fx_gp("OCR.X", 0xB7, 0x01, 0, 0xF), 0x1A6, 0x10001, 0xBB);
	CHECK(plan_valid(ev, 1, &unk));
	CHECK_EQ_INT(plan.ev[0].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[0].reason, "not known"), "%s", plan.ev[0].reason);
}

/* ---------------------------------------------------- MSR_PEBS_FRONTEND bits */

TEST(frontend_bits_that_do_not_exist_are_rejected)
{
	struct bt_raw_event r;
	struct bt_diag d;
	/* Bit 23 and bits 7:5 exist on no part (Linux masks 0x7fff17/0x7fff1f). */
	CHECK(bt_event_parse("cpu/event=0xc6,umask=0x1,frontend=0x800011/", BT_VENDOR_INTEL, &r,
			     &d) == BT_ERR_INVALID);
	CHECK(bt_event_parse("cpu/event=0xc6,umask=0x1,frontend=0x31/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(bt_event_parse("cpu/event=0xc6,umask=0x1,frontend=0x400406/", BT_VENDOR_INTEL, &r,
			     &d) == BT_OK);
	/* Bit 3 exists from Golden Cove (0x7fff1f), not on Skylake (0x7fff17). */
	struct bt_pmu_caps skl = caps_of("skl"), spr = caps_of("spr");
	struct bt_event fe = fx_msr(fx_gp("FRONTEND_RETIRED.X", 0xC6, 0x01, 0, 0xF), 0x3F7, 0x19, 0);
	struct bt_encoding enc;
	CHECK(bt_event_encode_gp(&fe, &skl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK_MSG(strstr(d.text, "0x8") && strstr(d.text, "reserved"), "%s", d.text);
	CHECK(bt_event_encode_gp(&fe, &spr, false, &enc, &d) == BT_OK);
	/* An event that does not use MSR_PEBS_FRONTEND on this core. */
	fe.code = 0x3C;
	CHECK(bt_event_encode_gp(&fe, &spr, false, &enc, &d) == BT_ERR_INVALID);
	/* The sim faults on the reserved bit, from its own table. */
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x3F7, 0x19) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(&sim.arch, 0x3F7, 0x11) == BT_OK);
	bt_sim_free(&sim);
	CHECK(bt_sim_init(&sim, bt_sim_preset("spr")) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x3F7, 0x19) == BT_OK);
	CHECK(bt_wrmsr(&sim.arch, 0x3F7, 0x800000) == BT_ERR_FAULT);
	bt_sim_free(&sim);
}

/* ------------------------------------------------------- PERF_METRICS fields */

/* Ice Lake / Tiger Lake have the 4 level-1 PERF_METRICS fields; reading
 * field 4+ there reads a reserved byte. Linux: num_topdown_events 4 (ICL),
 * 8 (SPR and intel_pmu_init_glc, Golden Cove and later). */
TEST(perf_metrics_fields_beyond_the_cpu_are_unmeasurable)
{
	struct bt_pmu_caps icl = caps_of("icl"), spr = caps_of("spr");
	CHECK_EQ_INT(icl.perf_metrics_fields, 4);
	CHECK_EQ_INT(spr.perf_metrics_fields, 8);
	CHECK_EQ_INT(caps_of("adl-p").perf_metrics_fields, 8);
	CHECK_EQ_INT(caps_of("lnl-p").perf_metrics_fields, 8);
	CHECK_EQ_INT(caps_of("skl").perf_metrics_fields, 0);
	struct bt_event ev[3] = {
		fx_fixed("TOPDOWN.SLOTS", 0x00, 0x04, 3, 0),
		fx_pm("PERF_METRICS.RETIRING", BT_PM_RETIRING),
		fx_pm("PERF_METRICS.HEAVY_OPERATIONS", BT_PM_HEAVY_OPERATIONS),
	};
	CHECK(plan_valid(ev, 3, &icl));
	CHECK_EQ_INT(plan.ev[1].place, BT_PLACE_PERF_METRICS);
	CHECK_EQ_INT(plan.ev[2].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[2].reason, "4 fields"), "%s", plan.ev[2].reason);
	CHECK(plan_valid(ev, 3, &spr));
	CHECK_EQ_INT(plan.ev[2].place, BT_PLACE_PERF_METRICS);
	/* The validator refuses a plan that reads field 4 on ICL. */
	CHECK(plan_valid(ev, 3, &icl));
	static struct bt_plan bad;
	bad = plan;
	bad.ev[2].place = BT_PLACE_PERF_METRICS;
	bad.ev[2].counter = BT_PM_HEAVY_OPERATIONS;
	static const struct bt_event *evp[3];
	fx_ptrs(ev, 3, evp);
	struct bt_diag d;
	CHECK(bt_plan_validate(&bad, evp, 3, &icl, NULL, &scratch, &d) == BT_ERR_INVALID);
}
