/* SPDX-License-Identifier: MIT */
/* A results document as a fleet record: see fleet-record.h. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis/fleet-record.h"
#include "base/array.h"
#include "analysis/results-read.h"

static const struct bt_json *obj(const struct bt_json *parent, const char *key)
{
	const struct bt_json *v = bt_json_get(parent, key);
	return v && v->type == BT_JSON_OBJECT ? v : NULL;
}

/* A non-empty string member, else NULL. */
static const char *str(const struct bt_json *parent, const char *key)
{
	const char *s = bt_json_get_str(parent, key);
	return s && *s ? s : NULL;
}

static double num(const struct bt_json *parent, const char *key, double dflt)
{
	const struct bt_json *v = bt_json_get(parent, key);
	return v && v->type == BT_JSON_NUMBER ? v->u.num.value : dflt;
}

/* A whole number member in [min, max] (dflt when absent) converted only
 * after bt_json_num_in checked it: a results file is untrusted input and a
 * double outside int's range converted to int is undefined behaviour. */
static bt_status whole(const struct bt_json *parent, const char *key, double min, double max, int dflt,
		       int *ret, struct bt_diag *d)
{
	double x;
	if (bt_json_num_in(parent, key, min, max, 1, dflt, &x, d) != BT_OK)
		return BT_ERR_INVALID;
	*ret = (int)x;
	return BT_OK;
}

static int is_true(const struct bt_json *parent, const char *key)
{
	const struct bt_json *v = bt_json_get(parent, key);
	return v && v->type == BT_JSON_TRUE;
}

/* Serial numbers firmware leaves at a vendor's placeholder identify nothing
 * (they repeat across machines). A short list of the common ones. */
static int placeholder(const char *s);

int bt_fleet_serial_is_real(const char *s)
{
	return !placeholder(s);
}

static int placeholder(const char *s)
{
	static const char *const words[] = {
		"To Be Filled By O.E.M.", "Default string", "System Serial Number",
		"Not Specified", "Not Applicable", "None", "N/A", "0123456789",
		"123456789", "Chassis Serial Number", "Base Board Serial Number",
	};
	if (!s)
		return 1;
	int blank = 1;
	for (const char *p = s; *p; p++)
		if (!isspace((unsigned char)*p) && *p != '0')
			blank = 0;
	if (blank)
		return 1;
	for (size_t i = 0; i < BT_ARRAY_SIZE(words); i++)
		if (!strcasecmp(s, words[i]))
			return 1;
	return 0;
}

/* UUIDs that firmware ships unchanged on every board of a kind, as the
 * text SMBIOS 2.6+ gives (7.2.1: the first three fields little-endian, as
 * dmidecode prints them) and as the same bytes read in order: AMI's
 * template value (bytes 00 02 00 03 00 04 00 05 00 06 00 07 00 08 00 09,
 * seen on boards of many vendors) and the bytes 00 01 .. 0f. */
static const char *const PLACEHOLDER_UUIDS[] = {
	"03000200040005000006000700080009", "00020003000400050006000700080009",
	"030201000504070608090a0b0c0d0e0f", "000102030405060708090a0b0c0d0e0f",
};

/* Whether u (any case, with or without dashes) is a UUID that identifies
 * one machine: 32 hex digits, not a placeholder. SMBIOS 3.x, 7.2.1: all 1
 * bits is "not present", all 0 bits "present but not set"; a UUID of one
 * byte repeated (those two, FE...FE) and the template values above are
 * what firmware left unset. */
int bt_fleet_uuid_is_real(const char *u)
{
	char hex[33];
	size_t n = 0;
	for (const char *p = u; p && *p; p++) {
		if (*p == '-')
			continue;
		if (!isxdigit((unsigned char)*p) || n == 32)
			return 0;
		hex[n++] = (char)tolower((unsigned char)*p);
	}
	if (n != 32)
		return 0;
	hex[32] = 0;
	int repeated = 1;
	for (size_t i = 2; i < 32; i++)
		repeated &= hex[i] == hex[i % 2];
	if (repeated)
		return 0;
	for (size_t i = 0; i < BT_ARRAY_SIZE(PLACEHOLDER_UUIDS); i++)
		if (!strcmp(hex, PLACEHOLDER_UUIDS[i]))
			return 0;
	return 1;
}

