/* SPDX-License-Identifier: MIT */
/*
 * The corrections table (metrics/corrections.h) and the one fix it needs.
 *
 * LNL/ARL/MTL P-cores (perfmon native files of reference commit 6dadedf3):
 * the load-latency caps of L3 hits and snoops are written
 *     a * ( 12 * F ) - ( 3 * F )           (F = core frequency in GHz)
 * which multiplies only 12 * F by the count a and subtracts 3 * F once.
 * Linux perf's conversion of the same trees (perf-format lnl/arl/mtl-
 * metrics.json, tma_l3_hit_latency, tma_contested_accesses,
 * tma_data_sharing) has `a * min(a@R, 9 * F)`, `24 * F`, `25 * F`: the cap
 * is (12 - 3) * F cycles per load, as Granite Rapids' native file writes
 * its own, `a * ( ( 37 * F ) - ( 4.4 * F ) )`. The native Bottleneck_*
 * metrics inline the same nodes' text and carry the same defect. Found
 * by tests/oracle/forms.py; the fix makes the native text equal, on every
 * count, to perf's (tests/suite/19-formula-forms.sh checks baretop's values).
 *
 * EMR (emeraldrapids_metrics.json Version 1.4, TmaVersion 5.2): the
 * BaseFormula of Bottleneck_Data_Cache_Memory_Bandwidth and _Latency has a
 * term `( tma_memory_bound * hbm_bound / ( ... ) ) * tma_mem_bandwidth / ...`
 * (tma_mem_latency in _Latency) for a node Emerald Rapids does not have: no
 * metric of the file is hbm_bound (the one reference of the 16 native files
 * that resolves to nothing), and the expanded Formula put L3_Bound's text,
 * `( STALLS_L2_MISS - STALLS_L3_MISS ) / CLKS`, in its place, so L3_Bound's
 * share is counted a second time as if it were memory. Linux perf's
 * conversion (emr-metrics.json) writes `0 / ( ... )` there; Sapphire
 * Rapids' native 5.2 text (sapphirerapids_metrics.json Version 1.3) has no
 * such term, and neither has pmu-tools' spr_server_ratios.py, which
 * toplev uses for EMR (toplev.py: `("spr", (143, 207, ))  # EMR as SPR`).
 * Bottleneck_Other_Bottlenecks, 100 minus the sum, inlines both texts and
 * comes out short by the same amount (negative on some counts). The fix
 * writes perf's 0 for the phantom share.
 */
#include "metrics/corrections.h"
#include "base/array.h"

#include <string.h>

#include "metrics/load.h"

#define LNL "lunarlake_metrics_lioncove_core.json"
#define ARL "arrowlake_metrics_lioncove_core.json"
#define MTL "meteorlake_metrics_redwoodcove_core.json"
#define EMR "emeraldrapids_metrics.json"
#define HBM "hbm_bound: no such node on EMR; the Formula has L3_Bound's text there; meant 0"
#define CAP                                                                         \
	"precedence: the latency cap x*(N*F) - (M*F) subtracts M*F once, not per load; " \
	"meant x*((N*F) - (M*F))"

