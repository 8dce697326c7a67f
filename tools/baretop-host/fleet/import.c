/* SPDX-License-Identifier: MIT */
/*
 * The import of one results file into the fleet store, for both engines
 * (store.h): the order of the rows (machine, firmware, run, then the
 * run's workloads, nodes and events), what makes a file "already
 * imported", and the retry of a file whose unit of work the server
 * aborted. The order matters with several importers at once (PostgreSQL):
 * every file takes its rows' locks in the same order (machines, firmware,
 * runs), so two importers wait for each other but never in a cycle; the
 * run id's unique key makes the second of two importers of one run wait
 * for the first and then store nothing.
 *
 * Names (nodes with their kind, level and parent; events) are stored once
 * in dictionary tables and referenced by id: a run of the default suite at
 * level 3 repeats the same few thousand names in every file
 * (docs/fleet-schema.md, "Compact store"). The ids are cached for the
 * import; the names a file adds are inserted in one sorted order, so two
 * importers adding the same new names cannot wait on each other in a cycle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/baretop-host/fleet/names.h"
#include "tools/baretop-host/fleet/sql.h"
#include "tools/baretop-host/fleet/store.h"

/* keep[k][i]: 0 for a node whose name comes again later in workload k's
 * tree, keep[k][n_nodes + i] the same for its events. A table keyed by
 * (workload, node) or (workload, event) holds one row per name: the last
 * one, as the results file's last word on it. NULL when out of memory. */
static char **node_keep(const struct bt_fleet_run *r)
{
	char **keep = calloc(r->n_workloads ? r->n_workloads : 1, sizeof(*keep));
	if (!keep)
		return NULL;
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		keep[k] = malloc(w->n_nodes + w->n_events + 1);
		if (!keep[k]) {
			while (k--)
				free(keep[k]);
			free(keep);
			return NULL;
		}
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

static void rows_free(void **rows, size_t n)
{
	if (!rows)
		return;
	for (size_t k = 0; k < n; k++)
		free(rows[k]);
	free(rows);
}

/* The dictionary of item i of workload w (its nodes, then its events) and
 * its key columns in k (level's text in level[16]). */
static int name_of(const struct bt_fleet_workload *w, size_t i, char level[16], const char *k[4])
{
	if (i >= w->n_nodes) {
		k[0] = w->events[i - w->n_nodes].name;
		k[1] = k[2] = k[3] = NULL;
		return BT_FLEET_DICT_EVENT;
	}
	const struct bt_fleet_node *n = &w->nodes[i];
	snprintf(level, 16, "%d", n->level);
	k[0] = n->name;
	k[1] = n->kind ? n->kind : "";
	k[2] = level;
	k[3] = n->parent ? n->parent : "";
	return BT_FLEET_DICT_NODE;
}

struct miss {
	char *key;
	int dict;
	const char *k[4];
	char level[16];
	int64_t *to;            /* every place that wants this id: filled after */
};

static int cmp_miss(const void *a, const void *b)
{
	return strcmp(((const struct miss *)a)->key, ((const struct miss *)b)->key);
}

/* name[k][i]: the dictionary id of every kept node and event of r. Ids not
 * in the cache are fetched (inserted when new) in the order of their keys,
 * so two importers adding the same new names take their locks in one order. */
static bt_status name_ids(struct bt_fleet_store *s, const struct bt_fleet_run *r, char *const *keep,
			  int64_t **name, struct bt_diag *d)
{
	size_t total = 0;
	for (size_t k = 0; k < r->n_workloads; k++)
		total += r->workloads[k].n_nodes + r->workloads[k].n_events;
	struct miss *m = malloc((total ? total : 1) * sizeof(*m));
	if (!m)
		return BT_ERR_NOMEM;
	size_t nm = 0;
	bt_status rc = BT_OK;
	for (size_t k = 0; k < r->n_workloads && rc == BT_OK; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes + w->n_events && rc == BT_OK; i++) {
			if (!keep[k][i])
				continue;
			struct miss x = { .to = &name[k][i] };
			x.dict = name_of(w, i, x.level, x.k);
			if (!(x.key = bt_fleet_name_key(x.dict, x.k))) {
				rc = BT_ERR_NOMEM;
				break;
			}
			int64_t *hit = bt_fleet_names_find(s->names, x.key);
			if (hit) {
				*x.to = *hit;
				free(x.key);
			} else {
				m[nm++] = x;  /* k[2] points at the level text once sorted */
			}
		}
	}
	qsort(m, nm, sizeof(*m), cmp_miss);
	for (size_t i = 0; i < nm; i++)
		if (m[i].dict == BT_FLEET_DICT_NODE)
			m[i].k[2] = m[i].level;  /* the element moved: its own copy again */
	for (size_t i = 0; i < nm && rc == BT_OK; i++) {
		if (i && !strcmp(m[i].key, m[i - 1].key))
			*m[i].to = *m[i - 1].to;
		else
			rc = s->e->dict_id(s, m[i].dict, m[i].k, m[i].to, d);
	}
	/* the ids of this file's names go into the cache only when its rows
	 * are committed (end_file): see remember() */
	for (size_t i = 0; i < nm; i++)
		free(m[i].key);
	free(m);
	return rc;
}

