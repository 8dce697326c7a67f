/* SPDX-License-Identifier: MIT */
/*
 * The raw event parser (syntax in pmu/event-encode.h). Hand-written, bounded,
 * no allocation: it runs on user input and under libFuzzer.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "pmu/event-encode.h"
#include "pmu/extra-msr.h"
#include "pmu/msr.h"

#include "pmu/fail.h"

/* Parse a whole decimal or 0x-hex number of [s, s+len). */
static bool parse_u64(const char *s, size_t len, uint64_t *ret)
{
	uint64_t v = 0;
	size_t i = 0;
	unsigned base = 10;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*ret = v;
	return true;
}

static bool key_is(const char *k, size_t klen, const char *want)
{
	return strlen(want) == klen && memcmp(k, want, klen) == 0;
}

static const char *const pm_names[8] = {
	"retiring", "bad_speculation", "frontend_bound", "backend_bound",
	"heavy_operations", "branch_mispredicts", "fetch_latency", "memory_bound",
};

static void set_name(struct bt_raw_event *r, const char *s, size_t len)
{
	if (len >= sizeof(r->name))
		len = sizeof(r->name) - 1;
	memcpy(r->name, s, len);
	r->name[len] = 0;
	r->ev.name = r->name;
}

static bt_status set_extra(struct bt_event *e, uint16_t msr, uint64_t v, const char *what,
			   struct bt_diag *d)
{
	if (e->msr_index && e->msr_index != msr)
		FAIL("%s: an event programs at most one extra MSR (already 0x%X)", what, e->msr_index);
	e->msr_index = msr;
	e->msr_value = v;
	return BT_OK;
}

