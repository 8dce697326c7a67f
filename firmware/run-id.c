/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "firmware/run-id.h"

/* s with every character outside [A-Za-z0-9._] as '_', at most 64 long. */
static void safe(const char *s, char out[65])
{
	size_t k = 0;

	for (; s[k] && k < 64; k++) {
		char c = s[k];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_';
		out[k] = ok ? c : '_';
	}
	out[k] = '\0';
}

/* "2026-11-24T17:31:54..." as "20261124T173154"; false if not that shape. */
static bool compact_time(const char *t, char out[16])
{
	static const int digits[] = { 0, 1, 2, 3, 5, 6, 8, 9, -1, 11, 12, 14, 15, 17, 18 };

	if (!t || strlen(t) < 19 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
	    t[16] != ':')
		return false;
	for (int i = 0; i < 15; i++) {
		if (digits[i] < 0) {
			out[i] = 'T';
			continue;
		}
		char c = t[digits[i]];
		if (c < '0' || c > '9')
			return false;
		out[i] = c;
	}
	out[15] = '\0';
	return true;
}

void bt_run_id(const struct bt_smbios *s, unsigned seq, const char *firmware_clock,
	       char out[BT_RUN_ID_MAX])
{
	char who[80], buf[65], when[16];

	if (s && s->present && s->system.uuid[0]) {
		snprintf(who, sizeof(who), "%s", s->system.uuid);
	} else if (s && s->present && s->system.serial[0]) {
		safe(s->system.serial, buf);
		snprintf(who, sizeof(who), "sn-%s", buf);
	} else if (s && s->present && s->board.serial[0]) {
		safe(s->board.serial, buf);
		snprintf(who, sizeof(who), "board-%s", buf);
	} else {
		snprintf(who, sizeof(who), "unidentified");
	}
	if (!compact_time(firmware_clock, when))
		snprintf(when, sizeof(when), "notime");
	snprintf(out, BT_RUN_ID_MAX, "%s-%06u-%s", who, seq, when);
}
