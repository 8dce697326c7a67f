/* SPDX-License-Identifier: MIT */
/*
 * What a PMU driver (intel-pmu.c, amd-pmu.c) and the session share: MSR and
 * RDPMC access with save-before-touch bookkeeping, failure and caveat
 * messages, and the counting window. Defined in pmu-regs.c, which calls
 * neither the session nor a driver, so the calls go one way:
 * pmu-session.c -> driver -> pmu-regs.c (and pmu-session.c -> pmu-regs.c).
 *
 * Every MSR a session writes is saved (read) before its first write, once;
 * the driver's restore puts the saved values back at close.
 */
#ifndef PMU_PMU_REGS_H
#define PMU_PMU_REGS_H

#include "pmu/pmu-session.h"

/* Save msr (once) then write it; on failure the session fails. */
bt_status bt_pmu_wr(struct bt_pmu_session *s, uint32_t msr, uint64_t value, const char *why);
/* Save `save_msr` (once, read from it) then write `msr`. */
bt_status bt_pmu_wr_saving(struct bt_pmu_session *s, uint32_t save_msr, uint32_t msr,
			   uint64_t value, const char *why);
bt_status bt_pmu_save(struct bt_pmu_session *s, uint32_t msr);
/* For optional settings: set `bits` in `msr` by read-modify-write, saving it
 * first, WITHOUT failing the session. BT_OK: the bits are set (or already
 * were). Otherwise the access that faulted ("RDMSR"/"WRMSR") is in
 * *ret_access, and nothing was changed or saved. */
bt_status bt_pmu_try_set_bits(struct bt_pmu_session *s, uint32_t msr, uint64_t bits,
			      const char **ret_access);
/* Append a caveat to s->warning ("; "-separated, truncated when full). */
void bt_pmu_warn(struct bt_pmu_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bt_status bt_pmu_rd(struct bt_pmu_session *s, uint32_t msr, uint64_t *ret, const char *why);
bt_status bt_pmu_rdpmc(struct bt_pmu_session *s, uint32_t ecx, uint64_t *ret, const char *why);
/* Mark the session failed; the first failure's message is kept. Returns st. */
bt_status bt_pmu_fail(struct bt_pmu_session *s, bt_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool bt_pmu_saved_value(const struct bt_pmu_session *s, uint32_t msr, uint64_t *ret);
/* Restore one saved MSR (retried once); records the first error. */
void bt_pmu_restore_one(struct bt_pmu_session *s, uint32_t msr, bt_status *first);
/* A write made while restoring (retried once): on failure records the
 * first error and says which write failed in s->warning. */
void bt_pmu_restore_write(struct bt_pmu_session *s, uint32_t msr, uint64_t value,
			  bt_status *first);

/* The run's SMI bracket (pmu-session.h), one code for the session's runs
 * (bt_pmu_program .. bt_pmu_read) and the conformance checks' raw runs
 * (pmu-raw.h): MSR_SMI_COUNT before the first programming write, around
 * the window (inside it the TSC pair), and after the last counter read.
 * Each reads only with opts.read_smi_count on a driver that has the MSR.
 * fail: a fault marks the session failed (the session's runs); otherwise
 * the RDMSR's status is returned and the session goes on (raw runs). */
bt_status bt_pmu_smi_begin(struct bt_pmu_session *s, bool fail);
bt_status bt_pmu_smi_sample(struct bt_pmu_session *s, bool after, bool fail);
/* After the last read: the run's SMIs into *ret (restarted false: the
 * caller's GLOBAL_CTRL check says). */
bt_status bt_pmu_smi_end(struct bt_pmu_session *s, bool fail, struct bt_pmu_smi *ret);

/* The counting window: the run's TSC is read right before the start write
 * and right after the stop write, so nothing else lies inside its interval.
 * Drivers call this for the one write that starts and the one that stops. */
bt_status bt_pmu_window(struct bt_pmu_session *s, uint32_t msr, uint64_t start, uint64_t stop,
			bt_window_fn *fn, void *arg);

#endif
