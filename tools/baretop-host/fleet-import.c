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

/* The dictionary ids seen: an open-addressing table of "D\x1fkey..." -> id. */
struct bt_fleet_name_cache {
	char **key;
	int64_t *id;
	size_t cap, n;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;  /* FNV-1a 64 */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

void bt_fleet_names_free(struct bt_fleet_store *s)
{
	struct bt_fleet_name_cache *c = s->names;
	if (!c)
		return;
	for (size_t i = 0; i < c->cap; i++)
		free(c->key[i]);
	free(c->key);
	free(c->id);
	free(c);
	s->names = NULL;
}

static int64_t *cache_slot(struct bt_fleet_name_cache *c, const char *key, int insert)
{
	if (insert && 2 * (c->n + 1) > c->cap) {
		struct bt_fleet_name_cache g = { NULL, NULL, c->cap ? 2 * c->cap : 1024, 0 };
		g.key = calloc(g.cap, sizeof(*g.key));
		g.id = calloc(g.cap, sizeof(*g.id));
		if (!g.key || !g.id) {
			fprintf(stderr, "baretop-host: out of memory\n");
			exit(1);
		}
		for (size_t i = 0; i < c->cap; i++)
			if (c->key[i]) {
				size_t j = hash_str(c->key[i]) & (g.cap - 1);
				while (g.key[j])
					j = (j + 1) & (g.cap - 1);
				g.key[j] = c->key[i];
				g.id[j] = c->id[i];
				g.n++;
			}
		free(c->key);
		free(c->id);
		*c = g;
	}
	if (!c->cap)
		return NULL;
	size_t j = hash_str(key) & (c->cap - 1);
	while (c->key[j] && strcmp(c->key[j], key))
		j = (j + 1) & (c->cap - 1);
	if (c->key[j])
		return &c->id[j];
	if (!insert)
		return NULL;
	if (!(c->key[j] = strdup(key))) {
		fprintf(stderr, "baretop-host: out of memory\n");
		exit(1);
	}
	c->n++;
	return &c->id[j];
}

/* The cache key of a node's or an event's name. */
static char *name_key(int dict, const char *const k[4])
{
	size_t len = 8;
	for (int i = 0; i < 4; i++)
		len += (k[i] ? strlen(k[i]) : 0) + 1;
	char *s = malloc(len);
	if (!s) {
		fprintf(stderr, "baretop-host: out of memory\n");
		exit(1);
	}
	if (dict == BT_FLEET_DICT_EVENT)
		snprintf(s, len, "E\x1f%s", k[0]);
	else
		snprintf(s, len, "N\x1f%s\x1f%s\x1f%s\x1f%s", k[0], k[1], k[2], k[3]);
	return s;
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
 * in the cache are fetched (inserted when new) in the order of their keys. */
static int name_ids(struct bt_fleet_store *s, const struct bt_fleet_run *r, char *const *keep, int64_t **name,
		    struct bt_diag *d)
{
	if (!s->names && !(s->names = calloc(1, sizeof(*s->names)))) {
		bt_diag_set(d, "out of memory");
		return BT_FLEET_ERR;
	}
	size_t total = 0;
	for (size_t k = 0; k < r->n_workloads; k++)
		total += r->workloads[k].n_nodes + r->workloads[k].n_events;
	struct miss *m = malloc((total ? total : 1) * sizeof(*m));
	if (!m) {
		bt_diag_set(d, "out of memory");
		return BT_FLEET_ERR;
	}
	size_t nm = 0;
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes + w->n_events; i++) {
			if (!keep[k][i])
				continue;
			struct miss x = { NULL, i < w->n_nodes ? BT_FLEET_DICT_NODE : BT_FLEET_DICT_EVENT, { 0 }, "",
					  &name[k][i] };
			if (i < w->n_nodes) {
				const struct bt_fleet_node *n = &w->nodes[i];
				snprintf(x.level, sizeof(x.level), "%d", n->level);
				x.k[0] = n->name;
				x.k[1] = n->kind ? n->kind : "";
				x.k[2] = x.level;
				x.k[3] = n->parent ? n->parent : "";
			} else {
				x.k[0] = w->events[i - w->n_nodes].name;
			}
			x.key = name_key(x.dict, x.k);
			int64_t *hit = cache_slot(s->names, x.key, 0);
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
	int rc = BT_FLEET_OK;
	for (size_t i = 0; i < nm && rc == BT_FLEET_OK; i++) {
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
static void remember(struct bt_fleet_store *s, const struct bt_fleet_run *r, char *const *keep,
		     int64_t *const *name)
{
	for (size_t k = 0; k < r->n_workloads; k++) {
		const struct bt_fleet_workload *w = &r->workloads[k];
		for (size_t i = 0; i < w->n_nodes + w->n_events; i++) {
			if (!keep[k][i])
				continue;
			char level[16];
			const char *key4[4] = { 0 };
			int dict = i < w->n_nodes ? BT_FLEET_DICT_NODE : BT_FLEET_DICT_EVENT;
			if (i < w->n_nodes) {
				const struct bt_fleet_node *n = &w->nodes[i];
				snprintf(level, sizeof(level), "%d", n->level);
				key4[0] = n->name;
				key4[1] = n->kind ? n->kind : "";
				key4[2] = level;
				key4[3] = n->parent ? n->parent : "";
			} else {
				key4[0] = w->events[i - w->n_nodes].name;
			}
			char *key = name_key(dict, key4);
			*cache_slot(s->names, key, 1) = name[k][i];
			free(key);
		}
	}
}

/* One try: BT_FLEET_OK with *inserted, or an error / retry. */
static int store_once(struct bt_fleet_store *s, const struct bt_fleet_run *r, const char *file, int *inserted,
		      int64_t *ids, char *const *keep, int64_t **name, struct bt_diag *d)
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
	if ((rc = e->insert_workloads(s, r, ids, d)) || (rc = name_ids(s, r, keep, name, d)) ||
	    (rc = e->insert_values(s, r, ids, keep, name, d)))
		goto fail;
	if ((rc = e->end_file(s, 1, d)) == BT_FLEET_OK)
		remember(s, r, keep, name);
	return rc;
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
	int64_t **name = calloc(r->n_workloads ? r->n_workloads : 1, sizeof(*name));
	for (size_t k = 0; name && k < r->n_workloads; k++)
		if (!(name[k] = calloc(r->workloads[k].n_nodes + r->workloads[k].n_events + 1, sizeof(**name)))) {
			fprintf(stderr, "baretop-host: out of memory\n");
			exit(1);
		}
	if (!name) {
		fprintf(stderr, "baretop-host: out of memory\n");
		exit(1);
	}
	int inserted = 0, rc = BT_FLEET_RETRY;
	/* A serialization failure or a deadlock victim is rolled back whole by
	 * the server and succeeds when tried again (PostgreSQL manual, 13.2.3
	 * and 13.3.4: "retry the transaction"); a few tries, then an error. */
	for (int attempt = 0; attempt < 8 && rc == BT_FLEET_RETRY; attempt++)
		rc = store_once(s, r, file, &inserted, ids, keep, name, d);
	for (size_t k = 0; k < r->n_workloads; k++)
		free(name[k]);
	free(name);
	free(ids);
	keep_free(keep, r->n_workloads);
	if (rc != BT_FLEET_OK) {
		bt_diag_prefix(d, "%s: not stored", file);
		return BT_FLEET_DB_ERROR;
	}
	return inserted ? BT_FLEET_IMPORTED : BT_FLEET_ALREADY;
}
