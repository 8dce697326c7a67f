/* SPDX-License-Identifier: MIT */
/*
 * Untrusting the nodes a violated consistency rule points at
 * (metrics/rules.h bt_rules_untrust).
 *
 * A violated rule says some event does not count as the formulas assume;
 * which one, the counts alone cannot always tell. Every node whose value
 * formula reads an event the rule points at (bt_rule_suspects: a share below
 * 0, its numerator's events; a division by zero, the events that counted 0;
 * TOPDOWN.SLOTS at 0 while the core ran, the slots and the PERF_METRICS
 * fields that are shares of them; any other violation, every event it
 * involves) is untrusted, "RULE" with the rule: shown, marked, never on the
 * bottleneck path. SPR with general counter 1 stuck (STALLS_L2_MISS reads
 * 0): L3_Bound = (STALLS_L2_MISS - STALLS_L3_MISS) / CLK is -46 %, and
 * L2_Bound, which reads STALLS_L2_MISS too, would otherwise be the
 * bottleneck at 69 % (7.7 % without the defect).
 *
 * A level-1 node whose cross-check rule is violated (ARCH with
 * PERF_METRICS: its field's share and the architectural event's differ
 * beyond the rule's tolerance) is untrusted itself, "CROSS": which of the
 * two is wrong the counts cannot tell. An untrust the validation gave
 * (--bring-up) stands: it names the event that failed, and a violated rule
 * that involves such an event points at it alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/rules.h"

static void set(struct bt_untrust *u, const char *event, const char *check, const char *verdict)
{
	snprintf(u->event, sizeof(u->event), "%s", event);
	size_t len = strlen(check);
	if (len >= sizeof(u->check))
		len = sizeof(u->check) - 1; /* a long sum rule: its start */
	memcpy(u->check, check, len);
	u->check[len] = '\0';
	snprintf(u->verdict, sizeof(u->verdict), "%s", verdict);
}

unsigned bt_rules_untrust(const struct bt_consistency *cs, const struct bt_counts *c, struct bt_result *r,
			  const double *constants, const struct bt_untrust *ev_untrust,
			  struct bt_untrust *untrusted, unsigned *n_cross)
{
	const struct bt_rule_set *rs = cs->rules;
	const struct bt_model *m = rs->model;
	unsigned nn = bt_model_node_count(m), ne = bt_model_event_count(m);
	unsigned n_ev, marked = 0, cross = 0;
	uint16_t *ev = malloc((ne + 1) * sizeof(*ev));
	unsigned *rule_of = calloc(ne + 1, sizeof(*rule_of)); /* per event: rule + 1, 0 none */
	uint8_t *first = calloc(ne + 1, 1); /* a counter that read 0: named before the others */

	if (!ev || !rule_of || !first)
		goto out;
	for (unsigned k = 0; k < rs->n; k++) {
		if (rs->rules[k].kind == BT_RULE_CROSS_CHECK)
			continue;
		unsigned n = bt_rule_suspects(rs, k, cs, c, r, ev), f = 0;
		/* --bring-up: an event of the rule that FAILed validation
		 * explains it (doubled Topdown_Retiring puts level 1 at 184 %):
		 * its nodes are untrusted already, and the rule's other events
		 * (the cycles the slots come from) are not suspects */
		for (unsigned e = 0; ev_untrust && e < n; e++)
			if (strcmp(ev_untrust[ev[e]].verdict, "FAIL") == 0)
				ev[f++] = ev[e];
		if (f)
			n = f;
		for (unsigned e = 0; e < n; e++)
			if (!rule_of[ev[e]])
				rule_of[ev[e]] = k + 1;
		if (rs->rules[k].kind == BT_RULE_SLOTS_COUNTED && cs->verdict[k].state == BT_RULE_VIOLATED)
			first[rs->rules[k].event_a] = 1;
	}
	for (unsigned i = 0; i < nn; i++) {
		if (untrusted[i].event[0] || bt_model_node_value_events(m, i, constants, ev, &n_ev) != BT_OK)
			continue;
		int pick = -1;
		for (unsigned e = 0; e < n_ev; e++)
			if (rule_of[ev[e]] && (pick < 0 || (first[ev[e]] && !first[ev[pick]])))
				pick = (int)e;
		if (pick < 0)
			continue;
		unsigned k = rule_of[ev[pick]] - 1;
		const struct bt_rule_verdict *v = &cs->verdict[k];
		char rule[160], check[240];
		bt_rule_describe(rs, k, rule, sizeof(rule));
		if (rs->rules[k].kind == BT_RULE_SLOTS_COUNTED)
			snprintf(check, sizeof(check), "%s: 0 against %.3g", rule, v->rhs);
		else
			snprintf(check, sizeof(check), "%s off by %.3g, tolerance %.3g", rule, v->diff, v->tol);
		set(&untrusted[i], bt_model_event(m, ev[pick])->name, check, "RULE");
		r->exclude[i] |= BT_EXCLUDE_UNTRUSTED;
		marked++;
	}
	for (unsigned k = 0; k < rs->n; k++) {
		const struct bt_rule *ru = &rs->rules[k];
		const struct bt_rule_verdict *v = &cs->verdict[k];
		if (ru->kind != BT_RULE_CROSS_CHECK || v->state != BT_RULE_VIOLATED || ru->node < 0 ||
		    ru->node_b < 0 || untrusted[ru->node].event[0])
			continue;
		/* the architectural event: the cross-check node's own event
		 * (its formula is that event over TOPDOWN.SLOTS) */
		const char *name = bt_model_node(m, (unsigned)ru->node_b)->name;
		if (bt_model_node_value_events(m, (unsigned)ru->node_b, constants, ev, &n_ev) == BT_OK)
			for (unsigned e = 0; e < n_ev; e++) {
				const struct bt_event *x = bt_model_event(m, ev[e]);
				if (strcmp(x->name, "TOPDOWN.SLOTS") != 0) {
					name = x->name;
					break;
				}
			}
		char check[200];
		snprintf(check, sizeof(check), "cross-check: %s %.2f%% vs %s %.2f%%, beyond %.0f points",
			 bt_model_node(m, (unsigned)ru->node)->name, v->lhs * 100,
			 bt_model_node(m, (unsigned)ru->node_b)->name, v->rhs * 100, v->tol * 100);
		set(&untrusted[ru->node], name, check, "CROSS");
		r->exclude[ru->node] |= BT_EXCLUDE_UNTRUSTED;
		cross++;
		marked++;
	}
out:
	free(ev);
	free(rule_of);
	free(first);
	if (n_cross)
		*n_cross = cross;
	return marked;
}
