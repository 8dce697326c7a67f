/* SPDX-License-Identifier: MIT */
/* Each Linux release's extra-register and constraint tables (perf-ktables.h):
 * rows of arch/x86/events/intel/core.c as the release had them. */
#include <stdio.h>
#include <string.h>

#include "host/perf-ktables.h"
#include "base/array.h"
#include "pmu/msr.h"

/* MSR_SNOOP_RSP_0/1 (arch/x86/include/asm/msr-index.h): Crestmont's
 * snoop-response events 0x0127/0x0227 take their config1 there. */
#define SNOOP_RSP_0 0x1328u
#define SNOOP_RSP_1 0x1329u

#define N(a) ((int)(BT_ARRAY_SIZE(a)))
#define LDLAT(ev) { ev, MSR_PEBS_LD_LAT, 0xffff }   /* INTEL_UEVENT_PEBS_LDLAT_EXTRA_REG */

static const struct bt_pk_xreg snbep_rows[] = {     /* intel_snbep_extra_regs (Haswell) */
	{ 0x01b7, MSR_OFFCORE_RSP_0, 0x3fffff8fffull }, { 0x01bb, MSR_OFFCORE_RSP_1, 0x3fffff8fffull },
	LDLAT(0x01cd),
};
static const struct bt_pk_xreg skl_rows[] = {       /* intel_skl_extra_regs (also SKX) */
	{ 0x01b7, MSR_OFFCORE_RSP_0, 0x3fffff8fffull }, { 0x01bb, MSR_OFFCORE_RSP_1, 0x3fffff8fffull },
	LDLAT(0x01cd), { 0x01c6, MSR_PEBS_FRONTEND, 0x7fff17 },
};
static const struct bt_pk_xreg glc_rows[] = {       /* intel_glc_extra_regs (intel_spr_extra_regs) */
	{ 0x012a, MSR_OFFCORE_RSP_0, 0x3fffffffffull }, { 0x012b, MSR_OFFCORE_RSP_1, 0x3fffffffffull },
	LDLAT(0x01cd), { 0x01c6, MSR_PEBS_FRONTEND, 0x7fff1f }, { 0x40ad, MSR_PEBS_FRONTEND, 0x7 },
	{ 0x04c2, MSR_PEBS_FRONTEND, 0x8 },
};
static const struct bt_pk_xreg rwc_rows[] = {       /* intel_rwc_extra_regs (a6742cb90b56's intel_gnr_extra_regs) */
	{ 0x012a, MSR_OFFCORE_RSP_0, 0x3fffffffffull }, { 0x012b, MSR_OFFCORE_RSP_1, 0x3fffffffffull },
	LDLAT(0x01cd), { 0x02c6, MSR_PEBS_FRONTEND, 0x9 }, { 0x03c6, MSR_PEBS_FRONTEND, 0x7fff1f },
	{ 0x40ad, MSR_PEBS_FRONTEND, 0x7 }, { 0x04c2, MSR_PEBS_FRONTEND, 0x8 },
};
static const struct bt_pk_xreg lnc_rows[] = {       /* intel_lnc_extra_regs (aa5d2ca7c179) */
	{ 0x012a, MSR_OFFCORE_RSP_0, 0xfffffffffffull }, { 0x012b, MSR_OFFCORE_RSP_1, 0xfffffffffffull },
	LDLAT(0x01cd), { 0x02c6, MSR_PEBS_FRONTEND, 0x9 }, { 0x03c6, MSR_PEBS_FRONTEND, 0x7fff1f },
	{ 0x40ad, MSR_PEBS_FRONTEND, 0xf }, { 0x04c2, MSR_PEBS_FRONTEND, 0x8 },
};
static const struct bt_pk_xreg grt_rows[] = {       /* intel_grt_extra_regs */
	{ 0x01b7, MSR_OFFCORE_RSP_0, 0x3fffffffffull }, { 0x02b7, MSR_OFFCORE_RSP_1, 0x3fffffffffull },
	LDLAT(0x05d0),
};
static const struct bt_pk_xreg cmt_rows[] = {       /* intel_cmt_extra_regs */
	{ 0x01b7, MSR_OFFCORE_RSP_0, 0x800ff3ffffffffffull }, { 0x02b7, MSR_OFFCORE_RSP_1, 0xff3ffffffffffull },
	LDLAT(0x05d0), { 0x0127, SNOOP_RSP_0, ~0ull }, { 0x0227, SNOOP_RSP_1, ~0ull },
};

