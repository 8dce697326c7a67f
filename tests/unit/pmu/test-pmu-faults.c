/* SPDX-License-Identifier: MIT */
/*
 * Fault injection: for every single MSR/RDPMC access of a full run (open,
 * every group, close), make exactly that access fault. The driver must
 * report it (naming the access) and the simulated register file afterwards
 * must equal the one before the driver touched it.
 */
#include "pmu/pmu-caps.h"
#include "pmu/pmu-session.h"
#include "tests/unit/lib/test.h"
#include "tests/unit/lib/pmu-fixtures.h"

static struct bt_plan plan;
static struct bt_plan_scratch scratch;
static struct bt_pmu_counts counts;

/* One full run; returns the number of accesses it made. */
static uint64_t close_at; /* accesses made before bt_pmu_close() */

static uint64_t full_run(struct bt_sim *sim, const struct bt_pmu_caps *caps,
			 const struct bt_event **evp, bool *reported, char *msg, size_t len)
{
	struct bt_pmu_session s;
	bt_status st = bt_pmu_open(&s, &sim->arch, caps, NULL);
	for (int g = 0; st == BT_OK && g < plan.n_groups; g++)
		st = bt_pmu_measure_group(&s, &plan, g, evp, NULL, NULL, &counts);
	close_at = sim->access_count;
	bt_status cst = bt_pmu_close(&s);
	*reported = st != BT_OK || cst != BT_OK;
	snprintf(msg, len, "%s", bt_pmu_error(&s));
	/* A fault in an optional setting (IA32_DEBUGCTL.FREEZE_WHILE_SMM at
	 * open) does not stop the run: the warning must name it instead. */
	if (!*reported && strstr(bt_pmu_session_warnings(&s), "#GP")) {
		*reported = true;
		snprintf(msg, len, "%s", bt_pmu_session_warnings(&s));
	}
	return sim->access_count;
}

static void every_access_faults(const char *preset, uint8_t initial)
{
	static struct bt_sim sim;
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	static struct bt_sim_count src[FX_MAX];
	struct bt_sim_config cfg = *bt_sim_preset(preset);
	cfg.initial = initial;
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	CHECK(bt_sim_generate_counts(evp, (size_t)n, 3, src) == BT_OK);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
	bt_sim_free(&sim);

	/* Count the accesses of a clean run. */
	struct bt_sim_source source = { src, (size_t)n, 0, NULL };
	CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
	bt_sim_set_source(&sim, &source);
	sim.access_count = 0;
	bool reported;
	char msg[256];
	uint64_t total = full_run(&sim, &caps, evp, &reported, msg, sizeof(msg));
	CHECK_MSG(!reported, "%s/0x%X clean run: %s", preset, initial, msg);
	CHECK(total > 20);
	bt_sim_free(&sim);

	int failures = 0;
	for (uint64_t k = 1; k <= total; k++) {
		CHECK(bt_sim_init(&sim, &cfg) == BT_OK);
		bt_sim_set_source(&sim, &source);
		struct bt_sim_regs before;
		bt_sim_checkpoint(&sim, &before);
		sim.access_count = 0;
		sim.fault_at = k;
		full_run(&sim, &caps, evp, &reported, msg, sizeof(msg));
		char diff[160] = "";
		bool same = bt_sim_restored(&sim, &before, diff, sizeof(diff));
		/* A fault in a restore write is retried; anywhere else the run
		 * stops and says which access faulted. */
		bool fault_in_restore = k > close_at;
		if (!same || (!fault_in_restore && !(reported && strstr(msg, "#GP")))) {
			if (failures++ < 3)
				CHECK_MSG(false, "%s/0x%X: fault at access %llu: reported=%d same=%d %s | %s",
					  preset, initial, (unsigned long long)k, reported, same, diff, msg);
		}
		bt_sim_free(&sim);
	}
	CHECK_EQ_INT(failures, 0);
}

static void every_preset(uint8_t initial)
{
	for (int p = 0; bt_sim_preset_names[p]; p++)
		every_access_faults(bt_sim_preset_names[p], initial);
}

/* Finding 17: every preset (core2 and lnl-p included), from an idle state
 * and from states firmware may leave: counters running (the AMD stop at
 * open and its restore), overflow bits and a frozen PMU (the status
 * restore), and everything at once. */
TEST(every_access_faulting_every_preset_idle) { every_preset(0); }
TEST(every_access_faulting_every_preset_running) { every_preset(BT_SIM_INIT_RUNNING); }
TEST(every_access_faulting_every_preset_overflowed_frozen)
{
	every_preset(BT_SIM_INIT_OVERFLOW | BT_SIM_INIT_FROZEN | BT_SIM_INIT_CONDCHGD);
}
TEST(every_access_faulting_every_preset_all_states) { every_preset(BT_SIM_INIT_ALL); }

TEST(fault_on_a_chosen_msr_is_reported_by_name)
{
	static struct bt_sim sim;
	static struct bt_event ev[FX_MAX];
	static const struct bt_event *evp[FX_MAX];
	CHECK(bt_sim_init(&sim, bt_sim_preset("skl")) == BT_OK);
	struct bt_pmu_caps caps;
	bt_pmu_caps_detect(&sim.arch, &caps);
	int n = fx_set_for(&sim.cfg, ev);
	fx_ptrs(ev, n, evp);
	CHECK(bt_plan_events(evp, n, &caps, NULL, &scratch, &plan) == BT_OK);
	struct bt_sim_regs before, after;
	bt_sim_snapshot(&sim, &before);
	sim.fault_msr_armed = true;
	sim.fault_msr = MSR_IA32_FIXED_CTR_CTRL;
	sim.fault_op = BT_SIM_WRMSR;
	bool reported;
	char msg[256];
	full_run(&sim, &caps, evp, &reported, msg, sizeof(msg));
	CHECK(reported);
	CHECK_MSG(strstr(msg, "IA32_FIXED_CTR_CTRL") && strstr(msg, "#GP"), "%s", msg);
	sim.fault_msr_armed = false;
	bt_sim_snapshot(&sim, &after);
	CHECK(bt_sim_regs_equal(&before, &after, NULL, 0));
	bt_sim_free(&sim);
}
