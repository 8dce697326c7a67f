/* SPDX-License-Identifier: MIT */
/*
 * The boot path over every start path and firmware behaviour
 * (tests/unit/lib/boot-path-double.h, SIMULATED firmware): the real
 * policy code (app/boot-run.c over app/boot-policy.c, the BaretopState
 * encoding, the results folder's files) started where the double puts it,
 * its NVRAM the double's (full or not), its end carried out as efi/efi-main.c
 * does, --then next-boot-entry as efi/boot-entry.c does (modelled here
 * from that file). The table is printed; every invariant must hold. Each
 * check is shown to catch a planted fault.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app-main.h"
#include "base/array.h"
#include "app/boot-run.h"
#include "app/options.h"
#include "arch/arch.h"
#include "arch/arch-cpuid-host.h"
#include "report/results-file.h"
#include "tests/unit/lib/boot-path-double.h"
#include "tests/unit/lib/test.h"

static struct bpd_model *model;
static uint32_t watchdog_s;

/* Planted faults, one per invariant check (0: none). */
enum plant {
	PLANT_NONE, PLANT_SUCCESS_TO_BDS, PLANT_RESET_NOT_MEASURING, PLANT_POWER_OFF_NOT_ASKED,
	PLANT_NV_WRITE_STORM, PLANT_OVERWRITE_RESULTS, PLANT_RESET_EVERY_MEASURE,
	PLANT_KEEP_STALE_BOOTNEXT, PLANT_USAGE_INVALID,
};
static enum plant plant;

static bt_status nv_read(const char *name, void *buf, size_t *len, struct bt_diag *d)
{
	(void)name;
	(void)d;
	int r = bpd_nv_read(model, buf, len);
	return r == BPD_NV_OK ? BT_OK : r == BPD_NV_NOT_FOUND ? BT_ERR_NOT_FOUND : BT_ERR_FULL;
}

static bt_status nv_write(const char *name, const void *buf, size_t len, struct bt_diag *d)
{
	(void)name;
	if (bpd_nv_write(model, buf, len) != BPD_NV_OK) {
		bt_diag_set(d, "SetVariable BaretopState: EFI_OUT_OF_RESOURCES (the double's full store)");
		return BT_ERR_FULL;
	}
	return BT_OK;
}

static bt_status set_watchdog(uint32_t s)
{
	watchdog_s = s;
	return BT_OK;
}

static bt_status boot_next_delete(struct bt_diag *d)
{
	(void)d;
	if (plant == PLANT_KEEP_STALE_BOOTNEXT)
		return BT_OK;
	return bpd_boot_next_delete(model) ? BT_OK : BT_ERR_IO;
}

static int rename_noreplace(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return -1;
	return unlink(from);
}

static int rename_replace(const char *from, const char *to)
{
	return rename(from, to);
}

struct doc {
	uint64_t tag;
};

static bt_status render(unsigned seq, struct bt_strbuf *out, void *ctx)
{
	const struct doc *doc = ctx;
	bt_sb_printf(out, "{\"sequence\": %u, \"tag\": \"%016llx\"}\n", seq,
		     (unsigned long long)doc->tag);
	return BT_OK;
}

static enum bt_parent parent_of(enum bpd_parent p)
{
	switch (p) {
	case BPD_PARENT_RECOVERY:     return BT_PARENT_RECOVERY;
	case BPD_PARENT_SHELL:        return BT_PARENT_SHELL;
	case BPD_PARENT_SHIM:         return BT_PARENT_SHIM;
	case BPD_PARENT_SYSTEMD_BOOT: return BT_PARENT_SYSTEMD_BOOT;
	case BPD_PARENT_SELF:         return BT_PARENT_SELF;
	default:                      return BT_PARENT_BOOT_MANAGER;
	}
}

/* efi/boot-entry.c bt_efi_start_next_boot_entry, modelled: the entries
 * after BootCurrent in BootOrder; a path only the boot manager resolves
 * is left to it (returning "not started") unless started from the shell,
 * where it is made BootNext with a reset where the end allows
 * (bt_bootnext_decide on the state in NVRAM); refused entries skipped; an
 * entry whose image returns an error: the next one. */
static enum bpd_act next_boot_entry(const struct bpd_run_in *in, const struct bt_platform *plat)
{
	const uint16_t *order;
	size_t n = bpd_boot_order(model, &order), i = 0;
	struct bt_boot_state state = { 0 };
	uint8_t buf[256];
	size_t len = sizeof(buf);
	struct bt_diag d;
	int r = bpd_nv_read(model, buf, &len);
	bool can_remember = r == BPD_NV_NOT_FOUND ||
			    (r == BPD_NV_OK && bt_boot_state_decode(buf, len, &state, &d) == BT_OK);

