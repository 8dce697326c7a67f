/* SPDX-License-Identifier: MIT */
/*
 * Workload parameters from "name=value" strings, and back.
 *
 *   counts  decimal or 0x hex, optional K, M, G = x1000, x1000^2, x1000^3
 *   sizes   decimal or 0x hex, optional K/KiB, M/MiB, G/GiB = x1024^n, or B
 *   choices one of the listed names
 *
 * Every error names the workload, the parameter and what was wrong; the
 * config is only changed on success. This parser reads user input (command
 * line, config files on the ESP), so it has a fuzz target:
 * tests/fuzz/fuzz-wl-params.c.
 */
#include <stdio.h>
#include <string.h>

#include "workloads/wl-common.h"
#include "base/array.h"
#include "base/near-name.h"

#define MAX_TOKEN 128

void bt_wl_config_init(struct bt_wl_config *cfg, const struct bt_workload *wl,
		       enum bt_wl_preset preset)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->wl = wl;
	for (unsigned i = 0; i < wl->n_params && i < BT_WL_MAX_PARAMS; i++)
		cfg->values[i] = preset == BT_WL_QUICK ? wl->params[i].quick : wl->params[i].def;
}

static const struct bt_wl_param *find_param(const struct bt_workload *wl, const char *name,
					    size_t name_len, unsigned *ret_index)
{
	for (unsigned i = 0; i < wl->n_params; i++) {
		if (strlen(wl->params[i].name) == name_len &&
		    memcmp(wl->params[i].name, name, name_len) == 0) {
			*ret_index = i;
			return &wl->params[i];
		}
	}
	return NULL;
}

static void list_params(const struct bt_workload *wl, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < wl->n_params && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 wl->params[i].name);
	if (wl->n_params == 0)
		snprintf(buf, len, "none");
}

