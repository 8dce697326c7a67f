/* SPDX-License-Identifier: MIT */
#include "base/json-read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct bt_arena *a;
	const char *p, *end, *line_start;
	uint32_t line;
	const char *file;
	struct bt_diag *d;
	int depth;
	bt_status err;
};

static uint32_t col_of(const struct parser *ps, const char *at)
{
	return (uint32_t)(at - ps->line_start) + 1;
}

static void fail_at(struct parser *ps, const char *at, const char *what)
{
	if (ps->err != BT_OK)
		return;
	ps->err = BT_ERR_INVALID;
	bt_diag_set(ps->d, "%s:%u:%u: %s", ps->file ? ps->file : "<json>", ps->line,
		    col_of(ps, at), what);
}

static void nomem(struct parser *ps)
{
	if (ps->err != BT_OK)
		return;
	ps->err = BT_ERR_NOMEM;
	bt_diag_set(ps->d, "%s: out of memory", ps->file ? ps->file : "<json>");
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;
		if (c == '\n') {
			ps->line++;
			ps->line_start = ps->p + 1;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			return;
		}
		ps->p++;
	}
}

static struct bt_json *new_value(struct parser *ps, uint8_t type, const char *at)
{
	struct bt_json *v = bt_arena_alloc(ps->a, sizeof(*v));
	if (!v) {
		nomem(ps);
		return NULL;
	}
	v->type = type;
	v->line = ps->line;
	v->col = col_of(ps, at);
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_hex4(struct parser *ps, const char *at, unsigned *ret)
{
	if (ps->end - at < 4)
		return -1;
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval(at[i]);
		if (h < 0)
			return -1;
		v = v * 16 + (unsigned)h;
	}
	*ret = v;
	return 0;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

/* ps->p is at the opening quote. Decoded bytes never outnumber the source bytes. */
static int parse_string(struct parser *ps, const char **ret_s, size_t *ret_len)
{
	const char *start = ps->p++;
	const char *q = ps->p;
	while (q < ps->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= ps->end) {
		fail_at(ps, start, "unterminated string");
		return -1;
	}
	char *out = bt_arena_alloc(ps->a, (size_t)(q - ps->p) + 1);
	if (!out) {
		nomem(ps);
		return -1;
	}
	size_t n = 0;
	while (ps->p < q) {
		unsigned char c = (unsigned char)*ps->p;
		if (c < 0x20) {
			fail_at(ps, ps->p, "control character in string");
			return -1;
		}
		if (c != '\\') {
			out[n++] = (char)c;
			ps->p++;
			continue;
		}
		const char *esc = ps->p++;
		char e = *ps->p++;
		switch (e) {
		case '"': out[n++] = '"'; break;
		case '\\': out[n++] = '\\'; break;
		case '/': out[n++] = '/'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'n': out[n++] = '\n'; break;
		case 'r': out[n++] = '\r'; break;
		case 't': out[n++] = '\t'; break;
		case 'u': {
			unsigned cp;
			if (read_hex4(ps, ps->p, &cp) < 0 || ps->p + 4 > q) {
				fail_at(ps, esc, "bad \\u escape");
				return -1;
			}
			ps->p += 4;
			if (cp >= 0xD800 && cp < 0xDC00) {
				unsigned lo;
				if (q - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' &&
				    read_hex4(ps, ps->p + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
					ps->p += 6;
					cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
				} else {
					fail_at(ps, esc, "unpaired surrogate in \\u escape");
					return -1;
				}
			} else if (cp >= 0xDC00 && cp < 0xE000) {
				fail_at(ps, esc, "unpaired surrogate in \\u escape");
				return -1;
			}
			n += put_utf8(out + n, cp);
			break;
		}
		default:
			fail_at(ps, esc, "bad escape in string");
			return -1;
		}
	}
	ps->p = q + 1;
	out[n] = 0;
	*ret_s = out;
	*ret_len = n;
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static struct bt_json *parse_number(struct parser *ps)
{
	const char *s = ps->p, *q = s;
	if (q < ps->end && *q == '-')
		q++;
	if (q >= ps->end || !is_digit(*q)) {
		fail_at(ps, s, "bad number");
		return NULL;
	}
	if (*q == '0')
		q++;
	else
		while (q < ps->end && is_digit(*q))
			q++;
	if (q < ps->end && *q == '.') {
		q++;
		if (q >= ps->end || !is_digit(*q)) {
			fail_at(ps, s, "bad number: digit expected after '.'");
			return NULL;
		}
		while (q < ps->end && is_digit(*q))
			q++;
	}
	if (q < ps->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < ps->end && (*q == '+' || *q == '-'))
			q++;
		if (q >= ps->end || !is_digit(*q)) {
			fail_at(ps, s, "bad number: digit expected in exponent");
			return NULL;
		}
		while (q < ps->end && is_digit(*q))
			q++;
	}
	struct bt_json *v = new_value(ps, BT_JSON_NUMBER, s);
	if (!v)
		return NULL;
	char *text = bt_arena_strndup(ps->a, s, (size_t)(q - s));
	if (!text) {
		nomem(ps);
		return NULL;
	}
	v->u.num.text = text;
	v->u.num.value = strtod(text, NULL);
	ps->p = q;
	return v;
}

static int match_word(struct parser *ps, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0)
		return 0;
	ps->p += n;
	return 1;
}

/* Items are collected in a malloc'd vector, then copied into the arena. */
struct vec {
	void **items;
	size_t n, cap;
};

static int vec_push(struct vec *v, void *item)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 8;
		void **items = realloc(v->items, cap * sizeof(*items));
		if (!items)
			return -1;
		v->items = items;
		v->cap = cap;
	}
	v->items[v->n++] = item;
	return 0;
}

