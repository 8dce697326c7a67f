/* SPDX-License-Identifier: MIT */
/*
 * baretop-host plan --backend=perf --kernel-root DIR --cpuid FILE@CPU
 *                   [--model M] [--level N] [--smt|--smt-off] [--json[=FILE]]
 *
 * The counter groups `run --backend=perf` would open on that kernel and
 * CPU: the same target and planner (host/perf-plan.h), printed as the
 * perf_event_attr fields the session passes to perf_event_open, with the
 * kernel's facts used and the events refused before counting, by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/detect-dump.h"
#include "analysis/json-file.h"
#include "host/perf-plan.h"
#include "metrics/builtin.h"
#include "tools/baretop-host/plan-print.h"

static void put_kernel_json(FILE *out, const struct bt_perf_target *t)
{
	const struct bt_pk_pmu *p = t->pmu;
	char buf[160];

	fprintf(out, " \"kernel\": {\"root\": ");
	bt_json_put_string(out, t->k.root);
	fprintf(out, ", \"release\": ");
	bt_json_put_string(out, t->k.osrelease);
	fprintf(out, ", \"pmu\": ");
	bt_json_put_string(out, p->name);
	fprintf(out, ", \"type\": %u, \"pmu_name\": ", p->type);
	bt_json_put_string(out, p->pmu_name);
	fprintf(out, ", \"general_counters\": %d, \"general_counters_cpuid\": %d, \"fixed_mask\": %u, "
		"\"fixed_mask_cpuid\": %u, \"perf_metrics_fields\": %u, \"nmi_watchdog\": %d, "
		"\"watchdog_holds\": %s, \"perf_event_paranoid\": %d, \"perfmon_capable\": %s, "
		"\"smt_active\": %d, \"exclusive_events_alone\": %s,\n  \"formats\": {",
		__builtin_popcount(t->caps.gp_mask), __builtin_popcount(t->cpuid_caps.gp_mask),
		t->caps.fixed_mask, t->cpuid_caps.fixed_mask,
		t->caps.perf_metrics ? t->caps.perf_metrics_fields : 0, t->k.nmi_watchdog,
		t->wd_fixed1 ? "\"fixed counter 1\"" : t->wd_gp ? "\"a general counter\"" : "null",
		t->k.paranoid, bt_pk_perfmon_capable(&t->k) ? "true" : "false", t->k.smt_active,
		t->excl_alone ? "true" : "false");
	for (int i = 0; i < p->n_formats; i++) {
		bt_perf_format_text(p->formats[i].word, p->formats[i].mask, buf, sizeof(buf));
		fprintf(out, "%s", i ? ", " : "");
		bt_json_put_string(out, p->formats[i].name);
		fprintf(out, ": ");
		bt_json_put_string(out, buf);
	}
	fprintf(out, "},\n  \"facts\": [");
	for (int i = 0; i < t->n_facts; i++) {
		fprintf(out, "%s", i ? ", " : "");
		bt_json_put_string(out, t->facts[i]);
	}
	fprintf(out, "]}");
}

static bool vendor_amd(const char *v)
{
	return v && (!strcmp(v, "AuthenticAMD") || !strcmp(v, "HygonGenuine"));
}

/*
 * The three vendors of one plan agree, or nothing is planned: the CPU's
 * (the dump's CPUID), the model's, and the kernel PMU driver's. The
 * driver's is told by its event format: Linux's AMD driver exports
 * "config:0-7,32-35" (arch/x86/events/amd/core.c, PMU_FORMAT_ATTR(event)),
 * the Intel one "config:0-7" (arch/x86/events/intel/core.c); an AMD
 * encoding read by the Intel driver loses its bits 8-11, and a model of
 * the other vendor programs other events under the same codes.
 */
