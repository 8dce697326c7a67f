/* SPDX-License-Identifier: MIT */
/* The firmware double around baretop's boot (tests/unit/lib/boot-path-double.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/unit/lib/boot-path-double.h"

/* Boot#### numbers of the double's entries. */
enum {
	E_BARETOP = 1, E_OS = 2, E_PXE = 3, E_DISK = 4, E_REFUSED_OS = 5, E_SHELL = 6, E_SHIM = 7,
	E_SDBOOT = 8, E_NET_OS = 9, E_UNSIGNED = 10,
};

enum over {
	OVER_NO, OVER_OS, OVER_RESET_BARETOP, OVER_RESET_WATCHDOG, OVER_POWER_OFF, OVER_STUCK,
};

#define MAX_FILES 64

struct bpd_model {
	enum bpd_path path;
	enum bpd_fw fw;
	enum bpd_policy policy;
	enum bpd_then then;
	enum bpd_fault fault;
	bpd_run_fn *run;
	const char *dir;
	/* non-volatile */
	bool nv_present;
	uint8_t nv[256];
	size_t nv_len;
	bool boot_next_set;
	uint16_t boot_next;
	uint16_t order[6];
	size_t n_order;
	bool sd_oneshot;          /* LoaderEntryOneShot = baretop */
	unsigned net_attempts;
	uint32_t count_high;
	bool fault_used;          /* a _ONCE fault met */
	/* this boot */
	int boot;
	uint32_t count_low;
	bool boot_current_set;
	uint16_t boot_current;
	enum over over;
	unsigned nv_writes;
	bool measured, refused, cpus_left, reset_by_baretop, power_off_by_baretop;
	unsigned starts;          /* baretop started by anything but itself */
	bool returned_invalid;    /* its last return was EFI_INVALID_PARAMETER */
	bool stale_left;          /* BootNext == baretop's BootCurrent still there after it ran */
	uint16_t stale_watch;     /* that BootCurrent, while baretop runs (0: none) */
	int depth;
	/* results files seen: name, size, content */
	struct { char name[64]; long size; char head[96]; } files[MAX_FILES];
	int n_files;
	bool overwritten;
};

bool bpd_person_at_shell(enum bpd_path p, enum bpd_policy pol, enum bpd_then then)
{
	return p == BPD_SHELL && pol == BPD_RUN_NONE && then == BPD_THEN_DEFAULT;
}

const char *bpd_path_name(enum bpd_path p)
{
	static const char *const n[] = {
		"BootOrder first", "BootOrder later", "BootNext one-shot", "removable media",
		"PlatformRecovery", "UEFI shell", "shim", "systemd-boot one-shot",
		"systemd-boot default", "network OS next",
	};
	return p < BPD_N_PATHS ? n[p] : "?";
}

const char *bpd_fw_name(enum bpd_fw f)
{
	static const char *const n[] = {
		"EDK2", "keeps BootNext", "no BootCurrent", "MWAIT AP loop", "full store",
		"count stuck", "no count", "Secure Boot",
	};
	return f < BPD_N_FW ? n[f] : "?";
}

const char *bpd_invariant_name(enum bpd_invariant i)
{
	static const char *const n[] = {
		"OS<=2", "resets<=meas", "off-asked", "nv<=3", "no-overwrite", "reset-cap",
		"BootNext", "once/boot",
	};
	return i < BPD_N_INV ? n[i] : "?";
}

/* ---- the firmware's services */

int bpd_nv_read(struct bpd_model *m, void *buf, size_t *len)
{
	if (!m->nv_present)
		return BPD_NV_NOT_FOUND;
	if (m->nv_len > *len)
		return BPD_NV_FULL;
	memcpy(buf, m->nv, m->nv_len);
	*len = m->nv_len;
	return BPD_NV_OK;
}

/* EDK2 UpdateVariable: a store without room reclaims, then fails with
 * EFI_OUT_OF_RESOURCES; a write is counted either way (a flash write or an
 * erase). */
int bpd_nv_write(struct bpd_model *m, const void *buf, size_t len)
{
	m->nv_writes++;
	if (m->fw == BPD_FW_STORE_FULL)
		return BPD_NV_FULL;
	if (len > sizeof(m->nv))
		return BPD_NV_FULL;
	memcpy(m->nv, buf, len);
	m->nv_len = len;
	m->nv_present = true;
	return BPD_NV_OK;
}

