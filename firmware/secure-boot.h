/* SPDX-License-Identifier: MIT */
/*
 * The Secure Boot state as the firmware publishes it: the UEFI global
 * variables SecureBoot, SetupMode, AuditMode and DeployedMode (UEFI 2.10
 * 3.3, "Globally Defined Variables", vendor EFI_GLOBAL_VARIABLE
 * 8be4df61-93ca-11d2-aa0d-00e098032b8c), each a UINT8 that is 1 or 0.
 * AuditMode and DeployedMode exist only from UEFI 2.5 on, so older
 * firmware lacks them: an absent variable is recorded as absent, never as
 * 0. Decoding only: the platform (efi/machine.c, host/machine-host.c)
 * reads the variables.
 */
#ifndef FIRMWARE_SECURE_BOOT_H
#define FIRMWARE_SECURE_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BT_EFI_GLOBAL_GUID_TEXT "8be4df61-93ca-11d2-aa0d-00e098032b8c"

enum bt_sb_var { BT_SB_SECURE_BOOT, BT_SB_SETUP_MODE, BT_SB_AUDIT_MODE, BT_SB_DEPLOYED_MODE,
		 BT_SB_NVARS };

/* A variable's value: 0 or 1 as read, or one of these. */
#define BT_SB_ABSENT (-1)     /* the firmware does not define it (EFI_NOT_FOUND) */
#define BT_SB_MALFORMED (-2)  /* defined, but not one byte of 0 or 1, or unreadable */

struct bt_secure_boot {
	bool present;        /* the variables were looked up (a UEFI platform) */
	char reason[160];    /* why not, when !present */
	int value[BT_SB_NVARS];
};

/* "SecureBoot", "SetupMode", "AuditMode", "DeployedMode". */
const char *bt_sb_var_name(enum bt_sb_var v);

/* The value of a variable of len bytes: 0 or 1, else BT_SB_MALFORMED. */
int bt_sb_decode(const uint8_t *data, size_t len);

/* Whether the firmware verifies images: SecureBoot is 1 (the firmware
 * sets it only in user or deployed mode, UEFI 2.10 32.3) and neither
 * SetupMode nor AuditMode is 1 (audit mode records failures but starts
 * the image, 32.3.3). */
bool bt_sb_enforced(const struct bt_secure_boot *s);

/* One line: "enforced (SecureBoot=1 SetupMode=0 AuditMode=0
 * DeployedMode=0)", "off (...)", "audit mode (...)" with "absent" or
 * "malformed" for such a value; or "not read: REASON". */
void bt_sb_text(const struct bt_secure_boot *s, char *out, size_t outlen);

#endif
