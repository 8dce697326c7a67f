/* SPDX-License-Identifier: MIT */
#ifndef APP_VERSION_H
#define APP_VERSION_H

#define BT_VERSION "0.1.0"

#endif