static const struct bt_pk_xtable snbep_xr = { "intel_snbep_extra_regs", snbep_rows, N(snbep_rows) };
static const struct bt_pk_xtable skl_xr = { "intel_skl_extra_regs", skl_rows, N(skl_rows) };
static const struct bt_pk_xtable glc_xr = { "intel_glc_extra_regs", glc_rows, N(glc_rows) };
static const struct bt_pk_xtable rwc_xr = { "intel_rwc_extra_regs", rwc_rows, N(rwc_rows) };
static const struct bt_pk_xtable lnc_xr = { "intel_lnc_extra_regs", lnc_rows, N(lnc_rows) };
static const struct bt_pk_xtable grt_xr = { "intel_grt_extra_regs", grt_rows, N(grt_rows) };
static const struct bt_pk_xtable cmt_xr = { "intel_cmt_extra_regs", cmt_rows, N(cmt_rows) };

/* intel_lnc_event_constraints as a932aa0e868f added it (6.11), the rows
 * that restrict general counters, in the table's order. */
static const struct bt_pk_crow lnc_old_rows[] = {
	{ BT_PK_C_UEVENT, 0x0148, 0, 0x4 }, { BT_PK_C_UEVENT, 0x0175, 0, 0x4 },
	{ BT_PK_C_EVENT, 0x2e, 0, 0x3ff }, { BT_PK_C_EVENT, 0x3c, 0, 0x3ff },
	/* "Generally event codes < 0x90 are restricted to counters 0-3." */
	{ BT_PK_C_RANGE, 0x01, 0x8f, 0xf },
	{ BT_PK_C_UEVENT, 0x01a3, 0, 0xf }, { BT_PK_C_UEVENT, 0x02a3, 0, 0xf },
	{ BT_PK_C_UEVENT, 0x08a3, 0, 0x4 }, { BT_PK_C_UEVENT, 0x0ca3, 0, 0x4 },
	{ BT_PK_C_UEVENT, 0x04a4, 0, 0x1 }, { BT_PK_C_UEVENT, 0x08a4, 0, 0x1 },
	{ BT_PK_C_UEVENT, 0x10a4, 0, 0x1 }, { BT_PK_C_UEVENT, 0x01b1, 0, 0x8 },
	{ BT_PK_C_UEVENT, 0x02cd, 0, 0x3 }, { BT_PK_C_EVENT, 0xce, 0, 0x1 },
	{ BT_PK_C_RANGE, 0xd0, 0xdf, 0xf }, { BT_PK_C_RANGE, 0x90, 0xfe, 0x3ff },
};
/* ... and as 782cffeec9ad left it ("The general rule ... has been
 * removed"): 0x20, OCR, 0x01cd and 0x00e0 restricted, 0xce free. */
static const struct bt_pk_crow lnc_new_rows[] = {
	{ BT_PK_C_EVENT, 0x20, 0, 0xf }, { BT_PK_C_UEVENT, 0x012a, 0, 0xf },
	{ BT_PK_C_UEVENT, 0x012b, 0, 0xf }, { BT_PK_C_UEVENT, 0x0148, 0, 0x4 },
	{ BT_PK_C_UEVENT, 0x0175, 0, 0x4 }, { BT_PK_C_EVENT, 0x2e, 0, 0x3ff },
	{ BT_PK_C_EVENT, 0x3c, 0, 0x3ff }, { BT_PK_C_UEVENT, 0x08a3, 0, 0x4 },
	{ BT_PK_C_UEVENT, 0x0ca3, 0, 0x4 }, { BT_PK_C_UEVENT, 0x04a4, 0, 0x1 },
	{ BT_PK_C_UEVENT, 0x08a4, 0, 0x1 }, { BT_PK_C_UEVENT, 0x10a4, 0, 0x1 },
	{ BT_PK_C_UEVENT, 0x01b1, 0, 0x8 }, { BT_PK_C_UEVENT, 0x01cd, 0, 0x3fc },
	{ BT_PK_C_UEVENT, 0x02cd, 0, 0x3 }, { BT_PK_C_RANGE, 0xd0, 0xdf, 0xf },
	{ BT_PK_C_UEVENT, 0x00e0, 0, 0xf },
};
static const struct bt_pk_ctable lnc_old = { "intel_lnc_event_constraints (before 782cffeec9ad)",
					     lnc_old_rows, N(lnc_old_rows) };
static const struct bt_pk_ctable lnc_new = { "intel_lnc_event_constraints (782cffeec9ad)",
					     lnc_new_rows, N(lnc_new_rows) };

/* Stable series that got a change before the mainline release that has it. */
static const struct bt_pk_backport aa5d2ca7c179[] = { { 12, 8 }, { 0, 0 } };
static const struct bt_pk_backport c782cffeec9ad[] = { { 12, 17 }, { 13, 5 }, { 0, 0 } };

