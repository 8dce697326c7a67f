/* SPDX-License-Identifier: MIT */
/*
 * Workload registry, parameter parsing ("name=value", specs) with its error
 * messages, and what happens when the platform lacks a service the workload
 * needs (no partner CPU, no executable memory).
 */
#include "tests/unit/lib/test.h"
#include "workloads/wl-common.h"
#include "workloads/workload.h"

static uint64_t value_of(const struct bt_wl_config *cfg, const char *name)
{
	uint64_t v = ~0ull;

	CHECK_MSG(bt_wl_config_get(cfg, name, &v), "no parameter %s", name);
	return v;
}

TEST(registry_is_consistent)
{
	size_t n, n_suite;
	const struct bt_workload *const *all = bt_wl_all(&n);
	const struct bt_workload *const *suite = bt_wl_default_suite(&n_suite);

	CHECK(n >= 19);
	for (size_t i = 0; i < n; i++) {
		const struct bt_workload *wl = all[i];

		CHECK(bt_wl_find(wl->name) == wl);
		CHECK(wl->summary && wl->summary[0]);
		CHECK(wl->signature_intel && wl->signature_intel[0]);
		CHECK(wl->signature_amd && wl->signature_amd[0]);
		CHECK(wl->setup && wl->run && wl->checksum && wl->teardown);
		CHECK(wl->n_params <= BT_WL_MAX_PARAMS);
		for (size_t j = i + 1; j < n; j++)
			CHECK(strcmp(wl->name, all[j]->name) != 0);
		for (unsigned p = 0; p < wl->n_params; p++) {
			const struct bt_wl_param *pr = &wl->params[p];
			uint64_t mult = pr->multiple > 1 ? pr->multiple : 1;

			CHECK_MSG(pr->def >= pr->min && pr->def <= pr->max && pr->def % mult == 0,
				  "%s.%s default", wl->name, pr->name);
			CHECK_MSG(pr->quick >= pr->min && pr->quick <= pr->max && pr->quick % mult == 0,
				  "%s.%s quick", wl->name, pr->name);
			CHECK(pr->help && pr->help[0]);
			if (pr->kind == BT_WL_PARAM_CHOICE) {
				uint64_t count = 0;

				while (pr->choices[count])
					count++;
				CHECK_EQ_U64(pr->max + 1, count);
			}
		}
	}
	CHECK(n_suite >= 1);
	for (size_t i = 0; i < n_suite; i++)
		CHECK(bt_wl_find(suite[i]->name) == suite[i]);
	CHECK(bt_wl_find("no-such-workload") == NULL);
	CHECK(bt_wl_find("multiply") == NULL);
}

TEST(presets_give_paper_size_and_quick_size)
{
	struct bt_wl_config cfg;

	bt_wl_config_init(&cfg, bt_wl_find("multiply1"), BT_WL_DEFAULT);
	CHECK_EQ_U64(value_of(&cfg, "n"), 2048);
	bt_wl_config_init(&cfg, bt_wl_find("multiply1"), BT_WL_QUICK);
	CHECK(value_of(&cfg, "n") <= 256);
	bt_wl_config_init(&cfg, bt_wl_find("ptr-chase-dram"), BT_WL_DEFAULT);
	CHECK(value_of(&cfg, "size") <= 256ull << 20);   /* fits a 512 MiB QEMU guest */
}

TEST(values_and_suffixes)
{
	struct bt_wl_config cfg;
	struct bt_diag d;

	bt_wl_config_init(&cfg, bt_wl_find("ptr-chase-l2"), BT_WL_DEFAULT);
	CHECK(bt_wl_config_set(&cfg, "size=64K", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "size"), 65536);
	CHECK(bt_wl_config_set(&cfg, "size=1MiB", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "size"), 1 << 20);
	CHECK(bt_wl_config_set(&cfg, "size=2g", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "size"), 2ull << 30);
	CHECK(bt_wl_config_set(&cfg, "size=0x1000", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "size"), 4096);
	CHECK(bt_wl_config_set(&cfg, "size=8192B", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "size"), 8192);
	/* Counts are decimal: K = 1000. */
	CHECK(bt_wl_config_set(&cfg, "steps=3M", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "steps"), 3000000);
	CHECK(bt_wl_config_set(&cfg, "steps=12k", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "steps"), 12000);

	bt_wl_config_init(&cfg, bt_wl_find("multiply3"), BT_WL_DEFAULT);
	CHECK(bt_wl_config_set(&cfg, "isa=sse2", &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "isa"), 1);
}

