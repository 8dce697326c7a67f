/* SPDX-License-Identifier: MIT */
/* The kernel's facts for the perf_event backend (perf-kernel.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/perf-kernel.h"
#include "base/array.h"

/* A sysfs attribute is one page at most. */
#define PK_FILE_MAX 4096

static void join(char *out, size_t len, const char *root, const char *rel)
{
	size_t n = strlen(root);
	if ((size_t)snprintf(out, len, "%s%s%s", root, n && root[n - 1] == '/' ? "" : "/", rel) >= len)
		out[0] = 0;   /* too long: opens nothing, reads as absent */
}

/* A string into a fixed field, cut at its size. */
static void scopy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* 1: read into buf (NUL-terminated); 0: absent; -1: error in d. */
static int slurp(const char *path, char *buf, size_t len, struct bt_diag *d)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		bt_diag_set(d, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, len - 1, f);
	bool err = ferror(f) != 0, more = !err && fgetc(f) != EOF;
	fclose(f);
	if (err) {
		bt_diag_set(d, "%s: cannot read it", path);
		return -1;
	}
	if (more) {
		bt_diag_set(d, "%s:1:1: longer than %zu bytes: not a kernel attribute", path, len - 1);
		return -1;
	}
	buf[n] = 0;
	if (memchr(buf, 0, n)) {
		bt_diag_set(d, "%s:1:%zu: a NUL byte", path, strlen(buf) + 1);
		return -1;
	}
	return 1;
}

/* Strips one trailing newline; anything after it is an error. */
static bool one_line(const char *path, char *buf, struct bt_diag *d)
{
	char *nl = strchr(buf, '\n');
	if (nl) {
		if (nl[1]) {
			bt_diag_set(d, "%s:2:1: more than one line", path);
			return false;
		}
		*nl = 0;
	}
	return true;
}

/* A decimal integer in [lo, hi], the whole line. */
static int read_int(const char *path, long lo, long hi, long *ret, struct bt_diag *d)
{
	char buf[64];
	int r = slurp(path, buf, sizeof(buf), d);
	if (r <= 0)
		return r;
	if (!one_line(path, buf, d))
		return -1;
	const char *p = buf;
	bool neg = *p == '-';
	if (neg)
		p++;
	if (*p < '0' || *p > '9') {
		bt_diag_set(d, "%s:1:%d: not a number: \"%s\"", path, (int)(p - buf) + 1, buf);
		return -1;
	}
	long v = 0;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > 1000000000L) {
			bt_diag_set(d, "%s:1:%d: number out of range", path, (int)(p - buf) + 1);
			return -1;
		}
	}
	if (*p) {
		bt_diag_set(d, "%s:1:%d: unexpected '%c' after the number", path, (int)(p - buf) + 1, *p);
		return -1;
	}
	v = neg ? -v : v;
	if (v < lo || v > hi) {
		bt_diag_set(d, "%s:1:1: %ld is outside %ld..%ld", path, v, lo, hi);
		return -1;
	}
	*ret = v;
	return 1;
}

static bool parse_uint(const char **s, unsigned max, unsigned *ret)
{
	const char *p = *s;
	unsigned v = 0;
	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned)(*p - '0');
		if (v > max)
			return false;
	}
	*s = p;
	*ret = v;
	return true;
}

bool bt_pk_parse_format(const char *text, uint8_t *word, uint64_t *mask, int *col, const char **what)
{
	const char *p = text;
	*mask = 0;
	if (strncmp(p, "config", 6) != 0) {
		*col = 1;
		*what = "expected config, config1 or config2";
		return false;
	}
	p += 6;
	*word = 0;
	if (*p == '1' || *p == '2')
		*word = (uint8_t)(*p++ - '0');
	if (*p++ != ':') {
		*col = (int)(p - text);
		*what = "expected ':' after the config word";
		return false;
	}
	for (;;) {
		unsigned a, b;
		if (!parse_uint(&p, 63, &a)) {
			*col = (int)(p - text) + 1;
			*what = "expected a bit number 0..63";
			return false;
		}
		b = a;
		if (*p == '-') {
			const char *bs = ++p;
			if (!parse_uint(&p, 63, &b) || b < a) {
				*col = (int)(bs - text) + 1;
				*what = "expected a bit range A-B with A <= B <= 63";
				return false;
			}
		}
		uint64_t m = (b == 63 ? ~0ull : ((1ull << (b + 1)) - 1)) & ~((1ull << a) - 1);
		if (*mask & m) {
			*col = (int)(p - text);
			*what = "bits listed twice";
			return false;
		}
		*mask |= m;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n' && !p[1])
			return true;
		if (!*p)
			return true;
		*col = (int)(p - text) + 1;
		*what = "unexpected character after a bit range";
		return false;
	}
}