/* One key[=value] term of the cpu/.../ form. */
static bt_status term(struct bt_raw_event *r, enum bt_vendor vendor, const char *k, size_t klen,
		      const char *v, size_t vlen, bool has_v, struct bt_diag *d)
{
	struct bt_event *e = &r->ev;
	uint64_t n = 1;
	char what[64];
	snprintf(what, sizeof(what), "%.*s%s%.*s", (int)(klen > 24 ? 24 : klen), k,
		 has_v ? "=" : "", (int)(vlen > 24 ? 24 : vlen), has_v ? v : "");

	if (key_is(k, klen, "name")) {
		if (!has_v || vlen == 0)
			FAIL("name: needs a value");
		set_name(r, v, vlen);
		return BT_OK;
	}
	if (key_is(k, klen, "perf_metrics")) {
		for (int i = 0; i < 8; i++)
			if (has_v && key_is(v, vlen, pm_names[i])) {
				e->source = BT_SRC_PERF_METRICS;
				e->pm_field = (uint8_t)i;
				e->counters = 0;
				return BT_OK;
			}
		FAIL("%s: unknown PERF_METRICS field (retiring, bad_speculation, frontend_bound, "
		     "backend_bound, heavy_operations, branch_mispredicts, fetch_latency, "
		     "memory_bound)", what);
	}
	if (has_v && !parse_u64(v, vlen, &n))
		FAIL("%s: not a number (decimal or 0x hex)", what);

	if (key_is(k, klen, "event")) {
		if (!has_v)
			FAIL("event: needs a value");
		if (vendor == BT_VENDOR_AMD ? n > 0xFFF : n > 0xFF)
			FAIL(vendor == BT_VENDOR_AMD ? "%s: AMD event select is 12 bits (0-0xFFF)"
			     : "%s needs AMD (Intel event select is 8 bits)", what);
		e->code = (uint16_t)n;
	} else if (key_is(k, klen, "code2")) {
		if (!has_v || n > 0xFF || n == 0)
			FAIL("%s: the alternative OCR code is an 8-bit event select", what);
		e->code2 = (uint16_t)n;
	} else if (key_is(k, klen, "umask")) {
		if (!has_v || n > 0xFF)
			FAIL("%s: unit mask is 8 bits (0-0xFF)", what);
		e->umask = (uint8_t)n;
	} else if (key_is(k, klen, "umask2")) {
		if (vendor == BT_VENDOR_AMD)
			FAIL("%s: AMD PerfEvtSel has no second unit mask", what);
		if (!has_v || n > 0xFF)
			FAIL("%s: UMASK2 is 8 bits (0-0xFF)", what);
		e->umask_ext = (uint8_t)n;
	} else if (key_is(k, klen, "cmask")) {
		if (!has_v || n > 0xFF)
			FAIL("%s: counter mask is 8 bits (0-255)", what);
		e->cmask = (uint8_t)n;
	} else if (key_is(k, klen, "inv") || key_is(k, klen, "edge") || key_is(k, klen, "any") ||
		   key_is(k, klen, "eq") || key_is(k, klen, "alone")) {
		if (n > 1)
			FAIL("%s: a flag is 0 or 1", what);
		uint8_t bit = key_is(k, klen, "inv") ? BT_EVF_INV : key_is(k, klen, "edge") ? BT_EVF_EDGE
			      : key_is(k, klen, "any") ? BT_EVF_ANY : key_is(k, klen, "eq") ? BT_EVF_EQ
			      : BT_EVF_ALONE;
		if (vendor == BT_VENDOR_AMD && (bit == BT_EVF_ANY || bit == BT_EVF_EQ) && n)
			FAIL("%s: AMD PerfEvtSel has no %s bit", what, bit == BT_EVF_ANY ? "AnyThread" : "EQ");
		if (n)
			e->flags |= bit;
		else
			e->flags &= (uint16_t)~bit;
	} else if (key_is(k, klen, "ldlat")) {
		if (vendor == BT_VENDOR_AMD)
			FAIL("%s: MSR_PEBS_LD_LAT is Intel-only", what);
		/* SDM vol. 3B "Load Latency Performance Monitoring Facility":
		 * "the minimum value that may be programmed ... is 3". */
		if (!has_v || n < 3 || n > 0xFFFF)
			FAIL("%s: the load latency threshold is MSR_PEBS_LD_LAT[15:0] (3-65535; "
			     "the SDM's minimum is 3)", what);
		return set_extra(e, MSR_PEBS_LD_LAT, n, what, d);
	} else if (key_is(k, klen, "frontend")) {
		if (vendor == BT_VENDOR_AMD)
			FAIL("%s: MSR_PEBS_FRONTEND is Intel-only", what);
		/* Bits 23 and 7:5 exist on no part, bit 3 only from Golden
		 * Cove (pmu/extra-msr.c); the encoder checks the event's bits. */
		if (!has_v || (n & ~(uint64_t)BT_FRONTEND_ANY_MASK))
			FAIL("%s: MSR_PEBS_FRONTEND has no bits 0x%llx (at most 0x%X exist)", what,
			     (unsigned long long)(n & ~(uint64_t)BT_FRONTEND_ANY_MASK),
			     BT_FRONTEND_ANY_MASK);
		return set_extra(e, MSR_PEBS_FRONTEND, n, what, d);
	} else if (key_is(k, klen, "offcore_rsp")) {
		if (vendor == BT_VENDOR_AMD)
			FAIL("%s: MSR_OFFCORE_RSP is Intel-only", what);
		if (!has_v || n == 0)
			FAIL("%s: needs a nonzero request/response mask", what);
		/* Provisional: which of the pair follows from event/umask,
		 * which may come later in the string (bt_event_parse). */
		return set_extra(e, MSR_OFFCORE_RSP_0, n, what, d);
	} else if (key_is(k, klen, "counters")) {
		if (!has_v || n > 0xFFFF)
			FAIL("%s: a mask of general counters 0-15 (0: fixed counter only)", what);
		e->counters = (uint32_t)n;
	} else if (key_is(k, klen, "fixed")) {
		if (!has_v || n > 15)
			FAIL("%s: fixed counter index 0-15", what);
		e->fixed = (int8_t)n;
	} else {
		FAIL("%.*s: unknown term (event, umask, cmask, inv, edge, any, eq, umask2, ldlat, "
		     "frontend, offcore_rsp, name, counters, fixed, alone, code2, perf_metrics)",
		     (int)(klen > 32 ? 32 : klen), k);
	}
	return BT_OK;
}

