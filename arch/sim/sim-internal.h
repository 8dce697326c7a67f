/* SPDX-License-Identifier: MIT */
/* Shared between the simulated PMU's files only. */
#ifndef ARCH_SIM_SIM_INTERNAL_H
#define ARCH_SIM_SIM_INTERNAL_H

#include "arch/sim/sim.h"
#include "arch/sim/sim-regs.h"

void bt_sim_violation(struct bt_sim *sim, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void bt_sim_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret);

bt_status bt_sim_intel_rdmsr(struct bt_sim *sim, uint32_t msr, uint64_t *ret);
bt_status bt_sim_intel_wrmsr(struct bt_sim *sim, uint32_t msr, uint64_t value);
bt_status bt_sim_amd_rdmsr(struct bt_sim *sim, uint32_t msr, uint64_t *ret);
bt_status bt_sim_amd_wrmsr(struct bt_sim *sim, uint32_t msr, uint64_t value);
bt_status bt_sim_rdpmc_value(struct bt_sim *sim, uint32_t ecx, uint64_t *ret);

/* Counter i exists (Intel: contiguous, or the v6 bitmap; AMD: 0..num_gp-1). */
bool bt_sim_gp_exists(const struct bt_sim *sim, unsigned i);
uint32_t bt_sim_gp_mask(const struct bt_sim *sim);
bool bt_sim_fixed_exists(const struct bt_sim *sim, unsigned i);
/* AnyThread has an effect (v3+, not deprecated by CPUID.0AH:EDX[15]). */
bool bt_sim_any_effective(const struct bt_sim_config *c);
uint32_t bt_sim_fixed_mask(const struct bt_sim *sim);
/* Counting right now (enables, global enable, not frozen). */
bool bt_sim_gp_enabled(const struct bt_sim *sim, unsigned i);
bool bt_sim_fixed_enabled(const struct bt_sim *sim, unsigned i);
void bt_sim_add_gp(struct bt_sim *sim, unsigned i, uint64_t n);
/* A counter's value was written (for the restore check's accounting). */
void bt_sim_note_gp_write(struct bt_sim *sim, unsigned i);
void bt_sim_note_fixed_write(struct bt_sim *sim, unsigned i);
void bt_sim_add_fixed(struct bt_sim *sim, unsigned i, uint64_t n);
/* Advance everything that counts, by the source's counts: one window. */
void bt_sim_count_window(struct bt_sim *sim, bt_window_fn *body);

/* sim-tables.c */
int bt_sim_ocr_rsp(uint8_t family, unsigned code, unsigned umask);
uint64_t bt_sim_frontend_valid(uint8_t family);

#endif