/* "0-11,16,18-19": a cpu list (Linux's cpulist format). */
static bool parse_cpus(const char *path, const char *buf, uint64_t *set, struct bt_diag *d)
{
	const char *p = buf;
	memset(set, 0, BT_PK_MAX_CPUS / 8);
	if (!*p || *p == '\n')
		return true;           /* a PMU with no CPU online */
	for (;;) {
		unsigned a, b;
		if (!parse_uint(&p, BT_PK_MAX_CPUS - 1, &a)) {
			bt_diag_set(d, "%s:1:%d: expected a CPU number below %d", path, (int)(p - buf) + 1,
				    BT_PK_MAX_CPUS);
			return false;
		}
		b = a;
		if (*p == '-') {
			p++;
			if (!parse_uint(&p, BT_PK_MAX_CPUS - 1, &b) || b < a) {
				bt_diag_set(d, "%s:1:%d: expected a CPU range A-B with A <= B", path,
					    (int)(p - buf) + 1);
				return false;
			}
		}
		for (unsigned c = a; c <= b; c++)
			set[c / 64] |= 1ull << (c % 64);
		if (*p == ',') {
			p++;
			continue;
		}
		if ((*p == '\n' && !p[1]) || !*p)
			return true;
		bt_diag_set(d, "%s:1:%d: unexpected '%c' in a CPU list", path, (int)(p - buf) + 1, *p);
		return false;
	}
}

static int cmp_format(const void *a, const void *b)
{
	return strcmp(((const struct bt_pk_format *)a)->name, ((const struct bt_pk_format *)b)->name);
}

static bt_status read_formats(const char *dir, struct bt_pk_pmu *p, struct bt_diag *d)
{
	DIR *D = opendir(dir);
	if (!D)
		return BT_OK;          /* no format directory: nothing described */
	struct dirent *de;
	bt_status st = BT_OK;
	while (st == BT_OK && (de = readdir(D)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		char path[600], buf[256];
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= sizeof(path))
			continue;
		if (strlen(de->d_name) >= sizeof(p->formats[0].name)) {
			bt_diag_set(d, "%s: a format name longer than %zu characters", path,
				    sizeof(p->formats[0].name) - 1);
			st = BT_ERR_INVALID;
			break;
		}
		if (p->n_formats == BT_PK_MAX_FORMATS) {
			bt_diag_set(d, "%s: more than %d format files", dir, BT_PK_MAX_FORMATS);
			st = BT_ERR_INVALID;
			break;
		}
		int r = slurp(path, buf, sizeof(buf), d);
		if (r < 0) {
			st = BT_ERR_INVALID;
			break;
		}
		if (r == 0)
			continue;
		struct bt_pk_format *f = &p->formats[p->n_formats];
		int col = 0;
		const char *what = "";
		if (!bt_pk_parse_format(buf, &f->word, &f->mask, &col, &what)) {
			bt_diag_set(d, "%s:1:%d: %s", path, col, what);
			st = BT_ERR_INVALID;
			break;
		}
		scopy(f->name, sizeof(f->name), de->d_name);
		p->mask[f->word] |= f->mask;
		p->n_formats++;
	}
	closedir(D);
	/* readdir's order is the file system's: sorted, the facts print alike. */
	qsort(p->formats, (size_t)p->n_formats, sizeof(p->formats[0]), cmp_format);
	return st;
}

static bool exists(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f)
		fclose(f);
	return f != NULL;
}

static bt_status read_pmu(const char *root, const char *name, struct bt_pk_pmu *p, bool *found,
			  struct bt_diag *d)
{
	char base[400], path[600];
	long v;
	int r;

