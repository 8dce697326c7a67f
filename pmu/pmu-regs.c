/* SPDX-License-Identifier: MIT */
/*
 * Register access for the session and the PMU drivers (pmu-regs.h):
 * save-before-touch bookkeeping, failure and caveat messages naming the
 * access that faulted, restoring, and the counting window. It calls no
 * driver and no session function, so drivers depend on it and never on
 * the session.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/assert.h"
#include "pmu/msr.h"
#include "pmu/pmu-regs.h"

bt_status bt_pmu_fail(struct bt_pmu_session *s, bt_status st, const char *fmt, ...)
{
	if (!s->failed) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(s->msg, sizeof(s->msg), fmt, ap);
		va_end(ap);
	}
	s->failed = true;
	return st;
}

bool bt_pmu_saved_value(const struct bt_pmu_session *s, uint32_t msr, uint64_t *ret)
{
	for (int i = 0; i < s->n_saved; i++)
		if (s->saved[i].msr == msr) {
			if (ret)
				*ret = s->saved[i].value;
			return true;
		}
	return false;
}

void bt_pmu_warn(struct bt_pmu_session *s, const char *fmt, ...)
{
	size_t len = strlen(s->warning);
	if (len + 3 >= sizeof(s->warning))
		return;
	if (len) {
		memcpy(s->warning + len, "; ", 3);
		len += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->warning + len, sizeof(s->warning) - len, fmt, ap);
	va_end(ap);
}

static void add_saved(struct bt_pmu_session *s, uint32_t msr, uint64_t value)
{
	/* Both callers refuse a save past the table; an overrun here would
	 * write into the session's other fields and restore wrong values. */
	BT_ASSERT(s->n_saved < BT_PMU_MAX_SAVED);
	s->saved[s->n_saved].msr = msr;
	s->saved[s->n_saved].value = value;
	s->n_saved++;
}

bt_status bt_pmu_save(struct bt_pmu_session *s, uint32_t msr)
{
	if (bt_pmu_saved_value(s, msr, NULL))
		return BT_OK;
	if (s->n_saved == BT_PMU_MAX_SAVED)
		return bt_pmu_fail(s, BT_ERR_INTERNAL, "too many MSRs to save");
	uint64_t v;
	char name[40];
	bt_status st = bt_rdmsr(s->arch, msr, &v);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "RDMSR %s (0x%X) raised %s while saving it; nothing "
				   "written to it", bt_msr_name(msr, name, sizeof(name)), msr,
				   bt_fault_name(s->arch->fault_vector));
	add_saved(s, msr, v);
	return BT_OK;
}

bt_status bt_pmu_try_set_bits(struct bt_pmu_session *s, uint32_t msr, uint64_t bits,
			      const char **ret_access)
{
	uint64_t v;
	/* Only ever called for an MSR not saved yet (at open). */
	if (bt_pmu_saved_value(s, msr, NULL) || s->n_saved == BT_PMU_MAX_SAVED) {
		*ret_access = "saving";
		return BT_ERR_INTERNAL;
	}
	bt_status st = bt_rdmsr(s->arch, msr, &v);
	if (st != BT_OK) {
		*ret_access = "RDMSR";
		return st;
	}
	if ((v & bits) == bits)
		return BT_OK; /* already set (by firmware): nothing to write or restore */
	/* Read-modify-write: the other bits belong to whoever set them. */
	add_saved(s, msr, v);
	st = bt_wrmsr(s->arch, msr, v | bits);
	if (st != BT_OK) {
		s->n_saved--; /* the write did not happen: nothing to put back */
		*ret_access = "WRMSR";
		return st;
	}
	return BT_OK;
}

bt_status bt_pmu_wr_saving(struct bt_pmu_session *s, uint32_t save_msr, uint32_t msr,
			   uint64_t value, const char *why)
{
	bt_status st = bt_pmu_save(s, save_msr);
	if (st != BT_OK)
		return st;
	st = bt_wrmsr(s->arch, msr, value);
	if (st != BT_OK) {
		char name[40];
		return bt_pmu_fail(s, st, "WRMSR %s (0x%X) = 0x%llx raised %s while %s",
				   bt_msr_name(msr, name, sizeof(name)), msr, (unsigned long long)value,
				   bt_fault_name(s->arch->fault_vector), why);
	}
	return BT_OK;
}

bt_status bt_pmu_wr(struct bt_pmu_session *s, uint32_t msr, uint64_t value, const char *why)
{
	return bt_pmu_wr_saving(s, msr, msr, value, why);
}

bt_status bt_pmu_rd(struct bt_pmu_session *s, uint32_t msr, uint64_t *ret, const char *why)
{
	bt_status st = bt_rdmsr(s->arch, msr, ret);
	if (st != BT_OK) {
		char name[40];
		return bt_pmu_fail(s, st, "RDMSR %s (0x%X) raised %s while %s",
				   bt_msr_name(msr, name, sizeof(name)), msr,
				   bt_fault_name(s->arch->fault_vector), why);
	}
	return BT_OK;
}

