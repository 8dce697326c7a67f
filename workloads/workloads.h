/* SPDX-License-Identifier: MIT */
/*
 * The built-in workload descriptors, one per kernel, for the registry
 * (registry.c) and for tests that address a workload directly. Callers
 * normally use bt_wl_find()/bt_wl_all() from workload.h instead.
 */
#ifndef WORKLOADS_WORKLOADS_H
#define WORKLOADS_WORKLOADS_H

#include "workloads/workload.h"

/* matmul.c: the Top-Down paper's case study (ISPASS 2014, section 5.5) */
extern const struct bt_workload bt_wl_multiply1;
extern const struct bt_workload bt_wl_multiply2;
extern const struct bt_workload bt_wl_multiply3;

/* ptr-chase.c */
extern const struct bt_workload bt_wl_ptr_chase_l1;
extern const struct bt_workload bt_wl_ptr_chase_l2;
extern const struct bt_workload bt_wl_ptr_chase_l3;
extern const struct bt_workload bt_wl_ptr_chase_dram;

/* stream.c */
extern const struct bt_workload bt_wl_stream_read;
extern const struct bt_workload bt_wl_stream_triad;

/* branches.c */
extern const struct bt_workload bt_wl_branch_mispredict;

/* code-footprint.c */
extern const struct bt_workload bt_wl_code_footprint;

/* alu.c */
extern const struct bt_workload bt_wl_div_chain;
extern const struct bt_workload bt_wl_alu_dep_chain;
extern const struct bt_workload bt_wl_alu_independent;

/* memory-hazards.c */
extern const struct bt_workload bt_wl_store_fwd_block;
extern const struct bt_workload bt_wl_alias_4k;

/* assists.c */
extern const struct bt_workload bt_wl_denormal_assist;

/* two-core.c */
extern const struct bt_workload bt_wl_false_sharing;
extern const struct bt_workload bt_wl_memory_order_clears;

#endif
