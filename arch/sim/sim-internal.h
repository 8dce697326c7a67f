/* SPDX-License-Identifier: MIT */
/*
 * Shared between the simulated PMU's files only. Calls go one way (see
 * arch/sim/README.md): sim-core.c (the bt_arch ops) -> the vendor register
 * models (sim-intel.c, sim-amd.c) and sim-cpuid.c, sim-count.c -> the
 * shared state helpers (sim-state.c) and the sim's tables (sim-tables.c).
 * Nothing below calls back up.
 */
#ifndef ARCH_SIM_SIM_INTERNAL_H
#define ARCH_SIM_SIM_INTERNAL_H

#include "arch/sim/sim.h"
#include "arch/sim/sim-regs.h"

/* ------------------------------------------------ vendor register models */

/* One vendor's registers (as the driver's struct bt_pmu_driver, pmu/
 * pmu-driver.h): which MSRs exist, which access faults, what a read
 * returns and a write changes, what RDPMC returns. Chosen once at
 * bt_sim_init from cfg.vendor (sim-core.c vendor_for). sim-core.c does
 * what every access shares (foreign activity, fault injection, the log,
 * raising the #GP); these return BT_ERR_FAULT where hardware raises #GP. */
struct bt_sim_vendor {
	enum bt_vendor vendor;
	bt_status (*rdmsr)(struct bt_sim *sim, uint32_t msr, uint64_t *ret);
	bt_status (*wrmsr)(struct bt_sim *sim, uint32_t msr, uint64_t value);
	bt_status (*rdpmc)(struct bt_sim *sim, uint32_t ecx, uint64_t *ret);
};

extern const struct bt_sim_vendor bt_sim_intel_regs; /* sim-intel.c */
extern const struct bt_sim_vendor bt_sim_amd_regs;   /* sim-amd.c */

/* ------------------------------------------------ sim-cpuid.c, sim-count.c */

void bt_sim_cpuid(struct bt_arch *a, uint32_t leaf, uint32_t subleaf, struct bt_cpuid *ret);
/* Advance everything that counts, by the source's counts: one window. */
void bt_sim_count_window(struct bt_sim *sim, bt_window_fn *body);

/* ------------------------------------------------ sim-state.c */

void bt_sim_violation(struct bt_sim *sim, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The perfmon v6 MSR range (SIM_V6_*, sim-regs.h) exists. */
static inline bool sim_v6_range(const struct bt_sim_config *c)
{
	return c->version >= 6;
}

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
/* The bits general counter i holds: its width, or width - 8 with the
 * narrow-counter defect (cfg.defects). */
uint64_t bt_sim_gp_ctr_mask(const struct bt_sim *sim, unsigned i);
/* cfg.defects has `flag` set. */
static inline bool bt_sim_defect(const struct bt_sim *sim, uint32_t flag)
{
	return (sim->cfg.defects.mask & flag) != 0;
}

/* ------------------------------------------------ sim-tables.c */

int bt_sim_ocr_rsp(uint8_t family, unsigned code, unsigned umask);
/* The event table defines (code, umask) as counting for the whole core
 * without AnyThread (bt_sim_set_sibling_active). */
bool bt_sim_core_scoped(uint8_t family, unsigned code, unsigned umask);
/* The simulated AMD part (its signature) has PMCx02B "SMIs received". */
bool bt_sim_amd_smi_rx(const struct bt_sim_config *c);
uint64_t bt_sim_frontend_valid(uint8_t family);

#endif
