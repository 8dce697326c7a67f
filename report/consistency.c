/* SPDX-License-Identifier: MIT */
/* The consistency verdicts of a tree as text and JSON (consistency.h). */
#include <stdlib.h>

#include "base/strbuf.h"
#include "report/consistency.h"
#include "report/text-fit.h"

static const char *state_name(uint8_t s)
{
	return s == BT_RULE_HELD ? "held" : s == BT_RULE_VIOLATED ? "violated" : "not_applicable";
}

static void print_events(struct bt_strbuf *sb, const struct bt_consistency *cs, unsigned i,
			 const struct bt_result *r, uint16_t *ev)
{
	const struct bt_model *m = cs->rules->model;
	unsigned n = bt_rule_events(cs->rules, i, r, ev);

	for (unsigned k = 0; k < n; k++)
		bt_sb_printf(sb, "%s%s", k ? ", " : "", bt_model_event(m, ev[k])->name);
	if (!n)
		bt_sb_puts(sb, "(none)");
}

/* Each verdict wrapped to the console's columns (text-fit.h). */
void bt_report_consistency_text(FILE *f, const struct bt_consistency *cs, const struct bt_result *r,
				const char *indent, int all_rules)
{
	const struct bt_rule_set *rs = cs->rules;
	uint16_t *ev = malloc((bt_model_event_count(rs->model) + 1) * sizeof(*ev));
	char text[1024], first[64], rest[64];
	struct bt_strbuf sb = { 0 };

	snprintf(first, sizeof(first), "%s", indent);
	snprintf(rest, sizeof(rest), "%s    ", indent);
	bt_sb_printf(&sb, "consistency: %u rules held, %u violated, %u not applicable (an input "
		     "not measured", cs->n_held, cs->n_violated, cs->n_na);
	if (cs->n_na_no_retire_latency)
		bt_sb_printf(&sb, "; %u of them: a node not measured for want of a retire latency",
			     cs->n_na_no_retire_latency);
	bt_sb_putc(&sb, ')');
	bt_text_wrap(f, BT_CONSOLE_COLS, first, rest, bt_sb_str(&sb));
	snprintf(first, sizeof(first), "%s  ", indent);
	for (unsigned i = 0; ev && i < rs->n; i++) {
		const struct bt_rule_verdict *v = &cs->verdict[i];

		if (v->state != BT_RULE_VIOLATED && !all_rules)
			continue;
		bt_rule_describe(rs, i, text, sizeof(text));
		sb.n = 0;
		if (v->state == BT_RULE_VIOLATED && rs->rules[i].kind == BT_RULE_SLOTS_COUNTED)
			bt_sb_printf(&sb, "finding: a counter reads 0 where the rules say it cannot: %s "
				     "(TOPDOWN.SLOTS 0, the others up to %.6g): the level-1 shares are "
				     "shares of nothing; events involved: ", text, v->rhs);
		else if (v->state == BT_RULE_VIOLATED && v->undefined)
			bt_sb_printf(&sb, "finding: an event does not count as the formula assumes: %s "
				     "undefined: %s divides by zero although its counts were given "
				     "(%s counted 0); events involved: ", text,
				     rs->rules[i].kind == BT_RULE_IPC_WIDTH ? "CPI"
									    : "every level-1 node",
				     rs->rules[i].kind == BT_RULE_IPC_WIDTH ? "the cycles or the instructions"
									    : "the slots or cycles");
		else if (v->state == BT_RULE_VIOLATED)
			bt_sb_printf(&sb, "finding: an event does not count as the formula assumes: %s "
				     "off by %.6g (%.6g%s against %.6g, tolerance %.6g); events "
				     "involved: ", text, v->diff, v->lhs,
				     v->unclamped ? " before the formula's clamp" : "", v->rhs, v->tol);
		else if (v->state == BT_RULE_HELD)
			bt_sb_printf(&sb, "held: %s (%.6g against %.6g, tolerance %.6g); events: ",
				     text, v->lhs, v->rhs, v->tol);
		else
			bt_sb_printf(&sb, "not applicable: %s (%s); events: ", text,
				     v->no_retire_latency ? "a node not measured: no retire latency"
							  : "an input not measured");
		print_events(&sb, cs, i, r, ev);
		bt_text_wrap(f, BT_CONSOLE_COLS, first, rest, bt_sb_str(&sb));
	}
	bt_sb_free(&sb);
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
		if (v->state == BT_RULE_NA)
			bt_jw_str(j, "reason", v->no_retire_latency ? "no retire latency"
								  : "an input not measured");
		bt_jw_double(j, "lhs", v->lhs);
		bt_jw_double(j, "rhs", v->rhs);
		bt_jw_double(j, "difference", v->diff);
		bt_jw_double(j, "tolerance", v->tol);
		if (v->unclamped)
			bt_jw_bool(j, "unclamped", 1);
		if (v->undefined)
			bt_jw_bool(j, "undefined", 1);
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