static char *lower(struct bt_arena *a, const char *s)
{
	char *c = bt_arena_strdup(a, s);
	for (char *p = c; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return c;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/* FNV-1a 64 of the parts, each followed by 0x1f (unit separator) so that
 * "ab"+"c" != "a"+"bc". */
static uint64_t parts_hash(const char *const *parts, size_t n)
{
	uint64_t h = BT_FNV1A64_INIT;
	for (size_t i = 0; i < n; i++) {
		h = bt_fnv1a64(nz(parts[i]), strlen(nz(parts[i])), h);
		h = bt_fnv1a64("\x1f", 1, h);
	}
	return h;
}

/* A machine whose UUID is a placeholder and whose serials are too: what
 * else its files say decides (system and board maker and product, the
 * firmware, the microcode, the CPU), under the placeholder it shares, so
 * two machines that differ there are two rows. One machine after a
 * firmware or microcode update becomes another row too: without an
 * identity of its own the file cannot tell the two cases apart. */
static void placeholder_key(struct bt_arena *a, const struct bt_json *cpu, const struct bt_json *plat,
			    struct bt_fleet_run *r)
{
	const char *parts[] = { r->sys_manufacturer, r->sys_product, r->board_manufacturer, r->board_product,
				r->fw_vendor, r->fw_version, r->fw_release_date, str(cpu, "microcode"),
				str(cpu, "signature"), str(plat, "firmware_vendor") };
	r->machine_key = bt_arena_printf(a, "uuid-placeholder:%s/%016llx", lower(a, r->sys_uuid),
					 (unsigned long long)parts_hash(parts, BT_ARRAY_SIZE(parts)));
	r->identity = "placeholder SMBIOS UUID";
}

static void identity(struct bt_arena *a, const struct bt_json *root, struct bt_fleet_run *r)
{
	const struct bt_json *smb = obj(obj(root, "machine"), "smbios");
	if (smb && is_true(smb, "present")) {
		const struct bt_json *sys = obj(smb, "system"), *board = obj(smb, "board");
		r->sys_manufacturer = str(sys, "manufacturer");
		r->sys_product = str(sys, "product");
		r->sys_serial = str(sys, "serial");
		r->sys_uuid = str(sys, "uuid");
		r->board_manufacturer = str(board, "manufacturer");
		r->board_product = str(board, "product");
		r->board_serial = str(board, "serial");
		if (bt_fleet_uuid_is_real(r->sys_uuid)) {
			r->machine_key = bt_arena_printf(a, "uuid:%s", lower(a, r->sys_uuid));
			r->identity = "SMBIOS system UUID";
		} else if (!placeholder(r->sys_serial)) {
			r->machine_key = bt_arena_printf(a, "serial:%s/%s/%s", nz(r->sys_manufacturer),
							 nz(r->sys_product), r->sys_serial);
			r->identity = "SMBIOS system serial";
		} else if (!placeholder(r->board_serial)) {
			r->machine_key = bt_arena_printf(a, "board:%s/%s/%s", nz(r->board_manufacturer),
							 nz(r->board_product), r->board_serial);
			r->identity = "SMBIOS board serial";
		}
		const struct bt_json *bios = obj(smb, "bios");
		if (str(bios, "version")) {
			r->fw_vendor = str(bios, "vendor");
			r->fw_version = str(bios, "version");
			r->fw_release_date = str(bios, "release_date");
			r->fw_source = "SMBIOS type 0";
		}
		const struct bt_json *mem = obj(smb, "memory");
		r->memory_total_mib = num(mem, "total_mib", NAN);
	}
	const struct bt_json *cpu = obj(root, "cpu"), *plat = obj(root, "platform");
	if (!r->machine_key && r->sys_uuid)
		placeholder_key(a, cpu, plat, r);
	if (!r->machine_key) {
		const char *parts[] = { str(cpu, "vendor"), str(cpu, "brand"), str(cpu, "signature"),
					bt_arena_printf(a, "%.0f", num(cpu, "logical_cpus", -1)),
					str(plat, "name"), str(plat, "firmware_vendor") };
		uint64_t h = parts_hash(parts, BT_ARRAY_SIZE(parts));
		r->machine_key = bt_arena_printf(a, "nosmbios:%016llx", (unsigned long long)h);
		r->identity = "no SMBIOS identity";
	}
	if (!r->fw_version) {
		const char *v = str(plat, "firmware_vendor"), *rev = str(plat, "firmware_revision");
		if (v || rev) {
			r->fw_vendor = v;
			r->fw_version = bt_arena_printf(a, "%s%s%s", nz(v), v && rev ? " " : "", nz(rev));
			r->fw_source = "UEFI system table";
		} else {
			r->fw_version = "unknown";
			r->fw_source = "unknown";
		}
	}
	r->fw_key = bt_arena_printf(a, "%s|%s|%s", nz(r->fw_vendor), r->fw_version, nz(r->fw_release_date));
	r->cpu_vendor = str(cpu, "vendor");
	r->cpu_brand = str(cpu, "brand");
	r->cpu_signature = str(cpu, "signature");
	r->microcode = str(cpu, "microcode");
	const struct bt_json *fpdt = obj(obj(root, "machine"), "fpdt");
	r->fpdt_reset_end_ns = fpdt && is_true(fpdt, "present") ? num(fpdt, "reset_end_ns", NAN) : NAN;
	/* Only a boolean "enforced" of variables that were read counts: a
	 * file without it (older baretop, hosted run without efivarfs) says
	 * nothing about Secure Boot. */
	const struct bt_json *sb = obj(obj(root, "machine"), "secure_boot");
	const struct bt_json *enf = sb && is_true(sb, "present") ? bt_json_get(sb, "enforced") : NULL;
	r->secure_boot = !enf ? -1 : enf->type == BT_JSON_TRUE ? 1 : enf->type == BT_JSON_FALSE ? 0 : -1;
}

static bt_status nodes_of(struct bt_arena *a, const struct bt_json *tree, struct bt_fleet_workload *w,
			  struct bt_diag *d)
{
	const struct bt_json *nodes = bt_json_get(tree, "nodes");
	if (!nodes || nodes->type != BT_JSON_OBJECT) {
		bt_diag_set(d, "workload %s: its tree has no \"nodes\" object", w->name);
		return BT_ERR_INVALID;
	}
	w->nodes = bt_arena_alloc(a, (nodes->u.obj.n + 1) * sizeof(*w->nodes));
	if (!w->nodes)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < nodes->u.obj.n; i++) {
		const struct bt_json *nd = nodes->u.obj.values[i], *v = bt_json_get(nd, "value");
		struct bt_fleet_node *n = &w->nodes[w->n_nodes];
		if (nd->type != BT_JSON_OBJECT || (v && v->type != BT_JSON_NUMBER && v->type != BT_JSON_NULL)) {
			bt_diag_set(d, "workload %s: node %s is not an object with a number or null value",
				    w->name, nodes->u.obj.keys[i]);
			return BT_ERR_INVALID;
		}
		n->name = nodes->u.obj.keys[i];
		n->kind = str(nd, "kind");
		n->parent = str(nd, "parent");
		n->state = str(nd, "state");
		if (whole(nd, "level", 0, BT_RESULTS_MAX_LEVEL, -1, &n->level, d) != BT_OK) {
			bt_diag_prefix(d, "workload %s: node %s", w->name, n->name);
			return BT_ERR_INVALID;
		}
		n->has_value = v && v->type == BT_JSON_NUMBER && isfinite(v->u.num.value);
		n->value = n->has_value ? v->u.num.value : NAN;
		const struct bt_json *t = bt_json_get(nd, "thresh");
		n->thresh = t && t->type == BT_JSON_TRUE ? 1 : t && t->type == BT_JSON_FALSE ? 0 : -1;
		w->n_nodes++;
	}
	return BT_OK;
}

static bt_status events_of(struct bt_arena *a, const struct bt_json *counted, struct bt_fleet_workload *w,
			   struct bt_diag *d)
{
	const struct bt_json *ev = bt_json_get(counted, "events");
	if (!ev || ev->type == BT_JSON_NULL)
		return BT_OK;
	if (ev->type != BT_JSON_OBJECT) {
		bt_diag_set(d, "workload %s: \"events\" is not an object", w->name);
		return BT_ERR_INVALID;
	}
	w->events = bt_arena_alloc(a, (ev->u.obj.n + 1) * sizeof(*w->events));
	if (!w->events)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < ev->u.obj.n; i++) {
		const struct bt_json *e = ev->u.obj.values[i];
		if (e->type != BT_JSON_OBJECT || !bt_json_get(e, "median") ||
		    bt_json_get(e, "median")->type != BT_JSON_NUMBER) {
			bt_diag_set(d, "workload %s: event %s has no numeric median", w->name, ev->u.obj.keys[i]);
			return BT_ERR_INVALID;
		}
		struct bt_fleet_event *x = &w->events[w->n_events++];
		x->name = ev->u.obj.keys[i];
		x->median = num(e, "median", NAN);
		x->min = num(e, "min", NAN);
		x->max = num(e, "max", NAN);
		x->raw_median = num(e, "raw_median", NAN);
		x->overhead = num(e, "overhead", NAN);
		if (whole(e, "group", -1, INT_MAX, -1, &x->group, d) != BT_OK) {
			bt_diag_prefix(d, "workload %s: event %s", w->name, x->name);
			return BT_ERR_INVALID;
		}
	}
	return BT_OK;
}

