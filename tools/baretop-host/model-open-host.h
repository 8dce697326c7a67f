/* SPDX-License-Identifier: MIT */
/* Shared by the metric commands of baretop-host: a model by id, built in or
 * loaded at run time from the vendor files of its recipe. */
#ifndef TOOLS_BARETOP_HOST_MODEL_OPEN_HOST_H
#define TOOLS_BARETOP_HOST_MODEL_OPEN_HOST_H

#include "base/arena.h"
#include "metrics/model.h"

/* load_root: NULL = built-in tables; else load the recipe's files from there. */
int host_open_model(const char *id, const char *load_root, struct bt_arena *a,
		    struct bt_model **ret);

#endif
