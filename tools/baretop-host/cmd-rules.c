/* SPDX-License-Identifier: MIT */
/*
 * baretop-host rules [ID] [--load REFDIR]
 *
 *   rules       per built-in model: how many consistency rules its formulas
 *               give, by kind, and the sum relations they do not imply
 *   rules ID    one model: every rule with its tolerance, and each sum
 *               relation of the tree that is not implied (with how many
 *               random count sets it was decided on)
 */
#include <stdio.h>
#include <string.h>

#include "metrics/builtin.h"
#include "metrics/rules.h"
#include "metrics/tremont-model.h"
#include "tools/baretop-host/command.h"
#include "tools/baretop-host/host-args.h"
#include "tools/baretop-host/model-open-host.h"

BT_HOST_COMMAND(rules, "rules [ID] [--load DIR]",
		"the consistency rules derived from each model's formulas")

static int derive(const char *id, const char *load, struct bt_arena *a, struct bt_model **m,
		  struct bt_rule_set **rs)
{
	struct bt_diag d = { "" };

	if (host_open_model(id, load, a, m) < 0)
		return -1;
	if (bt_rules_derive(*m, rs, &d) != BT_OK) {
		fprintf(stderr, "baretop-host: %s\n", d.text);
		bt_model_close(*m);
		return -1;
	}
	return 0;
}

/* One row of the table: model id's rule counts by kind. */
static int table_row(const char *id, const char *load)
{
	struct bt_arena a;
	struct bt_model *m;
	struct bt_rule_set *rs;

	bt_arena_init(&a);
	if (derive(id, load, &a, &m, &rs) < 0) {
		bt_arena_free(&a);
		return HOST_EXIT_USAGE;
	}
	printf("%-8s %7u %10u %10u %12u %8u %9u %13u %11u %13u %5u\n", bt_model_def(m)->id, rs->vectors,
	       rs->n_kind[BT_RULE_LEVEL1_SUM], rs->n_kind[BT_RULE_PARENT_SUM], rs->n_not_implied,
	       rs->n_kind[BT_RULE_FRACTION], rs->n_kind[BT_RULE_IPC_WIDTH],
	       rs->n_kind[BT_RULE_FIXED_GENERAL], rs->n_kind[BT_RULE_CROSS_CHECK],
	       rs->n_kind[BT_RULE_SLOTS_COUNTED], rs->n);
	bt_rules_free(rs);
	bt_model_close(m);
	bt_arena_free(&a);
	return 0;
}

static int table(const char *load)
{
	printf("%-8s %7s %10s %10s %12s %8s %9s %13s %11s %13s %5s\n", "model", "vectors", "level1_sum",
	       "parent_sum", "not_implied", "fraction", "ipc_width", "fixed_general", "cross_check",
	       "slots_counted", "total");
	for (unsigned k = 0; k < bt_builtin_model_count; k++)
		if (table_row(bt_builtin_models[k]->id, load) != 0)
			return HOST_EXIT_USAGE;
	/* TNT: hand-written, in no vendor file (as `models` lists it) */
	if (!load && table_row(BT_TNT_MODEL_ID, NULL) != 0)
		return HOST_EXIT_USAGE;
	printf("\nARCH is built per core from CPUID (no row): with PERF_METRICS it has a\n"
	       "cross_check rule per enumerated architectural level-1 event; a run's\n"
	       "consistency section lists its rules (results counted.consistency, report).\n");
	return 0;
}

static int one(const char *id, const char *load)
{
	struct bt_arena a;
	struct bt_model *m;
	struct bt_rule_set *rs;
	char text[1024];

	bt_arena_init(&a);
	if (derive(id, load, &a, &m, &rs) < 0) {
		bt_arena_free(&a);
		return HOST_EXIT_USAGE;
	}
	printf("%s: %u rules derived from the formulas (%u random count sets)\n",
	       bt_model_def(m)->id, rs->n, rs->vectors);
	for (unsigned i = 0; i < rs->n; i++) {
		const struct bt_rule *x = &rs->rules[i];
		bt_rule_describe(rs, i, text, sizeof(text));
		printf("  %-13s %s   (tolerance", bt_rule_kind_name(x->kind), text);
		if (x->tol_abs > 0)
			printf(" %g absolute%s", x->tol_abs, x->tol_rel > 0 ? " or" : "");
		if (x->tol_rel > 0)
			printf(" %g relative", x->tol_rel);
		printf(")\n");
	}
	for (unsigned i = 0; i < rs->n_not_implied; i++) {
		const struct bt_rule_not_implied *n = &rs->not_implied[i];
		printf("  not implied: %s = sum of its %s (held on %u of %u count sets where "
		       "defined and unclamped)\n",
		       n->node < 0 ? "1" : bt_model_node(m, (unsigned)n->node)->name,
		       n->node < 0 ? "level-1 nodes" : "children", n->held, n->vectors);
	}
	bt_rules_free(rs);
	bt_model_close(m);
	bt_arena_free(&a);
	return 0;
}

static const struct host_opt opts[] = {
	{ "load", NULL, HOST_VALUE, "REFDIR", "the model from vendor files under REFDIR instead of the built-in one" },
	{ 0 },
};

static const struct host_cmd_args args = {
	"rules",
	"rules [ID] [--load REFDIR]",
	"  rules       per built-in model: how many consistency rules its formulas give, by\n"
	"              kind, and the sum relations they do not imply\n"
	"  rules ID    one model: every rule with its tolerance, and each sum relation of the\n"
	"              tree that is not implied",
	opts,
	"Exit status: 0, 2 bad arguments or a model that cannot be opened.",
};
HOST_ARGS_REGISTER(args)

static int cmd_rules(int argc, char **argv)
{
	const char *load = NULL, *id = NULL;
	struct host_args it;
	const char *v;
	int k;

	host_args_init(&it, &args, argc, argv);
	while ((k = host_args_next(&it, &v)) != HOST_ARGS_END) {
		if (k == 0)
			load = v;
		else if (k == HOST_ARGS_POSITIONAL && !id)
			id = v;
		else if (k == HOST_ARGS_POSITIONAL)
			return host_usage_error(&args, "one ID, not '%s' too", v);
		else
			return k == HOST_ARGS_HELP ? HOST_EXIT_OK : HOST_EXIT_USAGE;
	}
	return id ? one(id, load) : table(load);
}
