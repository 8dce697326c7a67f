/* SPDX-License-Identifier: MIT */
/*
 * The results document from a hand-filled struct bt_results, as a new
 * output format would be tested: report/ needs nothing from app/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/results.h"
#include "report/results-boot.h"
#include "tests/unit/lib/test.h"

static const char *has(const char *doc, const char *text)
{
	const char *p = strstr(doc, text);

	if (!p)
		fprintf(stderr, "# missing: %s\n", text);
	return p;
}

TEST(minimal_run)
{
	static char *argv[] = { "baretop", "--no-workloads" };
	static const char messages[2][BT_RESULTS_MESSAGE_LEN] = { "first", "a \"quoted\"\tnote" };
	struct bt_platform_facts pf = {
		.name = "hosted (test)", .firmware_vendor = "", .program_path = "",
		.arch_backend = "none", .fault_guard_detail = "not here",
	};
	struct bt_cpu_info cpu = { .vendor_str = "GenuineIntel", .family = 6, .model = 0x55 };
	struct bt_cpu_census census = { .note = "cannot enumerate" };
	struct bt_results res = {
		.version = "9.9", .argc = 2, .argv = argv, .platform = &pf, .cpu = &cpu,
		.census = &census, .exit_status = 3, .messages = messages, .n_messages = 2,
	};
	struct bt_strbuf sb = { 0 };

	CHECK_EQ_INT(bt_results_json.render(&res, 7, &sb), BT_OK);
	const char *doc = bt_sb_str(&sb);
	CHECK(strncmp(doc, "{\n  \"format\": \"baretop-results\",\n  \"format_version\": 3,\n"
			   "  \"sequence\": 7,\n  \"simulated\": false,\n", 95) == 0);
	CHECK(has(doc, "\"command_line\": [\n      \"baretop\",\n      \"--no-workloads\"\n    ]"));
	CHECK(has(doc, "\"config_file\": null\n"));
	CHECK(has(doc, "\"firmware_clock\": null,"));
	CHECK(has(doc, "\"uefi_revision\": null,"));
	CHECK(has(doc, "\"firmware_vendor\": null,"));
	CHECK(has(doc, "\"model_hex\": \"0x55\","));
	CHECK(has(doc, "\"logical_cpus\": null,\n    \"logical_cpus_note\": \"cannot enumerate\""));
	CHECK(!strstr(doc, "\"run\""));
	CHECK(has(doc, "\"check\": null,\n    \"ap_faults\": []\n  },"));
	CHECK(has(doc, "\"exit_status\": 3,\n    \"messages\": [\n      \"first\",\n"
		       "      \"a \\\"quoted\\\"\\tnote\"\n    ],\n"
		       "    \"results_volume\": {\n      \"free_bytes\": null,\n"
		       "      \"keep_results\": null,\n      \"min_free_bytes\": 0\n    }\n  }\n}\n"));
	bt_sb_free(&sb);
}

/* A message as long as a PMU's whole absent reason (256 bytes) and its
 * prefix is written whole: the slot used to end it at 199 bytes. */
TEST(long_message_whole)
{
	static char *argv[] = { "baretop" };
	static char messages[1][BT_RESULTS_MESSAGE_LEN];
	char reason[256];
	memset(reason, 'r', sizeof(reason) - 1);
	reason[sizeof(reason) - 1] = '\0';
	snprintf(messages[0], sizeof(messages[0]), "no PMU: %s (--assume-amd-legacy-pmu)", reason);
	struct bt_platform_facts pf = { .name = "hosted (test)", .firmware_vendor = "",
					.program_path = "", .arch_backend = "none",
					.fault_guard_detail = "" };
	struct bt_cpu_info cpu = { .vendor_str = "AuthenticAMD", .family = 0xF, .model = 6 };
	struct bt_cpu_census census = { .note = "" };
	struct bt_results res = { .version = "9.9", .argc = 1, .argv = argv, .platform = &pf,
				  .cpu = &cpu, .census = &census, .messages =
					  (const char (*)[BT_RESULTS_MESSAGE_LEN])messages,
				  .n_messages = 1 };
	struct bt_strbuf sb = { 0 };

	CHECK_EQ_INT(bt_results_json.render(&res, 1, &sb), BT_OK);
	CHECK(has(bt_sb_str(&sb), messages[0]));
	CHECK(has(bt_sb_str(&sb), "rrr (--assume-amd-legacy-pmu)\""));
	bt_sb_free(&sb);
}

