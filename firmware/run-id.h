/* SPDX-License-Identifier: MIT */
/*
 * The run id of a results file, unique across machines:
 *   <machine>-<sequence>-<firmware time>
 * <machine> is the SMBIOS system UUID; without one, the system serial
 * number, then the board serial number ("sn-" / "board-" before it, so
 * an id says which it is); without any, "unidentified" (then only the
 * time tells machines apart). Characters outside [A-Za-z0-9._] in a
 * serial become '_'. <sequence> is the results file's number (6 digits),
 * <firmware time> the firmware clock as YYYYMMDDThhmmss ("notime" when
 * unknown). Example: 8d1a6c4e-...-000012-20261124T173154.
 */
#ifndef FIRMWARE_RUN_ID_H
#define FIRMWARE_RUN_ID_H

#include <stddef.h>

#include "firmware/machine.h"

#define BT_RUN_ID_MAX 128

/* firmware_clock: "YYYY-MM-DDThh:mm:ss[...]" or NULL. */
void bt_run_id(const struct bt_smbios *s, unsigned seq, const char *firmware_clock,
	       char out[BT_RUN_ID_MAX]);

#endif