	*found = false;
	memset(p, 0, sizeof(*p));
	scopy(p->name, sizeof(p->name), name);
	p->max_precise = p->branches = p->rdpmc = -1;
	snprintf(path, sizeof(path), "sys/bus/event_source/devices/%s", name);
	join(base, sizeof(base), root, path);
	snprintf(path, sizeof(path), "%s/type", base);
	r = read_int(path, 0, 0x7fffffff, &v, d);
	if (r < 0)
		return BT_ERR_INVALID;
	if (r == 0)
		return BT_OK;
	*found = true;
	p->type = (uint32_t)v;
	char buf[PK_FILE_MAX];
	snprintf(path, sizeof(path), "%s/cpus", base);
	r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !parse_cpus(path, buf, p->cpus, d)))
		return BT_ERR_INVALID;
	p->has_cpus = r > 0;
	snprintf(path, sizeof(path), "%s/format", base);
	if (read_formats(path, p, d) != BT_OK)
		return BT_ERR_INVALID;
	snprintf(path, sizeof(path), "%s/caps/pmu_name", base);
	r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !one_line(path, buf, d)))
		return BT_ERR_INVALID;
	if (r > 0) {
		for (char *c = buf; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
			      *c == '+' || *c == '-')) {
				bt_diag_set(d, "%s:1:%d: unexpected character in a PMU name", path,
					    (int)(c - buf) + 1);
				return BT_ERR_INVALID;
			}
		scopy(p->pmu_name, sizeof(p->pmu_name), buf);
	}
	static const char *const ints[3] = { "caps/max_precise", "caps/branches", "rdpmc" };
	int *dst[3] = { &p->max_precise, &p->branches, &p->rdpmc };
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", base, ints[i]);
		r = read_int(path, 0, 1024, &v, d);
		if (r < 0)
			return BT_ERR_INVALID;
		if (r > 0)
			*dst[i] = (int)v;
	}
	snprintf(path, sizeof(path), "%s/events/slots", base);
	p->ev_slots = exists(path);
	snprintf(path, sizeof(path), "%s/events/topdown-mem-bound", base);
	p->ev_td_mem_bound = exists(path);
	snprintf(path, sizeof(path), "%s/events/topdown-retiring", base);
	r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !one_line(path, buf, d)))
		return BT_ERR_INVALID;
	p->ev_td_retiring = r > 0;
	if (r > 0)
		scopy(p->td_retiring, sizeof(p->td_retiring), buf);
	return BT_OK;
}

/* CapEff from /proc/self/status: 16 hex digits. */
static bt_status read_caps(const char *root, struct bt_perf_kernel *k, struct bt_diag *d)
{
	char path[600], buf[PK_FILE_MAX];
	join(path, sizeof(path), root, "proc/self/status");
	int r = slurp(path, buf, sizeof(buf), d);
	if (r < 0)
		return BT_ERR_INVALID;
	if (r == 0)
		return BT_OK;
	int line = 1;
	for (char *s = buf; *s; line++) {
		char *e = strchr(s, '\n');
		if (e)
			*e = 0;
		if (strncmp(s, "CapEff:", 7) == 0) {
			const char *p = s + 7;
			while (*p == ' ' || *p == '\t')
				p++;
			uint64_t v = 0;
			int nd = 0;
			for (; *p; p++, nd++) {
				int x = *p >= '0' && *p <= '9' ? *p - '0'
					: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
					: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
				if (x < 0 || nd == 16) {
					bt_diag_set(d, "%s:%d:%d: CapEff is not 16 hex digits", path, line,
						    (int)(p - s) + 1);
					return BT_ERR_INVALID;
				}
				v = v << 4 | (uint64_t)x;
			}
			if (nd == 0) {
				bt_diag_set(d, "%s:%d:%d: CapEff has no value", path, line, (int)(p - s) + 1);
				return BT_ERR_INVALID;
			}
			/* include/uapi/linux/capability.h: CAP_SYS_ADMIN 21,
			 * CAP_PERFMON 38. */
			k->caps_known = true;
			k->cap_sys_admin = (v >> 21) & 1;
			k->cap_perfmon = (v >> 38) & 1;
			return BT_OK;
		}
		if (!e)
			break;
		s = e + 1;
	}
	return BT_OK;
}