static void **vec_finish(struct parser *ps, struct vec *v)
{
	void **out = bt_arena_alloc(ps->a, (v->n ? v->n : 1) * sizeof(void *));
	if (out && v->n)
		memcpy(out, v->items, v->n * sizeof(void *));
	free(v->items);
	v->items = NULL;
	if (!out)
		nomem(ps);
	return out;
}

static struct bt_json *parse_value(struct parser *ps);

static struct bt_json *parse_array(struct parser *ps)
{
	struct bt_json *v = new_value(ps, BT_JSON_ARRAY, ps->p);
	if (!v)
		return NULL;
	ps->p++;
	struct vec items = { 0 };
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
	} else {
		for (;;) {
			struct bt_json *item = parse_value(ps);
			if (!item)
				goto fail;
			if (vec_push(&items, item) < 0) {
				nomem(ps);
				goto fail;
			}
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				continue;
			}
			if (ps->p < ps->end && *ps->p == ']') {
				ps->p++;
				break;
			}
			fail_at(ps, ps->p, "expected ',' or ']' in array");
			goto fail;
		}
	}
	v->u.arr.n = items.n;
	v->u.arr.items = (struct bt_json **)vec_finish(ps, &items);
	return v->u.arr.items ? v : NULL;
fail:
	free(items.items);
	return NULL;
}

/* Where each key of one object starts, to find a key given twice. */
struct key_at {
	const char *key;
	size_t index;
	uint32_t line, col;
};

static int cmp_key_at(const void *a, const void *b)
{
	const struct key_at *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* A key given twice in one object: which value a reader takes would be
 * the reader's choice (a spec's second "checks" list was dropped), so
 * every document is refused at the second one (RFC 8259 section 4: names
 * SHOULD be unique; here they must). Sorted, so a large object costs
 * n log n, not n^2. Keys with a NUL are compared up to it, as
 * bt_json_get compares them. */
static bool duplicate_key(struct parser *ps, struct key_at *at, size_t n)
{
	if (n < 2)
		return false;
	qsort(at, n, sizeof(*at), cmp_key_at);
	const struct key_at *dup = NULL, *first = NULL;
	for (size_t i = 1; i < n; i++)
		if (!strcmp(at[i - 1].key, at[i].key) && (!dup || at[i].index < dup->index)) {
			size_t f = i - 1;
			while (f > 0 && !strcmp(at[f - 1].key, at[i].key))
				f--;
			first = &at[f];
			dup = &at[i];
		}
	if (!dup)
		return false;
	if (ps->err == BT_OK) {
		ps->err = BT_ERR_INVALID;
		bt_diag_set(ps->d, "%s:%u:%u: key \"%.80s\" given twice in one object (first at line %u "
			    "column %u): a key may appear once", ps->file ? ps->file : "<json>", dup->line,
			    dup->col, dup->key, first->line, first->col);
	}
	return true;
}

