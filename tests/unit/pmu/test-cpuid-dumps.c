/* SPDX-License-Identifier: MIT */
/*
 * What baretop decides on every real part in ../shared/reference/cpuid/,
 * per kind of core, against expectations written here by hand from the
 * dumps' leaves and Linux perf's rules (arch/x86/events/intel/core.c
 * intel_pmu_init(), intel_pmu_init_hybrid(), update_pmu_cap(),
 * intel_pmu_broken_perf_cap(); amd/core.c amd_core_pmu_init()) and the
 * mapfile (metrics/gen/mapfile.c, from Intel's perfmon mapfile.csv). Never
 * from baretop's own output. Skipped when ../shared is absent.
 *
 * The rules, per column:
 *   general: Intel CPUID.0AH:EAX[15:8], replaced by CPUID.23H.01H:EAX where
 *     leaf 23H exists (CPUID.(07H,1):EAX[8]); ADL/RPL hybrid P-core +2
 *     (Linux cntr_mask <<= 2 | 3), capped at 8; below perfmon v6 at most 8
 *     (SDM vol. 4: PERFEVTSEL0-7 only; Linux would take the ARL-H P-core's
 *     10 from leaf 23H, baretop refuses counters 8-9 at 0x18E/0xC9). AMD:
 *     CPUID 8000_0022H:EBX[3:0] with PerfMonV2, 6 with PerfCtrExtCore.
 *   fixed: CPUID.0AH:EDX[4:0] contiguous | ECX bitmap (v5+), or
 *     CPUID.23H.01H:EBX; ADL/RPL hybrid P-core <<= 1 | 1. AMD: none.
 *   PERF_METRICS: needs fixed counter 3; ADL/RPL and MTL P-core always,
 *     E-cores never (intel_pmu_init_hybrid, MTL's bit 15 broken); other
 *     parts IA32_PERF_CAPABILITIES[15], which a dump lacks: Ice Lake and
 *     later big cores (ICL, TGL, RKL, ICX, SPR, EMR, GNR, LNL/ARL Lion Cove)
 *     have it (Linux num_topdown_events 4 / 8 for them), the rest not.
 *   model: the mapfile row for (family, model, stepping, core type, native
 *     model ID); none for Haswell-EP (6-3F), Rocket Lake (6-A7: no built-in
 *     RKL); TNT for Elkhart Lake (6-96: Linux intel-family.h
 *     INTEL_ATOM_TREMONT, whose core has its own Top-Down events in Linux
 *     core.c and no published model); ARCH, the architectural model,
 *     for Panther Lake (6-CC: Cougar Cove / Darkmont, no published metrics;
 *     both enumerate the Top-Down events, see the second table). ARL-H's Crestmont LP-E cores (6-C5,
 *     core type 20H, native model 2: Intel's mapfile has only an event file
 *     for them) take the model of their core, Meteor Lake's Crestmont
 *     (MTL-CMT), from the core lineage (Linux intel_pmu_init() gives that
 *     PMU Crestmont's extra registers).
 */
#include <dirent.h>
#include <string.h>

#include "analysis/detect-dump.h"
#include "base/array.h"
#include "tests/unit/lib/cpuid-dumps.h"
#include "tests/unit/lib/test.h"

struct expect {
	const char *dump;
	uint32_t first_cpu;      /* of the group */
	const char *model;       /* NULL: no model */
	unsigned general;
	uint32_t fixed_mask;
	bool perf_metrics;
};