/* "X.Y[.Z]" at *s: major, minor and the patch level (-1: none given). */
static bool parse_version(const char **s, int *ma, int *mi, int *pa)
{
	unsigned a, b, c;
	if (!parse_uint(s, 99, &a) || **s != '.')
		return false;
	(*s)++;
	if (!parse_uint(s, 999, &b))
		return false;
	*ma = (int)a;
	*mi = (int)b;
	*pa = -1;
	if (**s == '.' && (*s)[1] >= '0' && (*s)[1] <= '9') {
		(*s)++;
		if (!parse_uint(s, 9999, &c))
			return false;
		*pa = (int)c;
	}
	return true;
}

/*
 * The upstream stable level of a distribution's kernel, whose release
 * string has ".0" and an ABI number instead: Ubuntu's
 * /proc/version_signature ends in the upstream version it was built from
 * ("Ubuntu 6.8.0-45.45-generic 6.8.12"), Debian's /proc/version names its
 * package version ("... Debian 6.1.115-1 (2024-11-01)"). Optional: absent
 * or unrecognised leaves the level unknown.
 */
static void distro_patch(const char *root, struct bt_perf_kernel *k)
{
	static const struct { const char *file, *key, *what; } src[] = {
		{ "proc/version_signature", NULL, "/proc/version_signature (Ubuntu)" },
		{ "proc/version", "Debian ", "/proc/version (Debian)" },
	};
	for (size_t i = 0; i < BT_ARRAY_SIZE(src); i++) {
		char path[600], buf[512];
		struct bt_diag ignore = { "" };
		join(path, sizeof(path), root, src[i].file);
		if (slurp(path, buf, sizeof(buf), &ignore) <= 0)
			continue;
		buf[strcspn(buf, "\n")] = 0;
		const char *p = NULL;
		if (src[i].key) {
			p = strstr(buf, src[i].key);
			if (p)
				p += strlen(src[i].key);
		} else {
			p = strrchr(buf, ' ');
			p = p ? p + 1 : NULL;
		}
		int ma, mi, pa;
		if (p && parse_version(&p, &ma, &mi, &pa) && ma == k->ver_major && mi == k->ver_minor &&
		    pa >= 0) {
			k->ver_patch = pa;
			scopy(k->ver_from, sizeof(k->ver_from), src[i].what);
			return;
		}
	}
}

static bt_status read_release(const char *root, struct bt_perf_kernel *k, struct bt_diag *d)
{
	char path[600], buf[128];
	join(path, sizeof(path), root, "proc/sys/kernel/osrelease");
	int r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !one_line(path, buf, d)))
		return BT_ERR_INVALID;
	if (r == 0)
		return BT_OK;
	const char *p = buf;
	int ma, mi, pa;
	if (!parse_version(&p, &ma, &mi, &pa)) {
		bt_diag_set(d, "%s:1:%d: not a kernel version MAJOR.MINOR...", path, (int)(p - buf) + 1);
		return BT_ERR_INVALID;
	}
	scopy(k->osrelease, sizeof(k->osrelease), buf);
	k->ver_major = ma;
	k->ver_minor = mi;
	/* A patch level above 0 is the stable release; ".0" is one only when
	 * nothing or a pre-release follows ("6.13.0", "6.13.0-rc4"): a
	 * distribution's "X.Y.0-N-flavour" keeps ".0" whatever it backports. */
	if (pa > 0 || (pa == 0 && (!*p || strncmp(p, "-rc", 3) == 0)) || (pa < 0 && !*p)) {
		k->ver_patch = pa > 0 ? pa : 0;
		scopy(k->ver_from, sizeof(k->ver_from), "osrelease");
	} else {
		distro_patch(root, k);
	}
	return BT_OK;
}

/* proc/self/uid_map of the initial user namespace maps all of it:
 * "0 0 4294967295" (user_namespaces(7)). */