TEST(workload_records)
{
	static char *argv[] = { "baretop" };
	struct bt_platform_facts pf = { .name = "t", .arch_backend = "none",
					.fault_guard_installed = true, .fault_guard_detail = "ok" };
	struct bt_cpu_info cpu = { .vendor_str = "AuthenticAMD" };
	struct bt_cpu_census census = { .total = 4, .enabled = 4, .packages = 1,
					.threads_per_core = 2 };
	struct bt_outcome o[2] = {
		{ .name = "alu", .copies = 1, .state = BT_OUTCOME_RAN, .has_checksum = true,
		  .checksum = 0xabc, .timed = true,
		  .timing = { .min = 1000, .median = 2000, .max = 3000, .runs = 3 },
		  .not_counted = "no PMU" },
		{ .name = "gone", .copies = 1, .state = BT_OUTCOME_SKIPPED, .reason = "why" },
	};
	struct bt_run_record run = {
		.no_count_reason = "no PMU", .warmups = 1, .reps = 3, .vector_state = "as it was",
		.xcr0 = 0xe7, .tsc_hz = 1000000, .outcomes = o, .n_outcomes = 2,
	};
	struct bt_fault_selftest st = { .n = 1, .probe = { { .what = "UD2", .ran = true,
						   .faulted = true, .vector = 6, .note = "n" } } };
	struct bt_results res = { .version = "v", .argc = 1, .argv = argv, .platform = &pf,
				  .cpu = &cpu, .census = &census, .run = &run,
				  .fault_guard_check = 6, .selftest = &st };
	struct bt_strbuf sb = { 0 };

	CHECK_EQ_INT(bt_results_json.render(&res, 1, &sb), BT_OK);
	const char *doc = bt_sb_str(&sb);
	CHECK(has(doc, "\"run\": {\n    \"counted\": false,\n    \"not_counted_reason\": \"no PMU\","));
	CHECK(has(doc, "\"xcr0\": \"0xe7\","));
	CHECK(has(doc, "\"checksum\": \"0xabc\",\n        \"time\": {\n          \"runs\": 3,"));
	CHECK(has(doc, "\"ms_median\": 2,"));
	CHECK(has(doc, "\"not_counted\": \"no PMU\"\n      },"));
	CHECK(has(doc, "\"state\": \"skipped\",\n        \"reason\": \"why\","));
	CHECK(has(doc, "\"logical_cpus\": 4,"));
	CHECK(has(doc, "\"smt\": true,"));
	CHECK(has(doc, "\"installed\": true,"));
	CHECK(has(doc, "\"vector\": \"#UD\""));
	bt_sb_free(&sb);
}

/* A workload the budget cut short between counter groups is listed in the
 * boot record next to the ones it left out entirely. */
TEST(boot_record_lists_partial_workloads)
{
	static char *argv[] = { "baretop", "--budget=2" };
	struct bt_platform_facts pf = {
		.name = "hosted (test)", .firmware_vendor = "", .program_path = "",
		.arch_backend = "none", .fault_guard_detail = "not here",
	};
	struct bt_cpu_info cpu = { .vendor_str = "GenuineIntel", .family = 6, .model = 0x55 };
	struct bt_cpu_census census = { .note = "cannot enumerate" };
	static const char *const not_run[] = { "multiply2 on CPU 0" };
	static const char *const partial[] = { "multiply1 on CPU 0: 8 of 11 counter groups not run" };
	struct bt_results_boot boot = {
		.handover = "return", .nvram = "not used (no --run)", .budget_s = 2,
		.budget_ended = true, .elapsed_s = 1.5, .not_run = not_run, .n_not_run = 1,
		.partial = partial, .n_partial = 1,
	};
	struct bt_results res = {
		.version = "9.9", .argc = 2, .argv = argv, .platform = &pf, .cpu = &cpu,
		.census = &census, .boot = &boot,
	};
	struct bt_strbuf sb = { 0 };

	CHECK_EQ_INT(bt_results_json.render(&res, 1, &sb), BT_OK);
	const char *doc = bt_sb_str(&sb);
	CHECK(has(doc, "\"budget_ended\": true,"));
	CHECK(has(doc, "\"steps_not_run\": [\n        \"multiply2 on CPU 0\"\n      ],\n"
		       "      \"steps_partial\": [\n"
		       "        \"multiply1 on CPU 0: 8 of 11 counter groups not run\"\n      ]"));
	bt_sb_free(&sb);
}

static int link_noreplace(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return -1;
	return unlink(from);
}

/* --min-free holds after the write: a document that would take the volume
 * below the floor is not written, and the reason gives the sizes. */
TEST(floor_holds_after_the_write)
{
	static char *argv[] = { "baretop" };
	struct bt_platform_facts pf = {
		.name = "hosted (test)", .firmware_vendor = "", .program_path = "",
		.arch_backend = "none", .fault_guard_detail = "not here",
	};
	struct bt_cpu_info cpu = { .vendor_str = "GenuineIntel", .family = 6, .model = 0x55 };
	struct bt_cpu_census census = { .note = "cannot enumerate" };
	struct bt_results res = {
		.version = "9.9", .argc = 1, .argv = argv, .platform = &pf, .cpu = &cpu,
		.census = &census, .have_volume_free = true, .min_free_bytes = 1u << 20,
	};
	struct bt_strbuf sb = { 0 };
	CHECK_EQ_INT(bt_results_json.render(&res, 1, &sb), BT_OK);
	size_t size = sb.n;
	bt_sb_free(&sb);

	char dir[] = "/tmp/bt-floor-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	struct bt_results_written w;
	struct bt_diag d = { "" };
	/* room for the file and the floor but 100 bytes (the free figure the
	 * file holds adds a few digits): refused, nothing left */
	res.volume_free_bytes = size + (1u << 20) - 100;
	CHECK_EQ_INT(bt_results_save(dir, &bt_results_json, &res, link_noreplace, NULL, &w, &d),
		     BT_ERR_FULL);
	CHECK_MSG(strstr(d.text, "below the floor of 1 MiB (--min-free)") != NULL, "%s", d.text);
	char path[64];
	snprintf(path, sizeof(path), "%s/000001.json", dir);
	CHECK(access(path, F_OK) != 0);
	/* 100 bytes more than that: written */
	res.volume_free_bytes = size + (1u << 20) + 100;
	CHECK_EQ_INT(bt_results_save(dir, &bt_results_json, &res, link_noreplace, NULL, &w, &d),
		     BT_OK);
	CHECK(access(w.path, F_OK) == 0);
	char cmd[96];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
}