/* Deleting needs no room (EDK2 marks the record deleted). */
bool bpd_boot_next_delete(struct bpd_model *m)
{
	m->nv_writes++;
	m->boot_next_set = false;
	return true;
}

bool bpd_boot_next_set(struct bpd_model *m, uint16_t num)
{
	m->nv_writes++;
	if (m->fw == BPD_FW_STORE_FULL)
		return false;
	m->boot_next_set = true;
	m->boot_next = num;
	return true;
}

size_t bpd_boot_order(struct bpd_model *m, const uint16_t **ret)
{
	*ret = m->order;
	return m->n_order;
}

enum bpd_entry_kind bpd_entry_kind(struct bpd_model *m, uint16_t num)
{
	switch (num) {
	case E_PXE:
	case E_NET_OS:
		return BPD_ENTRY_FIRMWARE_ONLY;
	case E_REFUSED_OS:
	case E_UNSIGNED:
		return BPD_ENTRY_REFUSED;
	default:
		return BPD_ENTRY_LOADABLE;
	}
	(void)m;
}

/* ---- images */

/* BootNext still pointing at the entry baretop started from, after baretop
 * ran (checked before the OS sets it again). */
static void check_stale(struct bpd_model *m)
{
	if (m->stale_watch && m->boot_next_set && m->boot_next == m->stale_watch)
		m->stale_left = true;
	m->stale_watch = 0;
}

static void os_reached(struct bpd_model *m)
{
	check_stale(m);
	/* A CPU left parked in baretop's image with the APs in an MWAIT loop:
	 * the OS's ExitBootServices waits for it for ever (EDK2 MpInitLib
	 * MpInitChangeApLoopCallback); in a HLT loop INIT-SIPI-SIPI takes it. */
	if (m->cpus_left && m->fw == BPD_FW_MWAIT) {
		m->over = OVER_STUCK;
		return;
	}
	m->over = OVER_OS;
	/* The OS triggers the next run as the start path is set up to. */
	if (m->path == BPD_BOOTNEXT) {
		m->boot_next_set = true;
		m->boot_next = E_BARETOP;
	}
	if (m->path == BPD_SDBOOT_ONESHOT)
		m->sd_oneshot = true;
}

static bool start_image(struct bpd_model *m, uint16_t num, bool *ret_success);

/* baretop, started by `parent`; returns whether the boot is over, else
 * how it returned. */
static bool run_baretop(struct bpd_model *m, enum bpd_parent parent, bool *ret_success)
{
	struct bpd_run_in in = {
		.m = m, .parent = parent,
		.have_boot_current = m->boot_current_set, .boot_current = m->boot_current,
		.boot_order_read = true,
		.have_boot_next = m->boot_next_set, .boot_next = m->boot_next,
		.have_count = m->fw != BPD_FW_NO_COUNT,
		.policy = m->policy, .then = m->then, .fault = m->fault,
		.fault_now = m->fault == BPD_USAGE_ERROR || m->fault == BPD_CRASH_ALWAYS ||
			     m->fault == BPD_HANG_ALWAYS || m->fault == BPD_CPUS_LEFT_ALWAYS ||
			     (m->fault != BPD_MEASURED && !m->fault_used),
		.results_dir = m->dir,
		.entry_tsc = 0x1000000ull * (uint64_t)(m->boot + 1) + (uint64_t)m->depth,
	};
	struct bpd_run_out out = { .act = BPD_ACT_RETURN_ERROR };
	bool stale = in.have_boot_current && in.have_boot_next && in.boot_next == in.boot_current;

	for (size_t i = 0; i < m->n_order; i++)
		if (in.have_boot_current && m->order[i] == in.boot_current)
			in.current_in_order = true;
	m->count_low++;
	in.count = in.have_count ? (uint64_t)m->count_high << 32 | m->count_low : 0;
	if (stale)
		m->stale_watch = in.boot_current;
	if (parent != BPD_PARENT_SELF)
		m->starts++;
	m->run(&in, &out);
	m->returned_invalid = out.act == BPD_ACT_RETURN_INVALID;
	check_stale(m);
	if (out.measured) {
		m->measured = true;
		if (m->fault != BPD_MEASURED && in.fault_now)
			m->fault_used = true;
	}
	m->refused |= out.refused;
	m->cpus_left |= out.cpus_left;
	m->overwritten |= out.record_wrong;
	*ret_success = false;
	switch (out.act) {
	case BPD_ACT_RETURN_SUCCESS:
		*ret_success = true;
		return false;
	case BPD_ACT_RETURN_ERROR:
	case BPD_ACT_RETURN_INVALID:
		return false;
	case BPD_ACT_CHAINLOAD:
		os_reached(m); /* the OS loader file, signed */
		return true;
	case BPD_ACT_RESTART_PARENT:
		if (parent == BPD_PARENT_SYSTEMD_BOOT || parent == BPD_PARENT_SELF) {
			bool ok;
			if (start_image(m, E_SDBOOT + 0x100, &ok))
				return true;
		}
		return false; /* could not: returned "not started" */
	case BPD_ACT_RESET:
		m->over = OVER_RESET_BARETOP;
		m->reset_by_baretop = true;
		return true;
	case BPD_ACT_POWER_OFF:
		m->over = OVER_POWER_OFF;
		m->power_off_by_baretop = true;
		return true;
	case BPD_ACT_HANG:
		m->over = out.watchdog_armed ? OVER_RESET_WATCHDOG : OVER_STUCK;
		return true;
	case BPD_ACT_OVER:
	default:
		return true;
	}
}