static void read_userns(const char *root, struct bt_perf_kernel *k)
{
	char path[600], buf[256];
	struct bt_diag ignore = { "" };
	join(path, sizeof(path), root, "proc/self/uid_map");
	k->init_userns = -1;
	if (slurp(path, buf, sizeof(buf), &ignore) <= 0)
		return;
	unsigned long a, b, c;
	char extra;
	k->init_userns = sscanf(buf, " %lu %lu %lu %c", &a, &b, &c, &extra) == 3 && a == 0 && b == 0 &&
			 c == 4294967295ul;
}

/* Every core PMU directory: "cpu", and on a hybrid part the cpu_* ones
 * with a cpus file (intel_hybrid_pmu_type_map's names first, in its
 * order, then any other, sorted). */
static int pmu_rank(const char *name)
{
	static const char *const known[] = { "cpu", "cpu_core", "cpu_atom", "cpu_lowpower" };
	for (int i = 0; i < 4; i++)
		if (strcmp(name, known[i]) == 0)
			return i;
	return 4;
}

static int cmp_pmu_name(const void *a, const void *b)
{
	const char *x = a, *y = b;
	int rx = pmu_rank(x), ry = pmu_rank(y);
	return rx != ry ? rx - ry : strcmp(x, y);
}

static bt_status read_pmus(const char *root, struct bt_perf_kernel *k, struct bt_diag *d)
{
	char dir[600], names[16][24];
	int n = 0;
	join(dir, sizeof(dir), root, "sys/bus/event_source/devices");
	DIR *D = opendir(dir);
	if (!D)
		return BT_OK;
	struct dirent *de;
	while ((de = readdir(D)) != NULL && n < 16)
		if ((strcmp(de->d_name, "cpu") == 0 || strncmp(de->d_name, "cpu_", 4) == 0) &&
		    strlen(de->d_name) < sizeof(names[0]))
			scopy(names[n++], sizeof(names[0]), de->d_name);
	closedir(D);
	qsort(names, (size_t)n, sizeof(names[0]), cmp_pmu_name);
	for (int i = 0; i < n && k->n_pmus < BT_PK_MAX_PMUS; i++) {
		bool found;
		struct bt_pk_pmu *p = &k->pmu[k->n_pmus];
		if (read_pmu(root, names[i], p, &found, d) != BT_OK)
			return BT_ERR_INVALID;
		/* A cpu_* directory is a kind of core's PMU only with its CPUs. */
		if (!found || (strcmp(names[i], "cpu") != 0 && !p->has_cpus))
			continue;
		k->hybrid |= strcmp(names[i], "cpu") != 0;
		k->n_pmus++;
	}
	return BT_OK;
}

bt_status bt_perf_kernel_read(const char *root, struct bt_perf_kernel *k, struct bt_diag *d)
{
	char path[600], buf[PK_FILE_MAX];
	long v;
	int r;

	memset(k, 0, sizeof(*k));
	if (!root || !*root)
		root = "/";
	scopy(k->root, sizeof(k->root), root);
	k->nmi_watchdog = k->watchdog = -1;
	k->smt_active = -1;
	k->ver_patch = -1;
	if (read_pmus(root, k, d) != BT_OK)
		return BT_ERR_INVALID;
	join(path, sizeof(path), root, "proc/sys/kernel/nmi_watchdog");
	if ((r = read_int(path, 0, 1, &v, d)) < 0)
		return BT_ERR_INVALID;
	if (r > 0)
		k->nmi_watchdog = (int)v;
	join(path, sizeof(path), root, "proc/sys/kernel/watchdog");
	if ((r = read_int(path, 0, 1, &v, d)) < 0)
		return BT_ERR_INVALID;
	if (r > 0)
		k->watchdog = (int)v;
	join(path, sizeof(path), root, "proc/sys/kernel/watchdog_cpumask");
	r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !parse_cpus(path, buf, k->wd_cpumask, d)))
		return BT_ERR_INVALID;
	k->has_wd_cpumask = r > 0;
	/* proc_dointvec: any int; the kernel compares it (>= 2, > 1, ...). */
	join(path, sizeof(path), root, "proc/sys/kernel/perf_event_paranoid");
	if ((r = read_int(path, -1000000000L, 1000000000L, &v, d)) < 0)
		return BT_ERR_INVALID;
	k->paranoid_known = r > 0;
	k->paranoid = r > 0 ? (int)v : 0;
	join(path, sizeof(path), root, "sys/devices/system/cpu/smt/active");
	if ((r = read_int(path, 0, 1, &v, d)) < 0)
		return BT_ERR_INVALID;
	if (r > 0)
		k->smt_active = (int)v;
	join(path, sizeof(path), root, "sys/devices/system/cpu/smt/control");
	r = slurp(path, buf, sizeof(buf), d);
	if (r < 0 || (r > 0 && !one_line(path, buf, d)))
		return BT_ERR_INVALID;
	if (r > 0)
		scopy(k->smt_control, sizeof(k->smt_control), buf);
	if (read_caps(root, k, d) != BT_OK)
		return BT_ERR_INVALID;
	read_userns(root, k);
	if (read_release(root, k, d) != BT_OK)
		return BT_ERR_INVALID;
	if (!k->n_pmus) {
		join(path, sizeof(path), root, "sys/bus/event_source/devices");
		bt_diag_set(d, "no core PMU registered: %s has no cpu or cpu_* PMU (no PMU exposed to "
			    "Linux)", path);
		return BT_ERR_UNSUPPORTED;
	}
	return BT_OK;
}