static const struct expect expected[] = {
	/* AMD: PerfMonV2, EBX[3:0] = 6; no fixed counters, no PERF_METRICS.
	 * Genoa's two sockets are two blocks of the same core. */
	{ "AuthenticAMD0A10F11_K19_Genoa_01_CPUID", 0, "ZEN4", 6, 0x0, false },
	{ "AuthenticAMD0A10F11_K19_Genoa_01_CPUID", 192, "ZEN4", 6, 0x0, false },
	{ "AuthenticAMD0A60F12_K19_Raphael_01_CPUID", 0, "ZEN4", 6, 0x0, false },
	{ "AuthenticAMD0B00F21_K20_Turin_01_CPUID", 0, "ZEN5", 6, 0x0, false },
	{ "AuthenticAMD0B40F40_K20_GraniteRidge_02_CPUID", 0, "ZEN5", 6, 0x0, false },
	/* 0AH = 07300403h / 00000603h: v3, 4 general (SMT on), 3 fixed. */
	{ "GenuineIntel00306A9_IvyBridge_CPUID", 0, "IVB", 4, 0x7, false },
	{ "GenuineIntel00306C3_Haswell_CPUID", 0, "HSW", 4, 0x7, false },
	{ "GenuineIntel00306F2_HaswellEP_00_CPUID", 0, NULL, 4, 0x7, false },
	/* 07300404h: v4, 4 general; 6-55 stepping 4 and 7 both SKX. */
	{ "GenuineIntel0050654_SkylakeX_CPUID", 0, "SKX", 4, 0x7, false },
	{ "GenuineIntel0050657_CascadeLakeSP_CPUID1", 0, "SKX", 4, 0x7, false },
	/* i5-6400T, no SMT: 07300804h, 8 general. */
	{ "GenuineIntel00506E3_Skylake_CPUID", 0, "SKL", 8, 0x7, false },
	{ "GenuineIntel00906EA_Coffeelake_CPUID", 0, "SKL", 4, 0x7, false },
	/* 08300805h, ECX 0Fh, EDX 8604h: v5, 8 general, fixed 0-3. */
	{ "GenuineIntel00606A6_ICX_04_CPUID", 0, "ICX", 8, 0xF, true },
	{ "GenuineIntel00706E5_IceLakeY_CPUID", 0, "ICL", 8, 0xF, true },
	{ "GenuineIntel00806C1_TigerLake_01_CPUID", 0, "TGL", 8, 0xF, true },
	{ "GenuineIntel00A0671_RocketLake_01_CPUID", 0, NULL, 8, 0xF, true },
	{ "GenuineIntel00806F8_SapphireRapids_05_CPUID", 0, "SPR", 8, 0xF, true },
	{ "GenuineIntel00C06F2_EmeraldRapids_01_CPUID", 0, "EMR", 8, 0xF, true },
	/* Leaf 23H: 23.01H = FFh / 0Fh. */
	{ "GenuineIntel00A06D1_GraniteRapids_03_CPUID", 0, "GNR", 8, 0xF, true },
	/* Tremont: 07300405h, ECX 7, EDX 8603h; the Tremont model by lineage. */
	{ "GenuineIntel0090661_ElkhartLake_CPUID01", 0, "TNT", 4, 0x7, false },
	/* i5-12400: not hybrid, 08300805h: 8/4 as enumerated; the big core
	 * (adl_get_hybrid_cpu_type), so PERF_METRICS and the P-core model. */
	{ "GenuineIntel0090672_AlderLake_02_CPUID", 0, "ADL-GLC", 8, 0xF, true },
	/* Hybrid ADL / RPL: 07300605h, ECX 7, EDX 8603h on both core types;
	 * the P-core gets 6+2 and fixed 0-3, the E-core keeps 6 and 0-2. */
	{ "GenuineIntel0090672_AlderLake_03_CPUID", 0, "ADL-GLC", 8, 0xF, true },
	{ "GenuineIntel0090672_AlderLake_03_CPUID", 16, "ADL-GRT", 6, 0x7, false },
	{ "GenuineIntel00906A3_AlderLakeP_00_CPUID", 0, "ADL-GLC", 8, 0xF, true },
	{ "GenuineIntel00906A3_AlderLakeP_00_CPUID", 12, "ADL-GRT", 6, 0x7, false },
	{ "GenuineIntel00B0671_RaptorLake_01_CPUID", 0, "ADL-GLC", 8, 0xF, true },
	{ "GenuineIntel00B0671_RaptorLake_01_CPUID", 16, "ADL-GRT", 6, 0x7, false },
	/* ADL-N, Gracemont only (6-BE): 07300605h, 6 and 0-2. */
	{ "GenuineIntel00B06E0_AlderLakeN_02_CPUID", 0, "ADL-GRT", 6, 0x7, false },
	/* Meteor Lake, leaf 23H: P 23.01H = FFh/0Fh, E and LP-E FFh/07h (both
	 * core type 20H, native model 2: one kind). */
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 0, "MTL-RWC", 8, 0xF, true },
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 2, "MTL-CMT", 8, 0x7, false },
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 20, "MTL-CMT", 8, 0x7, false },
	/* Lunar Lake / Arrow Lake S, v6: P 3FFh/0Fh, E FFh/77h. */
	{ "GenuineIntel00B06D1_LunarLake_04_CPUID", 0, "LNL-LNC", 10, 0xF, true },
	{ "GenuineIntel00B06D1_LunarLake_04_CPUID", 4, "LNL-SKT", 8, 0x77, false },
	{ "GenuineIntel00C0662_ArrowLake_07_CPUID", 0, "ARL-LNC", 10, 0xF, true },
	{ "GenuineIntel00C0662_ArrowLake_07_CPUID", 2, "ARL-SKT", 8, 0x77, false },
	/* Arrow Lake H, v5 (07300805h): P 3FFh -> 8 (v5), Skymont FFh/77h,
	 * Crestmont LP-E FFh/07h: the two Atom kinds differ. */
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 0, "ARL-LNC", 8, 0xF, true },
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 2, "ARL-SKT", 8, 0x77, false },
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 14, "MTL-CMT", 8, 0x7, false },
	/* Panther Lake L (6-CC), v6 (0D300806h): Cougar Cove 23H.1 EAX 3FFh,
	 * EBX 0Fh; Darkmont FFh/77h. No mapfile row. Linux intel_pmu_init()
	 * runs Lunar Lake's code for it (lnl_common: intel_pmu_init_lnc() on
	 * the P-core, num_topdown_events 8), so the P-core is of the Lion Cove
	 * class, whose simulated CPU supplies IA32_PERF_CAPABILITIES with bit
	 * 15: PERF_METRICS on the P-core, never on the E-core (hybrid rule). */
	{ "GenuineIntel00C06C3_PantherLakeL_01_CPUID", 0, "ARCH", 10, 0xF, true },
	{ "GenuineIntel00C06C3_PantherLakeL_01_CPUID", 4, "ARCH", 8, 0x77, false },
};

