/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "firmware/machine.h"

void bt_machine_absent(struct bt_machine *m, const char *reason)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->smbios.reason, sizeof(m->smbios.reason), "%s", reason);
	snprintf(m->fpdt.reason, sizeof(m->fpdt.reason), "%s", reason);
	snprintf(m->bli.reason, sizeof(m->bli.reason), "%s", reason);
	snprintf(m->secure_boot.reason, sizeof(m->secure_boot.reason), "%s", reason);
}
