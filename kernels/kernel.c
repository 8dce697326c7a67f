/* SPDX-License-Identifier: MIT */
/* The kernel table's lookups, and setup with the size checked. */
#include <stdio.h>
#include <string.h>

#include "kernels/kernel.h"

const struct bt_kernel *bt_kernel_find(const char *name)
{
	for (int i = 0; i < bt_n_kernels; i++)
		if (strcmp(bt_kernels[i]->name, name) == 0)
			return bt_kernels[i];
	return NULL;
}

bool bt_kernel_count_on(const struct bt_kernel *k, const char *name, uint64_t n,
			const struct bt_page_span *pages, int64_t *ret)
{
	for (int i = 0; i < BT_KERNEL_MAX_COUNTS && k->counts[i].name; i++) {
		if (strcmp(k->counts[i].name, name) == 0) {
			*ret = k->counts[i].c0 + k->counts[i].c1 * (int64_t)n;
			return true;
		}
	}
	for (int i = 0; pages && k->paged && i < BT_KERNEL_MAX_PAGED && k->paged[i].count.name; i++) {
		const struct bt_kcount_paged *p = &k->paged[i];

		if (strcmp(p->count.name, name) == 0 && pages->smallest &&
		    pages->smallest >= p->page_lo && pages->largest <= p->page_hi) {
			*ret = p->count.c0 + p->count.c1 * (int64_t)n;
			return true;
		}
	}
	return false;
}

bool bt_kernel_count(const struct bt_kernel *k, const char *name, uint64_t n, int64_t *ret)
{
	return bt_kernel_count_on(k, name, n, NULL, ret);
}

bool bt_kernel_count_per_page(const struct bt_kernel *k, const char *name)
{
	for (int i = 0; k->paged && i < BT_KERNEL_MAX_PAGED && k->paged[i].count.name; i++)
		if (!name || strcmp(k->paged[i].count.name, name) == 0)
			return true;
	return false;
}

bt_status bt_kernel_setup(const struct bt_kernel *k, uint64_t n, const struct bt_kernel_cpu *cpu,
			  struct bt_kernel_state *st, struct bt_diag *d)
{
	memset(st, 0, sizeof(*st));
	if (n < k->n_min || n > k->n_max) {
		bt_diag_set(d, "kernel %s: %s = %llu is outside %llu..%llu", k->name, k->n_means,
			    (unsigned long long)n, (unsigned long long)k->n_min,
			    (unsigned long long)k->n_max);
		return BT_ERR_INVALID;
	}
	st->n = n;
	snprintf(st->pages.source, sizeof(st->pages.source), "unknown: not read");
	bt_status s = k->setup ? k->setup(st, cpu, d) : BT_OK;
	if (s != BT_OK || !st->buf || !bt_kernel_count_per_page(k, NULL))
		return s;
	if (cpu && cpu->pages)
		cpu->pages(st->buf, st->buf_bytes, &st->pages);
	else
		snprintf(st->pages.source, sizeof(st->pages.source),
			 "unknown: no page reader was given");
	return BT_OK;
}

void bt_kernel_teardown(const struct bt_kernel *k, struct bt_kernel_state *st)
{
	if (k->teardown)
		k->teardown(st);
	memset(st, 0, sizeof(*st));
}