bt_status bt_pmu_rdpmc(struct bt_pmu_session *s, uint32_t ecx, uint64_t *ret, const char *why)
{
	bt_status st = bt_rdpmc(s->arch, ecx, ret);
	if (st != BT_OK)
		return bt_pmu_fail(s, st, "RDPMC ECX=0x%X raised %s while %s", ecx,
				   bt_fault_name(s->arch->fault_vector), why);
	return BT_OK;
}

void bt_pmu_restore_write(struct bt_pmu_session *s, uint32_t msr, uint64_t value,
			  bt_status *first)
{
	/* Retry once: a fault here is not expected (the value was read from
	 * the same register, or is within the bits the manuals define), and a
	 * transient one must not leave it changed. */
	bt_status st = bt_wrmsr(s->arch, msr, value);
	if (st != BT_OK)
		st = bt_wrmsr(s->arch, msr, value);
	if (st == BT_OK)
		return;
	if (*first == BT_OK)
		*first = st;
	if (!s->restore_warned) {
		char name[40];
		s->restore_warned = true;
		bt_pmu_warn(s, "could not write %s (0x%X) = 0x%llx: %s",
			    bt_msr_name(msr, name, sizeof(name)), msr, (unsigned long long)value,
			    bt_fault_name(s->arch->fault_vector));
	}
}

void bt_pmu_restore_one(struct bt_pmu_session *s, uint32_t msr, bt_status *first)
{
	uint64_t v;
	if (bt_pmu_saved_value(s, msr, &v))
		bt_pmu_restore_write(s, msr, v, first);
}

bt_status bt_pmu_window(struct bt_pmu_session *s, uint32_t msr, uint64_t start, uint64_t stop,
			bt_window_fn *fn, void *arg)
{
	s->tsc0 = bt_rdtsc(s->arch);
	bt_status st = bt_run_window(s->arch, msr, start, stop, fn, arg);
	s->tsc1 = bt_rdtsc(s->arch);
	return st;
}

/* The run's SMI bracket (pmu-regs.h, pmu-session.h). */
/* bt_pmu_open clears opts.read_smi_count for a driver without the MSR. */
static bool smi_readable(const struct bt_pmu_session *s)
{
	return s->opts.read_smi_count;
}

static bt_status smi_rd(struct bt_pmu_session *s, bool fail, uint64_t *v, const char *why)
{
	return fail ? bt_pmu_rd(s, MSR_SMI_COUNT, v, why) : bt_rdmsr(s->arch, MSR_SMI_COUNT, v);
}

bt_status bt_pmu_smi_begin(struct bt_pmu_session *s, bool fail)
{
	s->have_smi = false;
	s->win_smi = 0;
	if (!smi_readable(s))
		return BT_OK;
	bt_status st = smi_rd(s, fail, &s->smi_program, "reading MSR_SMI_COUNT before programming");
	if (st == BT_OK)
		s->smi_since_stop = s->smi_program != s->smi_stopped;
	return st;
}

bt_status bt_pmu_smi_sample(struct bt_pmu_session *s, bool after, bool fail)
{
	if (!smi_readable(s))
		return BT_OK;
	bt_status st = smi_rd(s, fail, after ? &s->smi1 : &s->smi0, "reading MSR_SMI_COUNT");
	if (st == BT_OK)
		s->have_smi = true;
	if (st == BT_OK && after) /* the windows of one run add up (pmu-session.h) */
		s->win_smi += (s->smi1 - s->smi0) & 0xFFFFFFFFull;
	return st;
}

bt_status bt_pmu_smi_end(struct bt_pmu_session *s, bool fail, struct bt_pmu_smi *ret)
{
	uint64_t smi_read = 0;
	memset(ret, 0, sizeof(*ret));
	ret->frozen = s->smm_frozen;
	if (!s->have_smi)
		return BT_OK;
	bt_status st = smi_rd(s, fail, &smi_read, "reading MSR_SMI_COUNT after the counters");
	if (st != BT_OK)
		return st;
	/* An SMI up to smi1 that restarted the counters after the stop write
	 * is seen by the GLOBAL_CTRL check after the reads (counts.smm_restarted)
	 * and stopped there; one after smi1 is for the next program step. */
	s->smi_stopped = s->smi1;
	ret->has_count = true;
	ret->in_window = s->win_smi & 0xFFFFFFFFull; /* MSR_SMI_COUNT[31:0] */
	ret->outside = ((smi_read - s->smi_program) - s->win_smi) & 0xFFFFFFFFull;
	return BT_OK;
}