	if (!in->have_boot_current)
		return BPD_ACT_RETURN_ERROR;
	while (i < n && order[i] != in->boot_current)
		i++;
	i = i < n ? i + 1 : 0;
	for (; i < n; i++) {
		bool ok;
		if (order[i] == in->boot_current)
			continue;
		switch (bpd_entry_kind(model, order[i])) {
		case BPD_ENTRY_REFUSED:
			continue;
		case BPD_ENTRY_FIRMWARE_ONLY: {
			if (plat->boot_start.parent != BT_PARENT_SHELL)
				return BPD_ACT_RETURN_ERROR;
			enum bt_boot_gap g;
			struct bt_boot_state before = state;
			enum bt_bootnext_verdict v = bt_bootnext_decide(
				&state, order[i], in->have_count, in->count,
				plat->bootnext_may_reset && can_remember, &g);
			if (memcmp(&before, &state, sizeof(state)) && can_remember) {
				bt_boot_state_encode(&state, buf);
				bpd_nv_write(model, buf, BT_BOOT_STATE_SIZE);
			}
			if (v != BT_BOOTNEXT_TRY && v != BT_BOOTNEXT_REACHED)
				continue;
			bt_bootnext_mark(&state, order[i], in->count);
			bt_boot_state_encode(&state, buf);
			if (bpd_nv_write(model, buf, BT_BOOT_STATE_SIZE) != BPD_NV_OK ||
			    !bpd_boot_next_set(model, order[i]))
				return BPD_ACT_RETURN_ERROR;
			return BPD_ACT_RESET;
		}
		default:
			if (bpd_start_entry(model, order[i], &ok))
				return BPD_ACT_OVER;
			if (ok)
				return BPD_ACT_RETURN_SUCCESS;
			continue;
		}
	}
	return BPD_ACT_RETURN_ERROR;
}

/* One start of baretop, as bt_app_main and efi_main run it, without what
 * does not decide the boot (detection, workloads). */
