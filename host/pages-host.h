/* SPDX-License-Identifier: MIT */
/* The hosted platform's memory_pages (app/platform.h): the page sizes of
 * this process's memory from /proc/self/smaps. */
#ifndef HOST_PAGES_HOST_H
#define HOST_PAGES_HOST_H

#include <stdint.h>
#include <stdio.h>

#include "arch/paging.h"

/* struct bt_platform.memory_pages for Linux. */
void bt_host_memory_pages(const void *addr, uint64_t len, struct bt_page_span *ret);

/* The span of [addr, addr + len) from smaps text read from f (unit-tested
 * on fixed text): unknown unless the mappings cover the whole range. */
void bt_smaps_pages_read(FILE *f, uint64_t addr, uint64_t len, struct bt_page_span *ret);

#endif