/* systemd-boot 252: the one-shot entry is read and deleted
 * (config_load_defaults), else the default; an entry that returns
 * EFI_SUCCESS brings the menu with the timeout off (efi_main: menu = true,
 * timeout_sec = 0), any other status ends systemd-boot with it. Started
 * again by baretop (num E_SDBOOT + 0x100), the baretop it starts has
 * baretop as an ancestor. */
static bool systemd_boot(struct bpd_model *m, bool restarted, bool *ret_success)
{
	bool baretop = m->sd_oneshot || m->path == BPD_SDBOOT_DEFAULT, ok;

	m->sd_oneshot = false;
	*ret_success = false;
	if (!baretop) {
		os_reached(m);
		return true;
	}
	if (run_baretop(m, restarted ? BPD_PARENT_SELF : BPD_PARENT_SYSTEMD_BOOT, &ok))
		return true;
	if (ok) {
		m->over = OVER_STUCK; /* its menu, waiting for a key */
		return true;
	}
	return false;
}

static bool start_image(struct bpd_model *m, uint16_t num, bool *ret_success)
{
	bool ok;

	*ret_success = false;
	if (++m->depth > 8) { /* a program that restarts loaders for ever */
		m->over = OVER_STUCK;
		return true;
	}
	bool over = false;
	switch (num) {
	case E_BARETOP:
	case E_DISK:
		over = run_baretop(m, BPD_PARENT_BOOT_MANAGER, ret_success);
		break;
	case E_OS:
		os_reached(m);
		over = true;
		break;
	case E_SHELL:
		/* startup.nsh: baretop, then the OS loader, whatever baretop returned */
		over = run_baretop(m, BPD_PARENT_SHELL, &ok);
		if (!over) {
			os_reached(m);
			over = true;
		}
		break;
	case E_SHIM:
		/* shim returns its second stage's status (init_grub); after
		 * EFI_INVALID_PARAMETER (or NOT_FOUND, TFTP/HTTP errors) it
		 * starts its default loader, \grubx64.efi: baretop, the second
		 * stage here, again */
		over = run_baretop(m, BPD_PARENT_SHIM, ret_success);
		if (!over && m->returned_invalid)
			over = run_baretop(m, BPD_PARENT_SHIM, ret_success);
		break;
	case E_SDBOOT:
	case E_SDBOOT + 0x100:
		over = systemd_boot(m, num != E_SDBOOT, ret_success);
		break;
	case E_NET_OS:
		/* the first attempt of the series fails (a transient network
		 * failure), every later one reaches the OS */
		if (m->net_attempts++ > 0) {
			os_reached(m);
			over = true;
		}
		break;
	default: /* PXE without a server; refused loaders never load */
		break;
	}
	m->depth--;
	return over;
}

bool bpd_start_entry(struct bpd_model *m, uint16_t num, bool *ret_success)
{
	if (bpd_entry_kind(m, num) == BPD_ENTRY_REFUSED) {
		*ret_success = false;
		return false;
	}
	return start_image(m, num, ret_success);
}

