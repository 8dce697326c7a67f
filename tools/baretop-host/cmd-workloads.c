/* SPDX-License-Identifier: MIT */
/*
 * baretop-host workloads: run the built-in workloads hosted (the same code
 * the EFI app runs) and print, per workload, its parameters, checksum and
 * run time. The QEMU test compares the EFI app's checksums with these.
 *
 * Each workload: set up, one warm-up run, then --reps timed runs of the
 * measured body only (before_run/after_run, e.g. starting the partner CPU,
 * are outside the timing, as they are outside the counting window). Every
 * run's checksum must equal the first one: a difference means the workload
 * is not deterministic, and the command fails.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/json-file.h"
#include "report/tree.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "host/env-host.h"
#include "workloads/workload.h"

#define MAX_REPS 1000

struct result {
	const char *name;
	char params[256];
	char note[160];
	struct bt_diag error;       /* why it failed or was skipped */
	bt_status status;
	bool deterministic;
	uint64_t checksum;
	unsigned reps;
	double median_ns, min_ns, max_ns;   /* wall time (CLOCK_MONOTONIC) */
	double cpu_median_ns;               /* the measuring thread's CPU time */
};

static double now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void run_one(const struct bt_wl_config *cfg, const struct bt_wl_env *env, unsigned reps,
		    struct result *r)
{
	struct bt_wl_instance inst;
	double times[MAX_REPS], cpu[MAX_REPS];
	bt_status s;

	r->name = cfg->wl->name;
	bt_wl_config_format(cfg, r->params, sizeof r->params);
	r->status = bt_wl_setup(&inst, cfg, env, &r->error);
	if (r->status != BT_OK)
		return;
	snprintf(r->note, sizeof r->note, "%s", inst.note);
	r->deterministic = true;
	for (unsigned i = 0; i <= reps; i++) {   /* run 0 is the warm-up */
		double t0, t1, c0, c1;
		uint64_t sum;

		s = bt_wl_before_run(&inst, &r->error);
		if (s != BT_OK) {
			r->status = s;
			break;
		}
		t0 = now_ns(CLOCK_MONOTONIC);
		c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		bt_wl_run(&inst);
		c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
		t1 = now_ns(CLOCK_MONOTONIC);
		s = bt_wl_after_run(&inst, &r->error);
		if (s != BT_OK) {
			r->status = s;
			break;
		}
		sum = bt_wl_checksum(&inst);
		if (i == 0)
			r->checksum = sum;
		else if (sum != r->checksum)
			r->deterministic = false;
		if (i > 0) {
			times[i - 1] = t1 - t0;
			cpu[i - 1] = c1 - c0;
		}
	}
	bt_wl_teardown(&inst);
	if (r->status != BT_OK)
		return;
	r->reps = reps;
	r->median_ns = median_of(times, reps);   /* sorts */
	r->min_ns = times[0];
	r->max_ns = times[reps - 1];
	r->cpu_median_ns = median_of(cpu, reps);
}

static const char *status_word(const struct result *r)
{
	if (r->status == BT_ERR_UNSUPPORTED)
		return "skipped";
	if (r->status != BT_OK)
		return "failed";
	return r->deterministic ? "ok" : "nondeterministic";
}

