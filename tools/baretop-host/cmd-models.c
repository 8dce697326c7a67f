/* SPDX-License-Identifier: MIT */
/*
 * baretop-host models [ID] [--load REFDIR] [--cpu KEY]
 *
 *   models              the built-in models: nodes per level and how many
 *                       events the tree needs up to each level
 *   models ID           one model: its tree (levels, parents) and the events
 *                       of each level with their encodings
 *   models --cpu GenuineIntel-6-AD-1[:0x40]   which model a CPU gets
 *   models --corrections  the vendor-file defects baretop corrects on load
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/builtin.h"
#include "metrics/corrections.h"
#include "metrics/tremont-model.h"
#include "metrics/select.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "tools/baretop-host/model-open-host.h"

BT_HOST_COMMAND(models, "models [ID] [--cpu KEY] [--load DIR] [--corrections]",
		"list the Top-Down models and the events each level needs")

static void counts_by_level(const struct bt_model *m, unsigned *tree, unsigned *info)
{
	memset(tree, 0, 17 * sizeof(*tree));
	*info = 0;
	for (unsigned i = 0; i < bt_model_node_count(m); i++) {
		const struct bt_node_def *n = bt_model_node(m, i);
		if (n->kind == BT_NODE_TREE && n->level <= 16)
			tree[n->level]++;
		else if (n->kind != BT_NODE_TREE)
			(*info)++;
	}
}

static unsigned events_up_to(const struct bt_model *m, unsigned level, const double *consts)
{
	uint16_t *ev = malloc((bt_model_event_count(m) + 1) * sizeof(*ev));
	unsigned n = 0;
	if (ev && bt_model_events_up_to_level(m, level, consts, ev, &n) != BT_OK)
		n = 0;
	free(ev);
	return n;
}

/* One row of the list: model id (opened from REFDIR when load is set). */
static int list_row(const char *id, const char *load)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_model *m;
	if (host_open_model(id, load, &a, &m) < 0) {
		bt_arena_free(&a);
		return HOST_EXIT_USAGE;
	}
	const struct bt_model_def *def = bt_model_def(m);
	unsigned tree[17], info;
	counts_by_level(m, tree, &info);
	char lv[64] = "";
	size_t n = 0;
	for (unsigned l = 1; l <= bt_model_max_level(m) && l <= 6; l++)
		n += (size_t)snprintf(lv + n, sizeof(lv) - n, "%s%u", l > 1 ? "/" : "", tree[l]);
	double consts[BT_CONST_COUNT];
	for (int c = 0; c < BT_CONST_COUNT; c++)
		consts[c] = NAN;
	consts[BT_C_HYPERTHREADING_ON] = 0;
	consts[BT_C_CORE_WIDE] = 1;
	printf("%-8s %-52s %2u %5u  %-23s %5u  ", def->id, def->uarch, def->pipeline_width,
	       bt_model_node_count(m), lv, info);
	for (unsigned l = 1; l <= bt_model_max_level(m); l++)
		printf("%s%u", l > 1 ? "/" : "", events_up_to(m, l, consts));
	printf("%s%s\n", def->flags & BT_MODEL_PERF_METRICS ? "  PERF_METRICS" : "",
	       def->flags & BT_MODEL_RETIRE_LATENCY ? "  retire-latency" : "");
	bt_model_close(m);
	bt_arena_free(&a);
	return 0;
}

