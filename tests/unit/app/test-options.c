/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/options.h"
#include "base/array.h"
#include "tests/unit/lib/test.h"

static bt_status parse(struct bt_options *o, char **words, int n, struct bt_diag *d)
{
	bt_options_defaults(o);
	return bt_options_parse(o, n, words, "command line", d);
}

TEST(defaults)
{
	struct bt_options o;

	bt_options_defaults(&o);
	CHECK_STR(o.results_dir, "/baretop/results");
	CHECK_EQ_U64(o.qemu_exit_port, 0xf4);
	CHECK(!o.shutdown && !o.qemu_exit && !o.help);
}

TEST(flags_values_and_short_names)
{
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "-h", "--shutdown", "--results-dir", "/r", "--qemu-exit=0x501", "-q" };

	CHECK_EQ_INT(parse(&o, w, 6, &d), BT_OK);
	CHECK(o.help && o.shutdown && o.quiet && o.qemu_exit);
	CHECK_STR(o.results_dir, "/r");
	CHECK_EQ_U64(o.qemu_exit_port, 0x501);

	char *w2[] = { "--results-dir=/x", "--qemu-exit" };
	CHECK_EQ_INT(parse(&o, w2, 2, &d), BT_OK);
	CHECK_STR(o.results_dir, "/x");
	CHECK_EQ_U64(o.qemu_exit_port, 0xf4);
}

TEST(errors_say_what_is_wrong)
{
	struct bt_options o;
	struct bt_diag d;
	struct {
		char *word[2];
		int n;
		const char *msg;
	} cases[] = {
		{ { "--bogus" }, 1, "unknown option '--bogus'" },
		{ { "-z" }, 1, "unknown option '-z'" },
		{ { "stray" }, 1, "unexpected argument 'stray'" },
		{ { "--results-dir" }, 1, "option '--results-dir' needs a value" },
		{ { "--shutdown=1" }, 1, "option '--shutdown' takes no value" },
		{ { "--qemu-exit=zz" }, 1, "not an I/O port number" },
		{ { "--qemu-exit=0x10000" }, 1, "not an I/O port number" },
		{ { "--qemu-exit=-1" }, 1, "not an I/O port number" },
		{ { "--results-dir=" }, 1, "empty directory name" },
	};

	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		d.text[0] = '\0';
		CHECK_EQ_INT(parse(&o, cases[i].word, cases[i].n, &d), BT_ERR_INVALID);
		CHECK_MSG(strstr(d.text, cases[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i,
			  d.text, cases[i].msg);
		CHECK(strncmp(d.text, "command line: ", 14) == 0);
	}
}

TEST(end_actions_are_found_even_in_bad_input)
{
	struct bt_options o;
	char *w[] = { "--bogus", "--shutdown", "--qemu-exit=0x600" };

	bt_options_defaults(&o);
	bt_options_scan_end_actions(&o, 3, w);
	CHECK(o.shutdown);
	CHECK(o.qemu_exit);
	CHECK_EQ_U64(o.qemu_exit_port, 0x600);
}

TEST(usage_lists_every_option)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *names[] = { "--help", "--version", "--quiet", "--shutdown", "--qemu-exit[=PORT]",
				"--results-dir DIR", "--no-results", "--config FILE", "--no-config",
				"--fault-selftest", "--assume-amd-legacy-pmu", "Exit status",
				"--then-boot", "--fault-selftest-ap", "--crash-test", "--model ID",
				"--list-models", "--model-files", "--level N", "--drilldown",
				"--sim[=NAME]", "--backend hw|sim|perf", "--counts FILE", "--no-count", "--workload SPEC",
				"--list-workloads", "--quick", "--no-workloads", "--reps N",
				"--warmups N", "--cpu N[,N...]|all", "--copies N",
				"--exec FILE [ARGS...]", "-x" };

	bt_options_usage(f, "baretop");
	fclose(f);
	for (size_t i = 0; i < BT_ARRAY_SIZE(names); i++)
		CHECK_MSG(strstr(text, names[i]) != NULL, "usage lacks %s", names[i]);
	/* And each documented option parses. */
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "--version", "--no-results", "--no-config", "--fault-selftest",
		      "--assume-amd-legacy-pmu", "--config", "x.cfg" };
	CHECK_EQ_INT(parse(&o, w, 7, &d), BT_OK);
	free(text);
}