static void run_after(const struct bpd_run_in *in, struct bpd_run_out *out)
{
	static struct bt_platform plat;
	static struct bt_options opt;
	static struct bt_boot_run b;
	bool measuring = false;

	model = in->m;
	watchdog_s = 0;
	memset(&plat, 0, sizeof(plat));
	plat.name = "boot-path double";
	plat.arch = bt_arch_cpuid_host();
	plat.entry_tsc = in->entry_tsc;
	plat.nv_read = nv_read;
	plat.nv_write = nv_write;
	plat.set_watchdog = set_watchdog;
	plat.boot_next_delete = boot_next_delete;
	plat.rename_noreplace = rename_noreplace;
	plat.boot_start = (struct bt_boot_start){
		.parent = parent_of(in->parent),
		.have_boot_current = in->have_boot_current, .boot_current = in->boot_current,
		.boot_order_read = in->boot_order_read, .current_in_order = in->current_in_order,
		.have_boot_next = in->have_boot_next, .boot_next = in->boot_next,
		.have_count = in->have_count, .count = in->count,
	};
	bt_options_defaults(&opt);
	opt.results_dir = in->results_dir;
	static const enum bt_run_policy runs[] = { BT_RUN_ALWAYS, BT_RUN_ONCE, BT_RUN_EVERY_BOOT,
						   BT_RUN_EVERY_N };
	opt.boot.run = runs[in->policy];
	opt.boot.every_n = 2;
	switch (in->then) {
	case BPD_THEN_RETURN:          opt.boot.then = BT_THEN_RETURN; break;
	case BPD_THEN_REBOOT:          opt.boot.then = BT_THEN_REBOOT; break;
	case BPD_THEN_SHUTDOWN:        opt.shutdown = true; break;
	case BPD_THEN_NEXT_BOOT_ENTRY: opt.boot.then = BT_THEN_NEXT_BOOT_ENTRY; break;
	case BPD_THEN_CHAINLOAD:       opt.then_boot = "\\EFI\\os\\loader.efi"; break;
	default: break;
	}

	bt_boot_run_settle(&plat);
	memset(&b, 0, sizeof(b));
	if (in->fault == BPD_USAGE_ERROR) {
		bt_boot_run_finish(&b, &plat, &opt, BT_OUTCOME_USAGE_ERROR, BT_EXIT_USAGE, 0, false);
	} else if (!(measuring = bt_boot_run_begin(&b, &plat, &opt))) {
		bt_boot_run_finish(&b, &plat, &opt, BT_OUTCOME_NOT_NOW, BT_EXIT_OK, 0, false);
	} else if (in->fault_now && (in->fault == BPD_HANG_ONCE || in->fault == BPD_HANG_ALWAYS)) {
		/* spins in the measurement: the watchdog it armed, if any */
		out->measured = true;
		out->act = BPD_ACT_HANG;
		out->watchdog_armed = watchdog_s > 0;
		bt_boot_run_free(&b);
		return;
	} else if (in->fault_now &&
		   (in->fault == BPD_CRASH_ONCE || in->fault == BPD_CRASH_ALWAYS)) {
		/* efi/fault-guard.c recovers, efi_main asks bt_app_crash_end */
		bt_boot_run_finish(&b, &plat, &opt, BT_OUTCOME_CRASH, BT_EXIT_FAILED, 0, false);
	} else {
		char note[96];
		struct bt_results_written w = { 0 };
		struct doc doc = { in->entry_tsc };
		bool left = in->fault_now && (in->fault == BPD_CPUS_LEFT_ONCE ||
					      in->fault == BPD_CPUS_LEFT_ALWAYS);
		/* a CPU left behind is known before the results are written
		 * (the measurement lost it): their record plans that end */
		if (left) {
			plat.aps_unaccounted = 1;
			snprintf(plat.aps_unaccounted_why, sizeof(plat.aps_unaccounted_why),
				 "the double's AP never came back");
		}
		bt_boot_run_plan(&b, left ? BT_OUTCOME_CPUS_LEFT : BT_OUTCOME_MEASURED, BT_EXIT_OK,
				 note, sizeof(note));
		enum bt_end_action planned = b.end.action;
		if (plant == PLANT_OVERWRITE_RESULTS) {
			/* a writer that replaces the first file */
			char path[300];
			snprintf(path, sizeof(path), "%s/000001.json", in->results_dir);
			bt_mkdir_p(in->results_dir);
			FILE *f = fopen(path, "w");
			if (f) {
				fprintf(f, "{\"tag\": \"%016llx\"}\n", (unsigned long long)doc.tag);
				fclose(f);
			}
		} else {
			bt_results_write(in->results_dir, "json", render, &doc,
					 plant == PLANT_NONE ? rename_noreplace : rename_replace,
					 note[0] ? note : NULL, &w, &(struct bt_diag){ "" });
		}
		bt_boot_run_finish(&b, &plat, &opt, left ? BT_OUTCOME_CPUS_LEFT : BT_OUTCOME_MEASURED,
				   BT_EXIT_OK, w.seq, note[0] && w.note_written);
		/* the results file records the end the boot takes */
		out->record_wrong = planned != b.end.action;
	}
	bt_boot_run_free(&b);
	out->measured = measuring;
	out->refused = plat.boot_start.parent == BT_PARENT_SELF && strstr(b.end.why, "default entry");
	/* the status efi/efi-main.c returns (status_of) */
	int exit_status = in->fault == BPD_USAGE_ERROR ? BT_EXIT_USAGE : BT_EXIT_OK;
	switch (plat.end_action) {
	case BT_END_RETURN:
	case BT_END_RETURN_NOT_STARTED:
		switch (bt_boot_return_status(plat.end_action, exit_status)) {
		case BT_RETURN_SUCCESS:           out->act = BPD_ACT_RETURN_SUCCESS; break;
		case BT_RETURN_INVALID_PARAMETER: out->act = BPD_ACT_RETURN_INVALID; break;
		default:                          out->act = BPD_ACT_RETURN_ERROR; break;
		}
		break;
	case BT_END_CHAINLOAD:          out->act = BPD_ACT_CHAINLOAD; break;
	case BT_END_RESTART_PARENT:     out->act = BPD_ACT_RESTART_PARENT; break;
	case BT_END_RESET:              out->act = BPD_ACT_RESET; break;
	case BT_END_POWER_OFF:          out->act = BPD_ACT_POWER_OFF; break;
	case BT_END_NEXT_BOOT_ENTRY:    out->act = next_boot_entry(in, &plat); break;
	}
	out->cpus_left = plat.aps_unaccounted && out->act != BPD_ACT_RESET;
	/* the planted faults, each against one invariant */
	switch (plant) {
	case PLANT_SUCCESS_TO_BDS:
		if (out->act == BPD_ACT_RETURN_ERROR)
			out->act = BPD_ACT_RETURN_SUCCESS;
		break;
	case PLANT_RESET_NOT_MEASURING:
		if (!measuring)
			out->act = BPD_ACT_RESET;
		break;
	case PLANT_POWER_OFF_NOT_ASKED:
		if (!measuring)
			out->act = BPD_ACT_POWER_OFF;
		break;
	case PLANT_NV_WRITE_STORM:
		for (int i = 0; i < 4; i++)
			bpd_nv_write(model, "x", 1);
		break;
	case PLANT_USAGE_INVALID:
		/* a usage error returned as EFI_INVALID_PARAMETER to any parent */
		if (in->fault == BPD_USAGE_ERROR && out->act == BPD_ACT_RETURN_ERROR)
			out->act = BPD_ACT_RETURN_INVALID;
		break;
	case PLANT_RESET_EVERY_MEASURE:
		if (measuring)
			out->act = BPD_ACT_RESET;
		break;
	default:
		break;
	}
}

