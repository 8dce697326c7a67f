/* SPDX-License-Identifier: MIT */
#include "metrics/event-name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json-read.h"

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int parse_uint(const char *s, int base, uint64_t *ret)
{
	if (!*s)
		return -1;
	char *end;
	unsigned long long v = strtoull(s, &end, base);
	if (*end)
		return -1;
	*ret = v;
	return 0;
}

static void mods_init(struct bt_event_mods *m)
{
	memset(m, 0, sizeof(*m));
	m->cmask = m->inv = m->edge = m->eq = m->umask = -1;
}

static bt_status add_other(struct bt_event_mods *m, const char *mod, const char *name,
			   struct bt_diag *d)
{
	size_t have = strlen(m->other), add = strlen(mod);
	if (have + add + 2 > sizeof(m->other)) {
		bt_diag_set(d, "event %s: too many qualifiers", name);
		return BT_ERR_INVALID;
	}
	m->other[have] = ':';
	memcpy(m->other + have + 1, mod, add + 1);
	return BT_OK;
}

/* One modifier, perfmon or canonical spelling. */
static bt_status apply_mod(struct bt_event_mods *m, const char *mod, const char *name,
			   struct bt_diag *d)
{
	uint64_t v;
	if (mod[0] == 'c' && parse_uint(mod + 1, 10, &v) == 0 && v < 256) {
		m->cmask = (int)v;
	} else if (mod[0] == 'i' && parse_uint(mod + 1, 10, &v) == 0 && v < 2) {
		m->inv = (int)v;
	} else if (mod[0] == 'e' && mod[1] != 'q' && parse_uint(mod + 1, 10, &v) == 0 && v < 2) {
		m->edge = (int)v;
	} else if (starts(mod, "eq") && parse_uint(mod + 2, 10, &v) == 0 && v < 2) {
		m->eq = (int)v;
	} else if (starts(mod, "u0x") && parse_uint(mod + 1, 16, &v) == 0 && v < 256) {
		m->umask = (int)v;
	} else if (starts(mod, "ocr_msr_val=") && parse_uint(mod + 12, 16, &v) == 0) {
		m->has_ocr = 1;
		m->ocr = v;
	} else if (!strcmp(mod, "SUP") || !strcmp(mod, "sup") || !strcmp(mod, "k")) {
		m->priv = BT_EVF_SUP;
	} else if (!strcmp(mod, "USER") || !strcmp(mod, "user") || !strcmp(mod, "u")) {
		m->priv = BT_EVF_USER;
	} else if (!strcmp(mod, "perf_metrics")) {
		m->perf_metrics = 1;
	} else if (!strcmp(mod, "retire_latency")) {
		m->retire_latency = 1;
	} else if (*mod) {
		if (!strcmp(mod, "percore"))
			m->percore = 1;
		return add_other(m, mod, name, d);
	} else {
		bt_diag_set(d, "event %s: empty qualifier", name);
		return BT_ERR_INVALID;
	}
	return BT_OK;
}

bt_status bt_event_name_parse(const char *name, char *base, size_t base_size, struct bt_event_mods *m,
			 struct bt_diag *d)
{
	mods_init(m);
	const char *colon = strchr(name, ':');
	size_t n = colon ? (size_t)(colon - name) : strlen(name);
	if (n == 0 || n >= base_size) {
		bt_diag_set(d, "bad event name '%s'", name);
		return BT_ERR_INVALID;
	}
	memcpy(base, name, n);
	base[n] = 0;
	while (colon) {
		const char *mod = colon + 1;
		colon = strchr(mod, ':');
		char buf[BT_EVENT_NAME_MAX];
		size_t len = colon ? (size_t)(colon - mod) : strlen(mod);
		if (len >= sizeof(buf)) {
			bt_diag_set(d, "bad event name '%s'", name);
			return BT_ERR_INVALID;
		}
		memcpy(buf, mod, len);
		buf[len] = 0;
		bt_status s = apply_mod(m, buf, name, d);
		if (s != BT_OK)
			return s;
	}
	return BT_OK;
}

void bt_event_format(char *out, size_t size, const char *base, const struct bt_event_mods *m)
{
	int n = snprintf(out, size, "%s", base);
#define ADD(...) do { if (n >= 0 && (size_t)n < size) n += snprintf(out + n, size - (size_t)n, __VA_ARGS__); } while (0)
	if (m->cmask >= 0)
		ADD(":c%d", m->cmask);
	if (m->inv >= 0)
		ADD(":i%d", m->inv);
	if (m->edge >= 0)
		ADD(":e%d", m->edge);
	if (m->eq >= 0)
		ADD(":eq%d", m->eq);
	if (m->umask >= 0)
		ADD(":u0x%02x", m->umask);
	if (m->has_ocr)
		ADD(":ocr_msr_val=0x%llx", (unsigned long long)m->ocr);
	ADD("%s", m->other);
	if (m->priv == BT_EVF_SUP)
		ADD(":SUP");
	else if (m->priv == BT_EVF_USER)
		ADD(":USER");
#undef ADD
}

