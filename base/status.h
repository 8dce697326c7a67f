/* SPDX-License-Identifier: MIT */
/*
 * One status type for all of baretop. base/ is the lowest layer (it needs
 * nothing but libc), so every other folder uses it; efi/ converts
 * EFI_STATUS into it and nothing else sees EFI_STATUS.
 */
#ifndef BASE_STATUS_H
#define BASE_STATUS_H

typedef enum bt_status {
	BT_OK = 0,
	BT_ERR_INVALID,     /* bad argument or malformed input */
	BT_ERR_NOMEM,       /* allocation failed */
	BT_ERR_NOT_FOUND,   /* no such file, event, model, node ... */
	BT_ERR_UNSUPPORTED, /* this CPU / PMU / platform cannot do it */
	BT_ERR_IO,          /* a file or device operation failed */
	BT_ERR_FULL,        /* no room: counters, disk, buffer */
	BT_ERR_FAULT,       /* a guarded instruction raised #GP or #UD */
	BT_ERR_READ_ONLY,   /* the medium is write-protected */
	BT_ERR_TIMEOUT,
	BT_ERR_ABORTED,     /* stopped on purpose (user, earlier failure) */
	BT_ERR_INTERNAL,    /* a bug in baretop */
} bt_status;

/* A short lower-case phrase for messages: "not found", "fault", ... */
const char *bt_status_str(bt_status s);

#endif