static struct bt_json *parse_object(struct parser *ps)
{
	struct bt_json *v = new_value(ps, BT_JSON_OBJECT, ps->p);
	if (!v)
		return NULL;
	ps->p++;
	struct vec keys = { 0 }, values = { 0 };
	struct key_at *at = NULL;
	size_t at_cap = 0;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
	} else {
		for (;;) {
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != '"') {
				fail_at(ps, ps->p, "expected a string key in object");
				goto fail;
			}
			const char *key;
			size_t key_len;
			uint32_t key_line = ps->line, key_col = col_of(ps, ps->p);
			if (parse_string(ps, &key, &key_len) < 0)
				goto fail;
			if (keys.n == at_cap) {
				size_t cap = at_cap ? at_cap * 2 : 8;
				struct key_at *grown = realloc(at, cap * sizeof(*at));
				if (!grown) {
					nomem(ps);
					goto fail;
				}
				at = grown;
				at_cap = cap;
			}
			at[keys.n] = (struct key_at){ key, keys.n, key_line, key_col };
			skip_ws(ps);
			if (ps->p >= ps->end || *ps->p != ':') {
				fail_at(ps, ps->p, "expected ':' after object key");
				goto fail;
			}
			ps->p++;
			struct bt_json *item = parse_value(ps);
			if (!item)
				goto fail;
			if (vec_push(&keys, (void *)key) < 0 || vec_push(&values, item) < 0) {
				nomem(ps);
				goto fail;
			}
			skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				continue;
			}
			if (ps->p < ps->end && *ps->p == '}') {
				ps->p++;
				break;
			}
			fail_at(ps, ps->p, "expected ',' or '}' in object");
			goto fail;
		}
	}
	if (duplicate_key(ps, at, keys.n))
		goto fail;
	free(at);
	v->u.obj.n = keys.n;
	v->u.obj.keys = (const char **)vec_finish(ps, &keys);
	v->u.obj.values = (struct bt_json **)vec_finish(ps, &values);
	return v->u.obj.keys && v->u.obj.values ? v : NULL;
fail:
	free(at);
	free(keys.items);
	free(values.items);
	return NULL;
}

static struct bt_json *parse_value(struct parser *ps)
{
	skip_ws(ps);
	if (ps->p >= ps->end) {
		fail_at(ps, ps->p, "unexpected end of input, value expected");
		return NULL;
	}
	if (++ps->depth > BT_JSON_MAX_DEPTH) {
		fail_at(ps, ps->p, "nesting too deep");
		return NULL;
	}
	struct bt_json *v = NULL;
	const char *at = ps->p;
	switch (*ps->p) {
	case '{':
		v = parse_object(ps);
		break;
	case '[':
		v = parse_array(ps);
		break;
	case '"': {
		v = new_value(ps, BT_JSON_STRING, at);
		if (v && parse_string(ps, &v->u.str.s, &v->u.str.len) < 0)
			v = NULL;
		break;
	}
	case 't':
		if (match_word(ps, "true"))
			v = new_value(ps, BT_JSON_TRUE, at);
		else
			fail_at(ps, at, "unknown literal");
		break;
	case 'f':
		if (match_word(ps, "false"))
			v = new_value(ps, BT_JSON_FALSE, at);
		else
			fail_at(ps, at, "unknown literal");
		break;
	case 'n':
		if (match_word(ps, "null"))
			v = new_value(ps, BT_JSON_NULL, at);
		else
			fail_at(ps, at, "unknown literal");
		break;
	default:
		if (*ps->p == '-' || is_digit(*ps->p))
			v = parse_number(ps);
		else
			fail_at(ps, at, "unexpected character, value expected");
		break;
	}
	ps->depth--;
	return v;
}

bt_status bt_json_parse(struct bt_arena *a, const char *text, size_t len, const char *file,
			struct bt_json **ret_root, struct bt_diag *d)
{
	struct parser ps = {
		.a = a, .p = text, .end = text + len, .line_start = text, .line = 1,
		.file = file, .d = d, .err = BT_OK,
	};
	/* A UTF-8 byte order mark is tolerated. */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		ps.p += 3;
		ps.line_start = ps.p;
	}
	struct bt_json *root = parse_value(&ps);
	if (root) {
		skip_ws(&ps);
		if (ps.p != ps.end) {
			fail_at(&ps, ps.p, "trailing characters after the JSON value");
			root = NULL;
		}
	}
	if (!root)
		return ps.err != BT_OK ? ps.err : BT_ERR_INVALID;
	*ret_root = root;
	return BT_OK;
}

