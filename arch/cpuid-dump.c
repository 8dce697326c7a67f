/* SPDX-License-Identifier: MIT */
/* CPUID dump parsing: see arch/cpuid-dump.h for the two formats. */
#include "arch/cpuid-dump.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/json-read.h"

struct parser {
	struct bt_cpuid_dump *d;
	size_t cap_groups;
	size_t cap_leaves;         /* of the last group */
	size_t cap_cpus;           /* of the last group */
	unsigned line;
	struct bt_diag *d_err;
	bool raw;                  /* `cpuid -r` format */
};

static bt_status fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bt_status fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	char what[BT_DIAG_MAX];
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	bt_diag_set(p->d_err, "line %u: %s", p->line, what);
	return BT_ERR_INVALID;
}

static bool grow(void **v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 16;
	while (n < need)
		n *= 2;
	void *nv = realloc(*v, n * elem);
	if (!nv)
		return false;
	*v = nv;
	*cap = n;
	return true;
}

static bt_status new_group(struct parser *p)
{
	struct bt_cpuid_dump *d = p->d;
	if (!grow((void **)&d->groups, &p->cap_groups, d->n_groups + 1, sizeof(*d->groups)))
		return BT_ERR_NOMEM;
	memset(&d->groups[d->n_groups++], 0, sizeof(*d->groups));
	p->cap_leaves = p->cap_cpus = 0;
	return BT_OK;
}

static bt_status add_cpu(struct parser *p, uint32_t cpu)
{
	struct bt_cpuid_dump_group *g = &p->d->groups[p->d->n_groups - 1];
	if (!grow((void **)&g->cpus, &p->cap_cpus, g->n_cpus + 1, sizeof(*g->cpus)))
		return BT_ERR_NOMEM;
	g->cpus[g->n_cpus++] = cpu;
	return BT_OK;
}

static bt_status add_leaf(struct parser *p, uint32_t leaf, uint32_t sub, const uint32_t r[4])
{
	if (p->d->n_groups == 0)
		return fail(p, "a leaf before any %s header", p->raw ? "\"CPU N:\"" : "\"cpus\"");
	struct bt_cpuid_dump_group *g = &p->d->groups[p->d->n_groups - 1];
	for (size_t i = 0; i < g->n_leaves; i++)
		if (g->leaves[i].leaf == leaf && g->leaves[i].subleaf == sub)
			return fail(p, "leaf %08X.%02X given twice for the same CPUs", leaf, sub);
	if (!grow((void **)&g->leaves, &p->cap_leaves, g->n_leaves + 1, sizeof(*g->leaves)))
		return BT_ERR_NOMEM;
	g->leaves[g->n_leaves++] = (struct bt_cpuid_dump_leaf){
		leaf, sub, { r[0], r[1], r[2], r[3] } };
	return BT_OK;
}

