/* SPDX-License-Identifier: MIT */
/*
 * Timed PEBS in the simulated PMU (arch/sim: cfg.pebs_timing), at the
 * register level, with the accesses a driver makes. The addresses, bits and
 * layouts here are written from the manuals and Linux, not taken from the
 * sim's headers: IA32_PERF_CAPABILITIES 0x345 bit 17 PEBS_TIMING_INFO and
 * bit 14 PEBS_BASELINE (Linux union perf_capabilities), IA32_DS_AREA 0x600,
 * IA32_PEBS_ENABLE 0x3F1, MSR_PEBS_DATA_CFG 0x3F2 (SDM vol. 4 Table 2-2);
 * the DS area as Linux's struct debug_store (intel_ds.h: BTS qwords 0-3,
 * pebs_buffer_base 4, pebs_index 5, pebs_absolute_maximum 6,
 * pebs_interrupt_threshold 7, pebs_event_reset[] from 8); a record's basic
 * group as ds.c reads it (struct pebs_basic: format_size, ip,
 * applicable_counters, tsc; the retire latency format_size >> 32 & 0xffff,
 * the size format_size >> 48).
 */
#include <stdlib.h>

#include "arch/sim/sim.h"
#include "tests/unit/lib/test.h"

#define PERF_CAPS 0x345u
#define DS_AREA 0x600u
#define PEBS_ENABLE 0x3F1u
#define DATA_CFG 0x3F2u
#define PMC0 0x0C1u
#define A_PMC0 0x4C1u
#define SEL0 0x186u
#define GLOBAL 0x38Fu
#define STATUS 0x38Eu
#define EN (1ull << 22)
#define OS_USR (3ull << 16)

static struct bt_sim sim;
static void noop(void *arg) { (void)arg; }

/* What a workload's model would answer: a latency per record. */
static uint32_t lat_value;
static uint32_t latency(void *ctx, unsigned i, uint64_t evtsel, uint64_t frontend, uint64_t n)
{
	(void)ctx; (void)i; (void)evtsel; (void)frontend; (void)n;
	return lat_value;
}

/* preset with BR_MISP_RETIRED (0xC5/0x00) counting `count` per window */
static struct bt_arch *setup(const char *preset, uint64_t count)
{
	static struct bt_sim_count src[1];
	static struct bt_sim_source source;
	struct bt_sim_config cfg = *bt_sim_preset(preset);
	cfg.noise_per_access = 0;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	memset(src, 0, sizeof(src));
	src[0].ev.source = BT_SRC_PMC;
	src[0].ev.code = 0xC5;
	src[0].ev.umask = 0x00;
	src[0].ev.fixed = -1;
	src[0].count = count;
	source = (struct bt_sim_source){ src, 1, 0, noop };
	bt_sim_set_source(&sim, &source);
	sim.pebs_latency = latency;
	return &sim.arch;
}

TEST(perf_capabilities_bit17_where_the_part_has_it)
{
	uint64_t v = 0;
	struct bt_arch *a = setup("lnl-p", 0);
	CHECK(bt_rdmsr(a, PERF_CAPS, &v) == BT_OK);
	CHECK((v >> 17) & 1);
	CHECK((v >> 14) & 1);
	bt_sim_free(&sim);
	a = setup("arlh-p", 0);
	CHECK(bt_rdmsr(a, PERF_CAPS, &v) == BT_OK && ((v >> 17) & 1));
	bt_sim_free(&sim);
	/* Sapphire Rapids, Alder Lake E-cores: no timing info, no DATA_CFG */
	const char *none[] = { "spr", "adl-e", "arlh-e" };
	for (unsigned k = 0; k < 3; k++) {
		a = setup(none[k], 0);
		CHECK(bt_rdmsr(a, PERF_CAPS, &v) == BT_OK);
		CHECK_MSG(!((v >> 17) & 1), "%s reports PEBS_TIMING_INFO", none[k]);
		CHECK(bt_rdmsr(a, DATA_CFG, &v) == BT_ERR_FAULT);
		bt_sim_free(&sim);
	}
}

TEST(ds_area_and_enable_fault_as_the_sdm_says)
{
	uint64_t v = 0;
	struct bt_arch *a = setup("lnl-p", 0);
	/* canonical: kept; not canonical (bit 47 without 63:48): #GP */
	CHECK(bt_wrmsr(a, DS_AREA, 0x00007FFFFFFFF000ull) == BT_OK);
	CHECK(bt_rdmsr(a, DS_AREA, &v) == BT_OK && v == 0x00007FFFFFFFF000ull);
	CHECK(bt_wrmsr(a, DS_AREA, 0xFFFF800000000000ull) == BT_OK);
	CHECK(bt_wrmsr(a, DS_AREA, 0x0000800000000000ull) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, DS_AREA, 0x8000000000001000ull) == BT_ERR_FAULT);
	CHECK(bt_rdmsr(a, DS_AREA, &v) == BT_OK && v == 0xFFFF800000000000ull);
	/* PEBS_ENABLE: a bit per general counter (10 on Lion Cove) and per
	 * fixed counter at 32 + i; a bit beyond them: #GP */
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 1ull << 9) == BT_OK);
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 1ull << 10) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 1ull << 31) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 0) == BT_OK);
	/* DATA_CFG: basic only (0) is what the sim models; reserved bits #GP */
	CHECK(bt_wrmsr(a, DATA_CFG, 0) == BT_OK);
	CHECK(bt_wrmsr(a, DATA_CFG, 1ull << 4) == BT_ERR_FAULT);
	CHECK(bt_wrmsr(a, DATA_CFG, 1ull << 40) == BT_ERR_FAULT);
	bt_sim_free(&sim);
}

