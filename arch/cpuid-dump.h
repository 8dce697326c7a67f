/* SPDX-License-Identifier: MIT */
/*
 * CPUID dumps of real machines, for deciding what baretop would do on a part
 * before booting it there (baretop-host detect) and for testing detection on
 * what real parts answered. Two text formats:
 *
 *   reference format (../shared/reference/cpuid/, see its README):
 *       # comment
 *       cpus 0,1,10,11                    logical CPUs that answered alike
 *       0000000A.00 07300805 00000000 00000007 00008603
 *                                         leaf.subleaf EAX EBX ECX EDX (hex)
 *
 *   Linux `cpuid -r` (Debian package cpuid):
 *       CPU 0:                            ("CPU:" with -1)
 *          0x0000000a 0x00: eax=0x07300805 ebx=0x00000000 ecx=0x00000007 edx=0x00008603
 *
 * In the raw format every CPU is listed; CPUs are grouped when their leaves
 * are equal ignoring the fields that carry APIC IDs or per-CPU indices (the
 * same fields the reference format ignores: 01H EBX[31:24], 04H EAX[31:26],
 * 06H EDX[31:16], 0BH/1FH EDX, 8000_001EH EAX/EBX, 8000_0026H EDX).
 */
#ifndef ARCH_CPUID_DUMP_H
#define ARCH_CPUID_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "arch/arch.h"

struct bt_cpuid_dump_leaf {
	uint32_t leaf, subleaf;
	struct bt_cpuid r;
};

struct bt_cpuid_dump_group {
	uint32_t *cpus;            /* logical CPUs, in the order listed */
	size_t n_cpus;
	struct bt_cpuid_dump_leaf *leaves;
	size_t n_leaves;
};

struct bt_cpuid_dump {
	struct bt_cpuid_dump_group *groups;
	size_t n_groups;
	char format[16];           /* "reference" or "cpuid -r" */
};

/*
 * Parses `len` bytes of text. On error returns BT_ERR_INVALID (BT_ERR_NOMEM
 * when out of memory) and writes "line N: what" into diag; *ret is then
 * empty. Free with bt_cpuid_dump_free().
 */
bt_status bt_cpuid_dump_parse(const char *text, size_t len, struct bt_cpuid_dump *ret,
			      struct bt_diag *diag);
void bt_cpuid_dump_free(struct bt_cpuid_dump *d);

/*
 * Reads the dump a "FILE@CPU" option value names (`opt`, e.g. "--cpuid",
 * says which option in messages; with cpu_required false "@CPU" may be left
 * out and means CPU 0) and finds the group logical CPU answered in. On
 * success *dump holds the whole dump (bt_cpuid_dump_free), *group points
 * into it, *cpu is the CPU and path[] the file name. Errors are located:
 * "FILE: line N: what" for a malformed dump.
 */
bt_status bt_cpuid_dump_read_cpu(const char *opt, const char *spec, bool cpu_required,
				 struct bt_cpuid_dump *dump, const struct bt_cpuid_dump_group **group,
				 uint32_t *cpu, char *path, size_t path_size, struct bt_diag *d);

/* The group's answer to (leaf, subleaf); all zero when the dump lacks it. */
struct bt_cpuid bt_cpuid_dump_get(const struct bt_cpuid_dump_group *g, uint32_t leaf,
				  uint32_t subleaf);

/* "0,1,10-13" style list of the group's CPUs into buf. */
void bt_cpuid_dump_cpus_text(const struct bt_cpuid_dump_group *g, char *buf, size_t len);

#endif