/* The scratch folder for the double's results folders: tmpfs when there is one. */
static const char *scratch(void)
{
	static char dir[128];
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s/baretop-boot-path-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(dir))
			snprintf(dir, sizeof(dir), "/tmp");
	}
	return dir;
}

/* The program's console lines off while the double runs. */
static int quiet(void)
{
	fflush(stdout);
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY);
	dup2(null, STDOUT_FILENO);
	close(null);
	return saved;
}

static void loud(int saved)
{
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

TEST(every_start_path_and_firmware_behaviour_reaches_the_os)
{
	static struct bpd_totals t;

	plant = PLANT_NONE;
	int saved = quiet();
	bpd_run_all(run_after, scratch(), &t);
	loud(saved);
	bpd_print(stdout, &t, "boot paths with this branch's policy code");
	for (int i = 0; i < BPD_N_INV; i++)
		CHECK_MSG(t.fail[i] == 0, "%s broken in %lu combinations (first: %s)",
			  bpd_invariant_name(i), t.fail[i], t.first_fail[i]);
	CHECK(t.max_nv_writes <= BPD_NV_WRITES_MAX);
	CHECK(t.refused > 0);
	rmdir(scratch());
}

/* Each check catches the fault planted for it, on a combination where it
 * shows. */
TEST(each_invariant_check_catches_a_planted_fault)
{
	static const struct {
		enum plant plant;
		enum bpd_invariant inv;
		enum bpd_path path;
		enum bpd_fw fw;
		enum bpd_policy pol;
		enum bpd_then then;
		enum bpd_fault fault;
	} cases[] = {
		{ PLANT_SUCCESS_TO_BDS, BPD_INV_OS_REACHED, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_ONCE, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_RESET_NOT_MEASURING, BPD_INV_RESETS, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_ONCE, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_POWER_OFF_NOT_ASKED, BPD_INV_POWER_OFF, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_EVERY_2, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_NV_WRITE_STORM, BPD_INV_NV_WRITES, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_ONCE, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_OVERWRITE_RESULTS, BPD_INV_RESULTS, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_EVERY_BOOT, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_RESET_EVERY_MEASURE, BPD_INV_RESET_CAP, BPD_BOOTORDER_FIRST, BPD_FW_EDK2,
		  BPD_RUN_EVERY_BOOT, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_KEEP_STALE_BOOTNEXT, BPD_INV_STALE_BOOTNEXT, BPD_BOOTNEXT,
		  BPD_FW_KEEPS_BOOTNEXT, BPD_RUN_ONCE, BPD_THEN_DEFAULT, BPD_MEASURED },
		{ PLANT_USAGE_INVALID, BPD_INV_ONCE, BPD_SHIM, BPD_FW_EDK2, BPD_RUN_ONCE,
		  BPD_THEN_DEFAULT, BPD_USAGE_ERROR },
	};
	int saved = quiet();
	unsigned clean[BT_ARRAY_SIZE(cases)], planted[BT_ARRAY_SIZE(cases)];

	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		plant = PLANT_NONE;
		clean[i] = bpd_run_one(run_after, scratch(), cases[i].path, cases[i].fw,
				       cases[i].pol, cases[i].then, cases[i].fault);
		plant = cases[i].plant;
		planted[i] = bpd_run_one(run_after, scratch(), cases[i].path, cases[i].fw,
					 cases[i].pol, cases[i].then, cases[i].fault);
	}
	plant = PLANT_NONE;
	loud(saved);
	for (size_t i = 0; i < BT_ARRAY_SIZE(cases); i++) {
		CHECK_MSG(clean[i] == 0, "case %zu: broken without the planted fault (0x%x)", i,
			  clean[i]);
		CHECK_MSG(planted[i] & 1u << cases[i].inv, "planted fault %zu: %s not caught", i,
			  bpd_invariant_name(cases[i].inv));
		printf("# planted fault %zu caught by %s (broken: 0x%02x)\n", i,
		       bpd_invariant_name(cases[i].inv), planted[i]);
	}
	rmdir(scratch());
}