static void expect_error(const char *workload, const char *assignment, const char *needle)
{
	struct bt_wl_config cfg, before;
	struct bt_diag d = { "" };

	bt_wl_config_init(&cfg, bt_wl_find(workload), BT_WL_DEFAULT);
	before = cfg;
	CHECK_MSG(bt_wl_config_set(&cfg, assignment, &d) == BT_ERR_INVALID,
		  "%s %s accepted", workload, assignment);
	CHECK_MSG(strstr(d.text, needle) != NULL, "%s %s: message '%s' lacks '%s'", workload,
		  assignment, d.text, needle);
	CHECK_MSG(strstr(d.text, workload) != NULL, "message '%s' does not name %s", d.text,
		  workload);
	CHECK_MSG(memcmp(&cfg, &before, sizeof cfg) == 0, "%s %s changed the config", workload,
		  assignment);
}

TEST(parse_errors_say_what_is_wrong)
{
	expect_error("ptr-chase-l1", "sise=4K", "unknown parameter 'sise' (parameters: size, steps)");
	expect_error("ptr-chase-l1", "size", "expected name=value");
	expect_error("ptr-chase-l1", "=4K", "expected name=value");
	expect_error("ptr-chase-l1", "size=", "empty value");
	expect_error("ptr-chase-l1", "size=abc", "not a number");
	expect_error("ptr-chase-l1", "size=-64", "not a number");
	expect_error("ptr-chase-l1", "size=0x", "not a number");
	expect_error("ptr-chase-l1", "size=4Q", "bad size suffix");
	expect_error("ptr-chase-l1", "size=4KB", "bad size suffix");
	expect_error("ptr-chase-l1", "size=200", "multiple of 64");
	expect_error("ptr-chase-l1", "size=64", "out of range");
	expect_error("ptr-chase-l1", "size=99999999999999999999", "too large");
	expect_error("ptr-chase-l1", "size=0xFFFFFFFFFFFFFFFFF", "too large");
	expect_error("ptr-chase-l1", "size=17179869184G", "too large");
	expect_error("ptr-chase-l1", "steps=1KiB", "bad suffix");
	expect_error("ptr-chase-l1", "steps=0", "out of range");
	expect_error("multiply1", "n=4097", "out of range (1..4096)");
	expect_error("multiply3", "isa=avx2", "expected one of auto, sse2, avx, avx512");
	expect_error("multiply3", "isa=", "empty value");
	expect_error("branch-mispredict", "taken_pct=101", "out of range");
}

TEST(specs_select_a_workload_and_its_parameters)
{
	struct bt_wl_config cfg;
	struct bt_diag d;

	CHECK(bt_wl_config_from_spec(&cfg, "div-chain", BT_WL_QUICK, &d) == BT_OK);
	CHECK_STR(cfg.wl->name, "div-chain");
	CHECK_EQ_U64(value_of(&cfg, "iterations"), cfg.wl->params[0].quick);
	CHECK(bt_wl_config_from_spec(&cfg, "div-chain:iterations=5,divisor=3", BT_WL_DEFAULT, &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "iterations"), 5);
	CHECK_EQ_U64(value_of(&cfg, "divisor"), 3);
	CHECK(bt_wl_config_from_spec(&cfg, "div-chain: iterations=6  divisor=4,", BT_WL_DEFAULT, &d) == BT_OK);
	CHECK_EQ_U64(value_of(&cfg, "iterations"), 6);
	CHECK_EQ_U64(value_of(&cfg, "divisor"), 4);
	CHECK(bt_wl_config_from_spec(&cfg, "div-chain:", BT_WL_DEFAULT, &d) == BT_OK);

	CHECK(bt_wl_config_from_spec(&cfg, "dvi-chain", BT_WL_DEFAULT, &d) == BT_ERR_NOT_FOUND);
	CHECK(strstr(d.text, "no workload 'dvi-chain'; did you mean 'div-chain'?") != NULL);
	CHECK(strstr(d.text, "--list-workloads lists them") != NULL);
	CHECK(bt_wl_config_from_spec(&cfg, "", BT_WL_DEFAULT, &d) == BT_ERR_NOT_FOUND);
	CHECK(bt_wl_config_from_spec(&cfg, ":n=3", BT_WL_DEFAULT, &d) == BT_ERR_NOT_FOUND);
	CHECK(bt_wl_config_from_spec(&cfg, "div-chain:divisor=0", BT_WL_DEFAULT, &d) ==
	      BT_ERR_INVALID);
	CHECK(strstr(d.text, "div-chain: divisor=0: out of range") != NULL);
}

