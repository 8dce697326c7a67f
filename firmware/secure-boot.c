/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "firmware/secure-boot.h"

const char *bt_sb_var_name(enum bt_sb_var v)
{
	static const char *const names[BT_SB_NVARS] = { "SecureBoot", "SetupMode", "AuditMode",
							"DeployedMode" };

	return (unsigned)v < BT_SB_NVARS ? names[v] : "?";
}

int bt_sb_decode(const uint8_t *data, size_t len)
{
	/* The specification defines exactly one byte; anything else is not
	 * guessed at. */
	if (!data || len != 1 || data[0] > 1)
		return BT_SB_MALFORMED;
	return data[0];
}

bool bt_sb_enforced(const struct bt_secure_boot *s)
{
	return s->present && s->value[BT_SB_SECURE_BOOT] == 1 && s->value[BT_SB_SETUP_MODE] != 1 &&
	       s->value[BT_SB_AUDIT_MODE] != 1;
}

void bt_sb_text(const struct bt_secure_boot *s, char *out, size_t outlen)
{
	size_t n;
	const char *verdict;

	if (!outlen)
		return;
	if (!s->present) {
		snprintf(out, outlen, "not read: %s", s->reason);
		return;
	}
	verdict = bt_sb_enforced(s) ? "enforced"
		  : s->value[BT_SB_AUDIT_MODE] == 1 ? "audit mode (images not refused)"
		  : s->value[BT_SB_SETUP_MODE] == 1 ? "setup mode (no platform key: off)"
		  : "off";
	n = (size_t)snprintf(out, outlen, "%s (", verdict);
	for (int i = 0; i < BT_SB_NVARS && n < outlen; i++) {
		int v = s->value[i];

		if (v == 0 || v == 1)
			n += (size_t)snprintf(out + n, outlen - n, "%s%s=%d", i ? " " : "",
					      bt_sb_var_name((enum bt_sb_var)i), v);
		else
			n += (size_t)snprintf(out + n, outlen - n, "%s%s %s", i ? " " : "",
					      bt_sb_var_name((enum bt_sb_var)i),
					      v == BT_SB_ABSENT ? "absent" : "malformed");
	}
	if (n < outlen)
		snprintf(out + n, outlen - n, ")");
}