TEST(counting_and_cpu_options)
{
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "--level", "3", "--sim=SKL", "--counts", "c.txt", "--cpu", "0,2,010",
		      "--copies=4", "-w", "a", "--workload=b:n=1", "--reps", "7", "--warmups", "0" };

	CHECK_EQ_INT(parse(&o, w, 15, &d), BT_OK);
	CHECK_EQ_INT(o.level, 3);
	CHECK(!o.drilldown);
	CHECK(o.sim);
	CHECK_STR(o.sim_name, "SKL");
	CHECK_STR(o.counts_file, "c.txt");
	CHECK(!o.cpu_all);
	CHECK_EQ_INT(o.n_cpus, 3);
	CHECK_EQ_INT(o.cpus[0], 0);
	CHECK_EQ_INT(o.cpus[1], 2);
	CHECK_EQ_INT(o.cpus[2], 10);  /* decimal, not octal */
	CHECK_EQ_INT(o.copies, 4);
	CHECK_EQ_INT(o.n_workloads, 2);
	CHECK_STR(o.workloads[1], "b:n=1");
	CHECK_EQ_INT(o.reps, 7);
	CHECK(o.warmups_set);
	CHECK_EQ_INT(o.warmups, 0);

	/* A later option overrides an earlier one. */
	char *w2[] = { "--cpu", "3", "--cpu", "all", "--level", "2", "--reps", "3", "--sim",
		       "--cpu=0x10" };
	CHECK_EQ_INT(parse(&o, w2, 8, &d), BT_OK);
	CHECK(o.cpu_all);
	CHECK_EQ_INT(o.n_cpus, 0);
	CHECK_EQ_INT(o.level, 2);
	CHECK_EQ_INT(parse(&o, w2, 10, &d), BT_OK);
	CHECK(o.sim);
	CHECK(o.sim_name == NULL);
	CHECK(!o.cpu_all);
	CHECK_EQ_INT(o.n_cpus, 1);
	CHECK_EQ_INT(o.cpus[0], 16);
}

TEST(exec_takes_the_rest_of_the_line)
{
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "-q", "-x", "app.efi", "--level", "9", "-q", "x" };

	CHECK_EQ_INT(bt_options_scan_limit(7, w), 1);
	CHECK_EQ_INT(parse(&o, w, 7, &d), BT_OK);
	CHECK_STR(o.exec_path, "app.efi");
	CHECK_EQ_INT(o.exec_argc, 5);
	CHECK_STR(o.exec_argv[0], "app.efi");
	CHECK_STR(o.exec_argv[1], "--level");
	CHECK_STR(o.exec_argv[4], "x");
	CHECK_EQ_INT(o.level, 0);      /* the app's options are not baretop's */

	char exec_word[] = "--exec=tool.efi";  /* rewritten in place to its argv[0] */
	char *w2[] = { exec_word, "a", "b" };
	CHECK_EQ_INT(bt_options_scan_limit(3, w2), 0);
	CHECK_EQ_INT(parse(&o, w2, 3, &d), BT_OK);
	CHECK_STR(o.exec_path, "tool.efi");
	CHECK_EQ_INT(o.exec_argc, 3);
	CHECK_STR(o.exec_argv[0], "tool.efi");  /* argv[0] is the file, not "--exec=..." */
	CHECK_STR(o.exec_argv[2], "b");

	char *w3[] = { "--level", "2" };
	CHECK_EQ_INT(bt_options_scan_limit(2, w3), 2);

	/* A value that looks like -x is a value: the scan walks the words as
	 * the parser does (fuzz-config found the two disagreeing). */
	char exec_word2[] = "--exec=real.efi";
	char *w4[] = { "--counts", "--exec=c.json", "--results-dir", "-x", exec_word2, "a" };
	CHECK_EQ_INT(bt_options_scan_limit(6, w4), 4);
	CHECK_EQ_INT(parse(&o, w4, 6, &d), BT_OK);
	CHECK_STR(o.counts_file, "--exec=c.json");
	CHECK_STR(o.results_dir, "-x");
	CHECK_STR(o.exec_path, "real.efi");
	CHECK_EQ_INT(o.exec_argc, 2);
}