static void print_json(FILE *f, const struct result *res, size_t n, bool quick,
		       const struct bt_wl_env *env)
{
	fprintf(f, "{\n  \"tool\": \"baretop-host workloads\",\n  \"build\": \"hosted\",\n");
	fprintf(f, "  \"preset\": \"%s\",\n", quick ? "quick" : "default");
	fprintf(f, "  \"cpu\": {\"avx\": %s, \"avx512f\": %s, \"logical_cpus\": %u},\n",
		env->cpu.isa.avx ? "true" : "false", env->cpu.isa.avx512f ? "true" : "false",
		env->cpu.logical_cpus);
	fprintf(f, "  \"workloads\": [\n");
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &res[i];

		fprintf(f, "    {\"name\": ");
		bt_json_put_string(f, r->name);
		fprintf(f, ", \"params\": ");
		bt_json_put_string(f, r->params);
		fprintf(f, ", \"status\": \"%s\"", status_word(r));
		if (r->status == BT_OK) {
			fprintf(f, ", \"checksum\": \"0x%016llx\", \"runs\": %u",
				(unsigned long long)r->checksum, r->reps);
			fprintf(f, ", \"time_ns\": {\"median\": %.0f, \"min\": %.0f, \"max\": %.0f, "
				"\"cpu_median\": %.0f}", r->median_ns, r->min_ns, r->max_ns,
				r->cpu_median_ns);
			fprintf(f, ", \"note\": ");
			bt_json_put_string(f, r->note);
		} else {
			fprintf(f, ", \"error\": ");
			bt_json_put_string(f, r->error.text);
		}
		fprintf(f, "}%s\n", i + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

static void print_text(FILE *f, const struct result *res, size_t n, bool quick)
{
	fprintf(f, "%-20s %-18s %10s %10s %10s %10s  %s\n", "workload", "checksum", "median ms",
		"min ms", "max ms", "cpu ms", "parameters");
	for (size_t i = 0; i < n; i++) {
		const struct result *r = &res[i];

		if (r->status != BT_OK) {
			fprintf(f, "%-20s %s: %s\n", r->name, status_word(r), r->error.text);
			continue;
		}
		fprintf(f, "%-20s 0x%016llx %10.3f %10.3f %10.3f %10.3f  %s%s\n", r->name,
			(unsigned long long)r->checksum, r->median_ns / 1e6, r->min_ns / 1e6,
			r->max_ns / 1e6, r->cpu_median_ns / 1e6, r->params,
			r->deterministic ? "" : "  NONDETERMINISTIC");
		if (r->note[0])
			fprintf(f, "%-20s   (%s)\n", "", r->note);
	}
	fprintf(f, "(hosted build, %s preset; wall times of the measured body only; cpu = median "
		"CPU time of the measuring thread)\n", quick ? "quick" : "default");
}

static void print_list(FILE *f)
{
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	for (size_t i = 0; i < n; i++) {
		const struct bt_workload *wl = all[i];

		fprintf(f, "%s: %s\n", wl->name, wl->summary);
		for (unsigned p = 0; p < wl->n_params; p++) {
			struct bt_wl_config def, quick;
			char d[256], q[256];

			bt_wl_config_init(&def, wl, BT_WL_DEFAULT);
			bt_wl_config_init(&quick, wl, BT_WL_QUICK);
			bt_wl_config_format(&def, d, sizeof d);
			bt_wl_config_format(&quick, q, sizeof q);
			if (p == 0)
				fprintf(f, "  default: %s\n  quick:   %s\n", d, q);
			fprintf(f, "  %-12s %s\n", wl->params[p].name, wl->params[p].help);
		}
		fprintf(f, "  Intel: %s\n  AMD:   %s\n", wl->signature_intel, wl->signature_amd);
	}
}

static const struct host_opt opts[] = {
	{ "quick", NULL, HOST_FLAG, NULL, "the quick preset of each workload (smaller sizes)" },
	{ "json", NULL, HOST_OUTPUT_EQ, "FILE", "the results as JSON (instead of the text); FILE only after '='" },
	{ "reps", NULL, HOST_VALUE, "N", "runs after one warm-up (default 5)" },
	{ "cpu", NULL, HOST_VALUE, "N",
	  "pin the measured thread to CPU N (default: the first allowed CPU);\n"
	  "the partner CPU of two-core workloads is another one" },
	{ "list", NULL, HOST_FLAG, NULL, "list the workloads and their parameters, run nothing" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"workloads",
	"workloads [--quick] [--json[=FILE]] [--reps N] [--cpu N] [--list]\n"
	"          [NAME[:param=value,...] ...]",
	"Runs the default suite (or the named workloads) hosted and prints each one's\n"
	"parameters, checksum and time of the measured body (median, min, max of N runs).",
	opts,
	"Exit status: 0 done, 1 a workload failed or its checksum differs between runs\n"
	"(found), 2 bad arguments or an unknown workload or parameter.",
};
HOST_ARGS_REGISTER(args)

static int cmd_workloads(int argc, char **argv)
{
	bool quick = false;
	const char *json = NULL;
	struct host_output out = { 0 };
	unsigned reps = 5;
	int cpu = -1, n_specs = 0;
	const char **specs = calloc((size_t)argc + 1, sizeof *specs);
	struct bt_wl_host host;
	struct bt_wl_env env;
	struct result *res;
	size_t n = 0, suite_n;
	int rc = 0;

	if (!specs)
		return 1;
	struct host_args it;
	const char *v;
	int k;
	bool list = false;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		unsigned c;
		switch (k) {
		case 0:
			quick = true;
			break;
		case 1:
			json = v;
			break;
		case 2:
			if (!host_parse_uint("workloads", "--reps", v, 1, 1000, &reps)) {
				free(specs);
				return HOST_EXIT_USAGE;
			}
			break;
		case 3:
			if (!host_parse_uint("workloads", "--cpu", v, 0, 4095, &c)) {
				free(specs);
				return HOST_EXIT_USAGE;
			}
			cpu = (int)c;
			break;
		case 4:
			list = true;
			break;
		case HOST_ARGS_POSITIONAL:
			specs[n_specs++] = v;
			break;
		default:
			free(specs);
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
		}
	}
	if (list) {
		free(specs);
		if (quick || json || n_specs || cpu >= 0 || reps != 5)
			return host_usage_error(&args, "--list runs nothing: it takes no other option or NAME");
		print_list(stdout);
		return HOST_EXIT_OK;
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "workloads: --reps must be 1..%d\n", MAX_REPS);
		free(specs);
		return 2;
	}
	/* the output is checked before minutes of running, not after */
	if (!host_output_begin(&out, "workloads", json ? json : "-")) {
		free(specs);
		return HOST_EXIT_USAGE;
	}

	bt_wl_env_host_init(&env, &host);   /* before pinning: it records the allowed CPUs */
	if (cpu < 0) {
		int cpus[1];

		if (bt_wl_host_cpus(cpus, 1) == 1)
			cpu = cpus[0];
	}
	if (cpu >= 0 && !bt_wl_host_pin_self(cpu))
		fprintf(stderr, "workloads: cannot pin to CPU %d, running unpinned\n", cpu);

	const struct bt_workload *const *suite = bt_wl_default_suite(&suite_n);
	size_t total = n_specs ? (size_t)n_specs : suite_n;

	res = calloc(total, sizeof *res);
	if (!res) {
		host_output_end(&out, false);
		free(specs);
		return 1;
	}
	for (size_t i = 0; i < total; i++) {
		struct bt_wl_config cfg;
		struct bt_diag d;

		if (n_specs) {
			if (bt_wl_config_from_spec(&cfg, specs[i], quick ? BT_WL_QUICK : BT_WL_DEFAULT,
						   &d) != BT_OK) {
				fprintf(stderr, "workloads: %s\n", d.text);
				rc = 2;
				goto out;
			}
		} else {
			bt_wl_config_init(&cfg, suite[i], quick ? BT_WL_QUICK : BT_WL_DEFAULT);
		}
		run_one(&cfg, &env, reps, &res[n]);
		if ((res[n].status != BT_OK && res[n].status != BT_ERR_UNSUPPORTED) ||
		    (res[n].status == BT_OK && !res[n].deterministic))
			rc = 1;
		n++;
	}
	if (json)
		print_json(out.f, res, n, quick, &env);
	else
		print_text(out.f, res, n, quick);
out:
	if (!host_output_end(&out, rc != 2) && rc != 2)
		rc = HOST_EXIT_USAGE;
	free(res);
	free(specs);
	return rc;
}

BT_HOST_COMMAND(workloads, "workloads [--quick] [--json[=FILE]] [NAME...]",
		"run the built-in workloads hosted: checksums and times");
