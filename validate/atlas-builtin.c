/* SPDX-License-Identifier: MIT */
/*
 * The atlas's built-in lists.
 *
 * A part's full core list, where one is built in (validate/atlas-pack.h:
 * the lists tools/gen-atlas packed into validate/gen/atlas-lists.c from
 * Intel's perfmon core files, per model id), unpacked into the very list
 * bt_atlas_list_load makes of that file: names, encodings, "Deprecated",
 * and the refusals of atlas-list.c (tests/unit/validate/test-atlas-builtin.c
 * compares the two field by field for every built-in part).
 *
 * Otherwise what every part of a vendor's PMU generation has (a part's
 * full list is then read from the ESP with --events-file):
 *   Intel: the pre-defined architectural events the core enumerates
 *     (CPUID.0AH:EBX / 23H.03H, caps.arch_events; their codes are
 *     base/arch-event.c's, the SDM's table) on the general counters, and
 *     the fixed counters it has (SDM vol. 3B Table 20-2: 0 instructions
 *     retired, 1 core cycles, 2 reference cycles at the TSC rate, 3
 *     TOPDOWN.SLOTS).
 *   AMD: the events every family 17h+ PPR lists for the core counters:
 *     076H cycles not in halt, 0C0H retired instructions, 0C2H retired
 *     branches, 0C3H retired mispredicted branches, 0C4H retired taken
 *     branches, 0C8H retired near returns.
 */
#include <string.h>

#include "base/arch-event.h"
#include "base/array.h"
#include "validate/atlas-pack.h"
#include "validate/atlas.h"

static const char *const fixed_names[] = {
	"INST_RETIRED.ANY (fixed counter 0)", "CPU_CLK_UNHALTED.THREAD (fixed counter 1)",
	"CPU_CLK_UNHALTED.REF_TSC (fixed counter 2)", "TOPDOWN.SLOTS (fixed counter 3)",
};

static const struct {
	const char *name;
	uint16_t code;
} amd_events[] = {
	{ "Cycles not in Halt", 0x076 }, { "Retired Instructions", 0x0C0 },
	{ "Retired Branch Instructions", 0x0C2 }, { "Retired Branch Instructions Mispredicted", 0x0C3 },
	{ "Retired Taken Branch Instructions", 0x0C4 }, { "Retired Near Returns", 0x0C8 },
};

const char *bt_atlas_builtin_parts(void)
{
	return bt_atlas_pack_parts;
}

/* Name k of the stream: its tokens joined by '.' (atlas-pack.h). */
static char *unpack_name(struct bt_arena *a, unsigned off)
{
	const uint8_t *p = &bt_atlas_pack_names[off];
	unsigned n = *p++, num[64];
	size_t len = 0;
	for (unsigned t = 0; t < n && t < 64; t++) {
		num[t] = *p & 0x80 ? (unsigned)(p[0] & 0x7F) << 8 | p[1] : p[0];
		p += *p & 0x80 ? 2 : 1;
		len += strlen(&bt_atlas_pack_tokens[bt_atlas_pack_token_off[num[t]]]) + 1;
	}
	char *s = bt_arena_alloc(a, len ? len : 1), *w = s;
	if (!s)
		return NULL;
	for (unsigned t = 0; t < n && t < 64; t++) {
		const char *tok = &bt_atlas_pack_tokens[bt_atlas_pack_token_off[num[t]]];
		size_t tl = strlen(tok);
		if (t)
			*w++ = '.';
		memcpy(w, tok, tl);
		w += tl;
	}
	*w = 0;
	return s;
}