TEST(counting_and_cpu_errors)
{
	struct bt_options o;
	struct bt_diag d;
	static char many[65 * 3 + 8];
	struct {
		char *word[2];
		int n;
		const char *msg;
	} cases[] = {
		{ { "--level", "0" }, 2, "--level=0: not a number from 1 to 16" },
		{ { "--level", "17" }, 2, "--level=17: not a number from 1 to 16" },
		{ { "--level", "2x" }, 2, "not a number" },
		{ { "--copies", "0" }, 2, "--copies=0: not a number from 1" },
		{ { "--reps", "0" }, 2, "--reps=0" },
		{ { "--warmups", "-1" }, 2, "--warmups=-1" },
		{ { "--cpu", "" }, 2, "expected 'all' or CPU numbers" },
		{ { "--cpu", "1,,2" }, 2, "expected 'all' or CPU numbers" },
		{ { "--cpu", "1," }, 2, "expected 'all' or CPU numbers" },
		{ { "--cpu", "one" }, 2, "'one' is not a CPU number" },
		{ { "--cpu", " 1" }, 2, "is not a CPU number" },
		{ { "--cpu", "+1" }, 2, "is not a CPU number" },
		{ { "--cpu", "4096" }, 2, "'4096' is not a CPU number" },
		{ { "--cpu", many }, 2, "at most 64 CPUs" },
		{ { "--cpu", "0,1,0" }, 2, "--cpu 0,1,0: CPU 0 named twice" },
		{ { "-x" }, 1, "option '-x' needs a value" },
		{ { "-w", "" }, 2, "-w: empty workload name" },
		{ { "--sim=" }, 1, NULL },   /* --sim= is plain --sim: accepted below */
	};

	/* 65 different CPUs: the list is too long (a CPU named twice is
	 * another error, case "0,1,0") */
	many[0] = '\0';
	for (int i = 0; i < 65; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%d", i ? "," : "", i);
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		d.text[0] = '\0';
		bt_status st = parse(&o, cases[i].word, cases[i].n, &d);
		if (!cases[i].msg) {
			CHECK_EQ_INT(st, BT_OK);
			continue;
		}
		CHECK_MSG(st == BT_ERR_INVALID, "case %zu accepted", i);
		CHECK_MSG(strstr(d.text, cases[i].msg) != NULL, "case %zu: '%s' lacks '%s'", i,
			  d.text, cases[i].msg);
	}
}

/* A configuration file with `text` in a fresh temporary folder; its path. */
static const char *write_config(char *dir, size_t dirlen, const char *text)
{
	static char path[512];
	snprintf(dir, dirlen, "/tmp/bt-options-XXXXXX");
	if (!mkdtemp(dir))
		return NULL;
	snprintf(path, sizeof(path), "%s/baretop.cfg", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	return path;
}

static void remove_config(const char *dir, const char *path)
{
	remove(path);
	rmdir(dir);
}

TEST(config_file_first_then_the_command_line)
{
	char dir[64];
	const char *cfg = write_config(dir, sizeof(dir), "# unattended\n--shutdown --results-dir /from-file\n");
	CHECK(cfg != NULL);
	struct bt_options o;
	struct bt_config_words w;
	struct bt_diag d;

	/* The default file is read, and the command line overrides it. */
	char *argv[] = { "baretop", "--results-dir", "/from-cmdline" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 3, argv, cfg, &w, &d), BT_OK);
	CHECK(o.shutdown);
	CHECK_STR(o.results_dir, "/from-cmdline");
	CHECK_STR(w.path, cfg);
	CHECK_EQ_INT(w.argc, 3);
	bt_config_words_free(&w);

	/* --no-config: the default file is not read. */
	char *argv2[] = { "baretop", "--no-config" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 2, argv2, cfg, &w, &d), BT_OK);
	CHECK(!o.shutdown && w.path == NULL);
	bt_config_words_free(&w);

	/* -x ARGS belong to the application: its --config is not ours. */
	char xcfg[600];
	snprintf(xcfg, sizeof(xcfg), "--config=%s", cfg);
	char *argv3[] = { "baretop", "-x", "app.efi", xcfg };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 4, argv3, NULL, &w, &d), BT_OK);
	CHECK(!o.shutdown && w.path == NULL);
	bt_config_words_free(&w);
	remove_config(dir, cfg);
}

