/* SPDX-License-Identifier: MIT */
/* Model selection from CPUID facts (metrics/gen/mapfile.c from mapfile.csv). */
#include <string.h>

#include "metrics/builtin.h"
#include "metrics/lineage.h"
#include "metrics/select.h"
#include "tests/unit/lib/test.h"

static const char *pick(const char *vendor, unsigned family, unsigned model, unsigned stepping,
			unsigned core)
{
	struct bt_cpu_facts f = { .vendor = vendor, .family = family, .model = model,
				  .stepping = stepping, .core_type = (uint8_t)core };
	const struct bt_model_def *def;
	struct bt_diag d;
	return bt_model_select(&f, NULL, &def, &d) == BT_OK ? def->id : "none";
}

TEST(intel_cpus)
{
	CHECK_STR(pick("GenuineIntel", 6, 0x3C, 3, 0), "HSW");
	CHECK_STR(pick("GenuineIntel", 6, 0x3A, 9, 0), "IVB");
	CHECK_STR(pick("GenuineIntel", 6, 0x9E, 10, 0), "SKL");     /* Coffee Lake */
	CHECK_STR(pick("GenuineIntel", 6, 0x55, 4, 0), "SKX");      /* Skylake-SP */
	CHECK_STR(pick("GenuineIntel", 6, 0x55, 7, 0), "SKX");      /* Cascade Lake */
	CHECK_STR(pick("GenuineIntel", 6, 0x7E, 5, 0), "ICL");
	CHECK_STR(pick("GenuineIntel", 6, 0x8C, 1, 0), "TGL");
	CHECK_STR(pick("GenuineIntel", 6, 0x6A, 6, 0), "ICX");
	CHECK_STR(pick("GenuineIntel", 6, 0x97, 2, 0x40), "ADL-GLC");
	CHECK_STR(pick("GenuineIntel", 6, 0x97, 2, 0x20), "ADL-GRT");
	CHECK_STR(pick("GenuineIntel", 6, 0xB7, 1, 0x40), "ADL-GLC"); /* Raptor Lake */
	CHECK_STR(pick("GenuineIntel", 6, 0xBE, 0, 0), "ADL-GRT");    /* Alder Lake-N: E-cores only */
	CHECK_STR(pick("GenuineIntel", 6, 0x8F, 8, 0), "SPR");
	CHECK_STR(pick("GenuineIntel", 6, 0xCF, 2, 0), "EMR");
	CHECK_STR(pick("GenuineIntel", 6, 0xAD, 1, 0), "GNR");
	CHECK_STR(pick("GenuineIntel", 6, 0xAF, 3, 0), "SRF");
	CHECK_STR(pick("GenuineIntel", 6, 0xAA, 4, 0x40), "MTL-RWC");
	CHECK_STR(pick("GenuineIntel", 6, 0xAA, 4, 0x20), "MTL-CMT");
	CHECK_STR(pick("GenuineIntel", 6, 0xBD, 1, 0x40), "LNL-LNC");
	CHECK_STR(pick("GenuineIntel", 6, 0xBD, 1, 0x20), "LNL-SKT");
	CHECK_STR(pick("GenuineIntel", 6, 0xC6, 2, 0x40), "ARL-LNC");
	CHECK_STR(pick("GenuineIntel", 6, 0xC6, 2, 0x20), "ARL-SKT");
	/* a hybrid part needs its core type */
	CHECK_STR(pick("GenuineIntel", 6, 0x97, 2, 0), "none");
	/* unknown */
	CHECK_STR(pick("GenuineIntel", 6, 0x1A, 0, 0), "none"); /* Nehalem */
}

TEST(amd_cpus)
{
	/* Linux perf: family 0x19 models 0x00-0x0f and 0x20-0x5f are Zen 3 */
	CHECK_STR(pick("AuthenticAMD", 0x19, 0x11, 1, 0), "ZEN4"); /* Genoa */
	CHECK_STR(pick("AuthenticAMD", 0x19, 0x61, 2, 0), "ZEN4"); /* Raphael */
	CHECK_STR(pick("AuthenticAMD", 0x19, 0x21, 0, 0), "none"); /* Vermeer: Zen 3 */
	CHECK_STR(pick("AuthenticAMD", 0x19, 0x01, 1, 0), "none"); /* Milan: Zen 3 */
	CHECK_STR(pick("AuthenticAMD", 0x1A, 0x44, 0, 0), "ZEN5");
	CHECK_STR(pick("AuthenticAMD", 0x17, 0x31, 0, 0), "none"); /* Zen 2 */
}