/* EfiBootManagerBoot: BootCurrent, the image, BootCurrent deleted. */
static bool boot_option(struct bpd_model *m, uint16_t num, bool *ret_success)
{
	if (bpd_entry_kind(m, num) == BPD_ENTRY_REFUSED) { /* LoadImage fails */
		*ret_success = false;
		return false;
	}
	m->boot_current_set = m->fw != BPD_FW_NO_BOOTCURRENT;
	m->boot_current = num;
	bool over = start_image(m, num, ret_success);
	m->boot_current_set = false;
	return over;
}

/* BdsEntry: BootNext (deleted first "to prevent loops", unless this
 * firmware keeps it), then BootOrder (BootBootOptions: a success brings
 * the boot manager menu), then PlatformRecovery####, then the menu. */
static void bds(struct bpd_model *m)
{
	bool ok;

	if (m->boot_next_set) {
		uint16_t n = m->boot_next;
		if (m->fw != BPD_FW_KEEPS_BOOTNEXT)
			m->boot_next_set = false;
		if (boot_option(m, n, &ok))
			return;
		if (ok) {
			m->over = OVER_STUCK;
			return;
		}
	}
	for (size_t i = 0; i < m->n_order; i++) {
		if (boot_option(m, m->order[i], &ok))
			return;
		if (ok) {
			m->over = OVER_STUCK;
			return;
		}
	}
	if (m->path == BPD_RECOVERY) {
		/* EfiBootManagerProcessLoadOption: \EFI\BOOT\BOOTX64.EFI on each
		 * medium until one returns EFI_SUCCESS: baretop, then a rescue
		 * system (the OS stand-in); no BootCurrent */
		if (run_baretop(m, BPD_PARENT_RECOVERY, &ok))
			return;
		if (ok) {
			m->over = OVER_STUCK; /* PlatformBootManagerUnableToBoot */
			return;
		}
		os_reached(m);
		return;
	}
	m->over = OVER_STUCK;
}

static void setup(struct bpd_model *m)
{
	static const uint16_t orders[BPD_N_PATHS][4] = {
		[BPD_BOOTORDER_FIRST] = { E_BARETOP, E_OS },
		[BPD_BOOTORDER_LATER] = { E_PXE, E_BARETOP, E_OS },
		[BPD_BOOTNEXT] = { E_OS },
		[BPD_REMOVABLE] = { E_DISK, E_OS },
		[BPD_RECOVERY] = { E_REFUSED_OS },
		[BPD_SHELL] = { E_SHELL, E_NET_OS, E_OS },
		[BPD_SHIM] = { E_SHIM, E_OS },
		[BPD_SDBOOT_ONESHOT] = { E_SDBOOT },
		[BPD_SDBOOT_DEFAULT] = { E_SDBOOT },
		[BPD_NETWORK_OS] = { E_BARETOP, E_NET_OS, E_OS },
	};
	m->n_order = 0;
	for (int i = 0; i < 4 && orders[m->path][i]; i++) {
		m->order[m->n_order++] = orders[m->path][i];
		/* Secure Boot firmware: an unsigned loader right after baretop's */
		bool after = orders[m->path][i] == E_BARETOP || orders[m->path][i] == E_DISK ||
			     orders[m->path][i] == E_SHIM;
		if (m->fw == BPD_FW_SECURE_BOOT && after)
			m->order[m->n_order++] = E_UNSIGNED;
	}
	if (m->path == BPD_BOOTNEXT) {
		m->boot_next_set = true;
		m->boot_next = E_BARETOP;
	}
	m->sd_oneshot = m->path == BPD_SDBOOT_ONESHOT;
	m->count_high = 100;
}

/* ---- the results folder: no file overwritten */

static void scan_files(struct bpd_model *m)
{
	DIR *d = opendir(m->dir);
	struct dirent *e;
	char path[512], head[96];

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", m->dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;
		if (f)
			fclose(f);
		head[n] = '\0';
		bool note = strncmp(e->d_name, "next-sequence", 13) == 0 ||
			    strcmp(e->d_name, "nvram-full") == 0;
		int k = 0;
		while (k < m->n_files && strcmp(m->files[k].name, e->d_name))
			k++;
		if (k == m->n_files) {
			if (m->n_files < MAX_FILES) {
				snprintf(m->files[k].name, sizeof(m->files[k].name), "%.63s",
					 e->d_name);
				m->n_files++;
			}
		} else if (!note && (m->files[k].size != (long)st.st_size ||
				     strcmp(m->files[k].head, head))) {
			m->overwritten = true; /* a file written before, changed */
		}
		if (k < MAX_FILES) {
			m->files[k].size = (long)st.st_size;
			snprintf(m->files[k].head, sizeof(m->files[k].head), "%s", head);
		}
	}
	closedir(d);
}

