/* SPDX-License-Identifier: MIT */
/* Event encoding (SDM Figure 20-1 field positions, APM PerfEvtSel) and the
 * raw event parser, with its messages naming the wrong part. */
#include "pmu/event-encode.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_pmu_caps caps_of(const char *preset)
{
	static struct bt_sim sim;
	struct bt_pmu_caps caps;
	bt_sim_init(&sim, bt_sim_preset(preset));
	bt_pmu_caps_detect(&sim.arch, &caps);
	bt_sim_free(&sim);
	return caps;
}

TEST(intel_selector_fields)
{
	struct bt_pmu_caps skl = caps_of("skl");
	struct bt_event e = fx_gp("UOPS_EXECUTED.CORE_CYCLES_NONE", 0xB1, 0x02, 1, 0xF);
	e.flags = BT_EVF_INV | BT_EVF_EDGE;
	struct bt_encoding enc;
	CHECK(bt_event_encode_gp(&e, &skl, false, &enc, NULL) == BT_OK);
	/* event 0xB1, umask 0x02 << 8, USR 16, OS 17, E 18, INV 23, CMASK 1 << 24 */
	CHECK_EQ_U64(enc.evtsel, 0xB1 | 0x0200 | (1u << 16) | (1u << 17) | (1u << 18) | (1u << 23) |
				 (1u << 24));
	e.flags = BT_EVF_SUP;
	CHECK(bt_event_encode_gp(&e, &skl, false, &enc, NULL) == BT_OK);
	CHECK_EQ_U64(enc.evtsel & 0x30000, 0x20000);
	e.flags = BT_EVF_ANY;
	CHECK(bt_event_encode_gp(&e, &skl, false, &enc, NULL) == BT_OK);
	CHECK(enc.evtsel & (1u << 21));
	struct bt_diag d;
	struct bt_pmu_caps icl = caps_of("icl");
	CHECK(bt_event_encode_gp(&e, &icl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "deprecated") != NULL);
	/* v6: EQ bit 36, UMASK2 47:40 */
	struct bt_pmu_caps lnl = caps_of("lnl-p");
	e.flags = BT_EVF_EQ;
	e.umask_ext = 0x5A;
	CHECK(bt_event_encode_gp(&e, &lnl, false, &enc, NULL) == BT_OK);
	CHECK_EQ_U64(enc.evtsel >> 36 & 1, 1);
	CHECK_EQ_U64(enc.evtsel >> 40 & 0xFF, 0x5A);
	CHECK(bt_event_encode_gp(&e, &icl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "eq") != NULL);
	/* OCR alternative: code 0xBB with OFFCORE_RSP_1 */
	struct bt_event o = fx_msr(fx_gp("OCR.X", 0xB7, 0x01, 0, 0xF), MSR_OFFCORE_RSP_0, 0x10001, 0xBB);
	CHECK(bt_event_encode_gp(&o, &skl, true, &enc, NULL) == BT_OK);
	CHECK_EQ_U64(enc.evtsel & 0xFF, 0xBB);
	CHECK_EQ_U64(enc.extra_msr, MSR_OFFCORE_RSP_1);
	struct bt_event big = fx_gp("X", 0x1A0, 1, 0, 0xF);
	CHECK(bt_event_encode_gp(&big, &skl, false, &enc, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "X: event=0x1A0 needs AMD (Intel event select is 8 bits)");
}

TEST(amd_selector_high_event_bits)
{
	struct bt_pmu_caps z = caps_of("zen4");
	struct bt_event e = fx_gp("de_no_dispatch_per_slot.no_ops_from_frontend", 0x1A0, 0x01, 6, 0x3F);
	struct bt_encoding enc;
	CHECK(bt_event_encode_gp(&e, &z, false, &enc, NULL) == BT_OK);
	/* EventSelect[7:0] = 0xA0, [11:8] = 1 at bits 35:32, umask 1, cmask 6 */
	CHECK_EQ_U64(enc.evtsel, 0xA0 | (1ull << 32) | 0x0100 | (3u << 16) | (6u << 24));
	e.flags = BT_EVF_ANY;
	CHECK(bt_event_encode_gp(&e, &z, false, &enc, NULL) == BT_ERR_INVALID);
}

static bt_status parse(const char *s, enum bt_vendor v, struct bt_raw_event *r, struct bt_diag *d)
{
	return bt_event_parse(s, v, r, d);
}

TEST(parser_accepts_perf_syntax)
{
	struct bt_raw_event r;
	struct bt_diag d;
	CHECK(parse("cpu/event=0xb1,umask=0x2,cmask=1,inv,name=UOPS_EXECUTED.CORE_CYCLES_NONE/",
		    BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.code, 0xB1);
	CHECK_EQ_INT(r.ev.umask, 2);
	CHECK_EQ_INT(r.ev.cmask, 1);
	CHECK(r.ev.flags & BT_EVF_INV);
	CHECK_STR(r.ev.name, "UOPS_EXECUTED.CORE_CYCLES_NONE");
	CHECK(parse("cpu/event=0xcd,umask=0x1,ldlat=4/k", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.msr_index, 0x3F6);
	CHECK_EQ_U64(r.ev.msr_value, 4);
	CHECK(r.ev.flags & BT_EVF_SUP);
	CHECK(parse("cpu/event=0xb7,umask=1,offcore_rsp=0x10001,code2=0xbb/", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.code2, 0xBB);
	CHECK(parse("r01c2", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.code, 0xC2);
	CHECK_EQ_INT(r.ev.umask, 0x01);
	CHECK(parse("r10000001a0", BT_VENDOR_AMD, &r, &d) == BT_ERR_INVALID); /* bit 36 reserved */
	CHECK(parse("r1000000a0", BT_VENDOR_AMD, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.code, 0x1A0);
	CHECK(parse("cpu/event=0x1a0,umask=0x1,cmask=6/", BT_VENDOR_AMD, &r, &d) == BT_OK);
	CHECK(parse("tsc", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.source, BT_SRC_TSC);
	CHECK(parse("cpu/perf_metrics=retiring/", BT_VENDOR_INTEL, &r, &d) == BT_OK);
	CHECK_EQ_INT(r.ev.source, BT_SRC_PERF_METRICS);
}

TEST(parser_says_which_part_is_wrong)
{
	struct bt_raw_event r;
	struct bt_diag d;
	CHECK(parse("cpu/event=0x3c,cmask=300/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "cmask=300: counter mask is 8 bits (0-255)");
	CHECK(parse("cpu/event=0x1A0/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK_STR(d.text, "event=0x1A0 needs AMD (Intel event select is 8 bits)");
	CHECK(parse("cpu/event=0xcd,ldlat=0/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "ldlat=0") && strstr(d.text, "3-65535"));
	CHECK(parse("cpu/event=0xcd,ldlat=70000/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(parse("cpu/event=0x3c,umask=0x100/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "umask=0x100") != NULL);
	CHECK(parse("cpu/event=0x3c,bogus=1/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "bogus") != NULL);
	CHECK(parse("cpu/event=0x3c,any/", BT_VENDOR_AMD, &r, &d) == BT_ERR_INVALID);
	CHECK(parse("cpu/event=zz/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "not a number") != NULL);
	CHECK(parse("cpu/event=0xcd,ldlat=4,frontend=0x11/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(strstr(d.text, "one extra MSR") != NULL);
	CHECK(parse("r40003c", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID); /* EN bit 22 */
	CHECK(strstr(d.text, "bit 22") != NULL);
	CHECK(parse("cpu/event=0x3c", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(parse("", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
	CHECK(parse("gpu/event=1/", BT_VENDOR_INTEL, &r, &d) == BT_ERR_INVALID);
}

/* Finding 18: messages. An unnamed MSR is "MSR (0x...)", not its address
 * twice; a fixed-only event with a privilege filter is unmeasurable because
 * of the filter, not because the counter is missing. */
TEST(messages_say_what_is_wrong)
{
	char buf[40];
	CHECK_STR(bt_msr_name(0xC0010008, buf, sizeof(buf)), "MSR");
	CHECK_STR(bt_msr_name(0x1921, buf, sizeof(buf)), "IA32_PMC_GP8_CFG_A");
	CHECK_STR(bt_msr_name(0x198C, buf, sizeof(buf)), "IA32_PMC_FX3_CTR");
	CHECK_STR(bt_msr_name(0x188, buf, sizeof(buf)), "IA32_PERFEVTSEL2");
	static struct bt_plan plan;
	static struct bt_plan_scratch scratch;
	struct bt_pmu_caps skl = caps_of("skl");
	struct bt_event ev[2] = {
		fx_fixed("INST_RETIRED.ANY:SUP", 0xC0, 0x00, 0, 0),
		fx_fixed("TOPDOWN.SLOTS", 0x00, 0x04, 3, 0),
	};
	ev[0].flags = BT_EVF_SUP;
	const struct bt_event *evp[2] = { &ev[0], &ev[1] };
	CHECK(bt_plan_events(evp, 2, &skl, NULL, &scratch, &plan) == BT_OK);
	CHECK_EQ_INT(plan.ev[0].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[0].reason, "general counter") &&
		  !strstr(plan.ev[0].reason, "lacks"), "%s", plan.ev[0].reason);
	CHECK_EQ_INT(plan.ev[1].place, BT_PLACE_UNMEASURABLE);
	CHECK_MSG(strstr(plan.ev[1].reason, "lacks"), "%s", plan.ev[1].reason);
}
