/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>

#include "base/log.h"
#include "efi/efi-state.h"

bt_status bt_efi_status(EFI_STATUS s)
{
	switch (s) {
	case EFI_SUCCESS:           return BT_OK;
	case EFI_INVALID_PARAMETER: return BT_ERR_INVALID;
	case EFI_OUT_OF_RESOURCES:  return BT_ERR_NOMEM;
	case EFI_NOT_FOUND:         return BT_ERR_NOT_FOUND;
	case EFI_UNSUPPORTED:       return BT_ERR_UNSUPPORTED;
	case EFI_WRITE_PROTECTED:   return BT_ERR_READ_ONLY;
	case EFI_VOLUME_FULL:       return BT_ERR_FULL;
	case EFI_TIMEOUT:           return BT_ERR_TIMEOUT;
	case EFI_ABORTED:           return BT_ERR_ABORTED;
	case EFI_DEVICE_ERROR:
	case EFI_VOLUME_CORRUPTED:
	case EFI_NO_MEDIA:
	case EFI_MEDIA_CHANGED:
	case EFI_ACCESS_DENIED:     return BT_ERR_IO;
	}
	return BT_ERR_IO;
}

const char *bt_efi_status_name(EFI_STATUS s)
{
	switch (s) {
	case EFI_SUCCESS:           return "EFI_SUCCESS";
	case EFI_LOAD_ERROR:        return "EFI_LOAD_ERROR";
	case EFI_INVALID_PARAMETER: return "EFI_INVALID_PARAMETER";
	case EFI_UNSUPPORTED:       return "EFI_UNSUPPORTED";
	case EFI_BUFFER_TOO_SMALL:  return "EFI_BUFFER_TOO_SMALL";
	case EFI_NOT_READY:         return "EFI_NOT_READY";
	case EFI_DEVICE_ERROR:      return "EFI_DEVICE_ERROR";
	case EFI_WRITE_PROTECTED:   return "EFI_WRITE_PROTECTED";
	case EFI_OUT_OF_RESOURCES:  return "EFI_OUT_OF_RESOURCES";
	case EFI_VOLUME_CORRUPTED:  return "EFI_VOLUME_CORRUPTED";
	case EFI_VOLUME_FULL:       return "EFI_VOLUME_FULL";
	case EFI_NO_MEDIA:          return "EFI_NO_MEDIA";
	case EFI_MEDIA_CHANGED:     return "EFI_MEDIA_CHANGED";
	case EFI_NOT_FOUND:         return "EFI_NOT_FOUND";
	case EFI_ACCESS_DENIED:     return "EFI_ACCESS_DENIED";
	case EFI_TIMEOUT:           return "EFI_TIMEOUT";
	case EFI_ALREADY_STARTED:   return "EFI_ALREADY_STARTED";
	case EFI_ABORTED:           return "EFI_ABORTED";
	}
	return "EFI error";
}

int bt_efi_errno(EFI_STATUS s)
{
	switch (s) {
	case EFI_NOT_FOUND:         return ENOENT;
	case EFI_WRITE_PROTECTED:   return EROFS;
	case EFI_VOLUME_FULL:       return ENOSPC;
	case EFI_ACCESS_DENIED:     return EACCES;
	case EFI_OUT_OF_RESOURCES:  return ENOMEM;
	case EFI_INVALID_PARAMETER: return EINVAL;
	case EFI_UNSUPPORTED:       return ENOSYS;
	case EFI_NO_MEDIA:          return ENXIO;
	}
	return EIO;
}

EFI_STATUS bt_efi_log_status(EFI_STATUS st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_log_vtext(bt_efi_status_name(st), 0, fmt, ap);
	va_end(ap);
	return st;
}