TEST(unknown_cpu_lists_models_and_force_works)
{
	struct bt_cpu_facts f = { .vendor = "GenuineIntel", .family = 6, .model = 0x1A };
	const struct bt_model_def *def;
	struct bt_diag d = { "" };
	CHECK(bt_model_select(&f, NULL, &def, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "no built-in model for CPU GenuineIntel-6-1A-0") != NULL);
	CHECK(strstr(d.text, "HSW IVB SKL") != NULL && strstr(d.text, "ZEN5") != NULL);
	CHECK(bt_model_select(&f, "spr", &def, &d) == BT_OK);
	CHECK_STR(def->id, "SPR");
	CHECK(bt_model_select(NULL, "SPR-HBM", &def, &d) == BT_OK);
	CHECK(bt_model_select(&f, "NOPE", &def, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "no built-in model \"NOPE\"; available: HSW") != NULL);
}

/* Known cores in new packages take the published model of their core
 * (Linux intel-family.h names it); new cores get a suggestion only. */
TEST(core_lineage_and_never_family_6_assumed)
{
	/* INTEL_BARTLETTLAKE IFM(6, 0xD7) "Raptor Cove": not hybrid. */
	CHECK_STR(pick("GenuineIntel", 6, 0xD7, 0, 0), "ADL-GLC");
	/* Arrow Lake H's LP E-cores (core type 20H, native model 2) are
	 * Crestmont; its Skymont E-cores (native model 3) stay ARL-SKT. */
	struct bt_cpu_facts f = { .vendor = "GenuineIntel", .family = 6, .model = 0xC5,
				  .stepping = 2, .core_type = 0x20, .native_model = 2 };
	const struct bt_model_def *def = NULL;
	struct bt_diag d = { "" };
	CHECK(bt_model_select(&f, NULL, &def, &d) == BT_OK && strcmp(def->id, "MTL-CMT") == 0);
	f.native_model = 3;
	CHECK(bt_model_select(&f, NULL, &def, &d) == BT_OK && strcmp(def->id, "ARL-SKT") == 0);
	/* Diamond Rapids: family 19 (13H) model 1, Panther Cove. No model;
	 * the nearest by lineage is suggested, not applied. */
	struct bt_cpu_facts dmr = { .vendor = "GenuineIntel", .family = 19, .model = 0x01 };
	d.text[0] = '\0';
	CHECK(bt_model_select(&dmr, NULL, &def, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "GenuineIntel-19-1-0") != NULL);
	CHECK(strstr(d.text, "nearest published model by core lineage: LNL-LNC (Panther Cove), "
			     "not applied") != NULL);
	/* The same model numbers in another family are not those parts. */
	CHECK_STR(pick("GenuineIntel", 19, 0xD7, 0, 0), "none");
	CHECK_STR(pick("GenuineIntel", 19, 0x8F, 0, 0), "none");
	CHECK_STR(pick("GenuineIntel", 0x18, 0xBD, 0, 0x40), "none");
	/* Panther Lake: Cougar Cove / Darkmont, new cores: suggestions only. */
	struct bt_cpu_facts ptl = { .vendor = "GenuineIntel", .family = 6, .model = 0xCC,
				    .core_type = 0x20, .native_model = 4 };
	CHECK(bt_model_select(&ptl, NULL, &def, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "LNL-SKT (Darkmont)") != NULL);
	const char *why = NULL;
	ptl.core_type = 0x40;
	CHECK_STR(bt_model_suggest(&ptl, &why), "LNL-LNC");
	CHECK_STR(why, "Cougar Cove");
	/* A family 6 non-hybrid model nobody names: no suggestion. */
	struct bt_cpu_facts nhm = { .vendor = "GenuineIntel", .family = 6, .model = 0x1A };
	CHECK(bt_model_suggest(&nhm, &why) == NULL);
}
