/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics/model-internal.h"
#include "report/tree.h"

void bt_json_number(char *buf, size_t size, double v)
{
	if (!isfinite(v))
		snprintf(buf, size, "null");
	else
		snprintf(buf, size, "%.17g", v);
}

void bt_json_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *kind_str(uint8_t k)
{
	switch (k) {
	case BT_NODE_TREE: return "tree";
	case BT_NODE_INFO: return "info";
	case BT_NODE_BOTTLENECK: return "bottleneck";
	default: return "helper";
	}
}

static const char *state_str(uint8_t s)
{
	switch (s) {
	case BT_NODE_OK: return "ok";
	case BT_NODE_INVALID: return "invalid";
	default: return "missing";
	}
}

static int shown(const struct bt_model *m, unsigned i, const struct bt_report_opts *o)
{
	const struct bt_node_def *n = bt_model_node(m, i);
	return n->kind != BT_NODE_TREE || !o->max_level || n->level <= o->max_level;
}

bt_status bt_report_json(FILE *f, const struct bt_model *m, const struct bt_result *r,
			 const struct bt_report_opts *o)
{
	const struct bt_model_def *def = bt_model_def(m);
	unsigned n = bt_model_node_count(m);
	char num[40];
	fprintf(f, "{\n  \"model\": ");
	bt_json_put_string(f, def->id);
	fprintf(f, ",\n  \"model_source\": ");
	bt_json_put_string(f, def->source);
	fprintf(f, ",\n  \"input\": ");
	bt_json_put_string(f, o->input_label ? o->input_label : "");
	fprintf(f, ",\n  \"values\": {");
	int first = 1;
	for (unsigned i = 0; i < n; i++) {
		if (!shown(m, i, o))
			continue;
		bt_json_number(num, sizeof(num), r->value[i]);
		fprintf(f, "%s\n    ", first ? "" : ",");
		bt_json_put_string(f, bt_model_node(m, i)->name);
		fprintf(f, ": %s", num);
		first = 0;
	}
	fprintf(f, "\n  },\n  \"thresh\": {");
	first = 1;
	for (unsigned i = 0; i < n; i++) {
		if (!shown(m, i, o) || !r->has_flag[i])
			continue;
		fprintf(f, "%s\n    ", first ? "" : ",");
		bt_json_put_string(f, bt_model_node(m, i)->name);
		fprintf(f, ": %s", r->flag[i] ? "true" : "false");
		first = 0;
	}
	fprintf(f, "\n  },\n  \"nodes\": {");
	first = 1;
	for (unsigned i = 0; i < n; i++) {
		if (!shown(m, i, o))
			continue;
		const struct bt_node_def *nd = bt_model_node(m, i);
		fprintf(f, "%s\n    ", first ? "" : ",");
		first = 0;
		bt_json_put_string(f, nd->name);
		bt_json_number(num, sizeof(num), r->value[i]);
		fprintf(f, ": {\"value\": %s", num);
		bt_json_number(num, sizeof(num), r->raw[i]);
		fprintf(f, ", \"raw\": %s, \"kind\": \"%s\", \"level\": %u, \"parent\": ", num,
			kind_str(nd->kind), nd->level);
		if (nd->parent)
			bt_json_put_string(f, nd->parent);
		else
			fprintf(f, "null");
		fprintf(f, ", \"state\": \"%s\", \"thresh\": %s", state_str(r->state[i]),
			r->has_flag[i] ? (r->flag[i] ? "true" : "false") : "null");
		if (nd->threshold_literal)
			fprintf(f, ", \"thresh_literal\": %s", r->flag_literal[i] ? "true" : "false");
		if (!isnan(r->cpi_share[i])) {
			bt_json_number(num, sizeof(num), r->cpi_share[i]);
			fprintf(f, ", \"cpi_share\": %s", num);
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n  },\n  \"bottleneck_path\": [");
	for (unsigned k = 0; k < r->path_len; k++) {
		fprintf(f, "%s", k ? ", " : "");
		bt_json_put_string(f, bt_model_node(m, r->path[k])->name);
	}
	bt_json_number(num, sizeof(num), r->cpi);
	fprintf(f, "],\n  \"cpi\": %s,\n  \"cpi_node\": ", num);
	if (def->cpi_node)
		bt_json_put_string(f, def->cpi_node);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"missing_events\": [");
	for (unsigned k = 0; k < r->n_missing_events; k++) {
		fprintf(f, "%s", k ? ", " : "");
		bt_json_put_string(f, bt_model_event(m, r->missing_events[k])->name);
	}
	fprintf(f, "],\n  \"missing_constants\": [");
	first = 1;
	for (int k = 0; k < BT_CONST_COUNT; k++)
		if (r->missing_constants >> k & 1) {
			fprintf(f, "%s\"%s\"", first ? "" : ", ", bt_constant_name((enum bt_constant)k));
			first = 0;
		}
	fprintf(f, "],\n  \"retire_latency_defaults_used\": %u\n}\n", r->n_default_retire_latency);
	return ferror(f) ? BT_ERR_IO : BT_OK;
}
