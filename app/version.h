/* SPDX-License-Identifier: MIT */
#ifndef APP_VERSION_H
#define APP_VERSION_H

#define BT_VERSION "0.1.0"

/* The image's SBAT data (shim's SBAT.md: the .sbat section, efi/sbat.S).
 * BT_SBAT_GENERATION is baretop's security generation: raised (never
 * reset) when a fixed security bug must revoke every build signed before,
 * through shim's SbatLevel variable. BT_SBAT_URL is the component line's
 * vendor_url, the home of the tree built: the build sets it (Makefile
 * SBAT_URL, by default the clone's origin remote); a clone with no remote
 * names no home and gets this reserved .invalid name (RFC 2606). Strings,
 * for the assembler too. */
#define BT_SBAT_GENERATION "1"
#ifndef BT_SBAT_URL
#define BT_SBAT_URL "https://baretop.invalid/"
#endif

#endif
