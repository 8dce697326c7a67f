/* SPDX-License-Identifier: MIT */
/*
 * Injectable hardware defects of the simulated PMU, by name
 * (--sim-defect=NAME[:PARAM][,NAME[:PARAM]...]). The parser only fills
 * struct bt_sim_defects; where each defect acts is in the register model
 * (sim-state.c counting and overflow, sim-count.c event matching,
 * sim-intel.c / sim-amd.c register storage and RDPMC). README.md says
 * which conformance and event checks each one breaks.
 */
#include <stdio.h>
#include <string.h>

#include "arch/sim/sim.h"
#include "base/array.h"

enum param { P_NONE, P_GP, P_FIXED, P_EVENT, P_CODE, P_RATIO };

struct defect {
	const char *name;
	uint32_t flag;
	enum param param;
	const char *param_help;
	const char *summary;
};

static const struct defect defects[] = {
	{ "stuck-counter", BT_SIM_DEFECT_STUCK_COUNTER, P_GP, "[:K]",
	  "general counter K (default 0) never advances (writes still hold)" },
	{ "double-count", BT_SIM_DEFECT_DOUBLE_COUNT, P_EVENT, "[:CODE/UMASK]",
	  "that encoding on a general counter counts twice (default 0xC4/0x01)" },
	{ "narrow-counter", BT_SIM_DEFECT_NARROW_COUNTER, P_GP, "[:K]",
	  "general counter K (default 0) holds and wraps at 2^(width-8), CPUID says width" },
	{ "fixed-dead", BT_SIM_DEFECT_FIXED_DEAD, P_FIXED, "[:K]",
	  "fixed counter K (default 0) never counts (writes still hold)" },
	{ "no-overflow-bit", BT_SIM_DEFECT_NO_OVERFLOW, P_GP, "[:K]",
	  "general counter K (default 0) wraps without setting its GLOBAL_STATUS bit" },
	{ "umask-ignored", BT_SIM_DEFECT_UMASK_IGNORED, P_CODE, "[:CODE]",
	  "event CODE (default 0xC4) counts as umask 0x00 whatever umask is programmed" },
	{ "fw-truncates", BT_SIM_DEFECT_FW_TRUNCATES, P_NONE, "",
	  "a full-width write (IA32_A_PMCx) keeps only bits 31:0, zero-extended" },
	{ "pm-sticky", BT_SIM_DEFECT_PM_STICKY, P_NONE, "",
	  "MSR_PERF_METRICS ignores writes (cannot be reset with SLOTS)" },
	{ "amd-alias-split", BT_SIM_DEFECT_AMD_ALIAS_SPLIT, P_NONE, "",
	  "AMD: legacy PerfEvtSel/PerfCtr0-3 are registers of their own, not core counters 0-3" },
	{ "global-ignored", BT_SIM_DEFECT_GLOBAL_IGNORED, P_NONE, "",
	  "the global enable bit of general counter 0 is ignored (counts whenever En is set)" },
	{ "rdpmc-fixed-gp", BT_SIM_DEFECT_RDPMC_FIXED_GP, P_NONE, "",
	  "RDPMC with ECX[30] reads the general counter of that index, not the fixed one" },
	{ "xclk-ratio", BT_SIM_DEFECT_XCLK_RATIO, P_RATIO, ":N",
	  "REF_XCLK and ONE_THREAD_ACTIVE count a clock of N TSC ticks, not the one CPUID.15H "
	  "or MSR_PLATFORM_INFO states" },
};

#define N_DEFECTS (BT_ARRAY_SIZE(defects))

void bt_sim_defects_help(char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < N_DEFECTS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s%s: %s", i ? "\n" : "",
				      defects[i].name, defects[i].param_help, defects[i].summary);
}

/* A number 0..max in decimal or 0x-hex, the whole of [s, e). */
static bool number(const char *s, const char *e, unsigned max, unsigned *ret)
{
	unsigned base = 10, v = 0;
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s >= e || e - s > 8)
		return false;
	for (; s < e; s++) {
		unsigned dgt;
		if (*s >= '0' && *s <= '9')
			dgt = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			dgt = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			dgt = (unsigned)(*s - 'A' + 10);
		else
			return false;
		v = v * base + dgt;
		if (v > max)
			return false;
	}
	*ret = v;
	return true;
}

