/* SPDX-License-Identifier: MIT */
/*
 * An errno as its name ("EINVAL"): what perf_event_open's failures are
 * read by, where glibc's strerrorname_np (2.32) is missing (Debian 11,
 * Ubuntu 20.04, RHEL 8 have 2.28-2.31). "errno N" for one not listed.
 */
#ifndef HOST_ERRNO_NAME_H
#define HOST_ERRNO_NAME_H

const char *bt_errno_name(int e);

#endif
