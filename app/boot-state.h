/* SPDX-License-Identifier: MIT */
/*
 * baretop's boot state: what the run policy (app/boot-policy.h) remembers
 * from one boot to the next, kept by the firmware in a non-volatile UEFI
 * variable (BT_BOOT_STATE_NAME under BT_VENDOR_GUID_TEXT). The bytes are a
 * versioned little-endian layout, documented in app/README.md ("The boot
 * state variable"), so that Linux can read it through efivarfs
 * (/sys/firmware/efi/efivars/BaretopState-<GUID>: 4 bytes of attributes,
 * then these bytes; `baretop-host efivar FILE` decodes such a file).
 */
#ifndef APP_BOOT_STATE_H
#define APP_BOOT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"

/* baretop's own vendor GUID (generated once, random, version 4); every
 * variable baretop creates is under it. */
#define BT_VENDOR_GUID_TEXT "6c1f6e3a-8d2b-4f5e-9a47-b7e2c0d41a93"
#define BT_BOOT_STATE_NAME "BaretopState"

#define BT_BOOT_STATE_MAGIC 0x54534142u /* "BAST" in the file's byte order */
#define BT_BOOT_STATE_VERSION 2u        /* written; version 1 is still read */
#define BT_BOOT_STATE_SIZE 72u          /* version 2's length */
#define BT_BOOT_STATE_V1_SIZE 40u       /* version 1's length: its first 40 bytes */

/* Attributes baretop sets: NON_VOLATILE | BOOTSERVICE_ACCESS |
 * RUNTIME_ACCESS (UEFI spec 8.2, GetVariable; runtime access is what makes
 * it visible in Linux's efivarfs). */
#define BT_BOOT_STATE_ATTRIBUTES 0x7u

/* flags */
#define BT_BOOT_STATE_IN_PROGRESS 0x1u /* a measurement started and has not ended */
/* --then next-boot-entry made the entry in bits 16-31 BootNext and reset
 * the machine, in the boot whose number (low 12 bits) is in bits 4-15,
 * because only the firmware's boot manager can resolve its path
 * (efi/boot-entry.c). The boot right after it that comes back to baretop
 * marks it unreached (bit 2) and skips it, and so do later boots: a boot
 * option the firmware cannot start either never makes a reset loop. A
 * boot that finds boots passed without baretop since the attempt knows
 * the entry was reached, and clears the mark (app/boot-policy.h
 * bt_bootnext_decide). */
#define BT_BOOT_STATE_BOOTNEXT_TRIED 0x2u
#define BT_BOOT_STATE_BOOTNEXT_UNREACHED 0x4u
#define BT_BOOT_STATE_BOOTNEXT_SHIFT 16
/* The boot before reset the machine after an exception on baretop's CPU
 * or with CPUs it started left behind: this boot does not measure, it
 * hands over (and clears the flag). */
#define BT_BOOT_STATE_HAND_OVER_NEXT 0x8u
/* Version 1 kept the BootNext attempt's boot number (12 bits) in bits
 * 4-15; version 2 keeps the whole monotonic count in bootnext_count. */
#define BT_BOOT_STATE_V1_BOOT_ID_MASK 0xfff0u
/* Version 2: the run in progress (bit 0) is one without --run, which
 * counts nothing (boots, runs and their record are the policy's): only
 * that it never ended, if so, makes the next boot hand over. */
#define BT_BOOT_STATE_UNCOUNTED 0x10u

enum bt_boot_status {
	BT_BOOT_STATUS_NONE = 0,        /* no measurement yet */
	BT_BOOT_STATUS_OK = 1,          /* measured, results written */
	BT_BOOT_STATUS_FAILED = 2,      /* measured, something failed (exit status 1) */
	BT_BOOT_STATUS_NO_RESULTS = 3,  /* measured, results file not written (exit status 3) */
	BT_BOOT_STATUS_HUNG = 4,        /* started and never ended: reset by the watchdog, a
					 * crash or a power cut */
	BT_BOOT_STATUS_BUDGET = 5,      /* ended early by the time budget (results written) */
	BT_BOOT_STATUS_CRASHED = 6,     /* ended by an exception on baretop's CPU */
	BT_BOOT_STATUS_CPUS_LEFT = 7,   /* ended with CPUs it started left behind (parked or timed
					 * out): the machine was reset before the hand-over */
	/* the configuration could not be used (exit status 2): nothing was
	 * measured; found before the policy started, no run is counted */
	BT_BOOT_STATUS_CONFIG_ERROR = 8,
};
#define BT_BOOT_STATUS_COUNT 9

struct bt_boot_state {
	uint32_t flags;
	uint32_t boots;            /* boots baretop saw with a run policy */
	uint32_t runs;             /* measurements started (a hung one included) */
	uint32_t completed;        /* measurements that ended (any status but hung) */
	uint32_t hung;             /* measurements that never ended */
	uint32_t last_seq;         /* results sequence number of the last run; 0: none */
	uint32_t last_status;      /* enum bt_boot_status of the last measurement */
	uint32_t boots_since_run;  /* boots since the last measurement started (every=N) */
	/* version 2 */
	uint32_t resets;           /* resets baretop made in a row (app/boot-policy.h) */
	uint32_t bootnext_failures;/* times the BootNext attempt's entry came back to baretop */
	uint64_t reset_count;      /* the monotonic count when baretop last reset; 0 none */
	uint64_t bootnext_count;   /* the monotonic count of the BootNext attempt; 0 none */
	uint64_t run_tag;          /* names the measurement in progress, for the end record
				    * kept with its results (app/boot-policy.h bt_boot_end_note) */
};

/* "ok", "hung", ...; "unknown" for a value outside the enum. */
const char *bt_boot_status_name(uint32_t status);

/* Writes the version-2 layout into buf (BT_BOOT_STATE_SIZE bytes). */
void bt_boot_state_encode(const struct bt_boot_state *s, uint8_t buf[BT_BOOT_STATE_SIZE]);

/* Reads a layout, version 2 or 1 (whose fields are version 2's first ten,
 * the others 0, and its BootNext attempt's 12-bit boot number dropped:
 * that attempt counts as one whose boot is unknown). BT_ERR_INVALID with
 * one line in d when it is not one (short, wrong magic, a version this
 * build does not know, a length that disagrees with the version). A longer
 * buffer is refused: nothing follows the layout. *ret_version: the
 * version read (may be NULL). */
bt_status bt_boot_state_decode(const uint8_t *buf, size_t len, struct bt_boot_state *ret,
			       struct bt_diag *d);
bt_status bt_boot_state_decode_v(const uint8_t *buf, size_t len, struct bt_boot_state *ret,
				 unsigned *ret_version, struct bt_diag *d);

/* Reads an efivarfs file's bytes (4-byte attributes, then the data). */
bt_status bt_boot_state_decode_efivarfs(const uint8_t *buf, size_t len, uint32_t *ret_attributes,
					struct bt_boot_state *ret, struct bt_diag *d);

#endif