static int list(const char *load)
{
	printf("%-8s %-52s %2s %5s  %-23s %5s  %s\n", "model", "microarchitecture", "W", "nodes",
	       "tree nodes L1..L6", "info", "events for levels 1..N (SMT off)");
	for (unsigned k = 0; k < bt_builtin_model_count; k++)
		if (list_row(bt_builtin_models[k]->id, load) != 0)
			return HOST_EXIT_USAGE;
	/* TNT is written by hand from Tremont's own events: no vendor file
	 * holds it, so it is listed only for the built-in tables */
	if (!load && list_row(BT_TNT_MODEL_ID, NULL) != 0)
		return HOST_EXIT_USAGE;
	printf("\nW = issue slots per cycle; events = distinct events (incl. TSC, PERF_METRICS fields)\n"
	       "the tree up to that level needs for values and flags, with SMT off.\n"
	       "ARCH, the architectural model (CPUID-enumerated), is not listed: it is built per\n"
	       "core from what the CPU enumerates (`detect --cpuid FILE` shows it for a dump).\n"
	       "%u nodes of vendor files are read corrected (defects proven by the second\n"
	       "published form, Linux perf's conversion): `models --corrections` lists them.\n",
	       bt_correction_count);
	return 0;
}

/* The corrections table, one tab-separated line per corrected node. */
static int corrections(void)
{
	printf("model\tnode\treason\tvendor file\tsecond published form\n");
	for (unsigned i = 0; i < bt_correction_count; i++) {
		const struct bt_correction *c = &bt_corrections[i];
		const char *id = bt_correction_model(c);
		printf("%s\t%s\t%s\t%s (%zu characters, FNV-1a 0x%016llx)\t%s\n", id ? id : "-",
		       c->node, c->reason, c->file, c->len, (unsigned long long)c->fnv1a, c->second);
	}
	return 0;
}

static void print_subtree(const struct bt_model *m, unsigned i, unsigned depth)
{
	const struct bt_node_def *n = bt_model_node(m, i);
	printf("  %u %*s%s\n", n->level, (int)(2 * depth), "", n->name);
	const uint16_t *kids;
	unsigned k = bt_model_node_children(m, i, &kids);
	for (unsigned j = 0; j < k && depth < 32; j++)
		print_subtree(m, kids[j], depth + 1);
}

static void print_event(const struct bt_event *e)
{
	static const char *const src[] = { "pmc", "perf_metrics", "tsc", "duration", "uncore", "unknown" };
	printf("    %-58s %-12s", e->name, e->source < 6 ? src[e->source] : "?");
	if (e->source == BT_SRC_PMC) {
		printf(" code=0x%02x", e->code);
		if (e->code2)
			printf("/0x%02x", e->code2);
		printf(" umask=0x%02x", e->umask);
		if (e->umask_ext)
			printf(" umask_ext=0x%02x", e->umask_ext);
		if (e->cmask)
			printf(" cmask=%u", e->cmask);
		if (e->flags)
			printf(" flags=0x%02x", e->flags);
		if (e->fixed >= 0)
			printf(" fixed=%d", e->fixed);
		if (e->counters)
			printf(" counters=0x%x", e->counters);
		if (e->msr_index)
			printf(" msr=0x%x:0x%llx", e->msr_index, (unsigned long long)e->msr_value);
	} else if (e->source == BT_SRC_PERF_METRICS) {
		printf(" byte %u of MSR_PERF_METRICS, as slots", e->pm_field);
	}
	printf("\n");
}

static int show(const char *id, const char *load)
{
	struct bt_arena a;
	bt_arena_init(&a);
	struct bt_model *m;
	if (host_open_model(id, load, &a, &m) < 0)
		return HOST_EXIT_USAGE;
	const struct bt_model_def *def = bt_model_def(m);
	printf("model %s (%s), %s\n  from %s\n  %u nodes, %u events, %u operations compiled\n\n",
	       def->id, def->uarch, def->vendor, def->source, bt_model_node_count(m),
	       bt_model_event_count(m), bt_model_op_count(m));
	const uint16_t *roots;
	unsigned nr = bt_model_roots(m, &roots);
	for (unsigned k = 0; k < nr; k++)
		print_subtree(m, roots[k], 0);
	uint16_t *ev = malloc((bt_model_event_count(m) + 1) * sizeof(*ev));
	uint8_t *shown = calloc(bt_model_event_count(m) + 1, 1);
	for (unsigned l = 1; ev && shown && l <= bt_model_max_level(m); l++) {
		unsigned n = 0;
		bt_model_events_up_to_level(m, l, NULL, ev, &n);
		printf("\nevents added by level %u (%u up to this level):\n", l, n);
		for (unsigned k = 0; k < n; k++)
			if (!shown[ev[k]]) {
				shown[ev[k]] = 1;
				print_event(bt_model_event(m, ev[k]));
			}
	}
	printf("\nevents only the helper metrics need:\n");
	for (unsigned k = 0; shown && k < bt_model_event_count(m); k++)
		if (!shown[k])
			print_event(bt_model_event(m, k));
	if (bt_model_retire_latency_count(m)) {
		printf("\nretire latencies used (not countable; %s):\n",
		       def->n_retire_latency ? "published defaults exist" : "no published defaults");
		for (unsigned k = 0; k < bt_model_retire_latency_count(m); k++)
			printf("    %s\n", bt_model_retire_latency_name(m, k));
	}
	free(ev);
	free(shown);
	bt_model_close(m);
	bt_arena_free(&a);
	return 0;
}

