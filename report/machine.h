/* SPDX-License-Identifier: MIT */
/*
 * The results' "machine" section and run id (firmware/ parsed the facts),
 * and the console's one-line summary of them.
 */
#ifndef REPORT_MACHINE_H
#define REPORT_MACHINE_H

#include "base/json-write.h"
#include "firmware/machine.h"

/* Writes "machine": {...} (report/README.md, "The machine section"). */
void bt_machine_json(struct bt_jw *j, const struct bt_machine *m);

/* "machine       QEMU Standard PC ..., BIOS ..., serial ...": two lines. */
void bt_machine_console(const struct bt_machine *m);

#endif