static bool is(const struct bt_pk_pmu *p, const char *pmu_name, const char *name)
{
	return strcmp(p->pmu_name, pmu_name) == 0 && (!name || strcmp(p->name, name) == 0);
}

/* One table or two by a change's presence (1 / 0 / -1 unknown). */
static void pick_xr(struct bt_pk_tables *t, int has, const struct bt_pk_xtable *with,
		    const struct bt_pk_xtable *without)
{
	t->xr[0] = has == 0 ? without : with;
	t->xr[1] = has < 0 ? without : NULL;
}

static void pick_cons(struct bt_pk_tables *t, int has, const struct bt_pk_ctable *with,
		      const struct bt_pk_ctable *without)
{
	t->cons[0] = has == 0 ? without : with;
	t->cons[1] = has < 0 ? without : NULL;
}

static const char *state(int has)
{
	return has > 0 ? "has" : has == 0 ? "lacks" : "may lack (stable level unknown)";
}

/* Lion Cove's tables on Lunar Lake, Arrow Lake and Arrow Lake H. */
static void lion_cove(const struct bt_perf_kernel *k, struct bt_pk_tables *t, const char *v)
{
	int xr = bt_pk_has_change(k, 6, 13, aa5d2ca7c179);
	int cons = bt_pk_has_change(k, 6, 14, c782cffeec9ad);
	pick_xr(t, xr, &lnc_xr, &rwc_xr);
	pick_cons(t, cons, &lnc_new, &lnc_old);
	snprintf(t->why, sizeof(t->why), "Linux %s %s aa5d2ca7c179 (6.13, 6.12.8: OCR config1 to "
		 "0xfffffffffff) and %s 782cffeec9ad (6.14, 6.12.17, 6.13.5: Lion Cove's counter "
		 "constraints)", v, state(xr), state(cons));
}

void bt_pk_tables_for(const struct bt_perf_kernel *k, const struct bt_pk_pmu *p,
		      struct bt_pk_tables *t)
{
	char v[48];
	memset(t, 0, sizeof(*t));
	bt_pk_version_text(k, v, sizeof(v));
	t->known = true;
	if (is(p, "skylake", NULL)) {
		t->xr[0] = &skl_xr;
	} else if (is(p, "haswell", NULL)) {
		t->xr[0] = &snbep_xr;
	} else if (is(p, "sapphire_rapids", NULL) || is(p, "alderlake_hybrid", "cpu_core")) {
		t->xr[0] = &glc_xr;
	} else if (is(p, "alderlake_hybrid", "cpu_atom")) {
		t->xr[0] = &grt_xr;
	} else if (is(p, "meteorlake_hybrid", "cpu_core")) {
		/* The 6.3.y stable series is not known to have the fix: its
		 * FRONTEND_RETIRED (0x03c6) is planned as 6.3 had it. */
		int has = bt_pk_has_change(k, 6, 4, NULL);
		pick_xr(t, has, &rwc_xr, &glc_xr);
		snprintf(t->why, sizeof(t->why), "Linux %s %s a6742cb90b56 (6.4: Redwood Cove's "
			 "FRONTEND events 0x02c6/0x03c6 in its extra registers)", v, state(has));
	} else if (is(p, "meteorlake_hybrid", "cpu_atom") || is(p, "lunarlake_hybrid", "cpu_atom") ||
		   is(p, "arrowlake_h_hybrid", "cpu_atom") ||
		   is(p, "arrowlake_h_hybrid", "cpu_lowpower")) {
		t->xr[0] = &cmt_xr;
	} else if (is(p, "lunarlake_hybrid", "cpu_core") || is(p, "arrowlake_h_hybrid", "cpu_core")) {
		lion_cove(k, t, v);
	} else {
		t->known = false;
	}
}

const struct bt_pk_xreg *bt_pk_xreg_find(const struct bt_pk_xtable *t, uint16_t event)
{
	for (int i = 0; t && i < t->n; i++)
		if (t->rows[i].event == event)
			return &t->rows[i];
	return NULL;
}

uint32_t bt_pk_cons_mask(const struct bt_pk_ctable *t, uint64_t config)
{
	unsigned ev = (unsigned)(config & 0xff), uev = (unsigned)(config & 0xffff);
	for (int i = 0; t && i < t->n; i++) {
		const struct bt_pk_crow *r = &t->rows[i];
		bool hit = r->kind == BT_PK_C_EVENT ? ev == r->code
			 : r->kind == BT_PK_C_UEVENT ? uev == r->code
			 : ev >= r->code && ev <= r->last;
		if (hit)
			return r->counters;
	}
	return 0xFFFFFFFFu;
}