bt_status bt_event_canonical(const char *name, char *out, size_t size, struct bt_event_mods *m,
			     struct bt_diag *d)
{
	char base[BT_EVENT_NAME_MAX];
	bt_status s = bt_event_name_parse(name, base, sizeof(base), m, d);
	if (s != BT_OK)
		return s;
	bt_event_format(out, size, base, m);
	return BT_OK;
}

/* Removes perf's backslash escapes. */
static void unescape(char *s)
{
	char *w = s;
	for (const char *r = s; *r; r++) {
		if (*r == '\\' && r[1])
			r++;
		*w++ = *r;
	}
	*w = 0;
}

bt_status bt_event_from_perf(const char *token, char *out, size_t size, struct bt_diag *d)
{
	char buf[BT_EVENT_NAME_MAX];
	if (strlen(token) >= sizeof(buf)) {
		bt_diag_set(d, "event name too long: %s", token);
		return BT_ERR_INVALID;
	}
	strcpy(buf, token);
	unescape(buf);
	char *at = strchr(buf, '@');
	if (!at) {
		/* EVENT[:mod...] with perf's ":k"/":u" */
		struct bt_event_mods m;
		return bt_event_canonical(buf, out, size, &m, d);
	}
	char *close = strchr(at + 1, '@');
	if (!close) {
		bt_diag_set(d, "unterminated '@' in event %s", token);
		return BT_ERR_INVALID;
	}
	*at = 0;
	*close = 0;
	const char *pmu = buf, *terms = at + 1, *suffix = close + 1;
	if (!strcmp(pmu, "msr") && (!strcmp(terms, "tsc") || starts(terms, "tsc,"))) {
		snprintf(out, size, "TSC");
		return BT_OK;
	}
	if (strcmp(pmu, "cpu") && strcmp(pmu, "cpu_atom") && strcmp(pmu, "cpu_core")) {
		/* another PMU (power, cstate_core, uncore_*): keep the name */
		snprintf(out, size, "%s@%s@%s", pmu, terms, suffix);
		return BT_OK;
	}
	/* cpu@EVENT,term=value,...@[k|u] */
	struct bt_event_mods m;
	mods_init(&m);
	char base[BT_EVENT_NAME_MAX] = "";
	const char *t = terms;
	int first = 1;
	while (*t) {
		const char *comma = strchr(t, ',');
		size_t len = comma ? (size_t)(comma - t) : strlen(t);
		char term[BT_EVENT_NAME_MAX];
		memcpy(term, t, len);
		term[len] = 0;
		t += len + (comma ? 1 : 0);
		if (first) {
			/* the event itself, possibly with ":k"/":u" */
			bt_status s = bt_event_name_parse(term, base, sizeof(base), &m, d);
			if (s != BT_OK)
				return s;
			first = 0;
			continue;
		}
		char *eq = strchr(term, '=');
		const char *val = eq ? eq + 1 : "1";
		if (eq)
			*eq = 0;
		uint64_t v;
		if (parse_uint(val, 0, &v) < 0) {
			bt_diag_set(d, "event %s: bad value in term '%s'", token, term);
			return BT_ERR_INVALID;
		}
		if (!strcmp(term, "cmask") && v < 256) {
			m.cmask = (int)v;
		} else if (!strcmp(term, "inv") && v < 2) {
			m.inv = (int)v;
		} else if (!strcmp(term, "edge") && v < 2) {
			m.edge = (int)v;
		} else if (!strcmp(term, "umask") && v < 256) {
			m.umask = (int)v;
		} else {
			bt_diag_set(d, "event %s: unsupported term '%s'", token, term);
			return BT_ERR_UNSUPPORTED;
		}
	}
	if (!base[0]) {
		bt_diag_set(d, "event %s: no event name", token);
		return BT_ERR_INVALID;
	}
	for (const char *p = suffix; *p; p++) {
		if (*p == 'k') {
			m.priv = BT_EVF_SUP;
		} else if (*p == 'u') {
			m.priv = BT_EVF_USER;
		} else {
			bt_diag_set(d, "event %s: unsupported modifier '%c'", token, *p);
			return BT_ERR_UNSUPPORTED;
		}
	}
	bt_event_format(out, size, base, &m);
	return BT_OK;
}