static bool vendors_agree(const struct bt_perf_target *t, const struct bt_dump_decision *dd,
			  const char *model, const char *cpuid)
{
	const struct bt_pk_format *ev = bt_pk_format_named(t->pmu, "event");
	bool cpu_amd = vendor_amd(dd->ci.vendor_str);
	const struct bt_model_def *def = bt_builtin_find(model);

	if (ev && ev->word == 0 && ((ev->mask >> 32) & 0xF) != 0 && !cpu_amd) {
		fprintf(stderr, "plan: --cpuid %s is an Intel CPU (%s), but the kernel under --kernel-root "
			"%s drives an AMD PMU (%s/format/event has config:32-35): not this CPU's kernel\n",
			cpuid, dd->ci.vendor_str, t->k.root, t->pmu->name);
		return false;
	}
	if (ev && ev->word == 0 && ((ev->mask >> 32) & 0xF) == 0 && cpu_amd) {
		fprintf(stderr, "plan: --cpuid %s is an AMD CPU (%s), but the kernel under --kernel-root "
			"%s drives an Intel PMU (%s/format/event is config:0-7, AMD's config:0-7,32-35): "
			"not this CPU's kernel\n", cpuid, dd->ci.vendor_str, t->k.root, t->pmu->name);
		return false;
	}
	if (def && def->vendor &&
	    vendor_amd(def->vendor) != cpu_amd) {
		fprintf(stderr, "plan: --model %s is a model of %s's parts (%s), but --cpuid %s is "
			"%s CPU (%s): its events cannot be counted there\n", def->id,
			cpu_amd ? "Intel" : "AMD", def->vendor, cpuid, cpu_amd ? "an AMD" : "an Intel",
			dd->ci.vendor_str);
		return false;
	}
	return true;
}

