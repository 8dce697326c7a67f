/* SPDX-License-Identifier: MIT */
/*
 * baretop-host detect --cpuid FILE [--json[=FILE]]
 *
 * What baretop would decide on a machine it has never booted on, from a
 * CPUID dump of it (the format of ../shared/reference/cpuid/, or the raw
 * output of Linux `cpuid -r`): per kind of core, the model, the general and
 * fixed counters, PERF_METRICS and the part-specific corrections, through the
 * same detection code the EFI app runs (pmu/cpu-detect.c), with CPUID
 * answered from the dump. MSR values are not in a dump: the one that decides
 * anything here, IA32_PERF_CAPABILITIES, is taken from baretop's simulated
 * CPU of that part, and the notes say so.
 *
 * Exit status: 0, or 2 for bad arguments, an unreadable file or a malformed
 * dump (the message gives the line).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/detect-dump.h"
#include "base/json-write.h"
#include "base/strbuf.h"
#include "pmu/cpu-detect.h"
#include "arch/cpuid-dump.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"

BT_HOST_COMMAND(detect, "detect --cpuid FILE [--json[=FILE]]",
		"what baretop would decide per kind of core, from a CPUID dump")

static const struct host_opt opts[] = {
	{ "cpuid", NULL, HOST_VALUE, "FILE",
	  "the CPUID dump: the format of ../shared/reference/cpuid/ or the\n"
	  "output of `cpuid -r`" },
	{ "json", NULL, HOST_OUTPUT_EQ, "FILE", "the decisions as one JSON document (instead of the text)" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"detect",
	"detect --cpuid FILE [--json[=FILE]]",
	"What baretop would decide per kind of core (model, counters, PERF_METRICS,\n"
	"corrections for the part, the Top-Down source: a published model or ARCH, the\n"
	"architectural model from the events CPUID enumerates, with the events level 1\n"
	"counts and SLOTS_PER_CYC) from a CPUID dump: the format of\n"
	"../shared/reference/cpuid/ or the output of `cpuid -r`.",
	opts,
	"Exit status: 0, or 2 for bad arguments, a file that cannot be read (the reason\n"
	"is given) or a malformed dump (the message gives the line).",
};
HOST_ARGS_REGISTER(args)

/* The file's bytes, or NULL with the reason as an errno value in *err
 * (a folder opens for reading on Linux; reading it fails with EISDIR). */