/* One "name[:param]" item in [s, e). */
static bt_status item(const char *s, const char *e, struct bt_sim_defects *df, struct bt_diag *d)
{
	const char *colon = memchr(s, ':', (size_t)(e - s));
	size_t nlen = (size_t)((colon ? colon : e) - s);
	const struct defect *def = NULL;
	for (size_t i = 0; i < N_DEFECTS; i++)
		if (strlen(defects[i].name) == nlen && memcmp(defects[i].name, s, nlen) == 0)
			def = &defects[i];
	if (!def) {
		bt_diag_set(d, "--sim-defect: no defect '%.*s' (--sim-defect=help lists them)",
			    (int)nlen, s);
		return BT_ERR_INVALID;
	}
	const char *p = colon ? colon + 1 : NULL;
	unsigned a = 0, b = 0;
	bool ok = true;
	switch (def->param) {
	case P_NONE:
		ok = !p;
		break;
	case P_GP:
		ok = !p || number(p, e, 15, &a);
		df->stuck_gp = def->flag == BT_SIM_DEFECT_STUCK_COUNTER ? (uint8_t)a : df->stuck_gp;
		df->narrow_gp = def->flag == BT_SIM_DEFECT_NARROW_COUNTER ? (uint8_t)a : df->narrow_gp;
		df->no_ovf_gp = def->flag == BT_SIM_DEFECT_NO_OVERFLOW ? (uint8_t)a : df->no_ovf_gp;
		break;
	case P_FIXED:
		ok = !p || number(p, e, 7, &a);
		df->dead_fixed = (uint8_t)a;
		break;
	case P_EVENT: {
		a = 0xC4;
		b = 0x01;
		if (p) {
			const char *slash = memchr(p, '/', (size_t)(e - p));
			ok = slash && number(p, slash, 0xFFF, &a) && number(slash + 1, e, 0xFF, &b);
		}
		df->double_code = (uint16_t)a;
		df->double_umask = (uint8_t)b;
		break;
	}
	case P_CODE:
		a = 0xC4;
		ok = !p || number(p, e, 0xFFF, &a);
		df->umask_code = (uint16_t)a;
		break;
	case P_RATIO:
		ok = p && number(p, e, 0xFFFF, &a) && a > 0;
		df->xclk_ratio = (uint16_t)a;
		break;
	}
	if (!ok) {
		bt_diag_set(d, "--sim-defect: '%.*s': expected %s%s", (int)(e - s), s, def->name,
			    *def->param_help ? def->param_help : " (no parameter)");
		return BT_ERR_INVALID;
	}
	df->mask |= def->flag;
	return BT_OK;
}

bt_status bt_sim_defects_parse(const char *spec, struct bt_sim_defects *ret, struct bt_diag *d)
{
	struct bt_sim_defects df;
	memset(&df, 0, sizeof(df));
	if (!spec) {
		*ret = df;
		return BT_OK;
	}
	if (strcmp(spec, "help") == 0) {
		/* The names only: bt_sim_defects_help() has the descriptions. */
		char list[BT_DIAG_MAX - 64];
		size_t n = 0;
		list[0] = '\0';
		for (size_t i = 0; i < N_DEFECTS && n < sizeof(list); i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s%s", i ? ", " : "",
					      defects[i].name, defects[i].param_help);
		bt_diag_set(d, "--sim-defect names: %s", list);
		return BT_ERR_INVALID;
	}
	const char *s = spec;
	while (*s) {
		const char *e = strchr(s, ',');
		if (!e)
			e = s + strlen(s);
		if (e == s) {
			bt_diag_set(d, "--sim-defect: empty item in '%s'", spec);
			return BT_ERR_INVALID;
		}
		bt_status st = item(s, e, &df, d);
		if (st != BT_OK)
			return st;
		s = *e ? e + 1 : e;
		if (*e && !*s) {
			bt_diag_set(d, "--sim-defect: '%s' ends with a comma", spec);
			return BT_ERR_INVALID;
		}
	}
	*ret = df;
	return BT_OK;
}

void bt_sim_defects_format(const struct bt_sim_defects *df, char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < N_DEFECTS && n < len; i++) {
		const struct defect *def = &defects[i];
		if (!(df->mask & def->flag))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", def->name);
		if (n >= len)
			break;
		switch (def->param) {
		case P_NONE:
			break;
		case P_GP:
			n += (size_t)snprintf(buf + n, len - n, ":%u",
					      def->flag == BT_SIM_DEFECT_STUCK_COUNTER ? df->stuck_gp
					      : def->flag == BT_SIM_DEFECT_NARROW_COUNTER ? df->narrow_gp
					      : df->no_ovf_gp);
			break;
		case P_FIXED:
			n += (size_t)snprintf(buf + n, len - n, ":%u", df->dead_fixed);
			break;
		case P_EVENT:
			n += (size_t)snprintf(buf + n, len - n, ":0x%X/0x%02X", df->double_code,
					      df->double_umask);
			break;
		case P_CODE:
			n += (size_t)snprintf(buf + n, len - n, ":0x%X", df->umask_code);
			break;
		case P_RATIO:
			n += (size_t)snprintf(buf + n, len - n, ":%u", df->xclk_ratio);
			break;
		}
	}
	if (!n)
		snprintf(buf, len, "none");
}

/* A defect that cannot act on this PMU would leave a run that looks like
 * a test of it and tests nothing: refused with the reason. */