#define N_EXPECTED (BT_ARRAY_SIZE(expected))

static const char *core_kind(const struct bt_cpu_info *ci)
{
	return ci->core_type == BT_CORE_TYPE_CORE ? "P" : ci->core_type ? "E" : "-";
}

TEST(every_reference_dump_decided_as_linux_perf_would)
{
	const char *dir = cpuid_dump_dir();
	if (!dir) {
		bt_test_skip("../shared/reference/cpuid not found (set BT_SHARED_CPUID)");
		return;
	}
	/* Every dump in the directory has its expectations, and each
	 * expectation's dump has exactly the groups listed. */
	DIR *dd = opendir(dir);
	CHECK(dd != NULL);
	int n_files = 0;
	struct dirent *de;
	while (dd && (de = readdir(dd)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n < 7 || strcmp(de->d_name + n - 6, ".cpuid") != 0)
			continue;
		n_files++;
		bool listed = false;
		for (size_t i = 0; i < N_EXPECTED; i++)
			listed |= strlen(expected[i].dump) == n - 6 &&
				  strncmp(expected[i].dump, de->d_name, n - 6) == 0;
		CHECK_MSG(listed, "%s: no expectations written for it", de->d_name);
	}
	if (dd)
		closedir(dd);
	CHECK_EQ_INT(n_files, 29);

	printf("# %-46s %-6s %-4s %-8s %7s %5s %s\n", "dump", "cpus", "core", "model",
	       "general", "fixed", "PERF_METRICS");
	for (size_t i = 0; i < N_EXPECTED; i++) {
		const struct expect *e = &expected[i];
		if (i && strcmp(e->dump, expected[i - 1].dump) == 0)
			continue; /* the dump was checked with its first group */
		struct bt_cpuid_dump d;
		struct bt_diag err;
		if (!cpuid_dump_load(dir, e->dump, &d, &err)) {
			CHECK_MSG(false, "%s: %s", e->dump, err.text);
			continue;
		}
		size_t groups = 0;
		for (size_t k = i; k < N_EXPECTED && strcmp(expected[k].dump, e->dump) == 0; k++)
			groups++;
		CHECK_MSG(d.n_groups == groups, "%s: %zu groups, %zu expected", e->dump,
			  d.n_groups, groups);
		for (size_t k = i; k < i + groups; k++) {
			const struct expect *x = &expected[k];
			const struct bt_cpuid_dump_group *g = cpuid_dump_group_of(&d, x->first_cpu);
			CHECK_MSG(g && g->cpus[0] == x->first_cpu, "%s: no group starts with CPU %u",
				  x->dump, x->first_cpu);
			if (!g)
				continue;
			static struct bt_dump_decision r;
			bt_detect_dump_group(g, &r);
			const struct bt_pmu_caps *p = &r.ci.pmu;
			printf("# %-46.46s %-6u %-4s %-8s %7u %5s0x%-3x %s\n", x->dump, x->first_cpu,
			       core_kind(&r.ci), r.model ? r.model : "none", r.general_counters, "",
			       p->fixed_mask, p->perf_metrics ? "yes" : "no");
			CHECK_MSG(x->model ? r.model && strcmp(r.model, x->model) == 0 : !r.model,
				  "%s CPU %u: model %s, expected %s", x->dump, x->first_cpu,
				  r.model ? r.model : "none", x->model ? x->model : "none");
			CHECK_MSG(r.general_counters == x->general, "%s CPU %u: %u general, expected %u",
				  x->dump, x->first_cpu, r.general_counters, x->general);
			CHECK_MSG(p->fixed_mask == x->fixed_mask, "%s CPU %u: fixed 0x%x, expected 0x%x",
				  x->dump, x->first_cpu, p->fixed_mask, x->fixed_mask);
			CHECK_MSG(p->perf_metrics == x->perf_metrics, "%s CPU %u: PERF_METRICS %d, "
				  "expected %d", x->dump, x->first_cpu, p->perf_metrics,
				  x->perf_metrics);
			/* A dump cannot give the MSR: the assumption is always said. */
			if (r.ci.pmu.kind == BT_PMU_INTEL_ARCH) {
				bool said = false;
				for (unsigned n = 0; n < r.n_notes; n++)
					said |= strstr(r.notes[n], "IA32_PERF_CAPABILITIES") != NULL;
				CHECK_MSG(said, "%s CPU %u: no note on IA32_PERF_CAPABILITIES",
					  x->dump, x->first_cpu);
			}
		}
		bt_cpuid_dump_free(&d);
	}
}

