/* SPDX-License-Identifier: MIT */
/*
 * One results file as a flat record for the fleet database (`baretop-host
 * fleet`, docs/fleet-schema.md): who measured (machine identity), under
 * which firmware and microcode, and every counted workload's node values
 * and event counts. Hosted only (fleet-record-host.c).
 *
 * The record is taken from the parsed document, never trusted: a member of
 * the wrong type counts as absent, and a document whose structure is wrong
 * where the fleet needs it (workloads not a list, nodes not an object, a
 * node value that is neither a number nor null) is refused with a message,
 * so the import skips the file instead of storing half of it.
 *
 * Identity (documented in docs/fleet-schema.md, "Identity"):
 *   machine key: "uuid:<SMBIOS system UUID>" when it is a real one
 *     (bt_fleet_uuid_is_real: not all 0 or all F, SMBIOS 3.x, 7.2.1, nor a
 *     placeholder firmware ships on every board, such as AMI's
 *     03000200-0400-0500-0006-000700080009), else "serial:<manufacturer>/
 *     <product>/<system serial>", else "board:<manufacturer>/<product>/<board
 *     serial>" (a placeholder serial such as "To Be Filled By O.E.M." counts
 *     as absent), else, with a placeholder UUID, "uuid-placeholder:<uuid>/<16
 *     hex digits>", the FNV-1a 64 hash of system and board maker and
 *     product, firmware vendor, version and date, microcode and CPU
 *     signature, else "nosmbios:<16 hex digits>", the FNV-1a 64 hash of the
 *     CPU vendor, brand, signature, logical CPU count, platform name and
 *     firmware vendor: "no SMBIOS identity" (identical machines share it);
 *   run id: the document's "run_id", else "content:<16 hex digits>", the
 *     FNV-1a 64 hash of the file's bytes (older files have no run id);
 *   firmware: machine.smbios.bios.version (vendor, release date), else the
 *     UEFI system table's firmware vendor and revision ("<vendor> <rev>").
 */
#ifndef ANALYSIS_FLEET_RECORD_H
#define ANALYSIS_FLEET_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"
#include "base/json-read.h"

struct bt_fleet_node {
	const char *name, *kind, *parent, *state;   /* kind: tree, info, bottleneck */
	int level;
	int has_value;          /* 0: the node was not computed (value null) */
	double value;
	int thresh;             /* 1 flagged, 0 not, -1 unknown */
};

struct bt_fleet_event {
	const char *name;
	double median, min, max, raw_median, overhead;
	int group;              /* -1: counted in every group (fixed counter) */
};

struct bt_fleet_workload {
	const char *name, *params, *state;
	int cpu;
	int counted;            /* has a "counted" section */
	int simulated;          /* the counts came from the simulated PMU */
	const char *model;      /* the tree's model, NULL when not counted */
	size_t n_nodes, n_events;
	struct bt_fleet_node *nodes;
	struct bt_fleet_event *events;
};

struct bt_fleet_run {
	const char *run_id;
	const char *run_id_source;      /* "results file" or "content hash" */
	const char *machine_key;
	const char *identity;           /* "SMBIOS system UUID", ..., "no SMBIOS identity" */
	const char *sys_manufacturer, *sys_product, *sys_serial, *sys_uuid;
	const char *board_manufacturer, *board_product, *board_serial;
	const char *cpu_vendor, *cpu_brand, *cpu_signature;
	const char *microcode;          /* cpu.microcode, NULL when not read */
	const char *fw_vendor, *fw_version, *fw_release_date;
	const char *fw_source;          /* "SMBIOS type 0", "UEFI system table" or "unknown" */
	const char *fw_key;             /* vendor|version|release date: one firmware row each */
	long long sequence;
	const char *firmware_clock;
	const char *baretop_version;
	int simulated;
	int exit_status;                /* -1 unknown */
	double memory_total_mib;        /* NaN unknown */
	double fpdt_reset_end_ns;       /* NaN unknown */
	int secure_boot;                /* machine.secure_boot.enforced: 1, 0; -1 not recorded */
	size_t n_workloads;
	struct bt_fleet_workload *workloads;
};

/* The fallback identities hash with FNV-1a 64 (base/hash.h). */

/* Whether u (any case, with or without dashes) is an SMBIOS system UUID
 * that names one machine: 32 hex digits, not a placeholder. */
int bt_fleet_uuid_is_real(const char *u);

/* Whether s is a system or board serial that names one machine (not
 * absent, blank, all zeros, nor a placeholder such as "Default string"). */
int bt_fleet_serial_is_real(const char *s);

/* The record of a parsed results document (root) whose file bytes are
 * text[0..len) (for the content-hash run id). Strings point into root or
 * into the arena. name names the file in messages. */
bt_status bt_fleet_record_of(struct bt_arena *a, const struct bt_json *root, const char *text,
			     size_t len, const char *name, struct bt_fleet_run *out, struct bt_diag *d);

#endif
