/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "app/fault-selftest.h"

/* Intel SDM vol. 4, 2.1: "MSR address range between 40000000H - 400000FFH
 * is marked as a specially reserved range. All existing and future
 * processors will not implement any features using any MSR in this range."
 * Bare metal raises #GP; hypervisors may define or ignore it. */
#define RESERVED_MSR 0x400000FFu

void bt_fault_selftest_run(struct bt_platform *p, const struct bt_cpu_info *ci,
			   struct bt_fault_selftest *ret)
{
	struct bt_fault_probe *pr;
	struct bt_arch *a = p->arch;

	memset(ret, 0, sizeof(*ret));

	pr = &ret->probe[ret->n++];
	pr->what = "UD2";
	if (p->fault_guard_selftest) {
		pr->ran = true;
		pr->vector = p->fault_guard_selftest();
		pr->faulted = pr->vector != 0;
		snprintf(pr->note, sizeof(pr->note), "%s",
			 pr->vector == 6 ? "raised #UD as it always does: the guard works"
					 : "did not come back as #UD: the guard is not working");
	} else {
		snprintf(pr->note, sizeof(pr->note), "not run: this platform has no fault guard");
	}

	pr = &ret->probe[ret->n++];
	pr->what = "RDPMC ECX=0";
	pr->ran = true;
	bt_status st = bt_rdpmc(a, 0, &pr->value);
	pr->faulted = st == BT_ERR_FAULT;
	pr->vector = pr->faulted ? a->fault_vector : 0;
	if (st == BT_ERR_UNSUPPORTED) {
		pr->ran = false;
		snprintf(pr->note, sizeof(pr->note), "not run: the fault guard is not installed");
	} else if (pr->faulted) {
		snprintf(pr->note, sizeof(pr->note), "raised %s, caught%s",
			 bt_fault_name(pr->vector),
			 ci->pmu.kind == BT_PMU_NONE ? ": consistent with no PMU" : "");
	} else {
		snprintf(pr->note, sizeof(pr->note), "did not fault: general counter 0 reads 0x%llx",
			 (unsigned long long)pr->value);
	}

	pr = &ret->probe[ret->n++];
	pr->what = "RDMSR 0x400000FF (architecturally reserved)";
	pr->ran = true;
	st = bt_rdmsr(a, RESERVED_MSR, &pr->value);
	pr->faulted = st == BT_ERR_FAULT;
	pr->vector = pr->faulted ? a->fault_vector : 0;
	if (st == BT_ERR_UNSUPPORTED) {
		pr->ran = false;
		snprintf(pr->note, sizeof(pr->note), "not run: the fault guard is not installed");
	} else if (pr->faulted) {
		snprintf(pr->note, sizeof(pr->note), "raised %s, caught", bt_fault_name(pr->vector));
	} else {
		snprintf(pr->note, sizeof(pr->note),
			 "did not fault (read 0x%llx)%s", (unsigned long long)pr->value,
			 ci->hypervisor ? ": the hypervisor ignores unknown MSRs, so MSR "
					  "probing proves nothing here"
					: "");
	}
}