bt_status bt_file_read(struct bt_arena *a, const char *path, char **ret_text, size_t *ret_len,
		       struct bt_diag *d)
{
	errno = 0;
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		bt_diag_set(d, "%s: cannot open%s%s", path, e ? ": " : "", e ? strerror(e) : "");
		return BT_ERR_NOT_FOUND;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!buf) {
		fclose(f);
		bt_diag_set(d, "%s: out of memory", path);
		return BT_ERR_NOMEM;
	}
	for (;;) {
		if (n == cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				fclose(f);
				bt_diag_set(d, "%s: out of memory", path);
				return BT_ERR_NOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		errno = 0;
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	/* A directory opens for reading on Linux and fails at the first read
	 * (EISDIR): its reason, "Is a directory", not a bare "read error". */
	int bad = ferror(f), e = errno;
	fclose(f);
	if (bad) {
		free(buf);
		bt_diag_set(d, "%s: %s", path, e ? strerror(e) : "read error");
		return BT_ERR_IO;
	}
	char *text = bt_arena_strndup(a, buf, n);
	free(buf);
	if (!text) {
		bt_diag_set(d, "%s: out of memory", path);
		return BT_ERR_NOMEM;
	}
	*ret_text = text;
	*ret_len = n;
	return BT_OK;
}

bt_status bt_json_load_file(struct bt_arena *a, const char *path, struct bt_json **ret_root,
			    struct bt_diag *d)
{
	char *text;
	size_t len;
	bt_status s = bt_file_read(a, path, &text, &len, d);
	if (s != BT_OK)
		return s;
	return bt_json_parse(a, text, len, path, ret_root, d);
}

const struct bt_json *bt_json_get(const struct bt_json *v, const char *key)
{
	if (!v || v->type != BT_JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < v->u.obj.n; i++)
		if (strcmp(v->u.obj.keys[i], key) == 0)
			return v->u.obj.values[i];
	return NULL;
}

const char *bt_json_str(const struct bt_json *v)
{
	return v && v->type == BT_JSON_STRING ? v->u.str.s : NULL;
}

const char *bt_json_get_str(const struct bt_json *obj, const char *key)
{
	return bt_json_str(bt_json_get(obj, key));
}

enum bt_json_num_check bt_json_num_check(const struct bt_json *v, double min, double max, int integer)
{
	double x;

	if (!v || v->type != BT_JSON_NUMBER)
		return BT_JSON_NUM_NOT_NUMBER;
	x = v->u.num.value;
	/* !(x >= min) also rejects NaN, which the strict reader never makes
	 * but a caller's tree might hold. */
	if (!(x >= min && x <= max))
		return BT_JSON_NUM_OUT_OF_RANGE;
	/* Beyond 2^53 every double is whole; below it the conversion to long
	 * long is defined, so it can judge. */
	if (integer && x > -9007199254740992.0 && x < 9007199254740992.0 && x != (double)(long long)x)
		return BT_JSON_NUM_NOT_WHOLE;
	return BT_JSON_NUM_OK;
}

bt_status bt_json_value_in(const struct bt_json *v, const char *what, double min, double max,
			   int integer, double dflt, double *ret, struct bt_diag *d)
{
	*ret = dflt;
	if (!v || v->type == BT_JSON_NULL)
		return BT_OK;
	switch (bt_json_num_check(v, min, max, integer)) {
	case BT_JSON_NUM_OK:
		*ret = v->u.num.value;
		return BT_OK;
	case BT_JSON_NUM_NOT_NUMBER:
		bt_diag_set(d, "line %u column %u: \"%s\" is not a number", (unsigned)v->line,
			    (unsigned)v->col, what);
		break;
	default:
		bt_diag_set(d, "line %u column %u: \"%s\" is %s: %s from %.17g to %.17g expected",
			    (unsigned)v->line, (unsigned)v->col, what, v->u.num.text ? v->u.num.text : "?",
			    integer ? "a whole number" : "a number", min, max);
		break;
	}
	return BT_ERR_INVALID;
}

bt_status bt_json_num_in(const struct bt_json *obj, const char *key, double min, double max,
			 int integer, double dflt, double *ret, struct bt_diag *d)
{
	return bt_json_value_in(obj && obj->type == BT_JSON_OBJECT ? bt_json_get(obj, key) : NULL, key,
				min, max, integer, dflt, ret, d);
}