static void clear_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

/* ---- one combination */

struct series {
	enum over over[BPD_BOOTS];
	bool measured[BPD_BOOTS], refused[BPD_BOOTS], reset_by[BPD_BOOTS], off_by[BPD_BOOTS];
	bool stale_left[BPD_BOOTS], bootnext_reset[BPD_BOOTS];
	unsigned starts[BPD_BOOTS];
	unsigned nv[BPD_BOOTS];
	bool overwritten;
};

static unsigned check(const struct bpd_model *m, const struct series *s)
{
	unsigned bad = 0, measured = 0, resets = 0;

	for (int b = 0; b < BPD_BOOTS; b++) {
		measured += s->measured[b];
		resets += s->reset_by[b];
		if (s->off_by[b] && !(s->measured[b] && m->then == BPD_THEN_SHUTDOWN))
			bad |= 1u << BPD_INV_POWER_OFF;
		if (s->nv[b] > BPD_NV_WRITES_MAX)
			bad |= 1u << BPD_INV_NV_WRITES;
		if (b && (s->reset_by[b] || s->off_by[b]) && (s->reset_by[b - 1] || s->off_by[b - 1]))
			bad |= 1u << BPD_INV_RESET_CAP;
		if (s->starts[b] > 1)
			bad |= 1u << BPD_INV_ONCE;
		if (s->stale_left[b])
			bad |= 1u << BPD_INV_STALE_BOOTNEXT;
	}
	/* The shell with no --run, --then or --budget is a person's start:
	 * nothing unattended was asked for, no watchdog and no record are
	 * kept, and a hang or a CPU left behind is the person's to see. */
	if (bpd_person_at_shell(m->path, m->policy, m->then) &&
	    (m->fault == BPD_HANG_ONCE || m->fault == BPD_HANG_ALWAYS ||
	     m->fault == BPD_CPUS_LEFT_ONCE || m->fault == BPD_CPUS_LEFT_ALWAYS))
		return bad;
	for (int b = 0; b < BPD_CHECKED_BOOTS; b++) {
		bool reached = false;
		/* the OS, or the refusal of a configuration that cannot reach
		 * it; a power-off is not the OS: the next power-on must reach it */
		for (int k = b; k <= b + 2; k++)
			reached |= s->over[k] == OVER_OS ||
				   (m->path == BPD_SDBOOT_DEFAULT && s->refused[k]);
		if (!reached)
			bad |= 1u << BPD_INV_OS_REACHED;
	}
	if (resets > measured)
		bad |= 1u << BPD_INV_RESETS;
	if (s->overwritten)
		bad |= 1u << BPD_INV_RESULTS;
	return bad;
}

static unsigned run_series(struct bpd_model *m, struct series *s)
{
	memset(s, 0, sizeof(*s));
	setup(m);
	mkdir(m->dir, 0755);
	for (int b = 0; b < BPD_BOOTS; b++) {
		m->boot = b;
		if (m->fw != BPD_FW_COUNT_STUCK)
			m->count_high++;
		m->count_low = 0;
		m->over = OVER_NO;
		m->nv_writes = 0;
		m->measured = m->refused = m->cpus_left = false;
		m->reset_by_baretop = m->power_off_by_baretop = m->stale_left = false;
		m->starts = 0;
		m->depth = 0;
		bds(m);
		scan_files(m);
		s->over[b] = m->over;
		s->measured[b] = m->measured;
		s->refused[b] = m->refused;
		s->reset_by[b] = m->reset_by_baretop;
		s->off_by[b] = m->power_off_by_baretop;
		s->stale_left[b] = m->stale_left;
		s->starts[b] = m->starts;
		s->bootnext_reset[b] = m->reset_by_baretop && m->boot_next_set &&
				       m->boot_next != E_BARETOP;
		s->nv[b] = m->nv_writes;
	}
	s->overwritten = m->overwritten;
	clear_dir(m->dir);
	return check(m, s);
}

