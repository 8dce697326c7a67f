/* SPDX-License-Identifier: MIT */
#ifndef APP_VERSION_H
#define APP_VERSION_H

#define BT_VERSION "0.1.0"
/* Version of the results-file layout; bumped on incompatible changes. */
#define BT_RESULTS_FORMAT_VERSION 1

#endif