const struct bt_correction bt_corrections[] = {
	{ LNL, "L3_Hit_Latency", 466, 0xdff04e6d25583b00ull, BT_FIX_CAP_PARENS, 2,
	  "lnl-metrics.json tma_l3_hit_latency: min(L3_HIT@R, 9 * F)", CAP, NULL, NULL },
	{ LNL, "Contested_Accesses", 897, 0x1d4d3c5105719773ull, BT_FIX_CAP_PARENS, 4,
	  "lnl-metrics.json tma_contested_accesses: 24 * F, 25 * F", CAP, NULL, NULL },
	{ LNL, "Data_Sharing", 897, 0x1d4d3c5105719773ull, BT_FIX_CAP_PARENS, 4,
	  "lnl-metrics.json tma_data_sharing: 24 * F, 25 * F", CAP, NULL, NULL },
	{ LNL, "Bottleneck_Memory_Synchronization", 5295, 0x069d1dcbb3a57253ull, BT_FIX_CAP_PARENS, 18,
	  "lnl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ ARL, "L3_Hit_Latency", 466, 0xdff04e6d25583b00ull, BT_FIX_CAP_PARENS, 2,
	  "arl-metrics.json tma_l3_hit_latency: min(L3_HIT@R, 9 * F)", CAP, NULL, NULL },
	{ ARL, "Contested_Accesses", 897, 0x1d4d3c5105719773ull, BT_FIX_CAP_PARENS, 4,
	  "arl-metrics.json tma_contested_accesses: 24 * F, 25 * F", CAP, NULL, NULL },
	{ ARL, "Data_Sharing", 897, 0x1d4d3c5105719773ull, BT_FIX_CAP_PARENS, 4,
	  "arl-metrics.json tma_data_sharing: 24 * F, 25 * F", CAP, NULL, NULL },
	{ ARL, "Bottleneck_Data_Cache_Memory_Bandwidth", 3328, 0x409ed7a07b49b16dull, BT_FIX_CAP_PARENS, 10,
	  "arl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ MTL, "L3_Hit_Latency", 466, 0xdff04e6d25583b00ull, BT_FIX_CAP_PARENS, 2,
	  "mtl-metrics.json tma_l3_hit_latency: min(L3_HIT@R, 9 * F)", CAP, NULL, NULL },
	{ MTL, "Contested_Accesses", 917, 0xd38c88c340a1ec9bull, BT_FIX_CAP_PARENS, 4,
	  "mtl-metrics.json tma_contested_accesses: 24 * F, 25 * F", CAP, NULL, NULL },
	{ MTL, "Data_Sharing", 925, 0xc5aa0cac8280f3d6ull, BT_FIX_CAP_PARENS, 4,
	  "mtl-metrics.json tma_data_sharing: 24 * F", CAP, NULL, NULL },
	{ MTL, "Bottleneck_Data_Cache_Memory_Bandwidth", 3474, 0x8cf1634d3be1a5c6ull, BT_FIX_CAP_PARENS, 10,
	  "mtl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ MTL, "Bottleneck_Data_Cache_Memory_Latency", 6946, 0xc09fc2f7d7aa4051ull, BT_FIX_CAP_PARENS, 12,
	  "mtl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ MTL, "Bottleneck_Memory_Synchronization", 5777, 0x750d38a051401465ull, BT_FIX_CAP_PARENS, 18,
	  "mtl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ MTL, "Bottleneck_Other_Bottlenecks", 25142, 0x8ddc3867eea10a6cull, BT_FIX_CAP_PARENS, 40,
	  "mtl-metrics.json: the tma_l3_hit_latency, tma_contested_accesses, tma_data_sharing it reads",
	  CAP " (inlined nodes)", NULL, NULL },
	{ EMR, "Bottleneck_Data_Cache_Memory_Bandwidth", 2304, 0x5d01bec9fcb6a132ull, BT_FIX_REPLACE, 1,
	  "emr-metrics.json: 0 / (...); SPR's native 5.2: no such term",
	  HBM, "( ( a / ( b + c + d + e ) ) * ( ( j - f ) / ( g ) ) / (", "( ( a / ( b + c + d + e ) ) * 0 / (" },
	{ EMR, "Bottleneck_Data_Cache_Memory_Latency", 5178, 0x49f9449ed10a2518ull, BT_FIX_REPLACE, 1,
	  "emr-metrics.json: 0 / (...); SPR's native 5.2: no such term",
	  HBM, "( ( a / ( b + c + d + e ) ) * ( ( j - f ) / ( g ) ) / (", "( ( a / ( b + c + d + e ) ) * 0 / (" },
	{ EMR, "Bottleneck_Other_Bottlenecks", 21941, 0xf389fec4def359dfull, BT_FIX_REPLACE, 2,
	  "emr-metrics.json: 0 / (...); SPR's native 5.2: no such term",
	  HBM " (inlined nodes)", "( ( a_a / ( b + c + d + e ) ) * ( ( a_e - a_b ) / ( i ) ) / (",
	  "( ( a_a / ( b + c + d + e ) ) * 0 / (" },
};
const unsigned bt_correction_count = BT_ARRAY_SIZE(bt_corrections);

