/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "report/machine.h"

static void opt_str(struct bt_jw *j, const char *key, const char *v)
{
	bt_jw_str(j, key, v && *v ? v : NULL);
}

/* A count or speed where 0 means unknown. */
static void opt_u64(struct bt_jw *j, const char *key, uint64_t v)
{
	if (v)
		bt_jw_u64(j, key, v);
	else
		bt_jw_null(j, key);
}

static void smbios_json(struct bt_jw *j, const struct bt_smbios *s)
{
	char ver[16];

	bt_jw_object(j, "smbios");
	/* Absent, every key is still there (null), so readers need no
	 * second shape. */
	bt_jw_bool(j, "present", s->present);
	if (!s->present) {
		bt_jw_str(j, "reason", s->reason);
		bt_jw_null(j, "version");
	} else {
		snprintf(ver, sizeof(ver), "%u.%u", s->major, s->minor);
		bt_jw_str(j, "version", ver);
		bt_jw_str(j, "entry_point", s->entry_64bit ? "64-bit (_SM3_)" : "32-bit (_SM_)");
		bt_jw_u64(j, "structures", s->n_structures);
		if (s->reason[0])
			bt_jw_str(j, "note", s->reason);
	}
	bt_jw_object(j, "bios");
	opt_str(j, "vendor", s->bios.vendor);
	opt_str(j, "version", s->bios.version);
	opt_str(j, "release_date", s->bios.release_date);
	bt_jw_end(j);
	bt_jw_object(j, "system");
	opt_str(j, "manufacturer", s->system.manufacturer);
	opt_str(j, "product", s->system.product);
	opt_str(j, "version", s->system.version);
	opt_str(j, "serial", s->system.serial);
	opt_str(j, "uuid", s->system.uuid);
	opt_str(j, "sku", s->system.sku);
	opt_str(j, "family", s->system.family);
	bt_jw_end(j);
	bt_jw_object(j, "board");
	opt_str(j, "manufacturer", s->board.manufacturer);
	opt_str(j, "product", s->board.product);
	opt_str(j, "version", s->board.version);
	opt_str(j, "serial", s->board.serial);
	bt_jw_end(j);
	bt_jw_array(j, "processors");
	for (unsigned i = 0; i < s->n_processors; i++) {
		const struct bt_smbios_processor *p = &s->processor[i];

		bt_jw_object(j, NULL);
		opt_str(j, "socket", p->socket);
		opt_str(j, "manufacturer", p->manufacturer);
		opt_str(j, "version", p->version);
		opt_u64(j, "max_speed_mhz", p->max_speed_mhz);
		opt_u64(j, "current_speed_mhz", p->current_speed_mhz);
		opt_u64(j, "core_count", p->core_count);
		opt_u64(j, "thread_count", p->thread_count);
		bt_jw_end(j);
	}
	bt_jw_end(j);
	bt_jw_object(j, "memory");
	if (s->present) {
		bt_jw_u64(j, "total_mib", s->memory.total_mib);
		bt_jw_u64(j, "dimms_populated", s->memory.dimms_populated);
		bt_jw_u64(j, "dimm_slots", s->memory.dimm_slots);
	} else {
		bt_jw_null(j, "total_mib");
		bt_jw_null(j, "dimms_populated");
		bt_jw_null(j, "dimm_slots");
	}
	opt_u64(j, "speed_mts", s->memory.speed_mts);
	bt_jw_end(j);
	bt_jw_end(j);
}

static void fpdt_json(struct bt_jw *j, const struct bt_fpdt *f)
{
	bt_jw_object(j, "fpdt");
	bt_jw_bool(j, "present", f->present);
	if (!f->present) {
		bt_jw_str(j, "reason", f->reason);
	} else {
		/* 0 in the record: not recorded (ExitBootServices has not
		 * happened yet while baretop runs). */
		opt_u64(j, "reset_end_ns", f->reset_end_ns);
		opt_u64(j, "os_loader_load_image_start_ns", f->os_loader_load_image_start_ns);
		opt_u64(j, "os_loader_start_image_start_ns", f->os_loader_start_image_start_ns);
		opt_u64(j, "exit_boot_services_entry_ns", f->exit_boot_services_entry_ns);
		opt_u64(j, "exit_boot_services_exit_ns", f->exit_boot_services_exit_ns);
		bt_jw_str(j, "note", "nanoseconds since reset (ACPI FPDT basic boot performance "
				     "record); null where the firmware recorded 0");
	}
	bt_jw_end(j);
}