/* After a file's commit: its names' ids into the cache. */
static bt_status remember(struct bt_fleet_store *s, const struct bt_fleet_run *r, char *const *keep,
			  int64_t *const *name)
{
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes + w->n_events; i++) {
			if (!keep[k][i])
				continue;
			char level[16];
			const char *key4[4];
			char *key = bt_fleet_name_key(name_of(w, i, level, key4), key4);
			bt_status rc = key ? bt_fleet_names_put(&s->names, key, name[k][i]) : BT_ERR_NOMEM;
			free(key);
			if (rc != BT_OK)
				return rc;
		}
	}
	return BT_OK;
}

/* One try: BT_OK with *inserted, or an error (BT_ERR_ABORTED: try again). */
static bt_status store_once(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file,
			    int *inserted, int64_t *ids, char *const *keep, int64_t **name, struct bt_diag *d)
{
	const struct bt_fleet_engine *e = s->e;
	const char *const m[12] = { r->machine_key, r->identity, r->sys_manufacturer, r->sys_product,
				    r->sys_serial, r->sys_uuid, r->board_manufacturer, r->board_product,
				    r->board_serial, r->cpu_vendor, r->cpu_brand, r->cpu_signature };
	const char *const f[5] = { r->fw_key, r->fw_vendor, r->fw_version, r->fw_release_date, r->fw_source };
	int64_t machine, fw;
	bt_status rc = e->begin_file(s, d);
	if (rc != BT_OK)
		return rc;
	if ((rc = e->machine_id(s, m, &machine, d)) || (rc = e->firmware_id(s, f, &fw, d)) ||
	    (rc = e->insert_run(s, r, machine, fw, file, inserted, d)))
		goto fail;
	if (!*inserted)  /* stored before (or by another importer just now): nothing of this file */
		return e->end_file(s, 0, d);
	if ((rc = e->insert_workloads(s, r, ids, d)) || (rc = name_ids(s, r, keep, name, d)) ||
	    (rc = e->insert_values(s, r, ids, keep, name, d)))
		goto fail;
	if ((rc = e->end_file(s, 1, d)) == BT_OK)
		rc = remember(s, r, keep, name);
	return rc;
fail:;
	struct bt_diag ignored;
	e->end_file(s, 0, &ignored);
	return rc;
}

/* A UUID that keys a machine row of another real system serial is one two
 * machines share (a placeholder not on the list): said, never silent. */
static bt_status uuid_check(struct bt_fleet_store *s, const struct bt_fleet_run *r,
			    struct bt_fleet_import_note *note, struct bt_diag *d)
{
	long long n;
	char stored[sizeof(note->uuid_serial)];
	note->uuid_serial[0] = 0;
	if (strcmp(r->identity, "SMBIOS system UUID") || !bt_fleet_serial_is_real(r->sys_serial))
		return BT_OK;
	bt_status rc = s->e->query_one(s, BT_FLEET_MACHINE_SERIAL_SQL, r->machine_key, &n, stored, sizeof(stored), d);
	if (rc == BT_OK && bt_fleet_serial_is_real(stored) && strcmp(stored, r->sys_serial))
		snprintf(note->uuid_serial, sizeof(note->uuid_serial), "%s", stored);
	return rc;
}

bt_status bt_fleet_import(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file,
			  struct bt_fleet_import_note *note, struct bt_diag *d)
{
	enum bt_fleet_import *what = &note->what;
	char *other = note->other;
	size_t len = sizeof(note->other);
	note->uuid_serial[0] = 0;
	size_t nw = r->n_workloads ? r->n_workloads : 1;
	int64_t *ids = calloc(nw, sizeof(*ids));
	char **keep = node_keep(r);
	int64_t **name = calloc(nw, sizeof(*name));
	bt_status rc = ids && keep && name ? BT_OK : BT_ERR_NOMEM;
	for (size_t k = 0; rc == BT_OK && k < r->n_workloads; k++)
		if (!(name[k] = calloc(r->workloads[k].n_nodes + r->workloads[k].n_events + 1, sizeof(**name))))
			rc = BT_ERR_NOMEM;
	int inserted = 0;
	if (rc == BT_OK) {
		rc = BT_ERR_ABORTED;
		/* A serialization failure or a deadlock victim is rolled back whole by
		 * the server and succeeds when tried again (PostgreSQL manual, 13.2.3
		 * and 13.3.4: "retry the transaction"); a few tries, then an error. */
		for (int attempt = 0; attempt < 8 && rc == BT_ERR_ABORTED; attempt++)
			rc = store_once(s, r, file, &inserted, ids, keep, name, d);
	}
	rows_free((void **)name, name ? r->n_workloads : 0);
	free(ids);
	rows_free((void **)keep, keep ? r->n_workloads : 0);
	if (rc != BT_OK) {
		if (rc == BT_ERR_NOMEM && !d->text[0])
			bt_diag_set(d, "out of memory");
		bt_diag_prefix(d, "%s: not stored", file);
		return rc;
	}
	*what = BT_FLEET_IMPORTED;
	if ((rc = uuid_check(s, r, note, d)) != BT_OK) {
		bt_diag_prefix(d, "%s", file);
		return rc;
	}
	if (inserted)
		return BT_OK;
	/* the run id is stored: from this path (imported again), or from
	 * another file with the same run id, which is named, never merged in
	 * silence */
	*what = BT_FLEET_ALREADY;
	long long n;
	other[0] = 0;
	rc = s->e->query_one(s, BT_FLEET_RUN_SOURCE_SQL, r->run_id, &n, other, len, d);
	if (rc != BT_OK) {
		bt_diag_prefix(d, "%s", file);
		return rc;
	}
	if (strcmp(other, file))
		*what = BT_FLEET_SAME_RUN_ID;
	return BT_OK;
}