static void init_model(struct bpd_model *m, bpd_run_fn *run_fn, const char *dir,
		       enum bpd_path p, enum bpd_fw f, enum bpd_policy pol, enum bpd_then then,
		       enum bpd_fault fault)
{
	memset(m, 0, sizeof(*m));
	m->run = run_fn;
	m->dir = dir;
	m->path = p;
	m->fw = f;
	m->policy = pol;
	m->then = then;
	m->fault = fault;
}

unsigned bpd_run_one(bpd_run_fn *run_fn, const char *scratch_dir, enum bpd_path p,
		     enum bpd_fw f, enum bpd_policy pol, enum bpd_then then, enum bpd_fault fault)
{
	static struct bpd_model m;
	struct series s;
	char dir[300];

	snprintf(dir, sizeof(dir), "%s/one", scratch_dir);
	clear_dir(dir);
	init_model(&m, run_fn, dir, p, f, pol, then, fault);
	return run_series(&m, &s);
}

void bpd_run_all(bpd_run_fn *run_fn, const char *scratch_dir, struct bpd_totals *t)
{
	static struct bpd_model m;
	static const char *const pol_names[] = { "none", "once", "every-boot", "every=2" };
	static const char *const then_names[] = { "default", "return", "reboot", "shutdown",
						  "next-boot-entry", "chainload" };
	static const char *const fault_names[] = { "measured", "usage-error", "crash-once",
						   "crash-always", "hang-once", "hang-always",
						   "cpus-left-once", "cpus-left-always" };
	struct series s;
	char dir[300];

	memset(t, 0, sizeof(*t));
	snprintf(dir, sizeof(dir), "%s/combo", scratch_dir);
	clear_dir(dir);
	for (int p = 0; p < BPD_N_PATHS; p++)
		for (int f = 0; f < BPD_N_FW; f++)
			for (int pol = 0; pol < BPD_N_POLICY; pol++)
				for (int th = 0; th < BPD_N_THEN; th++)
					for (int fa = 0; fa < BPD_N_FAULT; fa++) {
		init_model(&m, run_fn, dir, p, f, pol, th, fa);
		unsigned bad = run_series(&m, &s);
		t->combos++;
		t->boots += BPD_CHECKED_BOOTS;
		for (int b = 0; b < BPD_BOOTS; b++) {
			t->measured += b < BPD_CHECKED_BOOTS && s.measured[b];
			t->ends[s.over[b]]++;
			t->bootnext_resets += s.bootnext_reset[b];
			if (s.nv[b] > t->max_nv_writes)
				t->max_nv_writes = s.nv[b];
			if (p == BPD_SDBOOT_DEFAULT && s.refused[b])
				t->refused++;
		}
		if (bpd_person_at_shell(p, pol, th))
			t->person++;
		if (p == BPD_BOOTORDER_FIRST && f == BPD_FW_EDK2 && th == BPD_THEN_DEFAULT &&
		    fa == BPD_MEASURED) {
			unsigned long nv = 0;
			for (int b = 0; b < BPD_CHECKED_BOOTS; b++)
				nv += s.nv[b];
			t->nv_per_boot[pol] = (double)nv / BPD_CHECKED_BOOTS;
		}
		if (bad ? getenv("BPD_TRACE") != NULL : getenv("BPD_TRACE_ALL") != NULL) {
			/* per boot: O the OS, r baretop's reset, w the watchdog's,
			 * P power-off, S stuck; m measured, ! refused, n NVRAM writes */
			static const char *const ov = "-OrwPS";
			fprintf(stderr, "%s, %s, %s, %s, %s: 0x%02x boots", bpd_path_name(p),
				bpd_fw_name(f), pol_names[pol], then_names[th], fault_names[fa], bad);
			for (int b = 0; b < BPD_BOOTS; b++)
				fprintf(stderr, " %c%s%s%u", ov[s.over[b]], s.measured[b] ? "m" : "",
					s.refused[b] ? "!" : "", s.nv[b]);
			fprintf(stderr, "\n");
		}
		for (int i = 0; i < BPD_N_INV; i++) {
			if (!(bad & 1u << i))
				continue;
			if (!t->fail[i])
				snprintf(t->first_fail[i], sizeof(t->first_fail[i]),
					 "%s, %s, --run %s, --then %s, %s", bpd_path_name(p),
					 bpd_fw_name(f), pol_names[pol], then_names[th],
					 fault_names[fa]);
			t->fail[i]++;
			t->fail_by_path[p][i]++;
			t->fail_by_fw[f][i]++;
			t->fail_by_policy[pol][i]++;
			t->fail_by_then[th][i]++;
			t->fail_by_fault[fa][i]++;
		}
	}
}

