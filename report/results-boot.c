/* SPDX-License-Identifier: MIT */
/* The "boot" object of the results document (report/results-boot.h). */
#include "base/json-write.h"
#include "report/results-boot.h"

void bt_results_boot_json(struct bt_jw *j, const struct bt_results_boot *b)
{
	bt_jw_object(j, "boot");
	bt_jw_str(j, "policy", b->policy);
	bt_jw_str(j, "handover", b->handover);
	bt_jw_str(j, "nvram", b->nvram);
	bt_jw_u64(j, "nvram_writes", b->nvram_writes);
	bt_jw_str(j, "end_record", b->end_record);
	bt_jw_str(j, "parent", b->parent);
	bt_jw_object(j, "end");
	bt_jw_str(j, "action", b->end_action);
	bt_jw_str(j, "why", b->end_why);
	bt_jw_u64(j, "resets_in_a_row", b->resets_in_a_row);
	bt_jw_u64(j, "resets_max", b->resets_max);
	bt_jw_end(j);
	if (b->restart_decided) {
		bt_jw_object(j, "reboot");
		bt_jw_bool(j, "taken", b->restart_taken);
		bt_jw_str(j, "why", b->restart_why);
		bt_jw_end(j);
	}
	if (b->have_state) {
		bt_jw_u64(j, "boot_count", b->boot_count);
		bt_jw_u64(j, "run_number", b->run_number);
		bt_jw_u64(j, "hung_runs", b->hung_runs);
		bt_jw_str(j, "previous_status", b->previous_status);
		bt_jw_u64(j, "previous_sequence", b->previous_sequence);
	}
	if (b->budget_s)
		bt_jw_u64(j, "budget_s", b->budget_s);
	else
		bt_jw_null(j, "budget_s");
	bt_jw_bool(j, "budget_ended", b->budget_ended);
	if (b->elapsed_s >= 0)
		bt_jw_double(j, "elapsed_s", b->elapsed_s);
	else
		bt_jw_null(j, "elapsed_s");
	bt_jw_array(j, "steps_not_run");
	for (int i = 0; i < b->n_not_run; i++)
		bt_jw_str(j, NULL, b->not_run[i]);
	bt_jw_end(j);
	bt_jw_array(j, "steps_partial");
	for (int i = 0; i < b->n_partial; i++)
		bt_jw_str(j, NULL, b->partial[i]);
	bt_jw_end(j);
	/* the lists name the first BT_BOOT_MAX_NOT_RUN; these count them all */
	bt_jw_u64(j, "steps_not_run_count",
		  (uint64_t)(b->n_not_run_all > b->n_not_run ? b->n_not_run_all : b->n_not_run));
	bt_jw_u64(j, "steps_partial_count",
		  (uint64_t)(b->n_partial_all > b->n_partial ? b->n_partial_all : b->n_partial));
	bt_jw_end(j);
}
