/* SPDX-License-Identifier: MIT */
/*
 * gen-atlas REFERENCE_DIR OUT_FILE
 *
 * Packs the core event lists of the parts below (validate/atlas-pack.h) into
 * OUT_FILE (committed as validate/gen/atlas-lists.c). Each list is read with
 * bt_atlas_list_load, the reader --events-file uses, so the built-in list
 * holds what that reader makes of the file: names, encodings, "Deprecated";
 * no descriptions. The file of a part is its model's recipe's core events
 * file (metrics/recipes.c). Same input, same bytes
 * (tests/suite/20-models-regen.sh regenerates and compares).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/load.h"
#include "base/array.h"
#include "validate/atlas-pack.h"
#include "validate/atlas.h"

/*
 * The parts whose lists are built in: the model rows with an atlas rank
 * (base/model-rows.h), in rank order, the order they were chosen in: the
 * budget (baretop.efi <= 960 KiB, tests/suite/11-efi-size.sh, with room left
 * for code) decides where the list stops. Other parts' lists are read with
 * --events-file.
 */
#define BT_MODEL_ROW(id_, vendor_, name_, w_, sig_, core_, uarch_, fmt_, files_, sim_, mem_,  \
		     atlas_)                                                               \
	{ id_, atlas_ },
static const struct {
	const char *id;
	unsigned rank;
} model_rows[] = {
#include "base/model-rows.h"
};
#define N_PARTS (BT_ARRAY_SIZE(model_rows))
static const char *parts[N_PARTS];
static unsigned n_parts;

#define MAX_TOKENS 8192
#define MAX_NAMES 16384
#define MAX_EVENTS 16384
#define MAX_ENCS 8192
#define MAX_CTRS 255
#define MAX_MSRS 8192

static void die(const char *what)
{
	fprintf(stderr, "gen-atlas: %s\n", what);
	exit(1);
}

/* ---------------------------------------------------------------- tokens */

static struct {
	char *s;
	unsigned uses;
	unsigned num;   /* number after sorting by use */
} tok[MAX_TOKENS];
static unsigned n_tok;

static unsigned token_id(const char *s, size_t len)
{
	for (unsigned i = 0; i < n_tok; i++)
		if (strlen(tok[i].s) == len && !memcmp(tok[i].s, s, len))
			return i;
	if (n_tok == MAX_TOKENS)
		die("too many tokens");
	tok[n_tok].s = strndup(s, len);
	if (!tok[n_tok].s)
		die("out of memory");
	return n_tok++;
}

/* ---------------------------------------------------------------- names */

static struct {
	const char *s;
	unsigned ntok;
	unsigned ids[64];
	unsigned off;
} nm[MAX_NAMES];
static unsigned n_nm;

static unsigned name_id(const char *s)
{
	for (unsigned i = 0; i < n_nm; i++)
		if (!strcmp(nm[i].s, s))
			return i;
	if (n_nm == MAX_NAMES)
		die("too many names");
	nm[n_nm].s = s;
	const char *p = s;
	for (;;) {
		const char *dot = strchr(p, '.');
		size_t len = dot ? (size_t)(dot - p) : strlen(p);
		if (nm[n_nm].ntok == 64 || nm[n_nm].ntok == 255)
			die("a name of more than 64 tokens");
		unsigned t = token_id(p, len);
		tok[t].uses++;
		nm[n_nm].ids[nm[n_nm].ntok++] = t;
		if (!dot)
			break;
		p = dot + 1;
	}
	return n_nm++;
}

/* ---------------------------------------------------------------- tables */

static struct bt_atlas_pack_ctr ctrs[MAX_CTRS];
static unsigned n_ctr;
static uint16_t msr_index[MAX_MSRS];
static uint64_t msr_value[MAX_MSRS];
static unsigned n_msr = 1; /* 0: none */
static struct bt_atlas_pack_enc encs[MAX_ENCS];
static unsigned n_enc;
static struct {
	unsigned name;     /* name_id */
	uint8_t code, umask;
	unsigned enc;
} evs[MAX_EVENTS];
static unsigned n_ev;

static unsigned ctr_id(const struct bt_event *e)
{
	for (unsigned i = 0; i < n_ctr; i++)
		if (ctrs[i].counters == e->counters && ctrs[i].counters_ht_off == e->counters_ht_off &&
		    ctrs[i].fixed == e->fixed)
			return i;
	if (n_ctr == MAX_CTRS)
		die("too many counter sets");
	ctrs[n_ctr] = (struct bt_atlas_pack_ctr){ e->counters, e->counters_ht_off, e->fixed };
	return n_ctr++;
}