static bt_status workloads_of(struct bt_arena *a, const struct bt_json *root, struct bt_fleet_run *r,
			      struct bt_diag *d)
{
	const struct bt_json *run = bt_json_get(root, "run");
	if (!run || run->type == BT_JSON_NULL)
		return BT_OK;                   /* no workload phase (e.g. --no-run) */
	const struct bt_json *wls = run->type == BT_JSON_OBJECT ? bt_json_get(run, "workloads") : NULL;
	if (run->type != BT_JSON_OBJECT || (wls && wls->type != BT_JSON_ARRAY)) {
		bt_diag_set(d, "\"run\" is not an object with a \"workloads\" list");
		return BT_ERR_INVALID;
	}
	if (!wls)
		return BT_OK;
	r->workloads = bt_arena_alloc(a, (wls->u.arr.n + 1) * sizeof(*r->workloads));
	if (!r->workloads)
		return BT_ERR_NOMEM;
	for (size_t i = 0; i < wls->u.arr.n; i++) {
		const struct bt_json *wj = wls->u.arr.items[i];
		struct bt_fleet_workload *w = &r->workloads[r->n_workloads];
		if (wj->type != BT_JSON_OBJECT || !str(wj, "name")) {
			bt_diag_set(d, "workload %zu is not an object with a name", i + 1);
			return BT_ERR_INVALID;
		}
		w->name = str(wj, "name");
		w->params = str(wj, "params");
		w->state = str(wj, "state");
		if (whole(wj, "cpu", 0, INT_MAX, -1, &w->cpu, d) != BT_OK) {
			bt_diag_prefix(d, "workload %s", w->name);
			return BT_ERR_INVALID;
		}
		r->n_workloads++;
		/* A tree measured beside baretop's own spinning CPU (its SMT
		 * sibling) is not the machine's: stored as state "perturbed",
		 * kept out of the fleet's medians like a workload not counted. */
		const struct bt_json *pert = bt_json_get(wj, "perturbed");
		if (pert && pert->type == BT_JSON_OBJECT) {
			w->state = "perturbed";
			continue;
		}
		const struct bt_json *c = bt_json_get(wj, "counted");
		if (!c || c->type == BT_JSON_NULL)
			continue;
		if (c->type != BT_JSON_OBJECT) {
			bt_diag_set(d, "workload %s: \"counted\" is not an object", w->name);
			return BT_ERR_INVALID;
		}
		w->counted = 1;
		w->simulated = is_true(c, "simulated");
		const struct bt_json *tree = bt_json_get(c, "tree");
		bt_status s;
		if (tree && tree->type != BT_JSON_NULL) {
			w->model = str(tree, "model");
			if ((s = nodes_of(a, tree, w, d)) != BT_OK)
				return s;
		}
		if ((s = events_of(a, c, w, d)) != BT_OK)
			return s;
	}
	return BT_OK;
}

