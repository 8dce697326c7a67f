/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the workload parameter parser (workloads/params.c):
 * any byte string as a spec "NAME[:p=v,...]" and as a single "p=v" for every
 * workload. Properties checked beyond "no crash, leak or UB":
 *   - a rejected input always comes with a message;
 *   - an accepted spec formats to text that parses back to the same values
 *     (and the values are within the declared ranges).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_config(const struct bt_wl_config *cfg)
{
	struct bt_wl_config back;
	char text[512], spec[640];
	struct bt_diag d = { "" };

	for (unsigned i = 0; i < cfg->wl->n_params; i++) {
		const struct bt_wl_param *p = &cfg->wl->params[i];

		if (cfg->values[i] < p->min || cfg->values[i] > p->max ||
		    (p->multiple > 1 && cfg->values[i] % p->multiple))
			abort();
	}
	if (bt_wl_config_format(cfg, text, sizeof text) >= sizeof text)
		abort();
	snprintf(spec, sizeof spec, "%s:%s", cfg->wl->name, text);
	if (bt_wl_config_from_spec(&back, spec, BT_WL_QUICK, &d) != BT_OK)
		abort();
	if (back.wl != cfg->wl || memcmp(back.values, cfg->values, sizeof back.values) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	struct bt_wl_config cfg;
	struct bt_diag d;
	size_t n;
	const struct bt_workload *const *all = bt_wl_all(&n);

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	d.text[0] = '\0';
	if (bt_wl_config_from_spec(&cfg, s, BT_WL_DEFAULT, &d) == BT_OK)
		check_config(&cfg);
	else if (d.text[0] == '\0')
		abort();

	for (size_t i = 0; i < n; i++) {
		bt_wl_config_init(&cfg, all[i], BT_WL_DEFAULT);
		d.text[0] = '\0';
		if (bt_wl_config_set(&cfg, s, &d) == BT_OK)
			check_config(&cfg);
		else if (d.text[0] == '\0')
			abort();
	}
	free(s);
	return 0;
}
