/* SPDX-License-Identifier: MIT */
/*
 * Validation results as the user sees them: a console table (verdict,
 * check id, measured median [min..max], expected, tolerance, detail) with a
 * summary line, and the "validation" section of the results file
 * (report/results.schema.json), which `baretop-host show-validation`
 * prints again.
 */
#ifndef VALIDATE_REPORT_H
#define VALIDATE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "base/diag.h"
#include "base/json-write.h"
#include "base/status.h"
#include "validate/verdict.h"

struct bt_validation_record {
	bool simulated;
	const char *pmu;                /* "simulated skl", "Intel arch perfmon v4", ... */
	const char *spec;               /* "built-in" or the spec file */
	bool quick;
	const char *no_pmu_reason;      /* set: nothing could be validated, and why */
	const char *defects;            /* simulated PMU: the injected defects
					 * (--sim-defect), or NULL/"" for none */
	const char *miscount;           /* simulated PMU: --sim-miscount, or NULL/"" */
	const struct bt_check_list *checks;
};

/* The table and the summary line. */
void bt_validation_print(FILE *f, const struct bt_validation_record *r);
/* "validate: 40 PASS, 2 WARN, 1 FAIL, 5 SKIP" (+ " (SIMULATED)") */
void bt_validation_summary(const struct bt_validation_record *r, char *buf, size_t len);
/* The "validation" object (key "validation"). */
void bt_validation_json(struct bt_jw *j, const struct bt_validation_record *r);

/* Reads the "validation" section of a results file and prints it again;
 * BT_ERR_NOT_FOUND when the file has none. *any_fail says whether a check
 * failed. */
bt_status bt_validation_show(FILE *f, const char *path, bool *any_fail, struct bt_diag *d);

#endif
