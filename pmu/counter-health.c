/* SPDX-License-Identifier: MIT */
/* The counter health check's decision (counter-health.h). */
#include <stdio.h>
#include <string.h>

#include "pmu/counter-health.h"

/* |a - b| <= ref x ppm / 1e6; with ref 0, equal. */
static bool agrees(uint64_t a, uint64_t ref, uint32_t ppm)
{
	uint64_t d = a > ref ? a - ref : ref - a;
	return (double)d <= (double)ref * (double)ppm / 1e6;
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* Why x disagrees with c (> 0), the count of `what`. */
static void reason(char *buf, size_t len, uint64_t x, uint64_t c, const char *what)
{
	double r = c ? (double)x / (double)c : 0;
	if (x == 0)
		snprintf(buf, len, "counted 0 of %llu: stuck or dead", (unsigned long long)c);
	else if (r > 1.9 && r < 2.1)
		snprintf(buf, len, "counted %llu, %.2fx %s: double-counting",
			 (unsigned long long)x, r, what);
	else
		snprintf(buf, len, "counted %llu, %.4fx %s (%llu)", (unsigned long long)x, r, what,
			 (unsigned long long)c);
}

void bt_counter_health_judge(struct bt_counter_health *h)
{
	uint64_t v[BT_PMU_MAX_GP + 1];
	int n = 0;
	uint32_t ppm = h->tolerance_ppm ? h->tolerance_ppm : BT_HEALTH_TOLERANCE_PPM;

	h->tolerance_ppm = ppm;
	h->state = BT_HEALTH_RAN;
	h->why[0] = '\0';
	h->gp_fail = 0;
	h->fixed0_fail = false;
	h->consensus = 0;
	h->fixed0_why[0] = '\0';
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		h->gp_why[i][0] = '\0';
		if (h->gp_mask & (1u << i))
			v[n++] = h->gp[i];
	}
	if (h->has_fixed0)
		v[n++] = h->fixed0;
	if (n == 0)
		return;
	/* The count the most counters agree with; a tie goes to the one
	 * nearest the declared count, and without one stays undecided. */
	int best = 0;
	bool tie = false;
	uint64_t cons = 0;
	for (int i = 0; i < n; i++) {
		int m = 0;
		for (int j = 0; j < n; j++)
			if (agrees(v[j], v[i], ppm))
				m++;
		if (m > best) {
			best = m;
			cons = v[i];
			tie = false;
		} else if (m == best && !agrees(v[i], cons, ppm)) {
			if (h->declared && dist(v[i], h->declared) < dist(cons, h->declared))
				cons = v[i];
			else if (!h->declared)
				tie = true;
		}
	}
	/* No two counters agree (or a tie nothing decides): only the known
	 * count of the loop can say which is right. */
	if (n > 1 && (best == 1 || tie)) {
		if (h->declared && agrees(cons, h->declared, ppm))
			tie = false;
		else {
			snprintf(h->why, sizeof(h->why), "the counters do not agree on one count%s",
				 h->declared ? " nor with the loop's declared instructions" : "");
			cons = 0;
		}
	}
	/* The most counters can agree on a wrong count (an encoding every
	 * general counter doubles, with no fixed counter to disagree): then the
	 * loop's declared count decides, and without a counter near it every
	 * counter fails. */
	if (cons && h->declared && !agrees(cons, h->declared, BT_HEALTH_DECLARED_TOLERANCE_PPM)) {
		uint64_t near = 0;
		for (int i = 0; i < n && !near; i++)
			if (agrees(v[i], h->declared, BT_HEALTH_DECLARED_TOLERANCE_PPM))
				near = v[i];
		if (!near)
			snprintf(h->why, sizeof(h->why), "no counter counts the loop's %llu "
				 "instructions (most count %llu)", (unsigned long long)h->declared,
				 (unsigned long long)cons);
		cons = near;
	}
	h->consensus = cons;
	for (unsigned i = 0; i < BT_PMU_MAX_GP; i++) {
		if (!(h->gp_mask & (1u << i)))
			continue;
		if (cons == 0) {
			h->gp_fail |= 1u << i;
			if (h->why[0] && h->declared)
				reason(h->gp_why[i], sizeof(h->gp_why[i]), h->gp[i], h->declared,
				       "the loop's declared count");
			else
				snprintf(h->gp_why[i], sizeof(h->gp_why[i]), "%s",
					 h->why[0] ? "no consensus" : "nothing counted");
		} else if (!agrees(h->gp[i], cons, ppm)) {
			h->gp_fail |= 1u << i;
			reason(h->gp_why[i], sizeof(h->gp_why[i]), h->gp[i], cons, "the others");
		}
	}
	if (h->has_fixed0) {
		if (cons == 0) {
			h->fixed0_fail = true;
			if (h->why[0] && h->declared)
				reason(h->fixed0_why, sizeof(h->fixed0_why), h->fixed0, h->declared,
				       "the loop's declared count");
			else
				snprintf(h->fixed0_why, sizeof(h->fixed0_why), "%s",
					 h->why[0] ? "no consensus" : "nothing counted");
		} else if (!agrees(h->fixed0, cons, ppm)) {
			h->fixed0_fail = true;
			reason(h->fixed0_why, sizeof(h->fixed0_why), h->fixed0, cons, "the others");
		}
	}
	if (cons == 0 && !h->why[0])
		snprintf(h->why, sizeof(h->why), "no counter counted an instruction");
	h->fixed1_why[0] = h->fixed2_why[0] = h->fixed3_why[0] = '\0';
	h->fixed1_fail = h->fixed2_fail = h->fixed3_fail = false;
	if (h->has_fixed2 && (h->tsc == 0 || !agrees(h->fixed2, h->tsc,
						    BT_HEALTH_REF_TSC_TOLERANCE_PPM))) {
		h->fixed2_fail = true;
		reason(h->fixed2_why, sizeof(h->fixed2_why), h->fixed2, h->tsc,
		       "the TSC ticks of its window");
	}
	if (h->has_fixed3) {
		double per = h->cycles ? (double)h->fixed3 / (double)h->cycles : 0;
		if (h->fixed3 == 0 || h->cycles == 0 || per < 1.0 || per > BT_HEALTH_MAX_WIDTH) {
			h->fixed3_fail = true;
			if (h->fixed3 == 0)
				snprintf(h->fixed3_why, sizeof(h->fixed3_why), "counted 0 slots over "
					 "%llu cycles: stuck or dead", (unsigned long long)h->cycles);
			else
				snprintf(h->fixed3_why, sizeof(h->fixed3_why), "%llu slots over %llu "
					 "cycles: %.2f per cycle, not 1-%u", (unsigned long long)h->fixed3,
					 (unsigned long long)h->cycles, per, BT_HEALTH_MAX_WIDTH);
		}
	}
	if (h->has_fixed1) {
		bool twin_ok = h->cycles_gp < BT_PMU_MAX_GP && !(h->gp_fail & (1u << h->cycles_gp)) &&
			       h->cycles > 0;
		if (!twin_ok) {
			h->fixed1_fail = true;
			snprintf(h->fixed1_why, sizeof(h->fixed1_why),
				 "its twin, general counter %u, failed", h->cycles_gp);
		} else if (!agrees(h->fixed1, h->cycles, BT_HEALTH_CYCLES_TOLERANCE_PPM)) {
			h->fixed1_fail = true;
			reason(h->fixed1_why, sizeof(h->fixed1_why), h->fixed1, h->cycles,
			       "its 0x3C twin");
		}
	}
}