TEST(config_file_errors)
{
	struct bt_options o;
	struct bt_config_words w;
	struct bt_diag d;

	/* A missing default file is no error; a missing --config file is. */
	char *argv[] = { "baretop" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 1, argv, "/nonexistent/baretop.cfg", &w, &d), BT_OK);
	CHECK(w.path == NULL);
	bt_config_words_free(&w);
	char *argv2[] = { "baretop", "--config", "/nonexistent/other.cfg" };
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 3, argv2, NULL, &w, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "cannot read /nonexistent/other.cfg") != NULL);
	bt_config_words_free(&w);

	/* A line that cannot be split is refused, but the file's --shutdown is
	 * still honoured: a bad file must not leave a machine waiting. */
	char dir[64];
	const char *cfg = write_config(dir, sizeof(dir), "--shutdown\n-w \"unterminated\n");
	CHECK(cfg != NULL);
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 1, argv, cfg, &w, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, ":2: unterminated quote") != NULL);
	CHECK(o.shutdown);
	bt_config_words_free(&w);
	remove_config(dir, cfg);

	/* An unknown option in the file names the file. */
	cfg = write_config(dir, sizeof(dir), "--bogus\n");
	CHECK(cfg != NULL);
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_load(&o, 1, argv, cfg, &w, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "unknown option '--bogus'") != NULL);
	CHECK(strstr(d.text, cfg) != NULL);
	bt_config_words_free(&w);
	remove_config(dir, cfg);
}

TEST(kernel_ticks_is_a_hidden_option)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct bt_options o;
	struct bt_diag d;
	char *w[] = { "--kernel-ticks" };

	bt_options_usage(f, "baretop");
	fclose(f);
	CHECK(strstr(text, "kernel-ticks") == NULL);
	free(text);
	CHECK_EQ_INT(parse(&o, w, 1, &d), BT_OK);
	CHECK(o.kernel_ticks);
}

/* --backend: who programs the counters; the last of --backend and --sim
 * decides, as for every other option. */
TEST(backend_hw_sim_perf)
{
	struct bt_options o;
	struct bt_diag d = { "" };

	char *w1[] = { "--backend=perf" };
	CHECK_EQ_INT(parse(&o, w1, 1, &d), BT_OK);
	CHECK(o.perf && !o.sim);
	char *w2[] = { "--backend", "sim" };
	CHECK_EQ_INT(parse(&o, w2, 2, &d), BT_OK);
	CHECK(o.sim && !o.perf && o.sim_name == NULL);
	/* two backends in one source, in either order: refused (options-combos.c) */
	char *w3[] = { "--backend=perf", "--sim=SKL" };
	CHECK_EQ_INT(parse(&o, w3, 2, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "--backend=hw|perf with --sim or --sim-cpuid") != NULL);
	char *w4[] = { "--sim=SKL", "--backend=perf" };
	CHECK_EQ_INT(parse(&o, w4, 2, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "two counting backends") != NULL);
	char *w4b[] = { "--sim=SKL", "--backend=sim" };
	CHECK_EQ_INT(parse(&o, w4b, 2, &d), BT_OK);
	CHECK(o.sim && !o.perf);
	/* across sources the later one overrides: a configuration file's --sim,
	 * the command line's --backend=perf */
	bt_options_defaults(&o);
	CHECK_EQ_INT(bt_options_parse(&o, 1, w3 + 1, "baretop.cfg", &d), BT_OK);
	CHECK_EQ_INT(bt_options_parse(&o, 1, w3, "command line", &d), BT_OK);
	CHECK(o.perf && !o.sim);
	/* one source: --level with --drilldown, --no-workloads with -w */
	char *w7[] = { "--level", "2", "--drilldown" };
	CHECK_EQ_INT(parse(&o, w7, 3, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "command line: --level N with --drilldown") != NULL);
	char *w8[] = { "-w", "multiply1", "--no-workloads" };
	CHECK_EQ_INT(parse(&o, w8, 3, &d), BT_ERR_INVALID);
	char *w9[] = { "--config", "x.cfg" };
	CHECK_EQ_INT(bt_options_parse(&o, 2, w9, "baretop.cfg", &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "baretop.cfg: --config or --no-config inside a configuration file") != NULL);
	CHECK_EQ_INT(bt_options_parse(&o, 2, w9, "command line", &d), BT_OK);
	char *w5[] = { "--backend=perf", "--backend=hw" };
	CHECK_EQ_INT(parse(&o, w5, 2, &d), BT_OK);
	CHECK(!o.perf && !o.sim);
	char *w6[] = { "--backend=kernel" };
	CHECK_EQ_INT(parse(&o, w6, 1, &d), BT_ERR_INVALID);
	CHECK(strstr(d.text, "--backend hw, sim or perf, not 'kernel'") != NULL);
	bt_options_defaults(&o);
	CHECK(!o.perf && !o.sim);
}
