/* SPDX-License-Identifier: MIT */
/*
 * The hosted page reader (host/pages-host.c): fixed /proc/<pid>/smaps text
 * in the format of Linux's Documentation/filesystems/proc.rst (a mapping's
 * "lo-hi perms offset dev inode path" header, then "Key: value kB" lines),
 * and this process's own smaps for a buffer it maps itself.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "host/pages-host.h"
#include "tests/unit/lib/test.h"

/* Three mappings: 16 MiB of 4 KiB pages, 8 MiB entirely on THP, 8 MiB
 * of which 2 MiB are on THP; then a hugetlbfs mapping of 1 GiB pages. */
static const char smaps[] =
	"7f0000000000-7f0001000000 rw-p 00000000 00:00 0 \n"
	"Size:              16384 kB\n"
	"KernelPageSize:        4 kB\n"
	"MMUPageSize:           4 kB\n"
	"Rss:               16384 kB\n"
	"AnonHugePages:         0 kB\n"
	"VmFlags: rd wr mr mw me ac \n"
	"7f0001000000-7f0001800000 rw-p 00000000 00:00 0 \n"
	"Size:               8192 kB\n"
	"KernelPageSize:        4 kB\n"
	"MMUPageSize:           4 kB\n"
	"AnonHugePages:      8192 kB\n"
	"7f0001800000-7f0002000000 rw-p 00000000 00:00 0                          [heap]\n"
	"Size:               8192 kB\n"
	"KernelPageSize:        4 kB\n"
	"MMUPageSize:           4 kB\n"
	"AnonHugePages:      2048 kB\n"
	"7f0040000000-7f0080000000 rw-s 00000000 00:0f 1234                       /dev/hugepages/x\n"
	"Size:            1048576 kB\n"
	"KernelPageSize:  1048576 kB\n"
	"MMUPageSize:     1048576 kB\n"
	"AnonHugePages:         0 kB\n";

static void span_of(uint64_t addr, uint64_t len, struct bt_page_span *s)
{
	FILE *f = fmemopen((void *)smaps, sizeof(smaps) - 1, "r");

	CHECK(f != NULL);
	if (f) {
		bt_smaps_pages_read(f, addr, len, s);
		fclose(f);
	}
}

TEST(smaps_text)
{
	struct bt_page_span s;

	span_of(0x7f0000100000, 0x200000, &s);               /* inside the 4 KiB one */
	CHECK_EQ_U64(s.smallest, 4096);
	CHECK_EQ_U64(s.largest, 4096);
	CHECK_EQ_U64(s.pages, 512);
	CHECK(strstr(s.source, "/proc/self/smaps") != NULL);
	span_of(0x7f0001000000, 0x800000, &s);               /* all THP */
	CHECK_EQ_U64(s.smallest, 2u << 20);
	CHECK_EQ_U64(s.largest, 2u << 20);
	CHECK_EQ_U64(s.pages, 4);
	CHECK(strstr(s.source, "AnonHugePages") != NULL);
	span_of(0x7f0001800000, 0x100000, &s);               /* partly THP: which part is unknown */
	CHECK_EQ_U64(s.smallest, 4096);
	CHECK_EQ_U64(s.largest, 2u << 20);
	span_of(0x7f0000f00000, 0x200000, &s);               /* across the first two */
	CHECK_EQ_U64(s.smallest, 4096);
	CHECK_EQ_U64(s.largest, 2u << 20);
	span_of(0x7f0040000000, 0x1000000, &s);              /* hugetlbfs */
	CHECK_EQ_U64(s.smallest, 1u << 30);
	CHECK_EQ_U64(s.pages, 1);
	span_of(0x7f0001f00000, 0x200000, &s);               /* runs off the heap: a gap */
	CHECK_EQ_U64(s.largest, 0);
	CHECK(strncmp(s.source, "unknown: ", 9) == 0);
}

TEST(this_process)
{
	/* 16 MiB, THP declined (the kernel keeps 4 KiB pages), touched. */
	size_t len = 16u << 20;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct bt_page_span s;

	CHECK(p != MAP_FAILED);
	if (p == MAP_FAILED)
		return;
	CHECK_EQ_INT(madvise(p, len, MADV_NOHUGEPAGE), 0);
	memset(p, 1, len);
	bt_host_memory_pages(p, len, &s);
	CHECK_EQ_U64(s.smallest, 4096);
	CHECK_EQ_U64(s.largest, 4096);
	CHECK_EQ_U64(s.pages, 4096);
	munmap(p, len);
}