const struct bt_pk_pmu *bt_pk_pmu_named(const struct bt_perf_kernel *k, const char *name)
{
	for (int i = 0; i < k->n_pmus; i++)
		if (strcmp(k->pmu[i].name, name) == 0)
			return &k->pmu[i];
	return NULL;
}

const struct bt_pk_pmu *bt_pk_pmu_for_cpu(const struct bt_perf_kernel *k, unsigned cpu)
{
	if (!k->hybrid)
		return bt_pk_pmu_named(k, "cpu");
	for (int i = 0; i < k->n_pmus; i++)
		if (k->pmu[i].has_cpus && cpu < BT_PK_MAX_CPUS &&
		    (k->pmu[i].cpus[cpu / 64] >> (cpu % 64) & 1))
			return &k->pmu[i];
	return NULL;
}

const struct bt_pk_format *bt_pk_format_named(const struct bt_pk_pmu *p, const char *name)
{
	for (int i = 0; i < p->n_formats; i++)
		if (strcmp(p->formats[i].name, name) == 0)
			return &p->formats[i];
	return NULL;
}

bool bt_pk_version_at_least(const struct bt_perf_kernel *k, int major, int minor)
{
	if (!k->ver_major)
		return false;
	return k->ver_major > major || (k->ver_major == major && k->ver_minor >= minor);
}

int bt_pk_has_change(const struct bt_perf_kernel *k, int major, int minor,
		     const struct bt_pk_backport *backports)
{
	if (!k->ver_major)
		return -1;
	if (bt_pk_version_at_least(k, major, minor))
		return 1;
	for (const struct bt_pk_backport *b = backports; b && b->minor; b++)
		if (k->ver_major == major && k->ver_minor == b->minor)
			return k->ver_patch < 0 ? -1 : k->ver_patch >= b->patch;
	return 0;
}

void bt_pk_version_text(const struct bt_perf_kernel *k, char *buf, size_t len)
{
	if (!k->ver_major)
		snprintf(buf, len, "?");
	else if (k->ver_patch < 0)
		snprintf(buf, len, "%d.%d (stable level unknown)", k->ver_major, k->ver_minor);
	else
		snprintf(buf, len, "%d.%d.%d", k->ver_major, k->ver_minor, k->ver_patch);
}

bool bt_pk_perfmon_capable(const struct bt_perf_kernel *k)
{
	return k->caps_known && k->init_userns != 0 && (k->cap_perfmon || k->cap_sys_admin);
}

bool bt_pk_watchdog_on(const struct bt_perf_kernel *k, unsigned cpu)
{
	if (k->nmi_watchdog != 1 || k->watchdog == 0)
		return false;
	return !k->has_wd_cpumask ||
	       (cpu < BT_PK_MAX_CPUS && (k->wd_cpumask[cpu / 64] >> (cpu % 64) & 1));
}