/* `cpuid -r` lists every CPU: the CPUs of one kind are grouped although
 * their APIC IDs differ (tests/data/cpuid/raw-rpl-2p2e.txt, written by hand
 * from the i9-13900K's values). */
TEST(raw_cpuid_output_is_grouped_per_kind_of_core)
{
	struct bt_cpuid_dump d;
	struct bt_diag err;
	FILE *f = fopen("tests/data/cpuid/raw-rpl-2p2e.txt", "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	static char text[16384];
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	CHECK(bt_cpuid_dump_parse(text, n, &d, &err) == BT_OK);
	CHECK_STR(d.format, "cpuid -r");
	CHECK_EQ_INT(d.n_groups, 2);
	CHECK(d.n_groups == 2 && d.groups[0].n_cpus == 2 && d.groups[1].n_cpus == 2);
	if (d.n_groups == 2) {
		CHECK_EQ_U64(bt_cpuid_dump_get(&d.groups[1], 0x1A, 0).eax, 0x20000001);
		static struct bt_dump_decision r;
		bt_detect_dump_group(&d.groups[0], &r);
		CHECK_STR(r.model, "ADL-GLC");
		CHECK_EQ_U64(r.ci.pmu.fixed_mask, 0xF);
		CHECK_EQ_INT(r.general_counters, 8);
		CHECK_STR(r.cpus, "0,1");
	}
	bt_cpuid_dump_free(&d);
}

/* Malformed dumps: an error naming the line, nothing returned. */
TEST(malformed_dumps_are_refused_with_the_line)
{
	static const struct { const char *text; const char *want; } cases[] = {
		{ "cpus 0\n00000000.00 00000020 756E6547 6C65746E 49656E69\n0000000A.00 0730 0 0 0\n",
		  "line 3:" },
		{ "# c\n\n00000000.00 00000020 756E6547 6C65746E 49656E69\n", "line 3:" },
		{ "cpus 0,x\n", "line 1:" },
		{ "cpus 0\n00000001.00 00000000 00000000 00000000 00000000\n", "00000000.00" },
		{ "cpus 0\n00000000.00 00000020 756E6547 6C65746E 49656E69\n"
		  "00000000.00 00000020 756E6547 6C65746E 49656E69\n", "line 3: leaf 00000000.00 given twice" },
		{ "CPU 0:\n   0x00000000 0x00: eax=0x00000020 ebx=0x756e6547 ecx=0x6c65746e\n", "line 2:" },
		{ "CPU 0:\n   0x00000000 0x00: eax=0x00000020 ebx=0x756e6547 ecx=0x6c65746e edx=0x49656e69\n"
		  "00000001.00 00000000 00000000 00000000 00000000\n", "line 3: not a `cpuid -r` line" },
		{ "", "no CPUs" },
		{ "hello\n", "line 1:" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		struct bt_cpuid_dump d;
		struct bt_diag err = { "" };
		bt_status st = bt_cpuid_dump_parse(cases[i].text, strlen(cases[i].text), &d, &err);
		CHECK_MSG(st == BT_ERR_INVALID && strstr(err.text, cases[i].want) && d.n_groups == 0,
			  "case %zu: status %d, \"%s\" (want \"%s\")", i, (int)st, err.text,
			  cases[i].want);
	}
}

/* Diamond Rapids is family 19 (Linux intel-family.h INTEL_DIAMONDRAPIDS_X
 * IFM(19, 0x01)): CPUID.01H:EAX = 00400F10h is base family FH + extended
 * family 04H = 13H, model 01H. It must decode so, select no family 6 model,
 * and reach the fallback: ARCH (its 23H.3 = 0DFFh lists Frontend Bound,
 * Backend Bound and Retiring), with the nearest published model suggested,
 * not applied. Leaves written by hand: perfmon v6 with leaf 23H
 * (CPUID.(07H,1):EAX[8]). */
TEST(family_19_is_decoded_and_gets_no_family_6_model)
{
	static const char text[] =
		"cpus 0\n"
		"00000000.00 00000023 756E6547 6C65746E 49656E69\n"
		"00000001.00 00400F10 00800800 7FFAFBFF BFEBFBFF\n"
		"00000007.00 00000001 00000000 00000000 00000000\n"
		"00000007.01 00000100 00000000 00000000 00000000\n"
		"0000000A.00 08300806 00000000 00000007 00008603\n"
		"00000023.00 0000000B 00000003 00000000 00000000\n"
		"00000023.01 000000FF 0000000F 00000000 00000000\n"
		"00000023.03 00000DFF 00000000 00000000 00000000\n";
	struct bt_cpuid_dump d;
	struct bt_diag err = { "" };
	CHECK(bt_cpuid_dump_parse(text, sizeof(text) - 1, &d, &err) == BT_OK);
	if (d.n_groups != 1)
		return;
	static struct bt_dump_decision r;
	bt_detect_dump_group(&d.groups[0], &r);
	CHECK_EQ_INT(r.ci.family, 0x13);
	CHECK_EQ_INT(r.ci.model, 0x01);
	CHECK_STR(r.model, "ARCH");
	CHECK_STR(r.td_source, "ARCH");
	CHECK_EQ_U64(r.ci.pmu.arch_events, 0xDFF);
	CHECK_EQ_INT(r.ci.pmu.kind, BT_PMU_INTEL_ARCH);
	CHECK_EQ_INT(r.ci.pmu.uarch, BT_UARCH_UNKNOWN);
	bool suggested = false;
	for (unsigned n = 0; n < r.n_notes; n++)
		suggested |= strstr(r.notes[n], "nearest published model by core lineage: LNL-LNC "
					      "(Panther Cove), a suggestion, not applied") != NULL;
	CHECK(suggested);
	bt_cpuid_dump_free(&d);
}

/* Bartlett Lake (INTEL_BARTLETTLAKE IFM(6, 0xD7), Raptor Cove, P-cores
 * only): CPUID.01H:EAX = 000D0670h; the Raptor Lake P-core's model. */
TEST(bartlett_lake_takes_the_raptor_cove_model)
{
	static const char text[] =
		"cpus 0\n"
		"00000000.00 00000020 756E6547 6C65746E 49656E69\n"
		"00000001.00 000D0670 00800800 7FFAFBFF BFEBFBFF\n"
		"0000000A.00 08300805 00000000 0000000F 00008604\n";
	struct bt_cpuid_dump d;
	struct bt_diag err = { "" };
	CHECK(bt_cpuid_dump_parse(text, sizeof(text) - 1, &d, &err) == BT_OK);
	if (d.n_groups != 1)
		return;
	static struct bt_dump_decision r;
	bt_detect_dump_group(&d.groups[0], &r);
	CHECK_EQ_INT(r.ci.family, 6);
	CHECK_EQ_INT(r.ci.model, 0xD7);
	CHECK_STR(r.model, "ADL-GLC");
	CHECK_EQ_INT(r.ci.pmu.uarch, BT_UARCH_GLC);
	bool said = false;
	for (unsigned n = 0; n < r.n_notes; n++)
		said |= strstr(r.notes[n], "Bartlett Lake: Raptor Cove cores") != NULL;
	CHECK(said);
	bt_cpuid_dump_free(&d);
}

/*
 * The Top-Down source of every kind of core of every reference dump, written
 * by hand from the dumps' leaves and these rules, never from baretop's
 * output:
 *   events: CPUID.0AH: event x when EBX[x] = 0 and EAX[31:24] > x; replaced
 *     by CPUID.23H.03H:EAX where leaf 23H exists (CPUID.(07H,1):EAX[8] and
 *     max leaf >= 23H) and 23H.00H:EAX[3] lists subleaf 3. SLOTS_PER_CYC =
 *     23H.00H:ECX[7:0].
 *   source: the published model (the model column above); else the model
 *     of the core by lineage: TNT for Tremont (family 6 models 86H, 96H,
 *     9CH), level 1 from Tremont's own events as Linux core.c gives them
 *     (71H/00H, 73H/06H, 74H/00H, C2H/00H) over 4 x cycles (fixed counter
 *     1, CPU_CLK_UNHALTED.CORE); else ARCH where events 8 (Backend Bound),
 *     10 (Frontend Bound) and 11 (Retiring) are all available; else none
 *     (with a reason).
 *   ARCH level 1: PERF_METRICS' fields where the core has PERF_METRICS (the
 *     same assumption as the table above) with the architectural level-1
 *     events available over Topdown Slots as their cross-checks, else the
 *     architectural events;
 *     slots = SLOTS_PER_CYC x cycles where non-zero, else Topdown Slots;
 *     Bad Speculation derived where event 9 is not available.
 * Every Intel PMU before leaf 23H with length 7 (IVB..CFL, ADL/RPL hybrid,
 * ADL-N, Tremont) has 7Fh; length 8 with EBX 0 (ICL..EMR, i5-12400) FFh.
 */
struct td_expect {
	const char *dump;
	uint32_t first_cpu;
	uint32_t arch_events;
	unsigned slots_per_cycle;
	const char *source;        /* NULL: none */
	const char *level1;        /* "published model", "PERF_METRICS", "architectural events",
				    * TNT's name */
	const char *slots;         /* ARCH, TNT: the start of where slots come from */
	bool bad_spec_derived;
	const char *events;        /* ARCH, TNT: the level-1 events, space-separated, in order */
};

#define PUB "published model"
#define PMF "PERF_METRICS"
static const struct td_expect td_expected[] = {
	{ "AuthenticAMD0A10F11_K19_Genoa_01_CPUID", 0, 0, 0, "ZEN4", PUB, NULL, false, NULL },
	{ "AuthenticAMD0A10F11_K19_Genoa_01_CPUID", 192, 0, 0, "ZEN4", PUB, NULL, false, NULL },
	{ "AuthenticAMD0A60F12_K19_Raphael_01_CPUID", 0, 0, 0, "ZEN4", PUB, NULL, false, NULL },
	{ "AuthenticAMD0B00F21_K20_Turin_01_CPUID", 0, 0, 0, "ZEN5", PUB, NULL, false, NULL },
	{ "AuthenticAMD0B40F40_K20_GraniteRidge_02_CPUID", 0, 0, 0, "ZEN5", PUB, NULL, false, NULL },
	{ "GenuineIntel00306A9_IvyBridge_CPUID", 0, 0x7F, 0, "IVB", PUB, NULL, false, NULL },
	{ "GenuineIntel00306C3_Haswell_CPUID", 0, 0x7F, 0, "HSW", PUB, NULL, false, NULL },
	{ "GenuineIntel00306F2_HaswellEP_00_CPUID", 0, 0x7F, 0, NULL, NULL, NULL, false, NULL },
	{ "GenuineIntel0050654_SkylakeX_CPUID", 0, 0x7F, 0, "SKX", PUB, NULL, false, NULL },
	{ "GenuineIntel0050657_CascadeLakeSP_CPUID1", 0, 0x7F, 0, "SKX", PUB, NULL, false, NULL },
	{ "GenuineIntel00506E3_Skylake_CPUID", 0, 0x7F, 0, "SKL", PUB, NULL, false, NULL },
	{ "GenuineIntel00906EA_Coffeelake_CPUID", 0, 0x7F, 0, "SKL", PUB, NULL, false, NULL },
	{ "GenuineIntel00606A6_ICX_04_CPUID", 0, 0xFF, 0, "ICX", PMF, NULL, false, NULL },
	{ "GenuineIntel00706E5_IceLakeY_CPUID", 0, 0xFF, 0, "ICL", PMF, NULL, false, NULL },
	{ "GenuineIntel00806C1_TigerLake_01_CPUID", 0, 0xFF, 0, "TGL", PMF, NULL, false, NULL },
	/* Topdown Slots only: no Frontend/Backend/Retiring event. */
	{ "GenuineIntel00A0671_RocketLake_01_CPUID", 0, 0xFF, 0, NULL, NULL, NULL, false, NULL },
	{ "GenuineIntel00806F8_SapphireRapids_05_CPUID", 0, 0xFF, 0, "SPR", PMF, NULL, false, NULL },
	{ "GenuineIntel00C06F2_EmeraldRapids_01_CPUID", 0, 0xFF, 0, "EMR", PMF, NULL, false, NULL },
	/* 0AH length 8 hides 8-11; 23H.3 = 0DFFh. */
	{ "GenuineIntel00A06D1_GraniteRapids_03_CPUID", 0, 0xDFF, 0, "GNR", PMF, NULL, false, NULL },
	/* Tremont: no architectural Top-Down events (7Fh), its own instead. */
	{ "GenuineIntel0090661_ElkhartLake_CPUID01", 0, 0x7F, 0, "TNT",
	  "Tremont model-specific Top-Down events (Linux core.c)", "4 x core cycles", false,
	  "CPU_CLK_UNHALTED.CORE TOPDOWN_BAD_SPECULATION.ALL TOPDOWN_BE_BOUND.ALL "
	  "TOPDOWN_FE_BOUND.ALL TOPDOWN_RETIRING.ALL" },
	{ "GenuineIntel0090672_AlderLake_02_CPUID", 0, 0xFF, 0, "ADL-GLC", PMF, NULL, false, NULL },
	{ "GenuineIntel0090672_AlderLake_03_CPUID", 0, 0x7F, 0, "ADL-GLC", PMF, NULL, false, NULL },
	{ "GenuineIntel0090672_AlderLake_03_CPUID", 16, 0x7F, 0, "ADL-GRT", PUB, NULL, false, NULL },
	{ "GenuineIntel00906A3_AlderLakeP_00_CPUID", 0, 0x7F, 0, "ADL-GLC", PMF, NULL, false, NULL },
	{ "GenuineIntel00906A3_AlderLakeP_00_CPUID", 12, 0x7F, 0, "ADL-GRT", PUB, NULL, false, NULL },
	{ "GenuineIntel00B0671_RaptorLake_01_CPUID", 0, 0x7F, 0, "ADL-GLC", PMF, NULL, false, NULL },
	{ "GenuineIntel00B0671_RaptorLake_01_CPUID", 16, 0x7F, 0, "ADL-GRT", PUB, NULL, false, NULL },
	{ "GenuineIntel00B06E0_AlderLakeN_02_CPUID", 0, 0x7F, 0, "ADL-GRT", PUB, NULL, false, NULL },
	/* Meteor Lake: 07.01 EAX 40400910h (bit 8), 23H.0 EAX 0Bh. */
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 0, 0xDFF, 0, "MTL-RWC", PMF, NULL, false, NULL },
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 2, 0x7F, 6, "MTL-CMT", PUB, NULL, false, NULL },
	{ "GenuineIntel00A06A4_MeteorLake_10_CPUID", 20, 0x7F, 6, "MTL-CMT", PUB, NULL, false, NULL },
	{ "GenuineIntel00B06D1_LunarLake_04_CPUID", 0, 0x1DFF, 0, "LNL-LNC", PMF, NULL, false, NULL },
	{ "GenuineIntel00B06D1_LunarLake_04_CPUID", 4, 0x1F7F, 8, "LNL-SKT", PUB, NULL, false, NULL },
	{ "GenuineIntel00C0662_ArrowLake_07_CPUID", 0, 0x1DFF, 0, "ARL-LNC", PMF, NULL, false, NULL },
	{ "GenuineIntel00C0662_ArrowLake_07_CPUID", 2, 0x1F7F, 8, "ARL-SKT", PUB, NULL, false, NULL },
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 0, 0x1DFF, 0, "ARL-LNC", PMF, NULL, false, NULL },
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 2, 0x1F7F, 8, "ARL-SKT", PUB, NULL, false, NULL },
	{ "GenuineIntel00C0652_ArrowLakeH_04_CPUID", 14, 0x7F, 6, "MTL-CMT", PUB, NULL, false, NULL },
	/* Panther Lake: no published model; Cougar Cove 23H.3 = 1DFFh (8, 10,
	 * 11: ARCH) with PERF_METRICS -> its fields (the Retiring threshold
	 * also reads Heavy Operations, as LNL-LNC's), cross-checked by the
	 * level-1 architectural events it enumerates (8, 10, 11; not 9) over
	 * Topdown Slots (fixed counter 3); Darkmont 1F7Fh, 23H.0
	 * ECX 8 -> 8 x cycles, Bad Speculation counted (bit 9). */
	{ "GenuineIntel00C06C3_PantherLakeL_01_CPUID", 0, 0x1DFF, 0, "ARCH", PMF, "fixed counter 3",
	  false, "PERF_METRICS.BACKEND_BOUND PERF_METRICS.BAD_SPECULATION "
		 "PERF_METRICS.FRONTEND_BOUND PERF_METRICS.HEAVY_OPERATIONS PERF_METRICS.RETIRING "
		 "TOPDOWN.SLOTS Topdown_Backend_Bound Topdown_Frontend_Bound Topdown_Retiring" },
	{ "GenuineIntel00C06C3_PantherLakeL_01_CPUID", 4, 0x1F7F, 8, "ARCH", "architectural events",
	  "SLOTS_PER_CYC x core cycles", false, "CPU_CLK_UNHALTED.THREAD Topdown_Backend_Bound "
	  "Topdown_Bad_Speculation Topdown_Frontend_Bound Topdown_Retiring" },
};
#undef PUB
#undef PMF

