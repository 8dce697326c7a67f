/* SPDX-License-Identifier: MIT */
/* The consistency verdicts of a tree as text and JSON (consistency.h). */
#include <stdlib.h>

#include "report/consistency.h"

static const char *state_name(uint8_t s)
{
	return s == BT_RULE_HELD ? "held" : s == BT_RULE_VIOLATED ? "violated" : "not_applicable";
}

static void print_events(FILE *f, const struct bt_consistency *cs, unsigned i,
			 const struct bt_result *r, uint16_t *ev)
{
	const struct bt_model *m = cs->rules->model;
	unsigned n = bt_rule_events(cs->rules, i, r, ev);

	for (unsigned k = 0; k < n; k++)
		fprintf(f, "%s%s", k ? ", " : "", bt_model_event(m, ev[k])->name);
	if (!n)
		fprintf(f, "(none)");
}

void bt_report_consistency_text(FILE *f, const struct bt_consistency *cs, const struct bt_result *r,
				const char *indent, int all_rules)
{
	const struct bt_rule_set *rs = cs->rules;
	uint16_t *ev = malloc((bt_model_event_count(rs->model) + 1) * sizeof(*ev));
	char text[1024];

	fprintf(f, "%sconsistency: %u rules held, %u violated, %u not applicable (an input not "
		   "measured)\n", indent, cs->n_held, cs->n_violated, cs->n_na);
	for (unsigned i = 0; ev && i < rs->n; i++) {
		const struct bt_rule_verdict *v = &cs->verdict[i];

		if (v->state != BT_RULE_VIOLATED && !all_rules)
			continue;
		bt_rule_describe(rs, i, text, sizeof(text));
		if (v->state == BT_RULE_VIOLATED)
			fprintf(f, "%s  finding: an event does not count as the formula assumes: %s off "
				   "by %.6g (%.6g against %.6g, tolerance %.6g); events involved: ",
				indent, text, v->diff, v->lhs, v->rhs, v->tol);
		else if (v->state == BT_RULE_HELD)
			fprintf(f, "%s  held: %s (%.6g against %.6g, tolerance %.6g); events: ", indent,
				text, v->lhs, v->rhs, v->tol);
		else
			fprintf(f, "%s  not applicable: %s (an input not measured); events: ", indent,
				text);
		print_events(f, cs, i, r, ev);
		fprintf(f, "\n");
	}
	free(ev);
}

void bt_report_consistency_json(struct bt_jw *j, const char *key, const struct bt_consistency *cs,
				const struct bt_result *r)
{
	const struct bt_rule_set *rs = cs->rules;
	const struct bt_model *m = rs->model;
	uint16_t *ev = malloc((bt_model_event_count(m) + 1) * sizeof(*ev));
	char text[1024];

	bt_jw_array(j, key);
	for (unsigned i = 0; ev && i < rs->n; i++) {
		const struct bt_rule_verdict *v = &cs->verdict[i];

		bt_rule_describe(rs, i, text, sizeof(text));
		bt_jw_object_styled(j, NULL, BT_JW_INLINE);
		bt_jw_str(j, "rule", text);
		bt_jw_str(j, "kind", bt_rule_kind_name((enum bt_rule_kind)rs->rules[i].kind));
		bt_jw_str(j, "state", state_name(v->state));
		bt_jw_double(j, "lhs", v->lhs);
		bt_jw_double(j, "rhs", v->rhs);
		bt_jw_double(j, "difference", v->diff);
		bt_jw_double(j, "tolerance", v->tol);
		bt_jw_array_styled(j, "events", BT_JW_INLINE);
		unsigned n = bt_rule_events(rs, i, r, ev);
		for (unsigned k = 0; k < n; k++)
			bt_jw_str(j, NULL, bt_model_event(m, ev[k])->name);
		bt_jw_end(j);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	free(ev);
}