/* "GenuineIntel-6-8F[-stepping][:coretype]" */
static int cpu(const char *key)
{
	char vendor[32] = "";
	unsigned family = 0, model = 0, stepping = 0, core = 0;
	const char *colon = strchr(key, ':');
	int n = sscanf(key, "%31[^-]-%u-%x-%x", vendor, &family, &model, &stepping);
	if (n < 3) {
		fprintf(stderr, "baretop-host: CPU key like GenuineIntel-6-8F[-8][:0x40] expected\n");
		return 2;
	}
	if (colon)
		core = (unsigned)strtoul(colon + 1, NULL, 0);
	struct bt_cpu_facts f = { .vendor = vendor, .family = family, .model = model,
				  .stepping = n >= 4 ? stepping : 0, .core_type = (uint8_t)core };
	const struct bt_model_def *def;
	struct bt_diag d = { "" };
	if (bt_model_select(&f, NULL, &def, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		return HOST_EXIT_USAGE;
	}
	printf("%s -> %s (%s)\n", key, def->id, def->uarch);
	return 0;
}

static const struct host_opt opts[] = {
	{ "cpu", NULL, HOST_VALUE, "KEY", "which model a CPU gets: GenuineIntel-6-8F[-STEPPING][:CORETYPE]" },
	{ "load", NULL, HOST_VALUE, "REFDIR",
	  "the model from vendor files under REFDIR (perfmon's layout) instead\n"
	  "of the built-in one" },
	{ "corrections", NULL, HOST_FLAG, NULL,
	  "the vendor-file defects corrected wherever the file is loaded (built-in\n"
	  "tables and --model-files): model, node, reason, the exact defective text\n"
	  "(file, length, hash) and the second published form that proves it" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"models",
	"models [ID] [--load REFDIR]\n"
	"models --cpu KEY\n"
	"models --corrections",
	"  models       the built-in models: nodes per level and how many events the tree\n"
	"               needs up to each level\n"
	"  models ID    one model (any case: skl is SKL): its tree (levels, parents) and the\n"
	"               events of each level with their encodings",
	opts,
	"Exit status: 0, 2 bad arguments, no model for the CPU or a model that cannot be\n"
	"opened.",
};
HOST_ARGS_REGISTER(args)

static int cmd_models(int argc, char **argv)
{
	const char *load = NULL, *id = NULL, *key = NULL;
	int fixes = 0;
	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == 0)
			key = v;
		else if (k == 1)
			load = v;
		else if (k == 2)
			fixes = 1;
		else if (k == HOST_ARGS_POSITIONAL && !id)
			id = v;
		else if (k == HOST_ARGS_POSITIONAL)
			return host_usage_error(&args, "one ID, not '%s' too", v);
		else
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	if (key && (id || load))
		return host_usage_error(&args, "--cpu KEY takes no ID or --load");
	if (key)
		return cpu(key);
	if (fixes && (id || load))
		return host_usage_error(&args, "--corrections takes no ID or --load");
	if (fixes)
		return corrections();
	return id ? show(id, load) : list(load);
}
