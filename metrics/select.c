/* SPDX-License-Identifier: MIT */
#include "metrics/select.h"

#include <stdio.h>
#include <string.h>

#include "metrics/arch-model.h"
#include "metrics/builtin.h"
#include "metrics/lineage.h"
#include "metrics/tremont-model.h"

void bt_cpu_facts_key(const struct bt_cpu_facts *cpu, char *buf, unsigned size)
{
	int n = snprintf(buf, size, "%s-%u-%X-%X", cpu->vendor ? cpu->vendor : "?", cpu->family,
			 cpu->model, cpu->stepping);
	if (cpu->core_type && n > 0 && (unsigned)n < size)
		snprintf(buf + n, size - (unsigned)n, " core type 0x%02x", cpu->core_type);
}

static int strcasecmp_ascii(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		int x = (*a >= 'a' && *a <= 'z') ? *a - 32 : *a, y = (*b >= 'a' && *b <= 'z') ? *b - 32 : *b;
		if (x != y)
			return x - y;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static void list_models(char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < bt_builtin_model_count && n + 16 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", bt_builtin_models[i]->id);
	if (n + 8 < size)
		snprintf(buf + n, size - n, " %s", BT_TNT_MODEL_ID);
}

bt_status bt_model_select(const struct bt_cpu_facts *cpu, const char *force_id,
			  const struct bt_model_def **ret, struct bt_diag *d)
{
	char models[400];
	list_models(models, sizeof(models));
	if (force_id && strcasecmp_ascii(force_id, BT_ARCH_MODEL_ID) == 0)
		return bt_arch_model(cpu ? cpu->arch_td : NULL, ret, d);
	if (force_id) {
		const struct bt_model_def *m = bt_builtin_find(force_id);
		if (!m) {
			bt_diag_set(d, "no built-in model \"%s\"; available: %s", force_id, models);
			return BT_ERR_NOT_FOUND;
		}
		*ret = m;
		return BT_OK;
	}
	if (!cpu || !cpu->vendor) {
		bt_diag_set(d, "no CPU facts to select a model; force one of: %s", models);
		return BT_ERR_INVALID;
	}
	for (unsigned i = 0; i < bt_cpu_map_count; i++) {
		const struct bt_cpu_map_entry *e = &bt_cpu_map[i];
		if (!e->vendor || strcmp(e->vendor, cpu->vendor) || e->family != cpu->family ||
		    cpu->model < e->model_lo || cpu->model > e->model_hi)
			continue;
		if (cpu->stepping < 16 && !(e->steppings >> cpu->stepping & 1))
			continue;
		if (e->core_type && e->core_type != cpu->core_type)
			continue;
		if (e->native_model && cpu->native_model && e->native_model != cpu->native_model)
			continue;
		const struct bt_model_def *m = bt_builtin_find(e->model_id);
		if (!m)
			continue;
		*ret = m;
		return BT_OK;
	}
	/* A known core in a new package: the published model of its core. */
	const struct bt_core_lineage *lin = bt_core_lineage_of(cpu);
	if (lin && lin->model_id) {
		const struct bt_model_def *m = bt_builtin_find(lin->model_id);
		if (m) {
			*ret = m;
			return BT_OK;
		}
	}
	/* No published model: the architectural one, where the core
	 * enumerates its events. */
	char arch_why[256] = "";
	if (cpu->arch_td && bt_arch_td_usable(cpu->arch_td, arch_why, sizeof(arch_why)))
		return bt_arch_model(cpu->arch_td, ret, d);
	char key[64];
	bt_cpu_facts_key(cpu, key, sizeof(key));
	const char *why = NULL, *near = bt_model_suggest(cpu, &why);
	char arch_note[300] = "";
	if (arch_why[0])
		snprintf(arch_note, sizeof(arch_note), "; no architectural model: %s", arch_why);
	if (near)
		bt_diag_set(d, "no built-in model for CPU %s%s; nearest published model by core "
			    "lineage: %s (%s), not applied: --model %s forces it (check its events "
			    "with --validate first); available models: %s", key, arch_note, near, why,
			    near, models);
	else
		bt_diag_set(d, "no built-in model for CPU %s%s; available models: %s (force one, or "
			    "load vendor files for this CPU)", key, arch_note, models);
	return BT_ERR_NOT_FOUND;
}
