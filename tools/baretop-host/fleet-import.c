/* SPDX-License-Identifier: MIT */
/*
 * The import of one results file into the fleet store, for both engines
 * (fleet-store.h): the order of the rows (machine, firmware, run, then the
 * run's workloads, nodes and events), what makes a file "already
 * imported", and the retry of a file whose unit of work the server
 * aborted. The order matters with several importers at once (PostgreSQL):
 * every file takes its rows' locks in the same order (machines, firmware,
 * runs), so two importers wait for each other but never in a cycle; the
 * run id's unique key makes the second of two importers of one run wait
 * for the first and then store nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/baretop-host/fleet-store.h"

const char *const BT_FLEET_COUNT_SQL[BT_FC_N] = {
	[BT_FC_MACHINES] = "SELECT COUNT(*) FROM machines",
	[BT_FC_NOSMBIOS] = "SELECT COUNT(*) FROM machines WHERE identity = 'no SMBIOS identity'",
	[BT_FC_RUNS] = "SELECT COUNT(*) FROM runs",
	[BT_FC_SIMULATED] = "SELECT COUNT(*) FROM runs WHERE simulated <> 0",
	[BT_FC_WORKLOADS] = "SELECT COUNT(*) FROM workloads",
	[BT_FC_NODES] = "SELECT COUNT(*) FROM nodes",
	[BT_FC_EVENTS] = "SELECT COUNT(*) FROM events",
	[BT_FC_FIRMWARE_VERSIONS] = "SELECT COUNT(DISTINCT version) FROM firmware",
	[BT_FC_MICROCODES] = "SELECT COUNT(DISTINCT COALESCE(microcode, '')) FROM runs",
};

int bt_fleet_is_postgres_uri(const char *db)
{
	return !strncmp(db, "postgresql://", 13) || !strncmp(db, "postgres://", 11);
}

struct bt_fleet_store *bt_fleet_store_open(const char *db, struct bt_diag *d)
{
	return bt_fleet_is_postgres_uri(db) ? bt_fleet_pg_open(db, d) : bt_fleet_sqlite_open(db, d);
}

/* keep[k][i]: 0 for a node whose name comes again later in workload k's
 * tree, keep[k][n_nodes + i] the same for its events. A table keyed by
 * (workload, node) or (workload, event) holds one row per name: the last
 * one, as the results file's last word on it. */
static char **node_keep(const struct bt_fleet_run *r)
{
	char **keep = calloc(r->n_workloads ? r->n_workloads : 1, sizeof(*keep));
	if (!keep)
		return NULL;
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		keep[k] = malloc(w->n_nodes + w->n_events + 1);
		if (!keep[k])
			return keep;  /* caller sees the NULL */
		for (size_t i = 0; i < w->n_nodes; i++) {
			keep[k][i] = 1;
			for (size_t j = i + 1; j < w->n_nodes && keep[k][i]; j++)
				if (!strcmp(w->nodes[i].name, w->nodes[j].name))
					keep[k][i] = 0;
		}
		for (size_t i = 0; i < w->n_events; i++) {
			char *x = &keep[k][w->n_nodes + i];
			*x = 1;
			for (size_t j = i + 1; j < w->n_events && *x; j++)
				if (!strcmp(w->events[i].name, w->events[j].name))
					*x = 0;
		}
	}
	return keep;
}

static void keep_free(char **keep, size_t n)
{
	if (!keep)
		return;
	for (size_t k = 0; k < n; k++)
		free(keep[k]);
	free(keep);
}

/* One try: BT_FLEET_OK with *inserted, or an error / retry. */
static int store_once(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file, int *inserted,
		      int64_t *ids, char *const *keep, struct bt_diag *d)
{
	const struct bt_fleet_engine *e = s->e;
	const char *const m[12] = { r->machine_key, r->identity, r->sys_manufacturer, r->sys_product,
				    r->sys_serial, r->sys_uuid, r->board_manufacturer, r->board_product,
				    r->board_serial, r->cpu_vendor, r->cpu_brand, r->cpu_signature };
	const char *const f[5] = { r->fw_key, r->fw_vendor, r->fw_version, r->fw_release_date, r->fw_source };
	int64_t machine, fw;
	int rc = e->begin_file(s, d);
	if (rc)
		return rc;
	if ((rc = e->machine_id(s, m, &machine, d)) || (rc = e->firmware_id(s, f, &fw, d)) ||
	    (rc = e->insert_run(s, r, machine, fw, file, inserted, d)))
		goto fail;
	if (!*inserted)  /* stored before (or by another importer just now): nothing of this file */
		return e->end_file(s, 0, d) == BT_FLEET_ERR ? BT_FLEET_ERR : BT_FLEET_OK;
	if ((rc = e->insert_workloads(s, r, ids, d)) || (rc = e->insert_values(s, r, ids, keep, d)))
		goto fail;
	return e->end_file(s, 1, d);
fail:;
	struct bt_diag ignored;
	e->end_file(s, 0, &ignored);
	return rc;
}

enum bt_fleet_import bt_fleet_import(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file,
				     struct bt_diag *d)
{
	int64_t *ids = calloc(r->n_workloads ? r->n_workloads : 1, sizeof(*ids));
	char **keep = node_keep(r);
	int ok_mem = ids && keep;
	for (size_t k = 0; ok_mem && k < r->n_workloads; k++)
		ok_mem = keep[k] != NULL;
	if (!ok_mem) {
		free(ids);
		keep_free(keep, r->n_workloads);
		bt_diag_set(d, "%s: out of memory", file);
		return BT_FLEET_DB_ERROR;
	}
	int inserted = 0, rc = BT_FLEET_RETRY;
	/* A serialization failure or a deadlock victim is rolled back whole by
	 * the server and succeeds when tried again (PostgreSQL manual, 13.2.3
	 * and 13.3.4: "retry the transaction"); a few tries, then an error. */
	for (int attempt = 0; attempt < 8 && rc == BT_FLEET_RETRY; attempt++)
		rc = store_once(s, r, file, &inserted, ids, keep, d);
	free(ids);
	keep_free(keep, r->n_workloads);
	if (rc != BT_FLEET_OK) {
		bt_diag_prefix(d, "%s: not stored", file);
		return BT_FLEET_DB_ERROR;
	}
	return inserted ? BT_FLEET_IMPORTED : BT_FLEET_ALREADY;
}