TEST(format_then_parse_round_trips_for_every_workload)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	for (size_t i = 0; i < n; i++) {
		for (int preset = BT_WL_DEFAULT; preset <= BT_WL_QUICK; preset++) {
			struct bt_wl_config cfg, back;
			char text[256], spec[320];
			struct bt_diag d;
			size_t len;

			bt_wl_config_init(&cfg, all[i], (enum bt_wl_preset)preset);
			len = bt_wl_config_format(&cfg, text, sizeof text);
			CHECK(len == strlen(text));
			snprintf(spec, sizeof spec, "%s:%s", all[i]->name, text);
			/* Parse onto the OTHER preset, so every value must come from the text. */
			CHECK_MSG(bt_wl_config_from_spec(&back, spec, (enum bt_wl_preset)!preset, &d) == BT_OK, "%s: %s", spec, d.text);
			CHECK_MSG(memcmp(back.values, cfg.values, sizeof cfg.values) == 0, "%s", spec);
		}
	}
}

TEST(format_reports_the_length_it_needs)
{
	struct bt_wl_config cfg;
	char small[8];
	char big[128];

	bt_wl_config_init(&cfg, bt_wl_find("ptr-chase-dram"), BT_WL_DEFAULT);
	CHECK_EQ_INT(bt_wl_config_format(&cfg, big, sizeof big), strlen("size=256MiB steps=1000000"));
	CHECK_STR(big, "size=256MiB steps=1000000");
	CHECK_EQ_INT(bt_wl_config_format(&cfg, small, sizeof small), strlen(big));
	CHECK_STR(small, "size=25");
}

/* ------------------------------------------------------------ missing platform services */

static bt_status failing_start(void (*fn)(void *), void *arg, void *ctx)
{
	return BT_ERR_UNSUPPORTED;
}

static bt_status never_wait(void *ctx)
{
	return BT_OK;
}

TEST(two_core_workloads_say_they_need_a_second_cpu)
{
	struct bt_wl_env none = { 0 }, failing = { 0 }, single = { 0 };
	struct bt_wl_config cfg;
	struct bt_wl_instance inst;
	struct bt_diag d;

	bt_wl_config_init(&cfg, bt_wl_find("false-sharing"), BT_WL_QUICK);
	CHECK(bt_wl_setup(&inst, &cfg, &none, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "needs a second CPU") != NULL);

	single.start_partner = failing_start;
	single.wait_partner = never_wait;
	single.cpu.logical_cpus = 1;
	CHECK(bt_wl_setup(&inst, &cfg, &single, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "needs a second CPU") != NULL);

	/* The platform claims to have a partner, but starting it fails. */
	failing.start_partner = failing_start;
	failing.wait_partner = never_wait;
	bt_wl_config_init(&cfg, bt_wl_find("memory-order-clears"), BT_WL_QUICK);
	CHECK(bt_wl_setup(&inst, &cfg, &failing, &d) == BT_OK);
	CHECK(bt_wl_before_run(&inst, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "needs a second CPU") != NULL);
	bt_wl_teardown(&inst);
}

TEST(code_footprint_needs_executable_memory)
{
	struct bt_wl_env none = { 0 };
	struct bt_wl_config cfg;
	struct bt_wl_instance inst;
	struct bt_diag d;

	bt_wl_config_init(&cfg, bt_wl_find("code-footprint"), BT_WL_QUICK);
	CHECK(bt_wl_setup(&inst, &cfg, &none, &d) == BT_ERR_UNSUPPORTED);
	CHECK(strstr(d.text, "executable memory") != NULL);
}

TEST(setup_rechecks_values_that_bypassed_the_parser)
{
	struct bt_wl_env none = { 0 };
	struct bt_wl_config cfg;
	struct bt_wl_instance inst;
	struct bt_diag d;

	bt_wl_config_init(&cfg, bt_wl_find("ptr-chase-l1"), BT_WL_QUICK);
	cfg.values[0] = 100;   /* not a multiple of 64 */
	CHECK(bt_wl_setup(&inst, &cfg, &none, &d) == BT_ERR_INVALID);
	bt_wl_config_init(&cfg, bt_wl_find("4k-alias"), BT_WL_QUICK);
	CHECK(bt_wl_config_set(&cfg, "offset=1024", &d) == BT_OK);
	CHECK(bt_wl_setup(&inst, &cfg, &none, &d) == BT_OK);
	bt_wl_teardown(&inst);
}

