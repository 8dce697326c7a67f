/* SPDX-License-Identifier: MIT */
/*
 * TNT: Top-Down level 1 of the Tremont core (Jasper Lake, Elkhart Lake,
 * Snow Ridge / Jacobsville) from its model-specific TOPDOWN_* events.
 *
 * Tremont has no published Top-Down model (Intel's perfmon repository has
 * only event files for EHL and SNR; Linux perf has no Tremont metric file)
 * and no architectural Top-Down events (CPUID.0AH length 7, no leaf 23H),
 * so neither a published model nor ARCH applies. What does exist is the
 * core's own level-1 events, which Linux exports as topdown-* for Tremont
 * (arch/x86/events/intel/core.c, tnt_events_attrs; commit c2208046bba6
 * "perf/x86/intel: Add Tremont Topdown support"). Chosen by core lineage
 * (metrics/lineage.c) before ARCH; bt_builtin_find("TNT") finds it.
 */
#ifndef METRICS_TREMONT_MODEL_H
#define METRICS_TREMONT_MODEL_H

#include "metrics/model-def.h"

#define BT_TNT_MODEL_ID "TNT"
#define BT_TNT_MODEL_NAME "Tremont model-specific Top-Down events (Linux core.c)"
/* Issue slots per cycle the level-1 shares divide by (see tremont-model.c). */
#define BT_TNT_WIDTH 4

/* The model, a constant definition (never NULL). */
const struct bt_model_def *bt_tremont_model(void);

#endif