uint64_t bt_fnv1a64(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static const char *base_name(const char *path)
{
	const char *b = path;
	for (const char *q = path; *q; q++)
		if (*q == '/' || *q == '\\')
			b = q + 1;
	return b;
}

const struct bt_correction *bt_correction_find(const char *path, const char *node, const char *text)
{
	if (!path || !node || !text)
		return NULL;
	const char *file = base_name(path);
	size_t len = strlen(text);
	for (unsigned i = 0; i < bt_correction_count; i++) {
		const struct bt_correction *c = &bt_corrections[i];
		if (c->len == len && !strcmp(c->node, node) && !strcmp(c->file, file) &&
		    c->fnv1a == bt_fnv1a64(text, len))
			return c;
	}
	return NULL;
}

/* the index just past the ')' matching the '(' at s[i], or 0 */
static size_t group_end(const char *s, size_t i)
{
	int depth = 0;
	for (; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			return i + 1;
	}
	return 0;
}

static size_t number_end(const char *s, size_t i)
{
	size_t j = i;
	while ((s[j] >= '0' && s[j] <= '9') || s[j] == '.')
		j++;
	return j > i ? j : 0;
}

static int at(const char *s, size_t i, const char *lit)
{
	return !strncmp(s + i, lit, strlen(lit));
}

/* "* ( N * F ) - ( M * F )" at s[i] (the perfmon text's single spaces):
 * the index of its last ')' plus one, or 0 */
static size_t cap_site(const char *s, size_t i)
{
	if (!at(s, i, "* ( "))
		return 0;
	size_t j = number_end(s, i + 4);
	if (!j || !at(s, j, " * ("))
		return 0;
	size_t f = j + 3, fe = group_end(s, f);
	if (!fe || !at(s, fe, " ) - ( "))
		return 0;
	size_t k = number_end(s, fe + 7);
	if (!k || !at(s, k, " * "))
		return 0;
	size_t g = k + 3;
	if (strncmp(s + f, s + g, fe - f) != 0 || !at(s, g + (fe - f), " )"))
		return 0;
	return g + (fe - f) + 2;
}

/* c->from -> c->to at every place of text (there must be c->sites) */
static const char *replace(struct bt_arena *a, const struct bt_correction *c, const char *text,
			   const char **why)
{
	size_t len = strlen(text), nf = strlen(c->from), nt = strlen(c->to);
	unsigned sites = 0;
	for (const char *p = text; nf && (p = strstr(p, c->from)) != NULL; p += nf)
		sites++;
	if (!nf || sites != c->sites) {
		*why = "the fix does not apply to this text as the table says";
		return text;
	}
	char *out = bt_arena_alloc(a, len + sites * nt + 1);
	if (!out) {
		*why = "out of memory";
		return NULL;
	}
	size_t o = 0;
	for (const char *p = text, *q; *p; p = q + nf) {
		q = strstr(p, c->from);
		if (!q) {
			memcpy(out + o, p, strlen(p));
			o += strlen(p);
			break;
		}
		memcpy(out + o, p, (size_t)(q - p));
		o += (size_t)(q - p);
		memcpy(out + o, c->to, nt);
		o += nt;
	}
	out[o] = 0;
	*why = NULL;
	return out;
}

const char *bt_correction_apply(struct bt_arena *a, const struct bt_correction *c, const char *text,
				const char **why)
{
	if (c->kind == BT_FIX_REPLACE) {
		if (c->from && c->to)
			return replace(a, c, text, why);
		*why = "the table has no replacement for this entry";
		return text;
	}
	size_t len = strlen(text);
	char *out = bt_arena_alloc(a, len + 4 * (size_t)c->sites + 1);
	if (!out) {
		*why = "out of memory";
		return NULL;
	}
	size_t o = 0;
	unsigned sites = 0;
	for (size_t i = 0; i < len;) {
		size_t end = c->kind == BT_FIX_CAP_PARENS && sites < c->sites ? cap_site(text, i) : 0;
		if (!end) {
			out[o++] = text[i++];
			continue;
		}
		memcpy(out + o, "* ( ", 4);
		o += 4;
		memcpy(out + o, text + i + 2, end - i - 2);
		o += end - i - 2;
		memcpy(out + o, " )", 2);
		o += 2;
		i = end;
		sites++;
	}
	out[o] = 0;
	if (sites != c->sites) {
		*why = "the fix does not apply to this text as the table says";
		return text;
	}
	*why = NULL;
	return out;
}

const char *bt_correction_model(const struct bt_correction *c)
{
	for (unsigned i = 0; i < bt_model_recipe_count; i++) {
		const struct bt_model_recipe *r = &bt_model_recipes[i];
		if (r->format == BT_FMT_PERFMON && r->metrics[0] && !strcmp(base_name(r->metrics[0]), c->file))
			return r->id;
	}
	return NULL;
}