static unsigned msr_id(const struct bt_event *e)
{
	if (!e->msr_index && !e->msr_value)
		return 0;
	for (unsigned i = 1; i < n_msr; i++)
		if (msr_index[i] == e->msr_index && msr_value[i] == e->msr_value)
			return i;
	if (n_msr == MAX_MSRS)
		die("too many extra-MSR values");
	msr_index[n_msr] = e->msr_index;
	msr_value[n_msr] = e->msr_value;
	return n_msr++;
}

static unsigned enc_id(const struct bt_atlas_event *a)
{
	const struct bt_event *e = &a->ev;
	if (e->code2 > 0xFF || e->flags > 0x1F)
		die("an encoding the packed record cannot hold (code2 > 0xFF or flags)");
	struct bt_atlas_pack_enc x = {
		.code2 = (uint8_t)e->code2, .umask_ext = e->umask_ext, .cmask = e->cmask,
		.flags = (uint8_t)(e->flags | (a->deprecated ? BT_ATLAS_PACK_DEPRECATED : 0)),
		.ctr = (uint8_t)ctr_id(e), .msr = (uint16_t)msr_id(e),
	};
	for (unsigned i = 0; i < n_enc; i++)
		if (encs[i].code2 == x.code2 && encs[i].umask_ext == x.umask_ext &&
		    encs[i].cmask == x.cmask && encs[i].flags == x.flags && encs[i].ctr == x.ctr &&
		    encs[i].msr == x.msr)
			return i;
	if (n_enc == MAX_ENCS)
		die("too many encodings");
	encs[n_enc] = x;
	return n_enc++;
}

static unsigned event_id(const struct bt_atlas_event *a)
{
	const struct bt_event *e = &a->ev;
	/* what the record does not hold must be what the reader always sets */
	if (e->code > 0xFF || e->source != BT_SRC_PMC || e->pm_field || strcmp(e->name, a->name))
		die("an event the packed record cannot hold (code > 0xFF, not a PMC event)");
	unsigned name = name_id(a->name), enc = enc_id(a);
	for (unsigned i = 0; i < n_ev; i++)
		if (evs[i].name == name && evs[i].code == e->code && evs[i].umask == e->umask &&
		    evs[i].enc == enc)
			return i;
	if (n_ev == MAX_EVENTS || n_ev > UINT16_MAX)
		die("too many events");
	evs[n_ev].name = name;
	evs[n_ev].code = (uint8_t)e->code;
	evs[n_ev].umask = e->umask;
	evs[n_ev].enc = enc;
	return n_ev++;
}

/* ---------------------------------------------------------------- lists */

static struct {
	const char *model, *list, *file, *version;
	unsigned n, runs;
	unsigned *ev;
	int same_as;   /* an earlier list of the same file, or -1 */
} lists[N_PARTS];

static const char *core_file(const char *model)
{
	for (unsigned i = 0; i < bt_model_recipe_count; i++)
		if (!strcmp(bt_model_recipes[i].id, model))
			return bt_model_recipes[i].events[0];
	return NULL;
}

/* "intel/SPR/events/sapphirerapids_core.json" -> "sapphirerapids core" */
static char *list_name(const char *file)
{
	const char *b = strrchr(file, '/');
	char *s = strdup(b ? b + 1 : file);
	if (!s)
		die("out of memory");
	char *dot = strstr(s, ".json");
	if (dot)
		*dot = 0;
	for (char *p = s; *p; p++)
		if (*p == '_')
			*p = ' ';
	return s;
}

/* ---------------------------------------------------------------- output */

static int cmp_tok(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	if (tok[x].uses != tok[y].uses)
		return tok[x].uses > tok[y].uses ? -1 : 1;
	return strcmp(tok[x].s, tok[y].s);
}