/* Event k of the tables, as bt_atlas_list_load reads it. */
static bt_status unpack_event(unsigned k, struct bt_atlas_event *e, struct bt_arena *a)
{
	const struct bt_atlas_pack_event *pe = &bt_atlas_pack_events[k];
	const struct bt_atlas_pack_enc *x = &bt_atlas_pack_encs[pe->enc];
	const struct bt_atlas_pack_ctr *c = &bt_atlas_pack_ctrs[x->ctr];
	*e = (struct bt_atlas_event){
		.name = unpack_name(a, pe->name),
		.deprecated = (x->flags & BT_ATLAS_PACK_DEPRECATED) != 0,
		.ev = { .source = BT_SRC_PMC, .flags = x->flags & 0x1F, .code = pe->code,
			.code2 = x->code2, .umask = pe->umask, .umask_ext = x->umask_ext,
			.cmask = x->cmask, .fixed = c->fixed, .counters = c->counters,
			.counters_ht_off = c->counters_ht_off,
			.msr_index = bt_atlas_pack_msr_index[x->msr],
			.msr_value = bt_atlas_pack_msr_value[x->msr] },
	};
	if (!e->name)
		return BT_ERR_NOMEM;
	e->ev.name = e->name;
	e->refused = bt_atlas_refusal(a, &e->ev);
	/* an MSR event's reason is printed into the arena */
	return e->ev.msr_index && !e->refused ? BT_ERR_NOMEM : BT_OK;
}

static bt_status unpack_list(const struct bt_atlas_pack_list *pl, struct bt_atlas_list *l,
			     struct bt_diag *d)
{
	l->v = bt_arena_alloc(&l->arena, (pl->n ? pl->n : 1u) * sizeof(*l->v));
	l->format = "intel-perfmon";
	l->version = pl->version;
	l->file = bt_arena_printf(&l->arena, "built-in %s list, %u events, generated from "
				  "perfmon version %s (%s)", pl->list, pl->n, pl->version, pl->file);
	if (!l->v || !l->file)
		goto nomem;
	for (unsigned r = 0; r < pl->runs; r++)
		for (unsigned k = 0; k < pl->events[2 * r + 1] && l->n < pl->n; k++) {
			if (unpack_event(pl->events[2 * r] + k, &l->v[l->n++], &l->arena) != BT_OK)
				goto nomem;
		}
	return BT_OK;
nomem:
	bt_diag_set(d, "out of memory");
	return BT_ERR_NOMEM;
}

bt_status bt_atlas_list_builtin(const char *model_id, const struct bt_pmu_caps *caps,
				struct bt_atlas_list *l, struct bt_diag *d)
{
	memset(l, 0, sizeof(*l));
	bt_arena_init(&l->arena);
	for (unsigned i = 0; model_id && i < bt_atlas_pack_n_lists; i++)
		if (!strcmp(bt_atlas_pack_lists[i].model, model_id))
			return unpack_list(&bt_atlas_pack_lists[i], l, d);
	l->v = bt_arena_alloc(&l->arena, 32 * sizeof(*l->v));
	if (!l->v) {
		bt_diag_set(d, "out of memory");
		return BT_ERR_NOMEM;
	}
	uint32_t gp = (uint32_t)((1ull << caps->num_gp) - 1);
	l->format = caps->kind == BT_PMU_INTEL_ARCH ? "intel-perfmon" : "linux-perf-amd";
	if (caps->kind != BT_PMU_INTEL_ARCH) {
		l->file = "built-in (AMD core events of every family 17h+ PPR)";
		for (size_t i = 0; i < BT_ARRAY_SIZE(amd_events); i++)
			l->v[l->n++] = (struct bt_atlas_event){
				.name = amd_events[i].name,
				.ev = { .name = amd_events[i].name, .source = BT_SRC_PMC,
					.fixed = BT_EV_NO_FIXED, .code = amd_events[i].code,
					.counters = gp } };
		return BT_OK;
	}
	l->file = "built-in (Intel architectural events the core enumerates, fixed counters)";
	for (unsigned f = 0; f < 4; f++)
		if (caps->fixed_mask & (1u << f))
			l->v[l->n++] = (struct bt_atlas_event){
				.name = fixed_names[f],
				.ev = { .name = fixed_names[f], .source = BT_SRC_PMC, .fixed = (int8_t)f,
					.umask = (uint8_t)(f == 3 ? 0x04 : f + 1) } };
	for (unsigned bit = 0; bit < BT_ARCH_EV_COUNT; bit++) {
		const struct bt_arch_event *a = bt_arch_event(bit);
		if (!a || !(caps->arch_events & (1u << bit)))
			continue;
		l->v[l->n++] = (struct bt_atlas_event){
			.name = a->name,
			.ev = { .name = a->name, .source = BT_SRC_PMC, .fixed = BT_EV_NO_FIXED,
				.code = a->code, .umask = a->umask, .counters = gp } };
	}
	return BT_OK;
}