/* A hex number of at most `digits` digits (exactly, when exact). */
static const char *hex(const char *s, unsigned digits, bool exact, uint32_t *ret)
{
	uint32_t v = 0;
	unsigned n = 0;
	for (; n < digits; n++, s++) {
		int c = (unsigned char)*s, d;
		if (c >= '0' && c <= '9') d = c - '0';
		else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
		else break;
		v = v << 4 | (uint32_t)d;
	}
	if (n == 0 || (exact && n != digits))
		return NULL;
	if ((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))
		return NULL; /* too long */
	*ret = v;
	return s;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static const char *word(const char *s, const char *w)
{
	size_t n = strlen(w);
	return strncmp(s, w, n) == 0 ? s + n : NULL;
}

/* "cpus 0,1,10" */
static bt_status cpus_line(struct parser *p, const char *s)
{
	bt_status st = new_group(p);
	if (st != BT_OK)
		return st;
	s = skip_blanks(s);
	if (!*s)
		return fail(p, "\"cpus\" with no CPU numbers");
	for (;;) {
		char *end;
		if (*s < '0' || *s > '9')
			return fail(p, "expected a CPU number at \"%.20s\"", s);
		unsigned long v = strtoul(s, &end, 10);
		if (v > 0xFFFFFFFFul)
			return fail(p, "CPU number %.20s too large", s);
		if ((st = add_cpu(p, (uint32_t)v)) != BT_OK)
			return st;
		s = skip_blanks(end);
		if (!*s)
			return BT_OK;
		if (*s != ',')
			return fail(p, "expected ',' or the end of the line at \"%.20s\"", s);
		s = skip_blanks(s + 1);
	}
}

/* "0000000A.00 07300805 00000000 00000007 00008603" */
static bt_status ref_leaf_line(struct parser *p, const char *s)
{
	uint32_t leaf, sub, r[4];
	const char *q = hex(s, 8, true, &leaf);
	if (!q || *q != '.' || !(q = hex(q + 1, 2, true, &sub)))
		return fail(p, "expected LEAF.SUBLEAF (8 and 2 hex digits) at \"%.24s\"", s);
	for (int i = 0; i < 4; i++) {
		const char *t = skip_blanks(q);
		if (t == q || !(q = hex(t, 8, true, &r[i])))
			return fail(p, "expected 4 registers of 8 hex digits after %08X.%02X", leaf, sub);
	}
	if (*skip_blanks(q))
		return fail(p, "unexpected text after the registers: \"%.20s\"", skip_blanks(q));
	return add_leaf(p, leaf, sub, r);
}

/* "   0x0000000a 0x00: eax=0x07300805 ebx=0x00000000 ecx=0x00000007 edx=0x00008603" */
static bt_status raw_leaf_line(struct parser *p, const char *s)
{
	static const char *const names[4] = { "eax=0x", "ebx=0x", "ecx=0x", "edx=0x" };
	uint32_t leaf, sub, r[4];
	const char *q = word(s, "0x");
	if (!q || !(q = hex(q, 8, true, &leaf)) || *q != ' ' ||
	    !(q = word(skip_blanks(q), "0x")) || !(q = hex(q, 2, true, &sub)) || *q != ':')
		return fail(p, "expected \"0xLEAF 0xSUB:\" at \"%.24s\"", s);
	q++;
	for (int i = 0; i < 4; i++) {
		const char *t = skip_blanks(q);
		if (t == q || !(t = word(t, names[i])) || !(q = hex(t, 8, true, &r[i])))
			return fail(p, "expected %.3s=0x followed by 8 hex digits after leaf 0x%08x",
				    names[i], leaf);
	}
	if (*skip_blanks(q))
		return fail(p, "unexpected text after the registers: \"%.20s\"", skip_blanks(q));
	return add_leaf(p, leaf, sub, r);
}

/* "CPU 12:" or "CPU:" */
static bt_status raw_cpu_line(struct parser *p, const char *s)
{
	uint32_t cpu = (uint32_t)p->d->n_groups;
	s = skip_blanks(s);
	if (*s != ':') {
		char *end;
		if (*s < '0' || *s > '9')
			return fail(p, "expected \"CPU N:\"");
		unsigned long v = strtoul(s, &end, 10);
		if (v > 0xFFFFFFFFul || *skip_blanks(end) != ':')
			return fail(p, "expected \"CPU N:\"");
		cpu = (uint32_t)v;
		s = skip_blanks(end);
	}
	if (*skip_blanks(s + 1))
		return fail(p, "unexpected text after \"CPU N:\"");
	bt_status st = new_group(p);
	return st != BT_OK ? st : add_cpu(p, cpu);
}

/* The fields that differ between CPUs of one kind (APIC IDs, indices). */
static struct bt_cpuid masked(const struct bt_cpuid_dump_leaf *e)
{
	struct bt_cpuid r = e->r;
	switch (e->leaf) {
	case 0x01: r.ebx &= 0x00FFFFFFu; break;
	case 0x04: r.eax &= 0x03FFFFFFu; break;
	case 0x06: r.edx &= 0x0000FFFFu; break;
	case 0x0B: case 0x1F: r.edx = 0; break;
	case 0x8000001Eu: r.eax = r.ebx = 0; break;
	case 0x80000026u: r.edx = 0; break;
	}
	return r;
}

static bool same_kind(const struct bt_cpuid_dump_group *a, const struct bt_cpuid_dump_group *b)
{
	if (a->n_leaves != b->n_leaves)
		return false;
	for (size_t i = 0; i < a->n_leaves; i++) {
		const struct bt_cpuid_dump_leaf *x = &a->leaves[i], *y = &b->leaves[i];
		struct bt_cpuid mx = masked(x), my = masked(y);
		if (x->leaf != y->leaf || x->subleaf != y->subleaf || memcmp(&mx, &my, sizeof(mx)))
			return false;
	}
	return true;
}

/* `cpuid -r` lists every CPU: merge the CPUs of one kind into one group
 * (the first CPU's values stand, as in the reference format). */
static bt_status merge_groups(struct bt_cpuid_dump *d)
{
	size_t out = 0;
	for (size_t i = 0; i < d->n_groups; i++) {
		struct bt_cpuid_dump_group *g = &d->groups[i];
		size_t k;
		for (k = 0; k < out; k++)
			if (same_kind(&d->groups[k], g))
				break;
		if (k == out) {
			d->groups[out++] = *g;
			continue;
		}
		struct bt_cpuid_dump_group *t = &d->groups[k];
		uint32_t *c = realloc(t->cpus, (t->n_cpus + g->n_cpus) * sizeof(*c));
		if (!c)
			return BT_ERR_NOMEM;
		memcpy(c + t->n_cpus, g->cpus, g->n_cpus * sizeof(*c));
		t->cpus = c;
		t->n_cpus += g->n_cpus;
		free(g->cpus);
		free(g->leaves);
	}
	d->n_groups = out;
	return BT_OK;
}

bt_status bt_cpuid_dump_parse(const char *text, size_t len, struct bt_cpuid_dump *ret,
			      struct bt_diag *diag)
{
	struct bt_cpuid_dump d;
	struct parser p = { &d, 0, 0, 0, 0, diag, false };
	bool decided = false;
	bt_status st = BT_OK;
	char *buf = malloc(len + 1); /* one line at a time, of any length */

	memset(&d, 0, sizeof(d));
	memset(ret, 0, sizeof(*ret));
	bt_diag_set(diag, "%s", "");
	if (!buf) {
		bt_diag_set(diag, "out of memory");
		return BT_ERR_NOMEM;
	}
	for (size_t pos = 0; pos < len && st == BT_OK;) {
		size_t e = pos;
		while (e < len && text[e] != '\n')
			e++;
		p.line++;
		size_t n = e - pos;
		if (n && text[pos + n - 1] == '\r')
			n--;
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos = e + 1;
		if (memchr(buf, '\0', n)) {
			st = fail(&p, "a NUL byte: not a text dump");
			break;
		}
		const char *s = skip_blanks(buf), *rest;
		while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
			buf[--n] = '\0';
		if (!*s || *s == '#')
			continue;
		if ((rest = word(s, "cpus ")) && (!decided || !p.raw)) {
			decided = true;
			st = cpus_line(&p, rest);
		} else if ((rest = word(s, "CPU")) && (*skip_blanks(rest) == ':' ||
			   (*rest == ' ' && rest[1] >= '0' && rest[1] <= '9')) && (!decided || p.raw)) {
			decided = p.raw = true;
			st = raw_cpu_line(&p, rest);
		} else if (s[0] == '0' && s[1] == 'x' && (!decided || p.raw)) {
			decided = p.raw = true;
			st = raw_leaf_line(&p, s);
		} else if (!decided || !p.raw) {
			decided = true;
			st = ref_leaf_line(&p, s);
		} else {
			st = fail(&p, "not a `cpuid -r` line: \"%.40s\"", s);
		}
	}
	if (st == BT_OK && p.raw)
		st = merge_groups(&d);
	if (st == BT_OK && d.n_groups == 0)
		st = fail(&p, "no CPUs in the dump (expected \"cpus N,...\" or \"CPU N:\" blocks)");
	for (size_t i = 0; st == BT_OK && i < d.n_groups; i++)
		if (d.groups[i].n_leaves == 0 || d.groups[i].leaves[0].leaf != 0 ||
		    d.groups[i].leaves[0].subleaf != 0) {
			char cpus[64];
			bt_cpuid_dump_cpus_text(&d.groups[i], cpus, sizeof(cpus));
			st = fail(&p, "CPUs %s: the first leaf must be 00000000.00 (vendor and "
				  "maximum leaf)", cpus);
		}
	free(buf);
	if (st == BT_ERR_NOMEM)
		bt_diag_set(diag, "out of memory");
	if (st != BT_OK) {
		bt_cpuid_dump_free(&d);
		return st;
	}
	snprintf(d.format, sizeof(d.format), "%s", p.raw ? "cpuid -r" : "reference");
	*ret = d;
	return BT_OK;
}

void bt_cpuid_dump_free(struct bt_cpuid_dump *d)
{
	for (size_t i = 0; i < d->n_groups; i++) {
		free(d->groups[i].cpus);
		free(d->groups[i].leaves);
	}
	free(d->groups);
	memset(d, 0, sizeof(*d));
}

struct bt_cpuid bt_cpuid_dump_get(const struct bt_cpuid_dump_group *g, uint32_t leaf,
				  uint32_t subleaf)
{
	for (size_t i = 0; i < g->n_leaves; i++)
		if (g->leaves[i].leaf == leaf && g->leaves[i].subleaf == subleaf)
			return g->leaves[i].r;
	return (struct bt_cpuid){ 0, 0, 0, 0 };
}

void bt_cpuid_dump_cpus_text(const struct bt_cpuid_dump_group *g, char *buf, size_t len)
{
	size_t n = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < g->n_cpus && n < len; i++) {
		size_t j = i;
		while (j + 1 < g->n_cpus && g->cpus[j + 1] == g->cpus[j] + 1)
			j++;
		int w;
		if (j > i + 1) {
			w = snprintf(buf + n, len - n, "%s%u-%u", i ? "," : "", g->cpus[i], g->cpus[j]);
		} else {
			w = snprintf(buf + n, len - n, "%s%u", i ? "," : "", g->cpus[i]);
			j = i;
		}
		if (w < 0)
			break;
		n += (size_t)w;
		i = j;
	}
}