static bt_status parse_raw_config(const char *s, enum bt_vendor vendor, struct bt_raw_event *r,
				  struct bt_diag *d)
{
	uint64_t c = 0;
	size_t len = strlen(s);
	for (size_t i = 1; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			FAIL("%.40s: rHEX takes hex digits only (perf raw config, e.g. r01c2 = "
			     "umask 0x01, event 0xc2)", s);
		if (i > 16)
			FAIL("%.40s: rHEX takes at most 16 hex digits", s);
		c = c * 16 + (unsigned)(isdigit((unsigned char)s[i]) ? s[i] - '0'
					 : (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	struct bt_event *e = &r->ev;
	uint64_t allowed = 0xFFull | 0xFF00ull | EVTSEL_EDGE | EVTSEL_INV | 0xFF000000ull;
	if (vendor == BT_VENDOR_AMD)
		allowed |= 0xFull << AMD_EVTSEL_EVENT_HI_SHIFT;
	else
		allowed |= EVTSEL_ANY | EVTSEL_EQ | (0xFFull << EVTSEL_UMASK2_SHIFT);
	if (c & ~allowed) {
		uint64_t bad = c & ~allowed;
		int bit = 0;
		while (!((bad >> bit) & 1))
			bit++;
		FAIL("%.40s: bit %d is not an event field (USR 16, OS 17, INT 20, EN 22 are set "
		     "by baretop; use /k or /u for privilege filters)", s, bit);
	}
	e->code = (uint16_t)(c & 0xFF);
	if (vendor == BT_VENDOR_AMD)
		e->code |= (uint16_t)(((c >> AMD_EVTSEL_EVENT_HI_SHIFT) & 0xF) << 8);
	e->umask = (uint8_t)(c >> EVTSEL_UMASK_SHIFT);
	e->cmask = (uint8_t)(c >> EVTSEL_CMASK_SHIFT);
	e->umask_ext = vendor == BT_VENDOR_AMD ? 0 : (uint8_t)(c >> EVTSEL_UMASK2_SHIFT);
	if (c & EVTSEL_EDGE) e->flags |= BT_EVF_EDGE;
	if (c & EVTSEL_INV) e->flags |= BT_EVF_INV;
	if (c & EVTSEL_ANY) e->flags |= BT_EVF_ANY;
	if (c & EVTSEL_EQ) e->flags |= BT_EVF_EQ;
	return BT_OK;
}

bt_status bt_event_parse(const char *s, enum bt_vendor vendor, struct bt_raw_event *ret,
			 struct bt_diag *d)
{
	struct bt_raw_event r;
	memset(&r, 0, sizeof(r));
	r.ev.source = BT_SRC_PMC;
	r.ev.fixed = BT_EV_NO_FIXED;
	r.ev.counters = 0xFFFF;
	if (!s)
		FAIL("no event");
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' ||
		       s[len - 1] == '\r'))
		len--;
	if (len == 0)
		FAIL("empty event");
	if (len > 512)
		FAIL("event string longer than 512 characters");
	char buf[513];
	memcpy(buf, s, len);
	buf[len] = 0;
	set_name(&r, buf, len);

	if (strcmp(buf, "tsc") == 0 || strcmp(buf, "TSC") == 0 || strcmp(buf, "msr/tsc/") == 0) {
		r.ev.source = BT_SRC_TSC;
		r.ev.counters = 0;
		set_name(&r, "TSC", 3);
	} else if (strcmp(buf, "duration_time") == 0) {
		r.ev.source = BT_SRC_DURATION;
		r.ev.counters = 0;
	} else if (buf[0] == 'r' && len > 1 && isxdigit((unsigned char)buf[1])) {
		bt_status st = parse_raw_config(buf, vendor, &r, d);
		if (st != BT_OK)
			return st;
	} else {
		const char *slash = strchr(buf, '/');
		if (!slash)
			FAIL("%.40s: expected cpu/term,term,.../ or rHEX", buf);
		size_t plen = (size_t)(slash - buf);
		if (!key_is(buf, plen, "cpu") && !key_is(buf, plen, "cpu_core") &&
		    !key_is(buf, plen, "cpu_atom"))
			FAIL("%.*s: unknown PMU (cpu, cpu_core, cpu_atom)", (int)(plen > 32 ? 32 : plen), buf);
		const char *p = slash + 1;
		const char *end = strchr(p, '/');
		if (!end)
			FAIL("%.40s: missing closing '/'", buf);
		bool have_event = false;
		while (p < end) {
			const char *comma = memchr(p, ',', (size_t)(end - p));
			const char *tend = comma ? comma : end;
			const char *eq = memchr(p, '=', (size_t)(tend - p));
			size_t klen = (size_t)((eq ? eq : tend) - p);
			if (klen == 0)
				FAIL("empty term in %.40s", buf);
			if (key_is(p, klen, "event") || key_is(p, klen, "perf_metrics"))
				have_event = true;
			bt_status st = term(&r, vendor, p, klen, eq ? eq + 1 : NULL,
					    eq ? (size_t)(tend - eq - 1) : 0, eq != NULL, d);
			if (st != BT_OK)
				return st;
			p = comma ? comma + 1 : end;
		}
		if (!have_event && r.ev.fixed < 0)
			FAIL("%.40s: no event= term", buf);
		for (const char *m = end + 1; *m; m++) {
			if (*m == 'k')
				r.ev.flags |= BT_EVF_SUP;
			else if (*m == 'u')
				r.ev.flags |= BT_EVF_USER;
			else
				FAIL("%.40s: unknown modifier '%c' after '/' (k, u)", buf, *m);
		}
		if ((r.ev.flags & BT_EVF_SUP) && (r.ev.flags & BT_EVF_USER))
			r.ev.flags &= (uint16_t)~(BT_EVF_SUP | BT_EVF_USER); /* ku = both rings */
		if (r.ev.msr_index == MSR_OFFCORE_RSP_0) {
			/* offcore_rsp=: the MSR is the one the code selects
			 * (pmu/extra-msr.c). Without the CPU at hand, every
			 * class that knows the encoding must agree. */
			uint32_t msr = bt_ocr_msr_any(r.ev.code, r.ev.umask);
			if (!msr)
				FAIL("%.40s: offcore_rsp= needs an OFFCORE_RESPONSE event: 0xB7/0xBB "
				     "umask 0x01 (up to Ice Lake), 0x2A/0x2B umask 0x01 (Golden Cove "
				     "and later), 0xB7 umask 0x01/0x02 (Atom cores)", buf);
			r.ev.msr_index = (uint16_t)msr;
		}
		if (r.ev.code2 && r.ev.msr_index != MSR_OFFCORE_RSP_0 &&
		    r.ev.msr_index != MSR_OFFCORE_RSP_1)
			FAIL("%.40s: code2 is the OCR alternative and needs offcore_rsp=", buf);
	}
	*ret = r;
	ret->ev.name = ret->name;
	return BT_OK;
}

bt_status bt_event_parse_encoding(const char *s, bool amd, struct bt_event *ret, struct bt_diag *d)
{
	struct bt_raw_event r;
	bt_status st = bt_event_parse(s, amd ? BT_VENDOR_AMD : BT_VENDOR_INTEL, &r, d);
	if (st != BT_OK)
		return st;
	*ret = r.ev;
	ret->name = NULL;
	return BT_OK;
}