/* One row: its combinations and, per invariant, "holds" or how many broke it. */
static void row(FILE *out, const char *name, unsigned long combos, const unsigned long *fail)
{
	fprintf(out, "%-22s %6lu", name, combos);
	for (int i = 0; i < BPD_N_INV; i++) {
		if (fail[i])
			fprintf(out, " %7lu FAIL", fail[i]);
		else
			fprintf(out, " %12s", "holds");
	}
	fprintf(out, "\n");
}

void bpd_print(FILE *out, const struct bpd_totals *t, const char *title)
{
	static const char *const pol_names[] = { "--run none", "--run once", "--run every-boot",
						 "--run every=2" };
	static const char *const then_names[] = { "--then default", "--then return",
						  "--then reboot", "--then shutdown",
						  "--then next-boot-entry", "--then chainload" };
	static const char *const fault_names[] = { "measured", "usage error", "crash once",
						   "crash always", "hang once", "hang always",
						   "CPUs left once", "CPUs left always" };

	fprintf(out, "%s (SIMULATED firmware double, %lu combinations x %d boots, %lu measuring "
		     "boots)\n", title, t->combos, BPD_CHECKED_BOOTS, t->measured);
	fprintf(out, "%-22s %6s", "start path", "combos");
	for (int i = 0; i < BPD_N_INV; i++)
		fprintf(out, " %12s", bpd_invariant_name(i));
	fprintf(out, "\n");
	for (int p = 0; p < BPD_N_PATHS; p++)
		row(out, bpd_path_name(p), t->combos / BPD_N_PATHS, t->fail_by_path[p]);
	fprintf(out, "firmware behaviour\n");
	for (int f = 0; f < BPD_N_FW; f++)
		row(out, bpd_fw_name(f), t->combos / BPD_N_FW, t->fail_by_fw[f]);
	fprintf(out, "run policy\n");
	for (int p = 0; p < BPD_N_POLICY; p++)
		row(out, pol_names[p], t->combos / BPD_N_POLICY, t->fail_by_policy[p]);
	fprintf(out, "end action\n");
	for (int e = 0; e < BPD_N_THEN; e++)
		row(out, then_names[e], t->combos / BPD_N_THEN, t->fail_by_then[e]);
	fprintf(out, "outcome of a measuring boot\n");
	for (int f = 0; f < BPD_N_FAULT; f++)
		row(out, fault_names[f], t->combos / BPD_N_FAULT, t->fail_by_fault[f]);
	fprintf(out, "%-22s %6lu", "all", t->combos);
	for (int i = 0; i < BPD_N_INV; i++)
		fprintf(out, " %12lu", t->fail[i]);
	fprintf(out, "  (combinations that broke it)\n");
	for (int i = 0; i < BPD_N_INV; i++)
		if (t->fail[i])
			fprintf(out, "  %s first broken by: %s\n", bpd_invariant_name(i),
				t->first_fail[i]);
	fprintf(out, "most NVRAM writes in one boot: %u (bound %u); systemd-boot default entry: "
		     "refused with the reason %lu time(s); %lu combinations are a person's start at "
		     "the shell (no --run, --then, --budget), held to every invariant but OS<=2 "
		     "after a hang or a CPU left behind\n", t->max_nv_writes, BPD_NV_WRITES_MAX,
		t->refused, t->person);
	fprintf(out, "boots ended by: the OS %lu, baretop's reset %lu (%lu of them BootNext "
		     "attempts), the watchdog %lu, a power-off %lu, stuck %lu\n", t->ends[OVER_OS],
		t->ends[OVER_RESET_BARETOP], t->bootnext_resets, t->ends[OVER_RESET_WATCHDOG],
		t->ends[OVER_POWER_OFF], t->ends[OVER_STUCK]);
	fprintf(out, "per boot, EDK2, BootOrder first, --then default, no fault:");
	for (int p = 0; p < BPD_N_POLICY; p++)
		fprintf(out, " %s %.1f NVRAM writes;", pol_names[p], t->nv_per_boot[p]);
	fprintf(out, "\n");
}