TEST(every_reference_dump_topdown_source_as_written_by_hand)
{
	const char *dir = cpuid_dump_dir();
	if (!dir) {
		bt_test_skip("../shared/reference/cpuid not found (set BT_SHARED_CPUID)");
		return;
	}
	size_t n_td = BT_ARRAY_SIZE(td_expected);
	/* The same dumps and groups as the table above, no more, no less. */
	CHECK_EQ_INT(n_td, N_EXPECTED);
	for (size_t i = 0; i < n_td && i < N_EXPECTED; i++)
		CHECK_MSG(strcmp(td_expected[i].dump, expected[i].dump) == 0 &&
			  td_expected[i].first_cpu == expected[i].first_cpu,
			  "row %zu: %s CPU %u", i, td_expected[i].dump, td_expected[i].first_cpu);
	printf("# %-44s %-4s %-5s %-7s %-3s %-20s %s\n", "dump", "cpu", "kind", "source", "spc",
	       "level 1 from", "events / slots / reason");
	for (size_t i = 0; i < n_td; i++) {
		const struct td_expect *x = &td_expected[i];
		struct bt_cpuid_dump d;
		struct bt_diag err;
		if (!cpuid_dump_load(dir, x->dump, &d, &err)) {
			CHECK_MSG(false, "%s: %s", x->dump, err.text);
			continue;
		}
		const struct bt_cpuid_dump_group *g = cpuid_dump_group_of(&d, x->first_cpu);
		CHECK_MSG(g != NULL, "%s: no group of CPU %u", x->dump, x->first_cpu);
		if (!g) {
			bt_cpuid_dump_free(&d);
			continue;
		}
		static struct bt_dump_decision r;
		bt_detect_dump_group(g, &r);
		char evs[512] = "";
		size_t n = 0;
		for (unsigned k = 0; k < r.n_td_events && n < sizeof(evs); k++)
			n += (size_t)snprintf(evs + n, sizeof(evs) - n, "%s%s", k ? " " : "",
					      r.td_events[k].name);
		printf("# %-44.44s %-4u %-5s %-7s %-3u %-20s %s%s%s%s\n", x->dump, x->first_cpu,
		       core_kind(&r.ci), r.td_source ? r.td_source : "none", r.slots_per_cycle,
		       r.td_source ? r.td_level1 : "-",
		       r.td_source && (strcmp(r.td_source, "ARCH") == 0 ||
				       strcmp(r.td_source, "TNT") == 0) ? evs
		       : r.td_source ? "(the model's)" : r.td_reason,
		       r.td_slots ? " | slots: " : "", r.td_slots ? r.td_slots : "",
		       r.td_bad_spec_derived ? " | Bad_Speculation derived" : "");
		CHECK_MSG(r.ci.pmu.arch_events == x->arch_events, "%s CPU %u: events 0x%x, expected 0x%x",
			  x->dump, x->first_cpu, r.ci.pmu.arch_events, x->arch_events);
		CHECK_MSG(r.slots_per_cycle == x->slots_per_cycle, "%s CPU %u: SLOTS_PER_CYC %u, "
			  "expected %u", x->dump, x->first_cpu, r.slots_per_cycle, x->slots_per_cycle);
		CHECK_MSG(x->source ? r.td_source && strcmp(r.td_source, x->source) == 0 : !r.td_source,
			  "%s CPU %u: source %s, expected %s", x->dump, x->first_cpu,
			  r.td_source ? r.td_source : "none", x->source ? x->source : "none");
		if (!x->source) {
			CHECK_MSG(r.td_reason[0] && r.n_td_events == 0, "%s CPU %u: no reason",
				  x->dump, x->first_cpu);
			bt_cpuid_dump_free(&d);
			continue;
		}
		CHECK_MSG(r.td_source && strcmp(r.td_level1, x->level1) == 0, "%s CPU %u: level 1 "
			  "from %s, expected %s", x->dump, x->first_cpu, r.td_level1, x->level1);
		CHECK_MSG(r.n_td_events > 0, "%s CPU %u: no level-1 events", x->dump, x->first_cpu);
		CHECK_MSG(x->slots ? r.td_slots && strncmp(r.td_slots, x->slots, strlen(x->slots)) == 0
				   : !r.td_slots, "%s CPU %u: slots %s", x->dump, x->first_cpu,
			  r.td_slots ? r.td_slots : "-");
		CHECK_MSG(r.td_bad_spec_derived == x->bad_spec_derived, "%s CPU %u: Bad_Speculation "
			  "derived %d", x->dump, x->first_cpu, r.td_bad_spec_derived);
		if (x->events)
			CHECK_MSG(strcmp(evs, x->events) == 0, "%s CPU %u: events \"%s\", expected "
				  "\"%s\"", x->dump, x->first_cpu, evs, x->events);
		bt_cpuid_dump_free(&d);
	}
}
