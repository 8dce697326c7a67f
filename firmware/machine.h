/* SPDX-License-Identifier: MIT */
/*
 * What a results file says about the machine itself: its identity and
 * firmware from SMBIOS, the firmware's own boot times from the ACPI FPDT,
 * the Boot Loader Interface variables a boot loader such as
 * systemd-boot leaves, and the Secure Boot state (secure-boot.h). Plain data, filled by the parsers of this folder
 * (smbios.c, acpi-fpdt.c, bli.c) from bytes the platform found (efi/
 * machine.c), and written by report/ as the results' "machine" section.
 * Strings are "" when absent (written as null).
 */
#ifndef FIRMWARE_MACHINE_H
#define FIRMWARE_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "firmware/secure-boot.h"

#define BT_SMBIOS_STR 72       /* longest string kept (longer ones are cut) */
#define BT_SMBIOS_MAX_SOCKETS 16
#define BT_MACHINE_REASON 160

struct bt_smbios_processor {
	char socket[BT_SMBIOS_STR];
	char manufacturer[BT_SMBIOS_STR];
	char version[BT_SMBIOS_STR];
	uint32_t max_speed_mhz, current_speed_mhz;   /* 0 = unknown */
	uint32_t core_count, thread_count;           /* 0 = unknown */
};

struct bt_smbios {
	bool present;
	char reason[BT_MACHINE_REASON];     /* why not present */
	uint8_t major, minor;               /* the entry point's version */
	bool entry_64bit;                   /* SMBIOS 3.x entry point */
	struct {
		char vendor[BT_SMBIOS_STR], version[BT_SMBIOS_STR], release_date[BT_SMBIOS_STR];
	} bios;                             /* type 0 */
	struct {
		char manufacturer[BT_SMBIOS_STR], product[BT_SMBIOS_STR];
		char version[BT_SMBIOS_STR], serial[BT_SMBIOS_STR];
		char uuid[37];              /* "" when absent or not set */
		char sku[BT_SMBIOS_STR], family[BT_SMBIOS_STR];
	} system;                           /* type 1 */
	struct {
		char manufacturer[BT_SMBIOS_STR], product[BT_SMBIOS_STR];
		char version[BT_SMBIOS_STR], serial[BT_SMBIOS_STR];
	} board;                            /* type 2 (first one) */
	struct bt_smbios_processor processor[BT_SMBIOS_MAX_SOCKETS]; /* type 4 */
	unsigned n_processors;
	unsigned n_processors_seen;         /* more than BT_SMBIOS_MAX_SOCKETS possible */
	struct {
		uint64_t total_mib;         /* sum of the installed devices' sizes */
		unsigned dimm_slots;        /* type 17 structures */
		unsigned dimms_populated;   /* those with a non-zero size */
		uint32_t speed_mts;         /* configured speed (else max speed), fastest DIMM; 0 = unknown */
	} memory;                           /* type 17 summary */
	unsigned n_structures;
};

/* The Firmware Basic Boot Performance Data Record (ACPI 6.x 5.2.23.5),
 * nanoseconds since the reset; 0 means the firmware recorded nothing (the
 * ExitBootServices times are 0 while a UEFI application runs before it). */
struct bt_fpdt {
	bool present;
	char reason[BT_MACHINE_REASON];
	uint64_t fbpt_address;
	uint64_t reset_end_ns;
	uint64_t os_loader_load_image_start_ns;
	uint64_t os_loader_start_image_start_ns;
	uint64_t exit_boot_services_entry_ns;
	uint64_t exit_boot_services_exit_ns;
};

/* systemd's Boot Loader Interface (UEFI variables under
 * 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f, UTF-16 strings). */
struct bt_bli {
	bool present;                       /* any of the variables below */
	char reason[BT_MACHINE_REASON];
	char loader_info[BT_SMBIOS_STR];    /* "systemd-boot 254" */
	bool has_time_init, has_time_exec;
	uint64_t time_init_usec;            /* LoaderTimeInitUSec */
	uint64_t time_exec_usec;            /* LoaderTimeExecUSec */
};

struct bt_machine {
	struct bt_smbios smbios;
	struct bt_fpdt fpdt;
	struct bt_bli bli;
	struct bt_secure_boot secure_boot;
};

/* A machine without any of it, every part saying `reason`. */
void bt_machine_absent(struct bt_machine *m, const char *reason);

#endif