static void bli_json(struct bt_jw *j, const struct bt_bli *b)
{
	bt_jw_object(j, "boot_loader_interface");
	bt_jw_bool(j, "present", b->present);
	if (!b->present) {
		bt_jw_str(j, "reason", b->reason);
	} else {
		opt_str(j, "loader_info", b->loader_info);
		if (b->has_time_init)
			bt_jw_u64(j, "loader_time_init_usec", b->time_init_usec);
		else
			bt_jw_null(j, "loader_time_init_usec");
		if (b->has_time_exec)
			bt_jw_u64(j, "loader_time_exec_usec", b->time_exec_usec);
		else
			bt_jw_null(j, "loader_time_exec_usec");
	}
	bt_jw_end(j);
}

/* Each variable as its value (0 or 1) or the word "absent" (the firmware
 * does not define it) or "malformed": an absent AuditMode is not a 0. */
static void secure_boot_json(struct bt_jw *j, const struct bt_secure_boot *s)
{
	char text[240];

	bt_jw_object(j, "secure_boot");
	bt_jw_bool(j, "present", s->present);
	if (!s->present) {
		bt_jw_str(j, "reason", s->reason);
	} else {
		bt_jw_bool(j, "enforced", bt_sb_enforced(s));
		for (int i = 0; i < BT_SB_NVARS; i++) {
			const char *name = bt_sb_var_name((enum bt_sb_var)i);

			if (s->value[i] == 0 || s->value[i] == 1)
				bt_jw_u64(j, name, (uint64_t)s->value[i]);
			else
				bt_jw_str(j, name, s->value[i] == BT_SB_ABSENT ? "absent" : "malformed");
		}
		bt_sb_text(s, text, sizeof(text));
		bt_jw_str(j, "summary", text);
	}
	bt_jw_end(j);
}

void bt_machine_json(struct bt_jw *j, const struct bt_machine *m)
{
	bt_jw_object(j, "machine");
	smbios_json(j, &m->smbios);
	fpdt_json(j, &m->fpdt);
	bli_json(j, &m->bli);
	secure_boot_json(j, &m->secure_boot);
	bt_jw_end(j);
}

static const char *or_q(const char *s)
{
	return *s ? s : "?";
}

void bt_machine_console(const struct bt_machine *m)
{
	const struct bt_smbios *s = &m->smbios;

	if (!s->present) {
		printf("machine       no SMBIOS: %s\n", s->reason);
	} else {
		printf("machine       %s %s, serial %s, uuid %s\n", or_q(s->system.manufacturer),
		       or_q(s->system.product), or_q(s->system.serial), or_q(s->system.uuid));
		printf("firmware      %s %s (%s), SMBIOS %u.%u; %llu MiB in %u of %u DIMM slots\n",
		       or_q(s->bios.vendor), or_q(s->bios.version), or_q(s->bios.release_date),
		       s->major, s->minor, (unsigned long long)s->memory.total_mib,
		       s->memory.dimms_populated, s->memory.dimm_slots);
	}
	if (m->fpdt.present)
		printf("boot times    reset end %.3f ms, OS loader load %.3f ms, start %.3f ms (FPDT)\n",
		       (double)m->fpdt.reset_end_ns / 1e6,
		       (double)m->fpdt.os_loader_load_image_start_ns / 1e6,
		       (double)m->fpdt.os_loader_start_image_start_ns / 1e6);
	else
		printf("boot times    no FPDT: %s\n", m->fpdt.reason);
	char sb[240];
	bt_sb_text(&m->secure_boot, sb, sizeof(sb));
	printf("secure boot   %s\n", sb);
}