static void list_choices(const struct bt_wl_param *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; p->choices[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 p->choices[i]);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hex_digit(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool same_ci(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a, y = *b;

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return *a == *b;
}

/* A number with an optional suffix; false with a reason on any error. */
static bool parse_number(const char *s, enum bt_wl_param_kind kind, uint64_t *ret,
			 const char **why)
{
	uint64_t v = 0, scale = 1;
	const char *p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (hex_digit(*p) < 0) {
			*why = "not a number";
			return false;
		}
		for (; hex_digit(*p) >= 0; p++) {
			if (v > (UINT64_MAX >> 4)) {
				*why = "too large";
				return false;
			}
			v = (v << 4) | (uint64_t)hex_digit(*p);
		}
	} else {
		if (!is_digit(*p)) {
			*why = "not a number";
			return false;
		}
		for (; is_digit(*p); p++) {
			uint64_t d = (uint64_t)(*p - '0');

			if (v > (UINT64_MAX - d) / 10) {
				*why = "too large";
				return false;
			}
			v = v * 10 + d;
		}
	}

	if (*p) {
		static const struct {
			const char *suffix;
			uint64_t count_scale, bytes_scale;  /* 0: not allowed */
		} suffixes[] = {
			{ "k", 1000ull, 1ull << 10 },
			{ "m", 1000000ull, 1ull << 20 },
			{ "g", 1000000000ull, 1ull << 30 },
			{ "kib", 0, 1ull << 10 },
			{ "mib", 0, 1ull << 20 },
			{ "gib", 0, 1ull << 30 },
			{ "b", 0, 1 },
		};
		bool found = false;

		for (size_t i = 0; i < BT_ARRAY_SIZE(suffixes); i++) {
			if (same_ci(p, suffixes[i].suffix)) {
				scale = kind == BT_WL_PARAM_BYTES ? suffixes[i].bytes_scale
								  : suffixes[i].count_scale;
				found = scale != 0;
				break;
			}
		}
		if (!found) {
			*why = kind == BT_WL_PARAM_BYTES ? "bad size suffix (use K, M, G, KiB, MiB, GiB or B)"
							 : "bad suffix (use K, M or G = x1000^n)";
			return false;
		}
		if (v > UINT64_MAX / scale) {
			*why = "too large";
			return false;
		}
		v *= scale;
	}
	*ret = v;
	return true;
}

static bt_status parse_value(const struct bt_workload *wl, const struct bt_wl_param *p,
			     const char *value, uint64_t *ret, struct bt_diag *d)
{
	const char *why = NULL;
	uint64_t v;

	if (p->kind == BT_WL_PARAM_CHOICE) {
		char choices[160];

		for (uint64_t i = 0; p->choices[i]; i++) {
			if (strcmp(p->choices[i], value) == 0) {
				*ret = i;
				return BT_OK;
			}
		}
		list_choices(p, choices, sizeof choices);
		return bt_wl_fail(BT_ERR_INVALID, d, "%s: %s=%s: expected one of %s",
				  wl->name, p->name, value, choices);
	}
	if (!parse_number(value, p->kind, &v, &why))
		return bt_wl_fail(BT_ERR_INVALID, d, "%s: %s=%s: %s", wl->name,
				  p->name, value, why);
	if (v < p->min || v > p->max)
		return bt_wl_fail(BT_ERR_INVALID, d,
				  "%s: %s=%s: out of range (%llu..%llu)", wl->name, p->name, value,
				  (unsigned long long)p->min, (unsigned long long)p->max);
	if (p->multiple > 1 && v % p->multiple != 0)
		return bt_wl_fail(BT_ERR_INVALID, d, "%s: %s=%s: must be a multiple of %llu",
				  wl->name, p->name, value, (unsigned long long)p->multiple);
	*ret = v;
	return BT_OK;
}

static bt_status set_token(struct bt_wl_config *cfg, const char *tok, size_t tok_len,
			   struct bt_diag *d)
{
	const struct bt_workload *wl = cfg->wl;
	char value[MAX_TOKEN + 1], names[160];
	const struct bt_wl_param *p;
	const char *eq;
	unsigned index;
	uint64_t v = 0;
	bt_status s;

	eq = memchr(tok, '=', tok_len);
	if (!eq || eq == tok)
		return bt_wl_fail(BT_ERR_INVALID, d,
				  "%s: '%.*s': expected name=value", wl->name,
				  (int)(tok_len > MAX_TOKEN ? MAX_TOKEN : tok_len), tok);
	p = find_param(wl, tok, (size_t)(eq - tok), &index);
	if (!p) {
		list_params(wl, names, sizeof names);
		return bt_wl_fail(BT_ERR_INVALID, d,
				  "%s: unknown parameter '%.*s' (parameters: %s)", wl->name,
				  (int)(eq - tok > MAX_TOKEN ? MAX_TOKEN : eq - tok), tok, names);
	}
	if (tok_len - (size_t)(eq + 1 - tok) > MAX_TOKEN)
		return bt_wl_fail(BT_ERR_INVALID, d, "%s: %s: value too long",
				  wl->name, p->name);
	memcpy(value, eq + 1, tok_len - (size_t)(eq + 1 - tok));
	value[tok_len - (size_t)(eq + 1 - tok)] = '\0';
	if (value[0] == '\0')
		return bt_wl_fail(BT_ERR_INVALID, d, "%s: %s: empty value",
				  wl->name, p->name);
	s = parse_value(wl, p, value, &v, d);
	if (s != BT_OK)
		return s;
	cfg->values[index] = v;
	return BT_OK;
}

bt_status bt_wl_config_set(struct bt_wl_config *cfg, const char *assignment,
			   struct bt_diag *d)
{
	return set_token(cfg, assignment, strlen(assignment), d);
}

static bool is_separator(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

bt_status bt_wl_config_from_spec(struct bt_wl_config *ret, const char *spec,
				 enum bt_wl_preset preset, struct bt_diag *d)
{
	const struct bt_workload *wl = NULL;
	struct bt_wl_config cfg;
	const char *colon = strchr(spec, ':');
	size_t name_len = colon ? (size_t)(colon - spec) : strlen(spec);
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	for (size_t i = 0; i < n; i++) {
		if (strlen(all[i]->name) == name_len && memcmp(all[i]->name, spec, name_len) == 0) {
			wl = all[i];
			break;
		}
	}
	if (!wl) {
		char typed[MAX_TOKEN + 1], hint[96];
		struct bt_near_name near;

		snprintf(typed, sizeof(typed), "%.*s",
			 (int)(name_len > MAX_TOKEN ? MAX_TOKEN : name_len), spec);
		bt_near_name_init(&near, typed);
		for (size_t i = 0; i < n; i++)
			bt_near_name_offer(&near, all[i]->name);
		return bt_wl_fail(BT_ERR_NOT_FOUND, d,
				  "no workload '%s'%s (--list-workloads lists them; on a workstation, "
				  "baretop-host workloads --list)", typed,
				  bt_near_name_hint(&near, hint, sizeof(hint)));
	}
	bt_wl_config_init(&cfg, wl, preset);
	if (colon) {
		const char *p = colon + 1;

		for (;;) {
			const char *end;
			bt_status s;

			while (is_separator(*p))
				p++;
			if (!*p)
				break;
			end = p;
			while (*end && !is_separator(*end))
				end++;
			s = set_token(&cfg, p, (size_t)(end - p), d);
			if (s != BT_OK)
				return s;
			p = end;
		}
	}
	*ret = cfg;
	return BT_OK;
}

static size_t format_value(const struct bt_wl_param *p, uint64_t v, char *buf, size_t len)
{
	static const char *const units[] = { "", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	switch (p->kind) {
	case BT_WL_PARAM_CHOICE: {
		const char *name = "?";

		for (uint64_t i = 0; p->choices[i]; i++)
			if (i == v)
				name = p->choices[i];
		return (size_t)snprintf(buf, len, "%s", name);
	}
	case BT_WL_PARAM_BYTES:
		while (u + 1 < BT_ARRAY_SIZE(units) && v != 0 && v % 1024 == 0)
			v /= 1024, u++;
		return (size_t)snprintf(buf, len, "%llu%s", (unsigned long long)v, units[u]);
	case BT_WL_PARAM_COUNT:
	default:
		return (size_t)snprintf(buf, len, "%llu", (unsigned long long)v);
	}
}

size_t bt_wl_config_format(const struct bt_wl_config *cfg, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < cfg->wl->n_params; i++) {
		const struct bt_wl_param *p = &cfg->wl->params[i];
		size_t room = used < len ? len - used : 0;

		used += (size_t)snprintf(room ? buf + used : NULL, room, "%s%s=", i ? " " : "",
					 p->name);
		room = used < len ? len - used : 0;
		used += format_value(p, cfg->values[i], room ? buf + used : NULL, room);
	}
	return used;
}

bool bt_wl_config_get(const struct bt_wl_config *cfg, const char *name, uint64_t *ret)
{
	unsigned index;

	if (!find_param(cfg->wl, name, strlen(name), &index))
		return false;
	*ret = cfg->values[index];
	return true;
}