static char *read_file(const char *path, size_t *ret_len, int *err)
{
	struct stat sb;
	FILE *f;
	char *buf = NULL;
	size_t n = 0, cap = 0;

	*err = ENOMEM;
	if (stat(path, &sb) != 0) {
		*err = errno;
		return NULL;
	}
	if (S_ISDIR(sb.st_mode)) {
		*err = EISDIR;
		return NULL;
	}
	if (!(f = fopen(path, "rb"))) {
		*err = errno;
		return NULL;
	}
	for (;;) {
		if (n + 4096 > cap) {
			char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	bool bad = ferror(f);
	*err = errno ? errno : EIO;
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	*ret_len = n;
	return buf;
}

static const char *core_type_text(enum bt_core_type t)
{
	const char *s = bt_core_type_name(t);
	return s ? s : "none";
}

static void print_text(const char *path, const struct bt_cpuid_dump *dump,
		       const struct bt_dump_decision *d)
{
	printf("%s: %s format, %zu kind%s of core (what baretop would decide; no MSR is in a "
	       "CPUID dump)\n", path, dump->format, dump->n_groups, dump->n_groups == 1 ? "" : "s");
	for (size_t i = 0; i < dump->n_groups; i++) {
		const struct bt_dump_decision *x = &d[i];
		const struct bt_cpu_info *ci = &x->ci;
		const struct bt_pmu_caps *p = &ci->pmu;
		printf("\nCPUs %s: %s family 0x%X model 0x%X stepping %u", x->cpus,
		       ci->vendor_str[0] ? ci->vendor_str : "?", ci->family, ci->model,
		       ci->stepping);
		if (ci->core_type)
			printf(", %s (core type 0x%02X, native model ID 0x%X)",
			       core_type_text(ci->core_type), ci->core_type, ci->native_model_id);
		printf("\n  model             %s\n", x->model ? x->model : "none");
		printf("  PMU               %s", bt_pmu_kind_name(p->kind));
		if (p->kind == BT_PMU_INTEL_ARCH)
			printf(", version %u", p->version);
		printf("\n  general counters  %u (mask 0x%x, %u bits)\n", x->general_counters,
		       p->gp_mask, p->gp_width);
		printf("  fixed counters    mask 0x%x\n", p->fixed_mask);
		printf("  PERF_METRICS      %s", p->perf_metrics ? "yes" : "no");
		if (p->perf_metrics)
			printf(" (%u fields)", p->perf_metrics_fields);
		printf("\n");
		if (x->td_source) {
			printf("  Top-Down          %s%s, level 1 from %s", x->td_source,
			       strcmp(x->td_source, "ARCH") == 0 ? " (architectural, CPUID-enumerated)"
								 : "", x->td_level1);
			if (x->td_slots)
				printf("; slots: %s", x->td_slots);
			if (x->td_bad_spec_derived)
				printf("; Bad_Speculation derived (an approximation)");
			printf("\n  level-1 events   ");
			for (unsigned k = 0; k < x->n_td_events; k++)
				printf("%s%s (%02X/%02X)", k ? ", " : " ", x->td_events[k].name,
				       x->td_events[k].code, x->td_events[k].umask);
			printf("\n");
		} else {
			printf("  Top-Down          none: %s\n", x->td_reason);
		}
		if (p->kind == BT_PMU_INTEL_ARCH)
			printf("  SLOTS_PER_CYC     %u\n", x->slots_per_cycle);
		for (unsigned k = 0; k < x->n_notes; k++)
			printf("  note: %s\n", x->notes[k]);
	}
}

static void print_json(FILE *out, const struct bt_cpuid_dump *dump, const struct bt_dump_decision *d)
{
	struct bt_strbuf sb = { 0 };
	struct bt_jw j;

	bt_jw_init(&j, &sb);
	bt_jw_object(&j, NULL);
	bt_jw_array(&j, "core_types");
	for (size_t i = 0; i < dump->n_groups; i++) {
		const struct bt_dump_decision *x = &d[i];
		const struct bt_pmu_caps *p = &x->ci.pmu;
		char hex[16];
		bt_jw_object(&j, NULL);
		bt_jw_array(&j, "cpus");
		for (size_t k = 0; k < dump->groups[i].n_cpus; k++)
			bt_jw_u64(&j, NULL, dump->groups[i].cpus[k]);
		bt_jw_end(&j);
		bt_jw_str(&j, "core_type", core_type_text(x->ci.core_type));
		bt_jw_u64(&j, "native_model_id", x->ci.native_model_id);
		bt_jw_str(&j, "model", x->model);
		bt_jw_u64(&j, "general_counters", x->general_counters);
		snprintf(hex, sizeof(hex), "0x%x", p->fixed_mask);
		bt_jw_str(&j, "fixed_mask", hex);
		bt_jw_bool(&j, "perf_metrics", p->perf_metrics);
		bt_jw_object(&j, "topdown");
		bt_jw_str(&j, "source", x->td_source);
		bt_jw_str(&j, "level1_from", x->td_source ? x->td_level1 : NULL);
		bt_jw_str(&j, "slots", x->td_slots);
		bt_jw_u64(&j, "slots_per_cycle", x->slots_per_cycle);
		bt_jw_str(&j, "bad_speculation", !x->td_source ? NULL : x->td_bad_spec_derived
			  ? "derived (an approximation)" : "counted");
		bt_jw_array(&j, "events");
		for (unsigned k = 0; k < x->n_td_events; k++) {
			bt_jw_object(&j, NULL);
			bt_jw_str(&j, "name", x->td_events[k].name);
			snprintf(hex, sizeof(hex), "0x%02X", x->td_events[k].code);
			bt_jw_str(&j, "code", hex);
			snprintf(hex, sizeof(hex), "0x%02X", x->td_events[k].umask);
			bt_jw_str(&j, "umask", hex);
			bt_jw_end(&j);
		}
		bt_jw_end(&j);
		bt_jw_str(&j, "reason", x->td_source ? NULL : x->td_reason);
		bt_jw_end(&j);
		bt_jw_array(&j, "notes");
		for (unsigned k = 0; k < x->n_notes; k++)
			bt_jw_str(&j, NULL, x->notes[k]);
		bt_jw_end(&j);
		bt_jw_end(&j);
	}
	bt_jw_end(&j);
	bt_jw_end(&j);
	fprintf(out, "%s\n", bt_sb_str(&sb));
	bt_sb_free(&sb);
}

static int cmd_detect(int argc, char **argv)
{
	const char *path = NULL;
	const char *json = NULL;

	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == 0)
			path = v;
		else if (k == 1)
			json = v;
		else if (k == HOST_ARGS_POSITIONAL)
			return host_usage_error(&args, "unexpected argument '%s' (the dump is --cpuid FILE)", v);
		else
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	if (!path)
		return host_usage_error(&args, "--cpuid FILE is required");
	size_t len = 0;
	int why;
	char *text = read_file(path, &len, &why);
	if (!text) {
		fprintf(stderr, "baretop-host detect: cannot read %s: %s\n", path, strerror(why));
		return 2;
	}
	struct bt_cpuid_dump dump;
	struct bt_diag err;
	bt_status st = bt_cpuid_dump_parse(text, len, &dump, &err);
	free(text);
	if (st != BT_OK) {
		fprintf(stderr, "%s: %s\n", path, err.text);
		return 2;
	}
	struct bt_dump_decision *d = calloc(dump.n_groups, sizeof(*d));
	if (!d) {
		bt_cpuid_dump_free(&dump);
		fprintf(stderr, "baretop-host detect: out of memory\n");
		return 2;
	}
	for (size_t i = 0; i < dump.n_groups; i++)
		bt_detect_dump_group(&dump.groups[i], &d[i]);
	int rc = HOST_EXIT_OK;
	if (json) {
		struct host_output out;
		if (host_output_begin(&out, "detect", json)) {
			print_json(out.f, &dump, d);
			if (!host_output_end(&out, true))
				rc = HOST_EXIT_USAGE;
		} else {
			rc = HOST_EXIT_USAGE;
		}
	} else {
		print_text(path, &dump, d);
	}
	free(d);
	bt_cpuid_dump_free(&dump);
	return rc;
}