bt_status bt_fleet_record_of(struct bt_arena *a, const struct bt_json *root, const char *text,
			     size_t len, const char *name, struct bt_fleet_run *out, struct bt_diag *d)
{
	memset(out, 0, sizeof(*out));
	const char *format = root && root->type == BT_JSON_OBJECT ? bt_json_get_str(root, "format") : NULL;
	if (!format || strcmp(format, "baretop-results")) {
		bt_diag_set(d, "%s: not a baretop results file", name);
		return BT_ERR_INVALID;
	}
	const struct bt_json *seq = bt_json_get(root, "sequence");
	if (!obj(root, "cpu") || !seq || seq->type != BT_JSON_NUMBER) {
		bt_diag_set(d, "%s: no \"cpu\" object or numeric \"sequence\"", name);
		return BT_ERR_INVALID;
	}
	/* The writer's sequence is a 32-bit counter (bt_jw_u64 of a u32); any
	 * whole number a long long holds exactly (below 2^53) is accepted. */
	double sq;
	if (bt_json_value_in(seq, "sequence", 0, 9007199254740992.0, 1, 0, &sq, d) != BT_OK) {
		bt_diag_prefix(d, "%s", name);
		return BT_ERR_INVALID;
	}
	out->sequence = (long long)sq;
	out->simulated = is_true(root, "simulated");
	out->firmware_clock = str(obj(root, "time"), "firmware_clock");
	out->baretop_version = str(obj(root, "baretop"), "version");
	if (whole(obj(root, "result"), "exit_status", INT_MIN, INT_MAX, -1, &out->exit_status, d) != BT_OK) {
		bt_diag_prefix(d, "%s", name);
		return BT_ERR_INVALID;
	}
	out->memory_total_mib = NAN;
	out->secure_boot = -1;
	const char *rid = str(root, "run_id");
	if (rid) {
		out->run_id = rid;
		out->run_id_source = "results file";
	} else {
		uint64_t h = bt_fnv1a64(text, len, BT_FNV1A64_INIT);
		out->run_id = bt_arena_printf(a, "content:%016llx", (unsigned long long)h);
		out->run_id_source = "content hash";
	}
	identity(a, root, out);
	if (!out->machine_key || !out->run_id || !out->fw_key)
		return BT_ERR_NOMEM;
	bt_status s = workloads_of(a, root, out, d);
	if (s == BT_ERR_INVALID)
		bt_diag_prefix(d, "%s", name);
	return s;
}
