/* SPDX-License-Identifier: MIT */
#include "base/status.h"

const char *bt_status_str(bt_status s)
{
	switch (s) {
	case BT_OK:              return "success";
	case BT_ERR_INVALID:     return "invalid input";
	case BT_ERR_NOMEM:       return "out of memory";
	case BT_ERR_NOT_FOUND:   return "not found";
	case BT_ERR_UNSUPPORTED: return "not supported";
	case BT_ERR_IO:          return "input/output error";
	case BT_ERR_FULL:        return "no space left";
	case BT_ERR_FAULT:       return "instruction faulted";
	case BT_ERR_READ_ONLY:   return "write-protected";
	case BT_ERR_TIMEOUT:     return "timed out";
	case BT_ERR_ABORTED:     return "aborted";
	case BT_ERR_INTERNAL:    return "internal error";
	}
	return "unknown status";
}