struct ds {
	uint64_t q[8 + 32 + 16];
};

/* Arms counter 0 for PEBS with reload -period, a buffer of `slots` records;
 * counts one window; returns the records written. */
static unsigned run_pebs(struct bt_arch *a, struct ds *ds, uint64_t *buf, unsigned slots,
			 uint64_t period)
{
	uint64_t reload = (1ull << 48) - period;
	memset(ds, 0, sizeof(*ds));
	ds->q[4] = (uint64_t)(uintptr_t)buf;
	ds->q[5] = ds->q[4];
	ds->q[6] = ds->q[4] + 32ull * slots;
	ds->q[7] = ds->q[6];
	ds->q[8] = reload;
	CHECK(bt_wrmsr(a, DS_AREA, (uint64_t)(uintptr_t)ds) == BT_OK);
	CHECK(bt_wrmsr(a, DATA_CFG, 0) == BT_OK);
	CHECK(bt_wrmsr(a, GLOBAL, 0) == BT_OK);
	CHECK(bt_wrmsr(a, SEL0, 0xC5 | OS_USR | EN) == BT_OK);
	CHECK(bt_wrmsr(a, A_PMC0, reload) == BT_OK);
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 1) == BT_OK);
	CHECK(bt_run_window(a, GLOBAL, 1, 0, noop, NULL) == BT_OK);
	CHECK(bt_wrmsr(a, PEBS_ENABLE, 0) == BT_OK);
	return (unsigned)((ds->q[5] - ds->q[4]) / 32);
}

TEST(records_as_linux_reads_them)
{
	static struct ds ds;
	static uint64_t buf[4 * 64];
	uint64_t v = 0;
	struct bt_arch *a = setup("lnl-p", 5500);
	lat_value = 0x1234;
	/* 5500 mispredicts, a record every 1000: 5, the counter 500 past the reload */
	CHECK_EQ_INT(run_pebs(a, &ds, buf, 64, 1000), 5);
	for (unsigned k = 0; k < 5; k++) {
		const uint64_t *r = buf + 4 * k;
		CHECK_EQ_U64(r[0] >> 48, 32);               /* record size */
		CHECK_EQ_U64((r[0] >> 32) & 0xFFFF, 0x1234); /* retire latency */
		CHECK_EQ_U64(r[0] & 0xFFFFFFFF, 0);          /* basic group only */
		CHECK_EQ_U64(r[2], 1);                       /* counter 0 */
		CHECK(r[1] != 0);
	}
	CHECK(bt_rdmsr(a, PMC0, &v) == BT_OK);
	CHECK_EQ_U64(v, (1ull << 48) - 1000 + 500);
	/* reading the latency from the wrong bits gives another number: the
	 * size (63:48) or the format (31:0 / 31:16) */
	CHECK((buf[0] >> 48) != 0x1234 && ((buf[0] >> 16) & 0xFFFF) != 0x1234);
	bt_sim_free(&sim);
}

TEST(saturation_and_full_buffer)
{
	static struct ds ds;
	static uint64_t buf[4 * 8];
	struct bt_arch *a = setup("lnl-p", 10000);
	lat_value = 70000; /* beyond 16 bits: saturates at 65535 */
	memset(buf, 0xAB, sizeof(buf));
	/* 10 overflows, room for 3: three records, the index at the absolute
	 * maximum, nothing written past it (the guard qwords keep their fill) */
	CHECK_EQ_INT(run_pebs(a, &ds, buf, 3, 1000), 3);
	CHECK_EQ_U64((buf[0] >> 32) & 0xFFFF, 65535);
	CHECK_EQ_U64(ds.q[5], ds.q[6]);
	CHECK_EQ_U64(buf[12], 0xABABABABABABABABull);
	CHECK_EQ_U64(sim.pebs_records, 3);
	CHECK_EQ_U64(sim.pebs_dropped, 7);
	uint64_t st = 0;
	CHECK(bt_rdmsr(a, STATUS, &st) == BT_OK);
	CHECK((st >> 62) & 1); /* OvfBuffer: the index reached the threshold */
	bt_sim_free(&sim);
}

TEST(restore_check_sees_the_pebs_registers)
{
	static struct ds ds;
	struct bt_sim_regs before;
	char why[200];
	struct bt_arch *a = setup("lnl-p", 0);
	bt_sim_snapshot(&sim, &before);
	CHECK(bt_wrmsr(a, DS_AREA, (uint64_t)(uintptr_t)&ds) == BT_OK);
	CHECK(!bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)));
	CHECK(strstr(why, "ds_area") != NULL);
	CHECK(bt_wrmsr(a, DS_AREA, before.ds_area) == BT_OK);
	CHECK(bt_wrmsr(a, DATA_CFG, 0) == BT_OK);
	CHECK(bt_sim_regs_equal(&sim.regs, &before, why, sizeof(why)));
	bt_sim_free(&sim);
}