static void emit_literal(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7E)
			fprintf(f, "\\%03o", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputs("\\0\"", f);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen-atlas REFERENCE_DIR OUT_FILE\n");
		return 2;
	}
	const char *ref = argv[1];
	for (unsigned rank = 1; rank <= N_PARTS; rank++) {
		unsigned found = 0;
		for (unsigned i = 0; i < N_PARTS; i++)
			if (model_rows[i].rank == rank && found++ == 0)
				parts[n_parts++] = model_rows[i].id;
		if (found > 1)
			die("two model rows of the same atlas rank");
		if (!found)
			break;
	}
	for (unsigned i = 0; i < N_PARTS; i++)
		if (model_rows[i].rank > n_parts)
			die("an atlas rank after a gap in the ranks");
	for (unsigned p = 0; p < n_parts; p++) {
		const char *file = core_file(parts[p]);
		if (!file)
			die("a part without a model recipe");
		lists[p].model = parts[p];
		lists[p].file = file;
		lists[p].list = list_name(file);
		lists[p].same_as = -1;
		for (unsigned q = 0; q < p; q++)
			if (!strcmp(lists[q].file, file))
				lists[p].same_as = (int)q;
		if (lists[p].same_as >= 0) {
			int q = lists[p].same_as;
			lists[p].version = lists[q].version;
			lists[p].n = lists[q].n;
			lists[p].ev = lists[q].ev;
			continue;
		}
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", ref, file);
		struct bt_atlas_list *l = calloc(1, sizeof(*l)); /* kept: names point into it */
		struct bt_diag d = { "" };
		if (!l || bt_atlas_list_load(path, l, &d) != BT_OK) {
			fprintf(stderr, "gen-atlas: %s\n", d.text);
			return 1;
		}
		if (l->n > UINT16_MAX)
			die("a list of more than 65535 events");
		lists[p].version = l->version ? l->version : "";
		lists[p].n = (unsigned)l->n;
		lists[p].ev = calloc((size_t)l->n + 1, sizeof(unsigned));
		if (!lists[p].ev)
			die("out of memory");
		for (int i = 0; i < l->n; i++)
			lists[p].ev[i] = event_id(&l->v[i]);
	}

	/* tokens numbered by use: the common ones take one byte in a name */
	static unsigned order[MAX_TOKENS];
	for (unsigned i = 0; i < n_tok; i++)
		order[i] = i;
	qsort(order, n_tok, sizeof(order[0]), cmp_tok);
	for (unsigned i = 0; i < n_tok; i++)
		tok[order[i]].num = i;
	if (n_tok > 0x7FFF)
		die("too many tokens for two-byte numbers");

	FILE *f = fopen(argv[2], "w");
	if (!f)
		die("cannot write the output file");
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n"
		   "/* generated by tools/gen-atlas from Intel's perfmon core event lists (names\n"
		   " * and encodings only), do not edit; format: validate/atlas-pack.h */\n"
		   "#include \"validate/atlas-pack.h\"\n\n");
	fprintf(f, "const uint16_t bt_atlas_pack_n_tokens = %u;\n\n", n_tok);
	fprintf(f, "const char bt_atlas_pack_tokens[] =");
	unsigned off = 0, col = 99;
	static uint16_t tok_off[MAX_TOKENS];
	for (unsigned i = 0; i < n_tok; i++) {
		const char *s = tok[order[i]].s;
		if (off > UINT16_MAX)
			die("token pool over 64 KB");
		tok_off[i] = (uint16_t)off;
		off += (unsigned)strlen(s) + 1;
		if (col + strlen(s) + 4 > 90) {
			fputs("\n\t", f);
			col = 8;
		}
		emit_literal(f, s);
		col += (unsigned)strlen(s) + 4;
	}
	fprintf(f, ";\n\nconst uint16_t bt_atlas_pack_token_off[] = {");
	for (unsigned i = 0; i < n_tok; i++)
		fprintf(f, "%s%u,", i % 12 ? " " : "\n\t", tok_off[i]);
	fprintf(f, "\n};\n\n");

	/* the name stream: per name its token count and token numbers */
	fprintf(f, "const uint8_t bt_atlas_pack_names[] = {");
	unsigned pos = 0, k = 0;
	for (unsigned i = 0; i < n_nm; i++) {
		if (pos > UINT16_MAX)
			die("name stream over 64 KB");
		nm[i].off = pos;
		uint8_t b[1 + 2 * 64];
		unsigned nb = 0;
		b[nb++] = (uint8_t)nm[i].ntok;
		for (unsigned t = 0; t < nm[i].ntok; t++) {
			unsigned num = tok[nm[i].ids[t]].num;
			if (num < 0x80) {
				b[nb++] = (uint8_t)num;
			} else {
				b[nb++] = (uint8_t)(0x80 | (num >> 8));
				b[nb++] = (uint8_t)(num & 0xFF);
			}
		}
		for (unsigned j = 0; j < nb; j++, k++)
			fprintf(f, "%s%u,", k % 16 ? " " : "\n\t", b[j]);
		pos += nb;
	}
	fprintf(f, "\n};\n\n");

	fprintf(f, "const struct bt_atlas_pack_ctr bt_atlas_pack_ctrs[] = {\n");
	for (unsigned i = 0; i < n_ctr; i++)
		fprintf(f, "\t{ 0x%x, 0x%x, %d },\n", ctrs[i].counters, ctrs[i].counters_ht_off,
			ctrs[i].fixed);
	fprintf(f, "};\n\nconst uint16_t bt_atlas_pack_msr_index[] = {");
	for (unsigned i = 0; i < n_msr; i++)
		fprintf(f, "%s0x%x,", i % 10 ? " " : "\n\t", msr_index[i]);
	fprintf(f, "\n};\n\nconst uint64_t bt_atlas_pack_msr_value[] = {");
	for (unsigned i = 0; i < n_msr; i++)
		fprintf(f, "%s0x%llx,", i % 6 ? " " : "\n\t", (unsigned long long)msr_value[i]);
	fprintf(f, "\n};\n\n/* code2, umask_ext, cmask, flags, counters, extra MSR */\n"
		   "const struct bt_atlas_pack_enc bt_atlas_pack_encs[] = {");
	for (unsigned i = 0; i < n_enc; i++)
		fprintf(f, "%s{ 0x%x, 0x%x, %u, 0x%x, %u, %u },", i % 4 ? " " : "\n\t", encs[i].code2,
			encs[i].umask_ext, encs[i].cmask, encs[i].flags, encs[i].ctr, encs[i].msr);
	fprintf(f, "\n};\n\n/* name, event code, umask, encoding */\n"
		   "const struct bt_atlas_pack_event bt_atlas_pack_events[] = {");
	for (unsigned i = 0; i < n_ev; i++)
		fprintf(f, "%s{ %u, 0x%x, 0x%x, %u },", i % 4 ? " " : "\n\t", nm[evs[i].name].off,
			evs[i].code, evs[i].umask, evs[i].enc);
	fprintf(f, "\n};\n");

	unsigned run_bytes = 0;
	for (unsigned p = 0; p < n_parts; p++) {
		if (lists[p].same_as >= 0)
			continue;
		/* runs of consecutive event numbers: a list's events new to the
		 * tables are numbered in its order, and a part follows most of
		 * its predecessor's order */
		fprintf(f, "\n/* %s: first event, count; ... */\nstatic const uint16_t list_%u[] = {",
			lists[p].file, p);
		unsigned runs = 0;
		for (unsigned i = 0; i < lists[p].n;) {
			unsigned j = i + 1;
			while (j < lists[p].n && lists[p].ev[j] == lists[p].ev[j - 1] + 1)
				j++;
			fprintf(f, "%s%u, %u,", runs % 6 ? " " : "\n\t", lists[p].ev[i], j - i);
			runs++;
			i = j;
		}
		lists[p].runs = runs;
		run_bytes += 4 * runs;
		fprintf(f, "\n};\n");
	}
	fprintf(f, "\nconst struct bt_atlas_pack_list bt_atlas_pack_lists[] = {\n");
	for (unsigned p = 0; p < n_parts; p++) {
		unsigned q = lists[p].same_as >= 0 ? (unsigned)lists[p].same_as : p;
		fprintf(f, "\t{ \"%s\", \"%s\", \"%s\", \"%s\", %u, %u, list_%u },\n",
			lists[p].model, lists[p].list, lists[p].file, lists[p].version, lists[p].n,
			lists[q].runs, q);
	}
	fprintf(f, "};\n\nconst unsigned bt_atlas_pack_n_lists = %u;\n", n_parts);
	fprintf(f, "\nconst char bt_atlas_pack_parts[] = \"");
	for (unsigned p = 0; p < n_parts; p++)
		fprintf(f, "%s%s", p ? ", " : "", parts[p]);
	fprintf(f, "\";\n");
	if (fclose(f) != 0)
		die("cannot write the output file");

	unsigned total = 0;
	for (unsigned p = 0; p < n_parts; p++)
		total += lists[p].same_as >= 0 ? 0 : lists[p].n;
	printf("gen-atlas: %u parts, %u events, %u distinct; %u names in %u bytes "
	       "(%u tokens, %u bytes); %u encodings, %u counter sets, %u extra-MSR values\n",
	       n_parts, total, n_ev, n_nm, pos, n_tok, off, n_enc,
	       n_ctr, n_msr - 1);
	printf("gen-atlas: table bytes: events %zu, encodings %zu, names %u, tokens %u + %zu, "
	       "MSRs %zu, lists %u\n", n_ev * sizeof(struct bt_atlas_pack_event),
	       n_enc * sizeof(struct bt_atlas_pack_enc), pos, off, n_tok * sizeof(uint16_t),
	       n_msr * (sizeof(uint16_t) + sizeof(uint64_t)), run_bytes);
	return 0;
}
