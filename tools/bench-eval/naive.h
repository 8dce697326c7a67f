/* SPDX-License-Identifier: MIT */
#ifndef TOOLS_BENCH_EVAL_NAIVE_H
#define TOOLS_BENCH_EVAL_NAIVE_H

#include "metrics/model.h"

struct naive;
struct naive *naive_new(const struct bt_model *m);
void naive_free(struct naive *nv);
/* raw formula values of every node (NaN = invalid) */
void naive_eval(const struct naive *nv, const struct bt_counts *c, double *values);

#endif