int bt_host_plan_perf(const char *model, unsigned level, bool smt, const char *root,
		      const char *cpuid, bool json, FILE *out)
{
	static struct bt_perf_kernel k;
	static struct bt_dump_decision dd;
	static struct bt_perf_target t;
	struct bt_cpuid l0a;
	struct bt_diag d = { "" };
	unsigned cpu = 0;

	if (bt_perf_kernel_read(root, &k, &d) != BT_OK) {
		fprintf(stderr, "plan: --kernel-root %s: %s\n", root, d.text);
		return 2;
	}
	if (bt_detect_dump_cpu(cpuid, &dd, &l0a, &cpu, &d) != BT_OK) {
		fprintf(stderr, "plan: %s\n", d.text);
		return 2;
	}
	if (bt_perf_target_init(&t, &k, &dd.ci, &l0a, cpu, &d) != BT_OK) {
		fprintf(stderr, "plan: CPU %u: %s\n", cpu, d.text);
		return 2;
	}
	if (!model)
		model = dd.model;
	if (!model) {
		fprintf(stderr, "plan: CPU %u: no built-in model for this CPU (--model M)\n", cpu);
		return 2;
	}
	if (!vendors_agree(&t, &dd, model, cpuid))
		return 2;
	struct bt_perf_model_plan *mp = calloc(1, sizeof(*mp));
	if (!mp)
		return 2;
	bt_status st = bt_perf_plan_model(&t, model, level, smt, mp, &d);
	if (st != BT_OK && !mp->plan.n_groups) {
		fprintf(stderr, "plan: %s\n", d.text);
		bt_perf_model_plan_close(mp);
		free(mp);
		return 2;
	}
	/* A refused event leaves its nodes unmeasured: the plan is incomplete,
	 * which `plan --help` defines as exit status 1, as an unplaced event
	 * is for the simulated PMU's plan. */
	int n_refused = 0;
	for (int i = 0; i < mp->n; i++)
		n_refused += mp->plan.ev[i].place == BT_PLACE_UNMEASURABLE;
	if (st == BT_OK && n_refused)
		bt_diag_set(&d, "incomplete: %d event%s refused, the nodes that need %s unmeasured",
			    n_refused, n_refused == 1 ? "" : "s", n_refused == 1 ? "it" : "them");
	bool valid = st == BT_OK && !n_refused;
	int rc = valid ? 0 : 1;
	static struct bt_perf_member m[BT_PERF_MAX_MEMBERS];
	if (json) {
		fprintf(out, "{\"backend\": \"perf\", \"model\": ");
		bt_json_put_string(out, mp->model_id);
		fprintf(out, ", \"cpu\": %u, \"level\": %u, \"smt\": %s, \"valid\": %s,\n", cpu, mp->level,
			smt ? "true" : "false", valid ? "true" : "false");
		put_kernel_json(out, &t);
		fprintf(out, ",\n \"groups\": [");
	} else {
		fprintf(out, "plan for `run --backend=perf`: model %s, CPU %u, level %u, SMT %s\n",
			mp->model_id, cpu, mp->level, smt ? "on" : "off");
		for (int i = 0; i < t.n_facts; i++)
			fprintf(out, "kernel: %s\n", t.facts[i]);
	}
	for (int g = 0; g < mp->plan.n_groups; g++) {
		int n = 0;
		struct bt_diag gd = { "" };
		if (bt_perf_target_group(&t, &mp->plan, g, mp->planned, m, &n, &gd) != BT_OK) {
			fprintf(stderr, "plan: group %d: %s\n", g, gd.text);
			rc = 1;
			continue;
		}
		if (json)
			fprintf(out, "%s\n  {\"group\": %d, \"events\": [", g ? "," : "", g);
		else
			fprintf(out, "group %d:", g);
		for (int i = 0; i < n; i++) {
			const struct perf_event_attr *a = &m[i].attr;
			if (json) {
				fprintf(out, "%s\n   {\"name\": ", i ? "," : "");
				bt_json_put_string(out, m[i].what);
				fprintf(out, ", \"type\": %u, \"config\": \"0x%llx\", \"config1\": \"0x%llx\", "
					"\"pinned\": %s, \"exclude_user\": %s, \"exclude_kernel\": %s, "
					"\"exclude_hv\": %s}", a->type, (unsigned long long)a->config,
					(unsigned long long)a->config1, a->pinned ? "true" : "false",
					a->exclude_user ? "true" : "false", a->exclude_kernel ? "true" : "false",
					a->exclude_hv ? "true" : "false");
			} else {
				fprintf(out, " %s=%u:0x%llx%s", m[i].what, a->type, (unsigned long long)a->config,
					a->config1 ? "" : "");
				if (a->config1)
					fprintf(out, "/0x%llx", (unsigned long long)a->config1);
			}
		}
		fprintf(out, json ? "]}" : "\n");
	}
	if (json)
		fprintf(out, "],\n \"refused\": [");
	int k2 = 0;
	for (int i = 0; i < mp->n; i++) {
		if (mp->plan.ev[i].place != BT_PLACE_UNMEASURABLE)
			continue;
		const char *name = mp->planned[i]->name ? mp->planned[i]->name : "?";
		if (json) {
			fprintf(out, "%s\n  {\"event\": ", k2 ? "," : "");
			bt_json_put_string(out, name);
			fprintf(out, ", \"why\": ");
			bt_json_put_string(out, mp->plan.ev[i].reason);
			fputc('}', out);
		} else {
			fprintf(out, "refused: %s: %s\n", name, mp->plan.ev[i].reason);
		}
		k2++;
	}
	if (json) {
		fprintf(out, "]");
		if (!valid) {
			fprintf(out, ", \"error\": ");
			bt_json_put_string(out, d.text);
		}
		fprintf(out, "}\n");
	} else {
		fprintf(out, "groups: %d, refused: %d%s%s\n", mp->plan.n_groups, k2,
			st != BT_OK ? "; INVALID PLAN: " : !valid ? "; " : "", !valid ? d.text : "");
	}
	bt_perf_model_plan_close(mp);
	free(mp);
	return rc;
}
