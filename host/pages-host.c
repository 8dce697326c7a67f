/* SPDX-License-Identifier: MIT */
/*
 * Which pages map a piece of this process's memory, from /proc/self/smaps
 * (Linux Documentation/filesystems/proc.rst, "/proc/<pid>/smaps"): user space
 * cannot read CR3, so the hosted platform answers struct bt_platform's
 * memory_pages from the kernel's per-mapping report instead.
 *
 * Per mapping (VMA) smaps gives MMUPageSize (the page size the MMU uses for
 * it: 4 kB, or 2048 kB / 1048576 kB for hugetlbfs) and AnonHugePages (how
 * much of it transparent huge pages back, PMD-mapped: 2 MiB on x86-64). It
 * does not say which part of a mapping the huge pages are in, so a mapping
 * partly backed by THP gives 4 KiB..2 MiB: mixed, and a count declared per
 * page size is then not declared.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host/pages-host.h"

/* PMD-mapped THP on x86-64 (SDM vol. 3A, 4.5: a PDE maps 2 MiB). */
#define THP_BYTES (UINT64_C(2) << 20)

struct vma {
	uint64_t lo, hi;            /* [lo, hi) */
	uint64_t mmu_kb, thp_kb;
	bool have_mmu;
};

/* Folds one mapping's facts into the span for the part of [a, b) it covers;
 * returns the bytes of [a, b) it covers. */
static uint64_t fold(const struct vma *v, uint64_t a, uint64_t b, struct bt_page_span *s,
		     bool *mixed_thp)
{
	uint64_t lo = v->lo > a ? v->lo : a, hi = v->hi < b ? v->hi : b;

	if (lo >= hi || !v->have_mmu)
		return 0;
	uint64_t small = v->mmu_kb * 1024, large = small;
	if (v->thp_kb && THP_BYTES > small) {
		large = THP_BYTES;
		/* All of the mapping huge: its smallest page is 2 MiB too. */
		if (v->thp_kb * 1024 < v->hi - v->lo)
			*mixed_thp = true;
		else
			small = THP_BYTES;
	}
	if (!s->smallest || small < s->smallest)
		s->smallest = small;
	if (large > s->largest)
		s->largest = large;
	return hi - lo;
}

void bt_smaps_pages_read(FILE *f, uint64_t addr, uint64_t len, struct bt_page_span *ret)
{
	char line[512];
	struct vma v = { 0 };
	bool in = false, mixed_thp = false;
	uint64_t covered = 0, end = addr + len;

	memset(ret, 0, sizeof(*ret));
	while (fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, kb;
		char key[64];

		/* A mapping's header starts "lo-hi " in hex; its fields are
		 * "Key:   value kB" (a key never parses as hex-hex). */
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " ", &lo, &hi) == 2) {
			if (in)
				covered += fold(&v, addr, end, ret, &mixed_thp);
			memset(&v, 0, sizeof(v));
			v.lo = lo;
			v.hi = hi;
			in = true;
		} else if (in && sscanf(line, "%63[A-Za-z_]: %" SCNu64 " kB", key, &kb) == 2) {
			if (strcmp(key, "MMUPageSize") == 0) {
				v.mmu_kb = kb;
				v.have_mmu = true;
			} else if (strcmp(key, "AnonHugePages") == 0) {
				v.thp_kb = kb;
			}
		}
	}
	if (in)
		covered += fold(&v, addr, end, ret, &mixed_thp);
	if (!len || covered != len || !ret->smallest) {
		memset(ret, 0, sizeof(*ret));
		snprintf(ret->source, sizeof(ret->source), "unknown: /proc/self/smaps %s",
			 !len ? "(an empty range)" : "does not cover the range");
		return;
	}
	if (ret->smallest == ret->largest)
		ret->pages = (end - 1) / ret->smallest - addr / ret->smallest + 1;
	snprintf(ret->source, sizeof(ret->source), "/proc/self/smaps (MMUPageSize%s)",
		 mixed_thp ? "; AnonHugePages: part of the mapping on transparent huge pages"
			   : ret->largest == THP_BYTES ? ", AnonHugePages" : "");
}

void bt_host_memory_pages(const void *addr, uint64_t len, struct bt_page_span *ret)
{
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f) {
		memset(ret, 0, sizeof(*ret));
		snprintf(ret->source, sizeof(ret->source), "unknown: /proc/self/smaps cannot be "
			 "read");
		return;
	}
	bt_smaps_pages_read(f, (uint64_t)(uintptr_t)addr, len, ret);
	fclose(f);
}