bt_status bt_cpuid_dump_read_cpu(const char *opt, const char *spec, bool cpu_required,
				 struct bt_cpuid_dump *dump, const struct bt_cpuid_dump_group **group,
				 uint32_t *cpu, char *path, size_t path_size, struct bt_diag *d)
{
	const char *at = strrchr(spec, '@');
	size_t plen = at ? (size_t)(at - spec) : strlen(spec);

	memset(dump, 0, sizeof(*dump));
	*group = NULL;
	*cpu = 0;
	if ((cpu_required && !at) || plen == 0 || plen >= path_size) {
		bt_diag_set(d, "%s FILE%s, not \"%s\"", opt, cpu_required ? "@CPU" : "[@CPU]", spec);
		return BT_ERR_INVALID;
	}
	memcpy(path, spec, plen);
	path[plen] = '\0';
	if (at) {
		/* Digits only: strtoul alone would take " 1", "+1" and "-1". */
		char *end;
		unsigned long v = strtoul(at + 1, &end, 10);
		if (at[1] < '0' || at[1] > '9' || *end || v > 0xFFFFFFFFul) {
			bt_diag_set(d, "%s %s: \"%s\" is not a logical CPU number", opt, spec, at + 1);
			return BT_ERR_INVALID;
		}
		*cpu = (uint32_t)v;
	}
	struct bt_arena a = { 0 };
	char *text;
	size_t len;
	bt_status st = bt_file_read(&a, path, &text, &len, d);
	if (st != BT_OK) {
		bt_arena_free(&a);
		return st;
	}
	struct bt_diag err = { "" };
	st = bt_cpuid_dump_parse(text, len, dump, &err);
	bt_arena_free(&a);
	if (st != BT_OK) {
		bt_diag_set(d, "%s: %s", path, err.text);
		return st;
	}
	for (size_t i = 0; i < dump->n_groups && !*group; i++)
		for (size_t k = 0; k < dump->groups[i].n_cpus; k++)
			if (dump->groups[i].cpus[k] == *cpu)
				*group = &dump->groups[i];
	if (!*group) {
		bt_diag_set(d, "%s: no logical CPU %u in the dump", path, *cpu);
		bt_cpuid_dump_free(dump);
		return BT_ERR_INVALID;
	}
	return BT_OK;
}