bt_status bt_sim_defects_check(const struct bt_sim_defects *df, const struct bt_sim_config *cfg,
			       struct bt_diag *d)
{
	bool intel = cfg->vendor == BT_VENDOR_INTEL;
	const char *who = cfg->name ? cfg->name : "this";
	struct {
		uint32_t flag;
		const char *name;
		unsigned k;
	} gp[] = {
		{ BT_SIM_DEFECT_STUCK_COUNTER, "stuck-counter", df->stuck_gp },
		{ BT_SIM_DEFECT_NARROW_COUNTER, "narrow-counter", df->narrow_gp },
		{ BT_SIM_DEFECT_NO_OVERFLOW, "no-overflow-bit", df->no_ovf_gp },
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(gp); i++) {
		if (!(df->mask & gp[i].flag))
			continue;
		bool exists = gp[i].k < cfg->num_gp &&
			      (!cfg->gp_bitmap || ((cfg->gp_bitmap >> gp[i].k) & 1));
		if (!exists) {
			bt_diag_set(d, "--sim-defect=%s:%u cannot apply: the simulated %s PMU has "
				    "%u general counters (0-%u), no counter %u", gp[i].name, gp[i].k,
				    who, cfg->num_gp, cfg->num_gp ? cfg->num_gp - 1u : 0u, gp[i].k);
			return BT_ERR_INVALID;
		}
	}
	if (df->mask & (BT_SIM_DEFECT_FIXED_DEAD | BT_SIM_DEFECT_RDPMC_FIXED_GP) && !intel) {
		bt_diag_set(d, "--sim-defect=%s cannot apply: the simulated %s PMU is AMD's, which "
			    "has no fixed counters", df->mask & BT_SIM_DEFECT_FIXED_DEAD ? "fixed-dead"
			    : "rdpmc-fixed-gp", who);
		return BT_ERR_INVALID;
	}
	if ((df->mask & BT_SIM_DEFECT_FIXED_DEAD) && !(df->dead_fixed < cfg->num_fixed ||
						      ((cfg->fixed_bitmap >> df->dead_fixed) & 1))) {
		bt_diag_set(d, "--sim-defect=fixed-dead:%u cannot apply: the simulated %s PMU has "
			    "no fixed counter %u (%u fixed counters)", df->dead_fixed, who,
			    df->dead_fixed, cfg->num_fixed);
		return BT_ERR_INVALID;
	}
	uint32_t num, den;
	if ((df->mask & BT_SIM_DEFECT_XCLK_RATIO) && !bt_sim_tsc_per_xclk(cfg, &num, &den)) {
		bt_diag_set(d, "--sim-defect=xclk-ratio cannot apply: the simulated %s part states "
			    "no reference clock (CPUID.15H, MSR_PLATFORM_INFO) for REF_XCLK to differ "
			    "from", who);
		return BT_ERR_INVALID;
	}
	if ((df->mask & BT_SIM_DEFECT_PM_STICKY) && !(intel && cfg->perf_metrics)) {
		bt_diag_set(d, "--sim-defect=pm-sticky cannot apply: the simulated %s PMU has no "
			    "PERF_METRICS (IA32_PERF_CAPABILITIES[15] clear)", who);
		return BT_ERR_INVALID;
	}
	if ((df->mask & BT_SIM_DEFECT_FW_TRUNCATES) && !(intel && cfg->full_width)) {
		bt_diag_set(d, "--sim-defect=fw-truncates cannot apply: the simulated %s PMU has "
			    "no full-width counter writes (IA32_PERF_CAPABILITIES[13] clear)", who);
		return BT_ERR_INVALID;
	}
	/* An overflow bit lives in GLOBAL_STATUS and the global enable in
	 * GLOBAL_CTRL: Intel's from version 2 on, AMD's with PerfMonV2 only
	 * (PerfCntrGlobalStatus/Ctl, APM vol. 2 §13.2.2); a legacy AMD counter
	 * counts on its selector's En alone and has no status bit to lose. */
	bool global = intel ? cfg->version >= 2 : cfg->amd_v2;
	if ((df->mask & (BT_SIM_DEFECT_NO_OVERFLOW | BT_SIM_DEFECT_GLOBAL_IGNORED)) && !global) {
		bt_diag_set(d, "--sim-defect=%s cannot apply: the simulated %s PMU has no global "
			    "%s register (%s)",
			    df->mask & BT_SIM_DEFECT_NO_OVERFLOW ? "no-overflow-bit" : "global-ignored",
			    who, df->mask & BT_SIM_DEFECT_NO_OVERFLOW ? "overflow status" : "enable",
			    intel ? "architectural PMU version 1" : "no PerfMonV2");
		return BT_ERR_INVALID;
	}
	if ((df->mask & BT_SIM_DEFECT_AMD_ALIAS_SPLIT) && !(!intel && cfg->amd_core_ext)) {
		bt_diag_set(d, "--sim-defect=amd-alias-split cannot apply: the simulated %s PMU %s",
			    who, intel ? "is Intel's" : "has only the legacy counters (no core "
			    "extension to alias them)");
		return BT_ERR_INVALID;
	}
	return BT_OK;
}