bool bt_counter_health_fixed_failed(const struct bt_counter_health *h)
{
	return h && h->state == BT_HEALTH_RAN &&
	       (h->fixed0_fail || h->fixed1_fail || h->fixed2_fail || h->fixed3_fail);
}

uint32_t bt_counter_health_usable_mask(const struct bt_counter_health *h, uint32_t caps_gp_mask)
{
	if (!h || h->state != BT_HEALTH_RAN)
		return caps_gp_mask;
	return caps_gp_mask & ~h->gp_fail;
}

void bt_counter_health_failed_list(const struct bt_counter_health *h, char *buf, size_t len)
{
	size_t k = 0;

	if (!len)
		return;
	buf[0] = '\0';
	if (!h || h->state != BT_HEALTH_RAN)
		return;
	for (unsigned i = 0; i < BT_PMU_MAX_GP && k < len; i++)
		if (h->gp_fail & (1u << i))
			k += (size_t)snprintf(buf + k, len - k, "%sgeneral counter %u (%s)",
					      k ? ", " : "", i, h->gp_why[i]);
	if (h->fixed0_fail && k < len)
		k += (size_t)snprintf(buf + k, len - k, "%sfixed counter 0 (%s)", k ? ", " : "",
				      h->fixed0_why);
	const char *fw[4] = { NULL, h->fixed1_fail ? h->fixed1_why : NULL,
			      h->fixed2_fail ? h->fixed2_why : NULL,
			      h->fixed3_fail ? h->fixed3_why : NULL };
	for (unsigned i = 1; i < 4; i++)
		if (fw[i] && k < len)
			k += (size_t)snprintf(buf + k, len - k, "%sfixed counter %u (%s)",
					      k ? ", " : "", i, fw[i]);
}
